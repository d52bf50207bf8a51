/* test_energy_driven.c -- energy metrics of driven systems (energy_track.c): the work of
 * external loads W_ext is subtracted, d = E - E0 - W_ext, with W_ext exact for constant
 * global forces (force_constant.c) and Gregory's O(h^6) rule on the power of the others
 * (work_track.c).
 *
 * Expected values come from closed forms: integrals of polynomials and exponentials, and
 * explicit Euler's exact energy growth on a linear oscillator, (1 + w^2 h^2) per step.
 * Negative controls: explicit Euler must show its energy gain on a driven system; the
 * trapezoid rule's order (4 per halving) must not pass for Gregory's; a growth without
 * work must still be a blow-up. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_metrics.h"
#include "mb_runner.h"
#include "mb_status.h"

static const double U = DBL_EPSILON / 2;

/* ---------------------------------------------------------------- Gregory's rule ---- */

static double gregory_integral(double (*P)(double), double h, long n)
{
    mb_work_track w;
    mb_work_track_begin(&w, h, P(0.0));
    for (long k = 1; k <= n; k++)
        mb_work_track_add(&w, P((double)k * h));
    return mb_work_track_value(&w);
}

static double quintic(double t) { return 1.0 - 2.0 * t + 0.5 * t * t * t - 0.3 * pow(t, 5); }
static double quintic_integral(double t)
{
    return t - t * t + 0.125 * pow(t, 4) - 0.05 * pow(t, 6);
}

/* Exact for degree <= 5 from the fourth step on: the sum of n + 1 O(1) terms times h
 * carries round-off of a few (n + 10) u |W|; 64 (n + 10) u leaves room for the
 * polynomial's own evaluation.  The trapezoid rule alone misses by h^2/12 [P'] ~ 1e-3. */
Test(work_track, exact_for_quintics)
{
    for (long n = 4; n <= 40; n += 9) {
        const double h = 0.05;
        double w = gregory_integral(quintic, h, n), e = quintic_integral((double)n * h);
        cr_expect(fabs(w - e) <= 64.0 * (double)(n + 10) * U * fmax(1.0, fabs(e)),
                  "n = %ld: %.17g, exact %.17g", n, w, e);
    }
}

static double smooth_power(double t) { return exp(0.8 * t) * cos(3.0 * t); }
static double smooth_integral(double t)
{
    /* int e^(a t) cos(b t) = e^(a t) (a cos(b t) + b sin(b t)) / (a^2 + b^2) */
    const double a = 0.8, b = 3.0;
    return (exp(a * t) * (a * cos(b * t) + b * sin(b * t)) - a) / (a * a + b * b);
}

/* Sixth order: halving h divides the error by 2^6 = 64 in the limit; > 40 separates it
 * from fourth (16) and second order (4, the trapezoid rule) with margin for the
 * higher-order terms at these steps (h = 0.02 .. 0.005 over [0, 2]). */
Test(work_track, sixth_order_on_a_smooth_power)
{
    double err[3];
    for (int k = 0; k < 3; k++) {
        long n = 100L << k;
        err[k] = fabs(gregory_integral(smooth_power, 2.0 / (double)n, n) - smooth_integral(2.0));
    }
    for (int k = 0; k < 2; k++)
        cr_expect(err[k] / err[k + 1] > 40.0, "error ratio %g (errors %g, %g): not sixth order",
                  err[k] / err[k + 1], err[k], err[k + 1]);
    cr_expect(err[2] < 1e-12, "error %g at h = 0.005", err[2]);
}

/* ------------------------------------------------------------- through the runner ---- */

static const mb_metric_value *find(const mb_run_result *r, const char *name)
{
    for (size_t k = 0; k < r->n_metrics; k++)
        if (strcmp(r->metrics[k].name, name) == 0)
            return &r->metrics[k];
    return NULL;
}

static mb_case *load(const char *rel)
{
    char path[1024];
    const char *s = getenv("MB_SRCDIR");
    snprintf(path, sizeof path, "%s/%s", s ? s : MB_SRCDIR, rel);
    mb_case *c = NULL;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    return c;
}

static double run_metric(const mb_case *c, size_t integrator, size_t dt_index, const char *name)
{
    mb_run_result r;
    mb_run_one(c, integrator, dt_index, 0, &r);
    cr_assert_eq(r.status, MB_RUN_OK, "%s: %s", c->integrators[integrator], r.message);
    const mb_metric_value *m = find(&r, name);
    cr_assert_not_null(m, "%s: no %s", c->integrators[integrator], name);
    double v = m->value;
    free(r.series);
    return v;
}

