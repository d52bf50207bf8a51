/* order_fit.c -- observed order of convergence (DESIGN 6, order.<quantity>).
 *
 * For a scheme of order p the global error behaves as e(dt) = C dt^p in the asymptotic
 * range, so log e = log C + p log dt and p is the least-squares slope (gsl_fit_linear)
 * of log e against log dt.  Points outside the asymptotic range are excluded and counted:
 *   invalid    the run did not finish (diverged, failed) or its error is not finite;
 *   roundoff   e < floor of that point (mb_roundoff_floor: it grows with the number of
 *              steps and the size of the state): below it the error is round-off; and
 *              every point finer than a round-off point, whatever its error: the
 *              truncation error only falls further as dt falls, so what such a point
 *              shows is round-off, which grows with the number of steps;
 *   saturated  the error does not decrease as dt decreases: both points of every
 *              non-increasing consecutive pair, and whatever lies outside the longest
 *              remaining chain of strictly decreasing error (at large dt the error
 *              saturates: bounded oscillation, O(1) phase error; at small dt round-off
 *              takes over).
 * Standard error of the slope: sqrt(cov11) from gsl_fit_linear (needs >= 3 points).
 * Pairwise orders log(e_b/e_a)/log(dt_b/dt_a) are given for consecutive used points.
 * Flags warn where the slope should not be read at face value: excluded (some point left
 * out), non-monotone (the pairwise orders both rise and fall by more than
 * MB_ORDER_MONOTONE_SLACK along dt: not one asymptotic regime), short-range (the used
 * points span less than half of the decades of dt asked for). */
#include "mb_metrics.h"
#include "mb_status.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <string.h>

/* The round-off floor of an error norm after `steps` steps of a state of `state_size`
 * doubles whose quantity has the scale `scale` (doc/results.md, "Round-off floor"):
 * every step rounds each component with a relative error of at most u = 2^-53; taken as
 * independent, these add up like a random walk, u scale sqrt(steps) per component, and
 * the norm over the components that feed the error adds sqrt(state_size).  The factor
 * MB_ROUNDOFF_SAFETY covers the several roundings of one update (a stage sum, a force
 * evaluation) that the one-rounding model leaves out. */
double mb_roundoff_floor(double scale, long steps, size_t state_size)
{
    double n = steps > 1 ? (double)steps : 1.0, d = state_size > 0 ? (double)state_size : 1.0;
    return MB_ROUNDOFF_SAFETY * 0x1p-53 * (scale > 0.0 ? scale : 1.0) * sqrt(n * d);
}

static void sort_by_dt(mb_order_fit *f, int *ok, double *floor)
{
    for (size_t i = 1; i < f->n; i++)      /* insertion sort: n is small */
        for (size_t j = i; j > 0 && f->dt[j] < f->dt[j - 1]; j--) {
            double t = f->dt[j]; f->dt[j] = f->dt[j - 1]; f->dt[j - 1] = t;
            t = f->err[j]; f->err[j] = f->err[j - 1]; f->err[j - 1] = t;
            t = floor[j]; floor[j] = floor[j - 1]; floor[j - 1] = t;
            int o = ok[j]; ok[j] = ok[j - 1]; ok[j - 1] = o;
        }
}

/* Points finer than the coarsest round-off point are round-off too (sorted by dt). */
static void mark_below_roundoff(mb_order_fit *f)
{
    size_t coarsest = f->n;
    for (size_t k = 0; k < f->n; k++)
        if (f->why[k] == MB_ORDER_ROUNDOFF)
            coarsest = k;
    for (size_t k = 0; coarsest < f->n && k < coarsest; k++)
        if (f->why[k] == MB_ORDER_USED)
            f->why[k] = MB_ORDER_ROUNDOFF;
}

/* Saturation: every candidate that forms a non-increasing pair (error not decreasing as
 * dt decreases) with its neighbouring candidate is saturated, both ends of a plateau
 * alike; of the rest, the longest chain of consecutive candidates with strictly
 * increasing error is kept (ties go to the finer chain, the more asymptotic one). */
static void mark_saturated(mb_order_fit *f)
{
    int flat[MB_ORDER_MAX_POINTS] = { 0 };
    long prev = -1;
    for (size_t k = 0; k < f->n; k++) {
        if (f->why[k] != MB_ORDER_USED)
            continue;
        if (prev >= 0 && !(f->err[k] > f->err[prev]))
            flat[prev] = flat[k] = 1;
        prev = (long)k;
    }
    for (size_t k = 0; k < f->n; k++)
        if (flat[k])
            f->why[k] = MB_ORDER_SATURATED;
    size_t best_lo = 0, best_len = 0, lo = 0, len = 0;
    double last = 0.0;
    for (size_t k = 0; k < f->n; k++) {
        if (f->why[k] != MB_ORDER_USED)
            continue;
        if (len > 0 && f->err[k] > last) {
            len++;
        } else {
            lo = k;
            len = 1;
        }
        last = f->err[k];
        if (len > best_len) {
            best_len = len;
            best_lo = lo;
        }
    }
    size_t count = 0;
    for (size_t k = 0; k < f->n; k++) {
        if (f->why[k] != MB_ORDER_USED)
            continue;
        if (k < best_lo || count >= best_len)
            f->why[k] = MB_ORDER_SATURATED;
        else
            count++;
    }
}

