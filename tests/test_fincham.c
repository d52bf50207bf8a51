/* test_fincham.c -- rotation of aspherical nodes in the leap-frog (Fincham's algorithm,
 * three variants) against references the scheme did not compute:
 *   - the torque-free asymmetric body against GSL odeiv2 rk8pd on Euler's equations plus
 *     the quaternion kinematics q' = 1/2 q (x) (0, w~) (tolerance 1e-13; its own error is
 *     checked against a 1e-11 run to be < 1e-10, far below the scheme errors measured);
 *   - the symmetric top and the axial-torque top against their closed forms;
 *   - equal moments against the spin-up closed form (which the spherical update meets
 *     to round-off, test_leapfrog.c).
 * Observed orders are measured by least squares over 5 step sizes and printed. */
#include <criterion/criterion.h>
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <string.h>

#include "lf_run.h"
#include "mb_mpfr_extra.h"

static const double U = DBL_EPSILON / 2;

/* ---- rk8pd reference for the torque-free body: y = (w~1..3, q0..3) ---- */

static int euler_rhs(double t, const double y[], double dy[], void *vp)
{
    const double *I = vp;
    double pure[4] = { 0.0, y[0], y[1], y[2] }, r[4];
    (void)t;
    dy[0] = (I[1] - I[2]) * y[1] * y[2] / I[0];
    dy[1] = (I[2] - I[0]) * y[2] * y[0] / I[1];
    dy[2] = (I[0] - I[1]) * y[0] * y[1] / I[2];
    mb_q_mul(r, &y[3], pure);
    for (int k = 0; k < 4; k++)
        dy[3 + k] = 0.5 * r[k];
    return GSL_SUCCESS;
}

/* Body w~ and q at time t from the initial body w~0, q0 (tolerance tol). */
static void rigid_reference(const double I[3], const double wb0[3], const double q0[4], double t,
                            double tol, double wb[3], double q[4])
{
    double y[7] = { wb0[0], wb0[1], wb0[2], q0[0], q0[1], q0[2], q0[3] }, t0 = 0.0;
    gsl_odeiv2_system sys = { euler_rhs, NULL, 7, (void *)I };
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3, tol, tol);
    if (t > 0.0)
        cr_assert_eq(gsl_odeiv2_driver_apply(d, &t0, t, y), GSL_SUCCESS);
    gsl_odeiv2_driver_free(d);
    memcpy(wb, y, 3 * sizeof(double));
    memcpy(q, &y[3], 4 * sizeof(double));
    mb_q_normalize(q);
}

static const double FRB_I[3] = { 1.3, 2.385, 3.7 }, FRB_W0[3] = { 0.9, 0.35, -0.6 };
#define FRB_PROBLEM "free-rigid-body"

/* the initial orientation of the problem's defaults (axis (0.3,-0.5,0.81), angle 0.7) */
static void frb_q0(double q0[4])
{
    double axis[3] = { 0.3, -0.5, 0.81 }, th[3];
    mb_v3_scale(th, 0.7 / mb_v3_norm(axis), axis);
    mb_q_from_rotvec(q0, th);
}

struct rot_errors {
    double q, w, wb, wmid, L, E;   /* orientation, global w, body w~, mid-step w,
                                      |L - L0|/|L0| and |E/E0 - 1| (max along the run) */
    double qnorm;                  /* max quaternion norm deviation before normalisation */
};

