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
