/* leapfrog_source.c -- template body of Woo's leap-frog family (see leapfrog.c).
 * Included once per base after templates_on.h, quat_source.c and scheme_util_source.c.
 *
 * Rule points.  A negative control (leapfrog_defect.c) instantiates this template with
 * its own definitions of the macros below, defined before the first inclusion; the
 * scheme's own rules are the defaults.  The step functions call the rules and hold no
 * other trace of a control.
 *   LF_NAME                 the scheme's name in messages
 *   LF_MEDIUM_SPIN(cfg)     omega_L of a velocity gradient (lf_spin_fn)
 *   LF_INITIAL_ANGMOM(cfg, r, L, q, I, w)   global L of an on-step w (first step)
 *   LF_FINCHAM_NODE(cfg, s, i, all_blocked) 1: node i takes Fincham's update */
#ifndef LF_NAME
#define LF_NAME "leapfrog"
#define LF_MEDIUM_SPIN(cfg) mb_cell_spin
#define LF_INITIAL_ANGMOM(cfg, r, L, q, I, w) FUNCTION(lf, angmom_of)(r, L, q, I, w)
#define LF_FINCHAM_NODE(cfg, s, i, all_blocked) ((s)->aspherical[i] && !(all_blocked))
#endif

struct FUNCTION(lf, state) {
    struct lf_common c;       /* first member: read by lf_stats for both bases */
    size_t n;
    REAL *x_new, *v_new, *w_new, *q_new, *L_new;
    /* The store the last successful step left and the state generation it left there
     * (mb_stepper.h: the step bumps it itself).  While both are unchanged
     * (lf_left_unchanged) nothing has written the store since, and what that step found
     * still holds: */
    const void *left_nodes;
    unsigned long left_gen;
    int still;             /* every node still (lf_rotation_unchanged), with that norm */
    double still_qnorm;    /* deviation */
    int none_blocked;      /* no node had a blocked component (every node is mid-step
                            * after any step) */
    int none_aspherical;   /* no node had aspherical inertia */
    int f_uniform;         /* f holds +0 + m g of the uniform field f_g (double base) */
    double f_g[3];
};

/* 1 while the store s is the one the last successful step left, at the generation that
 * step left: nothing has written it since. */
static int FUNCTION(lf, left_unchanged)(const struct FUNCTION(lf, state) *w,
                                        const TYPE(mb_nodes) *s)
{
    return w->left_nodes == (const void *)s && w->left_gen == s->generation;
}

static void FUNCTION(lf, free)(void *vstate)
{
    struct FUNCTION(lf, state) *w = vstate;
    if (w == NULL)
        return;
    FUNCTION(scheme, array_free)(w->x_new, 3 * w->n);
    FUNCTION(scheme, array_free)(w->v_new, 3 * w->n);
    FUNCTION(scheme, array_free)(w->w_new, 3 * w->n);
    FUNCTION(scheme, array_free)(w->q_new, 4 * w->n);
    FUNCTION(scheme, array_free)(w->L_new, 3 * w->n);
    free(w);
}

