/* test_verlet_nosquish.c -- velocity Verlet + NO_SQUISH (Miller et al., J. Chem. Phys.
 * 116 (2002) 8649) against an independent derivation and closed forms.
 *
 * One step.  NO_SQUISH rotates (q, p) in the planes (q, P_k q), (p, P_k p); written in
 * the body angular momentum instead, each sub-rotation about principal axis k for dt is
 * the exact free motion of that axis alone: theta = dt L~_k / I_k,
 *   q <- q (x) (cos(theta/2), sin(theta/2) e_k),   L~ <- Rot_k(-theta) L~
 * (L~ counter-rotates so that the global L = R(q) L~ stays put).  The test composes the
 * five sub-rotations 3, 2, 1, 2, 3 (dt = h/2, h/2, h, h/2, h/2) in these variables and
 * must agree with the scheme to round-off (a few u per sub-rotation on unit q).  Negative
 * control: the one-rotation update q (x) Quaternion(h w~(t)) differs at O(h^2).
 * Orders: symmetric top (closed form) torque-free, and the axial-torque top (closed form
 * of w~, orientation by rk8pd quadrature at 1e-14) with torque kicks, at h = T/100 ..
 * T/800: fitted slope 2 +- 0.05 (e = C h^2 (1 + O(h^2))).
 * Energy: symplectic, so on the asymmetric free body (t = 200, h = 0.01) the energy
 * error stays at its O(h^2) level: the max over [150, 200] is within 2 % of the max
 * over [0, 50].  The second-order leap-frog with Fincham's half-step rotation, not
 * symplectic, drifts by O(h^3) per unit time and fails the same check.
 * omega: the state a step leaves has omega = R I^-1 R^T L (frame change written here with
 * the rotation matrix), with a torque and without (where the estimate is kept). */
#include <criterion/criterion.h>
#include <float.h>

#include "compare_test_util.h"
#include "mb_energy.h"
#include "mb_force_torque.h"
#include "mb_vec.h"

/* exact free rotation about body axis k (0..2) in the body-momentum variables */
static void sub_rotation(double q[4], double Lb[3], const double I[3], int k, double dt)
{
    double th = dt * Lb[k] / I[k], r[4] = { cos(0.5 * th), 0, 0, 0 };
    r[1 + k] = sin(0.5 * th);
    mb_q_mul(q, q, r);
    int a = (k + 1) % 3, b = (k + 2) % 3;
    double c = cos(th), s = sin(th), La = Lb[a], Lbb = Lb[b];
    Lb[a] = c * La + s * Lbb;       /* Rot_k(-theta): (a, b) plane turned by -theta */
    Lb[b] = -s * La + c * Lbb;
}

static mb_system *free_body(void)
{
    return th_problem("free-rigid-body", NULL);
}

