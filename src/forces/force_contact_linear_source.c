/* force_contact_linear_source.c -- template body of the linear spring-dashpot normal
 * contact (see force_contact_linear.c). */

/* F = kn delta + c delta', clamped to F >= 0 unless the law is attractive;
 * f_i -= F n, f_j += F n (plane: f_i += F n). */
static int FUNCTION(contact_linear, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct contact_set *set = params;
    struct FUNCTION(contact, scratch) w;
    int status = MB_SUCCESS;
    (void)t;
    FUNCTION(contact, scratch_init)(&w, s->prec);
    for (size_t m = 0; m < set->count; m++) {
        const struct contact_pair *cp = &set->items[m];
        int in = FUNCTION(contact, touching)(cp, s, &w, "contact-linear");
        if (in < 0) {
            status = MB_EDOM;
            break;
        }
        if (in == 0)
            continue;
        R_MUL_D(w.F, w.delta, cp->k);
        if (cp->c != 0.0) {
            R_MUL_D(w.a, w.rate, cp->c);
            R_ADD(w.F, w.F, w.a);
        }
        if (!set->attractive && R_SGN(w.F) < 0)
            R_SET_D(w.F, 0.0);
        FUNCTION(contact, apply)(cp, s, &w);
    }
    FUNCTION(contact, scratch_clear)(&w);
    return status;
}

/* Jacobian: Fd = kn, Fv = c (contact_geometry_source.c for the blocks). */
static int FUNCTION(contact_linear, jacobian)(const void *params, const TYPE(mb_nodes) *s,
                                              TYPE(mb_jacobian) *J)
{
    const struct contact_set *set = params;
    struct FUNCTION(contact, scratch) w;
    int status = MB_SUCCESS;
    FUNCTION(contact, scratch_init)(&w, s->prec);
    for (size_t m = 0; m < set->count && status == MB_SUCCESS; m++) {
        const struct contact_pair *cp = &set->items[m];
        int in = FUNCTION(contact, touching)(cp, s, &w, "contact-linear");
        if (in < 0) {
            status = MB_EDOM;
            break;
        }
        if (in == 0)
            continue;
        R_MUL_D(w.F, w.delta, cp->k);
        R_MUL_D(w.a, w.rate, cp->c);
        R_ADD(w.F, w.F, w.a);
        if (!set->attractive && R_SGN(w.F) < 0)
            continue;
        R_SET_D(w.Fd, cp->k);
        R_SET_D(w.Fv, cp->c);
        status = FUNCTION(contact, jacobian_blocks)(cp, &w, J);
    }
    FUNCTION(contact, scratch_clear)(&w);
    return status;
}