/* Spring and constant force (tests/data/energy/driven-spring.case): w = 10 rad/s,
 * h = 1e-3, N = 2000 steps.  Scale S = C0 = 1/2 m v0^2 + 1/2 k x0^2 = 1 J.  The energy of
 * the oscillation about x_eq = F/k, E_osc0 = 0.5 + 50 (0.1 - 0.03)^2 = 0.745 J, is what
 * E - W keeps up to a constant.
 * Explicit Euler multiplies w^2 y^2 + v^2 (y = x - x_eq) by exactly 1 + w^2 h^2 each step,
 * so d_N = E_osc0 ((1 + w^2 h^2)^N - 1) = 0.165 J, growing: max_rel_error = d_N / S to
 * round-off (1e-9 relative covers 2000 steps of a few u), drift_rate > 0.  Had the work
 * not been subtracted, F.(x - x0) (amplitude about 0.4 J) would swamp it.
 * Leap-frog keeps a modified energy: its error stays below (w h)^2 = 1e-4 of S. */
Test(energy_driven, explicit_euler_gains_leapfrog_does_not)
{
    mb_case *c = load("tests/data/energy/driven-spring.case");
    const double wh2 = 100.0 * 1e-6, gain = 0.745 * (pow(1.0 + wh2, 2000) - 1.0);
    double lf = run_metric(c, 0, 0, "energy.max_rel_error");
    double ee = run_metric(c, 1, 0, "energy.max_rel_error");
    double ee_drift = run_metric(c, 1, 0, "energy.drift_rate");
    cr_log_info("driven spring: leapfrog %.3g, explicit Euler %.17g (closed form %.17g)", lf, ee,
                gain);
    cr_expect(lf < wh2, "leap-frog on the driven spring: %g", lf);
    cr_expect(fabs(ee - gain) <= 1e-9 * gain, "explicit Euler %.17g, closed form %.17g", ee,
              gain);
    cr_expect(ee_drift > 0.0, "explicit Euler gains energy: drift %g", ee_drift);
    mb_case_free(c);
}

/* spin-up (cases/spin-up.case): the torque's power T.w is linear in t, which Gregory's
 * rule integrates exactly, and leap-frog's spin is exact to round-off (the case's
 * comment): what is left is round-off, 500 steps of a few u against an energy grown
 * 143-fold from S, < 1e-10.  Before the work was subtracted the metric read 143. */
Test(energy_driven, spin_up_leaves_round_off)
{
    mb_case *c = load("cases/spin-up.case");
    double e = run_metric(c, 0, 0, "energy.max_rel_error");
    cr_expect(e < 1e-10, "spin-up, leap-frog: energy.max_rel_error %g", e);
    mb_case_free(c);
}

/* A body-frame force has no exact work: Gregory's rule integrates its power.  On
 * scene-body-force the metric must then converge at the schemes' order 2 (ratio 4 per
 * halving, 3.5 .. 4.5), not stall at a quadrature floor. */
Test(energy_driven, body_force_converges_at_the_scheme_order)
{
    mb_case *c = load("cases/scene-body-force.case");
    cr_assert_geq(c->n_dt, 3);
    double e0 = run_metric(c, 0, 0, "energy.max_rel_error");
    double e1 = run_metric(c, 0, 1, "energy.max_rel_error");
    cr_expect(e0 / e1 > 3.5 && e0 / e1 < 4.5, "leap-frog: %g, %g (ratio %g)", e0, e1, e0 / e1);
    cr_expect(e0 < 1e-2, "leap-frog at dt 0.02: %g", e0);
    mb_case_free(c);
}

/* The blow-up test judges the same d: a driven system whose energy has grown 10^7 times
 * its scale by the work done on it has not blown up; the same growth without that work
 * has (factor 10^6, as the runner's). */
Test(energy_driven, work_done_is_no_blow_up)
{
    mb_energy e0 = { .kinetic_trans = 1.0, .total = 1.0, .content = 1.0 }, e = e0;
    mb_energy_track tr;
    mb_energy_track_begin(&tr, &e0);
    e.kinetic_trans = e.total = 1.0 + 1e7;
    e.content = e.total;
    e.external = 1e7;
    cr_expect_not(mb_energy_blown_up(&tr, &e, 1e6), "work done read as a blow-up");
    e.external = 0.0;
    cr_expect(mb_energy_blown_up(&tr, &e, 1e6), "control: an unexplained growth of 1e7");
}
