/* force_contact_hertz_source.c -- template body of the Hertz normal contact with the
 * optional Tsuji dashpot (see force_contact_hertz.c); the loops over the pairs are
 * contact_law_source.c's.  Only square roots: no transcendental call, so the 53-bit MPFR
 * twin reproduces double bit for bit. */

/* F = K delta sqrt(delta) + C sqrt(sqrt(delta)) delta'; with derivatives
 * Fd = (3/2) K delta^{1/2} + (1/4) C delta^{-3/4} delta',  Fv = C delta^{1/4}. */
static void FUNCTION(contact_hertz, magnitude)(const struct contact_pair *cp,
                                               struct FUNCTION(contact, scratch) *w,
                                               int derivatives)
{
    R_SQRT(w->b, w->delta);                     /* b = delta^{1/2} */
    R_MUL(w->F, w->delta, w->b);
    R_MUL_D(w->F, w->F, cp->k);                 /* F = K delta^{3/2} */
    if (!derivatives) {
        if (cp->c != 0.0) {
            R_SQRT(w->a, w->b);                 /* a = delta^{1/4} */
            R_MUL(w->a, w->a, w->rate);
            R_MUL_D(w->a, w->a, cp->c);
            R_ADD(w->F, w->F, w->a);
        }
        return;
    }
    R_MUL_D(w->Fd, w->b, 1.5 * cp->k);          /* Fd = (3/2) K delta^{1/2} */
    R_SQRT(w->Fv, w->b);
    R_MUL_D(w->Fv, w->Fv, cp->c);               /* Fv = C delta^{1/4} */
    R_MUL(w->a, w->Fv, w->rate);
    R_ADD(w->F, w->F, w->a);
    /* (1/4) C delta^{-3/4} delta' = (1/4) Fv delta' / delta */
    R_DIV(w->a, w->a, w->delta);
    R_MUL_D(w->a, w->a, 0.25);
    R_ADD(w->Fd, w->Fd, w->a);
}

static int FUNCTION(contact_hertz, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    (void)t;
    return FUNCTION(contact, eval_pairs)(params, s, FUNCTION(contact_hertz, magnitude),
                                         "contact-hertz");
}

static int FUNCTION(contact_hertz, jacobian)(const void *params, const TYPE(mb_nodes) *s,
                                             TYPE(mb_jacobian) *J)
{
    return FUNCTION(contact, jacobian_pairs)(params, s, J, FUNCTION(contact_hertz, magnitude),
                                             "contact-hertz");
}
