/* test_leapfrog.c -- the leap-frog scheme (translation, spherical rotation, first-step
 * adjustment, blocked DOFs, Cundall damping, MPFR twin) against closed forms.
 *
 * Round-off bounds used below (u = 2^-53): one leap-frog step makes 3 roundings in
 * v(t+h/2) = v + (F m^-1) h and 2 in x(t+h) = x + v h.  After n steps the velocity carries
 * at most ~3 n u V (V = max |v|) and the position sum_k h (3 k u V) + 2 n u X <= (3/2) n^2 h u V
 * + 2 n u X (X = max |x|).  Tolerances are these bounds times 4. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_closed.h"
#include "mb_force_torque.h"
#include "lf_run.h"
#include "mb_leapfrog.h"
#include "mb_mpfr_extra.h"

static const double U = DBL_EPSILON / 2;

/* max |x - x_exact| over n steps of free fall */
static double free_fall_max_error(const char *scheme, double h, long n, double *vmax_err)
{
    lf_run *r = lf_run_new("free-fall[mass=1.7,g=9.81,z0=10.3,vx0=0.83,vz0=2.385]", scheme);
    double err = 0.0, verr = 0.0;
    for (long k = 1; k <= n; k++) {
        lf_run_steps(r, 1, h);
        const mb_nodes *on = lf_run_sync(r);
        const mb_nodes *ex = lf_run_exact(r, r->sys->t);
        err = fmax(err, lf_dist3(on->x, ex->x));
        verr = fmax(verr, lf_dist3(on->v, ex->v));
    }
    lf_run_free(r);
    if (vmax_err)
        *vmax_err = verr;
    return err;
}

/* Constant acceleration: with the first-step adjustment v(h/2) = v0 + g h/2 every mid-step
 * velocity is exact, so x and the synchronized v(t) are exact up to round-off. */
Test(leapfrog, free_fall_exact_with_adj_vel0)
{
    const double h = 0.01387;
    const long n = 2000;
    double verr, err = free_fall_max_error("leapfrog", h, n, &verr);
    double T = n * h, V = 2.385 + 9.81 * T, X = 10.3 + 2.385 * T + 0.5 * 9.81 * T * T;
    double tol = 4.0 * (1.5 * n * n * h * U * V + 2.0 * n * U * X);
    cr_expect(err <= tol, "free fall position error %.3g > round-off bound %.3g", err, tol);
    cr_expect(verr <= 4.0 * 4.0 * n * U * V, "velocity error %.3g", verr);
}

/* Negative control: without adj_vel0 the on-step v0 is taken as v(-h/2), so every mid-step
 * velocity is off by g h/2 and x(t) is off by exactly |g| h t / 2 -- the test above fails. */
Test(leapfrog, free_fall_without_adj_vel0_is_flagged)
{
    const double h = 0.01387;
    const long n = 2000;
    double err = free_fall_max_error("leapfrog[adj_vel0=off]", h, n, NULL);
    double T = n * h, predicted = 9.81 * h * T / 2.0;
    double V = 2.385 + 9.81 * T, X = 10.3 + 2.385 * T + 0.5 * 9.81 * T * T;
    double tol = 4.0 * (1.5 * n * n * h * U * V + 2.0 * n * U * X);
    cr_expect(err > 1e6 * tol, "no-adj error %.3g not flagged (bound %.3g)", err, tol);
    cr_expect(fabs(err - predicted) <= 2.0 * tol, "no-adj error %.17g, predicted g h t/2 = %.17g",
              err, predicted);
}

/* Kepler orbit (e = 0.6) over 0.37 of a period: observed order of the position error
 * with and without the first-step adjustment.  The on-step v0 taken as v(-h/2) is an
 * O(h) radial kick a(0) h/2 at periapsis, so order 1 without it and 2 with it.  (Not over
 * a whole period: a radial kick at periapsis changes the energy, hence the period, only
 * at second order and the perturbed orbit passes x0 again after one period, which hides
 * the first-order error -- measured: order 2.00 at t = P.) */
static double kepler_error(const char *scheme, int steps_per_period)
{
    lf_run *r = lf_run_new("kepler[eccentricity=0.6]", scheme);
    double P = 2.0 * M_PI, h = P / steps_per_period;
    lf_run_steps(r, (long)(0.37 * steps_per_period), h);
    const mb_nodes *on = lf_run_sync(r);
    double e = lf_dist3(on->x, lf_run_exact(r, r->sys->t)->x);
    lf_run_free(r);
    return e;
}

