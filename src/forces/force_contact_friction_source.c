/* force_contact_friction_source.c -- template body of the frictional contact laws (see
 * force_contact_friction.c): the normal force of the pair's law, the tangential spring
 * with its Coulomb limit and dashpot, its contact history, and the rolling torque.  Only
 * square roots and the four operations: the 53-bit MPFR twin reproduces double bit for
 * bit. */

/* Scratch of the tangential part of one pair. */
struct FUNCTION(fric, scratch) {
    REAL u[3], ut[3], xi[3], Ft[3], wr[3], c[3];
    REAL p[1], q[1], pi[1], pj[1], kt[1], ct[1], lim[1], dt[1];
};

static void FUNCTION(fric, scratch_init)(struct FUNCTION(fric, scratch) *f, mpfr_prec_t prec)
{
    for (int k = 0; k < 3; k++) {
        R_INIT(&f->u[k], prec);
        R_INIT(&f->ut[k], prec); R_INIT(&f->xi[k], prec); R_INIT(&f->Ft[k], prec);
        R_INIT(&f->wr[k], prec); R_INIT(&f->c[k], prec);
    }
    R_INIT(f->p, prec); R_INIT(f->q, prec); R_INIT(f->pi, prec); R_INIT(f->pj, prec);
    R_INIT(f->kt, prec); R_INIT(f->ct, prec);
    R_INIT(f->lim, prec); R_INIT(f->dt, prec);
}

static void FUNCTION(fric, scratch_clear)(struct FUNCTION(fric, scratch) *f)
{
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&f->u[k]);
        R_CLEAR(&f->ut[k]); R_CLEAR(&f->xi[k]); R_CLEAR(&f->Ft[k]);
        R_CLEAR(&f->wr[k]); R_CLEAR(&f->c[k]);
    }
    R_CLEAR(f->p); R_CLEAR(f->q); R_CLEAR(f->pi); R_CLEAR(f->pj);
    R_CLEAR(f->kt); R_CLEAR(f->ct);
    R_CLEAR(f->lim); R_CLEAR(f->dt);
}

/* r = a.b of 3-vectors (t a temporary) */
static void FUNCTION(fric, dot)(REAL *r, const REAL *a, const REAL *b, REAL *t)
{
    R_MUL(r, &a[0], &b[0]);
    R_MUL(t, &a[1], &b[1]);
    R_ADD(r, r, t);
    R_MUL(t, &a[2], &b[2]);
    R_ADD(r, r, t);
}

/* r (+)= sign (w x a): r += w x a (sign 1) or r -= w x a (sign -1) (t a temporary) */
static void FUNCTION(fric, cross_acc)(REAL *r, const REAL *w, const REAL *a, int sign, REAL *t,
                                      REAL *t2)
{
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        R_MUL(t, &w[k1], &a[k2]);
        R_MUL(t2, &w[k2], &a[k1]);
        R_SUB(t, t, t2);
        if (sign > 0)
            R_ADD(&r[k], &r[k], t);
        else
            R_SUB(&r[k], &r[k], t);
    }
}

/* v <- v - (v.n) n (t, t2 temporaries) */
static void FUNCTION(fric, tangential)(REAL *v, const REAL *n, REAL *t, REAL *t2)
{
    FUNCTION(fric, dot)(t, v, n, t2);
    for (int k = 0; k < 3; k++) {
        R_MUL(t2, t, &n[k]);
        R_SUB(&v[k], &v[k], t2);
    }
}

/* Arms from the centres to the contact point, the midpoint of the overlap, along n:
 *   sphere pair  a_i = p_i n,  p_i = r_i - delta/2;   a_j = -p_j n,  p_j = r_j - delta/2
 *   plane        a_i = p_i n,  p_i = -(r_i - delta/2)  (n points from the plane to the sphere)
 * and the velocity of i's contact point relative to j's (the plane is at rest):
 *   u = v_i + w_i x a_i - (v_j + w_j x a_j) = (v_i - v_j) + s x n,   s = p_i w_i + p_j w_j
 *   (plane: u = v_i + s x n, s = p_i w_i),   u_t = u - (u.n) n,
 * one cross product for both spheres, as LAMMPS's pair_gran_hooke_history.cpp sums the
 * radii-weighted spins first; the centres' velocities v from the array `vel` (the store's
 * v, or its v_step).  p_i and p_j stay in f->pi and f->pj for fric_apply; s in f->c. */
