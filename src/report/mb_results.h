/* mb_results.h -- a report directory read back (runs.csv, metrics.csv, checks.csv,
 * cases.csv, timing.csv, series/) for the plots and the HTML report.
 *
 * Each CSV file is held as a table of strings addressed by column name, so a column that
 * a later version adds does not break a reader; cases and integrators are listed in the
 * order of runs.csv, which is the order of the case files and of their [run] lists. */
#ifndef MB_RESULTS_H
#define MB_RESULTS_H

#include <stddef.h>

#include "mb_input.h"

typedef struct mb_csv_table {
    size_t n_cols, n_rows;
    char **head;            /* n_cols names */
    char **cells;           /* n_rows * n_cols strings */
} mb_csv_table;

/* Read a whole CSV file of the given kind (a regular file within its cap, mb_input.h)
 * with a header row; MB_EIO / MB_EINVAL with "path: ..." messages.  A missing file gives
 * MB_ENOTFOUND when optional is set (and *out = NULL). */
int mb_csv_table_read(const char *path, mb_input_kind kind, int optional, mb_csv_table **out);
void mb_csv_table_free(mb_csv_table *t);
/* Index of a column, -1 when absent. */
int mb_csv_col(const mb_csv_table *t, const char *name);
/* Cell (row, col), "" for col < 0. */
const char *mb_csv_cell(const mb_csv_table *t, size_t row, int col);

struct mb_case_result;

typedef struct mb_results {
    char *dir;
    mb_csv_table *runs, *metrics, *checks;   /* checks may be NULL (older reports) */
    mb_csv_table *case_table;                /* cases.csv; NULL in older reports */
    mb_csv_table *timing;                    /* timing.csv; NULL when absent */
    size_t n_cases;
    char **cases;                            /* names in report order */
    /* the runs themselves when the report was just written (run --plots): their time
     * series are read from memory instead of series/ (set by the caller; not owned) */
    const struct mb_case_result *memory;
    size_t n_memory;
} mb_results;

int mb_results_load(const char *dir, mb_results **out);
void mb_results_free(mb_results *r);

/* The integrators of a case in report order (n written to *n; caller frees the array,
 * not the strings). */
const char **mb_results_integrators(const mb_results *r, const char *case_name, size_t *n);
/* The value of an aggregate metric (empty dt) of (case, integrator), or NULL; its detail
 * column in *detail when asked. */
const char *mb_results_metric(const mb_results *r, const char *case_name,
                              const char *integrator, const char *metric, const char **detail);
/* The description of a case in cases.csv ("" when there is none). */
const char *mb_results_case_description(const mb_results *r, const char *case_name);
/* A number from a cell: NAN for empty or non-numeric text. */
double mb_results_number(const char *s);

#endif
