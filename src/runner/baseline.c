/* baseline.c -- the regression check of metrics.csv against a baseline (mb_baseline.h).
 * Each row gets a verdict (same, regression, improvement, missing, new); printing and CI
 * formats are the program's business (src/cli/cmd_check.c). */
#include "mb_baseline.h"
#include "mb_metrics.h"
#include "mb_input.h"
#include "mb_status.h"

#include <errno.h>
#include <math.h>

/* absolute floor of relative comparisons (see within) */
#define MB_BASELINE_ROUNDOFF_FLOOR 1e-13
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_CASE, F_INTEGRATOR, F_PRECISION, F_DT, F_METRIC, F_VALUE, F_TOL, F_DETAIL, NF };
static const char *const header[NF] = { "case", "integrator", "precision", "dt", "metric",
                                        "value", "tolerance", "detail" };

typedef struct row { char *f[NF]; int matched; } row;

struct mb_metric_table {
    size_t n, cap;
    row *rows;
    size_t renamed;   /* rows read under a metric's old name */
};

size_t mb_metric_table_renamed(const mb_metric_table *t) { return t->renamed; }

/* A metric under an old name (mb_metric_renames) is read as today's name, so a baseline
 * written before a rename still matches the new metrics.csv. */
static int migrate_name(mb_metric_table *t, char **metric)
{
    const char *now = mb_metric_renamed(*metric);
    if (now == NULL)
        return MB_SUCCESS;
    char *copy = strdup(now);
    if (copy == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    free(*metric);
    *metric = copy;
    t->renamed++;
    return MB_SUCCESS;
}

void mb_metric_table_free(mb_metric_table *t)
{
    if (t == NULL)
        return;
    for (size_t k = 0; k < t->n; k++)
        for (int j = 0; j < NF; j++)
            free(t->rows[k].f[j]);
    free(t->rows);
    free(t);
}

static void free_fields(char **f, int n)
{
    for (int k = 0; k < n; k++)
        free(f[k]);
}

void mb_metric_table_keep_integrators(mb_metric_table *t, const char *const *names, size_t n,
                                      int *found)
{
    size_t kept = 0;
    for (size_t k = 0; k < t->n; k++) {
        size_t j = 0;
        while (j < n && strcmp(names[j], t->rows[k].f[F_INTEGRATOR]) != 0)
            j++;
        if (j < n) {
            found[j] = 1;
            t->rows[kept++] = t->rows[k];
        } else {
            free_fields(t->rows[k].f, NF);
        }
    }
    t->n = kept;
}

static int check_header(FILE *fp, const char *path)
{
    char *f[NF + 1];
    int n = mb_csv_read_record(fp, f, NF + 1);
    int ok = n == NF;
    for (int k = 0; ok && k < NF; k++)
        ok = strcmp(f[k], header[k]) == 0;
    if (n > 0)
        free_fields(f, n);
    if (!ok)
        MB_ERROR(MB_EINVAL, "%s:1: not a metrics.csv (expected the header "
                 "case,integrator,precision,dt,metric,value,tolerance,detail)", path);
    return MB_SUCCESS;
}

static int add_row(mb_metric_table *t, char **f)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        row *r = realloc(t->rows, cap * sizeof *r);
        if (r == NULL)
            MB_ERROR(MB_ENOMEM, "out of memory");
        t->rows = r;
        t->cap = cap;
    }
    memcpy(t->rows[t->n].f, f, sizeof(char *) * NF);
    t->rows[t->n].matched = 0;
    t->n++;
    return MB_SUCCESS;
}

static int tolerance(const char *s, int *relative, double *tol);

/* A tolerance is empty (exact comparison) or rel:T / abs:T with a number T >= 0: any
 * other text ("rel:abc") is refused rather than read as an exact comparison. */
static int check_tolerance_field(const char *path, long line, const char *s)
{
    int rel;
    double tol;
    if (s[0] != '\0' && !tolerance(s, &rel, &tol))
        MB_ERROR(MB_EINVAL, "%s: record %ld: tolerance '%s': write rel:T or abs:T with a "
                 "number T >= 0 (or leave it empty for an exact comparison)", path, line, s);
    return MB_SUCCESS;
}

int mb_metric_table_read(const char *path, mb_metric_table **out)
{
    *out = NULL;
    FILE *fp = mb_input_open(path, MB_INPUT_METRICS);
    if (fp == NULL)
        return mb_last_error_code();
    mb_metric_table *t = calloc(1, sizeof *t);
    int st = t ? check_header(fp, path) : MB_ENOMEM;
    for (long line = 2; st == MB_SUCCESS; line++) {
        char *f[NF + 1];
        int n = mb_csv_read_record(fp, f, NF + 1);
        if (n == 0)
            break;
        if (n < 0) {
            st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s: record %ld: malformed CSV "
                                 "(a NUL byte, a stray quote or a bare CR)", path, line);
            break;
        }
        if (n != NF) {
            if (n > 0)
                free_fields(f, n);
            st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s: record %ld: expected %d "
                                 "fields", path, line, NF);
            break;
        }
        if ((st = check_tolerance_field(path, line, f[F_TOL])) != MB_SUCCESS
            || (st = migrate_name(t, &f[F_METRIC])) != MB_SUCCESS
            || (st = add_row(t, f)) != MB_SUCCESS)
            free_fields(f, n);
    }
    fclose(fp);
    if (st != MB_SUCCESS) {
        mb_metric_table_free(t);
        return st;
    }
    *out = t;
    return MB_SUCCESS;
}

