/* plot_gnuplot.c -- convergence and work-precision plots, and the driver of every plot of
 * a report (mb_plot.h); the plots against time are in plot_time.c, the scripts' style
 * and drawing in plot_script.c. */
#include "mb_output.h"
#include "mb_plot.h"
#include "mb_plot_list.h"
#include "mb_plot_script.h"
#include "mb_plot_time.h"
#include "mb_reference_order.h"
#include "mb_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const quantities[4] = { "position", "velocity", "orientation",
                                           "angular_velocity" };
static const char *const labels[4] = {
    "position error max_i |x_i - x_ref,i| (L)", "velocity error max_i |v_i - v_ref,i| (L/T)",
    "orientation error max_i angle(q_ref,i^-1 q_i) (rad)",
    "angular velocity error max_i |w_i - w_ref,i| (rad/T)"
};

int mb_gnuplot_find(char *buf, size_t size)
{
    const char *env = getenv("MB_GNUPLOT");
    if (env && *env) {
        if (access(env, X_OK) != 0)
            MB_ERROR(MB_ENOTFOUND, "MB_GNUPLOT=%s is not an executable program", env);
        snprintf(buf, size, "%s", env);
        return MB_SUCCESS;
    }
    const char *path = getenv("PATH");
    char dirs[8192];
    snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(buf, size, "%s/gnuplot", *d ? d : ".");
        if (access(buf, X_OK) == 0)
            return MB_SUCCESS;
    }
    MB_ERROR(MB_ENOTFOUND, "gnuplot is not installed (not found in PATH): install it (Debian: "
             "apt-get install gnuplot-nox) or set MB_GNUPLOT to the program");
}

void mb_plot_stem(const char *case_name, const char *kind, char *buf, size_t size)
{
    snprintf(buf, size, "%s__%s", case_name, kind);
}

/* ---- data of one case ---- */

typedef struct run_point { double dt, err[4], cost, wall; int ok; } run_point;

#define MAX_RUNS 64

/* the wall time of run (c, spec, dt text) in timing.csv (its minimum over repeats), NaN
 * when there is none */
static double wall_of(const mb_results *r, const char *c, const char *spec, const char *dt)
{
    const mb_csv_table *t = r->timing;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator");
    int cd = mb_csv_col(t, "dt"), cw = mb_csv_col(t, "wall_min_s");
    for (size_t k = 0; t && k < t->n_rows; k++)
        if (!strcmp(mb_csv_cell(t, k, cd), dt) && !strcmp(mb_csv_cell(t, k, cc), c)
            && !strcmp(mb_csv_cell(t, k, ci), spec))
            return mb_results_number(mb_csv_cell(t, k, cw));
    return NAN;
}

/* The runs of (case, integrator) in report order (at most cap). */
static size_t runs_of(const mb_results *r, const char *c, const char *spec, run_point *p,
                      size_t cap)
{
    const mb_csv_table *t = r->runs;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator"), cd = mb_csv_col(t, "dt");
    int cs = mb_csv_col(t, "status"), cf = mb_csv_col(t, "force_evaluations"), ce[4];
    for (int q = 0; q < 4; q++) {
        char name[48];
        snprintf(name, sizeof name, "error.%s", quantities[q]);
        ce[q] = mb_csv_col(t, name);
    }
    size_t n = 0;
    for (size_t k = 0; k < t->n_rows && n < cap; k++) {
        if (strcmp(mb_csv_cell(t, k, cc), c) || strcmp(mb_csv_cell(t, k, ci), spec))
            continue;
        p[n].dt = mb_results_number(mb_csv_cell(t, k, cd));
        p[n].ok = !strcmp(mb_csv_cell(t, k, cs), "ok");
        p[n].cost = mb_results_number(mb_csv_cell(t, k, cf));
        p[n].wall = wall_of(r, c, spec, mb_csv_cell(t, k, cd));
        for (int q = 0; q < 4; q++)
            p[n].err[q] = mb_results_number(mb_csv_cell(t, k, ce[q]));
        n++;
    }
    return n;
}

