/* error_growth.c -- error.growth_exponent: how fast the global error grows with time.
 *
 * On an integrable system (Kepler) the global error of a scheme of order p behaves as
 *     e(t) ~ C h^p t      for symplectic schemes (leap-frog, symplectic Euler): the
 *                         modified Hamiltonian keeps the orbit near an invariant torus and
 *                         only the frequencies are off by O(h^p), so the phase drifts
 *                         linearly;
 *     e(t) ~ C h^p t^2    for non-symplectic schemes (explicit, implicit Euler): the
 *                         actions (energy) drift linearly, the frequencies with them, so
 *                         the phase error is quadratic in t;
 * for t long compared with the period and e(t) still small (Hairer, Lubich & Wanner,
 * Geometric Numerical Integration, X.3, Theorem 3.1 and the Kepler experiments of I.2).
 * The exponent is the least-squares slope (gsl_fit_linear) of log e against log t,
 *     e(t_k) = max over nodes |x_k - x_ref(t_k)|   (the position error of every sample),
 * over the samples with t_k >= t_min (the caller passes t_end/10: the initial transient,
 * where the bounded O(h^p) oscillation is as large as the secular term, is left out and
 * the fit still spans a decade of t), leaving out samples whose error is below the
 * round-off floor (the caller passes 1e-13 times the position scale, as for the orders)
 * or not finite.  Its standard error is sqrt(cov11) (>= 3 points); the error oscillates
 * along the orbit, so the residuals are correlated and the standard error measures the
 * scatter, not a confidence interval.
 *
 * The tracker keeps the positions of the samples in the window, decimated so that at most
 * 2 MB_GROWTH_MAX_POINTS + 2 are held whatever the number of steps (the fit uses at most
 * MB_GROWTH_MAX_POINTS); the caller evaluates the reference at the kept times in one call
 * (mb_reference_states), at most MB_GROWTH_MAX_POINTS times evenly spread over the window. */
#include "mb_metrics.h"
#include "mb_status.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mb_growth_track_begin(mb_growth_track *tr, size_t nodes, double t_min)
{
    memset(tr, 0, sizeof *tr);
    tr->nodes = nodes;
    tr->t_min = t_min;
    tr->stride = 1;
}

#define GROWTH_HELD (2 * MB_GROWTH_MAX_POINTS + 2)

static int growth_reserve(mb_growth_track *tr)
{
    if (tr->n < tr->cap)
        return MB_SUCCESS;
    size_t cap = tr->cap ? 2 * tr->cap : 256;
    if (cap > GROWTH_HELD)
        cap = GROWTH_HELD;
    double *nt = realloc(tr->t, cap * sizeof *nt);
    if (nt == NULL)
        MB_ERROR(MB_ENOMEM, "error growth: out of memory for %zu samples", cap);
    tr->t = nt;
    double *nx = realloc(tr->x, cap * 3 * tr->nodes * sizeof *nx);
    if (nx == NULL)
        MB_ERROR(MB_ENOMEM, "error growth: out of memory for %zu samples", cap);
    tr->x = nx;
    tr->cap = cap;
    return MB_SUCCESS;
}

/* 2M+1 samples on the stride: keep those of even rank (the first and the newest among
 * them), M+1 in all, and take every (2 stride)-th sample from now on. */
static void growth_decimate(mb_growth_track *tr)
{
    size_t row = 3 * tr->nodes, m = 0;
    for (size_t k = 0; k < tr->n; k += 2, m++) {
        tr->t[m] = tr->t[k];
        memmove(tr->x + m * row, tr->x + k * row, row * sizeof(double));
    }
    tr->n = m;
    tr->stride *= 2;
}

int mb_growth_track_add(mb_growth_track *tr, double t, const mb_nodes *s)
{
    if (t < tr->t_min)
        return MB_SUCCESS;
    int on_stride = tr->seen % tr->stride == 0;
    tr->seen++;
    if (tr->tail)
        tr->n--;                  /* the previous newest sample was off the stride */
    int st = growth_reserve(tr);
    if (st != MB_SUCCESS)
        return st;
    tr->t[tr->n] = t;
    memcpy(tr->x + tr->n * 3 * tr->nodes, s->x, 3 * tr->nodes * sizeof(double));
    tr->n++;
    tr->tail = !on_stride;
    if (on_stride && tr->n == 2 * MB_GROWTH_MAX_POINTS + 1)
        growth_decimate(tr);
    return MB_SUCCESS;
}

size_t mb_growth_track_select(const mb_growth_track *tr, size_t *index)
{
    size_t m = tr->n < MB_GROWTH_MAX_POINTS ? tr->n : MB_GROWTH_MAX_POINTS;
    /* evenly spread by index, first and last kept: k (n-1)/(m-1) */
    for (size_t k = 0; k < m; k++)
        index[k] = m == 1 ? 0 : (size_t)(((double)k * (double)(tr->n - 1)) / (double)(m - 1)
                                         + 0.5);
    return m;
}

double mb_growth_track_error(const mb_growth_track *tr, size_t k, const mb_nodes *ref)
{
    const double *x = tr->x + k * 3 * tr->nodes;
    double m = 0.0;
    for (size_t i = 0; i < tr->nodes; i++) {
        double d0 = x[3 * i] - ref->x[3 * i], d1 = x[3 * i + 1] - ref->x[3 * i + 1],
               d2 = x[3 * i + 2] - ref->x[3 * i + 2];
        double d = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
        if (!(d <= m))   /* NaN propagates */
            m = d;
    }
    return m;
}

void mb_growth_track_free(mb_growth_track *tr)
{
    free(tr->t);
    free(tr->x);
    tr->t = tr->x = NULL;
    tr->n = tr->cap = 0;
}

int mb_error_growth_fit(size_t n, const double *t, const double *err, double t_min,
                        double floor, mb_error_growth *g)
{
    memset(g, 0, sizeof *g);
    g->exponent = g->stderr_ = NAN;
    g->t_first = g->t_last = NAN;
    double *lx = malloc((n ? n : 1) * sizeof *lx), *ly = malloc((n ? n : 1) * sizeof *ly);
    if (lx == NULL || ly == NULL) {
        free(lx);
        free(ly);
        MB_ERROR(MB_ENOMEM, "error growth: out of memory for %zu points", n);
    }
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (!(t[k] >= t_min) || !(t[k] > 0.0)) {
            g->excluded_transient++;
        } else if (!isfinite(err[k])) {
            g->excluded_invalid++;
        } else if (!(err[k] >= floor) || !(err[k] > 0.0)) {
            g->excluded_roundoff++;
        } else {
            if (m == 0)
                g->t_first = t[k];
            g->t_last = t[k];
            lx[m] = log(t[k]);
            ly[m] = log(err[k]);
            m++;
        }
    }
    g->points = m;
    if (m >= 2) {
        double c0, c1, cov00, cov01, cov11, sumsq;
        gsl_fit_linear(lx, 1, ly, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
        g->exponent = c1;
        if (m >= 3)
            g->stderr_ = sqrt(cov11);
    }
    free(lx);
    free(ly);
    return MB_SUCCESS;
}