/* Run the torque-free body to T with n steps; errors against rk8pd. */
static struct rot_errors frb_errors(const char *problem, const char *scheme, double T, long n)
{
    struct rot_errors e = { 0 };
    lf_run *r = lf_run_new(problem, scheme);
    double h = T / n, q0[4], wb[3], q[4], wg[3];
    frb_q0(q0);
    mb_energy E0 = mb_energy_of(r->sys, r->sys->nodes);
    double L0[3];
    mb_v3_copy(L0, r->sys->nodes->angmom);
    for (long k = 0; k < n; k++) {
        lf_run_steps(r, 1, h);
        if ((k + 1) % (n / 50) == 0 || k == n - 1) {   /* energy and |L| along the run */
            const mb_nodes *on = lf_run_sync(r);
            mb_energy Ek = mb_energy_of(r->sys, on);
            e.E = fmax(e.E, fabs(Ek.total / E0.total - 1.0));
            e.L = fmax(e.L, mb_v3_dist(on->angmom, L0) / mb_v3_norm(L0));
        }
    }
    const mb_nodes *on = lf_run_sync(r);
    rigid_reference(FRB_I, FRB_W0, q0, T, 1e-13, wb, q);
    mb_q_rotate(wg, q, wb);
    e.q = mb_q_angle_between(on->q, q);
    e.w = lf_dist3(on->omega, wg);
    double wb_num[3];
    mb_q_rotate_inv(wb_num, on->q, on->omega);
    e.wb = lf_dist3(wb_num, wb);
    rigid_reference(FRB_I, FRB_W0, q0, T - h / 2, 1e-13, wb, q);   /* mid-step w(T - h/2) */
    mb_q_rotate(wg, q, wb);
    e.wmid = lf_dist3(r->sys->nodes->omega, wg);
    mb_stepper_stats st;
    mb_stepper_get_stats(r->st, &st);
    e.qnorm = st.quat_norm_error_max;
    lf_run_free(r);
    return e;
}

Test(fincham, reference_is_converged)
{
    double q0[4], wa[3], qa[4], wb[3], qb[4];
    frb_q0(q0);
    rigid_reference(FRB_I, FRB_W0, q0, 5.3, 1e-13, wa, qa);
    rigid_reference(FRB_I, FRB_W0, q0, 5.3, 1e-11, wb, qb);
    cr_expect(lf_dist3(wa, wb) < 1e-10 && mb_q_angle_between(qa, qb) < 1e-10,
              "rk8pd reference not converged: %.3g %.3g", lf_dist3(wa, wb), mb_q_angle_between(qa, qb));
}

/* Orders of the three variants (and of fincham without the first-step adjustment) on
 * the torque-free asymmetric body, T = 5.3, h = T/200 ... T/3200. */
#define NH 5
static void measure_orders(const char *scheme, double p[5], struct rot_errors *finest)
{
    double hs[NH], eq[NH], ew[NH], ewb[NH], ewm[NH], eE[NH];
    const double T = 5.3;
    for (int j = 0; j < NH; j++) {
        long n = 200L << j;
        hs[j] = T / n;
        struct rot_errors e = frb_errors(FRB_PROBLEM, scheme, T, n);
        eq[j] = e.q; ew[j] = e.w; ewb[j] = e.wb; ewm[j] = e.wmid; eE[j] = e.E;
        cr_log_info("%-34s h=%.5f  q %.3e  w %.3e  w~ %.3e  w(mid) %.3e  E %.3e  |L| %.1e  qnorm %.1e",
                    scheme, hs[j], e.q, e.w, e.wb, e.wmid, e.E, e.L, e.qnorm);
        if (j == NH - 1)
            *finest = e;
    }
    p[0] = lf_order(hs, eq, NH);
    p[1] = lf_order(hs, ew, NH);
    p[2] = lf_order(hs, ewb, NH);
    p[3] = lf_order(hs, ewm, NH);
    p[4] = lf_order(hs, eE, NH);
    cr_log_info("%-34s orders: q %.3f  w %.3f  w~ %.3f  w(mid) %.3f  energy %.3f", scheme, p[0],
                p[1], p[2], p[3], p[4]);
}

/* Invariants of the torque-free run: the global L is carried exactly (T = 0 adds exact
 * zeros) and the synchronized L(t) = L(t-h/2) + 0 h/2 too, so |L - L0| / |L0| = 0 up to
 * the rounding of the norms (4 u).  Energy: E = 1/2 L~ . I^-1 L~ with
 * L~ = R^T L; an orientation error dtheta changes it by |w~ x L~| dtheta <= |L|^2/I1 dtheta
 * at most (first order in dtheta), so the relative energy error is bounded by
 * |L|^2 / (2 I1 E) times the orientation error measured against the reference (factor 1.5
 * for the second-order remainder), and its order is at least that of the orientation. */
