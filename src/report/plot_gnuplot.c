/* plot_gnuplot.c -- convergence, work-precision, energy, damping and rotation plots
 * (mb_plot.h).
 *
 * Styles are chosen for print and grey scale: every integrator has its own point shape
 * and dash pattern besides its colour, used points are filled and excluded ones open. */
#include "mb_plot.h"
#include "mb_status.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const quantities[4] = { "position", "velocity", "orientation",
                                           "angular_velocity" };
static const char *const labels[4] = {
    "position error max_i |x_i - x_ref,i| (L)", "velocity error max_i |v_i - v_ref,i| (L/T)",
    "orientation error max_i angle(q_ref,i^-1 q_i) (rad)",
    "angular velocity error max_i |w_i - w_ref,i| (rad/T)"
};

/* colours dark enough for grey-scale print; shapes: filled / open pairs */
static const char *const colours[8] = { "#000000", "#d55e00", "#0072b2", "#009e73",
                                        "#cc79a7", "#e69f00", "#56b4e9", "#777777" };
static const int filled[6] = { 7, 5, 9, 11, 13, 15 }, open_pt[6] = { 6, 4, 8, 10, 12, 14 };

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

/* a string inside a gnuplot double-quoted string: escape backslash, quote, '@' '_' '^'
 * of the enhanced text mode */
static void gp_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if (*s == '_' || *s == '^' || *s == '@' || *s == '{' || *s == '}')
            fputs("\\\\", f);
        fputc(*s, f);
    }
}

/* ENVELOPE: a heavier line; MARKED: a line with a point every few samples, so that long
 * series stay apart in grey scale */
enum { POINTS_FILLED, POINTS_OPEN, LINES, LINESPOINTS, ENVELOPE, MARKED };

static void style(FILE *f, size_t k, int how)
{
    fprintf(f, "lc rgb \"%s\" lw %s", colours[k % 8], how == ENVELOPE ? "2.5" : "1.5");
    if (how != LINES && how != ENVELOPE)
        fprintf(f, " pt %d ps 1.3", how == POINTS_OPEN ? open_pt[k % 6] : filled[k % 6]);
    if (how != POINTS_FILLED && how != POINTS_OPEN)
        fprintf(f, " dt %zu", k % 5 + 1);
}

/* One plot clause: source (a file), select ("index 3", "skip 1 using 1:2"), the style of
 * series k, and its legend title (NULL: none); every: with MARKED, a point every every-th
 * sample. */
static void clause_every(FILE *g, int *first, const char *source, const char *select, size_t k,
                         int how, const char *title, size_t every)
{
    static const char *const with[] = { "points", "points", "lines", "linespoints", "lines",
                                        "linespoints" };
    fprintf(g, "%s  \"%s\" %s with %s ", *first ? "" : ", \\\n", source, select, with[how]);
    style(g, k, how);
    if (how == MARKED)
        fprintf(g, " pi %zu", every);
    if (title) {
        fprintf(g, " title \"");
        gp_text(g, title);
        fprintf(g, "\"");
    } else {
        fprintf(g, " notitle");
    }
    *first = 0;
}

static void clause(FILE *g, int *first, const char *source, const char *select, size_t k,
                   int how, const char *title)
{
    clause_every(g, first, source, select, k, how, title, 1);
}

/* ---- data of one case ---- */

typedef struct run_point { double dt, err[4], cost; int ok; } run_point;

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

/* used in the fit: finished, finite, inside the fitted range (round-off and saturated
 * points lie outside it; 1e-9 relative slack for the %.6g of the range text) */
static int used(const run_point *p, int q, const fit_info *f)
{
    return p->ok && isfinite(p->err[q]) && p->err[q] > 0 && f->have && isfinite(f->lo)
           && p->dt >= f->lo * (1 - 1e-6) && p->dt <= f->hi * (1 + 1e-6);
}

/* ---- running gnuplot ---- */

