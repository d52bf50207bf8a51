/* force_torque_source.c -- template bodies of the constant torques (see force_torque.c). */

/* T_i += T (global frame), on every node or on the one node */
static int FUNCTION(torque, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct torque *p = params;
    size_t lo, hi;
    (void)t;
    if (node_range(p, s->n, &lo, &hi) != MB_SUCCESS)
        return MB_EINVAL;
    for (size_t i = lo; i < hi; i++)
        for (int k = 0; k < 3; k++)
            R_ADD_D(&s->torque[3 * i + k], &s->torque[3 * i + k], p->T[k]);
    return MB_SUCCESS;
}

/* T_i += R(q_i) T~ (T~ fixed in the body frame) */
static int FUNCTION(body_torque, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct torque *p = params;
    struct FUNCTION(mbq, scratch) w;
    REAL Tb[3], Tg[3];
    size_t lo, hi;
    (void)t;
    if (node_range(p, s->n, &lo, &hi) != MB_SUCCESS)
        return MB_EINVAL;
    FUNCTION(mbq, scratch_init)(&w, s->prec);
    for (int k = 0; k < 3; k++) {
        R_INIT(&Tb[k], s->prec);
        R_INIT(&Tg[k], s->prec);
        R_SET_D(&Tb[k], p->T[k]);
    }
    for (size_t i = lo; i < hi; i++) {
        FUNCTION(mbq, rotate)(&w, Tg, &s->q[4 * i], Tb);
        for (int k = 0; k < 3; k++)
            R_ADD(&s->torque[3 * i + k], &s->torque[3 * i + k], &Tg[k]);
    }
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&Tb[k]);
        R_CLEAR(&Tg[k]);
    }
    FUNCTION(mbq, scratch_clear)(&w);
    return MB_SUCCESS;
}