static int FUNCTION(lf, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    struct lf_config cfg;
    int st = lf_config_read(&cfg, opts);
    if (st != MB_SUCCESS)
        return st;
    struct FUNCTION(lf, state) *w = calloc(1, sizeof *w);
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    if (sys->cell != NULL && cfg.cell && cfg.damping != 0.0) {
        free(w);
        MB_ERROR(MB_EUNSUP, "%s: damping is not supported in a deforming cell", LF_NAME);
    }
    w->c.cfg = cfg;
    w->n = sys->nodes->n;
    mpfr_prec_t prec = sys->nodes->prec;
    w->x_new = FUNCTION(scheme, array)(3 * w->n, prec);
    w->v_new = FUNCTION(scheme, array)(3 * w->n, prec);
    w->w_new = FUNCTION(scheme, array)(3 * w->n, prec);
    w->q_new = FUNCTION(scheme, array)(4 * w->n, prec);
    w->L_new = FUNCTION(scheme, array)(3 * w->n, prec);
    if (!w->x_new || !w->v_new || !w->w_new || !w->q_new || !w->L_new) {
        FUNCTION(lf, free)(w);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *out = w;
    return MB_SUCCESS;
}

/* ---------------------------------------------------------------- translation ---- */

/* One component of the fast path: v+ = v + (f im) hk, x+ = x + v+ h; returns 1 when a
 * result is Inf or NaN (branch-free, so the double instance can vectorise). */
static inline int FUNCTION(lf, kick_drift)(REAL *restrict xo, REAL *restrict vo,
                                           const REAL *restrict x, const REAL *restrict v,
                                           const REAL *restrict f, const REAL *restrict im,
                                           double hk, double h, REAL *a, REAL *t)
{
    R_MUL(a, f, im);
    R_MUL_D(a, a, hk);
    R_ADD(vo, v, a);
    R_MUL_D(t, vo, h);
    R_ADD(xo, x, t);
    return !R_ISFINITE(xo) | !R_ISFINITE(vo);
}

/* Nodes from .. to - 1 of lf_translate_fast, a component at a time: every node of the
 * MPFR instance, the nodes the vector kernels leave in the double one. */
static int FUNCTION(lf, translate_nodes)(const TYPE(mb_nodes) *s, REAL *restrict x_out,
                                         REAL *restrict v_out, size_t from, size_t to,
                                         double hk, double h)
{
    const REAL *restrict x = s->x, *restrict v = s->v, *restrict f = s->f;
    const REAL *restrict im = s->inv_mass;
    int bad = 0;
    REAL a[1], t[1];
    R_INIT(a, s->prec);
    R_INIT(t, s->prec);
    for (size_t i = from; i < to; i++) {
        const size_t j = 3 * i;
        bad |= FUNCTION(lf, kick_drift)(&x_out[j], &v_out[j], &x[j], &v[j], &f[j], &im[i], hk, h, a, t);
        bad |= FUNCTION(lf, kick_drift)(&x_out[j + 1], &v_out[j + 1], &x[j + 1], &v[j + 1],
                                        &f[j + 1], &im[i], hk, h, a, t);
        bad |= FUNCTION(lf, kick_drift)(&x_out[j + 2], &v_out[j + 2], &x[j + 2], &v[j + 2],
                                        &f[j + 2], &im[i], hk, h, a, t);
    }
    R_CLEAR(a);
    R_CLEAR(t);
    return bad;
}

#if defined(BASE_DOUBLE) && defined(LF_HAVE_STREAM)
/* The vector part of lf_translate_fast: the nodes [*first, *last) by the AVX2 kernels
 * from the node lf_quads_start gives, else by the SSE2 ones from node 0; streamed when
 * `streams` (lf_step_streams: the step's stores too large for the caches).  Returns 1 on
 * NaN/Inf. */
static int lf_translate_vector(const mb_nodes *s, double *restrict x_out,
                               double *restrict v_out, double hk, double h, int streams,
                               size_t *first, size_t *last)
{
    const double *restrict x = s->x, *restrict v = s->v, *restrict f = s->f;
    const double *restrict im = s->inv_mass;
    const size_t n = s->n;
    int bad = 0;
#ifdef LF_HAVE_QUADS
    const double *outs[2] = { x_out, v_out };
    const long start = lf_quads_start(streams, outs, 2);
    if (start >= 0 && (size_t)start <= n) {
        const size_t p = (size_t)start, j = 3 * p;
        *first = p;
        *last = p + lf_translate_quads(&x[j], &v[j], &f[j], &im[p], n - p, &x_out[j],
                                       &v_out[j], hk, h, &bad, streams);
        return bad;
    }
#endif
    const int stream = streams && lf_stream_aligned(x_out) && lf_stream_aligned(v_out);
    *first = 0;
    *last = stream ? lf_translate_pairs(x, v, f, im, n, x_out, v_out, hk, h, &bad, 1)
                   : lf_translate_pairs(x, v, f, im, n, x_out, v_out, hk, h, &bad, 0);
    return bad;
}
#endif

/* Fast path (every node mid-step, nothing blocked, no damping), seed 002 eq. (28):
 *   v(t+h/2) = v(t-hp/2) + a(t) (hp + h)/2,   x(t+h) = x(t) + v(t+h/2) h,   a = F / m,
 * hp the previous step (= h for constant steps, where (hp + h)/2 = h exactly).
 * Same operations in the same order as the general path; the double instance runs the
 * vector kernels (leapfrog_quads.h, leapfrog_stream.h), streamed when `streams`, and
 * finishes the nodes they leave at either end.  Returns 1 on NaN/Inf. */
static int FUNCTION(lf, translate_fast)(const TYPE(mb_nodes) *s, REAL *restrict x_out,
                                        REAL *restrict v_out, double hp, double h, int streams)
{
    const double hk = 0.5 * (hp + h);
    size_t first = 0, last = 0;           /* nodes [first, last) done by a vector kernel */
    int bad = 0;
#if defined(BASE_DOUBLE) && defined(LF_HAVE_STREAM)
    bad = lf_translate_vector(s, x_out, v_out, hk, h, streams, &first, &last);
#else
    (void)streams;
#endif
    bad |= FUNCTION(lf, translate_nodes)(s, x_out, v_out, 0, first, hk, h);
    bad |= FUNCTION(lf, translate_nodes)(s, x_out, v_out, last, s->n, hk, h);
    return bad;
}

#ifdef BASE_DOUBLE
/* Nodes from .. to - 1 of lf_translate_uniform, a component at a time. */
static int lf_uniform_nodes(mb_nodes *s, const double g[3], int f_kept,
                            double *restrict x_out, double *restrict v_out, size_t from,
                            size_t to, double hk, double h)
{
    const double *restrict x = s->x, *restrict v = s->v;
    const double *restrict m = s->mass, *restrict im = s->inv_mass;
    double *restrict f = s->f;
    int bad = 0;
    double a, t;
    for (size_t i = from; i < to; i++) {
        const int weighs = im[i] != 0.0;
        for (size_t c = 3 * i; c < 3 * i + 3; c++) {
            const double fc = 0.0 + (weighs ? m[i] * g[c - 3 * i] : 0.0);
            if (!f_kept)
                f[c] = fc;
            bad |= lf_kick_drift(&x_out[c], &v_out[c], &x[c], &v[c], &fc, &im[i], hk, h,
                                 &a, &t);
        }
    }
    return bad;
}

/* Fast path of a field that is one uniform acceleration g (mb_forces_eval_uniform):
 * the force f = +0 + m g of gravity's eval_set, operation for operation, is computed
 * inside the kick-drift pass, so the step reads m, 1/m, x, v and writes x+, v+ once,
 * where evaluating the field first made a second pass over the nodes
 * (doc/performance.md, "bytes per node-step").  The same operations as that pass
 * followed by lf_translate_fast, hence the same bits.  f is stored too unless f_kept:
 * it holds these very values already (lf_forces_kept).  The vector kernels do the nodes
 * [first, last) (the AVX2 ones from the node lf_quads_start gives), streamed when
 * `streams`, lf_uniform_nodes the others.  Returns 1 on NaN/Inf. */
static int lf_translate_uniform(mb_nodes *s, const double g[3], int f_kept,
                                double *restrict x_out, double *restrict v_out, double hp,
                                double h, int streams)
{
    const double hk = 0.5 * (hp + h);
    const double *restrict x = s->x, *restrict v = s->v;
    const double *restrict m = s->mass, *restrict im = s->inv_mass;
    double *restrict f = s->f;
    const size_t n = s->n;
    int bad = 0;
    size_t first = 0, last = 0;
#ifdef LF_HAVE_STREAM
#ifdef LF_HAVE_QUADS
    const double *outs[3] = { x_out, v_out, f };
    const long start = lf_quads_start(streams, outs, f_kept ? 2 : 3);
    if (start >= 0 && (size_t)start <= n) {
        const size_t p = (size_t)start, j = 3 * p;
        first = p;
        last = p + lf_uniform_quads(&x[j], &v[j], &m[p], &im[p], g, n - p, &f[j], &x_out[j],
                                    &v_out[j], hk, h, &bad, streams, !f_kept);
    } else
#endif
        last = lf_uniform_pairs_run(x, v, m, im, g, n, f, x_out, v_out, hk, h, &bad, streams,
                                    !f_kept);
#else
    (void)streams;
#endif
    bad |= lf_uniform_nodes(s, g, f_kept, x_out, v_out, 0, first, hk, h);
    bad |= lf_uniform_nodes(s, g, f_kept, x_out, v_out, last, n, hk, h);
    return bad;
}

/* 1 when f holds the force +0 + m g of the uniform field g already: the last step left
 * it so, for the same g bit for bit, in this store, and nothing has written the store
 * since (same generation: masses, inverse masses and forces as it left them). */
static int lf_forces_kept(const struct lf_state *w, const mb_nodes *s, const double g[3])
{
    return w->f_uniform && lf_left_unchanged(w, s) && memcmp(w->f_g, g, sizeof w->f_g) == 0;
}

/* 1, with g and the torques set, when the field is one uniform acceleration.  When the
 * last step found every node still in this store and nothing has written it since
 * (lf_rotation_still's test), that step left every torque +0 -- it read them, or its
 * torque-free field zeroed them -- and they are not read again. */
static int lf_field_uniform(const struct lf_state *w, const mb_system *sys, double g[3])
{
    const int unwritten = w->still && lf_left_unchanged(w, sys->nodes);
    return mb_forces_eval_uniform(sys->forces, sys->nodes, sys->t, g, unwritten);
}

/* The fast path's translation: with the uniform field's force in the same pass (not
 * stored again when f holds it already), or from the forces evaluated before. */
static int lf_translate_fast_path(const struct lf_state *w, mb_nodes *s, int uniform,
                                  const double g[3], double *x_out, double *v_out,
                                  double hp, double h, int streams)
{
    return uniform ? lf_translate_uniform(s, g, lf_forces_kept(w, s, g), x_out, v_out, hp, h,
                                          streams)
                   : lf_translate_fast(s, x_out, v_out, hp, h, streams);
}
#else
/* The MPFR instance evaluates its field as it is: it has no one-pass uniform path. */
static int FUNCTION(lf, field_uniform)(const struct FUNCTION(lf, state) *w,
                                       const TYPE(mb_system) *sys, double g[3])
{
    (void)w;
    (void)sys;
    (void)g;
    return 0;
}

static int FUNCTION(lf, translate_fast_path)(const struct FUNCTION(lf, state) *w,
                                             TYPE(mb_nodes) *s, int uniform, const double g[3],
                                             REAL *x_out, REAL *v_out, double hp, double h,
                                             int streams)
{
    (void)w;
    (void)uniform;
    (void)g;
    return FUNCTION(lf, translate_fast)(s, x_out, v_out, hp, h, streams);
}
#endif

/* General path: per node first-step adjustment (seed 000 note: v(h/2) = v(0) + a(0) h/2
 * when v is still on-step: the previous step of such a node counts as hp = 0), blocked
 * DOFs (zero acceleration) and Cundall damping (seed 000 eq. 34):
 * F_w -> F_w (1 - lambda sgn(F_w (v_w + a_w hp/2))), the parenthesis estimating the
 * on-step velocity.  Work of the damping force D = -lambda s F (see "Damping work" in
 * leapfrog.c): the step adds -D (v(t-hp/2) hp + v(t+h/2) h)/2 -- the halves of the two
 * displacements adjacent to t -- to *diss.  Returns 1 on NaN/Inf. */
static int FUNCTION(lf, translate_general)(const struct lf_config *cfg, const TYPE(mb_nodes) *s,
                                           REAL *restrict x_out, REAL *restrict v_out,
                                           double hp_mid, double h, REAL *diss)
{
    const double lambda = cfg->damping;
    int bad = 0;
    REAL a[1], e[1], t[1];
    R_INIT(a, s->prec);
    R_INIT(e, s->prec);
    R_INIT(t, s->prec);
    for (size_t i = 0; i < s->n; i++) {
        const double hp = (cfg->adj_vel0 && !s->vel_mid[i]) ? 0.0 : hp_mid;
        const double hk = 0.5 * (hp + h);
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            int sg = 0;
            if (s->blocked[i] & (1u << k)) {
                R_SET_D(a, 0.0);
            } else {
                R_MUL(a, &s->f[j], &s->inv_mass[i]);
                if (lambda > 0.0) {
                    R_MUL_D(e, a, 0.5 * hp);
                    R_ADD(e, &s->v[j], e);
                    sg = R_SGN(&s->f[j]) * R_SGN(e);
                    if (sg != 0)
                        R_MUL_D(a, a, 1.0 - lambda * sg);
                }
            }
            R_MUL_D(t, a, hk);
            R_ADD(&v_out[j], &s->v[j], t);
            R_MUL_D(t, &v_out[j], h);
            R_ADD(&x_out[j], &s->x[j], t);
            bad |= !R_ISFINITE(&x_out[j]) | !R_ISFINITE(&v_out[j]);
            if (sg != 0) {              /* lambda s F (v- hp + v+ h)/2 */
                R_MUL_D(t, &s->v[j], hp);
                R_MUL_D(e, &v_out[j], h);
                R_ADD(t, t, e);
                R_MUL(t, t, &s->f[j]);
                R_MUL_D(t, t, 0.5);
                R_MUL_D(t, t, lambda * sg);
                R_ADD(diss, diss, t);
            }
        }
    }
    R_CLEAR(a);
    R_CLEAR(e);
    R_CLEAR(t);
    return bad;
}