Test(leapfrog, kepler_order_with_and_without_adj_vel0)
{
    int N[4] = { 2000, 4000, 8000, 16000 };
    double h[4], e_adj[4], e_no[4];
    for (int k = 0; k < 4; k++) {
        h[k] = 2.0 * M_PI / N[k];
        e_adj[k] = kepler_error("leapfrog", N[k]);
        e_no[k] = kepler_error("leapfrog[adj_vel0=off]", N[k]);
    }
    double p_adj = lf_order(h, e_adj, 4), p_no = lf_order(h, e_no, 4);
    cr_log_info("kepler e=0.6 position order: adj_vel0=on %.3f, off %.3f", p_adj, p_no);
    cr_expect(fabs(p_adj - 2.0) < 0.1, "order with adj_vel0 %.3f", p_adj);
    cr_expect(fabs(p_no - 1.0) < 0.1, "order without adj_vel0 %.3f (negative control)", p_no);
}

/* Constant torque along the initial spin axis: the mid-step spins are exact (linear in t)
 * and all rotations share the axis, so the angle sum_k w(t_k+h/2) h is the midpoint rule
 * of a linear function: exact.  Orientation and synchronized w agree to round-off. */
Test(leapfrog, spin_up_exact)
{
    lf_run *r = lf_run_new("spin-up", "leapfrog");
    const double h = 0.0123;
    const long n = 3000;
    double qerr = 0.0, werr = 0.0, wmax = 0.0;
    for (long k = 0; k < n; k++) {
        lf_run_steps(r, 1, h);
        const mb_nodes *on = lf_run_sync(r);
        const mb_nodes *ex = lf_run_exact(r, r->sys->t);
        qerr = fmax(qerr, mb_q_angle_between(on->q, ex->q));
        werr = fmax(werr, lf_dist3(on->omega, ex->omega));
        wmax = fmax(wmax, mb_v3_norm(ex->omega));
    }
    /* angle theta ~ w t accumulates ~ 3 n u per step of relative error; the composed
     * quaternion ~ 16 u per product: bound 4 (3 n^2 u wmax h + 16 n u). */
    double tol = 4.0 * (3.0 * n * n * U * wmax * h + 16.0 * n * U);
    cr_expect(qerr <= tol, "orientation error %.3g rad > %.3g", qerr, tol);
    cr_expect(werr <= 4.0 * 4.0 * n * U * wmax, "angular velocity error %.3g", werr);
    mb_stepper_stats stats;
    mb_stepper_get_stats(r->st, &stats);
    cr_expect_eq(stats.steps, (unsigned long)n);
    cr_expect(stats.quat_norm_error_max < 64 * U, "quaternion norm error %.3g",
              stats.quat_norm_error_max);
    lf_run_free(r);
}

/* The spin increment multiplies from the left, q+ = Quaternion(w h) (x) q (seed 002, global
 * w): start the spin-up sphere at q0 = 0.9 rad about x, an axis other than the torque's,
 * where q0 (x) Quaternion(w h) differs from Quaternion(w h) (x) q0 by an angle of order
 * the spin angle itself.  The closed form (mb_closed_spinup, q = Quaternion(angle n) (x)
 * q0) is reproduced to round-off as in spin_up_exact; same bound. */
Test(leapfrog, spin_up_off_axis_orientation_exact)
{
    lf_run *r = lf_run_new("spin-up", "leapfrog");
    const double h = 0.0123, th0[3] = { 0.9, 0.0, 0.0 };
    const long n = 800;
    double q0[4], T[3] = { mb_options_double(r->params, "tx"), mb_options_double(r->params, "ty"),
                           mb_options_double(r->params, "tz") };
    double Tn = mb_v3_norm(T), axis[3], I = r->sys->nodes->inertia[0];
    double w0 = mb_options_double(r->params, "omega0");
    mb_q_from_rotvec(q0, th0);
    memcpy(r->sys->nodes->q, q0, sizeof q0);
    mb_v3_scale(axis, 1.0 / Tn, T);
    lf_run_steps(r, n, h);
    const mb_nodes *on = lf_run_sync(r);
    mb_closed_rigid ex;
    cr_assert_eq(mb_closed_spinup(I, Tn, w0, axis, q0, r->sys->t, &ex), MB_SUCCESS);
    double qerr = mb_q_angle_between(on->q, ex.q), wmax = mb_v3_norm(ex.omega);
    double tol = 4.0 * (3.0 * n * n * U * wmax * h + 16.0 * n * U);
    cr_expect(qerr <= tol, "orientation error %.3g rad > %.3g", qerr, tol);
    cr_expect(lf_dist3(on->omega, ex.omega) <= 4.0 * 4.0 * n * U * wmax);
    lf_run_free(r);
}

/* Blocked DOFs get zero acceleration: v_x stays v0 exactly and w_z is unchanged while the
 * free components follow gravity and the torque. */
