/* force_contact_linear_source.c -- template body of the linear spring-dashpot normal
 * contact (see force_contact_linear.c); the loops over the pairs are
 * contact_law_source.c's, its magnitude contact_normal_source.c's. */

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