/* Deforming space, one node (seed 002; coefficients k from lf_cell_coeffs):
 *   b = LmL x + IpLL4h v + a hk,   vo = ImLL4hInv b,   a = F/m (0 on blocked DOFs).
 * Sums run over columns 0, 1, 2 in order in both bases.  b and t are 3 + 1 temporaries;
 * vo may alias v. */
static void FUNCTION(lf, cell_kick)(const struct lf_cellk *k, const TYPE(mb_nodes) *s, size_t i,
                                    const REAL *x, const REAL *v, REAL *vo, REAL *b, REAL *t)
{
    for (int r = 0; r < 3; r++) {
        R_MUL_D(&b[r], &x[0], k->LmL[3 * r]);
        for (int c = 1; c < 3; c++) {
            R_MUL_D(t, &x[c], k->LmL[3 * r + c]);
            R_ADD(&b[r], &b[r], t);
        }
        for (int c = 0; c < 3; c++) {
            R_MUL_D(t, &v[c], k->P[3 * r + c]);
            R_ADD(&b[r], &b[r], t);
        }
        if (!(s->blocked[i] & (1u << r))) {
            R_MUL(t, &s->f[3 * i + r], &s->inv_mass[i]);
            R_MUL_D(t, t, k->hk);
            R_ADD(&b[r], &b[r], t);
        }
    }
    for (int r = 0; r < 3; r++) {
        R_MUL_D(&vo[r], &b[0], k->M[3 * r]);
        for (int c = 1; c < 3; c++) {
            R_MUL_D(t, &b[c], k->M[3 * r + c]);
            R_ADD(&vo[r], &vo[r], t);
        }
    }
}

/* Translation in a deforming cell: km for mid-step nodes, kf for on-step nodes of an
 * adjusted first step; x(t+h) = x(t) + v(t+h/2) h.  Returns 1 on NaN/Inf. */
static int FUNCTION(lf, translate_cell)(const struct lf_config *cfg, const struct lf_cellk *km,
                                        const struct lf_cellk *kf, const TYPE(mb_nodes) *s,
                                        REAL *restrict x_out, REAL *restrict v_out, double h)
{
    int bad = 0;
    REAL b[3], t[1];
    for (int r = 0; r < 3; r++)
        R_INIT(&b[r], s->prec);
    R_INIT(t, s->prec);
    for (size_t i = 0; i < s->n; i++) {
        const struct lf_cellk *k = (cfg->adj_vel0 && !s->vel_mid[i]) ? kf : km;
        const size_t j = 3 * i;
        FUNCTION(lf, cell_kick)(k, s, i, &s->x[j], &s->v[j], &v_out[j], b, t);
        for (int r = 0; r < 3; r++) {
            R_MUL_D(t, &v_out[j + r], h);
            R_ADD(&x_out[j + r], &s->x[j + r], t);
            bad |= !R_ISFINITE(&x_out[j + r]) | !R_ISFINITE(&v_out[j + r]);
        }
    }
    for (int r = 0; r < 3; r++)
        R_CLEAR(&b[r]);
    R_CLEAR(t);
    return bad;
}

/* ------------------------------------------------------------------- rotation ---- */

struct FUNCTION(lf, rot) {
    struct FUNCTION(mbq, scratch) q;
    REAL a[1], e[1], nrm[1], T[3], Lc[3], Ln[3], wc[3], wn[3], th[3], qh[4], qu[4];
    double qnorm_err;     /* max | |q(t+h)| - 1 | before normalisation, this step */
};

