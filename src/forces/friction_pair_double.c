/* friction_pair_double.c -- the double instance's kernel of one frictional sphere pair
 * (force_contact_friction_source.c states the law: normal force, tangential spring with
 * its history and Coulomb limit, tangential dashpot, rolling torque), and the loop over
 * the rows of a neighbour list that keeps the forces of a row's sphere i in registers,
 * after LAMMPS's pair_gran_hooke_history.cpp.  Included by force_contact_friction.c.
 *
 * The template spells every operation as a three-address macro on pointers into a
 * scratch structure, which the compiler keeps in memory; this kernel performs the same
 * operations on the same operands in the same order on local scalars, so that its
 * results are those of the template bit for bit (the MPFR twin at 53 bits and the
 * all-pairs equality of contact_neighbours.c test it: tests/test_contact_friction.c,
 * tests/test_contact_neighbours.c).  Only the order of the loads and of the stores to
 * distinct nodes differs: every force and torque component receives the same sequence
 * of additions.  delta/2 is computed as 0.5 delta, which is ldexp(delta, -1) exactly
 * (both are the correctly rounded half).  The build uses -ffp-contract=off: no FMA. */

/* The set's law read once per loop (the stores of a pair may alias the set); vstep: the
 * nodes carry a velocity of the step (s->v_step) beside v; kt_kept: the account keeps
 * each pair's k_t (friction_book; 0 for the linear law's rows).  The row loop passes
 * hertz, vstep and kt_kept as constants, so that each of its instances has no branch on
 * them. */
struct friction_law_double {
    int hertz, attractive, vstep, kt_kept;
    double mu;
};

static struct friction_law_double friction_law_of(const struct contact_set *set,
                                                  const mb_nodes *s)
{
    return (struct friction_law_double){ .hertz = set->normal == CONTACT_NORMAL_HERTZ,
                                         .attractive = set->attractive,
                                         .vstep = s->v_step != NULL, .kt_kept = 1,
                                         .mu = set->fr.mu };
}

/* a . b of 3-vectors, as the template's dot: ((a0 b0) + (a1 b1)) + (a2 b2) */
static MB_ALWAYS_INLINE double fp_dot(const double a[3], const double b[3])
{
    double r = a[0] * b[0];
    r = r + a[1] * b[1];
    return r + a[2] * b[2];
}

/* (w x a)_k = w_{k+1} a_{k+2} - w_{k+2} a_{k+1}, as the template's cross_acc forms it */
static MB_ALWAYS_INLINE double fp_cross(const double w[3], const double a[3], int k)
{
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    return w[k1] * a[k2] - w[k2] * a[k1];
}

/* The tangential slip velocity of the contact point (fric_slip_velocity), with the
 * radii-weighted spin sum sw = p_i w_i + p_j w_j:
 *   u = (v_i - v_j (- vshift)) + sw x n,   u_t = u - (u.n) n
 * (vshift NULL: j itself). */
static MB_ALWAYS_INLINE void fp_slip(const double *vi, const double *vj, const double sw[3],
                                     const double n[3], const double *vshift, double ut[3])
{
    double u[3];
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        u[k] = vi[k] - vj[k];
        if (vshift)
            u[k] = u[k] - vshift[k];
    }
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        u[k] = u[k] + fp_cross(sw, n, k);
    const double un = fp_dot(u, n);
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        ut[k] = u[k] - un * n[k];
}

/* One sphere pair (i, j) with the coefficients of cp (k, c, kt, ct, roll) and the image
 * of j of shift and vshift (the pair record's, or their copy in the set's image table;
 * both NULL: j itself), at the base history xbase[3 m ..] with the time
 * since the base dt: adds to f_i, tau_i (fi, ti: the node's arrays or a row's
 * accumulators) and to f_j, tau_j, writes the candidate history xcand[3 m ..] and books
 * the level in b (friction_books.c: h->d, or a row loop's copy of it whose works are
 * stored back).  xbase is xcand itself on a level opened in place
 * (mb_contact_history_base): the base is read whole before the candidate is written.
 * Returns 1 in contact, 0 apart (history reset), -1 on coincident centres (nothing
 * written). */
