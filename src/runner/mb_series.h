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

/* Rows kept before decimation starts (even: halving keeps the stride grid). */
#define MB_SERIES_MAX_ROWS 262144L

/* Offer sample s of run r (on allocation failure r->series_incomplete is set). */
void mb_series_offer(mb_run_result *r, const mb_series_sample *s);
/* After the run's last offer: keep the last sample if the stride skipped it. */
void mb_series_finish(mb_run_result *r);

#endif
