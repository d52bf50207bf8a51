/* reports.c -- runs.csv, metrics.csv, checks.csv, timing.csv, cases.csv, probes.csv (when
 * a case has probe times) and series/ (DESIGN 8).
 *
 * Rows follow the order of the cases given, then of the integrators and time steps in
 * each case file, never the order in which runs finished.  Columns are documented in
 * doc/runner.md.  Every file is complete on disk under a temporary name before the
 * first one is renamed into place. */
#include "mb_cancel.h"
#include "mb_external.h"
#include "mb_metrics.h"
#include "mb_output.h"
#include "mb_probes.h"
#include "mb_report.h"
#include "mb_series.h"
#include "mb_status.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void mb_tolerance_format(const mb_tolerance *t, char *buf, size_t size)
{
    snprintf(buf, size, "%s:%.6g", t->relative ? "rel" : "abs", t->tol);
}

mb_tolerance mb_report_tolerance(const mb_case *c, const char *integrator, const char *metric)
{
    mb_tolerance t;
    const mb_check_override *generic = NULL;
    for (size_t k = 0; k < c->n_check; k++) {
        const mb_check_override *o = &c->check[k];
        if (strcmp(o->metric, metric) != 0)
            continue;
        if (o->integrator && strcmp(o->integrator, integrator) == 0)
            return o->tolerance;
        if (o->integrator == NULL)
            generic = o;
    }
    if (generic)
        return generic->tolerance;
    /* rows derived from a metric (order.q.pairwise) take the tolerance of its family */
    mb_metric_default_tolerance(metric, &t.relative, &t.tol);
    return t;
}

static void dt_field(FILE *f, const mb_case *c, long j)
{
    if (j >= 0)
        mb_csv_number(f, c->dt[j]);
}

/* ---- runs.csv ---- */

/* the value of a per-run metric, or an empty field */
static void run_metric(FILE *f, const mb_run_result *u, const char *name)
{
    const mb_metric_value *m = mb_run_find_metric(u, name);
    if (m)
        mb_csv_number(f, m->value);
}

/* The first columns of a row of integrator a of case c: case,integrator,precision, (the
 * separator after precision written) */
static void write_run_name(FILE *f, const mb_case *c, const char *prec, size_t a)
{
    mb_csv_text(f, c->name); mb_csv_sep(f);
    mb_csv_text(f, c->integrators[a]); mb_csv_sep(f);
    mb_csv_text(f, prec); mb_csv_sep(f);
}

/* A row of runs.csv or timing.csv after its key case,integrator,precision,dt (the
 * separator after dt not written). */
typedef void run_row_fn(FILE *f, const mb_case *c, const mb_run_result *u);

/* The rows of runs.csv or timing.csv, one per run that ran, in the report's order (cases,
 * then integrators, then time steps): the key, then row's columns; the two files' rows
 * correspond one to one. */
static void write_run_rows(FILE *f, const mb_case_result *r, size_t n, run_row_fn *row)
{
    for (size_t i = 0; i < n; i++) {
        const mb_case *c = r[i].c;
        char prec[32];
        mb_case_precision_label(c, prec, sizeof prec);
        for (size_t a = 0; a < c->n_integrators; a++)
            for (size_t j = 0; j < c->n_dt; j++) {
                const mb_run_result *u = &r[i].runs[a * c->n_dt + j];
                if (u->not_run)
                    continue;
                write_run_name(f, c, prec, a);
                mb_csv_number(f, c->dt[j]);
                row(f, c, u);
                mb_csv_end(f);
            }
    }
}