static void FUNCTION(lf, rot_init)(struct FUNCTION(lf, rot) *r, mpfr_prec_t prec)
{
    FUNCTION(mbq, scratch_init)(&r->q, prec);
    R_INIT(r->a, prec); R_INIT(r->e, prec); R_INIT(r->nrm, prec);
    for (int k = 0; k < 3; k++) {
        R_INIT(&r->T[k], prec); R_INIT(&r->Lc[k], prec); R_INIT(&r->Ln[k], prec);
        R_INIT(&r->wc[k], prec); R_INIT(&r->wn[k], prec); R_INIT(&r->th[k], prec);
    }
    for (int k = 0; k < 4; k++) {
        R_INIT(&r->qh[k], prec); R_INIT(&r->qu[k], prec);
    }
    r->qnorm_err = 0.0;
}

static void FUNCTION(lf, rot_clear)(struct FUNCTION(lf, rot) *r)
{
    FUNCTION(mbq, scratch_clear)(&r->q);
    R_CLEAR(r->a); R_CLEAR(r->e); R_CLEAR(r->nrm);
    for (int k = 0; k < 3; k++) {
        R_CLEAR(&r->T[k]); R_CLEAR(&r->Lc[k]); R_CLEAR(&r->Ln[k]);
        R_CLEAR(&r->wc[k]); R_CLEAR(&r->wn[k]); R_CLEAR(&r->th[k]);
    }
    for (int k = 0; k < 4; k++) {
        R_CLEAR(&r->qh[k]); R_CLEAR(&r->qu[k]);
    }
}

/* diss += coef F (u- hp + u+ h)/2: the work of the damping load D = -coef F over the
 * halves of the two rotation increments adjacent to t (coef = lambda s; u an angular
 * velocity; hp = 0 on an adjusted first step). */
static void FUNCTION(lf, work)(struct FUNCTION(lf, rot) *r, REAL *diss, const REAL *F,
                               const REAL *um, const REAL *up, double hp, double h, double coef)
{
    R_MUL_D(r->e, um, hp);
    R_MUL_D(r->nrm, up, h);
    R_ADD(r->e, r->e, r->nrm);
    R_MUL(r->e, r->e, F);
    R_MUL_D(r->e, r->e, 0.5);
    R_MUL_D(r->e, r->e, coef);
    R_ADD(diss, diss, r->e);
}

/* Normalise qn and record its norm deviation. */
static void FUNCTION(lf, renorm)(struct FUNCTION(lf, rot) *r, REAL *qn)
{
    FUNCTION(mbq, normalize)(&r->q, qn, r->nrm);
    double dev = fabs(R_GET_D(r->nrm) - 1.0);
    if (dev > r->qnorm_err || !(dev == dev))
        r->qnorm_err = dev;
}

/* L = R(q) I R(q)^T w (global angular momentum of body inertia I) */
static void FUNCTION(lf, angmom_of)(struct FUNCTION(lf, rot) *r, REAL *L, const REAL *q,
                                    const REAL *I, const REAL *w)
{
    FUNCTION(mbq, rotate_inv)(&r->q, L, q, w);
    for (int k = 0; k < 3; k++)
        R_MUL(&L[k], &L[k], &I[k]);
    FUNCTION(mbq, rotate)(&r->q, L, q, L);
}

/* Spherical node (seed 002 eq. for I11 = I22 = I33), global frame:
 *   a = T / I11,  w(t+h/2) = w(t-hp/2) + a (hp + h)/2   (hp the previous step, = h for
 *   constant steps; hp = 0 on an adjusted first step: w(h/2) = w(0) + a h/2),
 *   + dspin = omega_L(L+) - omega_L(L-) in a deforming cell (dspin NULL otherwise),
 *   q(t+h) = Quaternion(w(t+h/2) h) (x) q(t), normalised.
 * Blocked rotations get a_w = 0; Cundall damping as for forces, on T_w and the estimate
 * w_w + a_w hp/2.  Also used for aspherical nodes whose three rotations are blocked
 * (w then stays constant), and for any node a control's LF_FINCHAM_NODE rule sends here. */
static void FUNCTION(lf, rot_spherical)(const struct lf_config *cfg, struct FUNCTION(lf, rot) *r,
                                        const TYPE(mb_nodes) *s, size_t i, double hp, double h,
                                        const double *dspin, REAL *w_out, REAL *q_out,
                                        REAL *L_out, REAL *diss)
{
    const double lambda = cfg->damping;
    const REAL *w = &s->omega[3 * i], *T = &s->torque[3 * i], *I = &s->inertia[3 * i];
    for (int k = 0; k < 3; k++) {
        int sg = 0;
        if (s->blocked[i] & (MB_BLOCK_RX << k)) {
            R_SET_D(r->a, 0.0);
        } else {
            R_DIV(r->a, &T[k], &I[0]);
            if (lambda > 0.0) {
                R_MUL_D(r->e, r->a, 0.5 * hp);
                R_ADD(r->e, &w[k], r->e);
                sg = R_SGN(&T[k]) * R_SGN(r->e);
                if (sg != 0)
                    R_MUL_D(r->a, r->a, 1.0 - lambda * sg);
            }
        }
        R_MUL_D(r->a, r->a, 0.5 * (hp + h));
        R_ADD(&w_out[k], &w[k], r->a);
        if (dspin != NULL)
            R_ADD_D(&w_out[k], &w_out[k], dspin[k]);
        R_MUL_D(&r->th[k], &w_out[k], h);
        if (sg != 0)
            FUNCTION(lf, work)(r, diss, &T[k], &w[k], &w_out[k], hp, h, lambda * sg);
    }
    FUNCTION(mbq, from_rotvec)(&r->q, r->qu, r->th);
    FUNCTION(mbq, mul)(&r->q, q_out, r->qu, &s->q[4 * i]);
    FUNCTION(lf, renorm)(r, q_out);
    if (s->aspherical[i])
        FUNCTION(lf, angmom_of)(r, L_out, q_out, I, w_out);
    else
        for (int k = 0; k < 3; k++)
            R_MUL(&L_out[k], &w_out[k], &I[0]);
}

#ifdef BASE_DOUBLE
/* rot_spherical of a node without damping, blocked rotations, medium spin or aspherical
 * inertia, on local scalars: the operations of rot_spherical, mbq_from_rotvec, mbq_mul,
 * mbq_normalize and lf_renorm in their order (the template keeps its temporaries in
 * memory), hence the same bits; tests/test_leapfrog.c compares both.  Returns 1 when
 * w, q or L is Inf or NaN. */
