/* test_order_fit.c -- the order fit on synthetic errors with known slope.
 *
 * Data e_k = C dt_k^p (1 + eps_k) with |eps_k| <= 0.01: the least-squares slope differs
 * from p by at most max|log(1+eps)| sqrt(n) / sqrt(Sxx) (Cauchy-Schwarz on the normal
 * equations), with Sxx = sum (log dt_k - mean)^2; the test derives the bound and
 * compares the fit with a least-squares slope written out here. */
#include <criterion/criterion.h>
#include <math.h>

#include "mb_case.h"
#include "mb_metrics.h"
#include "mb_runner.h"

static double noise(int k)
{
    /* fixed pseudo-random values in [-1, 1] */
    static const double u[] = { 0.37, -0.91, 0.58, -0.12, 0.83, -0.66, 0.05, -0.44,
                                0.71, -0.29, 0.96, -0.78 };
    return u[k % 12];
}

static double slope_by_hand(int n, const double *dt, const double *e)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (int k = 0; k < n; k++) { mx += log(dt[k]) / n; my += log(e[k]) / n; }
    for (int k = 0; k < n; k++) {
        sxx += (log(dt[k]) - mx) * (log(dt[k]) - mx);
        sxy += (log(dt[k]) - mx) * (log(e[k]) - my);
    }
    return sxy / sxx;
}

Test(order_fit, known_slope_with_noise)
{
    const int n = 8;
    const double p = 2.385, C = 0.731;
    double dt[8], e[8], sxx = 0, mx = 0;
    for (int k = 0; k < n; k++) {
        dt[k] = 0.0913 / pow(2.0, k);
        e[k] = C * pow(dt[k], p) * (1.0 + 0.01 * noise(k));
        mx += log(dt[k]) / n;
    }
    for (int k = 0; k < n; k++)
        sxx += (log(dt[k]) - mx) * (log(dt[k]) - mx);
    double bound = -log(1.0 - 0.01) * sqrt((double)n) / sqrt(sxx);
    mb_order_fit f;
    cr_assert_eq(mb_order_fit_compute(n, dt, e, NULL, 1e-300, &f), 0);
    cr_expect_eq(f.points, 8);
    cr_expect_eq(f.excluded_invalid + f.excluded_roundoff + f.excluded_saturated, 0);
    cr_expect(fabs(f.order - p) <= bound, "order %.17g, p %.17g, bound %.3g", f.order, p, bound);
    cr_expect(fabs(f.order - slope_by_hand(n, dt, e)) <= 1e-12, "%.17g", f.order);
    /* the standard error is that of the residuals: positive and below the bound */
    cr_expect(f.stderr_ > 0.0 && f.stderr_ < bound, "stderr %.3g", f.stderr_);
    cr_expect_eq(f.n_pairwise, 7);
}

Test(order_fit, exact_power_pairwise)
{
    double dt[4] = { 0.1, 0.05, 0.025, 0.0125 }, e[4];
    for (int k = 0; k < 4; k++)
        e[k] = 3.1 * pow(dt[k], 1.0);
    mb_order_fit f;
    mb_order_fit_compute(4, dt, e, NULL, 1e-300, &f);
    cr_expect(fabs(f.order - 1.0) < 1e-13);
    for (size_t k = 0; k < f.n_pairwise; k++)
        cr_expect(fabs(f.pairwise[k] - 1.0) < 1e-13, "pairwise %zu: %.17g", k, f.pairwise[k]);
    cr_expect(f.stderr_ < 1e-13);
}

/* the fine end under the round-off floor is excluded and counted */
Test(order_fit, roundoff_floor_excluded)
{
    double dt[6] = { 0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125 };
    double e[6] = { 2e-8, 5e-9, 1.25e-9, 3.125e-10, 4e-14, 7e-14 };
    mb_order_fit f;
    mb_order_fit_compute(6, dt, e, NULL, 1e-13, &f);
    cr_expect_eq(f.excluded_roundoff, 2);
    cr_expect_eq(f.points, 4);
    cr_expect(fabs(f.order - 2.0) < 1e-12, "order %.17g", f.order);
    /* without the floor the two round-off points ruin the fit (negative control) */
    mb_order_fit g;
    mb_order_fit_compute(6, dt, e, NULL, 0.0, &g);
    cr_expect(g.excluded_saturated >= 1, "saturated %zu", g.excluded_saturated);
}

/* coarse steps in saturation (bounded O(1) error) and runs that diverged */
Test(order_fit, saturation_and_invalid)
{
    double dt[7] = { 0.8, 0.4, 0.2, 0.1, 0.05, 0.025, 0.0125 };
    double e[7] = { NAN, 0.9, 0.9, 0.08, 0.02, 0.005, 0.00125 };   /* plateau at 0.9 */
    int valid[7] = { 0, 1, 1, 1, 1, 1, 1 };
    mb_order_fit f;
    mb_order_fit_compute(7, dt, e, valid, 1e-13, &f);
    cr_expect_eq(f.excluded_invalid, 1);
    cr_expect_eq(f.excluded_saturated, 2, "saturated %zu", f.excluded_saturated);
    cr_expect_eq(f.points, 4);
    cr_expect(fabs(f.order - 2.0) < 1e-12, "order %.17g", f.order);
    cr_expect_eq(f.why[0], MB_ORDER_USED);       /* sorted by dt: finest first */
    cr_expect_eq(f.why[6], MB_ORDER_INVALID);
}