Test(leapfrog, blocked_dofs_get_zero_acceleration)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes *s = sys->nodes;
    mb_nodes_set_mass(s, 0, 2.385);
    double I[3] = { 0.37, 0.37, 0.37 }, g[3] = { 3.1, -1.7, -9.81 }, T[3] = { 0.21, -0.4, 0.9 };
    mb_nodes_set_inertia(s, 0, I);
    s->v[0] = 0.77;
    s->omega[2] = -1.3;
    s->blocked[0] = MB_BLOCK_X | MB_BLOCK_RZ;
    mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g));
    mb_forces_add(sys->forces, mb_force_torque, mb_torque_new(T));
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    const double h = 0.0211;
    for (int k = 0; k < 500; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    double t = sys->t;
    cr_expect_eq(s->v[0], 0.77, "blocked v_x changed: %.17g", s->v[0]);
    cr_expect_eq(s->omega[2], -1.3, "blocked w_z changed: %.17g", s->omega[2]);
    /* free components: mid-step velocity v(t - h/2) = g (t - h/2) exactly up to round-off */
    cr_expect(fabs(s->v[1] - g[1] * (t - h / 2)) < 1e-11, "v_y %.17g", s->v[1]);
    cr_expect(fabs(s->omega[0] - T[0] / I[0] * (t - h / 2)) < 1e-11, "w_x %.17g", s->omega[0]);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* Cundall damping in free fall with downward v0: F_z v_z > 0 at every step, so the force
 * is scaled by exactly (1 - lambda): constant acceleration g' = -g (1 - lambda), which
 * leap-frog integrates exactly, z_n = z0 + vz0 t_n + g' t_n^2 / 2.  Hand-derived discrete
 * account (leapfrog.c, "Damping work"): with D = lambda m g the scheme reports
 *   W = D (dz_0 / 2 + sum_{n>=1} (z_{n-1} - z_{n+1}) / 2) = D (z0 - (z_N + z_{N-1}) / 2),
 * and the synchronized on-step velocity uses the undamped g: v_N = v(t_N - h/2) - g h/2.
 * The balance residual K + V + W - E0 is then the explicit O(h^2) number computed below;
 * both are checked to round-off. */
Test(leapfrog, damping_work_closes_energy_balance)
{
    const double lambda = 0.3, g = 9.81, m = 1.7, h = 0.00931, z0 = 10.3, vz0 = -0.5;
    lf_run *r = lf_run_new("free-fall[mass=1.7,g=9.81,z0=10.3,vx0=0,vz0=-0.5]",
                           "leapfrog[damping=0.3]");
    mb_energy e0 = mb_energy_of(r->sys, r->sys->nodes);
    const long n = 1000;
    lf_run_steps(r, n, h);
    const mb_nodes *on = lf_run_sync(r);
    double t = n * h, gp = -g * (1.0 - lambda);
    double zN = z0 + vz0 * t + 0.5 * gp * t * t, tm = (n - 1) * h;
    double zN1 = z0 + vz0 * tm + 0.5 * gp * tm * tm;
    double W = lambda * m * g * (z0 - 0.5 * (zN + zN1));
    double vsync = vz0 + gp * (t - 0.5 * h) - 0.5 * g * h;
    double res_expected = 0.5 * m * vsync * vsync + m * g * zN + W - e0.total;
    cr_expect(fabs(on->x[2] - zN) < 1e-12 * fabs(z0 - zN), "damped fall z %.17g vs %.17g", on->x[2], zN);
    cr_expect(fabs(on->v[2] - vsync) < 1e-12 * fabs(vsync), "on-step v %.17g vs %.17g", on->v[2], vsync);
    cr_expect(fabs(r->sys->dissipated_by_scheme - W) < 1e-12 * W, "dissipated %.17g vs %.17g",
              r->sys->dissipated_by_scheme, W);
    mb_energy e = mb_energy_of(r->sys, on);
    double res = mb_energy_balance(&e, e0.total);
    /* residual of the discrete account: lambda m g^2 h^2 (2 - lambda) / 8 in magnitude */
    cr_log_info("damped fall balance residual %.6g, hand-derived %.6g, W %.6g", res, res_expected, W);
    cr_expect(fabs(res - res_expected) < 1e-12 * W, "balance residual %.17g vs %.17g", res,
              res_expected);
    cr_expect(fabs(res) < m * g * g * h * h, "residual %.3g is not O(h^2)", res);
    /* negative control: without the dissipated work the balance is off by W itself */
    cr_expect(fabs(e.total - e0.total) > 0.99 * W);
    lf_run_free(r);
}

/* Damped spring oscillator (cundall-oscillator): the amplitude ratio per cycle tends to
 * (1 - lambda)/(1 + lambda).  The sign estimate v + a h/2 switches within one step of the
 * turning point, so each of the two switches per cycle perturbs the amplitude by at most
 * O(w h) relatively; with w h = 2 pi/2000 the bound 4 w h on the ratio error is safe.
 * The energy balance with the reported damping work closes to O((w h)^2) of E_0. */
Test(leapfrog, cundall_oscillator_amplitude_ratio_and_balance)
{
    const double lambda = 0.2, m = 2.385, k = 7.31;
    lf_run *r = lf_run_new("cundall-oscillator[lambda=0.2]", "leapfrog[damping=0.2]");
    double wm = sqrt(k * (1 - lambda) / m), wp = sqrt(k * (1 + lambda) / m);
    double period = M_PI / wm + M_PI / wp, h = period / 2000.0;
    mb_energy e0 = mb_energy_of(r->sys, r->sys->nodes);
    double peaks[8];
    int np = 0;
    double prev = r->sys->nodes->x[0], prev_v = 0.0;
    double max_res = 0.0;
    for (long step = 0; step < 4 * 2000 && np < 8; step++) {
        lf_run_steps(r, 1, h);
        const mb_nodes *on = lf_run_sync(r);
        mb_energy e = mb_energy_of(r->sys, on);
        max_res = fmax(max_res, fabs(mb_energy_balance(&e, e0.total)));
        double v = r->sys->nodes->v[0];   /* mid-step v changes sign at a positive peak */
        if (step > 0 && prev_v > 0.0 && v <= 0.0)
            peaks[np++] = prev > on->x[0] ? prev : on->x[0];
        prev = on->x[0];
        prev_v = v;
    }
    cr_assert(np >= 3, "found %d positive peaks", np);
    double ratio = peaks[1] / peaks[0], closed = (1 - lambda) / (1 + lambda);
    double wh = wp * h;
    cr_log_info("cundall oscillator: amplitude ratio %.8f, closed form %.8f", ratio, closed);
    cr_expect(fabs(ratio - closed) < 4.0 * wh, "ratio %.6f vs %.6f", ratio, closed);
    cr_log_info("cundall oscillator: max balance residual %.3g = %.3f (w h)^2 E0", max_res,
                max_res / (wh * wh * e0.total));
    cr_expect(max_res < 4.0 * wh * wh * e0.total, "balance residual %.3g vs E0 %.3g", max_res,
              e0.total);
    cr_expect(r->sys->dissipated_by_scheme > 0.5 * e0.total, "dissipated %.3g",
              r->sys->dissipated_by_scheme);
    lf_run_free(r);
}

/* Closed-form trajectory of the damped oscillator: first-order convergence (switching). */
Test(leapfrog, cundall_oscillator_converges_to_closed_form)
{
    double hs[3], errs[3];
    for (int j = 0; j < 3; j++) {
        lf_run *r = lf_run_new("cundall-oscillator[lambda=0.2]", "leapfrog[damping=0.2]");
        long n = 1000L << j;
        hs[j] = 3.7 / n;
        double err = 0.0;
        for (long s = 0; s < n; s++) {
            lf_run_steps(r, 1, hs[j]);
            const mb_nodes *on = lf_run_sync(r);
            err = fmax(err, fabs(on->x[0] - lf_run_exact(r, r->sys->t)->x[0]));
        }
        errs[j] = err;
        lf_run_free(r);
    }
    double p = lf_order(hs, errs, 3);
    cr_log_info("cundall oscillator max position error order %.3f (errors %.3g %.3g %.3g)", p,
                errs[0], errs[1], errs[2]);
    cr_expect(p > 0.8, "order %.3f", p);
    cr_expect(errs[2] < 1e-3, "error %.3g", errs[2]);
}

/* Same-scheme twin at 53 bits with double's exponent range: identical bits over
 * thousands of steps, on the fast path (Kepler, central force with sqrt only) and on the
 * general path (damped spring + gravity with a blocked DOF and the first-step adjustment). */
static void twin_identity_steps(const char *problem, const char *scheme, long n, double h,
                                double h_odd, const char *extra);
static void twin_identity(const char *problem, const char *scheme, long n, double h,
                          const char *extra)
{
    twin_identity_steps(problem, scheme, n, h, h, extra);
}

/* twin_identity with the odd steps of length h_odd */
static void twin_identity_steps(const char *problem, const char *scheme, long n, double h,
                                double h_odd, const char *extra)
{
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    lf_run *r = lf_run_new(problem, scheme);
    if (extra && !strcmp(extra, "gravity-block")) {
        double g[3] = { 0.3, -0.7, -9.81 };
        mb_forces_add(r->sys->forces, mb_force_gravity, mb_gravity_new(g));
        r->sys->nodes->blocked[0] = MB_BLOCK_Y;
        r->sys->nodes->v[2] = 0.31;
    }
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(r->sys, 53);
    mb_stepper *st2 = mb_stepper_alloc_twin(scheme, tw);
    cr_assert_not_null(st2, "%s", mb_last_error());
    mb_nodes *back = mb_nodes_alloc(r->sys->nodes->n, 53);
    for (long k = 0; k < n; k++) {
        const double hk = k % 2 ? h_odd : h;
        cr_assert_eq(mb_stepper_step(r->st, r->sys, hk), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step_twin(st2, tw, hk), MB_SUCCESS);
    }
    mb_nodes_mpfr_get_double(back, tw->nodes);
    const mb_nodes *d = r->sys->nodes;
    for (int j = 0; j < 3; j++) {
        cr_expect(memcmp(&d->x[j], &back->x[j], sizeof(double)) == 0, "%s x[%d] %a vs %a", problem,
                  j, d->x[j], back->x[j]);
        cr_expect(memcmp(&d->v[j], &back->v[j], sizeof(double)) == 0, "%s v[%d] %a vs %a", problem,
                  j, d->v[j], back->v[j]);
    }
    cr_expect(memcmp(back->q, d->q, 4 * sizeof(double)) == 0, "orientation differs");
    cr_expect(memcmp(back->omega, d->omega, 3 * sizeof(double)) == 0,
              "angular velocity differs: %a vs %a", d->omega[0], back->omega[0]);
    cr_expect(memcmp(back->angmom, d->angmom, 3 * sizeof(double)) == 0,
              "angular momentum differs");
    cr_expect_eq(r->sys->dissipated_by_scheme, tw->dissipated_by_scheme);
    mb_nodes_free(back);
    mb_stepper_free(st2);
    mb_system_mpfr_free(tw);
    lf_run_free(r);
    mb_mpfr_restore_range(saved);
}

Test(leapfrog, mpfr_twin_bit_identical_fast_path)
{
    twin_identity("kepler[eccentricity=0.6]", "leapfrog", 5000, 2.0 * M_PI / 1000, NULL);
}

/* The rotation of a spherical node without damping or blocked rotations (the double
 * instance's lf_rot_spherical_plain) against the MPFR template at 53 bits; h small enough
 * for |w h|^2 < 1e-8, where Quaternion(w h) takes its Taylor form (four operations, no
 * sin or cos, whose libm and MPFR roundings may differ).  Two runs: the problem's own
 * spin (the orientation's products differ in their last bits at once) and a spin-up from
 * rest with awkward constants. */
Test(leapfrog, mpfr_twin_bit_identical_spherical_rotation)
{
    twin_identity("spin-up", "leapfrog", 3000, 1e-5, NULL);
    twin_identity("spin-up[mass=1.37,radius=0.2385,tx=0.0311,ty=-0.0217,tz=0.0733,omega0=0]",
                  "leapfrog",
                  3000, 1e-5, NULL);
}

/* The same rotation with steps alternating between h and 1.37 h, so that the kick's
 * (hp + h)/2 differs from h and from hp: the double instance's loop over plain spherical
 * nodes must take each node's previous step as the template does (|w h|^2 stays below
 * 1e-8: 0.2 rad/s and at most 1.37e-5 s). */
Test(leapfrog, mpfr_twin_bit_identical_spherical_rotation_varying_steps)
{
    twin_identity_steps("spin-up[mass=1.37,radius=0.2385,tx=0.0311,ty=-0.0217,tz=0.0733,omega0=0.2]",
                        "leapfrog", 3000, 1e-5, 1.37e-5, NULL);
}

Test(leapfrog, mpfr_twin_bit_identical_general_path)
{
    twin_identity("cundall-oscillator[lambda=0.2]", "leapfrog[damping=0.2]", 5000, 0.00377,
                  "gravity-block");
}

/* Error contract: a step that overflows returns MB_EDIVERGED and leaves the state as it
 * was, bit for bit; a bad h is MB_EDOM. */
Test(leapfrog, overflow_leaves_state_untouched)
{
    mb_system *sys = mb_system_alloc(2);
    double g[3] = { 0.0, 0.0, -1e300 };
    mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g));
    sys->nodes->x[2] = 1.5;
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_eq(mb_stepper_step(st, sys, 1e-3), MB_SUCCESS);
    mb_nodes *before = mb_nodes_alloc(2, 53);
    mb_nodes_copy(before, sys->nodes);
    double t = sys->t;
    cr_expect_eq(mb_stepper_step(st, sys, 1e10), MB_EDIVERGED);
    cr_expect(strstr(mb_last_error(), "NaN or Inf") != NULL, "%s", mb_last_error());
    cr_expect(memcmp(before->x, sys->nodes->x, 6 * sizeof(double)) == 0);
    cr_expect(memcmp(before->v, sys->nodes->v, 6 * sizeof(double)) == 0);
    cr_expect(memcmp(before->q, sys->nodes->q, 8 * sizeof(double)) == 0);
    cr_expect_eq(sys->t, t);
    cr_expect_eq(mb_stepper_step(st, sys, 0.0), MB_EDOM);
    cr_expect_eq(mb_stepper_step(st, sys, -1e-3), MB_EDOM);
    mb_nodes_free(before);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* The spherical rotation's NaN/Inf check: a spin of 1e308 turns the sphere by an angle
 * whose square overflows, cos(inf) makes the orientation NaN; the step must refuse it
 * and leave the state as it was (the check of the spherical path, not of the
 * translation: no force acts, x and v stay finite). */