static MB_ALWAYS_INLINE int lf_rot_spherical_plain(struct lf_rot *r, const mb_nodes *s,
                                                   size_t i, double hp, double h,
                                                   double *w_out, double *q_out,
                                                   double *L_out)
{
    const double *w = &s->omega[3 * i], *T = &s->torque[3 * i], *q = &s->q[4 * i];
    const double I0 = s->inertia[3 * i], hk = 0.5 * (hp + h);
    double th[3], qu[4], a, b, c;
    for (int k = 0; k < 3; k++) {
        w_out[k] = w[k] + (T[k] / I0) * hk;
        th[k] = w_out[k] * h;
    }
    a = th[0] * th[0];                          /* Quaternion(theta) (mbq_from_rotvec) */
    a = a + th[1] * th[1];
    a = a + th[2] * th[2];
    if (a < 1e-8) {
        c = a * a;
        qu[0] = (1.0 - a / 8.0) + c / 384.0;
        b = (0.5 - a / 48.0) + c / 3840.0;
    } else {
        a = sqrt(a);
        c = a * 0.5;
        qu[0] = cos(c);
        b = sin(c) / a;
    }
    for (int k = 0; k < 3; k++)
        qu[k + 1] = th[k] * b;
    /* q(t+h) = Quaternion(theta) (x) q(t) (mbq_mul's rows) */
    q_out[0] = ((qu[0] * q[0] - qu[1] * q[1]) - qu[2] * q[2]) - qu[3] * q[3];
    q_out[1] = ((qu[0] * q[1] + qu[1] * q[0]) + qu[2] * q[3]) - qu[3] * q[2];
    q_out[2] = ((qu[0] * q[2] - qu[1] * q[3]) + qu[2] * q[0]) + qu[3] * q[1];
    q_out[3] = ((qu[0] * q[3] + qu[1] * q[2]) - qu[2] * q[1]) + qu[3] * q[0];
    a = q_out[0] * q_out[0];                    /* mbq_normalize, lf_renorm */
    for (int k = 1; k < 4; k++)
        a = a + q_out[k] * q_out[k];
    const double norm = sqrt(a), dev = fabs(norm - 1.0);
    for (int k = 0; k < 4; k++)
        q_out[k] = q_out[k] / norm;
    if (dev > r->qnorm_err || !(dev == dev))
        r->qnorm_err = dev;
    /* NaN/Inf check: x - x is +0 for a finite x and NaN for an infinite or NaN one, so
     * the sum of the ten differences is NaN exactly when a result is not finite */
    double z = 0.0;
    for (int k = 0; k < 3; k++) {
        L_out[k] = w_out[k] * I0;
        z += (w_out[k] - w_out[k]) + (L_out[k] - L_out[k]);
    }
    for (int k = 0; k < 4; k++)
        z += q_out[k] - q_out[k];
    return !(z == z);
}

/* lf_rot_spherical_plain of every node with the step hp: the AVX2 kernel
 * (leapfrog_rot_quads.h) four nodes at a time on a processor that has AVX2, the scalar
 * code for the last n mod 4 nodes or on other processors; the same operations, hence
 * the same bits, either way.  The kernel's stores stream when `streams` and the outputs
 * are 16-byte aligned.  Returns 1 on NaN/Inf. */
static int lf_rotate_plain(struct lf_rot *r, const mb_nodes *s, double hp, double h,
                           double *w_out, double *q_out, double *L_out, int streams)
{
    const size_t n = s->n;
    int bad = 0;
    size_t i = 0;
#ifdef LF_HAVE_ROT_QUADS
    const int quads = lf_have_avx2();
    const int stream = streams && lf_stream_aligned(w_out) && lf_stream_aligned(q_out)
                       && lf_stream_aligned(L_out);
    const double hk = 0.5 * (hp + h);
#else
    (void)streams;
#endif
#ifdef LF_HAVE_ROT_QUADS
    if (quads)
        i = lf_rot_quads(s->omega, s->torque, s->q, s->inertia, n, hk, h, w_out, q_out, L_out,
                         &r->qnorm_err, &bad, stream);
#endif
    for (; i < n; i++)
        bad |= lf_rot_spherical_plain(r, s, i, hp, h, &w_out[3 * i], &q_out[4 * i],
                                      &L_out[3 * i]);
    return bad;
}
#endif

#include "fincham_source.c"

/* Rotation of every node; returns 1 on NaN/Inf.  *qnorm receives the max norm
 * deviation of this step. */
static int FUNCTION(lf, rotate_all)(const struct lf_config *cfg, const TYPE(mb_nodes) *s,
                                    REAL *w_out, REAL *q_out, REAL *L_out, double hp_mid,
                                    double h, const struct lf_cellk *km,
                                    const struct lf_cellk *kf, REAL *diss, double *qnorm,
                                    int plain, int streams)
{
    struct FUNCTION(lf, rot) r;
    FUNCTION(lf, rot_init)(&r, s->prec);
    int bad = 0;
#ifdef BASE_DOUBLE
    /* plain: every node spherical, none blocked, no damping, no cell, and hp = hp_mid for
     * each (adj_vel0 off, or every node mid-step): the loop below would take
     * lf_rot_spherical_plain for every node with hp_mid; it is taken without the
     * per-node tests (the same operations, the same bits), four nodes at a time where
     * the processor allows (lf_rotate_plain) */
    if (plain) {
        bad = lf_rotate_plain(&r, s, hp_mid, h, w_out, q_out, L_out, streams);
        *qnorm = r.qnorm_err;
        FUNCTION(lf, rot_clear)(&r);
        return bad;
    }
#else
    (void)plain;
    (void)streams;
#endif
    for (size_t i = 0; i < s->n; i++) {
#if defined(BASE_DOUBLE) && defined(__GNUC__)
        if (lf_fincham_plain(cfg, s, i)) {      /* with the next node, or with itself */
            size_t j = i + 1 < s->n && lf_fincham_plain(cfg, s, i + 1) ? i + 1 : i;
            bad |= lf_rot_fincham_pair(cfg, &r, s, i, j, hp_mid, h, w_out, q_out, L_out);
            i = j;
            continue;
        }
#endif
        int fresh = !s->vel_mid[i];
        double hp = (cfg->adj_vel0 && fresh) ? 0.0 : hp_mid;
        REAL *wo = &w_out[3 * i], *qo = &q_out[4 * i], *Lo = &L_out[3 * i];
        int all_blocked = (s->blocked[i] & (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ))
                          == (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ);
        const struct lf_cellk *k = (cfg->adj_vel0 && fresh) ? kf : km;
#ifdef BASE_DOUBLE
        if (cfg->damping == 0.0 && k == NULL && !s->aspherical[i]
            && !(s->blocked[i] & (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ))
            && !LF_FINCHAM_NODE(cfg, s, i, all_blocked)) {
            bad |= lf_rot_spherical_plain(&r, s, i, hp, h, wo, qo, Lo);
            continue;
        }
#endif
        if (!LF_FINCHAM_NODE(cfg, s, i, all_blocked))
            FUNCTION(lf, rot_spherical)(cfg, &r, s, i, hp, h,
                                        (k && !s->aspherical[i]) ? k->dspin : NULL, wo, qo, Lo,
                                        diss);
        else
            FUNCTION(lf, rot_fincham)(cfg, &r, s, i, hp, fresh, h, wo, qo, Lo, diss);
        bad |= (!FUNCTION(scheme, finite)(wo, 3)) | (!FUNCTION(scheme, finite)(qo, 4))
                | (!FUNCTION(scheme, finite)(Lo, 3));
    }
    *qnorm = r.qnorm_err;
    FUNCTION(lf, rot_clear)(&r);
    return bad;
}

