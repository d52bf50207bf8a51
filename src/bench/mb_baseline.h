/* mb_baseline.h -- comparing a metrics.csv with a baseline (DESIGN 8).
 *
 * Rows are matched on (case, integrator, precision, dt, metric).  A baseline row is a
 * regression when its metric is missing from the new file, when a word (status)
 * changed, or when a number moved by more than the row's tolerance: "rel:T" means
 * |new - old| <= T max(|old|, |new|), "abs:T" means |new - old| <= T.  The tolerance is
 * the one the new metrics.csv carries (the current case files, [check] overrides
 * included), else the baseline's.  NaN equals only NaN. */
#ifndef MB_BASELINE_H
#define MB_BASELINE_H

#include <stdio.h>

typedef struct mb_metric_table mb_metric_table;

/* Read a metrics.csv written by mb_report_write. */
int mb_metric_table_read(const char *path, mb_metric_table **out);
void mb_metric_table_free(mb_metric_table *t);
size_t mb_metric_table_rows(const mb_metric_table *t);

typedef struct mb_baseline_summary {
    size_t compared, regressions, missing, added;
} mb_baseline_summary;

/* Compare; print one line per regression (and per added metric) to out. */
int mb_baseline_compare(const mb_metric_table *baseline, const mb_metric_table *current,
                        FILE *out, mb_baseline_summary *summary);

/* Parse one RFC 4180 record from f into at most max fields (malloc'd, caller frees);
 * returns the number of fields, 0 at end of file, negative on a malformed record. */
int mb_csv_read_record(FILE *f, char **fields, int max);

#endif
