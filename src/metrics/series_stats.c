/* series_stats.c -- statistics of a correlated time series (the samples of one chaotic run)
 * and the power-law fit of a statistic across a time-step ladder (doc/statistics.md).
 *
 * Statistical inefficiency g = 1 + 2 sum_{t>=1} (1 - t/N) C(t), C the normalised
 * autocorrelation of the series, summed until C first falls to <= 0 beyond lag 3 (Chodera,
 * Swope, Pitera, Seok & Dill, JCTC 3, 26 (2007), eq. 12; the estimator of pymbar's and
 * physical_validation's timeseries.statisticalInefficiency); g >= 1.  N / g samples are
 * effectively independent, so the standard error of a mean is sqrt(g var / N).
 *
 * Fluctuation (Merz & Shirts, PLoS ONE 13, e0202764 (2018)): sigma = the population
 * standard deviation of E over the window.  sigma^2 is the mean of y = (E - <E>)^2, so its
 * standard error is sqrt(g_y var(y) / N), g_y the inefficiency of y, and by the delta
 * method se(sigma) = se(sigma^2) / (2 sigma).
 *
 * Drift: the least-squares slope b of E against t; its ordinary standard error
 * sqrt(sum r^2 / ((N - 2) Sxx)) assumes independent residuals r, so it is multiplied by
 * sqrt(g_r), g_r the inefficiency of the residuals (the residuals come in N / g_r
 * independent blocks).
 *
 * Power law across dt: ln s_k = ln A + p ln dt_k fitted by weighted least squares with
 * weights 1 / (se_k / s_k)^2 (the standard error of ln s_k); the standard error of p is
 * sqrt((X^T W X)^-1)_pp, multiplied by sqrt(chi^2 / (K - 2)) when that exceeds 1 (Birge's
 * ratio: points scattered beyond their error bars widen the interval instead of hiding).
 * Consecutive pairs give pairwise orders ln(s_j / s_i) / ln(dt_j / dt_i) with standard
 * errors sqrt((se_i/s_i)^2 + (se_j/s_j)^2) / |ln(dt_j / dt_i)|. */
#include "mb_metrics.h"
#include "mb_status.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#define MIN_LAG 3    /* the correlation is summed at least to this lag (Chodera 2007) */

static double mean_of(size_t n, const double *y)
{
    double s = 0.0;
    for (size_t k = 0; k < n; k++)
        s += y[k];
    return s / (double)n;
}

double mb_stat_inefficiency(size_t n, const double *y)
{
    if (n < 3)
        return 1.0;
    double mu = mean_of(n, y), var = 0.0;
    for (size_t k = 0; k < n; k++)
        var += (y[k] - mu) * (y[k] - mu);
    var /= (double)n;
    if (!(var > 0.0))
        return 1.0;
    double g = 1.0;
    for (size_t t = 1; t < n - 1; t++) {
        double c = 0.0;
        for (size_t k = 0; k + t < n; k++)
            c += (y[k] - mu) * (y[k + t] - mu);
        c /= (double)(n - t) * var;
        if (c <= 0.0 && t > MIN_LAG)
            break;
        g += 2.0 * c * (1.0 - (double)t / (double)n);
    }
    return g < 1.0 ? 1.0 : g;
}

int mb_stat_fluctuation(size_t n, const double *e, mb_stat_value *out)
{
    out->value = out->stderr_ = NAN;
    out->inefficiency = 1.0;
    if (n < 4)
        MB_ERROR(MB_EINVAL, "fluctuation: %zu samples in the window, 4 needed", n);
    double *y = malloc(n * sizeof *y);
    if (y == NULL)
        MB_ERROR(MB_ENOMEM, "fluctuation: no memory for %zu samples", n);
    double mu = mean_of(n, e);
    for (size_t k = 0; k < n; k++)
        y[k] = (e[k] - mu) * (e[k] - mu);
    double var = mean_of(n, y), vy = 0.0;
    for (size_t k = 0; k < n; k++)
        vy += (y[k] - var) * (y[k] - var);
    vy /= (double)n;
    out->inefficiency = mb_stat_inefficiency(n, y);
    free(y);
    out->value = sqrt(var);
    double se_var = sqrt(out->inefficiency * vy / (double)n);
    out->stderr_ = out->value > 0.0 ? se_var / (2.0 * out->value) : 0.0;
    return MB_SUCCESS;
}