static void run_row(FILE *f, const mb_case *c, const mb_run_result *u)
{
    mb_csv_sep(f);
    fprintf(f, "%ld,%ld,", u->steps, u->steps_done);
    mb_csv_text(f, mb_run_status_name(u->status)); mb_csv_sep(f);
    if (u->diverged_step) {
        fprintf(f, "%ld,", u->diverged_step);
        mb_csv_number(f, u->diverged_time);
    } else {
        mb_csv_sep(f);
    }
    mb_csv_sep(f);
    mb_csv_number(f, u->t_final); mb_csv_sep(f);
    if (u->status == MB_RUN_OK && !c->has_reference) {
        mb_csv_text(f, "none"); mb_csv_sep(f);
    } else if (u->status == MB_RUN_OK) {
        mb_csv_text(f, mb_reference_kind_name(u->reference_used)); mb_csv_sep(f);
        mb_csv_number(f, u->reference_error);
    } else {
        mb_csv_sep(f);
    }
    for (int k = 0; k < 4; k++) {
        mb_csv_sep(f);
        if (u->status == MB_RUN_OK && c->has_reference
            && ((k < 2 && u->translates) || (k >= 2 && u->rotates)))
            mb_csv_number(f, u->err[k]);
    }
    mb_csv_sep(f);
    run_metric(f, u, "energy.max_rel_error");
    mb_csv_sep(f);
    run_metric(f, u, "angmom.max_rel_error");
    mb_csv_sep(f);
    fprintf(f, "%lu,%lu,%lu,%lu,%lu,", u->cost.force_evaluations,
            u->cost.jacobian_evaluations, u->cost.newton_iterations,
            u->cost.linear_iterations, u->cost.constraint_sweeps);
    mb_csv_text(f, u->message);
}

static void write_runs(FILE *f, const mb_case_result *r, size_t n)
{
    fputs("case,integrator,precision,dt,steps,steps_done,status,diverged_step,diverged_time,"
          "t_final,reference,reference_error,error.position,error.velocity,error.orientation,"
          "error.angular_velocity,energy.max_rel_error,angmom.max_rel_error,force_evaluations,"
          "jacobian_evaluations,newton_iterations,linear_iterations,constraint_sweeps,message", f);
    mb_csv_end(f);
    write_run_rows(f, r, n, run_row);
}

/* ---- metrics.csv ---- */

static void metric_row(FILE *f, const mb_case *c, const char *prec, size_t a, long j,
                       const mb_metric_value *m)
{
    write_run_name(f, c, prec, a);
    if (j < 0 && m->at_dt > 0.0)
        mb_csv_number(f, m->at_dt);
    else
        dt_field(f, c, j);
    mb_csv_sep(f);
    mb_csv_text(f, m->name); mb_csv_sep(f);
    if (m->word)
        mb_csv_text(f, m->word);
    else
        mb_csv_number(f, m->value);
    mb_csv_sep(f);
    char tol[48];
    /* pairwise orders share the tolerance of their order */
    char family[64];
    snprintf(family, sizeof family, "%s", m->name);
    char *pw = strstr(family, ".pairwise");
    if (pw)
        *pw = '\0';
    mb_tolerance t = mb_report_tolerance(c, c->integrators[a], family);
    mb_tolerance_format(&t, tol, sizeof tol);
    mb_csv_text(f, tol); mb_csv_sep(f);
    mb_csv_text(f, m->detail);
    mb_csv_end(f);
}

static void write_metrics(FILE *f, const mb_case_result *r, size_t n)
{
    fputs("case,integrator,precision,dt,metric,value,tolerance,detail", f);
    mb_csv_end(f);
    for (size_t i = 0; i < n; i++) {
        const mb_case *c = r[i].c;
        char prec[32];
        mb_case_precision_label(c, prec, sizeof prec);
        for (size_t a = 0; a < c->n_integrators; a++) {
            for (size_t j = 0; j < c->n_dt; j++) {
                const mb_run_result *u = &r[i].runs[a * c->n_dt + j];
                mb_metric_value s = mb_run_status_value(u), st = mb_run_steps_value(u);
                metric_row(f, c, prec, a, (long)j, &s);
                metric_row(f, c, prec, a, (long)j, &st);
                for (size_t m = 0; m < u->n_metrics; m++)
                    metric_row(f, c, prec, a, (long)j, &u->metrics[m]);
            }
            for (size_t m = 0; m < r[i].n_agg[a]; m++)
                metric_row(f, c, prec, a, -1, &r[i].agg[a][m]);
        }
    }
}

/* ---- checks.csv ---- */

typedef struct check_rows { FILE *f; mb_report_summary *s; } check_rows;

