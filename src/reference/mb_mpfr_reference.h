/* mb_mpfr_reference.h -- high-precision reference in MPFR: Gragg-Bulirsch-Stoer
 * extrapolation on the system's first-order ODE (mb_ref_rhs.h), independent of every
 * scheme under test.
 *
 * Method (Hairer, Norsett & Wanner, Solving ODEs I, II.9): on a macro step H the modified
 * midpoint rule with n = 2, 4, 6, ... substeps (Gragg's smoothing) has an error expansion
 * in even powers of h = H/n, so Aitken-Neville polynomial extrapolation to h = 0,
 *   T[j][k] = T[j][k-1] + (T[j][k-1] - T[j-1][k-1]) n_{j-k}^2 / (n_j^2 - n_{j-k}^2),
 * raises the order by two per column; the coefficients are integer ratios.
 * Pass 1 chooses the macro steps adaptively (a step is accepted at the first column k
 * where max_i |T[k][k] - T[k][k-1]| / (1 + |T[k][k]_i|) <= tol, tol = 2^(24 - bits); the
 * step is halved when no column up to max_columns converges) and records the mesh and
 * the column of every step.  Pass 2 repeats the run with every macro step halved and the
 * same column (fixed order 2k per step, so its error is smaller by about 2^(2k)), and is
 * the returned solution.  The error estimate is the max abs difference of the two passes
 * over every state number (x, v, q, L): step halving, honest when pass 2 is the better one.
 * The engine works with 32 + 2 max_columns guard bits (rounding in the extrapolation grows
 * with the column), so its result is accurate to the requested precision.
 * Consistency check (on by default): extrapolation can step over a short event it never
 * samples -- a collision lasting 1 ms inside a macro step of 0.5 s converges beautifully
 * to free flight.  Every result is therefore compared with the double rk8pd reference
 * (mb_ode_reference.h, tolerances 1e-10 and 1e-12, cheap next to MPFR): a difference above
 * max(100 x its estimate, 1e-8 (1 + |y|)) in any state number fails with MB_EFAILED
 * ("not smooth?").  Non-smooth systems (contacts) are then refused by this check or by the
 * extrapolation not converging at a kink it samples; an event that rk8pd steps over too
 * goes undetected, so non-smooth problems need their closed forms.
 * Time enters the force field as a double (mb_forces_mpfr_eval), which is exact for
 * autonomous force fields. */
#ifndef MB_MPFR_REFERENCE_H
#define MB_MPFR_REFERENCE_H

#include "mb_system.h"

typedef struct mb_mpfr_reference_opts {
    long bits;             /* working precision, >= 53 (references use >= 113); default 256 */
    int target_columns;    /* columns the step control aims at (0: bits / 7, in [8, 52]) */
    int max_columns;       /* columns before a step is rejected (0: target + 12) */
    double h0;             /* first macro step (0: the whole span) */
    int no_crosscheck;     /* 1: skip the rk8pd consistency check (default: check) */
} mb_mpfr_reference_opts;

typedef struct mb_mpfr_reference_stats {
    unsigned long macro_steps, rejected, rhs_evals;
    double tolerance;
    double error_estimate;  /* max over the output times */
    double crosscheck;      /* max |mpfr - rk8pd| / allowance (<= 1 passes; 0 if skipped) */
} mb_mpfr_reference_stats;

/* Integrate sys (state at sys->t) to the ascending times[0..n-1] (>= sys->t); outs[i] are
 * MPFR stores with the node count of sys (any precision: values are rounded into them);
 * err[i] (may be NULL) receives the estimate at times[i]. opts, stats may be NULL. */
int mb_mpfr_reference(const mb_system *sys, size_t n, const double *times,
                      mb_nodes_mpfr *const *outs, double *err,
                      const mb_mpfr_reference_opts *opts, mb_mpfr_reference_stats *stats);

/* The same engine on a caller's autonomous ODE y' = f(y) of dimension dim (the MPFR
 * impact reference's smooth phases, mb_impact_reference.h): y (at the precision of its
 * numbers, which should carry the guard bits above) is carried from t0 to t1 in place by
 * pass 1's adaptive macro steps at tolerance 2^(24 - bits); no second pass, no estimate,
 * no cross-check.  f returns MB_SUCCESS or an error that stops the span.  evals (may be
 * NULL) is incremented by the evaluations made. */
typedef int (*mb_mpfr_ode_rhs)(void *ctx, const __mpfr_struct *y, __mpfr_struct *dy);
int mb_mpfr_ode_span(mb_mpfr_ode_rhs f, void *ctx, size_t dim, long bits, __mpfr_struct *y,
                     double t0, double t1, unsigned long *evals);

#endif