/* the order fit of (case, integrator, quantity): slope, stderr, range, flags */
typedef struct fit_info { double p, se, lo, hi; const char *flags; int have; } fit_info;

static fit_info fit_of(const mb_results *r, const char *c, const char *spec, int q)
{
    fit_info f = { NAN, NAN, NAN, NAN, "", 0 };
    char name[64];
    const char *detail = NULL;
    snprintf(name, sizeof name, "order.%s", quantities[q]);
    const char *v = mb_results_metric(r, c, spec, name, &detail);
    if (v == NULL)
        return f;
    f.have = 1;
    f.p = mb_results_number(v);
    if (detail == NULL || sscanf(detail, "dt in [%lf, %lf]", &f.lo, &f.hi) != 2)
        f.lo = f.hi = NAN;
    snprintf(name, sizeof name, "order.%s.stderr", quantities[q]);
    f.se = mb_results_number(mb_results_metric(r, c, spec, name, NULL));
    snprintf(name, sizeof name, "order.%s.flags", quantities[q]);
    const char *fl = mb_results_metric(r, c, spec, name, NULL);
    f.flags = fl && strcmp(fl, "none") ? fl : "";
    return f;
}

static int plotted(const run_point *p, int q)
{
    return isfinite(p->err[q]) && p->err[q] > 0;
}

/* used in the fit: finished, finite, inside the fitted range (round-off and saturated
 * points lie outside it; 1e-6 relative slack for the %.6g of the range text) */
static int used(const run_point *p, int q, const fit_info *f)
{
    return p->ok && plotted(p, q) && f->have && isfinite(f->lo)
           && p->dt >= f->lo * (1 - 1e-6) && p->dt <= f->hi * (1 + 1e-6);
}

/* ---- convergence ---- */

/* block indices of one integrator (-1: none) */
enum { USED, EXCLUDED, FIT, REFERENCE, BLOCKS };

/* the points of one pass (used or excluded) as a block; its index or -1 */
static int points_block(FILE *d, const run_point *p, size_t n, int q, const fit_info *f,
                        int want_used, int *next)
{
    int any = 0;
    for (size_t j = 0; j < n; j++)
        if (plotted(&p[j], q) && used(&p[j], q, f) == want_used) {
            fprintf(d, "%.17g %.17g\n", p[j].dt, p[j].err[q]);
            any = 1;
        }
    if (!any)
        return -1;
    fprintf(d, "\n\n");
    return (*next)++;
}

/* the least-squares line: through the mean of the used (log dt, log e), over the fitted
 * range */
static int fit_block(FILE *d, const run_point *p, size_t n, int q, const fit_info *f,
                     int *next)
{
    double sx = 0, sy = 0;
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (used(&p[j], q, f)) {
            sx += log(p[j].dt);
            sy += log(p[j].err[q]);
            m++;
        }
    if (m < 2 || !isfinite(f->p) || !isfinite(f->lo))
        return -1;
    double c = sy / m - f->p * sx / m;
    fprintf(d, "%.17g %.17g\n%.17g %.17g\n\n\n", f->lo, exp(c + f->p * log(f->lo)),
            f->hi, exp(c + f->p * log(f->hi)));
    return (*next)++;
}

/* The reference slope e = e0 (dt / dt0)^p through the finest point used in the fit (the
 * one closest to the asymptotic regime; the finest plotted point when none is used),
 * over the integrator's plotted dt range. */
static int reference_block(FILE *d, const run_point *p, size_t n, int q, const fit_info *f,
                           double order, int *next)
{
    long at = -1;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t j = 0; j < n; j++)
        if (plotted(&p[j], q)) {
            lo = fmin(lo, p[j].dt);
            hi = fmax(hi, p[j].dt);
        }
    for (int pass = 0; pass < 2 && at < 0; pass++)
        for (size_t j = 0; j < n; j++)
            if (plotted(&p[j], q) && (pass || used(&p[j], q, f))
                && (at < 0 || p[j].dt < p[at].dt))
                at = (long)j;
    if (at < 0 || !(hi > lo) || !isfinite(order))
        return -1;
    double dt0 = p[at].dt, e0 = p[at].err[q];
    fprintf(d, "%.17g %.17g\n", lo, e0 * pow(lo / dt0, order));
    if (dt0 > lo && dt0 < hi)
        fprintf(d, "%.17g %.17g\n", dt0, e0);
    fprintf(d, "%.17g %.17g\n\n\n", hi, e0 * pow(hi / dt0, order));
    return (*next)++;
}