/* A spherical node whose angular velocity, angular momentum and torque are all +0 and
 * whose moment I11 is finite and > 0 does not rotate: outside a deforming cell (whose
 * medium spin drives even such nodes) rot_spherical gives it w(t+h/2) = +0 + (+0 / I11)
 * hk = +0 (blocked or damped alike), L(t+h/2) = +0 I11 = +0 and q(t+h) = the normalised
 * Quaternion(+0) (x) q(t), Quaternion(+0) = (1, +0, +0, +0).  1 when every node is such
 * (whole-array tests, each a straight scan). */
static int FUNCTION(lf, all_still)(const TYPE(mb_nodes) *s)
{
    /* the spins first: a rotating store fails at its first spinning node, where the
     * flags' scan would read them all */
    if (!FUNCTION(lf, all_pos_zero)(s->omega, 3 * s->n)
        || !FUNCTION(lf, all_pos_zero)(s->angmom, 3 * s->n)
        || !FUNCTION(lf, all_pos_zero)(s->torque, 3 * s->n) || !lf_none_set(s->aspherical, s->n))
        return 0;
    int ok = 1;
    for (size_t i = 0; i < s->n; i++)
        ok &= R_ISFINITE(&s->inertia[3 * i]) & (R_SGN(&s->inertia[3 * i]) > 0);
    return ok;
}

/* Quick sufficient test that rot_spherical keeps the q of every still node:
 * (1, +0, +0, +0) (x) q adds only signed zeros to q_k, which keeps every q_k but a -0;
 * and a squared norm summed as mbq_normalize sums it that is exactly 1 makes the
 * normalisation divide by sqrt(1) = 1, with norm deviation 0. */
static int FUNCTION(lf, all_q_unit)(const TYPE(mb_nodes) *s, REAL *a, REAL *e)
{
    int ok = 1;
    for (size_t i = 0; i < s->n; i++) {
        const REAL *q = &s->q[4 * i];
        R_MUL(a, &q[0], &q[0]);
        for (int k = 1; k < 4; k++) {
            R_MUL(e, &q[k], &q[k]);
            R_ADD(a, a, e);
        }
        ok &= R_CMP_D(a, 1.0) == 0;
        for (int k = 0; k < 4; k++)
            ok &= !FUNCTION(lf, minus_zero)(&q[k]);
    }
    return ok;
}

/* The exact test where the quick one fails: the very operations of rot_spherical on q
 * (r->qu holds Quaternion(+0)) must give q back bit for bit. */
static int FUNCTION(lf, q_kept)(struct FUNCTION(lf, rot) *r, const REAL *q)
{
    FUNCTION(mbq, mul)(&r->q, r->qh, r->qu, q);
    FUNCTION(lf, renorm)(r, r->qh);
    int kept = 1;
    for (int k = 0; k < 4; k++)
        kept &= FUNCTION(lf, same)(&r->qh[k], &q[k]);
    return kept;
}

/* The rotation step of a system in which no node rotates, costing a read of w, L, T and
 * q and no write: 1 when every node is still (lf_all_still) and keeps its q, so that
 * rot_spherical would reproduce every w, q, L bit for bit and the rotation arrays can
 * keep their values; *qnorm then receives the norm deviation of the step.  0 otherwise:
 * the caller takes the general path. */
static int FUNCTION(lf, rotation_unchanged)(const TYPE(mb_nodes) *s, double *qnorm)
{
    if (!FUNCTION(lf, all_still)(s))
        return 0;
    struct FUNCTION(lf, rot) r;
    FUNCTION(lf, rot_init)(&r, s->prec);
    int unchanged = FUNCTION(lf, all_q_unit)(s, r.a, r.e);
    if (!unchanged) {
        for (int k = 0; k < 3; k++)
            R_SET_D(&r.th[k], 0.0);
        FUNCTION(mbq, from_rotvec)(&r.q, r.qu, r.th);            /* Quaternion(+0) */
        unchanged = 1;
        for (size_t i = 0; i < s->n && unchanged; i++)
            unchanged = FUNCTION(lf, q_kept)(&r, &s->q[4 * i]);
    }
    *qnorm = r.qnorm_err;
    FUNCTION(lf, rot_clear)(&r);
    return unchanged;
}

/* lf_rotation_unchanged, or its cheaper form when the last step found every node still
 * and nothing has written the store since (same store, same generation): w, L and q
 * are then the very values that test read (the step kept them), inertia and the
 * aspherical flags are unchanged, so only the torque the force evaluation just wrote is
 * read again, and the norm deviation is the one of that test. */
static int FUNCTION(lf, rotation_still)(const struct FUNCTION(lf, state) *w,
                                        const TYPE(mb_nodes) *s, int torque_zero,
                                        double *qnorm)
{
    if (!(w->still && FUNCTION(lf, left_unchanged)(w, s)))
        return FUNCTION(lf, rotation_unchanged)(s, qnorm);
    if (!torque_zero && !FUNCTION(lf, all_pos_zero)(s->torque, 3 * s->n))
        return 0;
    *qnorm = w->still_qnorm;
    return 1;
}

/* ----------------------------------------------------------------------- step ---- */

/* The force evaluation of a step, its scan of the forces deferred to the step (which
 * finds a non-finite force in the x and v it computes from it).  In the double instance
 * a fast step whose nodes all rotate as plain spheres (`plain`) defers the scan of the
 * torques too: lf_rot_spherical_plain and the AVX2 kernel compute w+ = w + (T / I11) hk
 * from every torque, NaN or Inf whenever T is (hk > 0; T / I11 is NaN or Inf for a
 * non-finite T whatever I11), and check w+; a torque-free field's torques are +0. */
static int FUNCTION(lf, eval_forces)(TYPE(mb_system) *sys, int plain, int *torque_zero)
{
#ifdef BASE_DOUBLE
    if (plain)
        return mb_forces_eval_unchecked(sys->forces, sys->nodes, sys->t, torque_zero);
#else
    (void)plain;
#endif
    return FUNCTION(mb_forces, eval_deferred)(sys->forces, sys->nodes, sys->t, torque_zero);
}

/* What a step finds before it moves the store (lf_survey_store), what its force evaluation
 * leaves (lf_step_forces) and what its rotation finds (lf_move). */
struct FUNCTION(lf, survey) {
    mb_cell *cell;         /* the deforming cell the step integrates in, else NULL */
    int all_mid;           /* every node's velocities are mid-step */
    int none_blocked;      /* no node has a blocked component */
    int none_aspherical;   /* no node has aspherical inertia */
    int fast;              /* the fast path: no cell, no damping, nothing blocked, no
                            * first-step adjustment due */
    int uniform;           /* f is +0 + m g of the uniform field g (lf_field_uniform) */
    int torque_zero;       /* the force evaluation found every torque +0 */
    double g[3];
    int still;             /* every node still: w, q, L kept (lf_rotation_still) */
    double qnorm;          /* the quaternions' norm deviation */
};

