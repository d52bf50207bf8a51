/* leapfrog_source.c -- template body of Woo's leap-frog family (see leapfrog.c).
 * Included once per base after templates_on.h, quat_source.c and mb_scheme_util.h. */

struct FUNCTION(lf, state) {
    struct lf_common c;       /* first member: read by lf_stats for both bases */
    size_t n;
    REAL *x_new, *v_new, *w_new, *q_new, *L_new;
};

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

static int FUNCTION(lf, alloc_common)(void **out, const mb_options *opts,
                                      const TYPE(mb_system) *sys, int negative)
{
    struct lf_config cfg;
    int st = lf_config_read(&cfg, opts, negative);
    if (st != MB_SUCCESS)
        return st;
    struct FUNCTION(lf, state) *w = calloc(1, sizeof *w);
    if (w == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
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

static int FUNCTION(lf, alloc)(void **out, const mb_options *opts, const TYPE(mb_system) *sys)
{
    return FUNCTION(lf, alloc_common)(out, opts, sys, 0);
}

static int FUNCTION(lf, alloc_defect)(void **out, const mb_options *opts,
                                      const TYPE(mb_system) *sys)
{
    return FUNCTION(lf, alloc_common)(out, opts, sys, 1);
}

/* ---------------------------------------------------------------- translation ---- */

/* Fast path (every node mid-step, nothing blocked, no damping), seed 002 eq. (28):
 *   v(t+h/2) = v(t-h/2) + a(t) h,   x(t+h) = x(t) + v(t+h/2) h,   a = F / m.
 * Same operations in the same order as the general path.  Returns 1 on NaN/Inf. */
static int FUNCTION(lf, translate_fast)(const TYPE(mb_nodes) *s, REAL *restrict x_out,
                                        REAL *restrict v_out, double h)
{
    const REAL *restrict x = s->x, *restrict v = s->v, *restrict f = s->f;
    const REAL *restrict im = s->inv_mass;
    const size_t n = s->n;
    int bad = 0;
    REAL a[1], t[1];
    R_INIT(a, s->prec);
    R_INIT(t, s->prec);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 3 * i; j < 3 * i + 3; j++) {
            R_MUL(a, &f[j], &im[i]);
            R_MUL_D(a, a, h);
            R_ADD(&v_out[j], &v[j], a);
            R_MUL_D(t, &v_out[j], h);
            R_ADD(&x_out[j], &x[j], t);
            bad |= !R_ISFINITE(&x_out[j]) | !R_ISFINITE(&v_out[j]);
        }
    R_CLEAR(a);
    R_CLEAR(t);
    return bad;
}

/* General path: per node first-step adjustment (seed 000 note: v(h/2) = v(0) + a(0) h/2
 * when v is still on-step), blocked DOFs (zero acceleration) and Cundall damping
 * (seed 000 eq. 34): F_w -> F_w (1 - lambda sgn(F_w (v_w + a_w h/2))), where the
 * parenthesis estimates the on-step velocity (v itself when it is on-step already).
 * Work of the damping force D = -lambda s F (see "Damping work" in leapfrog.c): the
 * step adds -D v(t) h with v(t) = (v(t-h/2) + v(t+h/2))/2, or -D v(h/2) h/2 on an
 * adjusted first step, to *diss.  Returns 1 on NaN/Inf. */
static int FUNCTION(lf, translate_general)(const struct lf_config *cfg, const TYPE(mb_nodes) *s,
                                           REAL *restrict x_out, REAL *restrict v_out,
                                           double h, REAL *diss)
{
    const double h2 = 0.5 * h, lambda = cfg->damping;
    int bad = 0;
    REAL a[1], e[1], t[1];
    R_INIT(a, s->prec);
    R_INIT(e, s->prec);
    R_INIT(t, s->prec);
    for (size_t i = 0; i < s->n; i++) {
        int first = cfg->adj_vel0 && !s->vel_mid[i];
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            int sg = 0;
            if (s->blocked[i] & (1u << k)) {
                R_SET_D(a, 0.0);
            } else {
                R_MUL(a, &s->f[j], &s->inv_mass[i]);
                if (lambda > 0.0) {
                    if (first) {
                        R_SET(e, &s->v[j]);
                    } else {
                        R_MUL_D(e, a, h2);
                        R_ADD(e, &s->v[j], e);
                    }
                    sg = R_SGN(&s->f[j]) * R_SGN(e);
                    if (sg != 0)
                        R_MUL_D(a, a, 1.0 - lambda * sg);
                }
            }
            R_MUL_D(t, a, first ? h2 : h);
            R_ADD(&v_out[j], &s->v[j], t);
            R_MUL_D(t, &v_out[j], h);
            R_ADD(&x_out[j], &s->x[j], t);
            bad |= !R_ISFINITE(&x_out[j]) | !R_ISFINITE(&v_out[j]);
            if (sg != 0) {              /* lf_work: lambda s F (v- + v+) h/2 */
                if (first)
                    R_SET(t, &v_out[j]);
                else
                    R_ADD(t, &s->v[j], &v_out[j]);
                R_MUL(t, t, &s->f[j]);
                R_MUL_D(t, t, h2);
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

/* diss += coef F (u- + u+) h/2, or coef F u+ h/2 on an adjusted first step: the work
 * -D . u(t) h of the damping load D = -coef F (coef = lambda s; u an angular velocity). */
static void FUNCTION(lf, work)(struct FUNCTION(lf, rot) *r, REAL *diss, const REAL *F,
                               const REAL *um, const REAL *up, int first, double h, double coef)
{
    if (first)
        R_SET(r->e, up);
    else
        R_ADD(r->e, um, up);
    R_MUL(r->e, r->e, F);
    R_MUL_D(r->e, r->e, 0.5 * h);
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

/* L = R(q) I R(q)^T w (global angular momentum of body inertia I); with local_bug the
 * body components I (R^T w) are returned as if global (the initialisation defect). */
static void FUNCTION(lf, angmom_of)(struct FUNCTION(lf, rot) *r, REAL *L, const REAL *q,
                                    const REAL *I, const REAL *w, int local_bug)
{
    FUNCTION(mbq, rotate_inv)(&r->q, L, q, w);
    for (int k = 0; k < 3; k++)
        R_MUL(&L[k], &L[k], &I[k]);
    if (!local_bug)
        FUNCTION(mbq, rotate)(&r->q, L, q, L);
}

/* out = I^-1 A L with A = R(q)^T: the body angular velocity for global momentum L */
static void FUNCTION(lf, body_omega)(struct FUNCTION(lf, rot) *r, REAL *out, const REAL *q,
                                     const REAL *I, const REAL *L)
{
    FUNCTION(mbq, rotate_inv)(&r->q, out, q, L);
    for (int k = 0; k < 3; k++)
        R_DIV(&out[k], &out[k], &I[k]);
}

/* Spherical node (seed 002 eq. for I11 = I22 = I33), global frame:
 *   a = T / I11,  w(t+h/2) = w(t-h/2) + a h   (first step: w(h/2) = w(0) + a h/2),
 *   q(t+h) = Quaternion(w(t+h/2) h) (x) q(t), normalised.
 * Blocked rotations get a_w = 0; Cundall damping as for forces, on T_w and the estimate
 * w_w + a_w h/2.  Also used for aspherical nodes whose three rotations are blocked
 * (w then stays constant) and by the spherical-rotation defect. */
static void FUNCTION(lf, rot_spherical)(const struct lf_config *cfg, struct FUNCTION(lf, rot) *r,
                                        const TYPE(mb_nodes) *s, size_t i, int first, double h,
                                        REAL *w_out, REAL *q_out, REAL *L_out, REAL *diss)
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
                if (first) {
                    R_SET(r->e, &w[k]);
                } else {
                    R_MUL_D(r->e, r->a, 0.5 * h);
                    R_ADD(r->e, &w[k], r->e);
                }
                sg = R_SGN(&T[k]) * R_SGN(r->e);
                if (sg != 0)
                    R_MUL_D(r->a, r->a, 1.0 - lambda * sg);
            }
        }
        R_MUL_D(r->a, r->a, first ? 0.5 * h : h);
        R_ADD(&w_out[k], &w[k], r->a);
        R_MUL_D(&r->th[k], &w_out[k], h);
        if (sg != 0)
            FUNCTION(lf, work)(r, diss, &T[k], &w[k], &w_out[k], first, h, lambda * sg);
    }
    FUNCTION(mbq, from_rotvec)(&r->q, r->qu, r->th);
    FUNCTION(mbq, mul)(&r->q, q_out, r->qu, &s->q[4 * i]);
    FUNCTION(lf, renorm)(r, q_out);
    if (s->aspherical[i])
        FUNCTION(lf, angmom_of)(r, L_out, q_out, I, w_out, 0);
    else
        for (int k = 0; k < 3; k++)
            R_MUL(&L_out[k], &w_out[k], &I[0]);
}

/* Aspherical node, Fincham's leap-frog (Allen & Tildesley pp. 84-89; seed 002), with
 * L(t-h/2) the global angular momentum and A = R(q(t))^T (DESIGN 4.2):
 *   1. L(t) = L(t-h/2) + T h/2;         w~(t)     = I^-1 A L(t)
 *   2. L(t+h/2) = L(t-h/2) + T h;       w~(t+h/2) = I^-1 A L(t+h/2)
 *   3. q(t+h/2) = q(t) + (h/2) 1/2 q(t) (x) (0, w~(t))
 *   4. q(t+h) = q(t) + h 1/2 q(t+h/2) (x) (0, w~(t+h/2)), normalised
 *   5. w(t+h/2) = A^T w~(t+h/2)
 * Variants: fincham-halfstep uses A = R(q(t+h/2))^T (q(t+h/2) normalised) in steps 2 and
 * 5; fincham-woo uses R(q(t+h)) in step 5.  First step with adj_vel0: L(0) comes from
 * the on-step w(0), so L(t) = L(0) and L(h/2) = L(0) + T h/2.  Blocked rotations zero
 * the global torque component; damping uses the first-order form T_w (1 - lambda
 * sgn(T_w w_w)) with the stored w. */
static void FUNCTION(lf, rot_fincham)(const struct lf_config *cfg, struct FUNCTION(lf, rot) *r,
                                      const TYPE(mb_nodes) *s, size_t i, int first, int fresh,
                                      double h, REAL *w_out, REAL *q_out, REAL *L_out,
                                      REAL *diss)
{
    const double lambda = cfg->damping;
    const REAL *w = &s->omega[3 * i], *I = &s->inertia[3 * i], *q = &s->q[4 * i];
    int sgs[3] = { 0, 0, 0 };
    /* L0: stored mid-step momentum, or the global momentum of the on-step w(0) */
    if (fresh)
        FUNCTION(lf, angmom_of)(r, r->Ln, q, I, w, cfg->defect == LF_DEFECT_LOCAL_ANGMOM);
    else
        for (int k = 0; k < 3; k++)
            R_SET(&r->Ln[k], &s->angmom[3 * i + k]);
    for (int k = 0; k < 3; k++) {
        if (s->blocked[i] & (MB_BLOCK_RX << k)) {
            R_SET_D(&r->T[k], 0.0);
            continue;
        }
        R_SET(&r->T[k], &s->torque[3 * i + k]);
        if (lambda > 0.0) {
            sgs[k] = R_SGN(&r->T[k]) * R_SGN(&w[k]);
            if (sgs[k] != 0)
                R_MUL_D(&r->T[k], &r->T[k], 1.0 - lambda * sgs[k]);
        }
    }
    for (int k = 0; k < 3; k++) {                   /* steps 1, 2 */
        R_MUL_D(r->a, &r->T[k], 0.5 * h);
        if (first) {
            R_SET(&r->Lc[k], &r->Ln[k]);
            R_ADD(&r->Ln[k], &r->Ln[k], r->a);
        } else {
            R_ADD(&r->Lc[k], &r->Ln[k], r->a);
            R_MUL_D(r->a, &r->T[k], h);
            R_ADD(&r->Ln[k], &r->Ln[k], r->a);
        }
    }
    FUNCTION(lf, body_omega)(r, r->wc, q, I, r->Lc);
    FUNCTION(mbq, mul_pure)(&r->q, r->qh, q, r->wc);          /* step 3 */
    for (int k = 0; k < 4; k++) {
        R_MUL_D(&r->qh[k], &r->qh[k], 0.25 * h);
        R_ADD(&r->qh[k], &q[k], &r->qh[k]);
    }
    if (cfg->asph == LF_FINCHAM_HALFSTEP) {
        for (int k = 0; k < 4; k++)
            R_SET(&r->qu[k], &r->qh[k]);
        FUNCTION(mbq, normalize)(&r->q, r->qu, r->a);
        FUNCTION(lf, body_omega)(r, r->wn, r->qu, I, r->Ln);
    } else {
        FUNCTION(lf, body_omega)(r, r->wn, q, I, r->Ln);      /* step 2 */
    }
    FUNCTION(mbq, mul_pure)(&r->q, q_out, r->qh, r->wn);      /* step 4 */
    for (int k = 0; k < 4; k++) {
        R_MUL_D(&q_out[k], &q_out[k], 0.5 * h);
        R_ADD(&q_out[k], &q[k], &q_out[k]);
    }
    FUNCTION(lf, renorm)(r, q_out);
    if (cfg->asph == LF_FINCHAM_HALFSTEP)                       /* step 5 */
        FUNCTION(mbq, rotate)(&r->q, w_out, r->qu, r->wn);
    else if (cfg->asph == LF_FINCHAM_WOO)
        FUNCTION(mbq, rotate)(&r->q, w_out, q_out, r->wn);
    else
        FUNCTION(mbq, rotate)(&r->q, w_out, q, r->wn);
    for (int k = 0; k < 3; k++) {
        R_SET(&L_out[k], &r->Ln[k]);
        if (sgs[k] != 0)
            FUNCTION(lf, work)(r, diss, &s->torque[3 * i + k], &w[k], &w_out[k], first, h,
                               lambda * sgs[k]);
    }
}

/* Rotation of every node; returns 1 on NaN/Inf.  *qnorm receives the max norm
 * deviation of this step. */
static int FUNCTION(lf, rotate_all)(const struct lf_config *cfg, const TYPE(mb_nodes) *s,
                                    REAL *w_out, REAL *q_out, REAL *L_out, double h, REAL *diss,
                                    double *qnorm)
{
    struct FUNCTION(lf, rot) r;
    FUNCTION(lf, rot_init)(&r, s->prec);
    for (size_t i = 0; i < s->n; i++) {
        int fresh = !s->vel_mid[i], first = cfg->adj_vel0 && fresh;
        REAL *wo = &w_out[3 * i], *qo = &q_out[4 * i], *Lo = &L_out[3 * i];
        int all_blocked = (s->blocked[i] & (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ))
                          == (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ);
        if (!s->aspherical[i] || all_blocked || cfg->defect == LF_DEFECT_SPHERICAL)
            FUNCTION(lf, rot_spherical)(cfg, &r, s, i, first, h, wo, qo, Lo, diss);
        else
            FUNCTION(lf, rot_fincham)(cfg, &r, s, i, first, fresh, h, wo, qo, Lo, diss);
    }
    int bad = !FUNCTION(scheme, finite)(w_out, 3 * s->n) || !FUNCTION(scheme, finite)(q_out, 4 * s->n)
              || !FUNCTION(scheme, finite)(L_out, 3 * s->n);
    *qnorm = r.qnorm_err;
    FUNCTION(lf, rot_clear)(&r);
    return bad;
}

/* ----------------------------------------------------------------------- step ---- */

static int FUNCTION(lf, step)(void *vstate, TYPE(mb_system) *sys, double h)
{
    struct FUNCTION(lf, state) *w = vstate;
    TYPE(mb_nodes) *s = sys->nodes;
    const struct lf_config *cfg = &w->c.cfg;
    if (!(h > 0.0) || !isfinite(h))
        MB_ERROR(MB_EDOM, "leapfrog: time step h = %g must be finite and > 0", h);
    int status = FUNCTION(mb_forces, eval)(sys->forces, s, sys->t);
    if (status != MB_SUCCESS)
        return status;
    REAL diss[1];
    R_INIT(diss, s->prec);
    R_SET_D(diss, 0.0);
    int fast = cfg->damping == 0.0 && lf_none_set(s->blocked, s->n)
               && (!cfg->adj_vel0 || lf_all_set(s->vel_mid, s->n));
    int bad = fast ? FUNCTION(lf, translate_fast)(s, w->x_new, w->v_new, h)
                   : FUNCTION(lf, translate_general)(cfg, s, w->x_new, w->v_new, h, diss);
    double qnorm = 0.0;
    bad |= FUNCTION(lf, rotate_all)(cfg, s, w->w_new, w->q_new, w->L_new, h, diss, &qnorm);
    double dissipated = R_GET_D(diss);
    R_CLEAR(diss);
    if (bad)
        MB_ERROR(MB_EDIVERGED, "%s: NaN or Inf at t = %.17g", lf_name(cfg), sys->t + h);
    FUNCTION(scheme, swap)(&s->x, &w->x_new);
    FUNCTION(scheme, swap)(&s->v, &w->v_new);
    FUNCTION(scheme, swap)(&s->omega, &w->w_new);
    FUNCTION(scheme, swap)(&s->q, &w->q_new);
    FUNCTION(scheme, swap)(&s->angmom, &w->L_new);
    memset(s->vel_mid, 1, s->n);
    sys->t += h;
    sys->dissipated_by_scheme += dissipated;
    w->c.h_last = h;
    w->c.steps++;
    if (qnorm > w->c.qnorm_err || !(qnorm == qnorm))
        w->c.qnorm_err = qnorm;
    return MB_SUCCESS;
}

/* ---------------------------------------------------------------- synchronize ---- */

/* On-step estimates at t for diagnostics, written into on (a copy of sys->nodes):
 *   v(t) = v(t-h/2) + a(t) h/2,  w(t) = w(t-h/2) + (T/I11) h/2   (spherical),
 *   L(t) = L(t-h/2) + T h/2,     w(t) = R I^-1 R^T L(t)           (aspherical, R = R(q(t))),
 * with a(t), T(t) the undamped loads at x(t), q(t) and the mid-step velocities (the
 * on-step estimate of seed 000 eq. 34) and zero on blocked DOFs.  Using the undamped
 * load closes the damping-work account (see "Damping work" in leapfrog.c).  Nodes still
 * on-step are left as they are. */
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
    struct FUNCTION(lf, rot) r;
    FUNCTION(lf, rot_init)(&r, on->prec);
    for (size_t i = 0; i < on->n; i++) {
        if (!on->vel_mid[i])
            continue;
        const REAL *I = &on->inertia[3 * i];
        int all_blocked = (on->blocked[i] & (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ))
                          == (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ);
        int spherical = !on->aspherical[i] || all_blocked || cfg->defect == LF_DEFECT_SPHERICAL;
        for (int k = 0; k < 3; k++) {
            size_t j = 3 * i + k;
            if (!(on->blocked[i] & (1u << k))) {            /* v += (F/m) h/2 */
                R_MUL(r.a, &on->f[j], &on->inv_mass[i]);
                R_MUL_D(r.a, r.a, h2);
                R_ADD(&on->v[j], &on->v[j], r.a);
            }
            if (on->blocked[i] & (MB_BLOCK_RX << k)) {
                R_SET_D(&r.T[k], 0.0);
            } else if (spherical) {                          /* w += (T/I11) h/2 */
                R_DIV(r.a, &on->torque[j], &I[0]);
                R_MUL_D(r.a, r.a, h2);
                R_ADD(&on->omega[j], &on->omega[j], r.a);
            } else {
                R_SET(&r.T[k], &on->torque[j]);
            }
        }
        if (!spherical) {                                    /* L += T h/2; w = R I^-1 R^T L */
            for (int k = 0; k < 3; k++) {
                R_MUL_D(r.a, &r.T[k], h2);
                R_ADD(&on->angmom[3 * i + k], &on->angmom[3 * i + k], r.a);
            }
            FUNCTION(lf, body_omega)(&r, r.wc, &on->q[4 * i], I, &on->angmom[3 * i]);
            FUNCTION(mbq, rotate)(&r.q, &on->omega[3 * i], &on->q[4 * i], r.wc);
        } else if (!on->aspherical[i]) {
            for (int k = 0; k < 3; k++)
                R_MUL(&on->angmom[3 * i + k], &on->omega[3 * i + k], &I[0]);
        } else {
            FUNCTION(lf, angmom_of)(&r, &on->angmom[3 * i], &on->q[4 * i], I, &on->omega[3 * i], 0);
        }
        on->vel_mid[i] = 0;
    }
    FUNCTION(lf, rot_clear)(&r);
    return MB_SUCCESS;
}
