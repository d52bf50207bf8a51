/* cmd_check.c -- `motionbench check --baseline BASEDIR [DIR]`: the CI regression check of
 * DIR/metrics.csv (default reports/) against BASEDIR/metrics.csv (DESIGN 8).
 *
 * A change beyond the tolerance in either direction is a regression (two-sided, the
 * default); --one-sided lets error-like metrics fall (improvements).  --integrators LIST
 * compares the rows of those integrators only.
 * Output: one summary line first, then the regressions grouped by case and integrator,
 * each metric once (with how many time steps it moved at and the worst of them), then
 * the improvements (--one-sided), then the new metrics.  --update replaces the baseline by
 * the current metrics.csv after saying what changed; --junit FILE / --tap give one test
 * per (case, integrator, precision, dt) of the baseline, named with the shortest text of
 * dt, its metrics as JUnit properties, a failure of type "regression".
 * Exit: 0 no regression (or --update done), 1 some regression, 2 usage or unreadable /
 * malformed files. */
#include "cli.h"
#include "cli_options.h"
#include "junit_tap.h"
#include "mb_baseline.h"
#include "mb_cancel.h"
#include "mb_input.h"
#include "mb_number_text.h"
#include "mb_output.h"
#include "mb_report.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *out)
{
    fprintf(out,
        "usage: motionbench check [--baseline BASEDIR] [DIR] [--one-sided] [--update]\n"
        "                         [--integrators LIST] [--junit FILE] [--tap] [--quiet]\n\n"
        "Compare DIR/metrics.csv (default DIR: reports) with BASEDIR/metrics.csv.\n"
        "A regression is a baseline metric that is missing now, a changed status, or a\n"
        "value that moved by more than its tolerance, in either direction (the tolerance\n"
        "column of the new metrics.csv: rel:T relative, abs:T absolute; set per case in\n"
        "[check]).  With --one-sided, error-like metrics (errors, drifts, standard errors;\n"
        "see 'motionbench list metrics') may fall: a fall beyond the tolerance is then an\n"
        "improvement, reported with a suggestion to refresh the baseline.\n"
        "Metrics that are new (not in the baseline) are listed but are not regressions.\n\n"
        "  -b, --baseline BASEDIR  directory of the baseline metrics.csv (default: the\n"
        "                          committed baseline, %s/reports/baseline)\n"
        "      --one-sided         a fall of an error-like metric is an improvement\n"
        "      --two-sided         any move beyond the tolerance is a regression (the\n"
        "                          default; accepted for scripts that name it)\n"
        "      --integrators LIST  compare only the rows of these integrators (comma-\n"
        "                          separated, e.g. external:mine,leapfrog); each must have\n"
        "                          rows in DIR or in the baseline (not with --update)\n"
        "      --update            after the comparison, replace BASEDIR/metrics.csv by\n"
        "                          DIR/metrics.csv (exit 0 unless that fails)\n"
        "      --junit FILE        write JUnit XML: a test per case, integrator and dt of\n"
        "                          the baseline, its metrics as properties\n"
        "      --tap               print those tests as TAP on standard output (the\n"
        "                          report then goes to standard error)\n"
        "  -q, --quiet             the summary line and the regressions only\n"
        "  -h, --help              this text\n\n"
        "Exit status: 0 no regression, 1 regressions, 2 usage or bad input.\n",
        mb_cli_datadir());
}

typedef struct check_args {
    const char *base, *dir, *junit;
    int quiet, one_sided, two_sided, update, tap;
    const char *integrators;   /* --integrators LIST, or NULL: every integrator */
} check_args;