/* The flags of the store: a scan per step of each flag array, none while the store is as
 * the last step left it (every node mid-step, blocked and aspherical flags unchanged). */
static void FUNCTION(lf, survey_store)(const struct FUNCTION(lf, state) *w,
                                       const TYPE(mb_system) *sys,
                                       struct FUNCTION(lf, survey) *p)
{
    const TYPE(mb_nodes) *s = sys->nodes;
    const struct lf_config *cfg = &w->c.cfg;
    const int unchanged = FUNCTION(lf, left_unchanged)(w, s);
    p->cell = cfg->cell ? sys->cell : NULL;
    p->all_mid = unchanged || lf_all_set(s->vel_mid, s->n);
    p->none_blocked = unchanged ? w->none_blocked : lf_none_set(s->blocked, s->n);
    p->fast = p->cell == NULL && cfg->damping == 0.0 && p->none_blocked
              && (!cfg->adj_vel0 || p->all_mid);
    p->none_aspherical = unchanged ? w->none_aspherical : lf_none_set(s->aspherical, s->n);
}

/* The loads at t: none evaluated when the fast path finds f still that of a uniform field
 * (lf_field_uniform).  The fast path finds a NaN or Inf force in the v and x it computes
 * from it (f im hk is then NaN or Inf, as im > 0 or f im = NaN), and with plain spheres a
 * torque in the w it computes (lf_eval_forces); the others have them checked now. */
static int FUNCTION(lf, step_forces)(const struct FUNCTION(lf, state) *w, TYPE(mb_system) *sys,
                                     struct FUNCTION(lf, survey) *p)
{
    p->torque_zero = 1;
    p->g[0] = p->g[1] = p->g[2] = 0.0;
    p->uniform = p->fast && FUNCTION(lf, field_uniform)(w, sys, p->g);
    int status = p->uniform ? MB_SUCCESS
                            : FUNCTION(lf, eval_forces)(sys, p->fast && p->none_aspherical,
                                                        &p->torque_zero);
    if (status == MB_SUCCESS && !p->fast)
        status = FUNCTION(mb_forces, check)(sys->nodes, sys->t);
    return status;
}

/* x+, v+ of every node into w's new stores, and w+, q+, L+ unless every node is still
 * (p->still, with the norm deviation p->qnorm); km, kf: the cell's step coefficients when
 * p->cell.  The work of the damping into *dissipated.  Returns 1 when a result is NaN or
 * Inf. */
static int FUNCTION(lf, move)(struct FUNCTION(lf, state) *w, TYPE(mb_nodes) *s,
                              struct FUNCTION(lf, survey) *p, const struct lf_cellk *km,
                              const struct lf_cellk *kf, double hp, double h, double *dissipated)
{
    const struct lf_config *cfg = &w->c.cfg;
    REAL diss[1];
    R_INIT(diss, s->prec);
    R_SET_D(diss, 0.0);
    p->qnorm = 0.0;
    p->still = p->cell == NULL && FUNCTION(lf, rotation_still)(w, s, p->torque_zero, &p->qnorm);
    const int streams = lf_step_streams(s->n, !p->still);
    int bad = p->cell ? FUNCTION(lf, translate_cell)(cfg, km, kf, s, w->x_new, w->v_new, h)
            : p->fast ? FUNCTION(lf, translate_fast_path)(w, s, p->uniform, p->g, w->x_new,
                                                         w->v_new, hp, h, streams)
                      : FUNCTION(lf, translate_general)(cfg, s, w->x_new, w->v_new, hp, h, diss);
    if (!p->still)
        bad |= FUNCTION(lf, rotate_all)(cfg, s, w->w_new, w->q_new, w->L_new, hp, h,
                                        p->cell ? km : NULL, p->cell ? kf : NULL, diss,
                                        &p->qnorm, p->fast && p->none_aspherical, streams);
    *dissipated = R_GET_D(diss);
    R_CLEAR(diss);
    return bad;
}

/* A NaN or Inf in the step's results: a non-finite load the fast path left unchecked is
 * reported as the check reports it, anything else as a divergence at t + h. */
static int FUNCTION(lf, diverged)(const TYPE(mb_system) *sys, int fast, double h)
{
    int status;
    if (fast && (status = FUNCTION(mb_forces, check)(sys->nodes, sys->t)) != MB_SUCCESS)
        return status;
    MB_ERROR(MB_EDIVERGED, "%s: NaN or Inf at t = %.17g", LF_NAME, sys->t + h);
}

/* The step's results become the store's (x, v, and w, q, L when they moved; every node
 * mid-step); the clock, the scheme's dissipated work and the step's statistics advance. */
static void FUNCTION(lf, commit)(struct FUNCTION(lf, state) *w, TYPE(mb_system) *sys,
                                 const struct FUNCTION(lf, survey) *p, double h,
                                 double dissipated)
{
    TYPE(mb_nodes) *s = sys->nodes;
    FUNCTION(scheme, swap)(&s->x, &w->x_new);
    FUNCTION(scheme, swap)(&s->v, &w->v_new);
    if (!p->still) {
        FUNCTION(scheme, swap)(&s->omega, &w->w_new);
        FUNCTION(scheme, swap)(&s->q, &w->q_new);
        FUNCTION(scheme, swap)(&s->angmom, &w->L_new);
    }
    if (!p->all_mid)
        memset(s->vel_mid, 1, s->n);
    sys->t += h;
    sys->dissipated_by_scheme += dissipated;
    w->c.h_last = h;
    w->c.steps++;
    if (p->qnorm > w->c.qnorm_err || !(p->qnorm == p->qnorm))
        w->c.qnorm_err = p->qnorm;
}

/* What the step found, kept for the next step while nothing else writes the store
 * (lf_left_unchanged).  A step changes the generation: the scheme does it. */
static void FUNCTION(lf, remember)(struct FUNCTION(lf, state) *w, TYPE(mb_nodes) *s,
                                   const struct FUNCTION(lf, survey) *p)
{
    w->left_nodes = s;
    w->left_gen = ++s->generation;
    w->still = p->still;
    w->still_qnorm = p->qnorm;
    w->none_blocked = p->none_blocked;
    w->none_aspherical = p->none_aspherical;
    w->f_uniform = p->uniform;
    memcpy(w->f_g, p->g, sizeof w->f_g);
}

/* One step of h (the equations of leapfrog.c): survey the store, the loads at t, the
 * cell's coefficients over the step, the new state, then the store takes it and the step
 * keeps what it found. */