static int run_gnuplot(const char *gnuplot, const char *dir, const char *script)
{
    pid_t pid = fork();
    if (pid < 0)
        MB_ERROR(MB_EIO, "cannot start gnuplot: %s", strerror(errno));
    if (pid == 0) {
        /* gnuplot's messages go to gnuplot.log beside the plots */
        if (chdir(dir) != 0 || freopen("gnuplot.log", "a", stderr) == NULL)
            _exit(127);
        execl(gnuplot, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        MB_ERROR(MB_EFAILED, "gnuplot failed on %s/%s (exit %d; its messages are in "
                 "%s/gnuplot.log)", dir, script, WIFEXITED(st) ? WEXITSTATUS(st) : -1, dir);
    return MB_SUCCESS;
}

/* header of a script: PNG first, SVG by replot at the end (see finish) */
static void begin_script(FILE *f, const char *stem, const char *title, const char *xlabel,
                         const char *ylabel, int logx, int logy)
{
    fprintf(f, "# %s.gp -- written by motionbench plot; run: gnuplot %s.gp\n", stem, stem);
    fprintf(f, "set terminal pngcairo size 900,640 enhanced font \"sans,11\" dashed\n");
    fprintf(f, "set output \"%s.png\"\nset title \"", stem);
    gp_text(f, title);
    fprintf(f, "\"\nset xlabel \"");
    gp_text(f, xlabel);
    fprintf(f, "\"\nset ylabel \"");
    gp_text(f, ylabel);
    fprintf(f, "\"\nset grid lc rgb \"#dddddd\"\nset key outside below left Left reverse "
               "samplen 3 spacing 1.2\nset datafile missing \"nan\"\n");
    if (logx)   /* room around points on the frame of log-log plots */
        fprintf(f, "set logscale x\nset format x \"10^{%%L}\"\n"
                   "set offsets graph 0.03, graph 0.03, graph 0.03, graph 0.03\n");
    if (logy)
        fprintf(f, "set logscale y\nset format y \"10^{%%L}\"\n");
}

static void finish_script(FILE *f, const char *stem)
{
    fprintf(f, "set terminal svg size 900,640 enhanced font \"sans,11\" dashed\n"
               "set output \"%s.svg\"\nreplot\nunset output\n", stem);
}

/* End a plot: close its data file d (may be NULL), finish and close its script g (NULL:
 * nothing was opened), then run gnuplot on it when `draw` and nothing failed so far.
 * Every write and close is checked, so gnuplot never reads a truncated script.  1 when
 * the plot was drawn, 0 otherwise (*status says whether that is an error). */
static int close_and_draw(FILE *g, FILE *d, const char *gnuplot, const char *dir, char *stem,
                          int draw, int *status)
{
    int bad = 0;
    if (d != NULL) {
        bad |= ferror(d);
        bad |= fclose(d) != 0;
    }
    if (g == NULL)
        return 0;
    fprintf(g, "\n");
    finish_script(g, stem);
    bad |= ferror(g);
    bad |= fclose(g) != 0;
    if (bad && *status == MB_SUCCESS)
        *status = mb_error_record(MB_EIO, __FILE__, __LINE__, "cannot write the plot %s/%s: "
                                  "%s", dir, stem, strerror(errno));
    if (!draw || *status != MB_SUCCESS)
        return 0;
    *status = run_gnuplot(gnuplot, dir, strcat(stem, ".gp"));
    return *status == MB_SUCCESS;
}

static FILE *open_in(const char *dir, const char *name, const char *ext)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        mb_error_record(MB_EIO, __FILE__, __LINE__, "cannot create %s: %s", path,
                        strerror(errno));
    return f;
}

/* the data file and the script of a plot; both NULL (and MB_EIO recorded) on failure */
static int open_pair(const char *dir, const char *stem, FILE **d, FILE **g)
{
    *d = open_in(dir, stem, ".dat");
    *g = *d ? open_in(dir, stem, ".gp") : NULL;
    if (*g == NULL && *d) {
        fclose(*d);
        *d = NULL;
    }
    return *g ? MB_SUCCESS : MB_EIO;
}

/* open_pair, then the script's header and the start of its plot command */
static int open_plot(const char *dir, const char *stem, const char *title, const char *xlabel,
                     const char *ylabel, int logx, int logy, FILE **d, FILE **g)
{
    int st = open_pair(dir, stem, d, g);
    if (st == MB_SUCCESS) {
        begin_script(*g, stem, title, xlabel, ylabel, logx, logy);
        fprintf(*g, "plot \\\n");
    }
    return st;
}

/* ---- convergence ---- */

#define MAX_RUNS 64

/* The data blocks of one integrator, each ended by two blank lines (gnuplot's index);
 * only non-empty blocks are written (an empty one would not count as an index), their
 * indices go to idx[0] used points, idx[1] excluded points, idx[2] the fitted line
 * (-1: none); *next is the next free index. */
static void conv_data(FILE *d, const run_point *p, size_t n, int q, const fit_info *f,
                      int idx[3], int *next)
{
    for (int pass = 0; pass < 2; pass++) {
        idx[pass] = -1;
        for (size_t j = 0; j < n; j++)
            if (isfinite(p[j].err[q]) && p[j].err[q] > 0 && used(&p[j], q, f) == !pass) {
                fprintf(d, "%.17g %.17g\n", p[j].dt, p[j].err[q]);
                idx[pass] = *next;
            }
        if (idx[pass] >= 0) {
            fprintf(d, "\n\n");
            (*next)++;
        }
    }
    /* the least-squares line passes through the mean of the used (log dt, log e) */
    double sx = 0, sy = 0;
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (used(&p[j], q, f)) {
            sx += log(p[j].dt);
            sy += log(p[j].err[q]);
            m++;
        }
    idx[2] = -1;
    if (m >= 2 && isfinite(f->p) && isfinite(f->lo)) {
        double c = sy / m - f->p * sx / m;
        fprintf(d, "%.17g %.17g\n%.17g %.17g\n\n\n", f->lo, exp(c + f->p * log(f->lo)),
                f->hi, exp(c + f->p * log(f->hi)));
        idx[2] = (*next)++;
    }
}

static void conv_legend(char *buf, size_t size, const char *spec, const fit_info *f)
{
    if (f->have && isfinite(f->p) && isfinite(f->se))
        snprintf(buf, size, "%s: order %.2f \u00b1 %.2g%s%s%s", spec, f->p, f->se,
                 f->flags[0] ? " [" : "", f->flags, f->flags[0] ? "]" : "");
    else if (f->have && isfinite(f->p))
        snprintf(buf, size, "%s: order %.2f (2 points)%s%s%s", spec, f->p,
                 f->flags[0] ? " [" : "", f->flags, f->flags[0] ? "]" : "");
    else
        snprintf(buf, size, "%s: no order fitted", spec);
}

/* 1 when a plot was written */
static int plot_convergence(const mb_results *r, const char *c, int q, const char *dir,
                            const char *gnuplot, int *status)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    char stem[512], kind[64], legend[512];
    snprintf(kind, sizeof kind, "convergence-%s", quantities[q]);
    mb_plot_stem(c, kind, stem, sizeof stem);
    int most = 0;   /* the most points of one integrator: a convergence plot needs 2 */
    for (size_t i = 0; specs && i < ni; i++) {
        run_point p[MAX_RUNS];
        size_t n = runs_of(r, c, specs[i], p, MAX_RUNS);
        int points = 0;
        for (size_t j = 0; j < n; j++)
            points += isfinite(p[j].err[q]) && p[j].err[q] > 0;
        most = points > most ? points : most;
    }
    if (most < 2) {
        free(specs);
        return 0;
    }
    FILE *d, *g;
    char title[600];
    snprintf(title, sizeof title, "%s: %s error at t_end against the time step", c,
             quantities[q]);
    if ((*status = open_plot(dir, stem, title, "time step dt (T)", labels[q], 1, 1, &d, &g))
        != MB_SUCCESS) {
        free(specs);
        return 0;
    }
    int first = 1, next = 0;
    for (size_t i = 0; i < ni; i++) {
        run_point p[MAX_RUNS];
        size_t n = runs_of(r, c, specs[i], p, MAX_RUNS);
        fit_info f = fit_of(r, c, specs[i], q);
        int idx[3];
        conv_data(d, p, n, q, &f, idx, &next);
        conv_legend(legend, sizeof legend, specs[i], &f);
        char source[600], select[32], excluded[450];
        snprintf(source, sizeof source, "%s.dat", stem);
        snprintf(excluded, sizeof excluded, "%s: excluded from the fit", specs[i]);
        const int how[3] = { POINTS_FILLED, POINTS_OPEN, LINES };
        const char *title[3] = { legend, excluded, NULL };
        for (int b = 0; b < 3; b++)
            if (idx[b] >= 0) {
                snprintf(select, sizeof select, "index %d", idx[b]);
                clause(g, &first, source, select, i, how[b], title[b]);
            }
    }
    free(specs);
    return close_and_draw(g, d, gnuplot, dir, stem, !first, status);
    return *status == MB_SUCCESS;
}

