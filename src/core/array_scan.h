/* array_scan.h -- whole-array scans: every value finite, every value +0, the largest
 * magnitude.  The two tests run at memory speed, branch-free over four independent chains
 * so that the compiler can keep several loads in flight (and vectorise); they are used by
 * the force field (forces.c) and the leap-frog step (leapfrog_common.h).  The largest
 * magnitude scales the tolerances of the divergence bound (divergence.c), the trajectory
 * checks (trajectory_check.c) and the contact solver's 3x3 solve (consolver.c); the
 * largest difference relative to it compares a benchmark's peer with the library
 * (bench_implicit.c).  Not installed. */
#ifndef MB_ARRAY_SCAN_H
#define MB_ARRAY_SCAN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The bits of a double: +0 is the only double whose bits are all 0. */
static inline uint64_t mb_double_bits(const double *a)
{
    uint64_t u;
    memcpy(&u, a, sizeof u);
    return u;
}

/* 1 when every a[k], k < count, is finite (neither NaN nor +-Inf). */
static inline int mb_all_finite(const double *a, size_t count)
{
    int f0 = 1, f1 = 1, f2 = 1, f3 = 1;
    size_t k = 0;
    for (; k + 4 <= count; k += 4) {
        f0 &= isfinite(a[k]) != 0;
        f1 &= isfinite(a[k + 1]) != 0;
        f2 &= isfinite(a[k + 2]) != 0;
        f3 &= isfinite(a[k + 3]) != 0;
    }
    for (; k < count; k++)
        f0 &= isfinite(a[k]) != 0;
    return f0 & f1 & f2 & f3;
}

/* 1 when every a[k], k < count, is +0 (not -0). */
static inline int mb_all_pos_zero(const double *a, size_t count)
{
    uint64_t b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    size_t k = 0;
    for (; k + 4 <= count; k += 4) {
        b0 |= mb_double_bits(&a[k]);
        b1 |= mb_double_bits(&a[k + 1]);
        b2 |= mb_double_bits(&a[k + 2]);
        b3 |= mb_double_bits(&a[k + 3]);
    }
    for (; k < count; k++)
        b0 |= mb_double_bits(&a[k]);
    return (b0 | b1 | b2 | b3) == 0;
}

/* max |a[k]| over k < count, 0 for count 0; a NaN is passed over (fmax, C11 F.10.9.2),
 * so an array of NaN alone gives 0. */
static inline double mb_max_abs(const double *a, size_t count)
{
    double m = 0.0;
    for (size_t k = 0; k < count; k++)
        m = fmax(m, fabs(a[k]));
    return m;
}

/* max |p[k] - q[k]| / max |q[k]| over k < count (the difference itself when q is all 0). */
static inline double mb_max_rel_diff(const double *p, const double *q, size_t count)
{
    double dmax = 0.0, qmax = 0.0;
    for (size_t k = 0; k < count; k++) {
        dmax = fmax(dmax, fabs(p[k] - q[k]));
        qmax = fmax(qmax, fabs(q[k]));
    }
    return qmax > 0.0 ? dmax / qmax : dmax;
}

#endif
