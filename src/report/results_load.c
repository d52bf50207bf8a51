/* results_load.c -- reading a report directory back (mb_results.h). */
#include "mb_results.h"
#include "mb_baseline.h"
#include "mb_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_COLS 128

void mb_csv_table_free(mb_csv_table *t)
{
    if (t == NULL)
        return;
    for (size_t k = 0; k < t->n_cols; k++)
        free(t->head[k]);
    for (size_t k = 0; k < t->n_rows * t->n_cols; k++)
        free(t->cells[k]);
    free(t->head);
    free(t->cells);
    free(t);
}

static int append_row(mb_csv_table *t, char **f, size_t *cap)
{
    if ((t->n_rows + 1) * t->n_cols > *cap) {
        size_t c2 = *cap ? 2 * *cap : 64 * t->n_cols;
        char **cells = realloc(t->cells, c2 * sizeof *cells);
        if (cells == NULL)
            MB_ERROR(MB_ENOMEM, "out of memory");
        t->cells = cells;
        *cap = c2;
    }
    memcpy(&t->cells[t->n_rows * t->n_cols], f, t->n_cols * sizeof *f);
    t->n_rows++;
    return MB_SUCCESS;
}

static int read_rows(FILE *fp, const char *path, mb_csv_table *t)
{
    size_t cap = 0;
    for (long line = 2;; line++) {
        char *f[MAX_COLS];
        int n = mb_csv_read_record(fp, f, MAX_COLS);
        if (n == 0)
            return MB_SUCCESS;
        if (n != (int)t->n_cols) {
            for (int k = 0; k < n; k++)
                free(f[k]);
            MB_ERROR(MB_EINVAL, "%s: record %ld: %d fields, the header has %zu", path, line,
                     n, t->n_cols);
        }
        if (append_row(t, f, &cap) != MB_SUCCESS) {
            for (int k = 0; k < n; k++)
                free(f[k]);
            return MB_ENOMEM;
        }
    }
}

int mb_csv_table_read(const char *path, mb_input_kind kind, int optional, mb_csv_table **out)
{
    *out = NULL;
    struct stat sb;
    if (optional && lstat(path, &sb) != 0 && errno == ENOENT)
        return MB_ENOTFOUND;
    FILE *fp = mb_input_open(path, kind);
    if (fp == NULL)
        return mb_last_error_code();
    mb_csv_table *t = calloc(1, sizeof *t);
    char *f[MAX_COLS];
    int n = t ? mb_csv_read_record(fp, f, MAX_COLS) : 0;
    int st = MB_SUCCESS;
    if (t == NULL) {
        st = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    } else if (n <= 0) {
        st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s: no header row", path);
    } else if ((t->head = malloc((size_t)n * sizeof *t->head)) == NULL) {
        for (int k = 0; k < n; k++)
            free(f[k]);
        st = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    } else {
        memcpy(t->head, f, (size_t)n * sizeof *f);
        t->n_cols = (size_t)n;
        st = read_rows(fp, path, t);
    }
    fclose(fp);
    if (st != MB_SUCCESS) {
        mb_csv_table_free(t);
        return st;
    }
    *out = t;
    return MB_SUCCESS;
}

int mb_csv_col(const mb_csv_table *t, const char *name)
{
    for (size_t k = 0; t && k < t->n_cols; k++)
        if (strcmp(t->head[k], name) == 0)
            return (int)k;
    return -1;
}

const char *mb_csv_cell(const mb_csv_table *t, size_t row, int col)
{
    return col < 0 || row >= t->n_rows ? "" : t->cells[row * t->n_cols + (size_t)col];
}

double mb_results_number(const char *s)
{
    char *end;
    if (s == NULL || *s == '\0')
        return NAN;
    double v = strtod(s, &end);
    return *end == '\0' ? v : NAN;
}

void mb_results_free(mb_results *r)
{
    if (r == NULL)
        return;
    mb_csv_table_free(r->runs);
    mb_csv_table_free(r->metrics);
    mb_csv_table_free(r->checks);
    mb_csv_table_free(r->case_table);
    mb_csv_table_free(r->timing);
    free(r->cases);
    free(r->dir);
    free(r);
}