static void FUNCTION(fric, slip_velocity)(const struct contact_pair *cp, const TYPE(mb_nodes) *s,
                                          const REAL *vel, struct FUNCTION(contact, scratch) *w,
                                          struct FUNCTION(fric, scratch) *f)
{
    size_t i = cp->i, j = cp->j;
    REAL *pi = f->pi, *pj = f->pj;
    R_MUL_2SI(f->q, w->delta, -1);                      /* q = delta/2 */
    R_D_SUB(pi, s->radius[i], f->q);                    /* p_i = r_i - delta/2 */
    if (cp->plane)
        R_NEG(pi, pi);
    for (int k = 0; k < 3; k++) {
        R_MUL(&f->c[k], pi, &s->omega[3 * i + k]);     /* s = p_i w_i */
        R_SET(&f->u[k], &vel[3 * i + k]);
    }
    if (!cp->plane) {
        R_D_SUB(pj, s->radius[j], f->q);                /* p_j = r_j - delta/2 */
        for (int k = 0; k < 3; k++) {
            R_MUL(w->a, pj, &s->omega[3 * j + k]);      /* s += p_j w_j */
            R_ADD(&f->c[k], &f->c[k], w->a);
            R_SUB(&f->u[k], &f->u[k], &vel[3 * j + k]);
            if (cp->imaged)                /* the image's medium velocity L H p */
                R_SUB_D(&f->u[k], &f->u[k], cp->vshift[k]);
        }
    }
    FUNCTION(fric, cross_acc)(f->u, f->c, w->n, 1, w->a, f->p);   /* u += s x n */
    for (int k = 0; k < 3; k++)
        R_SET(&f->ut[k], &f->u[k]);
    FUNCTION(fric, tangential)(f->ut, w->n, w->a, f->p);
}

/* Stiffness k_t and dashpot gamma_t of the pair at overlap delta: linear kt, ct;
 * Hertz-Mindlin kt delta^{1/2}, ct delta^{1/4} (Di Renzo & Di Maio 2004, eqs. for k_t
 * of Mindlin's no-slip solution). */
static void FUNCTION(fric, coefficients)(const struct contact_set *set,
                                         const struct contact_pair *cp,
                                         struct FUNCTION(contact, scratch) *w,
                                         struct FUNCTION(fric, scratch) *f)
{
    R_SET_D(f->kt, cp->kt);
    R_SET_D(f->ct, cp->ct);
    if (set->normal == CONTACT_NORMAL_HERTZ) {
        R_SQRT(f->p, w->delta);                         /* p = delta^{1/2} */
        R_MUL(f->kt, f->kt, f->p);
        R_SQRT(f->p, f->p);                             /* p = delta^{1/4} */
        R_MUL(f->ct, f->ct, f->p);
    }
}

/* The history xb (at the base level) carried to the current tangent plane and advanced
 * by u_t dt into f->xi (doc/dem.md, "Contact history"):
 *   x' = xb - (xb.n) n,  x' <- x' |xb|/|x'|  (magnitude kept; x' = 0 when |x'| = 0),
 *   xi = x' + u_t dt. */
static void FUNCTION(fric, carry)(const REAL *xb, struct FUNCTION(contact, scratch) *w,
                                  struct FUNCTION(fric, scratch) *f)
{
    FUNCTION(fric, dot)(f->p, xb, w->n, w->a);         /* p = xb.n */
    for (int k = 0; k < 3; k++) {
        R_MUL(w->a, f->p, &w->n[k]);
        R_SUB(&f->xi[k], &xb[k], w->a);                 /* x' = xb - (xb.n) n */
    }
    FUNCTION(fric, dot)(f->q, xb, xb, f->p);           /* q = |xb|^2 */
    FUNCTION(fric, dot)(f->p, f->xi, f->xi, w->a);     /* p = |x'|^2 */
    if (R_SGN(f->p) > 0) {
        R_SQRT(f->q, f->q);
        R_SQRT(f->p, f->p);
        R_DIV(f->q, f->q, f->p);
        for (int k = 0; k < 3; k++)
            R_MUL(&f->xi[k], &f->xi[k], f->q);
    }
    for (int k = 0; k < 3; k++) {
        R_MUL(w->a, &f->ut[k], f->dt);
        R_ADD(&f->xi[k], &f->xi[k], w->a);
    }
}

