/* test_ode_reference.c -- the GSL rk8pd reference against closed forms.
 *
 * The claim under test: the returned state is within the reported error estimate (the
 * difference of the 1e-12 and 1e-14 tolerance runs) of the closed form, up to the closed
 * form's own double round-off (a few ulps of the state scale, 1e-14 margin, 1e-13 for the
 * asymmetric top whose orientation comes from a quadrature at 1e-13), and the estimate is
 * small (< 1e-10 on these smooth problems). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_closed.h"
#include "mb_ode_reference.h"
#include "mb_problem.h"
#include "mb_status.h"
#include "mb_vec.h"

#include "ref_test_types.h"

Test(ode_reference, harmonic_problem)
{
    const mb_problem_type *pt;
    mb_options *p = rt_harmonic_params(&pt);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    double times[3] = { 0.0, 3.7, 10.0 }, err[3];
    mb_nodes *outs[3];
    for (int k = 0; k < 3; k++)
        outs[k] = mb_nodes_alloc(1, 53);
    mb_ode_reference_stats st;
    cr_assert_eq(mb_ode_reference(sys, 3, times, outs, err, NULL, &st), MB_SUCCESS, "%s", mb_last_error());
    for (int k = 0; k < 3; k++) {
        double x, v;
        mb_closed_harmonic(sqrt(7.31 / 2.385), 0.413, -1.27, times[k], &x, &v);
        cr_expect(fabs(outs[k]->x[0] - x) <= err[k] + 1e-14, "t %g: |dx| %g, estimate %g", times[k],
                  fabs(outs[k]->x[0] - x), err[k]);
        cr_expect(fabs(outs[k]->v[0] - v) <= err[k] + 1e-14);
        cr_expect(err[k] < 1e-10);
    }
    cr_expect(err[0] == 0.0 && st.rhs_evals > 0);
    for (int k = 0; k < 3; k++)
        mb_nodes_free(outs[k]);
    mb_system_free(sys);
    mb_options_free(p);
}

Test(ode_reference, kepler_orbit)
{
    const double mu = 2.385, a = 1.37, e = 0.6, P = mb_closed_kepler_period(mu, a);
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, 0.731);
    double x0[3], v0[3];
    mb_closed_kepler(mu, a, e, 0.0, x0, v0);
    for (int k = 0; k < 3; k++) {
        sys->nodes->x[k] = x0[k];
        sys->nodes->v[k] = v0[k];
    }
    mb_forces_add(sys->forces, &central_type, rt_dup_doubles(&mu, 1));
    double t = 2.0 * P, err, x[3], v[3];
    mb_nodes *out = mb_nodes_alloc(1, 53);
    cr_assert_eq(mb_ode_reference(sys, 1, &t, &out, &err, NULL, NULL), MB_SUCCESS);
    mb_closed_kepler(mu, a, e, t, x, v);
    cr_expect(mb_v3_dist(out->x, x) <= err + 1e-14 && mb_v3_dist(out->v, v) <= err + 1e-13,
              "|dx| %g |dv| %g estimate %g", mb_v3_dist(out->x, x), mb_v3_dist(out->v, v), err);
    cr_expect(err < 1e-9, "estimate %g", err);
    mb_nodes_free(out);
    mb_system_free(sys);
}

Test(ode_reference, free_asymmetric_top_orientation)
{
    const double I[3] = { 1.3, 2.385, 3.1 }, wb[3] = { 0.7, 1.9, 0.35 };
    double q0[4] = { 0.9, 0.2, -0.3, 0.25 };
    mb_q_normalize(q0);
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_inertia(sys->nodes, 0, I);
    for (int k = 0; k < 4; k++)
        sys->nodes->q[k] = q0[k];
    mb_q_rotate(sys->nodes->omega, q0, wb);
    double times[2] = { 4.1, 17.3 }, err[2];
    mb_nodes *outs[2] = { mb_nodes_alloc(1, 53), mb_nodes_alloc(1, 53) };
    cr_assert_eq(mb_ode_reference(sys, 2, times, outs, err, NULL, NULL), MB_SUCCESS);
    for (int k = 0; k < 2; k++) {
        mb_closed_rigid c;
        cr_assert_eq(mb_closed_asymtop(I, q0, wb, times[k], &c), MB_SUCCESS);
        double ang = mb_q_angle_between(outs[k]->q, c.q);
        cr_expect(ang <= 2 * err[k] + 1e-13, "t %g: angle %g estimate %g", times[k], ang, err[k]);
        cr_expect(mb_v3_dist(outs[k]->omega, c.omega) <= 4 * err[k] + 1e-13, "omega %g",
                  mb_v3_dist(outs[k]->omega, c.omega));
        cr_expect(mb_v3_dist(outs[k]->angmom, c.angmom) <= err[k] + 1e-13);
        cr_expect(err[k] < 1e-10);
    }
    mb_nodes_free(outs[0]);
    mb_nodes_free(outs[1]);
    mb_system_free(sys);
}

/* Gravity + drag + spring: the damped oscillator along z about the static equilibrium,
 * free fall with drag along x; a blocked y axis keeps its velocity. */