static MB_ALWAYS_INLINE int friction_sphere_pair(const struct friction_law_double law,
                                                 const struct contact_pair *cp,
                                                 const double *shift, const double *vshift,
                                                 size_t i,
                                                 size_t j, const mb_nodes *s, double *fi,
                                                 double *ti, const double *xbase,
                                                 double *xcand, struct contact_books *b,
                                                 size_t m, double dt)
{
    const double *xb = &xbase[3 * m];
    double *xc = &xcand[3 * m];
    const double *xi = &s->x[3 * i], *xj = &s->x[3 * j];
    double d[3], l2 = 0.0;
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        d[k] = xj[k] - xi[k];
        if (shift)                             /* periodic image of j (neighbour mode) */
            d[k] = d[k] + shift[k];
        l2 = l2 + d[k] * d[k];
    }
    const double l = sqrt(l2), ri = s->radius[i], rj = s->radius[j];
    const double delta = (ri + rj) - l;
    if (!(delta > 0.0)) {                      /* apart: history reset */
        /* the spring energy of the base released, booked with the slip */
        friction_book_release(b, law.kt_kept, cp->kt, m, xb);
        xc[0] = xc[1] = xc[2] = 0.0;
        return 0;
    }
    if (l == 0.0)
        return -1;
    const double *vi = &s->v[3 * i], *vj = &s->v[3 * j];
    const double *wi = &s->omega[3 * i], *wj = &s->omega[3 * j];
    double n[3], rate = 0.0;
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        n[k] = d[k] / l;
        double dv = vj[k] - vi[k];
        if (shift)                             /* the image's medium velocity L H p */
            dv = dv + vshift[k];
        rate = rate - dv * n[k];
    }
    /* normal force (contact_normal_source.c) */
    double F;
    if (!law.hertz) {
        F = delta * cp->k;
        if (cp->c != 0.0)
            F = F + rate * cp->c;
    } else {
        const double b = sqrt(delta);
        F = delta * b;
        F = F * cp->k;
        if (cp->c != 0.0) {
            double a = sqrt(b);
            a = a * rate;
            F = F + a * cp->c;
        }
    }
    if (!law.attractive && F < 0.0)
        F = 0.0;
    /* arms a_i = p_i n, a_j = -p_j n and slip velocity (fric_slip_velocity) */
    const double q = 0.5 * delta, pi = ri - q, pj = rj - q;
    double sw[3], ut[3], utd[3];
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        sw[k] = pi * wi[k] + pj * wj[k];
    /* the history advances by the velocity of the step (v_step when the scheme's v is a
     * predicted end-of-step velocity), the dashpot acts on v */
    const double *vel = law.vstep ? s->v_step : s->v;
    fp_slip(&vel[3 * i], &vel[3 * j], sw, n, shift ? vshift : NULL, ut);
    if (law.vstep)
        fp_slip(vi, vj, sw, n, shift ? vshift : NULL, utd);
    else
        for (int k = 0; k < 3; k++)
            utd[k] = ut[k];
    /* coefficients (fric_coefficients) */
    double kt = cp->kt, ct = cp->ct;
    if (law.hertz) {
        const double r2 = sqrt(delta);
        kt = kt * r2;
        ct = ct * sqrt(r2);
    }
    /* history carried to the tangent plane and advanced (fric_carry) */
    double xi_[3];
    const double xbn = fp_dot(xb, n);
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        xi_[k] = xb[k] - xbn * n[k];
    double m2 = fp_dot(xb, xb);
    const double p2 = fp_dot(xi_, xi_);
    if (p2 > 0.0) {
        const double scale = sqrt(m2) / sqrt(p2);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++)
            xi_[k] = xi_[k] * scale;
    }
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        xi_[k] = xi_[k] + ut[k] * dt;
    /* Coulomb limit (fric_coulomb); xi_ stays the trial, the candidate is xi_ in stick
     * and xs when the pair slid */
    double Ft[3], xs[3];
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        Ft[k] = -(kt * xi_[k] + ct * utd[k]);
    const double lim = F > 0.0 ? F * law.mu : 0.0;
    const double ft2 = fp_dot(Ft, Ft);
    const int slid = ft2 > lim * lim;
    const double *cand = xi_;
    if (slid) {
        const double r = lim / sqrt(ft2);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            Ft[k] = Ft[k] * r;
            xs[k] = -(Ft[k] / kt);
        }
        cand = xs;
    }
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        xc[k] = cand[k];
    /* the account of the level (friction_books.c: the trial, u_t and the candidate) */
    friction_book(b, law.hertz, law.kt_kept, m, xi_, ut, dt, cand, kt, slid);
    /* forces and torques (contact_apply, fric_apply) */
    double *fj = &s->f[3 * j], *tj = &s->torque[3 * j];
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        const double a = F * n[k];
        fi[k] = (fi[k] - a) + Ft[k];
        fj[k] = (fj[k] + a) - Ft[k];
    }
    /* torques a_i x F_t = p_i (n x F_t), -a_j x F_t = p_j (n x F_t) (fric_apply) */
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        const double c = fp_cross(n, Ft, k);
        ti[k] = ti[k] + pi * c;
        tj[k] = tj[k] + pj * c;
    }
    /* rolling torque (fric_rolling) */
    if (cp->roll == 0.0 || !(F > 0.0))
        return 1;
    double wr[3];
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        wr[k] = wi[k] - wj[k];
    const double wn = fp_dot(wr, n);
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        wr[k] = wr[k] - wn * n[k];
    const double w2 = fp_dot(wr, wr);
    if (!(w2 > 0.0))
        return 1;
    const double r = (F * cp->roll) / sqrt(w2);
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        const double a = wr[k] * r;
        ti[k] = ti[k] - a;
        tj[k] = tj[k] + a;
    }
    return 1;
}

