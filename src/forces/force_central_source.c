/* force_central_source.c -- template bodies of the central force (see force_central.c). */

/* r2 = |x_i|^2 and c = -mu m_i / r^3 (a: scratch); on x_i = 0 (r = 0) MB_EDIVERGED,
 * recorded with the node named. */
static int FUNCTION(central, radial)(const struct central *p, const TYPE(mb_nodes) *s, size_t i,
                                     REAL *r2, REAL *c, REAL *a)
{
    const REAL *x = &s->x[3 * i];
    R_MUL(r2, &x[0], &x[0]);
    R_MUL(a, &x[1], &x[1]); R_ADD(r2, r2, a);
    R_MUL(a, &x[2], &x[2]); R_ADD(r2, r2, a);
    if (R_ISZERO(r2))
        return mb_error_record(MB_EDIVERGED, __FILE__, __LINE__,
                               "central force: node %zu is at the centre (r = 0)", i);
    R_SQRT(a, r2);
    R_MUL(a, a, r2);                           /* a = r^3 */
    R_MUL_D(c, &s->mass[i], -p->mu);
    R_DIV(c, c, a);                            /* c = -mu m / r^3 */
    return MB_SUCCESS;
}

/* f_i += -mu m_i x_i / |x_i|^3 */
static int FUNCTION(central, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct central *p = params;
    REAL r2[1], a[1], c[1];
    int status = MB_SUCCESS;
    (void)t;
    R_INIT(r2, s->prec); R_INIT(a, s->prec); R_INIT(c, s->prec);
    for (size_t i = 0; i < s->n; i++) {
        if ((status = FUNCTION(central, radial)(p, s, i, r2, c, a)) != MB_SUCCESS)
            break;
        for (int k = 0; k < 3; k++) {
            R_MUL(a, c, &s->x[3 * i + k]);
            R_ADD(&s->f[3 * i + k], &s->f[3 * i + k], a);
        }
    }
    R_CLEAR(r2); R_CLEAR(a); R_CLEAR(c);
    return status;
}

/* df_i/dx_i = -mu m (I / r^3 - 3 x x^T / r^5) */
static int FUNCTION(central, jacobian)(const void *params, const TYPE(mb_nodes) *s,
                                       TYPE(mb_jacobian) *J)
{
    const struct central *p = params;
    REAL r2[1], a[1], c[1], d[1];
    int status = MB_SUCCESS;
    R_INIT(r2, s->prec); R_INIT(a, s->prec); R_INIT(c, s->prec); R_INIT(d, s->prec);
    for (size_t i = 0; i < s->n && status == MB_SUCCESS; i++) {
        const REAL *x = &s->x[3 * i];
        status = FUNCTION(central, radial)(p, s, i, r2, c, a);     /* refuses r = 0 */
        if (status != MB_SUCCESS)
            break;
        long b = FUNCTION(mb_jacobian, add_block)(J, i, i);
        if (b < 0) {
            status = MB_ENOMEM;
            break;
        }
        R_DIV(d, c, r2);
        R_MUL_D(d, d, -3.0);                   /* d = 3 mu m / r^5 */
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++) {
                REAL *e = &J->dfdx[9 * b + 3 * r + q];
                R_MUL(a, &x[r], &x[q]);
                R_MUL(a, a, d);
                if (r == q)
                    R_ADD(a, a, c);
                R_ADD(e, e, a);
            }
    }
    R_CLEAR(r2); R_CLEAR(a); R_CLEAR(c); R_CLEAR(d);
    return status;
}