/* "SPEC: order 4.06 ± 0.011 [flags]; dashed: order 4 (expected)" */
static void conv_legend(char *buf, size_t size, const char *spec, const fit_info *f,
                        double order, mb_order_source from)
{
    char ref[96] = "";
    if (from != MB_ORDER_NONE)
        snprintf(ref, sizeof ref, "; dashed: order %g (%s)", order, mb_order_source_name(from));
    if (f->have && isfinite(f->p) && isfinite(f->se))
        snprintf(buf, size, "%s: order %.2f \u00b1 %.2g%s%s%s%s", spec, f->p, f->se,
                 f->flags[0] ? " [" : "", f->flags, f->flags[0] ? "]" : "", ref);
    else if (f->have && isfinite(f->p))
        snprintf(buf, size, "%s: order %.2f (2 points)%s%s%s%s", spec, f->p,
                 f->flags[0] ? " [" : "", f->flags, f->flags[0] ? "]" : "", ref);
    else
        snprintf(buf, size, "%s: no order fitted%s", spec, ref);
}

/* the extent of the plotted points of every integrator (dt and error), the distinct
 * time steps (at most 11 kept) and the legend's entries; 0 when fewer than two points of
 * one integrator (nothing to plot) */
typedef struct conv_frame { double x[2], y[2], dts[11]; size_t n_dts, key_rows; } conv_frame;

static void add_dt(conv_frame *fr, double dt)
{
    for (size_t k = 0; k < fr->n_dts; k++)
        if (fabs(fr->dts[k] - dt) <= 1e-9 * dt)
            return;
    if (fr->n_dts < 11)
        fr->dts[fr->n_dts++] = dt;
}

static int conv_extent(const mb_results *r, const char *c, const char **specs, size_t ni,
                       int q, conv_frame *fr)
{
    int most = 0;
    double *x = fr->x, *y = fr->y;
    fr->n_dts = fr->key_rows = 0;
    x[0] = y[0] = INFINITY;
    x[1] = y[1] = -INFINITY;
    for (size_t i = 0; i < ni; i++) {
        run_point p[MAX_RUNS];
        size_t n = runs_of(r, c, specs[i], p, MAX_RUNS);
        fit_info f = fit_of(r, c, specs[i], q);
        int points = 0, excluded = 0, in_fit = 0;
        for (size_t j = 0; j < n; j++)
            if (plotted(&p[j], q)) {
                points++;
                add_dt(fr, p[j].dt);
                excluded |= !used(&p[j], q, &f);
                in_fit |= used(&p[j], q, &f);
                x[0] = fmin(x[0], p[j].dt);
                x[1] = fmax(x[1], p[j].dt);
                y[0] = fmin(y[0], p[j].err[q]);
                y[1] = fmax(y[1], p[j].err[q]);
            }
        most = points > most ? points : most;
        fr->key_rows += (size_t)(1 + (excluded && in_fit));
    }
    return most >= 2;
}

/* the clauses of one integrator's blocks */
static void conv_clauses(FILE *g, int *first, const char *source, const char *spec, size_t i,
                         const fit_info *f, const int idx[BLOCKS], double order,
                         mb_order_source from)
{
    char legend[600], excluded[450], select[32];
    conv_legend(legend, sizeof legend, spec, f, order, from);
    snprintf(excluded, sizeof excluded, "%s: excluded from the fit", spec);
    const int how[BLOCKS] = { MB_GP_FILLED, MB_GP_OPEN, MB_GP_FIT, MB_GP_REFERENCE };
    const char *title[BLOCKS] = { legend, excluded, NULL, NULL };
    if (idx[USED] < 0)      /* no fitted point: the legend goes with the excluded ones */
        title[EXCLUDED] = legend;
    for (int b = 0; b < BLOCKS; b++)
        if (idx[b] >= 0) {
            snprintf(select, sizeof select, "index %d", idx[b]);
            mb_gp_clause(g, first, source, select, i, how[b], title[b], NULL, 1);
        }
}