/* ---- work-precision ---- */

static int plot_work_precision(const mb_results *r, const char *c, const char *dir,
                               const char *gnuplot, int *status)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    int q = -1;
    for (int k = 0; k < 4 && q < 0; k += 2)   /* position, else orientation */
        for (size_t i = 0; specs && i < ni && q < 0; i++) {
            run_point p[MAX_RUNS];
            size_t n = runs_of(r, c, specs[i], p, MAX_RUNS);
            int finite = 0;
            for (size_t j = 0; j < n; j++)
                finite += p[j].ok && isfinite(p[j].err[k]) && p[j].err[k] > 0
                          && p[j].cost > 0;
            if (finite >= 2)
                q = k;
        }
    if (q < 0) {
        free(specs);
        return 0;
    }
    char stem[512], title[600], ylabel[200];
    mb_plot_stem(c, "work-precision", stem, sizeof stem);
    FILE *d, *g;
    snprintf(title, sizeof title, "%s: work-precision (error at t_end against cost)", c);
    snprintf(ylabel, sizeof ylabel, "%s", labels[q]);
    if ((*status = open_plot(dir, stem, title, "force evaluations per run (counted, "
                             "deterministic)", ylabel, 1, 1, &d, &g)) != MB_SUCCESS) {
        free(specs);
        return 0;
    }
    int first = 1, next = 0;
    for (size_t i = 0; i < ni; i++) {
        run_point p[MAX_RUNS];
        size_t n = runs_of(r, c, specs[i], p, MAX_RUNS), m = 0;
        for (size_t j = 0; j < n; j++)
            if (p[j].ok && isfinite(p[j].err[q]) && p[j].err[q] > 0 && p[j].cost > 0) {
                fprintf(d, "%.17g %.17g\n", p[j].cost, p[j].err[q]);
                m++;
            }
        if (m == 0)
            continue;
        fprintf(d, "\n\n");      /* blocks only for integrators with points: see conv_data */
        char source[600], select[32];
        snprintf(source, sizeof source, "%s.dat", stem);
        snprintf(select, sizeof select, "index %d", next++);
        clause(g, &first, source, select, i, LINESPOINTS, specs[i]);
    }
    free(specs);
    return close_and_draw(g, d, gnuplot, dir, stem, 1, status);
}

