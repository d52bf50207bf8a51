/* force_contact_linear_source.c -- template body of the linear spring-dashpot normal
 * contact (see force_contact_linear.c); the loops over the pairs are
 * contact_law_source.c's. */

/* F = kn delta + c delta'; with derivatives Fd = kn, Fv = c. */
static void FUNCTION(contact_linear, magnitude)(const struct contact_pair *cp,
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

static int FUNCTION(contact_linear, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    (void)t;
    return FUNCTION(contact, eval_pairs)(params, s, FUNCTION(contact_linear, magnitude),
                                         "contact-linear");
}

static int FUNCTION(contact_linear, jacobian)(const void *params, const TYPE(mb_nodes) *s,
                                              TYPE(mb_jacobian) *J)
{
    return FUNCTION(contact, jacobian_pairs)(params, s, J, FUNCTION(contact_linear, magnitude),
                                             "contact-linear");
}
