/* order_fit.c -- observed order of convergence (DESIGN 6, order.<quantity>).
 *
 * For a scheme of order p the global error behaves as e(dt) = C dt^p in the asymptotic
 * range, so log e = log C + p log dt and p is the least-squares slope (gsl_fit_linear)
 * of log e against log dt.  Points outside the asymptotic range are excluded and counted:
 *   invalid    the run did not finish (diverged, failed) or its error is not finite;
 *   roundoff   e < floor (the caller passes ~1e-13 times the scale of the quantity):
 *              below it the error is round-off, not truncation;
 *   saturated  the error does not decrease as dt decreases: both points of every
 *              non-increasing consecutive pair, and whatever lies outside the longest
 *              remaining chain of strictly decreasing error (at large dt the error
 *              saturates: bounded oscillation, O(1) phase error; at small dt round-off
 *              takes over).
 * Standard error of the slope: sqrt(cov11) from gsl_fit_linear (needs >= 3 points).
 * Pairwise orders log(e_b/e_a)/log(dt_b/dt_a) are given for consecutive used points. */
#include "mb_metrics.h"
#include "mb_status.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <string.h>

const char *mb_order_point_reason(mb_order_point_status s)
{
    switch (s) {
    case MB_ORDER_USED: return "used";
    case MB_ORDER_INVALID: return "run did not finish or error not finite";
    case MB_ORDER_ROUNDOFF: return "below the round-off floor";
    default: return "saturated (error not decreasing with dt)";
    }
}

static void sort_by_dt(mb_order_fit *f, int *ok)
{
    for (size_t i = 1; i < f->n; i++)      /* insertion sort: n is small */
        for (size_t j = i; j > 0 && f->dt[j] < f->dt[j - 1]; j--) {
            double t = f->dt[j]; f->dt[j] = f->dt[j - 1]; f->dt[j - 1] = t;
            t = f->err[j]; f->err[j] = f->err[j - 1]; f->err[j - 1] = t;
            int o = ok[j]; ok[j] = ok[j - 1]; ok[j - 1] = o;
        }
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

int mb_order_fit_compute(size_t n, const double *dt, const double *err, const int *valid,
                         double floor, mb_order_fit *f)
{
    memset(f, 0, sizeof *f);
    f->order = NAN;
    f->stderr_ = NAN;
    if (n > MB_ORDER_MAX_POINTS)
        MB_ERROR(MB_EINVAL, "order fit: %zu points (at most %d)", n, MB_ORDER_MAX_POINTS);
    int ok[MB_ORDER_MAX_POINTS];
    f->n = n;
    for (size_t k = 0; k < n; k++) {
        f->dt[k] = dt[k];
        f->err[k] = err[k];
        ok[k] = valid ? valid[k] : 1;
    }
    sort_by_dt(f, ok);
    for (size_t k = 0; k < n; k++) {
        if (!ok[k] || !isfinite(f->err[k]) || !(f->dt[k] > 0.0))
            f->why[k] = MB_ORDER_INVALID;
        else if (f->err[k] < floor || f->err[k] <= 0.0)
            f->why[k] = MB_ORDER_ROUNDOFF;
        else
            f->why[k] = MB_ORDER_USED;
    }
    mark_saturated(f);
    for (size_t k = 0; k < n; k++) {
        if (f->why[k] == MB_ORDER_INVALID) f->excluded_invalid++;
        if (f->why[k] == MB_ORDER_ROUNDOFF) f->excluded_roundoff++;
        if (f->why[k] == MB_ORDER_SATURATED) f->excluded_saturated++;
    }
    fit(f);
    return MB_SUCCESS;
}