static int list_cases(mb_results *r)
{
    int col = mb_csv_col(r->runs, "case");
    if (col < 0)
        MB_ERROR(MB_EINVAL, "%s/runs.csv: no 'case' column", r->dir);
    r->cases = calloc(r->runs->n_rows + 1, sizeof *r->cases);
    if (r->cases == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    for (size_t k = 0; k < r->runs->n_rows; k++) {
        char *name = (char *)mb_csv_cell(r->runs, k, col);
        if (r->n_cases == 0 || strcmp(r->cases[r->n_cases - 1], name) != 0)
            r->cases[r->n_cases++] = name;
    }
    return MB_SUCCESS;
}

int mb_results_load(const char *dir, mb_results **out)
{
    *out = NULL;
    mb_results *r = calloc(1, sizeof *r);
    if (r == NULL || (r->dir = strdup(dir)) == NULL) {
        free(r);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    int st = mb_csv_table_read(path, MB_INPUT_RUNS, 0, &r->runs);
    if (st == MB_SUCCESS) {
        snprintf(path, sizeof path, "%s/metrics.csv", dir);
        st = mb_csv_table_read(path, MB_INPUT_METRICS, 0, &r->metrics);
    }
    if (st == MB_SUCCESS) {
        snprintf(path, sizeof path, "%s/checks.csv", dir);
        st = mb_csv_table_read(path, MB_INPUT_CHECKS, 1, &r->checks);
        if (st == MB_ENOTFOUND)
            st = MB_SUCCESS;
    }
    if (st == MB_SUCCESS) {
        snprintf(path, sizeof path, "%s/cases.csv", dir);
        st = mb_csv_table_read(path, MB_INPUT_CASES, 1, &r->case_table);
        if (st == MB_ENOTFOUND)
            st = MB_SUCCESS;
    }
    if (st == MB_SUCCESS) {
        snprintf(path, sizeof path, "%s/timing.csv", dir);
        st = mb_csv_table_read(path, MB_INPUT_TIMING, 1, &r->timing);
        if (st == MB_ENOTFOUND)
            st = MB_SUCCESS;
    }
    if (st == MB_SUCCESS)
        st = list_cases(r);
    if (st != MB_SUCCESS) {
        mb_results_free(r);
        return st;
    }
    *out = r;
    return MB_SUCCESS;
}

const char **mb_results_integrators(const mb_results *r, const char *case_name, size_t *n)
{
    int cc = mb_csv_col(r->runs, "case"), ci = mb_csv_col(r->runs, "integrator");
    const char **list = calloc(r->runs->n_rows + 1, sizeof *list);
    *n = 0;
    if (list == NULL)
        return NULL;
    for (size_t k = 0; k < r->runs->n_rows; k++) {
        if (strcmp(mb_csv_cell(r->runs, k, cc), case_name) != 0)
            continue;
        const char *spec = mb_csv_cell(r->runs, k, ci);
        int seen = 0;
        for (size_t j = 0; j < *n && !seen; j++)
            seen = strcmp(list[j], spec) == 0;
        if (!seen)
            list[(*n)++] = spec;
    }
    return list;
}

const char *mb_results_metric(const mb_results *r, const char *case_name,
                              const char *integrator, const char *metric, const char **detail)
{
    const mb_csv_table *t = r->metrics;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator"), cd = mb_csv_col(t, "dt");
    int cm = mb_csv_col(t, "metric"), cv = mb_csv_col(t, "value"), cx = mb_csv_col(t, "detail");
    for (size_t k = 0; k < t->n_rows; k++)
        if (!strcmp(mb_csv_cell(t, k, cm), metric) && !strcmp(mb_csv_cell(t, k, cc), case_name)
            && !strcmp(mb_csv_cell(t, k, ci), integrator) && !mb_csv_cell(t, k, cd)[0]) {
            if (detail)
                *detail = mb_csv_cell(t, k, cx);
            return mb_csv_cell(t, k, cv);
        }
    return NULL;
}

const char *mb_results_case_description(const mb_results *r, const char *case_name)
{
    const mb_csv_table *t = r->case_table;
    int cc = mb_csv_col(t, "case"), cd = mb_csv_col(t, "description");
    for (size_t k = 0; t && k < t->n_rows; k++)
        if (!strcmp(mb_csv_cell(t, k, cc), case_name))
            return mb_csv_cell(t, k, cd);
    return "";
}
