/* bench_growth.h -- how a step benchmark's cost grows with its size: the exponent p of
 * cost ~ n^p, the least-squares slope of log(cost) against log(n) (gsl_fit_linear), with
 * its standard error.
 *
 * A linear-cost claim (DESIGN 4.1) is a claim about large n.  Over sizes that span the
 * caches a fit reads the step from the caches to memory as growth: a step that costs
 * twice as much a particle once its vectors leave the last-level cache fits p = 1.15 and
 * more over 10^3 .. 10^6 although its cost a particle is flat on either side.  The check
 * therefore reads the slope over the largest decade of sizes (the largest
 * MB_BENCH_GROWTH_TOP sizes at two sizes a decade), where an n log n cost still reads
 * 1 + 1/ln n (1.08 at 10^5 .. 10^6) and an n^1.5 cost 1.5; the slope over every size is
 * printed beside it. */
#ifndef MB_BENCH_GROWTH_H
#define MB_BENCH_GROWTH_H

#include <stddef.h>

/* the largest decade at two sizes a decade: three sizes, a factor 10 apart at the ends */
#define MB_BENCH_GROWTH_TOP 3

typedef struct {
    double exponent;   /* the slope p; NaN below two sizes */
    double error;      /* its standard error; NaN below three sizes */
    size_t sizes;      /* the sizes fitted */
} mb_bench_growth;

/* The slope over sizes n[0..m) with costs cost[0..m) (both > 0). */
mb_bench_growth mb_bench_growth_fit(const double *n, const double *cost, size_t m);

/* The slope over the largest decade: the last min(m, MB_BENCH_GROWTH_TOP) sizes (n in
 * increasing order). */
mb_bench_growth mb_bench_growth_top(const double *n, const double *cost, size_t m);

/* 1 when the largest decade's slope is at most limit (0 for a NaN slope). */
int mb_bench_growth_within(const double *n, const double *cost, size_t m, double limit);

#endif
