/* mb_ode_reference.h -- GSL ODE reference: the system's first-order ODE (mb_ref_rhs.h)
 * driven by gsl_odeiv2_driver with the explicit embedded Runge-Kutta Prince-Dormand
 * 8(9) pair (rk8pd) at tight tolerances.
 *
 * Error estimate: the run is made at two tolerances (coarse and fine, relative and
 * absolute alike, defaults 1e-12 and 1e-14); the fine solution is returned and the max
 * abs difference between the two over every state number (x, v, q, L) is the estimate.
 * It bounds the fine run's error as long as tightening the tolerance 100-fold reduces
 * the error, which holds above the round-off floor (about 1e-15 relative). */
#ifndef MB_ODE_REFERENCE_H
#define MB_ODE_REFERENCE_H

#include "mb_system.h"

typedef struct mb_ode_reference_opts {
    double tol_coarse;   /* default 1e-12 */
    double tol_fine;     /* default 1e-14 */
} mb_ode_reference_opts;

typedef struct mb_ode_reference_stats {
    unsigned long rhs_evals;   /* both runs */
    double error_estimate;     /* max over the output times */
} mb_ode_reference_stats;

/* Integrate sys (initial state at sys->t, left unchanged) to each of the ascending times
 * times[0..n-1] (>= sys->t) and write the on-step state into outs[i] (stores with the
 * node count of sys).  err[i] (may be NULL) receives the estimate at times[i].  opts
 * and stats may be NULL. */
int mb_ode_reference(const mb_system *sys, size_t n, const double *times, mb_nodes *const *outs,
                     double *err, const mb_ode_reference_opts *opts,
                     mb_ode_reference_stats *stats);

#endif