int mb_stat_drift(size_t n, const double *t, const double *e, mb_stat_value *out)
{
    out->value = out->stderr_ = NAN;
    out->inefficiency = 1.0;
    if (n < 4)
        MB_ERROR(MB_EINVAL, "drift: %zu samples in the window, 4 needed", n);
    double mt = mean_of(n, t), me = mean_of(n, e), sxx = 0.0, sxy = 0.0;
    for (size_t k = 0; k < n; k++) {
        sxx += (t[k] - mt) * (t[k] - mt);
        sxy += (t[k] - mt) * (e[k] - me);
    }
    if (!(sxx > 0.0))
        MB_ERROR(MB_EINVAL, "drift: the samples span no time");
    double b = sxy / sxx, a = me - b * mt, ss = 0.0;
    double *r = malloc(n * sizeof *r);
    if (r == NULL)
        MB_ERROR(MB_ENOMEM, "drift: no memory for %zu samples", n);
    for (size_t k = 0; k < n; k++) {
        r[k] = e[k] - (a + b * t[k]);
        ss += r[k] * r[k];
    }
    out->inefficiency = mb_stat_inefficiency(n, r);
    free(r);
    out->value = b;
    out->stderr_ = sqrt(out->inefficiency * ss / ((double)(n - 2) * sxx));
    return MB_SUCCESS;
}

/* the pairwise orders of consecutive points (dt ascending) */
static void pairwise_orders(size_t n, const double *dt, const double *s, const double *rel,
                            mb_power_fit *f)
{
    f->n_pairwise = 0;
    for (size_t k = 0; k + 1 < n && k < MB_ORDER_MAX_POINTS; k++) {
        double l = log(dt[k + 1] / dt[k]);
        f->pairwise[k] = log(s[k + 1] / s[k]) / l;
        f->pairwise_stderr[k] = sqrt(rel[k] * rel[k] + rel[k + 1] * rel[k + 1]) / fabs(l);
        f->pairwise_dt[k] = dt[k];
        f->n_pairwise++;
    }
}

int mb_stat_power_fit(size_t n, const double *dt, const double *s, const double *se,
                      mb_power_fit *f)
{
    f->order = f->stderr_ = f->chi2 = f->p_value = NAN;
    f->n_pairwise = 0;
    f->points = n;
    if (n < 2 || n > MB_ORDER_MAX_POINTS)
        MB_ERROR(MB_EINVAL, "power fit: %zu points (2 to %d)", n, MB_ORDER_MAX_POINTS);
    double rel[MB_ORDER_MAX_POINTS], sw = 0.0, swx = 0.0, swy = 0.0, swxx = 0.0, swxy = 0.0;
    for (size_t k = 0; k < n; k++) {
        if (!(s[k] > 0.0 && se[k] > 0.0 && dt[k] > 0.0) || !isfinite(s[k] + se[k] + dt[k])
            || (k > 0 && !(dt[k] > dt[k - 1])))
            MB_ERROR(MB_EINVAL, "power fit: point %zu (dt %g, s %g +- %g) is not usable: "
                     "positive values in increasing dt", k, dt[k], s[k], se[k]);
        rel[k] = se[k] / s[k];
        double w = 1.0 / (rel[k] * rel[k]), x = log(dt[k]), y = log(s[k]);
        sw += w;
        swx += w * x;
        swy += w * y;
        swxx += w * x * x;
        swxy += w * x * y;
    }
    double det = sw * swxx - swx * swx;
    f->order = (sw * swxy - swx * swy) / det;
    double a = (swy - f->order * swx) / sw, chi2 = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d = (log(s[k]) - a - f->order * log(dt[k])) / rel[k];
        chi2 += d * d;
    }
    f->chi2 = chi2;
    double se_p = sqrt(sw / det);
    if (n > 2) {
        double birge = chi2 / (double)(n - 2);
        f->p_value = gsl_cdf_chisq_Q(chi2, (double)(n - 2));
        f->stderr_ = birge > 1.0 ? se_p * sqrt(birge) : se_p;
    } else {
        f->stderr_ = se_p;
    }
    pairwise_orders(n, dt, s, rel, f);
    return MB_SUCCESS;
}