/* MB_CLI_PARSED, MB_CLI_HELP (help printed), or < 0 with the error in mb_last_error */
static int parse_args(int argc, char **argv, check_args *A)
{
    const mb_cli_option options[] = {
        { .name = "--baseline", .letter = 'b', .kind = MB_CLI_STRING, .dest = &A->base,
          .value = "a directory", .empty = "empty directory name" },
        { .name = "--junit", .kind = MB_CLI_STRING, .dest = &A->junit,
          .value = "a file name", .empty = "empty file name" },
        { .name = "--quiet", .letter = 'q', .kind = MB_CLI_FLAG, .dest = &A->quiet },
        { .name = "--one-sided", .kind = MB_CLI_FLAG, .dest = &A->one_sided },
        { .name = "--two-sided", .kind = MB_CLI_FLAG, .dest = &A->two_sided },
        { .name = "--integrators", .kind = MB_CLI_STRING, .dest = &A->integrators,
          .value = "a comma-separated list of integrators", .empty = "no integrator named",
          .flags = MB_CLI_ONCE },
        { .name = "--update", .kind = MB_CLI_FLAG, .dest = &A->update },
        { .name = "--tap", .kind = MB_CLI_FLAG, .dest = &A->tap },
    };
    const mb_cli_command cmd = { "check", options, sizeof options / sizeof *options, help,
                                 &A->dir, 1, NULL };
    size_t n = 0;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    if (st != MB_CLI_PARSED)
        return st;
    if (n == 1 && A->dir[0] == '\0')
        MB_ERROR(MB_EINVAL, "empty report directory name");
    if (A->one_sided && A->two_sided)
        MB_ERROR(MB_EINVAL, "--one-sided and --two-sided exclude each other");
    if (A->integrators && A->update)
        MB_ERROR(MB_EINVAL, "--integrators and --update together would drop the other "
                 "integrators' rows from the baseline");
    if (A->base == NULL) {
        static char default_base[4096];
        snprintf(default_base, sizeof default_base, "%s/reports/baseline", mb_cli_datadir());
        A->base = default_base;
    }
    return MB_CLI_PARSED;
}

/* ---- the compared rows ---- */

typedef struct row_list {
    size_t n, cap;
    mb_baseline_row *rows;
    int oom;
} row_list;

static void collect(void *ctx, const mb_baseline_row *r)
{
    row_list *L = ctx;
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 1024;
        mb_baseline_row *p = realloc(L->rows, cap * sizeof *p);
        if (p == NULL) {
            L->oom = 1;
            return;
        }
        L->rows = p;
        L->cap = cap;
    }
    L->rows[L->n++] = *r;
}

static int is_bad(mb_row_verdict v) { return v == MB_ROW_REGRESSION || v == MB_ROW_MISSING; }

static int in_block(const mb_baseline_row *r, int block)
{
    return block == MB_ROW_REGRESSION ? is_bad(r->verdict) : (int)r->verdict == block;
}

static int same_group(const mb_baseline_row *a, const mb_baseline_row *b)
{
    return !strcmp(a->case_name, b->case_name) && !strcmp(a->integrator, b->integrator)
           && !strcmp(a->precision, b->precision);
}

/* relative size of a change (0 when not two finite numbers) */
static double change_of(const mb_baseline_row *r)
{
    char *e1, *e2;
    if (!r->old_value || !r->new_value)
        return 0.0;
    double o = strtod(r->old_value, &e1), n = strtod(r->new_value, &e2);
    if (*e1 || *e2 || !isfinite(o) || !isfinite(n) || fmax(fabs(o), fabs(n)) == 0.0)
        return 0.0;
    return (n - o) / fmax(fabs(o), 1e-300);
}

/* a number in at most 6 significant digits, a word as it is */
static const char *short_value(const char *v, char *buf, size_t size)
{
    char *end;
    double x = v ? strtod(v, &end) : 0.0;
    if (v == NULL || *v == '\0' || *end != '\0')
        return v ? v : "";
    snprintf(buf, size, "%.6g", x);
    return buf;
}

static void print_change(FILE *out, const mb_baseline_row *w, size_t count)
{
    char b1[32], b2[32], b3[32];
    const char *dt = short_value(w->dt, b3, sizeof b3);
    if (count > 1)
        fprintf(out, "    %s at %zu time steps, worst dt=%s: ", w->metric, count, dt);
    else if (dt[0])
        fprintf(out, "    %s dt=%s: ", w->metric, dt);
    else
        fprintf(out, "    %s: ", w->metric);
    if (w->verdict == MB_ROW_MISSING) {
        fprintf(out, "missing (baseline %s)\n", short_value(w->old_value, b1, sizeof b1));
        return;
    }
    if (w->verdict == MB_ROW_NEW) {
        fprintf(out, "%s\n", short_value(w->new_value, b2, sizeof b2));
        return;
    }
    fprintf(out, "baseline %s, now %s", short_value(w->old_value, b1, sizeof b1),
            short_value(w->new_value, b2, sizeof b2));
    const char *tol = w->tolerance[0] ? w->tolerance : "exact";
    double ch = change_of(w);
    if (ch == 0.0)
        fprintf(out, " (tolerance %s)\n", tol);
    else if (strncmp(tol, "abs:", 4) == 0)
        fprintf(out, " (%+.3g; tolerance %s)\n", strtod(w->new_value, NULL)
                - strtod(w->old_value, NULL), tol);
    else
        fprintf(out, " (%+.3g%%; tolerance %s)\n", 100.0 * ch, tol);
}

/* The rows of one case and integrator [first, end) that belong to block, one line per
 * metric: the row with the largest change stands for the others. */
