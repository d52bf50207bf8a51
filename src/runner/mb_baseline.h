/* mb_baseline.h -- comparing a metrics.csv with a baseline (DESIGN 8).
 *
 * Rows are matched on (case, integrator, precision, dt, metric).  A baseline row is a
 * regression when its metric is missing from the new file, when a word (status)
 * changed, or when a number moved by more than the row's tolerance: "rel:T" means
 * |new - old| <= T max(|old|, |new|), "abs:T" means |new - old| <= T.  The tolerance is
 * the one the new metrics.csv carries (the current case files, [check] overrides
 * included), else the baseline's.  NaN equals only NaN.
 * With two_sided (check's default) any move beyond the tolerance is a regression; without
 * it, one-sided metrics (src/metrics/metrics.def: errors, drifts, standard errors) that
 * moved beyond the tolerance towards a smaller magnitude are improvements. */
#ifndef MB_BASELINE_H
#define MB_BASELINE_H

#include <stdio.h>

typedef struct mb_metric_table mb_metric_table;

/* Read a metrics.csv written by mb_report_write.  A metric under an old name (renamed to
 * the naming convention, mb_metric_renames) is read under today's name; _renamed counts
 * those rows. */
int mb_metric_table_read(const char *path, mb_metric_table **out);
void mb_metric_table_free(mb_metric_table *t);
size_t mb_metric_table_renamed(const mb_metric_table *t);
/* Keep only the rows whose integrator is one of names[0..n-1] (check --integrators);
 * found[k] is set to 1 when names[k] had a row, left alone otherwise. */
void mb_metric_table_keep_integrators(mb_metric_table *t, const char *const *names, size_t n,
                                      int *found);

typedef struct mb_baseline_summary {
    size_t compared, regressions, improvements, missing, added;  /* missing: in regressions */
} mb_baseline_summary;

typedef enum {
    MB_ROW_SAME, MB_ROW_REGRESSION, MB_ROW_IMPROVEMENT, MB_ROW_MISSING, MB_ROW_NEW
} mb_row_verdict;

/* One compared row; old_value is NULL for a new row, new_value NULL for a missing one. */
typedef struct mb_baseline_row {
    const char *case_name, *integrator, *precision, *dt, *metric;
    const char *old_value, *new_value, *tolerance;
    mb_row_verdict verdict;
} mb_baseline_row;
typedef void (*mb_baseline_visitor)(void *ctx, const mb_baseline_row *row);

/* Compare: fn sees every baseline row in the baseline's order, then every new row; the
 * strings live as long as the tables. */
int mb_baseline_compare(const mb_metric_table *baseline, const mb_metric_table *current,
                        int two_sided, mb_baseline_visitor fn, void *ctx,
                        mb_baseline_summary *summary);

/* Parse one RFC 4180 record from f into at most max fields (malloc'd, caller frees);
 * returns the number of fields, 0 at end of file, negative on a malformed record. */
int mb_csv_read_record(FILE *f, char **fields, int max);

#endif
