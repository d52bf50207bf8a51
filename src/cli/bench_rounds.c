/* bench_rounds.c -- medians of interleaved rounds and the batch of a round (bench_rounds.h). */
#include "bench_rounds.h"

#include <math.h>
#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double mb_bench_median(const double *v, size_t n, double *scratch)
{
    if (n == 0)
        return NAN;
    for (size_t k = 0; k < n; k++) {
        if (isnan(v[k]))
            return NAN;
        scratch[k] = v[k];
    }
    qsort(scratch, n, sizeof *scratch, compare_doubles);
    return n % 2 ? scratch[n / 2] : 0.5 * (scratch[n / 2 - 1] + scratch[n / 2]);
}

double mb_bench_median_ratio(const double *num, const double *den, size_t n, double *scratch)
{
    for (size_t k = 0; k < n; k++)
        scratch[n + k] = num[k] / den[k];
    return mb_bench_median(&scratch[n], n, scratch);
}

long mb_bench_batch_steps(double t, double seconds)
{
    if (!(t > 0.0) || t >= seconds)
        return 1;
    return (long)ceil(seconds / t);
}
