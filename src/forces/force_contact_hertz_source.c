/* force_contact_hertz_source.c -- template body of the Hertz normal contact with the
 * optional Tsuji dashpot (see force_contact_hertz.c).  Only square roots: no
 * transcendental call, so the 53-bit MPFR twin reproduces double bit for bit. */

/* F = K delta sqrt(delta) + C sqrt(sqrt(delta)) delta', clamped to F >= 0 unless
 * attractive; f_i -= F n, f_j += F n (plane: f_i += F n). */
static int FUNCTION(contact_hertz, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct contact_set *set = params;
    struct FUNCTION(contact, scratch) w;
    int status = MB_SUCCESS;
    (void)t;
    FUNCTION(contact, scratch_init)(&w, s->prec);
    for (size_t m = 0; m < set->count; m++) {
        const struct contact_pair *cp = &set->items[m];
        int in = FUNCTION(contact, touching)(cp, s, &w, "contact-hertz");
        if (in < 0) {
            status = MB_EDOM;
            break;
        }
        if (in == 0)
            continue;
        R_SQRT(w.b, w.delta);                   /* b = delta^{1/2} */
        R_MUL(w.F, w.delta, w.b);
        R_MUL_D(w.F, w.F, cp->k);               /* F = K delta^{3/2} */
        if (cp->c != 0.0) {
            R_SQRT(w.a, w.b);                   /* a = delta^{1/4} */
            R_MUL(w.a, w.a, w.rate);
            R_MUL_D(w.a, w.a, cp->c);
            R_ADD(w.F, w.F, w.a);
        }
        if (!set->attractive && R_SGN(w.F) < 0)
            R_SET_D(w.F, 0.0);
        FUNCTION(contact, apply)(cp, s, &w);
    }
    FUNCTION(contact, scratch_clear)(&w);
    return status;
}

/* Jacobian: F = K delta^{3/2} + C delta^{1/4} delta',
 * Fd = (3/2) K delta^{1/2} + (1/4) C delta^{-3/4} delta',  Fv = C delta^{1/4}. */
static int FUNCTION(contact_hertz, jacobian)(const void *params, const TYPE(mb_nodes) *s,
                                             TYPE(mb_jacobian) *J)
{
    const struct contact_set *set = params;
    struct FUNCTION(contact, scratch) w;
    int status = MB_SUCCESS;
    FUNCTION(contact, scratch_init)(&w, s->prec);
    for (size_t m = 0; m < set->count && status == MB_SUCCESS; m++) {
        const struct contact_pair *cp = &set->items[m];
        int in = FUNCTION(contact, touching)(cp, s, &w, "contact-hertz");
        if (in < 0) {
            status = MB_EDOM;
            break;
        }
        if (in == 0)
            continue;
        R_SQRT(w.b, w.delta);                   /* b = delta^{1/2} */
        R_MUL(w.F, w.delta, w.b);
        R_MUL_D(w.F, w.F, cp->k);
        R_MUL_D(w.Fd, w.b, 1.5 * cp->k);        /* Fd = (3/2) K delta^{1/2} */
        R_SQRT(w.Fv, w.b);
        R_MUL_D(w.Fv, w.Fv, cp->c);             /* Fv = C delta^{1/4} */
        R_MUL(w.a, w.Fv, w.rate);
        R_ADD(w.F, w.F, w.a);
        if (!set->attractive && R_SGN(w.F) < 0)
            continue;
        /* (1/4) C delta^{-3/4} delta' = (1/4) Fv delta' / delta */
        R_DIV(w.a, w.a, w.delta);
        R_MUL_D(w.a, w.a, 0.25);
        R_ADD(w.Fd, w.Fd, w.a);
        status = FUNCTION(contact, jacobian_blocks)(cp, &w, J);
    }
    FUNCTION(contact, scratch_clear)(&w);
    return status;
}