static void print_group(FILE *out, const row_list *L, size_t first, size_t end, int block)
{
    size_t count = 0;
    for (size_t k = first; k < end; k++)
        count += in_block(&L->rows[k], block);
    if (count == 0)
        return;
    const mb_baseline_row *g = &L->rows[first];
    fprintf(out, "  %s  %s%s%s: %zu row%s\n", g->case_name, g->integrator,
            strcmp(g->precision, "double") ? " " : "", strcmp(g->precision, "double")
            ? g->precision : "", count, count == 1 ? "" : "s");
    for (size_t k = first; k < end; k++) {
        const mb_baseline_row *r = &L->rows[k];
        int seen = 0;
        for (size_t p = first; p < k && !seen; p++)
            seen = in_block(&L->rows[p], block) && !strcmp(L->rows[p].metric, r->metric);
        if (!in_block(r, block) || seen)
            continue;
        const mb_baseline_row *worst = r;
        size_t same = 0;
        for (size_t p = k; p < end; p++)
            if (in_block(&L->rows[p], block) && !strcmp(L->rows[p].metric, r->metric)) {
                same++;
                if (fabs(change_of(&L->rows[p])) > fabs(change_of(worst)))
                    worst = &L->rows[p];
            }
        print_change(out, worst, same);
    }
}

static void print_block(FILE *out, const row_list *L, int block, const char *title)
{
    size_t count = 0;
    for (size_t k = 0; k < L->n; k++)
        count += in_block(&L->rows[k], block);
    if (count == 0)
        return;
    fprintf(out, "%s\n", title);
    for (size_t first = 0, end; first < L->n; first = end) {
        end = first + 1;
        while (end < L->n && same_group(&L->rows[first], &L->rows[end]))
            end++;
        print_group(out, L, first, end, block);
    }
}

static size_t cases_with_regressions(const row_list *L)
{
    size_t n = 0;
    const char *last = NULL;
    for (size_t k = 0; k < L->n; k++)
        if (is_bad(L->rows[k].verdict) && (!last || strcmp(last, L->rows[k].case_name))) {
            n++;
            last = L->rows[k].case_name;
        }
    return n;
}

static void print_report(FILE *out, const row_list *L, const mb_baseline_summary *s,
                         const check_args *A)
{
    size_t nc = cases_with_regressions(L);
    fprintf(out, "%zu baseline metrics compared: %zu regression%s (%zu missing) in %zu case%s, "
            "%zu improvement%s, %zu new%s\n", s->compared, s->regressions,
            s->regressions == 1 ? "" : "s", s->missing, nc, nc == 1 ? "" : "s", s->improvements,
            s->improvements == 1 ? "" : "s", s->added, A->one_sided ? " (one-sided)" : "");
    print_block(out, L, MB_ROW_REGRESSION, "regressions (by case and integrator):");
    if (A->quiet)
        return;
    print_block(out, L, MB_ROW_IMPROVEMENT, "improvements beyond tolerance (if intended, refresh "
                "the baseline: motionbench check --baseline BASEDIR DIR --update):");
    print_block(out, L, MB_ROW_NEW, "new (not in the baseline):");
}

/* ---- CI formats ---- */

/* The rows of one test: same case, integrator, precision and dt. */
static int same_test(const mb_baseline_row *a, const mb_baseline_row *b)
{
    return same_group(a, b) && !strcmp(a->dt, b->dt);
}

/* "leapfrog dt=0.01", "rk4 mpfr:256 dt=0.005", "leapfrog" (the rows over every dt):
 * dt as the shortest text that reads back as the same double (mb_number_text.h). */
static void test_name(const mb_baseline_row *r, char *name, size_t size)
{
    char dt[40] = "";
    char *end;
    double h = strtod(r->dt, &end);
    if (r->dt[0] && *end == '\0')
        mb_number_text(dt, sizeof dt, h);
    else
        snprintf(dt, sizeof dt, "%s", r->dt);
    int dbl = !strcmp(r->precision, "double");
    snprintf(name, size, "%s%s%s%s%s", r->integrator, dbl ? "" : " ", dbl ? "" : r->precision,
             dt[0] ? " dt=" : "", dt);
}

/* One regressed row of a test, for its failure text. */
static void describe_regression(FILE *f, const mb_baseline_row *r)
{
    if (r->verdict == MB_ROW_MISSING)
        fprintf(f, "%s: missing (baseline %s)", r->metric, r->old_value);
    else
        fprintf(f, "%s: baseline %s, now %s (tolerance %s)", r->metric, r->old_value,
                r->new_value, r->tolerance[0] ? r->tolerance : "exact");
}

