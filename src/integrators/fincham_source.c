/* fincham_source.c -- template body of Fincham's rotation of an aspherical rigid body,
 * the leap-frog's update of orientation and angular momentum (Allen & Tildesley,
 * Computer Simulation of Liquids, pp. 84-89; seed 002), in its three variants
 * (leapfrog.c: aspherical = fincham | fincham-halfstep | fincham-woo).
 * Included by leapfrog_source.c, once per base (double and MPFR), after the rotation
 * workspace (struct lf_rot), lf_work, lf_renorm and lf_angmom_of it uses; the leap-frog's
 * rotate_all sends every node its LF_FINCHAM_NODE rule selects here, and its synchronize
 * uses lf_body_omega for the on-step w(t) of such a node. */

/* out = I^-1 A L with A = R(q)^T: the body angular velocity for global momentum L */
static void FUNCTION(lf, body_omega)(struct FUNCTION(lf, rot) *r, REAL *out, const REAL *q,
                                     const REAL *I, const REAL *L)
{
    FUNCTION(mbq, rotate_inv)(&r->q, out, q, L);
    for (int k = 0; k < 3; k++)
        R_DIV(&out[k], &out[k], &I[k]);
}

/* Aspherical node, Fincham's leap-frog (Allen & Tildesley pp. 84-89; seed 002), with
 * L(t-h/2) the global angular momentum and A = R(q(t))^T (DESIGN 4.2):
 *   1. L(t) = L(t-h/2) + T h/2;         w~(t)     = I^-1 A L(t)
 *   2. L(t+h/2) = L(t-h/2) + T h;       w~(t+h/2) = I^-1 A L(t+h/2)
 *   3. q(t+h/2) = q(t) + (h/2) 1/2 q(t) (x) (0, w~(t))
 *   4. q(t+h) = q(t) + h 1/2 q(t+h/2) (x) (0, w~(t+h/2)), normalised
 *   5. w(t+h/2) = A^T w~(t+h/2)
 * Variants: fincham-halfstep uses A = R(q(t+h/2))^T (q(t+h/2) normalised) in steps 2 and
 * 5; fincham-woo uses R(q(t+h)) in step 5.  With a previous step hp != h, steps 1 and 2
 * read L(t) = L(t-hp/2) + T hp/2 and L(t+h/2) = L(t-hp/2) + T (hp + h)/2.  First step with
 * adj_vel0: L(0) comes from the on-step w(0) and hp = 0, so L(t) = L(0) and
 * L(h/2) = L(0) + T h/2.  Blocked rotations zero
 * the global torque component; damping uses the first-order form T_w (1 - lambda
 * sgn(T_w w_w)) with the stored w. */
static void FUNCTION(lf, rot_fincham)(const struct lf_config *cfg, struct FUNCTION(lf, rot) *r,
                                      const TYPE(mb_nodes) *s, size_t i, double hp, int fresh,
                                      double h, REAL *w_out, REAL *q_out, REAL *L_out,
                                      REAL *diss)
{
    const double lambda = cfg->damping;
    const REAL *w = &s->omega[3 * i], *I = &s->inertia[3 * i], *q = &s->q[4 * i];
    int sgs[3] = { 0, 0, 0 };
    /* L0: stored mid-step momentum, or the global momentum of the on-step w(0) */
    if (fresh)
        LF_INITIAL_ANGMOM(cfg, r, r->Ln, q, I, w);
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
        R_MUL_D(r->a, &r->T[k], 0.5 * hp);
        R_ADD(&r->Lc[k], &r->Ln[k], r->a);
        R_MUL_D(r->a, &r->T[k], 0.5 * (hp + h));
        R_ADD(&r->Ln[k], &r->Ln[k], r->a);
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
            FUNCTION(lf, work)(r, diss, &s->torque[3 * i + k], &w[k], &w_out[k], hp, h,
                               lambda * sgs[k]);
    }
}

#if defined(BASE_DOUBLE) && defined(__GNUC__)
/* ------------------------------------------------ two bodies at a time (double) ---- */

/* The plain case of lf_rot_fincham -- a mid-step node (L(t-hp/2) stored), no blocked
 * rotation, no damping -- on two nodes side by side: lane 0 is node i, lane 1 node j.
 * Each lane performs exactly the IEEE operations of lf_rot_fincham and of the quaternion
 * algebra it calls (quat_source.c), in the same order, so the results are those of one
 * node alone bit for bit (tests/test_fincham_pairs.c).  The general template keeps its
 * temporaries in memory (its scratch is shared with the MPFR instance); here they are
 * locals, and the divisions and square roots of the two lanes are issued together. */
typedef double lf_v2 __attribute__((vector_size(2 * sizeof(double))));

/* out = R(q) v (sign +1) or R(q)^T v (sign -1): mbq_rotate_signed (mb_quat_lanes.h) */
MB_QUAT_LANES_DEFINE_ROTATE(static inline, lf_v2_rotate, lf_v2)

/* r = a (x) (0, v): mbq_mul_pure */
static inline void lf_v2_mul_pure(lf_v2 r[4], const lf_v2 a[4], const lf_v2 v[3])
{
    r[0] = (-(a[1] * v[0]) - a[2] * v[1]) - a[3] * v[2];
    r[1] = (a[0] * v[0] + a[2] * v[2]) - a[3] * v[1];
    r[2] = (a[0] * v[1] - a[1] * v[2]) + a[3] * v[0];
    r[3] = (a[0] * v[2] + a[1] * v[1]) - a[2] * v[0];
}

