/* contact_normal_source.c -- template body of the normal force magnitudes of the linear
 * and Hertz laws (mb_contact.h), one home for the frictionless laws (through
 * contact_law_source.c's loops) and the frictional ones, which add a tangential force to
 * the same normal force (force_contact_friction_source.c).  Included after
 * contact_geometry_source.c; a file uses one law or both. */

/* F = kn delta + c delta'; with derivatives Fd = kn, Fv = c. */
MB_MAYBE_UNUSED static void FUNCTION(contact_linear, magnitude)(const struct contact_pair *cp,
                                                struct FUNCTION(contact, scratch) *w,
                                                int derivatives)
{
    R_MUL_D(w->F, w->delta, cp->k);
    if (derivatives || cp->c != 0.0) {
        R_MUL_D(w->a, w->rate, cp->c);
        R_ADD(w->F, w->F, w->a);
    }
    if (derivatives) {
        R_SET_D(w->Fd, cp->k);
        R_SET_D(w->Fv, cp->c);
    }
}

/* F = K delta sqrt(delta) + C sqrt(sqrt(delta)) delta'; with derivatives
 * Fd = (3/2) K delta^{1/2} + (1/4) C delta^{-3/4} delta',  Fv = C delta^{1/4}. */
MB_MAYBE_UNUSED static void FUNCTION(contact_hertz, magnitude)(const struct contact_pair *cp,
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

/* The clamped normal force w->F of a pair in contact for the set's normal law: the law's
 * magnitude, F = max(0, F) unless the set is attractive (the loop of contact_law_source.c
 * does the same for the frictionless laws). */
MB_MAYBE_UNUSED static void FUNCTION(contact, normal_force)(const struct contact_set *set,
                                                            const struct contact_pair *cp,
                                                            struct FUNCTION(contact, scratch) *w)
{
    if (set->normal == CONTACT_NORMAL_LINEAR)
        FUNCTION(contact_linear, magnitude)(cp, w, 0);
    else
        FUNCTION(contact_hertz, magnitude)(cp, w, 0);
    if (!set->attractive && R_SGN(w->F) < 0)
        R_SET_D(w->F, 0.0);
}