/* The test of the rows like L->rows[first] (each marked in done): passed, or failed with
 * type "regression" naming every regressed row; its metrics' current values as
 * properties. */
static int add_test(mb_ci_log *log, const row_list *L, size_t first, unsigned char *done)
{
    char *why = NULL, name[512];
    size_t len = 0, bad = 0;
    FILE *f = open_memstream(&why, &len);
    if (f == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    for (size_t k = first; k < L->n; k++)
        if (!done[k] && same_test(&L->rows[first], &L->rows[k]) && is_bad(L->rows[k].verdict)) {
            fputs(bad++ ? "; " : "", f);
            describe_regression(f, &L->rows[k]);
        }
    fclose(f);
    test_name(&L->rows[first], name, sizeof name);
    int st = mb_ci_add(log, L->rows[first].case_name, name, bad ? why : NULL, 0);
    free(why);
    if (st == MB_SUCCESS && bad)
        mb_ci_set_failure_type(log, "regression");
    for (size_t k = first; k < L->n && st == MB_SUCCESS; k++)
        if (!done[k] && same_test(&L->rows[first], &L->rows[k])) {
            done[k] = 1;
            if (L->rows[k].new_value)
                st = mb_ci_add_property(log, L->rows[k].metric, L->rows[k].new_value);
        }
    return st;
}

/* One test per (case, integrator, precision, dt) that the baseline holds, in the
 * baseline's order (rows only in the new file join their test as properties). */
static int ci_outputs(const row_list *L, const check_args *A, mb_output *junit)
{
    if (!A->junit && !A->tap)
        return MB_SUCCESS;
    mb_ci_log log = { 0, 0, NULL };
    unsigned char *done = calloc(L->n ? L->n : 1, 1);
    int st = done ? MB_SUCCESS : mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    for (size_t k = 0; k < L->n && st == MB_SUCCESS; k++)
        if (!done[k] && L->rows[k].verdict != MB_ROW_NEW)
            st = add_test(&log, L, k, done);
    free(done);
    if (st == MB_SUCCESS && A->junit)
        st = mb_ci_prepare_junit(&log, A->junit, "motionbench check", junit);
    if (st == MB_SUCCESS && A->tap)
        mb_ci_write_tap(&log, stdout);
    mb_ci_free(&log);
    return st;
}

/* A copy of the current metrics.csv written under a temporary name in BASEDIR, complete
 * and synced; renamed over BASEDIR/metrics.csv by commit(). */
static int prepare_baseline(const char *base, const char *current, mb_atomic_file *af)
{
    char *text;
    size_t len;
    int st = mb_input_read_all(current, MB_INPUT_METRICS, &text, &len);
    if (st != MB_SUCCESS)
        return st;
    st = mb_atomic_open(af, base, "metrics.csv");
    if (st == MB_SUCCESS) {
        fwrite(text, 1, len, af->f);
        st = mb_atomic_close(af);
        if (st != MB_SUCCESS)
            mb_atomic_discard(af);
    }
    free(text);
    return st;
}

/* The outputs of a comparison (JUnit, TAP, the report, the updated baseline), all
 * written and checked, standard output flushed; nothing is in place yet. */
static int prepare_outputs(const check_args *A, const row_list *L, const mb_baseline_summary *s,
                           const char *bpath, const char *cpath, mb_output *junit,
                           mb_atomic_file *baseline)
{
    if (ci_outputs(L, A, junit) != MB_SUCCESS)
        return mb_last_error_code();
    print_report(A->tap ? stderr : stdout, L, s, A);
    if (A->update) {
        if (prepare_baseline(A->base, cpath, baseline) != MB_SUCCESS)
            return mb_last_error_code();
        printf("baseline %s updated: %zu regression%s, %zu improvement%s and %zu new row%s "
               "taken over, %zu row%s no longer produced dropped\n", bpath, s->regressions -
               s->missing, s->regressions - s->missing == 1 ? "" : "s", s->improvements,
               s->improvements == 1 ? "" : "s", s->added, s->added == 1 ? "" : "s", s->missing,
               s->missing == 1 ? "" : "s");
    }
    return mb_output_flush_stdout();
}

/* Rename the baseline and the JUnit file into place with the signals held; a request
 * that came first drops them both. */
static int commit(const check_args *A, mb_output *junit, mb_atomic_file *baseline)
{
    mb_cancel_hold(1);
    int st = MB_SUCCESS;
    if (mb_cancel_requested()) {
        st = mb_error_record(MB_EFAILED, __FILE__, __LINE__, "interrupted; the previous "
                             "baseline is kept");
    } else if (A->update) {
        st = mb_atomic_commit(baseline);
    }
    if (A->junit)
        if (mb_output_close(junit, st == MB_SUCCESS) != MB_SUCCESS && st == MB_SUCCESS)
            st = mb_last_error_code();
    mb_cancel_hold(0);
    return st;
}

/* --integrators LIST: both tables cut to the rows of the integrators named; a name with
 * rows in neither table is an error (a misspelt name would otherwise compare nothing). */
#define MAX_CHOSEN 64
static int keep_chosen(const char *list, mb_metric_table *b, mb_metric_table *c,
                       const char *bpath, const char *cpath)
{
    char copy[4096], *save = NULL;
    const char *names[MAX_CHOSEN];
    int found[MAX_CHOSEN] = { 0 };
    size_t n = 0;
    if (snprintf(copy, sizeof copy, "%s", list) >= (int)sizeof copy)
        MB_ERROR(MB_EINVAL, "--integrators: list longer than %zu characters", sizeof copy - 1);
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ')
            t++;
        for (char *e = t + strlen(t); e > t && e[-1] == ' '; e--)
            e[-1] = '\0';
        if (*t == '\0')
            continue;
        if (n == MAX_CHOSEN)
            MB_ERROR(MB_EINVAL, "--integrators: at most %d names", MAX_CHOSEN);
        names[n++] = t;
    }
    if (n == 0)
        MB_ERROR(MB_EINVAL, "--integrators '%s': no integrator named", list);
    mb_metric_table_keep_integrators(b, names, n, found);
    mb_metric_table_keep_integrators(c, names, n, found);
    for (size_t k = 0; k < n; k++)
        if (!found[k])
            MB_ERROR(MB_EINVAL, "--integrators: '%s' has no row in %s nor in %s", names[k],
                     cpath, bpath);
    return MB_SUCCESS;
}

