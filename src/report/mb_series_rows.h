/* mb_series_rows.h -- the time series of one run, for the plots: from the runs in memory
 * when the report was just written (run --plots), else from REPORT_DIR/series/ (written
 * by run --series), else none. */
#ifndef MB_SERIES_ROWS_H
#define MB_SERIES_ROWS_H

#include <stddef.h>

#include "mb_results.h"
#include "mb_series.h"

typedef struct mb_series_rows {
    size_t n;
    const mb_series_sample *rows;
    mb_series_sample *owned;      /* read from a file: freed by mb_series_rows_free */
} mb_series_rows;

/* The samples of run j (its index among the runs of (case_name, spec) in runs.csv) into
 * *out: 1 when there are some, 0 when none was kept or written, -1 on a file that cannot
 * be read or lacks a column (message recorded, naming the file). */
int mb_series_rows_get(const mb_results *r, const char *case_name, const char *spec, size_t j,
                       mb_series_rows *out);
void mb_series_rows_free(mb_series_rows *s);
/* Index of a column of series/ by name (mb_series_columns), -1 when unknown. */
int mb_series_column_index(const char *name);

#endif
