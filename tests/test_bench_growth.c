/* test_bench_growth.c -- the growth exponent of a step benchmark (src/cli/bench_growth.c)
 * on cost series whose exponents are known in closed form:
 *   - cost = c n^p exactly: the slope is p over any sizes (to rounding: 1e-12);
 *   - a linear cost that rises 2.5 times a particle past a cache's edge between 10^4 and
 *     10^4.5: every size fits a slope above the 1.15 limit, the largest decade reads 1
 *     (to rounding), so the check passes;
 *   - cost = n^1.3 and cost = n^1.5, super-linear: the largest decade reads 1.3 and 1.5
 *     and the check fails (the negative controls: a check blind to growth would pass);
 *   - cost = n ln n: the largest decade of 10^3 .. 10^6 reads the slope of the closed
 *     form fitted on those three points, 1 + about 1/ln n, below the limit. */
#include <criterion/criterion.h>
#include <math.h>

#include "bench_growth.h"

#define LIMIT 1.15
#define M 7     /* 10^3 .. 10^6 at two sizes a decade, as bench implicit-* */

static void sizes(double *n)
{
    for (int i = 0; i < M; i++)
        n[i] = 1000.0 * pow(10.0, 0.5 * i);
}

Test(bench_growth, power_law_slope_over_any_sizes)
{
    double n[M], c[M];
    sizes(n);
    for (int i = 0; i < M; i++)
        c[i] = 3.7e-7 * pow(n[i], 1.3);
    mb_bench_growth all = mb_bench_growth_fit(n, c, M);
    mb_bench_growth top = mb_bench_growth_top(n, c, M);
    cr_expect_lt(fabs(all.exponent - 1.3), 1e-12, "%.17g", all.exponent);
    cr_expect_lt(fabs(top.exponent - 1.3), 1e-12, "%.17g", top.exponent);
    cr_expect_eq(all.sizes, (size_t)M);
    cr_expect_eq(top.sizes, (size_t)3);
    cr_expect_lt(top.error, 1e-10, "an exact power law leaves no residual");
    cr_expect_not(mb_bench_growth_within(n, c, M, LIMIT), "n^1.3 must fail the check");
}

Test(bench_growth, a_cache_edge_is_not_growth)
{
    double n[M], c[M];
    sizes(n);
    /* 0.5 us a particle in the caches, 1.25 beyond 3e4: the cloth step of a205f94 read
     * 0.515 at 10^4 and 1.231 at 10^5 (doc/performance.md, "The growth exponent over the
     * largest decade") */
    for (int i = 0; i < M; i++)
        c[i] = n[i] * (n[i] < 2e4 ? 0.5e-6 : 1.25e-6);
    mb_bench_growth all = mb_bench_growth_fit(n, c, M);
    mb_bench_growth top = mb_bench_growth_top(n, c, M);
    cr_expect_gt(all.exponent, LIMIT, "every size: %.6g", all.exponent);
    cr_expect_lt(fabs(top.exponent - 1.0), 1e-12, "largest decade: %.17g", top.exponent);
    cr_expect_eq(n[M - 3], 1e5, "the largest decade starts past the edge");
    cr_expect(mb_bench_growth_within(n, c, M, LIMIT));
}

Test(bench_growth, superlinear_costs_fail)
{
    double n[M], c[M];
    sizes(n);
    for (int i = 0; i < M; i++)
        c[i] = 1e-9 * pow(n[i], 1.5);
    cr_expect_lt(fabs(mb_bench_growth_top(n, c, M).exponent - 1.5), 1e-12);
    cr_expect_not(mb_bench_growth_within(n, c, M, LIMIT));
    /* linear up to the largest decade, then n^1.3: the check sees it */
    for (int i = 0; i < M; i++)
        c[i] = n[i] * (i < M - 3 ? 1.0 : pow(n[i] / n[M - 3], 0.3));
    cr_expect_not(mb_bench_growth_within(n, c, M, LIMIT));
}

Test(bench_growth, n_log_n_reads_its_closed_form_slope)
{
    double n[M], c[M];
    sizes(n);
    for (int i = 0; i < M; i++)
        c[i] = n[i] * log(n[i]);
    /* least squares through three equally spaced points in log n: the slope is the
     * difference of the ends over their distance, 1 + ln(ln 1e6 / ln 1e5) / ln 10 */
    double expected = 1.0 + log(log(1e6) / log(1e5)) / log(10.0);
    double top = mb_bench_growth_top(n, c, M).exponent;
    cr_expect_lt(fabs(top - expected), 1e-12, "%.17g against %.17g", top, expected);
    cr_expect(mb_bench_growth_within(n, c, M, LIMIT), "n log n reads %.4f", top);
}

Test(bench_growth, two_sizes_and_fewer)
{
    const double n[2] = { 1000.0, 3162.0 }, c[2] = { 1.0, 4.0 };
    mb_bench_growth g = mb_bench_growth_top(n, c, 2);
    cr_expect_eq(g.sizes, (size_t)2);
    cr_expect_lt(fabs(g.exponent - log(4.0) / log(3.162)), 1e-12);
    cr_expect(isnan(g.error), "no residual to weigh through two points");
    cr_expect(isnan(mb_bench_growth_fit(n, c, 1).exponent));
    cr_expect_not(mb_bench_growth_within(n, c, 1, LIMIT), "no slope, no pass");
}