/* Rows ahead of the one evaluated whose last neighbour's lines are asked for
 * (prefetch_sphere).  A row's last neighbour j is its farthest in the node order: in the
 * benchmark's packing (lattice order) a sphere of the next plane, 4 c^2 nodes ahead, the
 * front where the pairs first touch a sphere's lines; nearer neighbours' lines were
 * touched by earlier rows.  Measured by CPU time on `dem_driver 29 150` (10^5 spheres),
 * alternately, against no prefetch (doc/performance-history.md, "Periodic images from
 * a table: where the time went"): 2 rows ahead 2.63-2.67 s against 2.76-2.79 s (-4 %),
 * for 28 instructions a sphere-step; 4 rows, or the row's first neighbour as well,
 * 2.70 s; every pair's j 8 pairs ahead no better, for 134 instructions a sphere-step. */
#define FRICTION_PREFETCH_ROWS 2

/* The lines of sphere j that a pair reads (x, v, w, radius) and writes (f, tau), asked
 * for ahead of its pair.  A hint: no value changes. */
static MB_ALWAYS_INLINE void prefetch_sphere(const mb_nodes *s, size_t j)
{
    MB_PREFETCH(&s->x[3 * j], 0);
    MB_PREFETCH(&s->v[3 * j], 0);
    MB_PREFETCH(&s->omega[3 * j], 0);
    MB_PREFETCH(&s->radius[j], 0);
    MB_PREFETCH(&s->f[3 * j], 1);
    MB_PREFETCH(&s->torque[3 * j], 1);
}

/* The sphere pairs of a set in neighbour mode, row by row of the list: the pairs of row
 * i are items[nwalls + first[i] ..) in the list's order, all with sphere i first and
 * j = neigh[p] > i, so no other pair of the row touches f_i and tau_i, which are
 * accumulated in registers and stored after the row (the same additions in the same
 * order); the level's works likewise in a copy of the account (its arrays shared), stored
 * back after the loop.  A pair's record is read only when the coefficients differ
 * between pairs (uniform 0) or for an image beyond +-1 period (an image's shift is read
 * from the set's table, contact_set.h); a uniform set's coefficients are copied
 * once (no store of the loop can then change them).  hertz, vstep and uniform are
 * constants of an instance (friction_rows_double); the linear law keeps no k_t per pair
 * (friction_book's kt_kept). */
