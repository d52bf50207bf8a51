/* series_rows.c -- the time series of one run for the plots (mb_series_rows.h). */
#include "mb_series_rows.h"
#include "mb_runner.h"
#include "mb_status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int mb_series_column_index(const char *name)
{
    for (size_t k = 0; k < MB_SERIES_COLUMNS; k++)
        if (!strcmp(mb_series_columns[k].name, name))
            return (int)k;
    return -1;
}

/* the run in memory: case by name, integrator by its spec, dt index j */
static int from_memory(const mb_results *r, const char *c, const char *spec, size_t j,
                       mb_series_rows *out)
{
    for (size_t k = 0; k < r->n_memory; k++) {
        const mb_case_result *cr = &r->memory[k];
        if (strcmp(cr->c->name, c) != 0)
            continue;
        for (size_t a = 0; a < cr->c->n_integrators; a++)
            if (!strcmp(cr->c->integrators[a], spec) && j < cr->c->n_dt) {
                const mb_run_result *u = &cr->runs[a * cr->c->n_dt + j];
                out->rows = u->series;
                out->n = u->not_run ? 0 : u->n_series;
                return out->n > 0;
            }
    }
    return 0;
}

/* the file of series/ as the report writer names it: spec with []=,/ and blanks
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

static int from_file(const char *path, mb_series_rows *out)
{
    mb_csv_table *t = NULL;
    if (mb_csv_table_read(path, MB_INPUT_SERIES, 0, &t) != MB_SUCCESS)
        return -1;
    int col[MB_SERIES_COLUMNS];
    for (size_t m = 0; m < MB_SERIES_COLUMNS; m++)
        if ((col[m] = mb_csv_col(t, mb_series_columns[m].name)) < 0) {
            mb_csv_table_free(t);
            mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s: no column %s (series "
                            "written by an older motionbench? run again with --series)",
                            path, mb_series_columns[m].name);
            return -1;
        }
    out->owned = calloc(t->n_rows + 1, sizeof *out->owned);
    if (out->owned == NULL) {
        mb_csv_table_free(t);
        mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory reading %s", path);
        return -1;
    }
    for (size_t k = 0; k < t->n_rows; k++)
        for (size_t m = 0; m < MB_SERIES_COLUMNS; m++)
            mb_series_set(&out->owned[k], m, mb_results_number(mb_csv_cell(t, k, col[m])));
    out->rows = out->owned;
    out->n = t->n_rows;
    mb_csv_table_free(t);
    return out->n > 0;
}

int mb_series_rows_get(const mb_results *r, const char *c, const char *spec, size_t j,
                       mb_series_rows *out)
{
    memset(out, 0, sizeof *out);
    if (r->memory != NULL)
        return from_memory(r, c, spec, j, out);
    char path[4096];
    struct stat sb;
    series_path(r, c, spec, j, path, sizeof path);
    if (stat(path, &sb) != 0 && errno == ENOENT)
        return 0;
    return from_file(path, out);
}

void mb_series_rows_free(mb_series_rows *s)
{
    free(s->owned);
    memset(s, 0, sizeof *s);
}
