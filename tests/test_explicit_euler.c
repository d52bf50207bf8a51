/* test_explicit_euler.c -- explicit Euler against hand-derived closed forms.
 *
 * On the oscillator x'' = -w^2 x, one step maps (x, v) to (x + h v, v - h w^2 x), so the
 * energy E = 1/2 (v^2 + w^2 x^2) is multiplied by exactly (1 + h^2 w^2) per step.  After
 * N steps the computed ratio differs from (1 + h^2 w^2)^N only by round-off: about
 * N * 4 u relative (u = 2^-53) for the few operations per step, so 8 N u is a safe bound. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "mb_problem.h"
#include "mb_stepper.h"

static double osc_energy(const mb_nodes *s, double w2)
{
    return 0.5 * (s->v[0] * s->v[0] + w2 * s->x[0] * s->x[0]);
}

Test(explicit_euler, one_step_hand_derived)
{
    /* m = 2.385, k = 7.31, x0 = 0.413, v0 = -1.27, h = 0.0173 */
    const double m = 2.385, k = 7.31, x0 = 0.413, v0 = -1.27, h = 0.0173;
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, m);
    sys->nodes->x[0] = x0;
    sys->nodes->v[0] = v0;
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .anchored = 1, .k = k };
    cr_assert_eq(mb_springs_add(sp, &s), MB_SUCCESS);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    mb_stepper *st = mb_stepper_alloc("explicit-euler", sys);
    cr_assert_not_null(st);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    double x1 = x0 + h * v0, v1 = v0 + h * (-k * x0 / m);
    cr_expect(fabs(sys->nodes->x[0] - x1) <= 2 * DBL_EPSILON * fabs(x1), "x1 %.17g vs %.17g",
              sys->nodes->x[0], x1);
    cr_expect(fabs(sys->nodes->v[0] - v1) <= 4 * DBL_EPSILON * fabs(v1), "v1 %.17g vs %.17g",
              sys->nodes->v[0], v1);
    cr_expect_eq(sys->t, h);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(explicit_euler, energy_growth_exact_factor)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    mb_options_set(in, "mass", "2.385");
    mb_options_set(in, "k", "7.31");
    mb_options_set(in, "x0", "0.413");
    cr_assert_eq(mb_problem_prepare("harmonic", in, &pt, &p), MB_SUCCESS);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    const double w2 = 7.31 / 2.385, h = 0.0173;
    const int N = 2000;
    double e0 = osc_energy(sys->nodes, w2);
    mb_stepper *st = mb_stepper_alloc("explicit-euler", sys);
    for (int n = 0; n < N; n++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    double ratio = osc_energy(sys->nodes, w2) / e0;
    double expected = pow(1.0 + h * h * w2, N);
    cr_expect(fabs(ratio / expected - 1.0) <= 8.0 * N * DBL_EPSILON / 2,
              "energy ratio %.17g, closed form %.17g", ratio, expected);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
}

/* Free fall beside a fixed obstacle (infinite mass, inv_mass = 0: it never accelerates).
 * Gravity must not give the obstacle the force m g = Inf (or Inf * 0 = NaN on an axis
 * with g_k = 0), which would turn every step into MB_EDIVERGED.  One explicit Euler step
 * by hand: v+ = v + h g, x+ = x + h v for the free node (2 ulp: one multiply-add each);
 * the obstacle keeps x and v.  The MPFR force evaluation must succeed likewise. */
Test(explicit_euler, gravity_beside_infinite_mass_obstacle)
{
    const double g[3] = { 0.31, 0.0, -9.81 }, h = 0.0173;
    mb_system *sys = mb_system_alloc(2);
    mb_nodes_set_mass(sys->nodes, 0, 2.385);
    mb_nodes_set_mass(sys->nodes, 1, INFINITY);
    const double x0[3] = { 0.413, -0.127, 1.27 }, v0[3] = { 0.1, 0.0, 0.2 };
    for (int k = 0; k < 3; k++) {
        sys->nodes->x[k] = x0[k];
        sys->nodes->v[k] = v0[k];
        sys->nodes->x[3 + k] = 0.5 * (double)k;
    }
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 80);
    cr_assert_not_null(tw);
    cr_expect_eq(mb_forces_mpfr_eval(sys->forces, tw->nodes, 0.0), MB_SUCCESS, "%s",
                 mb_last_error());
    mb_system_mpfr_free(tw);
    mb_stepper *st = mb_stepper_alloc("explicit-euler", sys);
    cr_assert_not_null(st);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    for (int k = 0; k < 3; k++) {
        double v1 = v0[k] + h * g[k], x1 = x0[k] + h * v0[k];
        cr_expect(fabs(sys->nodes->v[k] - v1) <= 2 * DBL_EPSILON * fabs(v1), "v[%d]", k);
        cr_expect(fabs(sys->nodes->x[k] - x1) <= 2 * DBL_EPSILON * fabs(x1), "x[%d]", k);
        cr_expect_eq(sys->nodes->v[3 + k], 0.0);
        cr_expect_eq(sys->nodes->x[3 + k], 0.5 * (double)k);
    }
    mb_stepper_free(st);
    mb_system_free(sys);
}
