/* bench_rounds.h -- the verdict of interleaved rounds: a benchmark times its codes in turn,
 * round after round, each over a batch of steps, and reads the median over the rounds of
 * each time and of each ratio of two codes timed in the same round.  A load that comes and
 * goes meets the codes of one round alike, and one disturbed round moves no median. */
#ifndef MB_BENCH_ROUNDS_H
#define MB_BENCH_ROUNDS_H

#include <stddef.h>

/* The median of v[0..n): the middle value of the sorted values, the mean of the two middle
 * ones when n is even; NAN when n = 0 or a value is NAN.  scratch: room for n values. */
double mb_bench_median(const double *v, size_t n, double *scratch);

/* The median of num[k] / den[k] over k < n (as mb_bench_median); scratch: room for 2 n
 * values. */
double mb_bench_median_ratio(const double *num, const double *den, size_t n, double *scratch);

/* Steps in a batch of at least `seconds` when one step takes t seconds: ceil(seconds / t),
 * and 1 when a step takes that long or t is not a positive time. */
long mb_bench_batch_steps(double t, double seconds);

#endif
