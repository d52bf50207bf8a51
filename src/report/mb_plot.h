/* mb_plot.h -- plots of a report directory through gnuplot (PNG via pngcairo, and SVG).
 *
 * Per case:  CASE__convergence-QUANTITY   error at t_end against dt, log-log, one series
 *                                         per integrator: points used in the order fit
 *                                         filled, excluded points open, the fitted slope
 *                                         drawn over its range and written in the legend;
 *            CASE__work-precision         error against force evaluations per run;
 *            CASE__energy                 relative energy error against time (series/);
 *            CASE__damping                the damped displacement of node 0 and its peaks,
 *                                         for cases with damping metrics (series/).
 * Every plot is written as a gnuplot script and data files beside the images, so that a
 * reader can restyle it.  The gnuplot program is looked up in PATH, or taken from the
 * environment variable MB_GNUPLOT. */
#ifndef MB_PLOT_H
#define MB_PLOT_H

#include <stddef.h>

#include "mb_results.h"

/* Full path of the gnuplot program into buf; MB_ENOTFOUND with a message when missing. */
int mb_gnuplot_find(char *buf, size_t size);
/* Write the plots of r into out_dir (created if missing); *n_plots counts the images
 * (PNG and SVG pairs count once). */
int mb_plot_report(const mb_results *r, const char *out_dir, size_t *n_plots);
/* The file-name stem of a case's plot: "CASE__convergence-position" etc. */
void mb_plot_stem(const char *case_name, const char *kind, char *buf, size_t size);

#endif