/* 1 when a plot was queued */
static int plot_convergence(const mb_results *r, const char *c, int q, mb_plot_batch *b)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    char stem[512], kind[64], title[600], source[600];
    conv_frame fr;
    snprintf(kind, sizeof kind, "convergence-%s", quantities[q]);
    mb_plot_stem(c, kind, stem, sizeof stem);
    FILE *d, *g;
    if (specs == NULL || !conv_extent(r, c, specs, ni, q, &fr)) {
        free(specs);
        return 0;
    }
    snprintf(title, sizeof title, "%s: %s error at t_end against the time step", c,
             quantities[q]);
    if (mb_gp_open(b, stem, title, "time step dt (T)", labels[q], fr.key_rows, &d, &g)
        != MB_SUCCESS) {
        free(specs);
        return 0;
    }
    mb_gp_log_axis_at(g, "x", fr.x[0], fr.x[1], fr.dts, fr.n_dts);
    mb_gp_log_axis(g, "y", fr.y[0], fr.y[1]);   /* reference slopes are clipped to the data */
    snprintf(source, sizeof source, "%s.dat", stem);
    int first = 1, next = 0;
    for (size_t i = 0; i < ni; i++) {
        run_point p[MAX_RUNS];
        size_t n = runs_of(r, c, specs[i], p, MAX_RUNS);
        fit_info f = fit_of(r, c, specs[i], q);
        double order;
        mb_order_source from = mb_reference_order(r, c, specs[i], quantities[q], &order);
        int idx[BLOCKS];
        idx[USED] = points_block(d, p, n, q, &f, 1, &next);
        idx[EXCLUDED] = points_block(d, p, n, q, &f, 0, &next);
        idx[FIT] = fit_block(d, p, n, q, &f, &next);
        idx[REFERENCE] = from == MB_ORDER_NONE ? -1
                         : reference_block(d, p, n, q, &f, order, &next);
        conv_clauses(g, &first, source, specs[i], i, &f, idx, order, from);
    }
    free(specs);
    return mb_gp_close(b, g, d, stem, !first);
}

/* ---- work-precision ---- */

/* outside programs (external:NAME) count no force evaluations: they are placed by the
 * wall time of their runs, which includes starting the program */
static int outside(const run_point *p, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (p[j].ok && p[j].cost > 0)
            return 0;
    return 1;
}

/* the cost of a run on its axis: force evaluations, or wall time for outside programs */
static double work(const run_point *p, int wall)
{
    return wall ? p->wall : p->cost;
}

static int wp_point(const run_point *p, int q, int wall)
{
    double w = work(p, wall);
    return p->ok && plotted(p, q) && isfinite(w) && w > 0;
}

/* the quantity (position, else orientation) with 2 points somewhere, and the extent of
 * the points on both cost axes; -1 when there is nothing to plot */
static int wp_extent(const mb_results *r, const char *c, const char **specs, size_t ni,
                     double x[2][2], double y[2])
{
    for (int q = 0; q < 4; q += 2) {
        int found = 0;
        x[0][0] = x[1][0] = y[0] = INFINITY;
        x[0][1] = x[1][1] = y[1] = -INFINITY;
        for (size_t i = 0; i < ni; i++) {
            run_point p[MAX_RUNS];
            size_t n = runs_of(r, c, specs[i], p, MAX_RUNS);
            int wall = outside(p, n), m = 0;
            for (size_t j = 0; j < n; j++)
                if (wp_point(&p[j], q, wall)) {
                    m++;
                    x[wall][0] = fmin(x[wall][0], work(&p[j], wall));
                    x[wall][1] = fmax(x[wall][1], work(&p[j], wall));
                    y[0] = fmin(y[0], p[j].err[q]);
                    y[1] = fmax(y[1], p[j].err[q]);
                }
            found |= m >= 2;
        }
        if (found)
            return q;
    }
    return -1;
}