/* q /= |q|, the norm returned: mbq_normalize (sqrt per lane, correctly rounded) */
static inline lf_v2 lf_v2_normalize(lf_v2 q[4])
{
    lf_v2 a = q[0] * q[0];
    MB_UNROLL(3)
    for (int k = 1; k < 4; k++)
        a = a + q[k] * q[k];
    const lf_v2 nrm = { sqrt(a[0]), sqrt(a[1]) };
    MB_UNROLL(4)
    for (int k = 0; k < 4; k++)
        q[k] = q[k] / nrm;
    return nrm;
}

/* out = I^-1 A L, A = R(q)^T: lf_body_omega */
static inline void lf_v2_body_omega(lf_v2 out[3], const lf_v2 q[4], const lf_v2 I[3],
                                    const lf_v2 L[3])
{
    lf_v2_rotate(out, q, L, -1);
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++)
        out[k] = out[k] / I[k];
}

/* lanes <- m components of nodes i and j of a per-node array a (stride m) */
static inline void lf_v2_load(lf_v2 *out, const double *a, int m, size_t i, size_t j)
{
    MB_UNROLL(4)
    for (int k = 0; k < m; k++)
        out[k] = (lf_v2){ a[m * i + k], a[m * j + k] };
}

static inline void lf_v2_store(double *a, const lf_v2 *in, int m, size_t i, size_t j)
{
    MB_UNROLL(4)
    for (int k = 0; k < m; k++) {
        a[m * i + k] = in[k][0];
        a[m * j + k] = in[k][1];
    }
}

/* node i may take the pair kernel: Fincham's update, mid-step, no blocked rotation, no
 * damping (then lf_rot_fincham reads T unchanged and adds no work) */
static inline int lf_fincham_plain(const struct lf_config *cfg, const mb_nodes *s, size_t i)
{
    const unsigned rot = MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ;
    return LF_FINCHAM_NODE(cfg, s, i, 0) && s->vel_mid[i] && !(s->blocked[i] & rot)
           && !(cfg->damping > 0.0);
}

/* 1 when a component of the results is NaN or Inf: x - x is +0 for every finite x and
 * NaN otherwise, and a sum of +0 is +0 while a NaN term makes it NaN */
static inline int lf_v2_any_nonfinite(const lf_v2 w[3], const lf_v2 q[4], const lf_v2 L[3])
{
    const lf_v2 a = ((w[0] - w[0]) + (w[1] - w[1])) + ((w[2] - w[2]) + (L[0] - L[0]));
    const lf_v2 b = ((L[1] - L[1]) + (L[2] - L[2])) + ((q[0] - q[0]) + (q[1] - q[1]));
    const lf_v2 c = (a + b) + ((q[2] - q[2]) + (q[3] - q[3]));
    return !(c[0] == 0.0 && c[1] == 0.0);
}

/* lf_rot_fincham of the plain nodes i and j (hp the previous step of both); returns 1
 * when a result is NaN or Inf */
static int lf_rot_fincham_pair(const struct lf_config *cfg, struct lf_rot *r, const mb_nodes *s,
                                size_t i, size_t j, double hp, double h, double *w_out,
                                double *q_out, double *L_out)
{
    lf_v2 q[4], I[3], Lc[3], Ln[3], T[3], wc[3], wn[3], qh[4], qu[4], qo[4], wo[3];
    lf_v2_load(q, s->q, 4, i, j);
    lf_v2_load(I, s->inertia, 3, i, j);
    lf_v2_load(Ln, s->angmom, 3, i, j);
    lf_v2_load(T, s->torque, 3, i, j);
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {                   /* steps 1, 2 */
        Lc[k] = Ln[k] + T[k] * (0.5 * hp);
        Ln[k] = Ln[k] + T[k] * (0.5 * (hp + h));
    }
    lf_v2_body_omega(wc, q, I, Lc);
    lf_v2_mul_pure(qh, q, wc);                      /* step 3 */
    MB_UNROLL(4)
    for (int k = 0; k < 4; k++)
        qh[k] = q[k] + qh[k] * (0.25 * h);
    const lf_v2 *qa = q;                            /* A = R(qa)^T of steps 2 and 5 */
    if (cfg->asph == LF_FINCHAM_HALFSTEP) {
        MB_UNROLL(4)
        for (int k = 0; k < 4; k++)
            qu[k] = qh[k];
        lf_v2_normalize(qu);
        qa = qu;
    }
    lf_v2_body_omega(wn, qa, I, Ln);                /* step 2 */
    lf_v2_mul_pure(qo, qh, wn);                     /* step 4 */
    MB_UNROLL(4)
    for (int k = 0; k < 4; k++)
        qo[k] = q[k] + qo[k] * (0.5 * h);
    const lf_v2 nrm = lf_v2_normalize(qo);
    MB_UNROLL(2)
    for (int l = 0; l < 2; l++) {                   /* lf_renorm's record, node i first */
        double dev = fabs(nrm[l] - 1.0);
        if (dev > r->qnorm_err || !(dev == dev))
            r->qnorm_err = dev;
    }
    lf_v2_rotate(wo, cfg->asph == LF_FINCHAM_WOO ? qo : qa, wn, +1);   /* step 5 */
    lf_v2_store(w_out, wo, 3, i, j);
    lf_v2_store(q_out, qo, 4, i, j);
    lf_v2_store(L_out, Ln, 3, i, j);
    return lf_v2_any_nonfinite(wo, qo, Ln);
}
#endif