/* F_t = -k_t xi - gamma_t u_t, limited to |F_t| <= mu F_n (Cundall & Strack 1979, eqs. 6-7):
 * beyond the limit F_t <- F_t mu F_n/|F_t| and xi <- -F_t/k_t: the spring alone carries
 * the limited force, the dashpot is idle while sliding (doc/dem.md, "Sliding"; LAMMPS's
 * gran/hooke/history keeps -(F_t + gamma_t u_t)/k_t instead, a spring stretched against
 * the slip by the dashpot's share).  Returns 1 when limited (sliding). */
static int FUNCTION(fric, coulomb)(const struct contact_set *set,
                                   struct FUNCTION(contact, scratch) *w,
                                   struct FUNCTION(fric, scratch) *f)
{
    for (int k = 0; k < 3; k++) {
        R_MUL(&f->Ft[k], f->kt, &f->xi[k]);
        R_MUL(w->a, f->ct, &f->ut[k]);
        R_ADD(&f->Ft[k], &f->Ft[k], w->a);
        R_NEG(&f->Ft[k], &f->Ft[k]);
    }
    if (R_SGN(w->F) > 0)
        R_MUL_D(f->lim, w->F, set->fr.mu);              /* lim = mu F_n */
    else
        R_SET_D(f->lim, 0.0);
    FUNCTION(fric, dot)(f->q, f->Ft, f->Ft, f->p);     /* q = |F_t|^2 */
    R_MUL(f->p, f->lim, f->lim);
    if (R_CMP(f->q, f->p) <= 0)
        return 0;
    R_SQRT(f->q, f->q);
    R_DIV(f->q, f->lim, f->q);                          /* q = mu F_n/|F_t| */
    for (int k = 0; k < 3; k++) {
        R_MUL(&f->Ft[k], &f->Ft[k], f->q);
        R_DIV(w->a, &f->Ft[k], f->kt);
        R_NEG(&f->xi[k], w->a);
    }
    return 1;
}

/* f_i += F_t, tau_i += a_i x F_t = p_i (n x F_t); pair: f_j -= F_t,
 * tau_j -= a_j x F_t = p_j (n x F_t) (fric_slip_velocity's arms: one cross product for both
 * spheres, as LAMMPS forms one and scales it by each radius). */
static void FUNCTION(fric, apply)(const struct contact_pair *cp, TYPE(mb_nodes) *s,
                                  struct FUNCTION(contact, scratch) *w,
                                  struct FUNCTION(fric, scratch) *f)
{
    size_t i = cp->i, j = cp->j;
    for (int k = 0; k < 3; k++) {
        R_ADD(&s->f[3 * i + k], &s->f[3 * i + k], &f->Ft[k]);
        if (!cp->plane)
            R_SUB(&s->f[3 * j + k], &s->f[3 * j + k], &f->Ft[k]);
    }
    for (int k = 0; k < 3; k++) {                       /* c = n x F_t */
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        R_MUL(w->a, &w->n[k1], &f->Ft[k2]);
        R_MUL(f->p, &w->n[k2], &f->Ft[k1]);
        R_SUB(&f->c[k], w->a, f->p);
    }
    for (int k = 0; k < 3; k++) {
        R_MUL(w->a, f->pi, &f->c[k]);
        R_ADD(&s->torque[3 * i + k], &s->torque[3 * i + k], w->a);
        if (!cp->plane) {
            R_MUL(w->a, f->pj, &f->c[k]);
            R_ADD(&s->torque[3 * j + k], &s->torque[3 * j + k], w->a);
        }
    }
}