static void check_row(void *ctx, const mb_case_result *r, const mb_expectation *e, long j,
                      const mb_metric_value *m, mb_verdict v)
{
    check_rows *w = ctx;
    FILE *f = w->f;
    w->s->checks++;
    w->s->skipped += v == MB_VERDICT_SKIPPED;
    w->s->failed += v == MB_VERDICT_FAIL;
    w->s->missing += v == MB_VERDICT_MISSING;
    mb_csv_text(f, r->c->name); mb_csv_sep(f);
    mb_csv_text(f, e->integrator); mb_csv_sep(f);
    dt_field(f, r->c, j); mb_csv_sep(f);
    mb_csv_text(f, e->text); mb_csv_sep(f);
    if (m && m->word)
        mb_csv_text(f, m->word);
    else if (m)
        mb_csv_number(f, m->value);
    mb_csv_sep(f);
    mb_csv_text(f, mb_verdict_name(v));
    mb_csv_end(f);
}

static void write_checks(FILE *f, const mb_case_result *r, size_t n, mb_report_summary *s)
{
    fputs("case,integrator,dt,expectation,value,verdict", f);
    mb_csv_end(f);
    check_rows w = { f, s };
    for (size_t i = 0; i < n; i++)
        mb_case_visit_checks(&r[i], check_row, &w);
}

/* Runs of outside programs that failed: defects of those programs, counted apart. */
static void count_external_failures(const mb_case_result *r, size_t n, mb_report_summary *s)
{
    for (size_t i = 0; i < n; i++) {
        const mb_case *c = r[i].c;
        for (size_t a = 0; a < c->n_integrators; a++)
            for (size_t j = 0; j < c->n_dt && mb_external_is_spec(c->integrators[a]); j++)
                s->external_failed += r[i].runs[a * c->n_dt + j].status == MB_RUN_FAILED;
    }
}

/* ---- timing.csv ---- */

static void timing_row(FILE *f, const mb_case *c, const mb_run_result *u)
{
    (void)c;
    fprintf(f, ",%ld,%d,%.6f,%.6f,%.6f,%.6f,%.1f", u->steps_done, u->repeats, u->wall_min,
            u->wall_median, u->cpu_min, u->cpu_median,
            u->steps_done ? 1e9 * u->cpu_min / (double)u->steps_done : 0.0);
}

static void write_timing(FILE *f, const mb_case_result *r, size_t n)
{
    fputs("case,integrator,precision,dt,steps,repeats,wall_min_s,wall_median_s,cpu_min_s,"
          "cpu_median_s,ns_per_step", f);
    mb_csv_end(f);
    write_run_rows(f, r, n, timing_row);
}

/* ---- series/ ---- */

static void series_name(const mb_case *c, size_t a, size_t j, char *buf, size_t size)
{
    char spec[400];
    size_t k = 0;
    for (const char *p = c->integrators[a]; *p && k + 1 < sizeof spec; p++)
        spec[k++] = (strchr("[]=,/ ", *p) ? '_' : *p);
    spec[k] = '\0';
    snprintf(buf, size, "%s__%s__dt%02zu.csv", c->name, spec, j);
}

static void write_series_file(FILE *f, const mb_run_result *u)
{
    for (size_t m = 0; m < MB_SERIES_COLUMNS; m++) {
        if (m)
            mb_csv_sep(f);
        fputs(mb_series_columns[m].name, f);
    }
    mb_csv_end(f);
    for (size_t k = 0; k < u->n_series; k++) {
        for (size_t m = 0; m < MB_SERIES_COLUMNS; m++) {
            if (m)
                mb_csv_sep(f);
            mb_csv_number(f, mb_series_value(&u->series[k], m));
        }
        mb_csv_end(f);
    }
}

/* ---- cases.csv: what each case is, for the HTML report ---- */

static void write_cases(FILE *f, const mb_case_result *r, size_t n)
{
    fputs("case,problem,t_end,description", f);
    mb_csv_end(f);
    for (size_t i = 0; i < n; i++) {
        const mb_case *c = r[i].c;
        mb_csv_text(f, c->name); mb_csv_sep(f);
        mb_csv_text(f, c->problem ? c->problem->name : ""); mb_csv_sep(f);
        mb_csv_number(f, c->t_end); mb_csv_sep(f);
        mb_csv_text(f, c->description ? c->description : "");
        mb_csv_end(f);
    }
}

