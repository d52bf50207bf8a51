/* plot_time.c -- plots against time from the runs' time series (mb_plot_time.h). */
#include "mb_plot.h"
#include "mb_plot_thin.h"
#include "mb_plot_time.h"
#include "mb_series_rows.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long mb_plot_finest_run(const mb_results *r, const char *c, const char *spec, double *dt)
{
    const mb_csv_table *t = r->runs;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator"), cd = mb_csv_col(t, "dt");
    int cs = mb_csv_col(t, "status");
    long pick = -1, j = 0;    /* the finest step that finished: the run closest to the motion */
    for (size_t k = 0; k < t->n_rows; k++) {
        if (strcmp(mb_csv_cell(t, k, cc), c) || strcmp(mb_csv_cell(t, k, ci), spec))
            continue;
        double h = mb_results_number(mb_csv_cell(t, k, cd));
        if (!strcmp(mb_csv_cell(t, k, cs), "ok") && (pick < 0 || h < *dt)) {
            pick = j;
            *dt = h;
        }
        j++;
    }
    return pick;
}

/* 1 when (case, integrator) has a metric whose name starts with prefix at some time step */
static int has_metric(const mb_results *r, const char *c, const char *spec, const char *prefix)
{
    const mb_csv_table *t = r->metrics;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator"), cm = mb_csv_col(t, "metric");
    size_t len = strlen(prefix);
    for (size_t k = 0; k < t->n_rows; k++)
        if (!strncmp(mb_csv_cell(t, k, cm), prefix, len) && !strcmp(mb_csv_cell(t, k, cc), c)
            && !strcmp(mb_csv_cell(t, k, ci), spec))
            return 1;
    return 0;
}

/* The series of the finest finished run of (case, integrator) when it has the gate metric
 * (NULL: no gate): 1 found (rows and dt set), 0 none, -1 error */
static int finest_series(const mb_results *r, const char *c, const char *spec,
                         const char *gate, mb_series_rows *rows, double *dt)
{
    memset(rows, 0, sizeof *rows);
    if (gate && !has_metric(r, c, spec, gate))
        return 0;
    long j = mb_plot_finest_run(r, c, spec, dt);
    return j < 0 ? 0 : mb_series_rows_get(r, c, spec, (size_t)j, rows);
}

/* the extent of a plot's data: time and values */
typedef struct extent { double t0, t1, lo, hi; } extent;

static void grow(extent *e, double t, double v)
{
    e->t0 = fmin(e->t0, t);
    e->t1 = fmax(e->t1, t);
    e->lo = fmin(e->lo, v);
    e->hi = fmax(e->hi, v);
}

/* Write the block (t, v) of a curve, thinned for drawing (mb_plot_thin.h), 9 significant
 * digits (far below a pixel).  Returns the samples written (0: none, no block). */
static size_t curve_block(FILE *d, const double *t, const double *v, size_t n, extent *e)
{
    size_t *keep = malloc((2 * MB_PLOT_BINS + 2) * sizeof *keep);
    if (keep == NULL || n == 0) {
        free(keep);
        return 0;
    }
    size_t m = mb_plot_thin(t, v, n, MB_PLOT_BINS, keep);
    for (size_t k = 0; k < m; k++) {
        fprintf(d, "%.9g %.9g\n", t[keep[k]], v[keep[k]]);
        grow(e, t[keep[k]], v[keep[k]]);
    }
    fprintf(d, "\n\n");
    free(keep);
    return m;
}

/* the axes of a time plot: time from the first to the last sample, values fitted */
static void time_axes(FILE *g, const extent *e, int logy)
{
    if (e->t1 > e->t0)
        fprintf(g, "set xrange [%.17g:%.17g]\n", e->t0, e->t1);
    if (logy)
        mb_gp_log_axis(g, "y", e->lo, e->hi);
    else
        mb_gp_linear_axis(g, "y", e->lo, e->hi);
}

/* ---- one column against time ---- */

typedef struct series_plot {
    const char *kind, *column, *gate, *what, *ylabel;
    int logy;   /* log axis of |value|: only non-zero samples are drawn */
} series_plot;

static const series_plot series_plots[5] = {
    { "energy", "energy_rel_error", NULL, "energy error |E(t) - E0| / S",
      "|E(t) - E_0| / S,  S = energy content at t = 0: kinetic + |each potential| (1)", 1 },
    { "angmom-error", "angmom_rel_error", "angmom.", "relative angular-momentum error",
      "relative angular-momentum error |L(t) - L(0)| / |L(0)| (1)", 1 },
    { "angmom-direction", "angmom_direction_error", "angmom.",
      "angular-momentum direction error", "angle between L(t) and L(0) (rad)", 1 },
    { "quat-norm", "quat_norm_error_max", "quat.norm_error_max",
      "quaternion norm error before normalisation",
      "largest | |q| - 1 | up to t, before normalisation (1)", 1 },
    { "flip", "omega_body_mid", "rotation.flip_period",
      "intermediate-axis body angular velocity, the component that flips",
      "body-frame angular velocity of node 0, intermediate axis (rad/T)", 0 },
};

