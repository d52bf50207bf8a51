/* test_rigid_problems.c -- the single-rigid-body problems (spin-up, free-rigid-body,
 * symmetric-top, axial-torque-top) and the torque force models.
 *
 * The closed forms are checked against the equations they claim to solve, without any
 * time-stepping scheme: Euler's equations I w~' + w~ x (I w~) = T~ and the kinematics
 * q' = 1/2 q (x) (0, w~), both by central differences with step d = 1e-4 (truncation
 * d^2/6 |f'''| ~ 1e-9 relative for the O(1) rates here; round-off u/d ~ 1e-12), so a
 * residual below 1e-7 confirms the derivation while a sign error gives O(1). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_force_torque.h"
#include "lf_run.h"

static void body_omega(const mb_nodes *s, double wb[3])
{
    mb_q_rotate_inv(wb, s->q, s->omega);
}

/* max residual of Euler's equations and of the kinematics at time t; Tb = body torque */
static void closed_form_residuals(const char *spec, double t, const double Tb[3], double *euler,
                                  double *kin)
{
    lf_run *r = lf_run_new(spec, "leapfrog");
    const double d = 1e-4;
    mb_nodes *p = mb_nodes_alloc(1, 53), *m = mb_nodes_alloc(1, 53), *c = mb_nodes_alloc(1, 53);
    mb_nodes_copy(p, r->sys->nodes);
    mb_nodes_copy(m, r->sys->nodes);
    mb_nodes_copy(c, r->sys->nodes);
    cr_assert_eq(r->pt->exact(r->params, t + d, p), MB_SUCCESS);
    cr_assert_eq(r->pt->exact(r->params, t - d, m), MB_SUCCESS);
    cr_assert_eq(r->pt->exact(r->params, t, c), MB_SUCCESS);
    double wp[3], wm[3], wc[3], I[3];
    body_omega(p, wp);
    body_omega(m, wm);
    body_omega(c, wc);
    memcpy(I, c->inertia, sizeof I);
    double Iw[3] = { I[0] * wc[0], I[1] * wc[1], I[2] * wc[2] }, gyro[3];
    mb_v3_cross(gyro, wc, Iw);
    *euler = 0.0;
    for (int k = 0; k < 3; k++) {
        double dw = (wp[k] - wm[k]) / (2 * d);
        *euler = fmax(*euler, fabs(I[k] * dw + gyro[k] - Tb[k]));
    }
    /* q may flip sign between calls only if the closed form were discontinuous */
    double pure[4] = { 0, wc[0], wc[1], wc[2] }, qd[4];
    mb_q_mul(qd, c->q, pure);
    *kin = 0.0;
    for (int k = 0; k < 4; k++)
        *kin = fmax(*kin, fabs((p->q[k] - m->q[k]) / (2 * d) - 0.5 * qd[k]));
    mb_nodes_free(p);
    mb_nodes_free(m);
    mb_nodes_free(c);
    lf_run_free(r);
}

Test(rigid_problems, symmetric_top_closed_form_solves_euler)
{
    const double T0[3] = { 0, 0, 0 };
    const double ts[3] = { 0.37, 2.9, 11.3 };
    for (int j = 0; j < 3; j++) {
        double e, k;
        closed_form_residuals("symmetric-top", ts[j], T0, &e, &k);
        cr_expect(e < 1e-7 && k < 1e-7, "t = %g: Euler residual %.3g, kinematic residual %.3g", ts[j], e, k);
    }
    /* prolate top too (I3 < I1: the transverse rotation reverses) */
    double e, k;
    closed_form_residuals("symmetric-top[I1=3.1,I3=1.2]", 4.4, T0, &e, &k);
    cr_expect(e < 1e-7 && k < 1e-7, "prolate: Euler residual %.3g, kinematic residual %.3g", e, k);
}

Test(rigid_problems, symmetric_top_wrong_sign_would_be_flagged)
{
    /* the closed form's transverse rate is +W = (I3 - I1) w3 / I1; the opposite sign
     * (w~_perp rotated by -W t) violates Euler's equations by the vector
     * 2 (I3 - I1) w3 (w2~, -w1~), of norm 2 (I3 - I1) w3 |w~_perp| = 4.6 here */
    double I1 = 1.7, I3 = 3.1, w1 = 0.6, w2 = -0.35, w3 = 2.385, t = 1.3, W = (I3 - I1) * w3 / I1;
    double c = cos(-W * t), s = sin(-W * t);
    double wb[3] = { w1 * c - w2 * s, w1 * s + w2 * c, w3 };
    double dw1 = W * wb[1], dw2 = -W * wb[0];   /* derivative of the wrong form */
    double r1 = I1 * dw1 + (I3 - I1) * wb[1] * wb[2], r2 = I1 * dw2 + (I1 - I3) * wb[2] * wb[0];
    cr_expect(hypot(r1, r2) > 1.0, "wrong-sign residual %.3g", hypot(r1, r2));
}

