/* mb_series.h -- the time series a run keeps with --series, bounded (doc/limits.md).
 *
 * A run offers one sample per sample_every steps (and its last step).  At most
 * MB_SERIES_MAX_ROWS + 1 rows are kept whatever the number of steps: every stride-th
 * offered sample, where the stride starts at 1 and doubles (dropping every other kept
 * row) each time MB_SERIES_MAX_ROWS rows are held, so the rows stay evenly spaced in
 * time; the last sample offered is always the last row.  Runs with at most
 * MB_SERIES_MAX_ROWS samples keep every one. */
#ifndef MB_SERIES_H
#define MB_SERIES_H

#include "mb_runner.h"

#include <stddef.h>

/* Rows kept before decimation starts (even: halving keeps the stride grid). */
#define MB_SERIES_MAX_ROWS 262144L

/* The columns of a series/ file, in order: name and the place of the value in a sample.
 * The one list of a sample's fields: the report writer (reports.c), the plots' reader
 * (src/report/series_rows.c) and the shards' unit records (unit_record.c) all go through
 * this table. */
typedef struct mb_series_column { const char *name; size_t offset; } mb_series_column;
#define MB_SERIES_COLUMNS 13
extern const mb_series_column mb_series_columns[MB_SERIES_COLUMNS];
/* The value of column k of sample s. */
double mb_series_value(const mb_series_sample *s, size_t k);
/* Set column k of sample s to v. */
void mb_series_set(mb_series_sample *s, size_t k, double v);

/* Offer sample s of run r (on allocation failure r->series_incomplete is set). */
void mb_series_offer(mb_run_result *r, const mb_series_sample *s);
/* After the run's last offer: keep the last sample if the stride skipped it. */
void mb_series_finish(mb_run_result *r);

#endif