static void check_invariants(const struct rot_errors *e, const double p[5])
{
    double L[3];
    for (int k = 0; k < 3; k++)
        L[k] = FRB_I[k] * FRB_W0[k];
    double E = 0.5 * mb_v3_dot(FRB_W0, L), bound = mb_v3_dot(L, L) / FRB_I[0] / (2.0 * E);
    cr_expect(e->L <= 4.0 * U, "L drift %.3g", e->L);
    cr_expect(e->E <= bound * 1.5 * e->q + 64 * U, "energy error %.3g > %.3g x orientation error %.3g",
              e->E, bound, e->q);
    cr_expect(p[4] > p[0] - 0.2, "energy error order %.3f below orientation order %.3f", p[4], p[0]);
}

/* The seed's form (A = R(q(t))^T in step 2) makes w~(t+h/2) = I^-1 A(t) L(t+h/2) wrong by
 * O(h) (the body turns by w h/2 between t and t+h/2), so q(t+h) = q + h q'(t+h/2) has a
 * local error O(h^2): first order globally.  Measured (h = T/200 .. T/3200, T = 5.3):
 * q 1.016, w 1.042, w~ 1.023, w(mid) 1.040, energy 0.992. */
Test(fincham, torque_free_orders_fincham)
{
    double p[5];
    struct rot_errors fine;
    measure_orders("leapfrog", p, &fine);
    check_invariants(&fine, p);
    cr_expect(fabs(p[0] - 1.0) < 0.1 && fabs(p[1] - 1.0) < 0.1 && fabs(p[2] - 1.0) < 0.1,
              "fincham orders q %.3f w %.3f w~ %.3f", p[0], p[1], p[2]);
    cr_expect(fabs(p[3] - 1.0) < 0.1, "fincham mid-step w order %.3f", p[3]);
}

/* Rotating L(t+h/2) with the half-step estimate q(t+h/2) removes that O(h) defect: second
 * order.  Measured: q 1.993, w 1.992, w~ 1.977, w(mid) 1.991, energy 3.000. */
Test(fincham, torque_free_orders_halfstep)
{
    double p[5];
    struct rot_errors fine;
    measure_orders("leapfrog[aspherical=fincham-halfstep]", p, &fine);
    check_invariants(&fine, p);
    cr_expect(fabs(p[0] - 2.0) < 0.1 && fabs(p[1] - 2.0) < 0.1 && fabs(p[2] - 2.0) < 0.1,
              "halfstep orders q %.3f w %.3f w~ %.3f", p[0], p[1], p[2]);
    cr_expect(fabs(p[3] - 2.0) < 0.1, "halfstep mid-step w order %.3f", p[3]);
}

/* Woo's code form only changes step 5 (the reported w(t+h/2)), not the trajectory: q is
 * bit-identical to the seed form.  With q(t+h) = q(t) (x) p, p = 1 + (h/2)(0, w~n)
 * + (h^2/8)(0, w~c) (x) (0, w~n), R(p) w~n = w~n exactly when w~c = w~n, which holds
 * torque-free (L(t) = L(t+h/2)): then both forms report the same w up to round-off.
 * Under torque the term (h^2/8) w~c x w~n tilts p's axis; since w~n - w~c = I^-1 A T h/2
 * = O(h), the tilt and the difference are O(h^3) per step (checked on the axial-torque
 * top: measured ratio 8.5 when h halves).  Orders as for fincham (measured 1.0). */
