/* contact_law_source.c -- template body of the loops over a contact set's pairs, one home
 * for the linear and Hertz laws (mb_contact.h): each pair in contact gets its force
 * magnitude F (and for the Jacobian dF/d delta, dF/d delta') from the law's callback; the
 * loop clamps F >= 0 unless the set is attractive and applies it along the normal or hands
 * the pair's blocks over.  Included after contact_geometry_source.c by each law's file. */

/* A law's magnitude at the pair's w->delta, w->rate: w->F, and with derivatives also
 * w->Fd = dF/d delta and w->Fv = dF/d delta' (w->a, w->b are free scratch). */
typedef void (*FUNCTION(contact, law))(const struct contact_pair *cp,
                                       struct FUNCTION(contact, scratch) *w, int derivatives);

/* f_i -= F n, f_j += F n (plane: f_i += F n) for every pair in contact, F of the law
 * `name`, clamped to >= 0 unless attractive. */
static int FUNCTION(contact, eval_pairs)(const struct contact_set *set, TYPE(mb_nodes) *s,
                                         FUNCTION(contact, law) law, const char *name)
{
    struct FUNCTION(contact, scratch) w;
    int status = FUNCTION(contact, sync)(set, s, name);
    if (status != MB_SUCCESS)
        return status;
    FUNCTION(contact, scratch_init)(&w, s->prec);
    for (size_t m = 0; m < set->count; m++) {
        const struct contact_pair *cp = &set->items[m];
        int in = FUNCTION(contact, touching)(set, cp, s, &w, name);
        if (in < 0) {
            status = MB_EDOM;
            break;
        }
        if (in == 0)
            continue;
        law(cp, &w, 0);
        if (!set->attractive && R_SGN(w.F) < 0)
            R_SET_D(w.F, 0.0);
        FUNCTION(contact, apply)(cp, s, &w);
    }
    FUNCTION(contact, scratch_clear)(&w);
    return status;
}

/* The blocks of every pair in contact whose force is not clamped
 * (contact_geometry_source.c, jacobian_blocks). */
static int FUNCTION(contact, jacobian_pairs)(const struct contact_set *set,
                                             const TYPE(mb_nodes) *s, TYPE(mb_jacobian) *J,
                                             FUNCTION(contact, law) law, const char *name)
{
    struct FUNCTION(contact, scratch) w;
    int status = FUNCTION(contact, sync)(set, s, name);
    if (status != MB_SUCCESS)
        return status;
    FUNCTION(contact, scratch_init)(&w, s->prec);
    for (size_t m = 0; m < set->count && status == MB_SUCCESS; m++) {
        const struct contact_pair *cp = &set->items[m];
        int in = FUNCTION(contact, touching)(set, cp, s, &w, name);
        if (in < 0) {
            status = MB_EDOM;
            break;
        }
        if (in == 0)
            continue;
        law(cp, &w, 1);
        if (!set->attractive && R_SGN(w.F) < 0)
            continue;
        status = FUNCTION(contact, jacobian_blocks)(cp, &w, J);
    }
    FUNCTION(contact, scratch_clear)(&w);
    return status;
}
