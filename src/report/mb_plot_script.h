/* mb_plot_script.h -- writing gnuplot scripts and drawing them in one batch.
 *
 * Every plot is a script STEM.gp and its data STEM.dat in the plot directory; the script
 * draws STEM.svg (or, run as `gnuplot -e 'fmt="png"' STEM.gp`, STEM.png) and starts with
 * `reset`, so that one gnuplot process can draw every script in turn: the scripts are
 * queued while they are written and drawn at the end by a few gnuplot processes (one per
 * processor), not one process per plot.
 *
 * Styles are chosen for print and grey scale: every integrator has its own point shape
 * and dash pattern besides its colour, used points are filled and excluded ones open. */
#ifndef MB_PLOT_SCRIPT_H
#define MB_PLOT_SCRIPT_H

#include <stddef.h>
#include <stdio.h>

/* the scripts written so far and the first error */
typedef struct mb_plot_batch {
    const char *dir;
    char **stems;
    size_t n, cap;
    int status;
} mb_plot_batch;

/* how a series is drawn: REFERENCE a thin dashed line (reference slopes); ENVELOPE a
 * heavier line; MARKED a line with a point every few samples, so that long series stay
 * apart in grey scale */
enum { MB_GP_FILLED, MB_GP_OPEN, MB_GP_LINES, MB_GP_LINESPOINTS, MB_GP_ENVELOPE, MB_GP_MARKED,
       MB_GP_REFERENCE, MB_GP_FIT };

/* s inside a gnuplot double-quoted string in enhanced text mode */
void mb_gp_text(FILE *f, const char *s);
/* One clause of the plot command: source (a file), select ("index 3"), the style of
 * series k, its legend title (NULL: none), the axes ("x1y1", "x2y1"); every: with MARKED,
 * a point every every-th sample. */
void mb_gp_clause(FILE *g, int *first, const char *source, const char *select, size_t k,
                  int how, const char *title, const char *axes, size_t every);

/* Open STEM.dat and STEM.gp and write the script's header (terminal, title, labels);
 * key_rows, the legend's entries, makes room below the plot so that the plot keeps its
 * height however long the legend.  MB_SUCCESS, or b->status set and both NULL. */
int mb_gp_open(mb_plot_batch *b, const char *stem, const char *title, const char *xlabel,
               const char *ylabel, size_t key_rows, FILE **d, FILE **g);
/* A log axis ("x", "y", "x2") over the data [lo, hi] (0 < lo <= hi): the range the data
 * span and 4 % of it on either side, no further (never out to the next decade); decade
 * tics 10^k when two or more decades lie inside, else tics at 1, 2 and 5 times powers of
 * ten. */
void mb_gp_log_axis(FILE *g, const char *axis, double lo, double hi);
/* The same with tics at the given values (the time steps of a convergence plot) when
 * fewer than two decades lie inside and there are at most 10 of them. */
void mb_gp_log_axis_at(FILE *g, const char *axis, double lo, double hi, const double *tics,
                       size_t n_tics);
/* A linear axis fitted to the data [lo, hi], 3 % of the span on either side. */
void mb_gp_linear_axis(FILE *g, const char *axis, double lo, double hi);
/* Close d and g (either may be NULL) checking every write, and queue the plot when draw
 * and nothing failed; 1 when queued. */
int mb_gp_close(mb_plot_batch *b, FILE *g, FILE *d, const char *stem, int draw);
/* Draw every queued script with gnuplot (its messages in DIR/gnuplot.log). */
int mb_gp_draw_all(mb_plot_batch *b, const char *gnuplot);
void mb_gp_batch_free(mb_plot_batch *b);

#endif
