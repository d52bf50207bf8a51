/* force_constant_source.c -- template bodies of the constant forces (see force_constant.c). */

/* f_i += F (global frame) */
static int FUNCTION(constant_force, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct constant_force *p = params;
    (void)t;
    if (check_node(p, s->n) != MB_SUCCESS)
        return MB_EINVAL;
    for (int k = 0; k < 3; k++)
        R_ADD_D(&s->f[3 * p->node + k], &s->f[3 * p->node + k], p->F[k]);
    return MB_SUCCESS;
}

/* f_i += R(q_i) F~ (F~ fixed in the body frame) */
static int FUNCTION(body_force, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct constant_force *p = params;
    struct FUNCTION(mbq, scratch) w;
    REAL Fb[3], Fg[3];
    (void)t;
    if (check_node(p, s->n) != MB_SUCCESS)
        return MB_EINVAL;
    FUNCTION(mbq, scratch_init)(&w, s->prec);
    for (int k = 0; k < 3; k++) {
        R_INIT(&Fb[k], s->prec);
        R_INIT(&Fg[k], s->prec);
        R_SET_D(&Fb[k], p->F[k]);
    }
    FUNCTION(mbq, rotate)(&w, Fg, &s->q[4 * p->node], Fb);
    for (int k = 0; k < 3; k++)
        R_ADD(&s->f[3 * p->node + k], &s->f[3 * p->node + k], &Fg[k]);
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&Fb[k]);
        R_CLEAR(&Fg[k]);
    }
    FUNCTION(mbq, scratch_clear)(&w);
    return MB_SUCCESS;
}