/* Constant directional rolling torque (Ai et al. 2011, model A, eq. 3):
 *   w_r = (w_i - w_j) - ((w_i - w_j).n) n  (rolling, not twisting; plane: w_j = 0),
 *   M_r = -mu_r R* F_n w_r/|w_r| on i, -M_r on j; none when w_r = 0 or F_n <= 0. */
static void FUNCTION(fric, rolling)(const struct contact_pair *cp, TYPE(mb_nodes) *s,
                                    struct FUNCTION(contact, scratch) *w,
                                    struct FUNCTION(fric, scratch) *f)
{
    size_t i = cp->i, j = cp->j;
    if (cp->roll == 0.0 || R_SGN(w->F) <= 0)
        return;
    for (int k = 0; k < 3; k++) {
        R_SET(&f->wr[k], &s->omega[3 * i + k]);
        if (!cp->plane)
            R_SUB(&f->wr[k], &f->wr[k], &s->omega[3 * j + k]);
    }
    FUNCTION(fric, tangential)(f->wr, w->n, w->a, f->p);
    FUNCTION(fric, dot)(f->q, f->wr, f->wr, f->p);
    if (R_SGN(f->q) <= 0)
        return;
    R_SQRT(f->q, f->q);
    R_MUL_D(f->p, w->F, cp->roll);
    R_DIV(f->q, f->p, f->q);                            /* q = mu_r R* F_n/|w_r| */
    for (int k = 0; k < 3; k++) {
        R_MUL(w->a, &f->wr[k], f->q);
        R_SUB(&s->torque[3 * i + k], &s->torque[3 * i + k], w->a);
        if (!cp->plane)
            R_ADD(&s->torque[3 * j + k], &s->torque[3 * j + k], w->a);
    }
}

/* FR_XA(h): the second array of xi (the base of a level that is not in place); FR_XB(h):
 * the base of the current level (the double instance's is xc itself on a level opened in
 * place, contact_set.h; the MPFR instance keeps both levels always) */
#if IS_MPFR
#define FR_XA(h) ((h)->xb_m)
#define FR_XB(h) ((h)->xb_m)
#define FR_XC(h) ((h)->xc_m)
#define FR_LEVEL(h) (&(h)->lev_m)
#define FR_BOOKS(h) (&(h)->m)
#else
#define FR_XA(h) ((h)->xb)
#define FR_XB(h) mb_contact_history_base(h)
#define FR_XC(h) ((h)->xc)
#define FR_LEVEL(h) (&(h)->lev)
#define FR_BOOKS(h) (&(h)->d)
#endif

/* Move the history to time t (contact_history.c): on a new level the candidate becomes
 * the base, by exchanging the two arrays (*commit = 1): every pair's candidate is written
 * again by the evaluation that follows (fric_restore covers an evaluation that stops
 * early) -- or, on a level opened in place, by staying where it is: each pair's new
 * candidate is written over it; the instance's account with it (friction_books.c).  The
 * instance's account becomes the live one, which the energy hooks read.  *dt = t - tb. */
static int FUNCTION(fric, level)(const struct contact_set *set, mpfr_prec_t prec, double t,
                                 double *dt, int *commit)
{
    struct contact_history *h = set->hist;
#if IS_MPFR
    if (mb_contact_history_mpfr_ready(h, set->count, prec) != MB_SUCCESS)
        return MB_ENOMEM;
#else
    (void)prec;
#endif
    int st = mb_contact_level_move(FR_LEVEL(h), t, set->type->name, commit, dt);
    if (st == MB_SUCCESS && *commit && !FR_LEVEL(h)->in_place) {
        REAL *base = FR_XA(h);
        FR_XA(h) = FR_XC(h);
        FR_XC(h) = base;
    }
    if (st == MB_SUCCESS && *commit) {
#if IS_MPFR
        friction_books_commit(FR_BOOKS(h), set->count, 0);
#else
        friction_books_commit(FR_BOOKS(h), friction_books_kept(set), FR_LEVEL(h)->in_place);
#endif
    }
    if (st != MB_SUCCESS)   /* refused: the levels and their works as they were */
        return st;
    FR_BOOKS(h)->wc = (struct contact_works){ 0.0, 0.0 };
    friction_books_level(FR_BOOKS(h), FR_LEVEL(h)->in_place);
    h->live = FR_BOOKS(h);
    return st;
}

