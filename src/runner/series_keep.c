/* series_keep.c -- keeping a run's --series samples within MB_SERIES_MAX_ROWS (mb_series.h).
 *
 * Offered sample m (0, 1, 2, ...) is kept when m is a multiple of the stride.  With
 * MB_SERIES_MAX_ROWS rows held (offers 0, s, ..., (MAX - 1) s) the rows of even index are
 * kept and the stride doubles, so the next kept offer, MAX s, is again on the grid.  An
 * offer the stride skips is written in the slot after the last row and kept there by
 * mb_series_finish if no later offer replaces it. */
#include "mb_series.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define COLUMN(name, field) { name, offsetof(mb_series_sample, field) }
const mb_series_column mb_series_columns[MB_SERIES_COLUMNS] = {
    COLUMN("t", t), COLUMN("energy_rel_error", energy_rel),
    COLUMN("balance_rel_residual", balance_rel), COLUMN("x", x[0]), COLUMN("y", x[1]),
    COLUMN("z", x[2]), COLUMN("vx", v[0]), COLUMN("vy", v[1]), COLUMN("vz", v[2]),
    COLUMN("angmom_rel_error", angmom_rel), COLUMN("angmom_direction_error", angmom_angle),
    COLUMN("quat_norm_error_max", quat_norm_max), COLUMN("omega_body_mid", omega_body_mid),
};

/* every number of a sample is a column: the table is the one list of a sample's fields */
_Static_assert(sizeof(mb_series_sample) == MB_SERIES_COLUMNS * sizeof(double),
               "mb_series_columns must name every field of mb_series_sample");

double mb_series_value(const mb_series_sample *s, size_t k)
{
    double v;
    memcpy(&v, (const char *)s + mb_series_columns[k].offset, sizeof v);
    return v;
}

void mb_series_set(mb_series_sample *s, size_t k, double v)
{
    memcpy((char *)s + mb_series_columns[k].offset, &v, sizeof v);
}

/* room for n + 1 rows (the kept ones and the held-aside last offer) */
static int reserve(mb_run_result *r)
{
    if (r->n_series < r->cap_series)
        return 1;
    size_t cap = r->cap_series ? 2 * r->cap_series : 256;
    if (cap > (size_t)MB_SERIES_MAX_ROWS + 1)
        cap = (size_t)MB_SERIES_MAX_ROWS + 1;
    mb_series_sample *s = realloc(r->series, cap * sizeof *s);
    if (s == NULL) {
        r->series_incomplete = 1;    /* the report writer refuses a series with gaps */
        return 0;
    }
    r->series = s;
    r->cap_series = cap;
    return 1;
}

static void halve(mb_run_result *r)
{
    for (size_t k = 0; 2 * k < r->n_series; k++)
        r->series[k] = r->series[2 * k];
    r->n_series = (r->n_series + 1) / 2;
    r->series_stride = 2 * (r->series_stride ? r->series_stride : 1);
}

void mb_series_offer(mb_run_result *r, const mb_series_sample *s)
{
    long m = r->series_offered++;
    if (r->series_stride == 0)
        r->series_stride = 1;
    if (m % r->series_stride == 0 && r->n_series == (size_t)MB_SERIES_MAX_ROWS)
        halve(r);
    if (!reserve(r))
        return;
    r->series[r->n_series] = *s;
    r->series_held = m % r->series_stride != 0;
    if (!r->series_held)
        r->n_series++;
}

void mb_series_finish(mb_run_result *r)
{
    if (r->series_held) {
        r->n_series++;
        r->series_held = 0;
    }
}