/* ---- energy against time (series/) ---- */

/* the series file of (case, spec, dt index) as runs name it: spec with []=,/ and blanks
 * replaced by '_' (src/runner/reports.c) */
static void series_path(const mb_results *r, const char *c, const char *spec, size_t j,
                        char *buf, size_t size)
{
    char s[400];
    size_t k = 0;
    for (const char *p = spec; *p && k + 1 < sizeof s; p++)
        s[k++] = strchr("[]=,/ ", *p) ? '_' : *p;
    s[k] = '\0';
    snprintf(buf, size, "%s/series/%s__%s__dt%02zu.csv", r->dir, c, s, j);
}

/* The series file of the finest finished run of (case, integrator) into path, its dt into
 * *dt; 0 when there is none (no finished run, or no series written). */
static int finest_series(const mb_results *r, const char *c, const char *spec, char *path,
                         size_t size, double *dt)
{
    run_point p[MAX_RUNS];
    size_t n = runs_of(r, c, spec, p, MAX_RUNS);
    long pick = -1;     /* the finest step that finished: the run closest to the motion */
    for (size_t j = 0; j < n; j++)
        if (p[j].ok && (pick < 0 || p[j].dt < p[pick].dt))
            pick = (long)j;
    if (pick < 0)
        return 0;
    series_path(r, c, spec, (size_t)pick, path, size);
    *dt = p[pick].dt;
    return access(path, R_OK) == 0;
}