Test(leapfrog, spherical_rotation_overflow_is_refused)
{
    mb_system *sys = mb_system_alloc(1);
    const double I[3] = { 0.1, 0.1, 0.1 };
    mb_nodes_set_mass(sys->nodes, 0, 1.0);
    mb_nodes_set_inertia(sys->nodes, 0, I);
    sys->nodes->omega[1] = 1e308;
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    mb_nodes *before = mb_nodes_alloc(1, 53);
    mb_nodes_copy(before, sys->nodes);
    cr_expect_eq(mb_stepper_step(st, sys, 0.25), MB_EDIVERGED);
    cr_expect(strstr(mb_last_error(), "NaN or Inf") != NULL, "%s", mb_last_error());
    cr_expect(memcmp(before->q, sys->nodes->q, 4 * sizeof(double)) == 0);
    cr_expect(memcmp(before->omega, sys->nodes->omega, 3 * sizeof(double)) == 0);
    cr_expect_eq(sys->t, 0.0);
    mb_nodes_free(before);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(leapfrog, bad_options_are_named)
{
    mb_system *sys = mb_system_alloc(1);
    cr_expect_null(mb_stepper_alloc("leapfrog[damping=1.5]", sys));
    cr_expect(strstr(mb_last_error(), "damping") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_stepper_alloc("leapfrog[aspherical=finch]", sys));
    cr_expect(strstr(mb_last_error(), "aspherical") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_stepper_alloc("leapfrog[adj_vel=off]", sys));
    cr_expect(strstr(mb_last_error(), "adj_vel0") != NULL, "suggestion missing: %s", mb_last_error());
    mb_system_free(sys);
}

/* Synchronize before any step returns the on-step initial state unchanged. */
Test(leapfrog, synchronize_before_first_step_is_identity)
{
    lf_run *r = lf_run_new("kepler[eccentricity=0.3]", "leapfrog");
    const mb_nodes *on = lf_run_sync(r);
    cr_expect(memcmp(on->v, r->sys->nodes->v, 3 * sizeof(double)) == 0);
    lf_run_free(r);
}

/* Cundall damping of a spherical node's rotation: spin-up with w0 along T > 0, so
 * T_w (w_w + a_w h/2) > 0 on every axis (T and w share signs) and a -> a (1 - lambda):
 * w(t) = w0 + (1 - lambda) |T| t / I exactly on mid-steps, the angle theta_n the midpoint
 * sum (exact), and the reported work (as in the translational case)
 * W = lambda |T| (theta_N + theta_N-1) / 2, all to round-off. */
Test(leapfrog, rotational_damping_spherical)
{
    const double lambda = 0.25, m = 1.3, rad = 0.25, I = 0.4 * m * rad * rad, h = 0.0071;
    const double Tv[3] = { 0.03, -0.02, 0.07 }, Tn = mb_v3_norm(Tv), w0 = 1.1;
    lf_run *r = lf_run_new("spin-up", "leapfrog[damping=0.25]");
    const long n = 700;
    lf_run_steps(r, n, h);
    double a = (1.0 - lambda) * Tn / I, t = n * h, tm = t - h;
    double thN = w0 * t + 0.5 * a * t * t, thN1 = w0 * tm + 0.5 * a * tm * tm;
    double wmid = w0 + a * (t - 0.5 * h), W = lambda * Tn * 0.5 * (thN + thN1);
    cr_expect(fabs(mb_v3_norm(r->sys->nodes->omega) - wmid) < 1e-12 * wmid, "w %.17g vs %.17g",
              mb_v3_norm(r->sys->nodes->omega), wmid);
    cr_expect(fabs(r->sys->dissipated_by_scheme - W) < 1e-11 * W, "rotational damping work %.17g vs %.17g",
              r->sys->dissipated_by_scheme, W);
    double q[4], th[3];
    mb_v3_scale(th, thN / Tn, Tv);
    mb_q_from_rotvec(q, th);
    cr_expect(mb_q_angle_between(q, r->sys->nodes->q) < 1e-11 * thN, "orientation");
    lf_run_free(r);
}

/* Damping of an aspherical node (first-order form T_w (1 - lambda sgn(T_w w_w))) on the
 * axial-torque top: the energy deficit E_kin(t) - E_kin(0) - W_ext must equal the
 * reported damping work up to the scheme's error.  W_ext = int T . w dt is summed by the
 * trapezoid rule over synchronized states (O(h^2)); the first-order sign estimate makes
 * the account close at O(h): the residual must shrink by >= 1.6 when h halves and stay
 * below 5% of W_diss. */
static double aspherical_damping_residual(long n, double T, double *Wd)
{
    lf_run *r = lf_run_new("axial-torque-top", "leapfrog[aspherical=fincham-halfstep,damping=0.3]");
    double h = T / n, Wext = 0.0;
    double K0 = mb_energy_kinetic_rot(r->sys->nodes);
    double P = mb_forces_external_power(r->sys->forces, r->sys->nodes, 0.0);
    for (long k = 0; k < n; k++) {
        lf_run_steps(r, 1, h);
        const mb_nodes *on = lf_run_sync(r);
        double P1 = mb_forces_external_power(r->sys->forces, on, r->sys->t);
        Wext += 0.5 * (P + P1) * h;
        P = P1;
    }
    double K = mb_energy_kinetic_rot(r->on);
    *Wd = r->sys->dissipated_by_scheme;
    lf_run_free(r);
    return K - K0 - Wext + *Wd;
}

Test(leapfrog, rotational_damping_aspherical_balance)
{
    double Wd1, Wd2;
    double r1 = aspherical_damping_residual(2000, 3.3, &Wd1);
    double r2 = aspherical_damping_residual(4000, 3.3, &Wd2);
    cr_log_info("aspherical damping: W_diss %.6g, balance residual %.3g (h) %.3g (h/2)", Wd2, r1, r2);
    cr_expect(Wd2 > 0.0, "no work dissipated");
    cr_expect(fabs(r2) < 0.05 * Wd2, "residual %.3g vs W %.3g", r2, Wd2);
    cr_expect(fabs(r1) / fabs(r2) > 1.6, "residual does not converge: %.3g -> %.3g", r1, r2);
}

/* Changing step sizes: the kick of step n spans the half steps on both sides of t_n,
 * v(t+h/2) = v(t-hp/2) + a (hp + h)/2, so under constant acceleration every mid-step
 * velocity stays exact whatever the sequence of steps (here 300 steps cycling through
 * five sizes, then a shortened last step), and the synchronized v(t) is exact too.
 * Negative control (static, below): the constant-step kick v += a h applied to the same
 * sequence misses a (h - hp)/2 at every change. */
static double naive_variable_free_fall(const double *hs, int n, double g, double vz0)
{
    double v = vz0 - g * hs[0] / 2;      /* as if adjusted: v(-h0/2) */
    for (int k = 0; k < n; k++)
        v += -g * hs[k];                 /* v(t_k + h_k/2), constant-step kick */
    double t = 0.0;
    for (int k = 0; k < n; k++)
        t += hs[k];
    double v_on = v - g * hs[n - 1] / 2;
    return fabs(v_on - (vz0 - g * t));
}

Test(leapfrog, variable_steps_free_fall_exact)
{
    const double sizes[5] = { 0.0137, 0.0071, 0.0213, 0.0099, 0.0161 };
    double hs[301];
    for (int k = 0; k < 300; k++)
        hs[k] = sizes[k % 5];
    hs[300] = 0.00277;
    lf_run *r = lf_run_new("free-fall[mass=1.7,g=9.81,z0=10.3,vx0=0.83,vz0=2.385]", "leapfrog");
    for (int k = 0; k < 301; k++)
        lf_run_steps(r, 1, hs[k]);
    const mb_nodes *on = lf_run_sync(r);
    const mb_nodes *ex = lf_run_exact(r, r->sys->t);
    double T = r->sys->t, V = 2.385 + 9.81 * T, X = 10.3 + 2.385 * T + 0.5 * 9.81 * T * T;
    double n = 301, hmax = 0.0213;
    double tol = 4.0 * (1.5 * n * n * hmax * U * V + 2.0 * n * U * X);
    double ex_err = lf_dist3(on->x, ex->x), ev_err = lf_dist3(on->v, ex->v);
    cr_expect(ex_err <= tol, "position error %.3g > %.3g", ex_err, tol);
    cr_expect(ev_err <= 4.0 * 4.0 * n * U * V, "velocity error %.3g", ev_err);
    double naive = naive_variable_free_fall(hs, 301, 9.81, 2.385);
    cr_log_info("variable steps: velocity error %.3g (constant-step kick: %.3g)", ev_err, naive);
    cr_expect(naive > 1e-3, "negative control not flagged: %.3g", naive);
    lf_run_free(r);
}

/* The MPFR instance of the rotation kernels (Quaternion(theta) with mpfr_sin/cos): the
 * 256-bit twin of the spin-up run is exact like the double run (midpoint rule of a linear
 * w), so rounded to double it must agree with the closed form to the closed form's own
 * round-off (a few ulp of the angle), far tighter than the double run's accumulated
 * round-off. */
Test(leapfrog, mpfr_twin_rotation_256_bits)
{
    lf_run *r = lf_run_new("spin-up", "leapfrog");
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(r->sys, 256);
    mb_stepper *st2 = mb_stepper_alloc_twin("leapfrog", tw);
    cr_assert_not_null(st2, "%s", mb_last_error());
    const double h = 0.0123;
    const long n = 1000;
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step_twin(st2, tw, h), MB_SUCCESS);
    mb_nodes *on = mb_nodes_alloc(1, 53);
    mb_nodes_mpfr *on2 = mb_nodes_mpfr_alloc(1, 256);
    cr_assert_eq(mb_stepper_on_step_twin(st2, tw, on2), MB_SUCCESS);
    mb_nodes_mpfr_get_double(on, on2);
    const mb_nodes *ex = lf_run_exact(r, n * h);
    double dq = mb_q_angle_between(on->q, ex->q), dw = lf_dist3(on->omega, ex->omega);
    double theta = 1.1 * n * h + 0.5 * (mb_v3_norm((double[3]){ 0.03, -0.02, 0.07 }) / (0.4 * 1.3 * 0.0625))
                   * (n * h) * (n * h);
    cr_log_info("256-bit spin-up twin vs closed form: %.3g rad, %.3g rad/s", dq, dw);
    cr_expect(dq < 16 * U * theta, "orientation %.3g", dq);
    cr_expect(dw < 16 * U * mb_v3_norm(ex->omega), "angular velocity %.3g", dw);
    mb_nodes_free(on);
    mb_nodes_mpfr_free(on2);
    mb_stepper_free(st2);
    mb_system_mpfr_free(tw);
    lf_run_free(r);
}

