/* mb_plot.h -- plots of a report directory through gnuplot, as SVG.
 *
 * Per case:  CASE__convergence-QUANTITY   error at t_end against dt, log-log, one series
 *                                         per integrator: points used in the order fit
 *                                         filled, excluded points open, the fitted slope
 *                                         drawn over its range and written in the legend,
 *                                         and the reference slope of the expected or
 *                                         declared order (mb_reference_order.h), dashed;
 *            CASE__work-precision         error against force evaluations per run (outside
 *                                         programs: against wall time, top axis);
 *            CASE__energy, CASE__damping, rotation plots: against time (mb_plot_time.h).
 * Every plot is written as a gnuplot script and data files beside the image, so that a
 * reader can restyle it (mb_plot_script.h), and listed in plots.list (mb_plot_list.h).
 * The gnuplot program is looked up in PATH, or taken from the environment variable
 * MB_GNUPLOT. */
#ifndef MB_PLOT_H
#define MB_PLOT_H

#include <stddef.h>

#include "mb_results.h"

/* Full path of the gnuplot program into buf; MB_ENOTFOUND with a message when missing. */
int mb_gnuplot_find(char *buf, size_t size);
/* Write the plots of r into out_dir (created if missing) and out_dir/plots.list; *n_plots
 * counts them. */
int mb_plot_report(const mb_results *r, const char *out_dir, size_t *n_plots);
/* The file-name stem of a case's plot: "CASE__convergence-position" etc. */
void mb_plot_stem(const char *case_name, const char *kind, char *buf, size_t size);

#endif