static int plot_energy(const mb_results *r, const char *c, const char *dir,
                       const char *gnuplot, int *status)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    char stem[512], title[600], path[4096], abs_path[4096];
    mb_plot_stem(c, "energy", stem, sizeof stem);
    FILE *g = NULL;
    int first = 1;
    for (size_t i = 0; specs && i < ni; i++) {
        double dt;
        if (!finest_series(r, c, specs[i], path, sizeof path, &dt)
            || realpath(path, abs_path) == NULL)
            continue;
        if (g == NULL) {
            if ((g = open_in(dir, stem, ".gp")) == NULL) {
                *status = MB_EIO;
                free(specs);
                return 0;
            }
            snprintf(title, sizeof title, "%s: energy error along the run (finest time step "
                     "of each integrator)", c);
            begin_script(g, stem, title, "time t (T)", "relative energy error (E - E_0) / "
                         "scale", 0, 0);
            fprintf(g, "set datafile separator \",\"\nplot \\\n");
        }
        char legend[450];
        snprintf(legend, sizeof legend, "%s, dt = %.4g", specs[i], dt);
        clause(g, &first, abs_path, "skip 1 using 1:2", i, LINES, legend);
    }
    free(specs);
    return close_and_draw(g, NULL, gnuplot, dir, stem, 1, status);
}

/* ---- damping: the signal and its envelope (series/) ---- */

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

/* 1 when (case, integrator) has a metric named gate* and a finished series (finest_series:
 * its path and time step) */
static int gated_series(const mb_results *r, const char *c, const char *spec, const char *gate,
                        char *path, size_t size, double *dt)
{
    return has_metric(r, c, spec, gate) && finest_series(r, c, spec, path, size, dt);
}

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

/* Write blocks: t and the coordinate of node 0 that moves most (the damped signal), its
 * positive peaks (local maxima), and (with 2 peaks or more) the fitted exponential
 * envelope of the peaks (*lambda its decay rate, else NaN).  Returns the number of
 * peaks, -1 when the series cannot be read. */
static int damping_data(FILE *d, const char *path, double *lambda)
{
    mb_csv_table *s = NULL;
    *lambda = NAN;
    if (mb_csv_table_read(path, MB_INPUT_SERIES, 0, &s) != MB_SUCCESS)
        return -1;
    int ct = mb_csv_col(s, "t"), best = -1;
    double span = -1.0;
    for (const char *const *axis = (const char *const[]){ "x", "y", "z", NULL }; *axis; axis++) {
        int col = mb_csv_col(s, *axis);
        double lo = INFINITY, hi = -INFINITY;
        for (size_t k = 0; col >= 0 && k < s->n_rows; k++) {
            double v = mb_results_number(mb_csv_cell(s, k, col));
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        if (col >= 0 && hi - lo > span) {
            span = hi - lo;
            best = col;
        }
    }
    double *pt = malloc((s->n_rows + 1) * sizeof *pt), *pa = malloc((s->n_rows + 1) * sizeof *pa);
    if (pt == NULL || pa == NULL) {
        free(pt);
        free(pa);
        mb_csv_table_free(s);
        return -1;
    }
    size_t peaks = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; best >= 0 && k < s->n_rows; k++) {
            double v = mb_results_number(mb_csv_cell(s, k, best));
            int peak = k > 0 && k + 1 < s->n_rows && v > 0
                       && v > mb_results_number(mb_csv_cell(s, k - 1, best))
                       && v >= mb_results_number(mb_csv_cell(s, k + 1, best));
            if (pass == 0 || peak)
                fprintf(d, "%s %.17g\n", mb_csv_cell(s, k, ct), v);
            if (pass && peak) {
                pt[peaks] = mb_results_number(mb_csv_cell(s, k, ct));
                pa[peaks++] = v;
            }
        }
        fprintf(d, "\n\n");
    }
    if (s->n_rows > 0)
        *lambda = envelope_fit(d, pt, pa, peaks, mb_results_number(mb_csv_cell(s, 0, ct)),
                               mb_results_number(mb_csv_cell(s, s->n_rows - 1, ct)));
    free(pt);
    free(pa);
    mb_csv_table_free(s);
    return (int)peaks;
}