Test(fincham, torque_free_orders_woo)
{
    double p[5];
    struct rot_errors fine;
    measure_orders("leapfrog[aspherical=fincham-woo]", p, &fine);
    check_invariants(&fine, p);
    cr_expect(fabs(p[0] - 1.0) < 0.1 && fabs(p[1] - 1.0) < 0.1 && fabs(p[2] - 1.0) < 0.1,
              "woo orders q %.3f w %.3f w~ %.3f", p[0], p[1], p[2]);
    const char *probs[2] = { FRB_PROBLEM, "axial-torque-top" };
    double diff[2][2];
    for (int pr = 0; pr < 2; pr++)
        for (int j = 0; j < 2; j++) {
            long n = 400L << j;
            lf_run *a = lf_run_new(probs[pr], "leapfrog");
            lf_run *b = lf_run_new(probs[pr], "leapfrog[aspherical=fincham-woo]");
            lf_run_steps(a, n, 5.3 / n);
            lf_run_steps(b, n, 5.3 / n);
            cr_expect(memcmp(a->sys->nodes->q, b->sys->nodes->q, 4 * sizeof(double)) == 0,
                      "fincham-woo changed the trajectory");
            diff[pr][j] = lf_dist3(a->sys->nodes->omega, b->sys->nodes->omega)
                          / mb_v3_norm(a->sys->nodes->omega);
            lf_run_free(a);
            lf_run_free(b);
        }
    cr_log_info("fincham vs fincham-woo mid-step w: torque-free %.3g %.3g; axial torque %.3g %.3g (h, h/2)",
                diff[0][0], diff[0][1], diff[1][0], diff[1][1]);
    cr_expect(diff[0][0] < 16 * U && diff[0][1] < 16 * U, "torque-free difference not round-off");
    double ratio = diff[1][0] / diff[1][1];
    cr_expect(ratio > 7.0 && ratio < 10.0, "axial torque difference ratio %.3f (expected ~8)", ratio);
}

/* Negative control: without the first-step adjustment L(0) is taken as L(-h/2); for a
 * torque-free body that is still the exact L, so the orders stay 2 -- the adjustment only
 * matters under torque.  Checked under torque in axial_torque_top_orders below. */
Test(fincham, torque_free_without_adj_vel0_unchanged)
{
    struct rot_errors a = frb_errors(FRB_PROBLEM, "leapfrog", 5.3, 800);
    struct rot_errors b = frb_errors(FRB_PROBLEM, "leapfrog[adj_vel0=off]", 5.3, 800);
    cr_expect_eq(a.q, b.q, "torque-free runs differ: %.17g vs %.17g", a.q, b.q);
}

/* Equal moments flagged aspherical: Fincham vs the spin-up closed form, which the
 * spherical update meets to round-off (test_leapfrog.c).  L and w stay on the torque
 * axis n and R(q)^T n = n for every q turning about n, so no variant suffers the O(h)
 * frame defect: the explicit-midpoint quaternion update is second order, for all three. */
static double equal_moments_error(const char *scheme, long n, double T)
{
    lf_run *r = lf_run_new("spin-up", scheme);
    r->sys->nodes->aspherical[0] = 1;
    lf_run_steps(r, n, T / n);
    const mb_nodes *on = lf_run_sync(r);
    double e = mb_q_angle_between(on->q, lf_run_exact(r, r->sys->t)->q);
    lf_run_free(r);
    return e;
}

Test(fincham, equal_moments_agree_with_spherical_update)
{
    const char *variants[3] = { "leapfrog", "leapfrog[aspherical=fincham-halfstep]",
                                "leapfrog[aspherical=fincham-woo]" };
    const double T = 2.1;          /* w grows from 1.1 to 6.2 rad/s: w h <= 0.065 */
    for (int v = 0; v < 3; v++) {
        double hs[4], es[4];
        for (int j = 0; j < 4; j++) {
            long n = 200L << j;
            hs[j] = T / n;
            es[j] = equal_moments_error(variants[v], n, T);
        }
        double p = lf_order(hs, es, 4);
        cr_log_info("equal moments, %s: orientation error %.3g .. %.3g, order %.3f", variants[v],
                    es[0], es[3], p);
        cr_expect(fabs(p - 2.0) < 0.1, "%s equal-moment order %.3f", variants[v], p);
    }
}

