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
        int in = FUNCTION(contact, kinematics)(cp, s, &w);
        if (in < 0) {
            status = mb_error_record(MB_EDOM, __FILE__, __LINE__,
                                     "contact-hertz: spheres %zu and %zu have coincident centres",
                                     cp->i, cp->j);
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