Test(verlet_nosquish, one_step_against_the_body_momentum_derivation)
{
    const double h = 0.0613;
    mb_system *sys = free_body();
    const mb_nodes *nd = sys->nodes;
    double q[4], I[3], Lb[3], wb[3], q0[4];
    memcpy(q, nd->q, sizeof q);
    memcpy(q0, nd->q, sizeof q0);
    memcpy(I, nd->inertia, sizeof I);
    double wb0[3];
    mb_q_rotate_inv(wb0, q, nd->omega);
    for (int k = 0; k < 3; k++)
        Lb[k] = I[k] * wb0[k];
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    sub_rotation(q, Lb, I, 2, 0.5 * h);
    sub_rotation(q, Lb, I, 1, 0.5 * h);
    sub_rotation(q, Lb, I, 0, h);
    sub_rotation(q, Lb, I, 1, 0.5 * h);
    sub_rotation(q, Lb, I, 2, 0.5 * h);
    double d = mb_q_angle_between(q, nd->q);
    cr_expect(d <= 64 * DBL_EPSILON, "orientation differs by %g rad", d);
    /* omega(t+h) = R(q) I^-1 L~ */
    double w[3];
    for (int k = 0; k < 3; k++)
        wb[k] = Lb[k] / I[k];
    mb_q_rotate(w, q, wb);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(w[k] - nd->omega[k]) <= 64 * DBL_EPSILON, "omega[%d] %.17g vs %.17g", k,
                  nd->omega[k], w[k]);
    /* negative control: a single rotation by h w~(t) (no splitting) */
    double qn[4], rv[3];
    for (int k = 0; k < 3; k++)
        rv[k] = h * wb0[k];
    double rq[4];
    mb_q_from_rotvec(rq, rv);
    mb_q_mul(qn, q0, rq);
    cr_expect(mb_q_angle_between(qn, nd->q) > 1e-6, "unsplit rotation not flagged");
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* orientation error against the problem's closed form after n steps to t_end */
static double orient_error(const char *problem, double t_end, long n)
{
    const mb_problem_type *pt;
    mb_options *p;
    cr_assert_eq(mb_problem_prepare(problem, NULL, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    double h = t_end / (double)n;
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *ex = mb_nodes_alloc(1, 53);
    cr_assert_eq(pt->exact(p, sys->t, ex), MB_SUCCESS, "%s", mb_last_error());
    double e = mb_q_angle_between(ex->q, sys->nodes->q);
    mb_nodes_free(ex);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(p);
    return e;
}

static double orient_order(const char *problem, double t_end)
{
    double lh[4], le[4];
    for (int j = 0; j < 4; j++) {
        long n = 100L << j;
        lh[j] = log(t_end / (double)n);
        le[j] = log(orient_error(problem, t_end, n));
    }
    double c0, c1, c00, c01, c11, ss;
    gsl_fit_linear(lh, 1, le, 1, 4, &c0, &c1, &c00, &c01, &c11, &ss);
    return c1;
}

Test(verlet_nosquish, second_order_on_the_tops)
{
    double p1 = orient_order("symmetric-top", 4.1);
    cr_expect(fabs(p1 - 2.0) <= 0.05, "symmetric top: order %.4f", p1);
    double p2 = orient_order("axial-torque-top", 3.3);
    cr_expect(fabs(p2 - 2.0) <= 0.05, "axial-torque top: order %.4f", p2);
}

/* max |E/E0 - 1| over [0, 50] and over [150, 200] on the free body at h = 0.01 */
static void energy_windows(const char *scheme, double *early, double *late)
{
    mb_system *sys = free_body();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    double e0 = mb_energy_kinetic_rot(sys->nodes);
    *early = *late = 0.0;
    for (long k = 1; k <= 20000; k++) {
        cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS);
        mb_nodes *on = mb_nodes_alloc(1, 53);
        mb_stepper_on_step(st, sys, on);
        double r = fabs(mb_energy_kinetic_rot(on) / e0 - 1.0);
        mb_nodes_free(on);
        if (k <= 5000)
            *early = fmax(*early, r);
        if (k > 15000)
            *late = fmax(*late, r);
    }
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(verlet_nosquish, energy_bounded_on_the_free_body)
{
    double early, late;
    energy_windows("verlet-nosquish", &early, &late);
    cr_expect(late <= 1.02 * early, "energy error grew: %g -> %g", early, late);
    cr_expect(early < 1e-4, "energy error %g above the O(h^2) level", early);
    energy_windows("leapfrog[aspherical=fincham-halfstep]", &early, &late);
    cr_expect(late > 1.02 * early, "negative control: fincham-halfstep drift not flagged (%g, %g)",
              early, late);
}

Test(verlet_nosquish, unit_quaternion_without_normalisation)
{
    mb_system *sys = free_body();
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    for (long k = 0; k < 5000; k++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.02), MB_SUCCESS);
    mb_stepper_stats stats;
    mb_stepper_get_stats(st, &stats);
    /* orthogonal 4x4 maps: | |q| - 1 | grows by a few u per step at most (random walk) */
    cr_expect(stats.quat_norm_error_max < 1e-12, "| |q| - 1 | reached %g", stats.quat_norm_error_max);
    mb_stepper_free(st);
    mb_system_free(sys);
    /* negative control: Fincham's update is not norm preserving (it normalises) */
    sys = free_body();
    st = mb_stepper_alloc("leapfrog", sys);
    for (long k = 0; k < 100; k++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.02), MB_SUCCESS);
    mb_stepper_get_stats(st, &stats);
    cr_expect(stats.quat_norm_error_max > 1e-9, "control: leapfrog |q| error %g", stats.quat_norm_error_max);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(verlet_nosquish, translation_is_velocity_verlet)
{
    mb_system *a = th_problem("kepler", (const char *const[]){ "eccentricity=0.6", NULL });
    mb_system *b = th_problem("kepler", (const char *const[]){ "eccentricity=0.6", NULL });
    mb_stepper *sa = mb_stepper_alloc("verlet-nosquish", a);
    mb_stepper *sb = mb_stepper_alloc("velocity-verlet", b);
    for (int k = 0; k < 1000; k++) {
        cr_assert_eq(mb_stepper_step(sa, a, 0.00731), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step(sb, b, 0.00731), MB_SUCCESS);
    }
    cr_expect(th_same_state(a->nodes, b->nodes), "translation differs from velocity-verlet");
    mb_stepper_free(sa);
    mb_stepper_free(sb);
    mb_system_free(a);
    mb_system_free(b);
}

Test(verlet_nosquish, restart_and_bad_steps)
{
    mb_system *sys = free_body();
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    mb_nodes *init = mb_nodes_alloc(1, 53), *first = mb_nodes_alloc(1, 53);
    mb_nodes_copy(init, sys->nodes);
    for (int k = 0; k < 40; k++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.0371), MB_SUCCESS);
    mb_nodes_copy(first, sys->nodes);
    mb_nodes_copy(sys->nodes, init);
    sys->t = 0.0;
    for (int k = 0; k < 40; k++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.0371), MB_SUCCESS);
    cr_expect(memcmp(first->q, sys->nodes->q, 4 * sizeof(double)) == 0, "restart differs");
    /* NaN: an infinite angular velocity */
    mb_nodes_copy(first, sys->nodes);
    sys->nodes->omega[0] = INFINITY;
    mb_nodes_touch(sys->nodes);     /* a write outside a step bumps the generation */
    first->omega[0] = INFINITY;
    double t = sys->t;
    int rc = mb_stepper_step(st, sys, 0.0371);
    cr_expect_eq(rc, MB_EDIVERGED, "got %d: %s", rc, mb_last_error());
    cr_expect(memcmp(first->q, sys->nodes->q, 4 * sizeof(double)) == 0, "q changed by a failed step");
    cr_expect_eq(sys->t, t);
    cr_expect_eq(mb_stepper_step(st, sys, -1.0), MB_EDOM);
    mb_nodes_free(init);
    mb_nodes_free(first);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* orientation of node 0 after n steps of h with the MPFR twin of `scheme` at prec bits */