static int plot_damping(const mb_results *r, const char *c, const char *dir,
                        const char *gnuplot, int *status)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    char stem[512], path[4096], source[600], select[32], legend[450];
    mb_plot_stem(c, "damping", stem, sizeof stem);
    snprintf(source, sizeof source, "%s.dat", stem);
    FILE *d = NULL, *g = NULL;
    int first = 1, next = 0;
    char title[600];
    snprintf(title, sizeof title, "%s: damped displacement of node 0, its peaks and their "
             "fitted exponential envelope", c);
    for (size_t i = 0; specs && i < ni && *status == MB_SUCCESS; i++) {
        double dt;
        if (!gated_series(r, c, specs[i], "damping.", path, sizeof path, &dt))
            continue;
        if (g == NULL && (*status = open_plot(dir, stem, title, "time t (T)", "displacement "
                                              "of node 0 along its axis of largest motion (L)",
                                              0, 0, &d, &g)) != MB_SUCCESS)
            break;
        double lambda;
        int peaks = damping_data(d, path, &lambda);
        if (peaks < 0) {
            *status = MB_EIO;
            break;
        }
        snprintf(legend, sizeof legend, "%s, dt = %.4g: displacement", specs[i], dt);
        snprintf(select, sizeof select, "index %d", next++);
        clause(g, &first, source, select, i, LINES, legend);
        snprintf(legend, sizeof legend, "%s: peaks (%d)", specs[i], peaks);
        snprintf(select, sizeof select, "index %d", next++);
        clause(g, &first, source, select, i, POINTS_FILLED, legend);
        if (isfinite(lambda)) {
            snprintf(legend, sizeof legend, "%s: fitted envelope A exp(-λ t), λ = %.4g /T",
                     specs[i], lambda);
            snprintf(select, sizeof select, "index %d", next++);
            clause(g, &first, source, select, i, ENVELOPE, legend);
        }
    }
    free(specs);
    return close_and_draw(g, d, gnuplot, dir, stem, 1, status);
}

/* ---- rotation invariants against time (series/) ---- */

/* One plot of a column of series/ against time, for every integrator that has the gate
 * metric (a name prefix in metrics.csv), at its finest finished time step. */
typedef struct series_plot {
    const char *kind, *column, *gate, *what, *ylabel;
    int logy;   /* log axis: only positive samples are drawn */
} series_plot;