/* Negative control: Woo's code initialises L in the local frame (L = I R^T w taken as
 * global).  For the identity orientation that is harmless (bit-identical runs); for the
 * problem's orientation (0.7 rad) the motion is wrong at O(1) while the correct scheme is
 * within 1e-3 of the reference. */
Test(fincham, local_frame_initial_angmom_is_flagged)
{
    struct rot_errors good = frb_errors(FRB_PROBLEM, "leapfrog[aspherical=fincham-halfstep]", 5.3, 1600);
    struct rot_errors bad = frb_errors(FRB_PROBLEM,
        "leapfrog-defect[aspherical=fincham-halfstep,defect=local-frame-angmom]", 5.3, 1600);
    cr_expect(good.w < 1e-5, "correct scheme w error %.3g", good.w);
    cr_expect(bad.w > 0.1, "local-frame L not flagged: w error %.3g", bad.w);
    lf_run *a = lf_run_new(FRB_PROBLEM "[angle=0]", "leapfrog");
    lf_run *b = lf_run_new(FRB_PROBLEM "[angle=0]", "leapfrog-defect[defect=local-frame-angmom]");
    lf_run_steps(a, 200, 0.01);
    lf_run_steps(b, 200, 0.01);
    cr_expect(memcmp(a->sys->nodes->q, b->sys->nodes->q, 4 * sizeof(double)) == 0,
              "identity orientation should hide the defect");
    lf_run_free(a);
    lf_run_free(b);
}

/* Negative control: the spherical update (w constant, I11) on an aspherical body.  The
 * body then turns steadily about the constant w, so L = R I R^T w precesses about w:
 * L - L0 grows to O(|L|) (its norm happens to stay fixed) instead of 4 u. */
Test(fincham, spherical_update_on_aspherical_body_is_flagged)
{
    struct rot_errors bad = frb_errors(FRB_PROBLEM, "leapfrog-defect[defect=spherical-rotation]", 5.3, 800);
    struct rot_errors good = frb_errors(FRB_PROBLEM, "leapfrog", 5.3, 800);
    cr_expect(good.L <= 4.0 * U, "L drift %.3g", good.L);
    cr_expect(bad.L > 1e-2, "spherical update on an aspherical body not flagged: L drift %.3g", bad.L);
    cr_expect(bad.w > 0.1, "w error %.3g", bad.w);
}

/* Symmetric top and axial-torque top against their closed forms: orders of the body
 * angular velocity and orientation. */
static void closed_form_errors(const char *problem, const char *scheme, double T, long n,
                               double *eq, double *ewb)
{
    lf_run *r = lf_run_new(problem, scheme);
    lf_run_steps(r, n, T / n);
    const mb_nodes *on = lf_run_sync(r);
    const mb_nodes *ex = lf_run_exact(r, r->sys->t);
    double wb[3], wbx[3];
    mb_q_rotate_inv(wb, on->q, on->omega);
    mb_q_rotate_inv(wbx, ex->q, ex->omega);
    *eq = mb_q_angle_between(on->q, ex->q);
    *ewb = lf_dist3(wb, wbx);
    lf_run_free(r);
}

static void closed_form_orders(const char *problem, const char *scheme, double T, double *pq,
                               double *pw)
{
    double hs[NH], eq[NH], ew[NH];
    for (int j = 0; j < NH; j++) {
        long n = 200L << j;
        hs[j] = T / n;
        closed_form_errors(problem, scheme, T, n, &eq[j], &ew[j]);
    }
    *pq = lf_order(hs, eq, NH);
    *pw = lf_order(hs, ew, NH);
    cr_log_info("%s %-40s errors q %.3e..%.3e w~ %.3e..%.3e orders q %.3f w~ %.3f", problem,
                scheme, eq[0], eq[NH - 1], ew[0], ew[NH - 1], *pq, *pw);
}

