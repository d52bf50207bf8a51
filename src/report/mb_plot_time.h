/* mb_plot_time.h -- plots against time, from the time series of the runs
 * (mb_series_rows.h), each at the finest finished time step of each integrator:
 *   CASE__energy            |E(t) - E0| / S, log axis (S: the energy content at t = 0,
 *                           src/metrics/energy_track.c);
 *   CASE__damping           the damped displacement of node 0, its peaks and their fitted
 *                           exponential envelope (cases with damping metrics);
 *   CASE__angmom-error, CASE__angmom-direction, CASE__quat-norm, CASE__flip
 *                           rotation invariants (cases whose runs rotate).
 * Long series are thinned for drawing (mb_plot_thin.h). */
#ifndef MB_PLOT_TIME_H
#define MB_PLOT_TIME_H

#include <stddef.h>

#include "mb_plot_script.h"
#include "mb_results.h"

/* Write the time plots of case c into the batch; returns the number queued. */
size_t mb_plot_time(const mb_results *r, const char *c, mb_plot_batch *b);

/* The runs of (case, integrator) in report order, and the index of the finest one that
 * finished (-1: none). */
long mb_plot_finest_run(const mb_results *r, const char *c, const char *spec, double *dt);

#endif