static void fit(mb_order_fit *f)
{
    double x[MB_ORDER_MAX_POINTS], y[MB_ORDER_MAX_POINTS];
    size_t m = 0, prev = 0;
    int have_prev = 0;
    for (size_t k = 0; k < f->n; k++) {
        if (f->why[k] != MB_ORDER_USED)
            continue;
        x[m] = log(f->dt[k]);
        y[m] = log(f->err[k]);
        if (have_prev) {
            size_t j = f->n_pairwise++;
            f->pairwise[j] = (y[m] - y[m - 1]) / (x[m] - x[m - 1]);
            f->pairwise_dt[j][0] = f->dt[prev];
            f->pairwise_dt[j][1] = f->dt[k];
        }
        prev = k;
        have_prev = 1;
        m++;
    }
    f->points = m;
    if (m < 2)
        return;
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    f->order = c1;
    if (m >= 3)
        f->stderr_ = sqrt(cov11);
}

/* the pairwise orders (coarse to fine) both rise and fall by more than the slack */
static int non_monotone(const mb_order_fit *f)
{
    int up = 0, down = 0;
    for (size_t k = 1; k < f->n_pairwise; k++) {
        double d = f->pairwise[k] - f->pairwise[k - 1];
        up |= d > MB_ORDER_MONOTONE_SLACK;
        down |= d < -MB_ORDER_MONOTONE_SLACK;
    }
    return up && down;
}

static unsigned flags_of(const mb_order_fit *f)
{
    unsigned flags = 0;
    if (f->excluded_invalid + f->excluded_roundoff + f->excluded_saturated > 0)
        flags |= MB_ORDER_FLAG_EXCLUDED;
    if (non_monotone(f))
        flags |= MB_ORDER_FLAG_NON_MONOTONE;
    double lo = 0.0, hi = 0.0;
    for (size_t k = 0; k < f->n; k++)
        if (f->why[k] == MB_ORDER_USED) {
            if (lo == 0.0)
                lo = f->dt[k];
            hi = f->dt[k];
        }
    double asked = f->n >= 2 ? log(f->dt[f->n - 1] / f->dt[0]) : 0.0;
    if (asked > 0.0 && (lo == 0.0 || log(hi / lo) < 0.5 * asked))
        flags |= MB_ORDER_FLAG_SHORT_RANGE;
    return flags;
}

const char *mb_order_flags_word(unsigned flags)
{
    static const char *const words[8] = {
        "none", "excluded", "non-monotone", "excluded+non-monotone", "short-range",
        "excluded+short-range", "non-monotone+short-range", "excluded+non-monotone+short-range"
    };
    return words[flags & 7u];
}

int mb_order_fit_compute(size_t n, const double *dt, const double *err, const int *valid,
                         double floor, mb_order_fit *f)
{
    double floors[MB_ORDER_MAX_POINTS];
    for (size_t k = 0; k < n && k < MB_ORDER_MAX_POINTS; k++)
        floors[k] = floor;
    return mb_order_fit_compute_floors(n, dt, err, valid, floors, f);
}

int mb_order_fit_compute_floors(size_t n, const double *dt, const double *err,
                                const int *valid, const double *floor_of, mb_order_fit *f)
{
    memset(f, 0, sizeof *f);
    f->order = NAN;
    f->stderr_ = NAN;
    if (n > MB_ORDER_MAX_POINTS)
        MB_ERROR(MB_EINVAL, "order fit: %zu points (at most %d)", n, MB_ORDER_MAX_POINTS);
    int ok[MB_ORDER_MAX_POINTS];
    double floor[MB_ORDER_MAX_POINTS];
    f->n = n;
    for (size_t k = 0; k < n; k++) {
        f->dt[k] = dt[k];
        f->err[k] = err[k];
        floor[k] = floor_of[k];
        ok[k] = valid ? valid[k] : 1;
    }
    sort_by_dt(f, ok, floor);
    for (size_t k = 0; k < n; k++) {
        if (!ok[k] || !isfinite(f->err[k]) || !(f->dt[k] > 0.0))
            f->why[k] = MB_ORDER_INVALID;
        else if (f->err[k] < floor[k] || f->err[k] <= 0.0)
            f->why[k] = MB_ORDER_ROUNDOFF;
        else
            f->why[k] = MB_ORDER_USED;
    }
    mark_below_roundoff(f);
    mark_saturated(f);
    for (size_t k = 0; k < n; k++) {
        if (f->why[k] == MB_ORDER_INVALID) f->excluded_invalid++;
        if (f->why[k] == MB_ORDER_ROUNDOFF) f->excluded_roundoff++;
        if (f->why[k] == MB_ORDER_SATURATED) f->excluded_saturated++;
    }
    fit(f);
    f->flags = flags_of(f);
    return MB_SUCCESS;
}
