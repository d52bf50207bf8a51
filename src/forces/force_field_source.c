/* force_field_source.c -- template bodies of gravity and drag (see force_field.c). */

/* f_i += m_i g for finite masses.  A node of infinite mass (inv_mass = 0) never
 * accelerates, and m g would be Inf (Inf * 0 = NaN on an axis with g_k = 0): it gets no
 * weight, as it has no gravity potential (force_field.c). */
static int FUNCTION(gravity, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct gravity *p = params;
    const double g[3] = { p->g[0], p->g[1], p->g[2] };
    /* f is written only through f: g, the masses and 1/m are read once per node */
    const REAL *restrict m = s->mass, *restrict im = s->inv_mass;
    REAL *restrict f = s->f;
    REAL a[1];
    R_INIT(a, s->prec);
    (void)t;
    for (size_t i = 0; i < s->n; i++) {
        if (R_ISZERO(&im[i]))
            continue;                                       /* no weight (above) */
        for (int k = 0; k < 3; k++) {
            R_MUL_D(a, &m[i], g[k]);
            R_ADD(&f[3 * i + k], &f[3 * i + k], a);
        }
    }
    R_CLEAR(a);
    return MB_SUCCESS;
}

/* f_i += -D v_i */
static int FUNCTION(drag, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct drag *p = params;
    REAL a[1];
    R_INIT(a, s->prec);
    (void)t;
    for (size_t k = 0; k < 3 * s->n; k++) {
        R_MUL_D(a, &s->v[k], p->D);
        R_SUB(&s->f[k], &s->f[k], a);
    }
    R_CLEAR(a);
    return MB_SUCCESS;
}

/* df_i/dv_i = -D I */
static int FUNCTION(drag, jacobian)(const void *params, const TYPE(mb_nodes) *s,
                                    TYPE(mb_jacobian) *J)
{
    const struct drag *p = params;
    for (size_t i = 0; i < s->n; i++) {
        long b = FUNCTION(mb_jacobian, add_block)(J, i, i);
        if (b < 0)
            return MB_ENOMEM;
        for (int k = 0; k < 3; k++)
            R_SET_D(&J->dfdv[9 * b + 4 * k], -p->D);
    }
    return MB_SUCCESS;
}