static MB_ALWAYS_INLINE int friction_rows(const struct contact_set *set, mb_nodes *s, double dt,
                                          size_t *failed, const int hertz, const int vstep,
                                          const int uniform)
{
    struct contact_history *h = set->hist;
    struct friction_law_double law = friction_law_of(set, s);
    law.hertz = hertz;
    law.vstep = vstep;
    law.kt_kept = hertz;   /* the linear law's k_b is kt (friction_book) */
    const unsigned char *imaged = set->imaged;
    const size_t *first = mb_neighbour_first(set->nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(set->nl);
    const struct contact_pair *pairs = set->items + set->nwalls;
    const struct contact_pair coef = pairs[0];   /* count > nwalls when called */
    struct contact_books books = h->d;
    const double *xbase = mb_contact_history_base(h);
    double *xcand = h->xc;
    int status = MB_SUCCESS;
    for (size_t i = 0; i < s->n && status == MB_SUCCESS; i++) {
        if (first[i] == first[i + 1])
            continue;
        if (i + FRICTION_PREFETCH_ROWS < s->n   /* the far front, a few rows ahead */
            && first[i + FRICTION_PREFETCH_ROWS + 1] > first[i + FRICTION_PREFETCH_ROWS])
            prefetch_sphere(s, neigh[first[i + FRICTION_PREFETCH_ROWS + 1] - 1]);
        double fi[3] = { s->f[3 * i], s->f[3 * i + 1], s->f[3 * i + 2] };
        double ti[3] = { s->torque[3 * i], s->torque[3 * i + 1], s->torque[3 * i + 2] };
        for (size_t p = first[i]; p < first[i + 1]; p++) {
            const struct contact_pair *cp = uniform ? &coef : &pairs[p];
            const size_t m = set->nwalls + p;
            const unsigned char code = imaged[p];
            int in;
            if (code == 0)
                in = friction_sphere_pair(law, cp, NULL, NULL, i, neigh[p], s, fi, ti, xbase,
                                          xcand, &books, m, dt);
            else {   /* the image's shift from the set's table, beyond +-1 the record's */
                const double *shift = pairs[p].shift, *vshift = pairs[p].vshift;
                if (code != CONTACT_IMAGE_RECORD) {
                    shift = set->images[code - 1].shift;
                    vshift = set->images[code - 1].vshift;
                }
                in = friction_sphere_pair(law, cp, shift, vshift, i, neigh[p], s, fi, ti,
                                          xbase, xcand, &books, m, dt);
            }
            if (in < 0) {
                *failed = m;
                status = MB_EDOM;
                break;
            }
        }
        for (int k = 0; k < 3; k++) {
            s->f[3 * i + k] = fi[k];
            s->torque[3 * i + k] = ti[k];
        }
    }
    h->d.wc = books.wc;
    return status;
}

/* The instances of friction_rows: a linear law on a uniform set without a step velocity
 * (a monodisperse packing under the leap-frog family: the benchmark's) has its own; the
 * others share one per law and step-velocity mode. */
static int friction_rows_double(const struct contact_set *set, mb_nodes *s, double dt,
                                size_t *failed)
{
    if (set->count == set->nwalls)
        return MB_SUCCESS;
    const int hertz = set->normal == CONTACT_NORMAL_HERTZ, vstep = s->v_step != NULL;
    if (hertz)
        return vstep ? friction_rows(set, s, dt, failed, 1, 1, set->uniform)
                     : friction_rows(set, s, dt, failed, 1, 0, set->uniform);
    if (vstep)
        return friction_rows(set, s, dt, failed, 0, 1, set->uniform);
    return set->uniform ? friction_rows(set, s, dt, failed, 0, 0, 1)
                        : friction_rows(set, s, dt, failed, 0, 0, 0);
}
