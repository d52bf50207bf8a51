/* implicit_euler.c -- backward Euler linearised once per step (Baraff & Witkin,
 * "Large steps in cloth simulation", SIGGRAPH 1998), seed 004 with damping restored:
 *   (M - h C - h^2 K) v+ = (M - h C) v + h f(x, v),   x+ = x + h v+,
 * K = df/dx, C = df/dv.  For f = m g - k x - D v on one particle this is the seed's
 *   (1 + hD/m + h^2 k/m) v+ = v + h g - (h/m) k x.
 * Exact backward Euler for linear forces; on the undamped oscillator it multiplies the
 * energy 1/2 (v^2 + w^2 x^2) by exactly 1/(1 + h^2 w^2) per step.
 * Options: solver=auto|dense|gauss|sparse and the Krylov controls (mb_implicit.h); the
 * stats hook reports Krylov iterations (GMRES: restart cycles) as linear_iterations. */
#include "mb_implicit.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v+ = v on the fixed degrees of freedom of node i (zero acceleration, exactly) */
static void ieuler_fix_node(const mb_nodes *s, size_t i, double *restrict v_new)
{
    for (size_t k = 3 * i; k < 3 * i + 3; k++)
        if (mb_linsys_fixed(s, k))
            v_new[k] = s->v[k];
}

/* x+ = x + v+ h over count values; returns the sum of (x+ - x+) + (v+ - v+) over them,
 * which is +0 when every value is finite and NaN otherwise (y - y is +0 for a finite y,
 * NaN for a NaN or +-Inf), in whatever order its terms are added.  With SSE2 two values
 * a lane, each x+ by the very operations of the scalar loop (a multiply, then an add),
 * the terms summed in two lanes, then the lanes' sums added. */
static double ieuler_drift(const double *restrict x, const double *restrict v_new, double h,
                           double *restrict x_new, size_t count)
{
    size_t k = 0;
    double nonfinite = 0.0;
#if defined(__SSE2__)
    const __m128d hv = _mm_set1_pd(h);
    __m128d acc = _mm_setzero_pd();
    for (; k + 2 <= count; k += 2) {
        const __m128d v = _mm_loadu_pd(&v_new[k]);
        const __m128d y = _mm_add_pd(_mm_loadu_pd(&x[k]), _mm_mul_pd(v, hv));
        _mm_storeu_pd(&x_new[k], y);
        acc = _mm_add_pd(acc, _mm_add_pd(_mm_sub_pd(y, y), _mm_sub_pd(v, v)));
    }
    nonfinite = _mm_cvtsd_f64(acc) + _mm_cvtsd_f64(_mm_unpackhi_pd(acc, acc));
#endif
    for (; k < count; k++) {
        x_new[k] = x[k] + v_new[k] * h;
        nonfinite += (x_new[k] - x_new[k]) + (v_new[k] - v_new[k]);
    }
    return nonfinite;
}

/* The end of a double step: v+ = v on fixed degrees of freedom, on the nodes the assembly
 * listed (nfixed of them, mb_implicit_solver_fixed_nodes) or, when it listed none
 * (nfixed = SIZE_MAX), on every node found fixed; then x+ = x + h v+ in one pass
 * (ieuler_drift); 0 when a value of x+ or v+ is not finite (no branch per value).  The
 * operations of the MPFR template's loop, so the twins agree bit for bit. */
static int ieuler_advance(const mb_nodes *s, double h, double *restrict v_new,
                          double *restrict x_new, const size_t *fixed, size_t nfixed)
{
    if (nfixed == SIZE_MAX) {
        for (size_t i = 0; i < s->n; i++)
            if (mb_linsys_node_fixed_inline(s, i))
                ieuler_fix_node(s, i, v_new);
    } else {
        for (size_t f = 0; f < nfixed; f++)
            ieuler_fix_node(s, fixed[f], v_new);
    }
    return ieuler_drift(s->x, v_new, h, x_new, 3 * s->n) == 0.0;
}

/* The end of a double step whose solve formed x+ = x + v+ h from its own v+ and summed
 * x+ - x+ over them into nonfinite (mb_implicit_solver_solve_drift; it is given the
 * listed fixed nodes only, nfixed < SIZE_MAX): v+ = v on the listed nodes' fixed degrees
 * of freedom and their x+ formed again from it (ieuler_drift), so that every value is
 * the one ieuler_advance gives.  Finite as ieuler_advance finds it: where every x+ of the
 * solve was finite (so was its v+), the listed nodes' x+ and v+ decide; else
 * ieuler_advance's whole pass does (a listed node's x+ may have changed). */
static int ieuler_settle(const mb_nodes *s, double h, double *restrict v_new,
                         double *restrict x_new, const size_t *fixed, size_t nfixed,
                         double nonfinite)
{
    if (!(nonfinite == 0.0))
        return ieuler_advance(s, h, v_new, x_new, fixed, nfixed);
    double bad = 0.0;
    for (size_t f = 0; f < nfixed; f++) {
        size_t i = fixed[f];
        ieuler_fix_node(s, i, v_new);
        bad += ieuler_drift(&s->x[3 * i], &v_new[3 * i], h, &x_new[3 * i], 3);
    }
    return bad == 0.0;
}

#define BASE_DOUBLE
#include "templates_on.h"
#include "scheme_util_source.c"
#include "implicit_euler_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "scheme_util_source.c"
#include "implicit_euler_source.c"
#include "templates_off.h"
#undef BASE_MPFR

static const mb_option_spec ieuler_options[] = {
    MB_IMPLICIT_SOLVER_OPTIONS,
    MB_OPTION_END
};

const mb_stepper_type mb_stepper_implicit_euler = {
    .name = "implicit-euler",
    .summary = "(M - hC - h^2 K) v+ = (M - hC) v + h f(x, v);  x+ = x + h v+  (K = df/dx, C = df/dv)",
    .reference = "seed 004 (implicit Euler); Baraff & Witkin, Large steps in cloth simulation, SIGGRAPH 1998",
    .order = 1,
    .flags = MB_STEPPER_IMPLICIT,
    .options = ieuler_options,
    .alloc = ieuler_alloc,
    .step = ieuler_step,
    .stats = ieuler_stats,
    .free = ieuler_free,
    .alloc_mpfr = ieuler_mpfr_alloc,
    .step_mpfr = ieuler_mpfr_step,
    .free_mpfr = ieuler_mpfr_free,
};
