/* force_contact_hertz_source.c -- template body of the Hertz normal contact with the
 * optional Tsuji dashpot (see force_contact_hertz.c); the loops over the pairs are
 * contact_law_source.c's, its magnitude contact_normal_source.c's.  Only square roots: no transcendental call, so the 53-bit MPFR
 * twin reproduces double bit for bit. */

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