static int same_key(const row *a, const row *b)
{
    for (int k = F_CASE; k <= F_METRIC; k++)
        if (strcmp(a->f[k], b->f[k]) != 0)
            return 0;
    return 1;
}

static int number(const char *s, double *v)
{
    char *end;
    if (*s == '\0')
        return 0;
    *v = strtod(s, &end);
    return *end == '\0';
}

/* 1 when the tolerance text "rel:T" / "abs:T" parses */
static int tolerance(const char *s, int *relative, double *tol)
{
    if (strncmp(s, "rel:", 4) == 0)
        *relative = 1;
    else if (strncmp(s, "abs:", 4) == 0)
        *relative = 0;
    else
        return 0;
    return number(s + 4, tol) && *tol >= 0.0;
}

static int within(const char *old_s, const char *new_s, const char *tol_s)
{
    double o, n, tol;
    int rel;
    if (!number(old_s, &o) || !number(new_s, &n))
        return strcmp(old_s, new_s) == 0;
    if (isnan(o) || isnan(n))
        return isnan(o) && isnan(n);
    if (isinf(o) || isinf(n))
        return o == n;
    if (!tolerance(tol_s, &rel, &tol))
        return o == n;
    double d = fabs(n - o);
    if (!rel)
        return d <= tol;
    /* Relative tolerance, with an absolute round-off floor: values at the level of
     * double round-off (an error of 1e-16, a norm defect of 2e-16) carry no relative
     * precision, and libm's last bit may differ between CPUs (glibc picks FMA or SSE2
     * variants of sin, cos, exp at run time).  Any real regression of a scheme moves
     * such a metric far above 1e-13. */
    return d <= tol * fmax(fabs(o), fabs(n)) || d <= MB_BASELINE_ROUNDOFF_FLOOR;
}

/* The row of t with the key of `key` not matched yet (rows usually sit at the same
 * index in both files, so that index is tried first). */
static row *find(const mb_metric_table *t, const row *key, size_t hint)
{
    if (hint < t->n && !t->rows[hint].matched && same_key(&t->rows[hint], key))
        return &t->rows[hint];
    for (size_t k = 0; k < t->n; k++)
        if (!t->rows[k].matched && same_key(&t->rows[k], key))
            return &t->rows[k];
    return NULL;
}

/* The verdict on a baseline row b and its current row c whose values differ beyond the
 * tolerance: for one-sided metrics (metrics.def) a smaller magnitude is an improvement. */
static mb_row_verdict moved(const row *b, const row *c, int two_sided)
{
    const mb_metric_info *info = mb_metric_lookup(b->f[F_METRIC]);
    double o, n;
    if (two_sided || info == NULL || !info->one_sided || !number(b->f[F_VALUE], &o)
        || !number(c->f[F_VALUE], &n) || isnan(o) || isnan(n))
        return MB_ROW_REGRESSION;
    return fabs(n) < fabs(o) ? MB_ROW_IMPROVEMENT : MB_ROW_REGRESSION;
}

static void report(mb_baseline_visitor fn, void *ctx, const row *key, const char *old_value,
                   const char *new_value, const char *tol, mb_row_verdict v)
{
    mb_baseline_row r = { key->f[F_CASE], key->f[F_INTEGRATOR], key->f[F_PRECISION],
                          key->f[F_DT], key->f[F_METRIC], old_value, new_value, tol, v };
    fn(ctx, &r);
}

int mb_baseline_compare(const mb_metric_table *baseline, const mb_metric_table *current,
                        int two_sided, mb_baseline_visitor fn, void *ctx,
                        mb_baseline_summary *s)
{
    memset(s, 0, sizeof *s);
    for (size_t k = 0; k < current->n; k++)
        current->rows[k].matched = 0;
    for (size_t k = 0; k < baseline->n; k++) {
        const row *b = &baseline->rows[k];
        row *c = find(current, b, k);
        s->compared++;
        if (c == NULL) {
            s->regressions++;
            s->missing++;
            report(fn, ctx, b, b->f[F_VALUE], NULL, b->f[F_TOL], MB_ROW_MISSING);
            continue;
        }
        c->matched = 1;
        const char *tol = c->f[F_TOL][0] ? c->f[F_TOL] : b->f[F_TOL];
        mb_row_verdict v = within(b->f[F_VALUE], c->f[F_VALUE], tol) ? MB_ROW_SAME
                                                                    : moved(b, c, two_sided);
        s->regressions += v == MB_ROW_REGRESSION;
        s->improvements += v == MB_ROW_IMPROVEMENT;
        report(fn, ctx, b, b->f[F_VALUE], c->f[F_VALUE], tol, v);
    }
    for (size_t k = 0; k < current->n; k++)
        if (!current->rows[k].matched) {
            s->added++;
            report(fn, ctx, &current->rows[k], NULL, current->rows[k].f[F_VALUE],
                   current->rows[k].f[F_TOL], MB_ROW_NEW);
        }
    return MB_SUCCESS;
}
