/* mb_plot_list.h -- plots.list, the list of the plots of a plot directory and of the
 * report they were drawn from, so that `report` uses the plots `run --plots` drew instead
 * of drawing them again.  Line 1:
 *     # motionbench plots of a report with fingerprint HEX
 * then one plot (file-name stem) per line.  The fingerprint is the SHA-256 of the build
 * id and of runs.csv, metrics.csv, checks.csv and cases.csv of the report (an absent file
 * counts as empty): plots of other results, or of another build, are drawn anew. */
#ifndef MB_PLOT_LIST_H
#define MB_PLOT_LIST_H

#include <stddef.h>

#include "mb_sha256.h"

int mb_plot_fingerprint(const char *report_dir, char hex[MB_SHA256_HEX]);
/* Write plot_dir/plots.list (atomically). */
int mb_plot_list_write(const char *plot_dir, const char *hex, char *const *stems, size_t n);
/* The stems of plot_dir/plots.list when it was drawn from a report of fingerprint hex:
 * MB_SUCCESS; MB_ENOTFOUND (nothing recorded) when the list is missing or is of other
 * results.  Free with mb_plot_list_free. */
int mb_plot_list_read(const char *plot_dir, const char *hex, char ***stems, size_t *n);
void mb_plot_list_free(char **stems, size_t n);
/* Remove the files (.svg, .gp, .dat) of the plots the old plot_dir/plots.list names, of
 * whatever results, that are not among the n stems drawn now: a plot that cannot be drawn
 * any more (its series are gone) does not linger beside the new ones. */
void mb_plot_list_remove_stale(const char *plot_dir, char *const *stems, size_t n);

#endif