/* markers along a series: about this many per curve */
#define MARKS_PER_CURVE 15

/* the block of one run's column: finite samples, |v| > 0 on a log axis */
static size_t column_block(FILE *d, const mb_series_rows *s, const series_plot *sp,
                           extent *e)
{
    int col = mb_series_column_index(sp->column);
    double *t = malloc((s->n + 1) * sizeof *t), *v = malloc((s->n + 1) * sizeof *v);
    size_t n = 0, m = 0;
    if (t && v && col >= 0)
        for (size_t k = 0; k < s->n; k++) {
            double x = mb_series_value(&s->rows[k], (size_t)col);
            if (sp->logy)
                x = fabs(x);
            if (isfinite(x) && (!sp->logy || x > 0)) {
                t[n] = s->rows[k].t;
                v[n++] = x;
            }
        }
    m = curve_block(d, t, v, n, e);
    free(t);
    free(v);
    return m;
}

static int plot_column(const mb_results *r, const char *c, const series_plot *sp,
                       mb_plot_batch *b)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    char stem[512], source[600], select[32], legend[450], title[600];
    mb_plot_stem(c, sp->kind, stem, sizeof stem);
    snprintf(source, sizeof source, "%s.dat", stem);
    snprintf(title, sizeof title, "%s: %s (finest dt of each integrator)", c, sp->what);
    FILE *d = NULL, *g = NULL;
    int first = 1, next = 0;
    extent e = { INFINITY, -INFINITY, INFINITY, -INFINITY };
    char *clauses = NULL;     /* the plot command, after the axes it needs */
    size_t clauses_size = 0;
    FILE *pc = open_memstream(&clauses, &clauses_size);
    for (size_t i = 0; pc && specs && i < ni && b->status == MB_SUCCESS; i++) {
        double dt;
        mb_series_rows s;
        int found = finest_series(r, c, specs[i], sp->gate, &s, &dt);
        if (found < 0) {
            b->status = mb_last_error_code();
            break;
        }
        if (found == 0)
            continue;
        if (g == NULL && mb_gp_open(b, stem, title, "time t (T)", sp->ylabel, ni, &d, &g)
            != MB_SUCCESS) {
            mb_series_rows_free(&s);
            break;
        }
        size_t rows = column_block(d, &s, sp, &e);
        mb_series_rows_free(&s);
        if (rows == 0)      /* nothing to draw (e.g. exactly 0 at every sample, log axis) */
            continue;
        snprintf(legend, sizeof legend, "%s, dt = %.4g", specs[i], dt);
        snprintf(select, sizeof select, "index %d", next++);
        mb_gp_clause(pc, &first, source, select, i, MB_GP_MARKED, legend, NULL,
                     rows / MARKS_PER_CURVE + 1);
    }
    free(specs);
    if (pc)
        fclose(pc);
    if (g && !first) {
        time_axes(g, &e, sp->logy);
        fputs(clauses, g);
    }
    free(clauses);
    return mb_gp_close(b, g, d, stem, !first);
}

/* ---- damping: the signal and its envelope ---- */

/* The envelope of the peaks (t_k, a_k): the least-squares line through (t_k, ln a_k),
 * a(t) = exp(c0 + c1 t) = A e^{-lambda t}, lambda = -c1 (the exponential decay of a
 * viscously damped oscillator, a(t) = A e^{-zeta omega_n t}); written as a block of 101
 * points over [t0, t1].  Returns lambda, NaN with fewer than 2 peaks. */
static double envelope_fit(FILE *d, const double *pt, const double *pa, size_t n, double t0,
                           double t1)
{
    if (n < 2)
        return NAN;
    double *la = malloc(n * sizeof *la), c0, c1, cov00, cov01, cov11, sumsq;
    if (la == NULL)
        return NAN;
    for (size_t k = 0; k < n; k++)
        la[k] = log(pa[k]);
    int st = gsl_fit_linear(pt, 1, la, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    free(la);
    if (st != GSL_SUCCESS)
        return NAN;
    for (int k = 0; k <= 100; k++) {
        double t = t0 + (t1 - t0) * k / 100.0;
        fprintf(d, "%.17g %.17g\n", t, exp(c0 + c1 * t));
    }
    fprintf(d, "\n\n");
    return -c1;
}

/* the coordinate of node 0 that moves most (0, 1, 2) */
static int moving_axis(const mb_series_rows *s)
{
    int best = 0;
    double span = -1.0;
    for (int a = 0; a < 3; a++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t k = 0; k < s->n; k++) {
            lo = fmin(lo, s->rows[k].x[a]);
            hi = fmax(hi, s->rows[k].x[a]);
        }
        if (hi - lo > span) {
            span = hi - lo;
            best = a;
        }
    }
    return best;
}

/* Write blocks: the damped signal (thinned for drawing), its positive peaks (local maxima
 * of every sample), and (with 2 peaks or more) the fitted exponential envelope of the
 * peaks (*lambda its decay rate, else NaN).  Returns the number of peaks, -1 when out of
 * memory. */