/* The exported kernels (mb_leapfrog.h) are the scheme's own: one step of the general
 * kernel with damping equals, bit for bit, the stepper's step on a mid-step state. */
Test(leapfrog, exported_kernels_match_stepper)
{
    lf_run *r = lf_run_new("cundall-oscillator[lambda=0.3]", "leapfrog[damping=0.3]");
    lf_run_steps(r, 3, 0.011);                 /* mid-step now, h_last = 0.011 */
    mb_nodes *s = r->sys->nodes;
    mb_forces_eval(r->sys->forces, s, r->sys->t);
    double x[3], v[3], diss = 0.0, d0 = r->sys->dissipated_by_scheme;
    cr_assert_eq(mb_leapfrog_translate_general(s, x, v, 0.011, 0.3, 1, &diss), MB_SUCCESS);
    lf_run_steps(r, 1, 0.011);
    cr_expect(memcmp(x, s->x, sizeof x) == 0 && memcmp(v, s->v, sizeof v) == 0);
    cr_expect_eq(diss, r->sys->dissipated_by_scheme - d0);
    double xf[3], vf[3];
    mb_forces_eval(r->sys->forces, s, r->sys->t);
    cr_assert_eq(mb_leapfrog_translate(s, xf, vf, 0.011), MB_SUCCESS);
    lf_run_free(r);
    lf_run *u = lf_run_new("kepler[eccentricity=0.3]", "leapfrog");
    lf_run_steps(u, 2, 0.01);
    mb_forces_eval(u->sys->forces, u->sys->nodes, u->sys->t);
    cr_assert_eq(mb_leapfrog_translate(u->sys->nodes, xf, vf, 0.01), MB_SUCCESS);
    lf_run_steps(u, 1, 0.01);
    cr_expect(memcmp(xf, u->sys->nodes->x, sizeof xf) == 0 && memcmp(vf, u->sys->nodes->v, sizeof vf) == 0);
    lf_run_free(u);
}
