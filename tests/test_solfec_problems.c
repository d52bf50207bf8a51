/* test_solfec_problems.c -- the problems of the solfec scheme against their closed forms,
 * through their own observers (as the case runner uses them).
 *   box-on-plane: stopping distance d = v0^2/(2 mu g); the scheme integrates the constant
 *     deceleration exactly and the sticking step ends at most mu g h^2/2 short, so
 *     |d_h - d| <= mu g h^2 / 2 (relative: / d).  Negative control: the bound for the
 *     wrong closed form v0^2/(mu g) (a factor-2 slip) must fail.  Both per-contact
 *     solvers (case analysis, projected Alart-Curnier).
 *   pendulum-link: period vs 4 sqrt(l/g) K(sin(theta0/2)); second order, so halving h
 *     divides the error by 4 (asserted 4 +- 0.4 over h = 2e-3 -> 1e-3).
 *   bouncing-sphere: Newton restitution exact to rounding (8 ulp of e).
 *   Bad parameters: a clear MB_EDOM naming the problem. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_stepper.h"

/* value of observation `name`, NAN if absent */
static double find(const mb_observation *o, const char *name)
{
    for (size_t k = 0; k < o->count; k++)
        if (!strcmp(o->items[k].name, name))
            return o->items[k].value;
    return NAN;
}

static void run(const char *problem, const char *const *pairs, const char *spec, double h, double T,
                mb_observation *out)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    for (const char *const *kv = pairs; kv && *kv; kv++)
        cr_assert_eq(mb_options_set_pair(in, *kv), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_problem_prepare(problem, in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    void *ctx = NULL;
    cr_assert_eq(pt->observe_begin(&ctx, p, sys), MB_SUCCESS);
    cr_assert_eq(pt->observe_step(ctx, sys, sys->nodes), MB_SUCCESS);
    long n = lround(T / h);
    for (long k = 0; k < n; k++) {
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(pt->observe_step(ctx, sys, sys->nodes), MB_SUCCESS);
    }
    cr_assert_eq(pt->observe_end(ctx, out), MB_SUCCESS);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
}

Test(solfec_problems, box_stopping_distance)
{
    const char *pairs[] = { "mu=0.41", "v0=2.07", NULL };
    double mu = 0.41, v0 = 2.07, g = 9.81, d = v0 * v0 / (2 * mu * g), hs[] = { 0.01, 0.001 };
    for (int k = 0; k < 4; k++) {
        mb_observation o;
        run("box-on-plane", pairs, k < 2 ? "solfec" : "solfec[contact_solver=projected-ac]", hs[k % 2], 0.7, &o);
        double dh = find(&o, "contact.stopping_distance"), bound = mu * g * hs[k % 2] * hs[k % 2] / 2;
        cr_log_info("h = %g: d_h = %.12g, d = %.12g, |d_h - d| = %.3g <= %.3g; merit %.3g, sweeps %.2f",
                    hs[k % 2], dh, d, fabs(dh - d), bound, find(&o, "solver.merit_max"),
                    find(&o, "solver.iterations_mean"));
        cr_assert_leq(fabs(dh - d), bound);
        cr_assert_float_eq(find(&o, "contact.stopping_distance_exact"), d, 1e-14);
        cr_assert_gt(fabs(dh - 2 * d), bound, "negative control: v0^2/(mu g) must be rejected");
        cr_assert_leq(find(&o, "constraint.violation_max"), 1.01e-9);
    }
}

Test(solfec_problems, pendulum_period_second_order)
{
    const char *pairs[] = { "theta0=0.93", "length=1.21", NULL };
    double T;
    cr_assert_eq(mb_closed_pendulum_period(1.21, 9.81, 0.93, &T), MB_SUCCESS);
    mb_observation a, b;
    run("pendulum-link", pairs, "solfec", 0.002, 2.6 * T, &a);
    run("pendulum-link", pairs, "solfec", 0.001, 2.6 * T, &b);
    double ea = find(&a, "pendulum.period") - T, eb = find(&b, "pendulum.period") - T;
    cr_log_info("period errors %.3g (h = 2e-3), %.3g (h = 1e-3), ratio %.3f; length error %.3g",
                ea, eb, ea / eb, find(&b, "constraint.violation_max"));
    cr_assert_float_eq(ea / eb, 4.0, 0.4);
    cr_assert_leq(fabs(eb) / T, 1e-5);
}

Test(solfec_problems, bouncing_sphere_restitution)
{
    const char *pairs[] = { "e=0.47", NULL };
    mb_observation o;
    run("bouncing-sphere", pairs, "solfec", 0.005, 1.2, &o);
    cr_assert_float_eq(find(&o, "bounce.restitution"), 0.47, 8 * 0.47 * 2.2e-16);
    /* control: the apex ratio is not exact (O(h)), unlike the velocity ratio */
    cr_assert_gt(fabs(find(&o, "bounce.apex_ratio") - 0.47 * 0.47), 1e-6);
}

Test(solfec_problems, bad_parameters_are_reported)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    cr_assert_eq(mb_options_set_pair(in, "mu=4"), MB_SUCCESS);
    cr_assert_eq(mb_problem_prepare("box-on-plane", in, &pt, &p), MB_SUCCESS);
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), MB_EDOM);
    cr_assert_not_null(strstr(mb_last_error(), "box-on-plane"), "%s", mb_last_error());
    cr_assert_null(sys);
    mb_options_free(in);
    mb_options_free(p);
}

/* v0 = 0 leaves nothing to slide: the stopping distance is 0 and its relative error
 * 0/0 (reported as inf before).  It must be refused up front, naming v0. */
Test(solfec_problems, box_without_initial_speed_is_rejected)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p = NULL;
    cr_assert_eq(mb_options_set_pair(in, "v0=0"), MB_SUCCESS);
    int rc = mb_problem_prepare("box-on-plane", in, &pt, &p);
    cr_assert_eq(rc, MB_EDOM, "status %d", rc);
    cr_assert_not_null(strstr(mb_last_error(), "v0"), "%s", mb_last_error());
    mb_options_free(in);
    mb_options_free(p);
}
