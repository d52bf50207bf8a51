/* friction_books.c -- the account a frictional law keeps of its history levels, in double,
 * for both instances (struct contact_books, contact_set.h): k_t of each pair at the base
 * and the candidate, whether the candidate slid, and the works the law books itself (doc/dem.md,
 * "Energy of the tangential spring").  One home for the booking of the template
 * (force_contact_friction_source.c, both instances: the MPFR one books from its values
 * rounded to double, which at 53 bits are the double instance's bit for bit) and of the
 * double sphere-pair kernel (friction_pair_double.c).  Included by
 * force_contact_friction.c. */

/* The pairs whose k_t the double instance's account keeps: every pair but the sphere pairs
 * of a linear law in neighbour mode, whose base k_t is the pair's kt (friction_book's
 * kt_kept; the pair kernel's row loop books them so). */
static size_t friction_books_kept(const struct contact_set *set)
{
    return set->nl && set->normal == CONTACT_NORMAL_LINEAR ? set->nwalls : set->count;
}

/* A new level: the candidate's k_t (of the first count pairs) and works become the base's;
 * the candidate's works start again from zero (every pair's candidate is written again by
 * the evaluation).  On a level opened in place (in_place 1) k_t is not copied: the base's
 * is read from ktc, where the candidate's is then written, pair by pair. */
static void friction_books_commit(struct contact_books *b, size_t count, int in_place)
{
    if (!in_place)
        memcpy(b->ktb, b->ktc, count * sizeof *b->ktb);
    b->wb.slip += b->wc.slip;
    b->wb.stiffness += b->wc.stiffness;
}

/* Where the base's k_t is read at the current level (contact_books.kb). */
static void friction_books_level(struct contact_books *b, int in_place)
{
    b->kb = in_place ? b->ktc : b->ktb;
}

/* The works of pair m's candidate level, from the base's k_b and carried xi_b' (the base
 * xi turned into the current tangent plane, xi_b' = xi_tr - u_t dt, formed here in double
 * from the trial and the increment's u_t (ut) only where a work uses it: a pair that slid,
 * or any pair of the Hertz-Mindlin law), the trial xi_tr
 * and the candidate's k_c, xi_c, with the spring forces F_b = -k_b xi_b', F_c = -k_c xi_c
 * and the slip increment s = xi_tr - xi_c:
 *   slip       W_s = -(F_b + F_c)/2 . s      the slip increment against the mean of the
 *                                            level's end forces (0 in stick: s = 0)
 *   stiffness  W_k = 1/2 (k_c - k_b) xi_b'.xi_c   (zero for the linear law: k_c = k_b)
 * They make the level's account exact: 1/2 k_c |xi_c|^2 - 1/2 k_b |xi_b|^2 + W_s - W_k
 * = -(F_b + F_c)/2 . u_t dt, the trapezoid-rule work done on the spring by the contact
 * point's displacement u_t dt.  The slip work against the end force alone (Yade's
 * plastic dissipation, F_c.s) or the trial's spring energy above the candidate's
 * (1/2 k_c (|xi_tr|^2 - |xi_c|^2)) each miss that by O(k_t |u_t dt|^2) per sliding level:
 * a first-order residual.  A level at its base's time (dt = 0, the first evaluation of a
 * run) is the initial history, not a step: what its Coulomb limit sets (the spring handed
 * a tangential dashpot's force at t0) is part of the initial energy, and no work was done.
 *
 * In stick xi_c is the trial itself, so each term of the slip is 0.5 (+0) (finite) = +-0,
 * their sum +0, and adding +0 leaves the booked slip as it was (it is never -0: it starts
 * at +0 and a sum is -0 only when both terms are): the slip is summed for the pairs that
 * slid alone, the same total bit for bit.
 *
 * kt_kept 0 (the linear law's sphere pairs in the kernel's row loop): the base's k_b is
 * read as kc and no k_t is stored.  The account holds k_b = k_t of the pair when the base
 * was in contact, else k_b = 0 with xi_b = 0 (both written together; a new pair starts with
 * both zero), and the linear law's k_t is the pair's constant kt; when the base was apart,
 * xi_b' = (0 + u_t dt) - u_t dt = +0 and kc (+0) = +0 as 0 (+0) is: the same works. */
static MB_ALWAYS_INLINE void friction_book(struct contact_books *b, int hertz, int kt_kept,
                                           size_t m, const double xi_tr[3],
                                           const double ut[3], double dt,
                                           const double xi_c[3], double kc, int slid)
{
    const double kb = kt_kept ? b->kb[m] : kc;
    if (kt_kept)
        b->ktc[m] = kc;
    b->sliding[m] = (unsigned char)slid;
    if (dt == 0.0 || !(slid || hertz))
        return;
    double xb[3];
    for (int k = 0; k < 3; k++)
        xb[k] = xi_tr[k] - ut[k] * dt;
    if (slid) {
        double slip = 0.0;
        for (int k = 0; k < 3; k++)
            slip += 0.5 * (xi_tr[k] - xi_c[k]) * (kb * xb[k] + kc * xi_c[k]);
        b->wc.slip += slip;
    }
    if (hertz) {
        double bc = 0.0;
        for (int k = 0; k < 3; k++)
            bc += xb[k] * xi_c[k];
        b->wc.stiffness += 0.5 * (kc - kb) * bc;
    }
}

/* A pair found apart (xb its base xi in double): the spring energy 1/2 k_b |xi_b|^2 its
 * base level held is released without work as xi is reset (bounded by 1/2 (mu F_n)^2/k_t
 * of that level, which falls to zero with F_n as the contact ends) and is booked with the
 * slip.  kt_kept 0: k_b read as the pair's kt (friction_book; with xi_b = 0 when the base
 * was apart, 0.5 kt 0 = +0 as 0.5 0 0 is). */
static MB_ALWAYS_INLINE void friction_book_release(struct contact_books *b, int kt_kept,
                                                   double kt, size_t m, const double xb[3])
{
    const double kb = kt_kept ? b->kb[m] : kt;
    b->wc.slip += 0.5 * kb * ((xb[0] * xb[0] + xb[1] * xb[1]) + xb[2] * xb[2]);
    if (kt_kept)
        b->ktc[m] = 0.0;
    b->sliding[m] = 0;
}