static int FUNCTION(lf, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(lf, state) *w = vstate;
    if (!(h > 0.0) || !isfinite(h))
        MB_ERROR(MB_EDOM, "leapfrog: time step h = %g must be finite and > 0", h);
    struct FUNCTION(lf, survey) p;
    FUNCTION(lf, survey_store)(w, sys, &p);
    int status = FUNCTION(lf, step_forces)(w, sys, &p);
    if (status != MB_SUCCESS)
        return status;
    /* previous step of mid-step nodes: the last step taken, or h when a mid-step state
     * arrives without one (then v is read as v(t-h/2), as in Woo) */
    const double hp = w->c.h_last > 0.0 ? w->c.h_last : h;
    struct lf_cellk km, kf;
    double Lm[9], Lp[9], dissipated;
    if (p.cell != NULL
        && (status = lf_cell_step_coeffs(LF_MEDIUM_SPIN(&w->c.cfg), p.cell, sys->t, hp, h, &km,
                                         &kf, Lm, Lp)) != MB_SUCCESS)
        return status;
    if (FUNCTION(lf, move)(w, sys->nodes, &p, &km, &kf, hp, h, &dissipated))
        return FUNCTION(lf, diverged)(sys, p.fast, h);
    if (p.cell != NULL && (status = mb_cell_advance(p.cell, Lm, Lp, h)) != MB_SUCCESS)
        return status;
    FUNCTION(lf, commit)(w, sys, &p, h, dissipated);
    FUNCTION(lf, remember)(w, sys->nodes, &p);
    return MB_SUCCESS;
}

/* ---------------------------------------------------------------- synchronize ---- */

/* On-step estimate at t of node i, whose v, w (spherical) or L (aspherical, in angmom) are
 * mid-step values at t - h/2, with f and torque the undamped loads at t:
 *   v(t) = v(t-h/2) + a(t) h/2,  w(t) = w(t-h/2) + (T/I11) h/2   (spherical),
 *   L(t) = L(t-h/2) + T h/2,     w(t) = R I^-1 R^T L(t)           (aspherical, R = R(q(t))),
 * zero on blocked DOFs; in a deforming cell (ks, else NULL) the translation takes the
 * seed 002 half kick and a spherical w the medium spin omega_L(t) - omega_L(t-h/2).
 * rotation 0: translation only (the rotation fields are left as they are). */
static void FUNCTION(lf, sync_node)(const struct lf_config *cfg, struct FUNCTION(lf, rot) *r,
                                    TYPE(mb_nodes) *on, size_t i, double h2,
                                    const struct lf_cellk *ks, int rotation)
{
    const REAL *I = &on->inertia[3 * i];
    int all_blocked = (on->blocked[i] & (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ))
                      == (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ);
    int spherical = !LF_FINCHAM_NODE(cfg, on, i, all_blocked);
    (void)cfg;
    if (ks != NULL) {                                   /* seed 002 half kick */
        FUNCTION(lf, cell_kick)(ks, on, i, &on->x[3 * i], &on->v[3 * i], r->Lc, r->wc, r->a);
        for (int k = 0; k < 3; k++)
            R_SET(&on->v[3 * i + k], &r->Lc[k]);
    }
    for (int k = 0; k < 3; k++) {
        size_t j = 3 * i + k;
        if (ks == NULL && !(on->blocked[i] & (1u << k))) { /* v += (F/m) h/2 */
            R_MUL(r->a, &on->f[j], &on->inv_mass[i]);
            R_MUL_D(r->a, r->a, h2);
            R_ADD(&on->v[j], &on->v[j], r->a);
        }
        if (!rotation)
            continue;
        if (on->blocked[i] & (MB_BLOCK_RX << k)) {
            R_SET_D(&r->T[k], 0.0);
        } else if (spherical) {                          /* w += (T/I11) h/2 */
            R_DIV(r->a, &on->torque[j], &I[0]);
            R_MUL_D(r->a, r->a, h2);
            R_ADD(&on->omega[j], &on->omega[j], r->a);
            if (ks != NULL && !on->aspherical[i])       /* + omega_L(t) - omega_L(t-h/2) */
                R_ADD_D(&on->omega[j], &on->omega[j], ks->dspin[k]);
        } else {
            R_SET(&r->T[k], &on->torque[j]);
        }
    }
    if (!rotation) {
        on->vel_mid[i] = 0;
        return;
    }
    if (!spherical) {                                    /* L += T h/2; w = R I^-1 R^T L */
        for (int k = 0; k < 3; k++) {
            R_MUL_D(r->a, &r->T[k], h2);
            R_ADD(&on->angmom[3 * i + k], &on->angmom[3 * i + k], r->a);
        }
        FUNCTION(lf, body_omega)(r, r->wc, &on->q[4 * i], I, &on->angmom[3 * i]);
        FUNCTION(mbq, rotate)(&r->q, &on->omega[3 * i], &on->q[4 * i], r->wc);
    } else if (!on->aspherical[i]) {
        for (int k = 0; k < 3; k++)
            R_MUL(&on->angmom[3 * i + k], &on->omega[3 * i + k], &I[0]);
    } else {
        FUNCTION(lf, angmom_of)(r, &on->angmom[3 * i], &on->q[4 * i], I, &on->omega[3 * i]);
    }
    on->vel_mid[i] = 0;
}

/* On-step estimates at t for diagnostics, written into on (a copy of sys->nodes): every
 * node still mid-step gets lf_sync_node with a(t), T(t) the undamped loads at x(t), q(t)
 * and the mid-step velocities (the on-step estimate of seed 000 eq. 34).  Using the
 * undamped load closes the damping-work account (see "Damping work" in leapfrog.c).
 * Nodes already on-step are left as they are. */
static int FUNCTION(lf, synchronize)(void *vstate, const TYPE(mb_system) *sys, TYPE(mb_nodes) *on)
{
    struct FUNCTION(lf, state) *w = vstate;
    const struct lf_config *cfg = &w->c.cfg;
    if (lf_none_set(on->vel_mid, on->n))
        return MB_SUCCESS;
    int st = FUNCTION(mb_forces, eval)(sys->forces, on, sys->t);
    if (st != MB_SUCCESS)
        return st;
    const double h2 = 0.5 * w->c.h_last;
    const mb_cell *cell = cfg->cell ? sys->cell : NULL;
    struct lf_cellk ks;
    if (cell != NULL) {              /* half kick from t - h/2 to t: L- = L(t - h/2), L+ = L(t) */
        double Lm[9], Lp[9];
        mb_cell_grad(cell, sys->t - h2, Lm);
        mb_cell_grad(cell, sys->t, Lp);
        st = lf_cell_coeffs(LF_MEDIUM_SPIN(cfg), Lm, Lp, h2, &ks);
        if (st != MB_SUCCESS)
            return st;
    }
    struct FUNCTION(lf, rot) r;
    FUNCTION(lf, rot_init)(&r, on->prec);
    for (size_t i = 0; i < on->n; i++)
        if (on->vel_mid[i])
            FUNCTION(lf, sync_node)(cfg, &r, on, i, h2, cell != NULL ? &ks : NULL, 1);
    FUNCTION(lf, rot_clear)(&r);
    return MB_SUCCESS;
}