Test(ode_reference, damped_oscillator_and_blocked_axis)
{
    const double m = 2.385, k = 7.31, D = 1.37, g[3] = { 0, 0, -9.81 };
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, m);
    sys->nodes->x[2] = 0.413;
    sys->nodes->v[0] = 1.1;
    sys->nodes->v[1] = 0.7;
    sys->nodes->v[2] = -1.27;
    sys->nodes->blocked[0] = MB_BLOCK_Y;
    mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g));
    mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(D));
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .anchored = 1, .k = k };
    mb_springs_add(sp, &s);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    /* the spring (zero rest length) also pulls x back: along x, m x'' = -k x - D x' */
    double t = 3.3, err, w0, zeta, x, v, zx, zv;
    mb_nodes *out = mb_nodes_alloc(1, 53);
    cr_assert_eq(mb_ode_reference(sys, 1, &t, &out, &err, NULL, NULL), MB_SUCCESS);
    mb_closed_damped_params(m, k, D, &w0, &zeta);
    mb_closed_damped(w0, zeta, 0.0, 1.1, t, &x, &v);
    double zeq = m * g[2] / k;
    mb_closed_damped(w0, zeta, 0.413 - zeq, -1.27, t, &zx, &zv);
    cr_expect(fabs(out->x[0] - x) <= err + 1e-14 && fabs(out->v[0] - v) <= err + 1e-14);
    cr_expect(fabs(out->x[2] - (zx + zeq)) <= err + 1e-14 && fabs(out->v[2] - zv) <= err + 1e-14,
              "z %g estimate %g", out->x[2] - (zx + zeq), err);
    cr_expect(out->v[1] == 0.7 && fabs(out->x[1] - 0.7 * t) < 1e-14, "blocked y: v %g", out->v[1]);
    mb_nodes_free(out);
    mb_system_free(sys);
}

Test(ode_reference, errors_are_reported)
{
    mb_system *sys = mb_system_alloc(1);
    void *sp = mb_springs_new();
    /* rest length 1 anchored at the node's own position: direction undefined */
    mb_spring s = { .i = 0, .anchored = 1, .k = 1, .rest = 1 };
    mb_springs_add(sp, &s);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    double t = 1.0, err;
    mb_nodes *out = mb_nodes_alloc(1, 53);
    cr_expect_eq(mb_ode_reference(sys, 1, &t, &out, &err, NULL, NULL), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "zero length") != NULL, "%s", mb_last_error());
    double back[2] = { 2.0, 1.0 };
    mb_nodes *two[2] = { out, out };
    cr_expect_eq(mb_ode_reference(sys, 2, back, two, NULL, NULL, NULL), MB_EDOM);
    mb_ode_reference_opts bad = { 1e-14, 1e-12 };
    cr_expect_eq(mb_ode_reference(sys, 1, &t, &out, &err, &bad, NULL), MB_EDOM);
    mb_nodes_free(out);
    mb_system_free(sys);
}