static void twin_orientation(const char *scheme, mpfr_prec_t prec, long n, double h, double q[4])
{
    mb_system *sys = free_body();
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, prec);
    mb_stepper *st = mb_stepper_alloc_twin(scheme, tw);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step_twin(st, tw, h), MB_SUCCESS, "%s", mb_last_error());
    for (int a = 0; a < 4; a++)
        q[a] = mpfr_get_d(&tw->nodes->q[a], MPFR_RNDN);
    mb_stepper_free(st);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
}

Test(verlet_nosquish, mpfr_twin_is_the_same_scheme)
{
    /* 1000 steps of h = 0.0053: the double run differs from the 256-bit twin by its
     * round-off only, a few u per step on unit quantities: < 1000 * 16 u = 3.6e-12 */
    const long n = 1000;
    const double h = 0.0053;
    mb_system *sys = free_body();
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    double qt[4], ql[4];
    twin_orientation("verlet-nosquish", 256, n, h, qt);
    double d = mb_q_angle_between(qt, sys->nodes->q);
    cr_expect(d < 1000 * 16 * DBL_EPSILON, "double vs 256-bit twin: %g rad", d);
    /* negative control: the twin of another second-order scheme differs by truncation */
    twin_orientation("leapfrog[aspherical=fincham-halfstep]", 256, n, h, ql);
    double dl = mb_q_angle_between(ql, sys->nodes->q);
    cr_expect(dl > 1e-8, "leap-frog twin within %g rad: the check cannot tell schemes apart", dl);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* The state generation (mb_stepper.h): every step changes it, whether the scheme bumps it
 * itself (verlet-nosquish) or not (leapfrog, bumped by mb_stepper_step); a copy into the
 * store changes it.  After another scheme's step, verlet-nosquish continues exactly as a
 * fresh verlet-nosquish would from the same state (its cache is not reused). */
Test(verlet_nosquish, generation_counter)
{
    mb_system *a = free_body(), *b = free_body();
    mb_stepper *ns = mb_stepper_alloc("verlet-nosquish", a), *lf = mb_stepper_alloc("leapfrog", a);
    mb_stepper *ns_b = mb_stepper_alloc("verlet-nosquish", b);
    unsigned long g = a->nodes->generation;
    cr_assert_eq(mb_stepper_step(ns, a, 0.0371), MB_SUCCESS);
    cr_expect_neq(a->nodes->generation, g, "verlet-nosquish step kept the generation");
    g = a->nodes->generation;
    cr_assert_eq(mb_stepper_step(lf, a, 0.0371), MB_SUCCESS);
    cr_expect_neq(a->nodes->generation, g, "leapfrog step kept the generation");
    /* b: the same leapfrog step taken from the same state, then a fresh nosquish */
    cr_assert_eq(mb_stepper_step(ns_b, b, 0.0371), MB_SUCCESS);
    mb_stepper *lf_b = mb_stepper_alloc("leapfrog", b);
    cr_assert_eq(mb_stepper_step(lf_b, b, 0.0371), MB_SUCCESS);
    mb_stepper *ns_fresh = mb_stepper_alloc("verlet-nosquish", b);
    cr_assert_eq(mb_stepper_step(ns, a, 0.0371), MB_SUCCESS);
    cr_assert_eq(mb_stepper_step(ns_fresh, b, 0.0371), MB_SUCCESS);
    cr_expect(memcmp(a->nodes->q, b->nodes->q, 4 * sizeof(double)) == 0
              && memcmp(a->nodes->angmom, b->nodes->angmom, 3 * sizeof(double)) == 0,
              "cached loads reused after another scheme's step");
    g = a->nodes->generation;
    mb_nodes_copy(a->nodes, b->nodes);
    cr_expect_neq(a->nodes->generation, g, "a copy kept the generation");
    mb_stepper_free(ns);
    mb_stepper_free(lf);
    mb_stepper_free(ns_b);
    mb_stepper_free(lf_b);
    mb_stepper_free(ns_fresh);
    mb_system_free(a);
    mb_system_free(b);
}

/* A store written between steps at the same time, with mb_nodes_touch as the contract asks
 * (mb_stepper.h): the next step must use forces of the written state, exactly as a fresh
 * stepper started from that state does.  If the force cache ignored the generation, the
 * step would kick with the loads of the state the scheme left (Kepler: they depend on x). */
Test(verlet_nosquish, a_touched_store_is_not_served_cached_forces)
{
    const char *const set[] = { "eccentricity=0.6", NULL };
    mb_system *a = th_problem("kepler", set), *b = th_problem("kepler", set);
    mb_stepper *cached = mb_stepper_alloc("verlet-nosquish", a);
    for (int k = 0; k < 5; k++)
        cr_assert_eq(mb_stepper_step(cached, a, 0.0137), MB_SUCCESS);
    for (int c = 0; c < 3; c++)          /* move the body outward by 10 % */
        a->nodes->x[c] *= 1.1;
    mb_nodes_touch(a->nodes);
    mb_nodes_copy(b->nodes, a->nodes);
    b->t = a->t;
    mb_stepper *fresh = mb_stepper_alloc("verlet-nosquish", b);
    cr_assert_eq(mb_stepper_step(cached, a, 0.0137), MB_SUCCESS);
    cr_assert_eq(mb_stepper_step(fresh, b, 0.0137), MB_SUCCESS);
    cr_expect(memcmp(a->nodes->x, b->nodes->x, 3 * sizeof(double)) == 0
              && memcmp(a->nodes->v, b->nodes->v, 3 * sizeof(double)) == 0,
              "a step after a touched write used the cached forces of the old state");
    mb_stepper_free(cached);
    mb_stepper_free(fresh);
    mb_system_free(a);
    mb_system_free(b);
}

/* omega = R I^-1 R^T L of the state a step leaves, with and without a torque: the scheme
 * may reuse the omega it estimated before the second torque kick only when that kick left
 * L bit for bit as it was.  Reference: the frame change written here with the rotation
 * matrix (mb_vec.h), ~20 roundings on |omega| ~ 1, so 1e-13 bounds the difference;
 * keeping the estimate after a kick that moved L is off by |T| h / (2 I) ~ 1e-3. */
static void expect_omega_of_L(int torque)
{
    mb_system *sys = mb_system_alloc(3);
    cr_assert_not_null(sys);
    for (size_t i = 0; i < 3; i++) {
        const double I[3] = { 1.3 + 0.1 * i, 2.4, 3.7 - 0.2 * i }, th[3] = { 0.4, -0.3 * i, 0.2 };
        mb_nodes_set_inertia(sys->nodes, i, I);
        mb_q_from_rotvec(&sys->nodes->q[4 * i], th);
        const double w[3] = { 0.9, 0.35 + 0.1 * i, -0.6 };
        memcpy(&sys->nodes->omega[3 * i], w, sizeof w);
    }
    mb_nodes_touch(sys->nodes);
    const double Tb[3] = { 0.3, -0.2, 0.5 };
    if (torque)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_body_torque, mb_body_torque_new(Tb)),
                     MB_SUCCESS, "%s", mb_last_error());
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int k = 0; k < 5; k++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.0137), MB_SUCCESS, "%s", mb_last_error());
    const mb_nodes *nd = sys->nodes;
    for (size_t i = 0; i < 3; i++) {
        double R[9], Lb[3], w[3];
        mb_q_to_mat(R, &nd->q[4 * i]);
        mb_m3t_mul_v(Lb, R, &nd->angmom[3 * i]);
        for (int k = 0; k < 3; k++)
            Lb[k] /= nd->inertia[3 * i + k];
        mb_m3_mul_v(w, R, Lb);
        for (int k = 0; k < 3; k++)
            cr_expect(fabs(w[k] - nd->omega[3 * i + k]) < 1e-13,
                      "torque %d, node %zu: omega[%d] = %.17g, R I^-1 R^T L gives %.17g", torque,
                      i, k, nd->omega[3 * i + k], w[k]);
    }
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(verlet_nosquish, omega_is_that_of_the_final_angular_momentum)
{
    expect_omega_of_L(0);
    expect_omega_of_L(1);
}