Test(fincham, symmetric_top_orders)
{
    double pq, pw;
    closed_form_orders("symmetric-top", "leapfrog[aspherical=fincham-halfstep]", 4.1, &pq, &pw);
    cr_expect(fabs(pq - 2.0) < 0.1 && fabs(pw - 2.0) < 0.1, "halfstep %.3f %.3f", pq, pw);
    closed_form_orders("symmetric-top", "leapfrog", 4.1, &pq, &pw);
    cr_expect(fabs(pq - 1.0) < 0.1 && fabs(pw - 1.0) < 0.1, "fincham %.3f %.3f", pq, pw);
}

/* Under the axial torque the first-step adjustment matters: without it L(0) is taken as
 * L(-h/2), an O(h) error in L that the second-order halfstep variant exposes as order 1. */
Test(fincham, axial_torque_top_orders)
{
    double pq, pw;
    closed_form_orders("axial-torque-top", "leapfrog[aspherical=fincham-halfstep]", 3.3, &pq, &pw);
    cr_expect(fabs(pq - 2.0) < 0.1 && fabs(pw - 2.0) < 0.1, "halfstep %.3f %.3f", pq, pw);
    closed_form_orders("axial-torque-top", "leapfrog[aspherical=fincham-halfstep,adj_vel0=off]", 3.3,
                       &pq, &pw);
    cr_expect(fabs(pw - 1.0) < 0.15, "no first-step adjustment not flagged: w~ order %.3f", pw);
    closed_form_orders("axial-torque-top", "leapfrog", 3.3, &pq, &pw);
    cr_expect(fabs(pq - 1.0) < 0.1, "fincham %.3f %.3f", pq, pw);
}

/* Fincham uses only +, -, *, / and sqrt (correctly rounded in both bases): the MPFR twin at
 * 53 bits with double's exponent range reproduces the double run bit for bit; at 256 bits
 * it differs by round-off only (n steps x ~100 operations x u). */
Test(fincham, mpfr_twin)
{
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    const char *scheme = "leapfrog[aspherical=fincham-halfstep]";
    lf_run *r = lf_run_new("axial-torque-top", scheme);
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(r->sys, 53);
    mb_stepper *st2 = mb_stepper_alloc_twin(scheme, tw);
    cr_assert_not_null(st2, "%s", mb_last_error());
    const long n = 2000;
    for (long k = 0; k < n; k++) {
        cr_assert_eq(mb_stepper_step(r->st, r->sys, 0.00517), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step_twin(st2, tw, 0.00517), MB_SUCCESS);
    }
    mb_nodes *back = mb_nodes_alloc(1, 53);
    mb_nodes_mpfr_get_double(back, tw->nodes);
    cr_expect(memcmp(back->q, r->sys->nodes->q, 4 * sizeof(double)) == 0, "q differs");
    cr_expect(memcmp(back->omega, r->sys->nodes->omega, 3 * sizeof(double)) == 0, "w differs");
    cr_expect(memcmp(back->angmom, r->sys->nodes->angmom, 3 * sizeof(double)) == 0, "L differs");
    mb_stepper_free(st2);
    mb_system_mpfr_free(tw);
    mb_mpfr_restore_range(saved);

    lf_run *r2 = lf_run_new("axial-torque-top", scheme);
    mb_system_mpfr *hi = mb_system_mpfr_alloc_twin(r2->sys, 256);
    mb_stepper *st3 = mb_stepper_alloc_twin(scheme, hi);
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step_twin(st3, hi, 0.00517), MB_SUCCESS);
    mb_nodes_mpfr_get_double(back, hi->nodes);
    double d = mb_q_angle_between(back->q, r->sys->nodes->q);
    cr_log_info("fincham-halfstep double vs 256-bit twin after %ld steps: %.3g rad", n, d);
    cr_expect(d > 0.0 && d < 100.0 * n * U, "round-off %.3g", d);
    mb_stepper_free(st3);
    mb_system_mpfr_free(hi);
    mb_nodes_free(back);
    lf_run_free(r);
    lf_run_free(r2);
}