Test(rigid_problems, axial_torque_top_closed_form_solves_euler)
{
    const double Tb[3] = { 0, 0, 0.45 };
    const double ts[2] = { 0.41, 3.3 };
    for (int j = 0; j < 2; j++) {
        double e, k;
        closed_form_residuals("axial-torque-top", ts[j], Tb, &e, &k);
        cr_expect(e < 1e-7 && k < 1e-7, "t = %g: Euler residual %.3g, kinematic residual %.3g", ts[j], e, k);
    }
}

Test(rigid_problems, spin_up_closed_form_solves_euler)
{
    lf_run *r = lf_run_new("spin-up", "leapfrog");
    const double t = 2.7;
    const mb_nodes *ex = lf_run_exact(r, t);
    double T[3] = { 0.03, -0.02, 0.07 }, Tb[3];
    mb_q_rotate_inv(Tb, ex->q, T);
    lf_run_free(r);
    double e, k;
    closed_form_residuals("spin-up", t, Tb, &e, &k);
    cr_expect(e < 1e-7 && k < 1e-7, "Euler residual %.3g, kinematic residual %.3g", e, k);
}

/* At t = 0 every closed form returns the state setup() builds. */
Test(rigid_problems, exact_at_zero_is_initial_state)
{
    const char *specs[4] = { "spin-up", "symmetric-top", "axial-torque-top", "free-fall" };
    for (int j = 0; j < 4; j++) {
        lf_run *r = lf_run_new(specs[j], "leapfrog");
        const mb_nodes *ex = lf_run_exact(r, 0.0);
        const mb_nodes *s = r->sys->nodes;
        cr_expect(mb_q_angle_between(ex->q, s->q) < 1e-15, "%s q", specs[j]);
        cr_expect(lf_dist3(ex->omega, s->omega) < 1e-15, "%s w", specs[j]);
        cr_expect(lf_dist3(ex->x, s->x) < 1e-15 && lf_dist3(ex->v, s->v) < 1e-15, "%s x, v", specs[j]);
        lf_run_free(r);
    }
}

Test(rigid_problems, bad_parameters_are_named)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    mb_system *sys = NULL;
    mb_options_set(in, "I2", "1.0");
    cr_assert_eq(mb_problem_prepare("free-rigid-body", in, &pt, &p), MB_SUCCESS);
    cr_expect_eq(pt->setup(p, &sys), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "I1 < I2 < I3") != NULL, "%s", mb_last_error());
    mb_options_free(p);
    mb_options_free(in);

    in = mb_options_new();
    mb_options_set(in, "tx", "0");
    mb_options_set(in, "ty", "0");
    mb_options_set(in, "tz", "0");
    cr_assert_eq(mb_problem_prepare("spin-up", in, &pt, &p), MB_SUCCESS);
    cr_expect_eq(pt->setup(p, &sys), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "torque") != NULL, "%s", mb_last_error());
    mb_options_free(p);
    mb_options_free(in);

    in = mb_options_new();
    mb_options_set(in, "ax", "0");
    mb_options_set(in, "ay", "0");
    mb_options_set(in, "az", "0");
    cr_assert_eq(mb_problem_prepare("symmetric-top", in, &pt, &p), MB_SUCCESS);
    cr_expect_eq(pt->setup(p, &sys), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "axis") != NULL, "%s", mb_last_error());
    mb_options_free(p);
    mb_options_free(in);

    in = mb_options_new();
    mb_options_set(in, "eccentricity", "0.99");
    cr_expect_neq(mb_problem_prepare("kepler", in, &pt, &p), MB_SUCCESS);
    cr_expect(strstr(mb_last_error(), "eccentricity") != NULL, "%s", mb_last_error());
    mb_options_free(in);
    cr_expect_null(sys);
}

/* Torque models: body torque = R(q) T~ (checked against the matrix form of mb_vec.h),
 * external power T . w, MPFR instance equal to within 4 u at 53 bits. */