static int damping_data(FILE *d, const mb_series_rows *s, double *lambda, extent *e)
{
    *lambda = NAN;
    int a = moving_axis(s);
    double *t = malloc((s->n + 1) * sizeof *t), *v = malloc((s->n + 1) * sizeof *v);
    double *pt = malloc((s->n + 1) * sizeof *pt), *pa = malloc((s->n + 1) * sizeof *pa);
    if (t == NULL || v == NULL || pt == NULL || pa == NULL) {
        free(t); free(v); free(pt); free(pa);
        return -1;
    }
    size_t peaks = 0;
    for (size_t k = 0; k < s->n; k++) {
        t[k] = s->rows[k].t;
        v[k] = s->rows[k].x[a];
    }
    for (size_t k = 1; k + 1 < s->n; k++)
        if (v[k] > 0 && v[k] > v[k - 1] && v[k] >= v[k + 1]) {
            pt[peaks] = t[k];
            pa[peaks++] = v[k];
        }
    curve_block(d, t, v, s->n, e);
    for (size_t k = 0; k < peaks; k++)
        fprintf(d, "%.17g %.17g\n", pt[k], pa[k]);
    fprintf(d, "\n\n");
    if (s->n > 0)
        *lambda = envelope_fit(d, pt, pa, peaks, t[0], t[s->n - 1]);
    free(t); free(v); free(pt); free(pa);
    return (int)peaks;
}

static int plot_damping(const mb_results *r, const char *c, mb_plot_batch *b)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    char stem[512], source[600], select[32], legend[450], title[600];
    mb_plot_stem(c, "damping", stem, sizeof stem);
    snprintf(source, sizeof source, "%s.dat", stem);
    snprintf(title, sizeof title, "%s: damped displacement of node 0, its peaks and their "
             "fitted exponential envelope", c);
    FILE *d = NULL, *g = NULL, *pc;
    int first = 1, next = 0;
    extent e = { INFINITY, -INFINITY, INFINITY, -INFINITY };
    char *clauses = NULL;
    size_t clauses_size = 0;
    pc = open_memstream(&clauses, &clauses_size);
    for (size_t i = 0; pc && specs && i < ni && b->status == MB_SUCCESS; i++) {
        double dt, lambda;
        mb_series_rows s;
        int found = finest_series(r, c, specs[i], "damping.", &s, &dt);
        if (found < 0)
            b->status = mb_last_error_code();
        if (found <= 0)
            continue;
        if (g == NULL && mb_gp_open(b, stem, title, "time t (T)", "displacement of node 0 "
                                    "along its axis of largest motion (L)", 3 * ni, &d, &g)
                         != MB_SUCCESS) {
            mb_series_rows_free(&s);
            break;
        }
        int peaks = damping_data(d, &s, &lambda, &e);
        mb_series_rows_free(&s);
        if (peaks < 0) {
            b->status = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
            break;
        }
        snprintf(legend, sizeof legend, "%s, dt = %.4g: displacement", specs[i], dt);
        snprintf(select, sizeof select, "index %d", next++);
        mb_gp_clause(pc, &first, source, select, i, MB_GP_LINES, legend, NULL, 1);
        snprintf(legend, sizeof legend, "%s: peaks (%d)", specs[i], peaks);
        snprintf(select, sizeof select, "index %d", next++);
        mb_gp_clause(pc, &first, source, select, i, MB_GP_FILLED, legend, NULL, 1);
        if (isfinite(lambda)) {
            snprintf(legend, sizeof legend, "%s: fitted envelope A exp(-λ t), λ = %.4g /T",
                     specs[i], lambda);
            snprintf(select, sizeof select, "index %d", next++);
            mb_gp_clause(pc, &first, source, select, i, MB_GP_ENVELOPE, legend, NULL, 1);
        }
    }
    free(specs);
    if (pc)
        fclose(pc);
    if (g && !first) {
        time_axes(g, &e, 0);
        fputs(clauses, g);
    }
    free(clauses);
    return mb_gp_close(b, g, d, stem, !first);
}

/* 1 when some integrator of the case rotates (metrics.csv holds quat.norm_error_max only
 * for runs that rotate) */
static int case_rotates(const mb_results *r, const char *c)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    int yes = 0;
    for (size_t i = 0; specs && i < ni && !yes; i++)
        yes = has_metric(r, c, specs[i], "quat.norm_error_max");
    free(specs);
    return yes;
}

size_t mb_plot_time(const mb_results *r, const char *c, mb_plot_batch *b)
{
    size_t n = (size_t)plot_column(r, c, &series_plots[0], b);
    if (b->status == MB_SUCCESS)
        n += (size_t)plot_damping(r, c, b);
    for (int k = 1; k < 5 && b->status == MB_SUCCESS && case_rotates(r, c); k++)
        n += (size_t)plot_column(r, c, &series_plots[k], b);
    return n;
}