/* ---- all files ---- */

static mb_atomic_file *open_file(mb_report_files *S, const char *dir, const char *name)
{
    if (S->n == S->cap) {
        size_t cap = S->cap ? 2 * S->cap : 8;
        mb_atomic_file *it = realloc(S->items, cap * sizeof *it);
        if (it == NULL)
            return NULL;
        S->items = it;
        S->cap = cap;
    }
    if (mb_atomic_open(&S->items[S->n], dir, name) != MB_SUCCESS)
        return NULL;
    return &S->items[S->n++];
}

void mb_report_discard(mb_report_files *S)
{
    for (size_t k = 0; k < S->n; k++)
        mb_atomic_discard(&S->items[k]);
    free(S->items);
    S->items = NULL;
    S->n = S->cap = 0;
}

static int write_series(mb_report_files *S, const char *dir, const mb_case_result *r, size_t n)
{
    char sdir[4096];
    snprintf(sdir, sizeof sdir, "%s/series", dir);
    if (mb_output_make_dirs(sdir) != MB_SUCCESS)
        return MB_EIO;
    for (size_t i = 0; i < n; i++)
        for (size_t a = 0; a < r[i].c->n_integrators; a++)
            for (size_t j = 0; j < r[i].c->n_dt; j++) {
                char name[512];
                if (r[i].runs[a * r[i].c->n_dt + j].not_run)
                    continue;
                series_name(r[i].c, a, j, name, sizeof name);
                if (r[i].runs[a * r[i].c->n_dt + j].series_incomplete)
                    MB_ERROR(MB_ENOMEM, "series/%s: out of memory for the samples of the run "
                             "(raise sample_every)", name);
                if (mb_cancel_requested())
                    MB_ERROR(MB_EFAILED, "interrupted while writing the reports");
                mb_atomic_file *af = open_file(S, sdir, name);
                if (af == NULL)
                    return MB_EIO;
                write_series_file(af->f, &r[i].runs[a * r[i].c->n_dt + j]);
                if (mb_atomic_close(af) != MB_SUCCESS)
                    return MB_EIO;
            }
    return MB_SUCCESS;
}

/* A probes.csv of an earlier report in dir is replaced (by a header alone when no case
 * has probes), never left beside rows of another run. */
static int had_probes(const char *dir)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/probes.csv", dir);
    return stat(path, &st) == 0;
}

static int write_all(mb_report_files *S, const char *dir, const mb_case_result *r, size_t n,
                     int series, mb_report_summary *summary)
{
    mb_atomic_file *af;
    if (!(af = open_file(S, dir, "runs.csv")))
        return MB_EIO;
    write_runs(af->f, r, n);
    if (mb_atomic_close(af) != MB_SUCCESS || !(af = open_file(S, dir, "metrics.csv")))
        return MB_EIO;
    write_metrics(af->f, r, n);
    if (mb_atomic_close(af) != MB_SUCCESS || !(af = open_file(S, dir, "checks.csv")))
        return MB_EIO;
    write_checks(af->f, r, n, summary);
    count_external_failures(r, n, summary);
    if (mb_atomic_close(af) != MB_SUCCESS || !(af = open_file(S, dir, "timing.csv")))
        return MB_EIO;
    write_timing(af->f, r, n);
    if (mb_atomic_close(af) != MB_SUCCESS || !(af = open_file(S, dir, "cases.csv")))
        return MB_EIO;
    write_cases(af->f, r, n);
    if (mb_atomic_close(af) != MB_SUCCESS)
        return MB_EIO;
    if (mb_probes_asked(r, n) || had_probes(dir)) {
        if (!(af = open_file(S, dir, "probes.csv")))
            return MB_EIO;
        mb_probes_write_csv(af->f, r, n);
        if (mb_atomic_close(af) != MB_SUCCESS)
            return MB_EIO;
    }
    return series ? write_series(S, dir, r, n) : MB_SUCCESS;
}