Test(rigid_problems, torque_models)
{
    mb_system *sys = mb_system_alloc(2);
    double q[4], th[3] = { 0.3, -1.1, 0.7 }, Tb[3] = { 0.2, -0.5, 1.3 }, Tg[3] = { -0.4, 0.25, 0.9 };
    mb_q_from_rotvec(q, th);
    memcpy(&sys->nodes->q[4], q, sizeof q);
    sys->nodes->omega[3] = 0.7;
    sys->nodes->omega[5] = -1.9;
    mb_forces_add(sys->forces, mb_force_body_torque, mb_body_torque_new(Tb));
    mb_forces_add(sys->forces, mb_force_torque, mb_torque_new(Tg));
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS);
    double R1[3];
    mb_q_rotate(R1, q, Tb);
    for (int k = 0; k < 3; k++) {
        cr_expect(fabs(sys->nodes->torque[k] - (Tb[k] + Tg[k])) < 1e-15, "identity node");
        cr_expect(fabs(sys->nodes->torque[3 + k] - (R1[k] + Tg[k])) < 1e-15, "rotated node %d", k);
    }
    double P = mb_forces_external_power(sys->forces, sys->nodes, 0.0);
    double Pexp = mb_v3_dot(R1, &sys->nodes->omega[3]) + mb_v3_dot(Tg, &sys->nodes->omega[3]);
    cr_expect(fabs(P - Pexp) < 1e-15, "external power %.17g vs %.17g", P, Pexp);
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 53);
    cr_assert_eq(mb_forces_mpfr_eval(sys->forces, tw->nodes, 0.0), MB_SUCCESS);
    for (int k = 0; k < 6; k++) {
        double a = mpfr_get_d(&tw->nodes->torque[k], MPFR_RNDN);
        cr_expect(a == sys->nodes->torque[k], "MPFR torque %d: %a vs %a", k, a, sys->nodes->torque[k]);
    }
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
    cr_expect_null(mb_torque_new((double[3]){ NAN, 0, 0 }));
}

/* free-rigid-body given=momentum: w1..w3 read as body angular momentum, w~ = I^-1 L~, so
 * the global L of the set-up state is R(q0) (w1, w2, w3). */
Test(rigid_problems, free_rigid_body_given_momentum)
{
    lf_run *r = lf_run_new("free-rigid-body[given=momentum,w1=1.17,w2=0.8,w3=-2.2]", "leapfrog");
    double q0[4], Lb[3] = { 1.17, 0.8, -2.2 }, L[3];
    memcpy(q0, r->sys->nodes->q, sizeof q0);
    mb_q_rotate(L, q0, Lb);
    cr_expect(lf_dist3(L, r->sys->nodes->angmom) < 1e-15, "global L");
    double wb[3];
    mb_q_rotate_inv(wb, q0, r->sys->nodes->omega);
    cr_expect(fabs(wb[1] - 0.8 / 2.385) < 1e-15, "w2 = L2 / I2: %.17g", wb[1]);
    lf_run_free(r);
}

/* I = 2/5 m r^2 overflows to Inf (mass 1e300, radius 1e100) or underflows to 0 (mass
 * 1e-300, radius 1e-100) inside the parameter ranges; spin-up then produced a NaN
 * reference (angular momentum Inf * 0, or |T| t / 0).  Both must be refused, naming the
 * parameters; affine-flow likewise (mass 1e300, radius 1e6). */
static int setup_with(const char *name, const char *const *kv)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    for (; *kv; kv += 2)
        mb_options_set(in, kv[0], kv[1]);
    int st = mb_problem_prepare(name, in, &pt, &p);
    mb_system *sys = NULL;
    if (st == MB_SUCCESS)
        st = pt->setup(p, &sys);
    mb_system_free(sys);
    mb_options_free(p);
    mb_options_free(in);
    return st;
}

Test(rigid_problems, moment_of_inertia_out_of_double_range_is_refused)
{
    const char *big[] = { "mass", "1e300", "radius", "1e100", NULL };
    cr_expect_eq(setup_with("spin-up", big), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "radius") != NULL, "%s", mb_last_error());
    const char *tiny[] = { "mass", "1e-300", "radius", "1e-100", NULL };
    cr_expect_eq(setup_with("spin-up", tiny), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "mass") != NULL, "%s", mb_last_error());
    const char *flow[] = { "mass", "1e300", "radius", "1e6", NULL };
    cr_expect_eq(setup_with("affine-flow", flow), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "radius") != NULL, "%s", mb_last_error());
    const char *ok[] = { "mass", "1e200", "radius", "1e50", NULL };
    cr_expect_eq(setup_with("spin-up", ok), MB_SUCCESS, "%s", mb_last_error());
}