static int plot_work_precision(const mb_results *r, const char *c, mb_plot_batch *b)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    double x[2][2], y[2];
    int q = specs ? wp_extent(r, c, specs, ni, x, y) : -1;
    if (q < 0) {
        free(specs);
        return 0;
    }
    char stem[512], title[600], source[600], select[32], legend[450];
    mb_plot_stem(c, "work-precision", stem, sizeof stem);
    snprintf(source, sizeof source, "%s.dat", stem);
    FILE *d, *g;
    snprintf(title, sizeof title, "%s: work-precision (error at t_end against cost)", c);
    if (mb_gp_open(b, stem, title, "force evaluations per run (counted, deterministic)",
                   labels[q], ni, &d, &g) != MB_SUCCESS) {
        free(specs);
        return 0;
    }
    if (isfinite(x[0][0]))
        mb_gp_log_axis(g, "x", x[0][0], x[0][1]);
    if (isfinite(x[1][0])) {     /* outside programs: wall time on the top axis */
        mb_gp_log_axis(g, "x2", x[1][0], x[1][1]);
        fputs("set x2label \"wall time per run (s), outside programs: includes starting "
              "the program\"\n", g);
        if (!isfinite(x[0][0]))
            fputs("unset xtics\nunset xlabel\n", g);
    }
    mb_gp_log_axis(g, "y", y[0], y[1]);
    int first = 1, next = 0;
    for (size_t i = 0; i < ni; i++) {
        run_point p[MAX_RUNS];
        size_t n = runs_of(r, c, specs[i], p, MAX_RUNS), m = 0;
        int wall = outside(p, n);
        for (size_t j = 0; j < n; j++)
            if (wp_point(&p[j], q, wall)) {
                fprintf(d, "%.17g %.17g\n", work(&p[j], wall), p[j].err[q]);
                m++;
            }
        if (m == 0)
            continue;
        fprintf(d, "\n\n");      /* blocks only for integrators with points */
        snprintf(select, sizeof select, "index %d", next++);
        snprintf(legend, sizeof legend, wall ? "%s (wall time, top axis; includes start-up)"
                                             : "%s", specs[i]);
        mb_gp_clause(g, &first, source, select, i, MB_GP_LINESPOINTS, legend,
                     wall ? "x2y1" : "x1y1", 1);
    }
    free(specs);
    return mb_gp_close(b, g, d, stem, !first);
}

/* ---- every plot of a report ---- */

int mb_plot_report(const mb_results *r, const char *out_dir, size_t *n_plots)
{
    char gnuplot[4096], hex[MB_SHA256_HEX];
    *n_plots = 0;
    if (mb_gnuplot_find(gnuplot, sizeof gnuplot) != MB_SUCCESS)
        return MB_ENOTFOUND;
    if (mb_output_make_dirs(out_dir) != MB_SUCCESS
        || mb_plot_fingerprint(r->dir, hex) != MB_SUCCESS)
        return MB_EIO;
    mb_plot_batch b = { out_dir, NULL, 0, 0, MB_SUCCESS };
    for (size_t k = 0; k < r->n_cases && b.status == MB_SUCCESS; k++) {
        const char *c = r->cases[k];
        for (int q = 0; q < 4 && b.status == MB_SUCCESS; q++)
            plot_convergence(r, c, q, &b);
        if (b.status == MB_SUCCESS)
            plot_work_precision(r, c, &b);
        if (b.status == MB_SUCCESS)
            mb_plot_time(r, c, &b);
    }
    int st = mb_gp_draw_all(&b, gnuplot);
    if (st == MB_SUCCESS) {
        mb_plot_list_remove_stale(out_dir, b.stems, b.n);
        st = mb_plot_list_write(out_dir, hex, b.stems, b.n);
    }
    *n_plots = b.n;
    mb_gp_batch_free(&b);
    return st;
}