int mb_report_interrupted(void)
{
    MB_ERROR(MB_EFAILED, "interrupted while writing the reports; the previous report is kept");
}

/* The report directory (and series/) made, stale temporaries of earlier runs removed. */
static int start_dir(const char *dir, int series)
{
    if (mb_output_make_dirs(dir) != MB_SUCCESS)
        return MB_EIO;
    mb_report_clean_stale(dir);
    if (series) {
        char sdir[4096];
        snprintf(sdir, sizeof sdir, "%s/series", dir);
        mb_report_clean_stale(sdir);
    }
    return MB_SUCCESS;
}

int mb_report_prepare(const char *dir, const mb_case_result *r, size_t n, int series,
                      mb_report_summary *summary, mb_report_files *files)
{
    memset(summary, 0, sizeof *summary);
    memset(files, 0, sizeof *files);
    if (mb_cancel_requested())
        return mb_report_interrupted();
    if (start_dir(dir, series) != MB_SUCCESS)
        return MB_EIO;
    int st = write_all(files, dir, r, n, series, summary);
    if (st == MB_SUCCESS && mb_cancel_requested())
        st = mb_report_interrupted();
    if (st != MB_SUCCESS)
        mb_report_discard(files);
    return st;
}

int mb_report_commit(mb_report_files *files)
{
    int st = MB_SUCCESS;
    for (size_t k = 0; k < files->n && st == MB_SUCCESS; k++)
        st = mb_atomic_commit(&files->items[k]);
    mb_report_discard(files);
    return st;
}

/* commit with the signals held, so the set of files is replaced as a whole */
static int commit_held(mb_report_files *files)
{
    int st;
    mb_cancel_hold(1);
    if (mb_cancel_requested()) {
        mb_report_discard(files);
        st = mb_report_interrupted();
    } else {
        st = mb_report_commit(files);
    }
    mb_cancel_hold(0);
    return st;
}

int mb_report_write(const char *dir, const mb_case_result *r, size_t n, int series,
                    mb_report_summary *summary)
{
    mb_report_files files;
    int st = mb_report_prepare(dir, r, n, series, summary, &files);
    return st != MB_SUCCESS ? st : commit_held(&files);
}

/* A shard: runs.csv and timing.csv of its runs, the extra files, series/ when kept. */
static int write_partial(mb_report_files *S, const char *dir, const mb_case_result *r,
                         size_t n, int series, const mb_report_extra *extra, size_t n_extra)
{
    mb_atomic_file *af;
    if (!(af = open_file(S, dir, "runs.csv")))
        return MB_EIO;
    write_runs(af->f, r, n);
    if (mb_atomic_close(af) != MB_SUCCESS || !(af = open_file(S, dir, "timing.csv")))
        return MB_EIO;
    write_timing(af->f, r, n);
    if (mb_atomic_close(af) != MB_SUCCESS)
        return MB_EIO;
    for (size_t k = 0; k < n_extra; k++) {
        if (!(af = open_file(S, dir, extra[k].name)))
            return MB_EIO;
        int st = extra[k].write(af->f, extra[k].ctx);
        if (st != MB_SUCCESS)
            return st;
        if (mb_atomic_close(af) != MB_SUCCESS)
            return MB_EIO;
    }
    return series ? write_series(S, dir, r, n) : MB_SUCCESS;
}

int mb_report_write_partial(const char *dir, const mb_case_result *r, size_t n, int series,
                            const mb_report_extra *extra, size_t n_extra)
{
    mb_report_files files;
    memset(&files, 0, sizeof files);
    if (mb_cancel_requested())
        return mb_report_interrupted();
    if (start_dir(dir, series) != MB_SUCCESS)
        return MB_EIO;
    int st = write_partial(&files, dir, r, n, series, extra, n_extra);
    if (st == MB_SUCCESS && mb_cancel_requested())
        st = mb_report_interrupted();
    if (st != MB_SUCCESS) {
        mb_report_discard(&files);
        return st;
    }
    return commit_held(&files);
}