/* negative control: first-order data must fail a second-order expectation */
Test(order_fit, first_order_flagged_by_second_order_expectation)
{
    double dt[4] = { 0.1, 0.05, 0.025, 0.0125 }, e[4];
    for (int k = 0; k < 4; k++)
        e[k] = 0.52 * dt[k] * (1.0 + 0.01 * noise(k));
    mb_order_fit f;
    mb_order_fit_compute(4, dt, e, NULL, 1e-13, &f);
    mb_expectation x = { .op = MB_EXPECT_APPROX, .value = 2.0, .tol = 0.1 };
    mb_metric_value m = { .name = "order.position", .value = f.order };
    cr_expect_eq(mb_expectation_holds(&x, &m), MB_VERDICT_FAIL, "order %.3g", f.order);
    x.value = 1.0;
    cr_expect_eq(mb_expectation_holds(&x, &m), MB_VERDICT_PASS, "order %.3g", f.order);
}

Test(order_fit, too_few_points)
{
    double dt[2] = { 0.1, 0.05 }, e[2] = { 1e-3, 1e-3 };
    mb_order_fit f;
    mb_order_fit_compute(2, dt, e, NULL, 1e-13, &f);
    cr_expect(isnan(f.order));
    cr_expect(isnan(f.stderr_));
    cr_expect_eq(f.points, 0);
    cr_expect_eq(f.excluded_saturated, 2);   /* equal errors: a plateau */
}

/* A round-off point above the floor at a finer step than a point below it (round-off grows
 * with the number of steps) is round-off too: e = dt^4 down to dt = 0.0125, then 3e-14
 * (below the floor 1e-13) and 6e-13 at the two finer steps.  Without the rule the 6e-13
 * point would join the fit and drag the order from 4 towards 0. */
Test(order_fit, finer_than_roundoff_is_roundoff)
{
    double dt[6] = { 0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125 };
    double e[6] = { 1e-4, 6.25e-6, 3.90625e-7, 2.44140625e-8, 3e-14, 6e-13 };
    mb_order_fit f;
    mb_order_fit_compute(6, dt, e, NULL, 1e-13, &f);
    cr_expect_eq(f.excluded_roundoff, 2, "%zu", f.excluded_roundoff);
    cr_expect_eq(f.points, 4);
    cr_expect(fabs(f.order - 4.0) < 1e-12, "order %.17g", f.order);
    cr_expect_eq(f.flags, MB_ORDER_FLAG_EXCLUDED);
    cr_expect_str_eq(mb_order_flags_word(f.flags), "excluded");
}

/* Per-point floors: the same error 1e-12 is truncation at 100 steps and round-off at
 * 10^6 steps, with the floor K u S sqrt(N d): K = 10, u = 2^-53, S = 1, d = 6 gives
 * 2.72e-14 at N = 100 and 2.72e-12 at N = 10^6 (1.1102e-16 * 10 * sqrt(600) = 2.7195e-14). */
Test(order_fit, roundoff_floor_scales_with_steps_and_state)
{
    cr_expect(fabs(mb_roundoff_floor(1.0, 100, 6) / 2.71947991102104e-14 - 1.0) < 1e-12,
              "%.15g", mb_roundoff_floor(1.0, 100, 6));
    cr_expect(fabs(mb_roundoff_floor(2.0, 400, 24) / mb_roundoff_floor(1.0, 100, 6) - 8.0)
              < 1e-12);
    double dt[3] = { 1e-2, 1e-3, 1e-4 }, e[3] = { 1e-8, 1e-10, 1e-12 };
    double floor[3] = { mb_roundoff_floor(1.0, 100, 6), mb_roundoff_floor(1.0, 1000, 6),
                        mb_roundoff_floor(1.0, 1000000, 6) };
    mb_order_fit f;
    mb_order_fit_compute_floors(3, dt, e, NULL, floor, &f);
    cr_expect_eq(f.excluded_roundoff, 1);
    cr_expect_eq(f.why[0], MB_ORDER_ROUNDOFF);   /* sorted: dt = 1e-4 first */
}

/* Flags: pairwise orders 2, 2.5, 2 rise and fall by 0.5 > 0.1 (non-monotone); a fit over
 * one decade of the three asked for is short-range; a clean second-order sweep has none. */
Test(order_fit, flags_non_monotone_and_short_range)
{
    double dt[4] = { 0.8, 0.4, 0.2, 0.1 };
    double e[4];
    e[3] = 1e-2;                                  /* dt = 0.1 */
    e[2] = e[3] * 4.0;                            /* pairwise 2 */
    e[1] = e[2] * pow(2.0, 2.5);                  /* pairwise 2.5 */
    e[0] = e[1] * 4.0;                            /* pairwise 2 */
    mb_order_fit f;
    mb_order_fit_compute(4, dt, e, NULL, 1e-13, &f);
    cr_expect_eq(f.flags, MB_ORDER_FLAG_NON_MONOTONE, "flags %u", f.flags);
    cr_expect_str_eq(mb_order_flags_word(f.flags), "non-monotone");
    double dt2[4] = { 1.0, 0.1, 0.01, 0.001 }, e2[4] = { 1.0, 1.0, 1e-4, 1e-6 };
    mb_order_fit g;
    mb_order_fit_compute(4, dt2, e2, NULL, 1e-13, &g);
    cr_expect_eq(g.points, 2);
    cr_expect_eq(g.flags, MB_ORDER_FLAG_EXCLUDED | MB_ORDER_FLAG_SHORT_RANGE, "flags %u", g.flags);
    cr_expect_str_eq(mb_order_flags_word(g.flags), "excluded+short-range");
    double e3[4] = { 0.64, 0.16, 0.04, 0.01 };
    mb_order_fit h;
    mb_order_fit_compute(4, dt, e3, NULL, 1e-13, &h);
    cr_expect_eq(h.flags, 0);
    cr_expect_str_eq(mb_order_flags_word(h.flags), "none");
}