static const series_plot rotation_plots[4] = {
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

/* Write the block (t, column) of one series file: finite samples (positive ones on a log
 * axis).  Returns the rows written, -1 when the file cannot be read or has no such
 * column. */
static long series_block(FILE *d, const char *path, const series_plot *sp)
{
    mb_csv_table *s = NULL;
    if (mb_csv_table_read(path, MB_INPUT_SERIES, 0, &s) != MB_SUCCESS)
        return -1;
    int ct = mb_csv_col(s, "t"), cv = mb_csv_col(s, sp->column);
    long rows = cv < 0 ? -1 : 0;
    for (size_t k = 0; cv >= 0 && k < s->n_rows; k++) {
        double v = mb_results_number(mb_csv_cell(s, k, cv));
        if (isfinite(v) && (!sp->logy || v > 0)) {
            fprintf(d, "%s %.17g\n", mb_csv_cell(s, k, ct), v);
            rows++;
        }
    }
    if (rows > 0)
        fprintf(d, "\n\n");
    mb_csv_table_free(s);
    return rows;
}

static int plot_series(const mb_results *r, const char *c, const series_plot *sp,
                       const char *dir, const char *gnuplot, int *status)
{
    size_t ni;
    const char **specs = mb_results_integrators(r, c, &ni);
    char stem[512], path[4096], source[600], select[32], legend[450];
    mb_plot_stem(c, sp->kind, stem, sizeof stem);
    snprintf(source, sizeof source, "%s.dat", stem);
    FILE *d = NULL, *g = NULL;
    int first = 1, next = 0;
    char title[600];
    snprintf(title, sizeof title, "%s: %s (finest dt of each integrator)", c, sp->what);
    for (size_t i = 0; specs && i < ni && *status == MB_SUCCESS; i++) {
        double dt;
        if (!gated_series(r, c, specs[i], sp->gate, path, sizeof path, &dt))
            continue;
        if (g == NULL && (*status = open_plot(dir, stem, title, "time t (T)", sp->ylabel, 0,
                                              sp->logy, &d, &g)) != MB_SUCCESS)
            break;
        long rows = series_block(d, path, sp);
        if (rows < 0) {
            *status = mb_error_record(MB_EIO, __FILE__, __LINE__, "%s: no readable column "
                                      "%s (series written by an older motionbench? run "
                                      "again with --series)", path, sp->column);
            break;
        }
        if (rows == 0)      /* nothing to draw (e.g. exactly 0 at every sample, log axis) */
            continue;
        snprintf(legend, sizeof legend, "%s, dt = %.4g", specs[i], dt);
        snprintf(select, sizeof select, "index %d", next++);
        clause_every(g, &first, source, select, i, MARKED, legend,
                     (size_t)(rows / MARKS_PER_CURVE) + 1);
    }
    free(specs);
    return close_and_draw(g, d, gnuplot, dir, stem, !first, status);
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

static int make_dir(const char *dir)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1;; p++)
        if (*p == '/' || *p == '\0') {
            char keep = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                MB_ERROR(MB_EIO, "cannot create directory %s: %s", buf, strerror(errno));
            *p = keep;
            if (keep == '\0')
                return MB_SUCCESS;
        }
}

int mb_plot_report(const mb_results *r, const char *out_dir, size_t *n_plots)
{
    char gnuplot[4096];
    *n_plots = 0;
    if (mb_gnuplot_find(gnuplot, sizeof gnuplot) != MB_SUCCESS)
        return MB_ENOTFOUND;
    if (make_dir(out_dir) != MB_SUCCESS)
        return MB_EIO;
    int st = MB_SUCCESS;
    for (size_t k = 0; k < r->n_cases && st == MB_SUCCESS; k++) {
        const char *c = r->cases[k];
        for (int q = 0; q < 4 && st == MB_SUCCESS; q++)
            *n_plots += (size_t)plot_convergence(r, c, q, out_dir, gnuplot, &st);
        if (st == MB_SUCCESS)
            *n_plots += (size_t)plot_work_precision(r, c, out_dir, gnuplot, &st);
        if (st == MB_SUCCESS)
            *n_plots += (size_t)plot_energy(r, c, out_dir, gnuplot, &st);
        if (st == MB_SUCCESS)
            *n_plots += (size_t)plot_damping(r, c, out_dir, gnuplot, &st);
        for (int k = 0; k < 4 && st == MB_SUCCESS && case_rotates(r, c); k++)
            *n_plots += (size_t)plot_series(r, c, &rotation_plots[k], out_dir, gnuplot, &st);
    }
    return st;
}