#if IS_MPFR
/* a 3-vector rounded to double */
static void FUNCTION(fric, get_d)(double *d, const REAL *a)
{
    for (int k = 0; k < 3; k++)
        d[k] = R_GET_D(&a[k]);
}
#endif

/* An evaluation that stopped at pair `from` after a commit: the candidates of the pairs
 * not reached are the base, as a copy of the candidate into the base would have left
 * them (on a level opened in place they are already: the base is the candidate array,
 * copied onto itself). */
static void FUNCTION(fric, restore)(const struct contact_set *set, size_t from)
{
    struct contact_history *h = set->hist;
    for (size_t k = 3 * from; k < 3 * set->count; k++)
        R_SET(&FR_XC(h)[k], &FR_XB(h)[k]);
}

/* One pair m through the template: normal force of the pair's law, then the tangential
 * force and rolling torque; xi of the candidate level from the base; a pair apart has its
 * history reset (xi = 0, not sliding): a contact that closes again starts unloaded
 * (doc/dem.md).  Returns 1 in contact, 0 apart, -1 on coincident centres (recorded). */
static int FUNCTION(fric, pair)(const struct contact_set *set, TYPE(mb_nodes) *s, size_t m,
                                struct FUNCTION(contact, scratch) *w,
                                struct FUNCTION(fric, scratch) *f)
{
    struct contact_history *h = set->hist;
    struct contact_books *books = FR_BOOKS(h);
    const struct contact_pair *cp = &set->items[m];
    REAL *xc = &FR_XC(h)[3 * m];
    int in = FUNCTION(contact, touching)(set, cp, s, w, set->type->name);
    if (in < 0)
        return in;
    double xi_tr[3], xi_b[3], xi_c[3], ut[3];
    if (in == 0) {
#if IS_MPFR
        FUNCTION(fric, get_d)(xi_b, &FR_XB(h)[3 * m]);
#else
        for (int k = 0; k < 3; k++)
            xi_b[k] = FR_XB(h)[3 * m + k];
#endif
        friction_book_release(books, 1, 0.0, m, xi_b);
        for (int k = 0; k < 3; k++)
            R_SET_D(&xc[k], 0.0);
#if IS_MPFR
        for (int k = 0; k < 3; k++)
            books->xi[3 * m + k] = 0.0;
#endif
        return 0;
    }
    FUNCTION(contact, normal_force)(set, cp, w);
    FUNCTION(contact, apply)(cp, s, w);
    /* the history advances by the velocity of the step (v_step when the scheme's v is a
     * predicted end-of-step velocity: a midpoint increment, second order), the dashpot
     * acts on v (doc/dem.md, "Contact history") */
    FUNCTION(fric, slip_velocity)(cp, s, s->v_step ? s->v_step : s->v, w, f);
    FUNCTION(fric, coefficients)(set, cp, w, f);
    FUNCTION(fric, carry)(&FR_XB(h)[3 * m], w, f);
    /* the trial and the increment's u_t, in double for the account (the MPFR instance's
     * rounded), which forms the carried base xi_b' = xi_tr - u_t dt from them */
    const double dt = R_GET_D(f->dt);
    for (int k = 0; k < 3; k++) {
        xi_tr[k] = R_GET_D(&f->xi[k]);
        ut[k] = R_GET_D(&f->ut[k]);
    }
    if (s->v_step)
        FUNCTION(fric, slip_velocity)(cp, s, s->v, w, f);
    int slid = FUNCTION(fric, coulomb)(set, w, f);
    for (int k = 0; k < 3; k++) {
        R_SET(&xc[k], &f->xi[k]);
        xi_c[k] = R_GET_D(&f->xi[k]);
    }
#if IS_MPFR
    for (int k = 0; k < 3; k++)
        books->xi[3 * m + k] = xi_c[k];
#endif
    friction_book(books, set->normal == CONTACT_NORMAL_HERTZ, 1, m, xi_tr, ut, dt, xi_c,
                  R_GET_D(f->kt), slid);
    FUNCTION(fric, apply)(cp, s, w, f);
    FUNCTION(fric, rolling)(cp, s, w, f);
    return 1;
}