static int compare(const check_args *A, const char *bpath, const char *cpath)
{
    mb_metric_table *b = NULL, *c = NULL;
    if (mb_metric_table_read(bpath, &b) != MB_SUCCESS)
        return mb_cli_fail("check");
    if (mb_metric_table_read(cpath, &c) != MB_SUCCESS) {
        mb_metric_table_free(b);
        return mb_cli_fail("check");
    }
    if (mb_metric_table_renamed(b) > 0)
        fprintf(stderr, "motionbench: check: %s: %zu row%s under a metric's old name, read "
                "under today's (doc/metrics.md, Names); `check --update` rewrites the baseline\n",
                bpath, mb_metric_table_renamed(b), mb_metric_table_renamed(b) == 1 ? "" : "s");
    if (A->integrators && keep_chosen(A->integrators, b, c, bpath, cpath) != MB_SUCCESS) {
        mb_metric_table_free(b);
        mb_metric_table_free(c);
        return mb_cli_fail("check");
    }
    row_list L = { 0, 0, NULL, 0 };
    mb_baseline_summary s;
    mb_baseline_compare(b, c, !A->one_sided, collect, &L, &s);
    int code = s.regressions ? MB_EXIT_FAIL : MB_EXIT_OK;
    mb_output junit = { NULL, NULL, NULL };
    mb_atomic_file baseline = { NULL, NULL, NULL };
    if (L.oom) {
        fprintf(stderr, "motionbench: check: out of memory\n");
        code = MB_EXIT_USAGE;
    } else if (prepare_outputs(A, &L, &s, bpath, cpath, &junit, &baseline) != MB_SUCCESS
               || commit(A, &junit, &baseline) != MB_SUCCESS) {
        if (A->junit && junit.path)
            mb_output_close(&junit, 0);
        code = mb_cli_fail(A->update ? "check --update" : "check");
        __fpurge(stdout);      /* reported once, not again at the exit */
        clearerr(stdout);
    } else if (A->update) {
        code = MB_EXIT_OK;
    }
    mb_atomic_discard(&baseline);
    free(L.rows);
    mb_metric_table_free(b);
    mb_metric_table_free(c);
    return code;
}

int mb_cmd_check(int argc, char **argv)
{
    mb_cancel_catch_signals();   /* before anything can be written */
    mb_output_catch_broken_pipe();
    check_args A = { NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL };
    int p = parse_args(argc, argv, &A);
    if (p != MB_CLI_PARSED)
        return p == MB_CLI_HELP ? MB_EXIT_OK : mb_cli_fail("check");
    char bpath[4096 + 16], cpath[4096];
    snprintf(bpath, sizeof bpath, "%s/metrics.csv", A.base);
    snprintf(cpath, sizeof cpath, "%s/metrics.csv", A.dir ? A.dir : "reports");
    return compare(&A, bpath, cpath);
}
