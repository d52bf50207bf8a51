/* mb_plot_thin.h -- the samples of a long curve worth drawing: a plot is some 800 pixels
 * wide, so of each of `bins` equal spans of time only the smallest and the largest value
 * can show.  Keeping those two samples of every span (in time order) draws the same
 * picture, every peak and trough included, from at most 2 bins + 2 samples, where a
 * stride would drop the extremes that fall between its samples. */
#ifndef MB_PLOT_THIN_H
#define MB_PLOT_THIN_H

#include <stddef.h>

/* Spans of time per curve: two samples each, about one per pixel column of the plot. */
#define MB_PLOT_BINS 400

/* Indices into (t, v), k < n, t non-decreasing, of the samples to draw, in order, into
 * keep (room for 2 bins + 2): every sample when n <= 2 bins; else the first, the last,
 * and of each span [t0 + b w, t0 + (b + 1) w), w = (t_{n-1} - t0) / bins, the samples of
 * smallest and largest v.  Returns the number written. */
size_t mb_plot_thin(const double *t, const double *v, size_t n, size_t bins, size_t *keep);

#endif
