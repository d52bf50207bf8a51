/* bench_growth.c -- the growth exponent of a step benchmark's cost (see bench_growth.h). */
#include "bench_growth.h"

#include <gsl/gsl_fit.h>
#include <math.h>

/* at most the sizes a benchmark runs (10^3 .. 10^8 at two a decade) */
#define GROWTH_MAX_SIZES 64

mb_bench_growth mb_bench_growth_fit(const double *n, const double *cost, size_t m)
{
    mb_bench_growth g = { NAN, NAN, m };
    if (m < 2 || m > GROWTH_MAX_SIZES)
        return g;
    /* x[i], y[i] for every i < m, m >= 2 here: a do-while says so to the compiler, which
     * otherwise splits the guard above from the rest of the function (partial inlining)
     * and, no longer knowing m >= 1, warns that x and y may reach the fit unwritten */
    double x[GROWTH_MAX_SIZES], y[GROWTH_MAX_SIZES];
    size_t i = 0;
    do {
        x[i] = log(n[i]);
        y[i] = log(cost[i]);
    } while (++i < m);
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    g.exponent = c1;
    g.error = m > 2 ? sqrt(cov11) : NAN;     /* two points leave no residual to weigh */
    return g;
}

mb_bench_growth mb_bench_growth_top(const double *n, const double *cost, size_t m)
{
    size_t k = m < MB_BENCH_GROWTH_TOP ? m : MB_BENCH_GROWTH_TOP;
    return mb_bench_growth_fit(n + (m - k), cost + (m - k), k);
}

int mb_bench_growth_within(const double *n, const double *cost, size_t m, double limit)
{
    return mb_bench_growth_top(n, cost, m).exponent <= limit;
}