#if IS_MPFR
/* Every pair through the template; *failed the pair of coincident centres. */
static int FUNCTION(fric, all_pairs)(const struct contact_set *set, TYPE(mb_nodes) *s,
                                     const REAL *dt, size_t *failed)
{
    struct FUNCTION(contact, scratch) w;
    struct FUNCTION(fric, scratch) f;
    int status = MB_SUCCESS;
    FUNCTION(contact, scratch_init)(&w, s->prec);
    FUNCTION(fric, scratch_init)(&f, s->prec);
    R_SET(f.dt, dt);
    for (size_t m = 0; m < set->count; m++)
        if (FUNCTION(fric, pair)(set, s, m, &w, &f) < 0) {
            *failed = m;
            status = MB_EDOM;
            break;
        }
    FUNCTION(fric, scratch_clear)(&f);
    FUNCTION(contact, scratch_clear)(&w);
    return status;
}
#else
/* The walls (sphere-plane pairs) through the template, the sphere pairs through the
 * kernel of friction_pair_double.c -- row by row of the neighbour list in neighbour
 * mode; *failed the pair of coincident centres. */
static int fric_all_pairs(const struct contact_set *set, mb_nodes *s, const double *dt,
                          size_t *failed)
{
    struct contact_scratch w;
    struct fric_scratch f;
    int status = MB_SUCCESS;
    const size_t walls = set->nl ? set->nwalls : set->count;
    contact_scratch_init(&w, 53);
    fric_scratch_init(&f, 53);
    f.dt[0] = *dt;
    for (size_t m = 0; m < walls && status == MB_SUCCESS; m++) {
        const struct contact_pair *cp = &set->items[m];
        int in = cp->plane ? fric_pair(set, s, m, &w, &f)
                           : friction_sphere_pair(friction_law_of(set, s), cp,
                                                  cp->imaged ? cp->shift : NULL,
                                                  cp->vshift, cp->i, cp->j, s,
                                                  &s->f[3 * cp->i], &s->torque[3 * cp->i],
                                                  FR_XB(set->hist), FR_XC(set->hist),
                                                  &set->hist->d, m, *dt);
        if (in < 0) {
            *failed = m;
            status = MB_EDOM;
        }
    }
    if (status == MB_SUCCESS && set->nl)
        status = friction_rows_double(set, s, *dt, failed);
    fric_scratch_clear(&f);
    contact_scratch_clear(&w);
    if (status != MB_SUCCESS)   /* the kernel's only failure (walls cannot coincide) */
        mb_error_record(MB_EDOM, __FILE__, __LINE__, "%s: spheres %zu and %zu have "
                        "coincident centres", set->type->name, set->items[*failed].i,
                        set->items[*failed].j);
    return status;
}
#endif

/* The force of every pair at time t with the history moved to t (fric_level). */
static int FUNCTION(contact_friction, eval)(const void *params, TYPE(mb_nodes) *s, double t)
{
    const struct contact_set *set = params;
    double dt;
    int commit = 0;
    int status = FUNCTION(contact, sync)(set, s, set->type->name);
    if (status == MB_SUCCESS)
        status = FUNCTION(fric, level)(set, s->prec, t, &dt, &commit);
    if (status != MB_SUCCESS)
        return status;
    REAL rdt[1];
    size_t failed = 0;
    R_INIT(rdt, s->prec);
    R_SET_D(rdt, dt);
    status = FUNCTION(fric, all_pairs)(set, s, rdt, &failed);
    R_CLEAR(rdt);
    if (status != MB_SUCCESS && commit)
        FUNCTION(fric, restore)(set, failed);
    return status;
}

#undef FR_XA
#undef FR_XB
#undef FR_XC
#undef FR_LEVEL
#undef FR_BOOKS
