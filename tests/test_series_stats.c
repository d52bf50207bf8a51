/* test_series_stats.c -- statistics of correlated series (src/metrics/series_stats.c) against
 * processes whose statistics are known in closed form.
 *
 * AR(1): x_k = phi x_{k-1} + sqrt(1 - phi^2) eps_k, eps standard normal, x_0 ~ N(0, 1), is
 * stationary with variance 1 and C(t) = phi^t, so its statistical inefficiency is
 * g = 1 + 2 sum phi^t = (1 + phi) / (1 - phi) (Chodera et al. 2007).  The tests:
 *  - g of one long AR(1) series (phi = 0.8, g = 9, N = 100000): the estimator sums C(t) up
 *    to the first negative value, whose noise is ~ 1/sqrt(N); the standard error of g is
 *    about g sqrt(2 (2 M + 1) / N) with M ~ 30 lags summed (Priestley's variance of the
 *    integrated correlation), 3.5 % here: the tolerance is 15 % (4 standard errors);
 *  - white noise (phi = 0): g within 1 + 4 * 2 sqrt(M / N) with M = 4 lags;
 *  - coverage: over 400 independent AR(1) series (phi = 0.8, N = 4000, about 440
 *    independent samples each), the interval value +- 1.96 stderr must contain the true
 *    sigma = 1 and the true drift b (series b t + x) in 95 % of them; the count is binomial
 *    (sd sqrt(400 0.95 0.05) = 4.4), so the test asks for 95 % within 4 sd, 363 .. 400 hits,
 *    and the negative control -- the same intervals without the inefficiency (g = 1,
 *    stderr / 3) -- must fall below 363;
 *  - the power-law fit: exact points give their exponent to round-off and chi^2 ~ 0; a
 *    three-point weighted fit against the normal equations written out here, its points
 *    off the line beyond their errors so that Birge's widening sqrt(chi^2 / (K - 2)) acts; pairwise orders and their errors; a point that leaves the power law gives a
 *    chi^2 p-value below 1e-3 (the non-power-law flag);
 *  - bad input refused (too few samples, non-positive values). */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "mb_metrics.h"
#include "mb_status.h"

static void ar1(gsl_rng *r, double phi, size_t n, double *x)
{
    x[0] = gsl_ran_gaussian_ziggurat(r, 1.0);
    for (size_t k = 1; k < n; k++)
        x[k] = phi * x[k - 1] + sqrt(1.0 - phi * phi) * gsl_ran_gaussian_ziggurat(r, 1.0);
}

Test(series_stats, inefficiency_of_ar1_and_white_noise)
{
    const size_t n = 100000;
    double *x = malloc(n * sizeof *x);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2385);
    ar1(r, 0.8, n, x);
    double g = mb_stat_inefficiency(n, x);
    cr_log_info("AR(1) phi 0.8, N %zu: g = %.4g (exact 9)", n, g);
    cr_expect(fabs(g / 9.0 - 1.0) < 0.15, "AR(1) phi 0.8: g = %g, exact 9", g);
    ar1(r, 0.0, n, x);
    g = mb_stat_inefficiency(n, x);
    cr_expect(g >= 1.0 && g < 1.0 + 8.0 * sqrt(4.0 / (double)n), "white noise: g = %g", g);
    /* a constant series and a too short one: 1, not NaN */
    for (size_t k = 0; k < 10; k++)
        x[k] = 3.0;
    cr_expect_eq(mb_stat_inefficiency(10, x), 1.0);
    cr_expect_eq(mb_stat_inefficiency(2, x), 1.0);
    gsl_rng_free(r);
    free(x);
}

/* hits of the 95 % intervals over `trials` AR(1) series; shrink divides the stderr by
 * sqrt(g) (the negative control: independence assumed) */
static void coverage(int shrink, int *hits_sigma, int *hits_drift)
{
    const size_t n = 4000;
    const int trials = 400;
    const double b = 0.37;
    double *x = malloc(n * sizeof *x), *t = malloc(n * sizeof *t), *e = malloc(n * sizeof *e);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    *hits_sigma = *hits_drift = 0;
    for (int k = 0; k < trials; k++) {
        ar1(r, 0.8, n, x);
        for (size_t j = 0; j < n; j++) {
            t[j] = 0.01 * (double)j;
            e[j] = b * t[j] + x[j];
        }
        mb_stat_value f, d;
        cr_assert_eq(mb_stat_fluctuation(n, x, &f), MB_SUCCESS);
        cr_assert_eq(mb_stat_drift(n, t, e, &d), MB_SUCCESS);
        double sf = shrink ? f.stderr_ / sqrt(f.inefficiency) : f.stderr_;
        double sd = shrink ? d.stderr_ / sqrt(d.inefficiency) : d.stderr_;
        *hits_sigma += fabs(f.value - 1.0) <= 1.96 * sf;
        *hits_drift += fabs(d.value - b) <= 1.96 * sd;
    }
    gsl_rng_free(r);
    free(x);
    free(t);
    free(e);
}

Test(series_stats, intervals_cover_the_truth_95_percent)
{
    int hs, hd;
    coverage(0, &hs, &hd);
    cr_log_info("95 %% intervals holding the truth: sigma %d, drift %d of 400", hs, hd);
    cr_expect(hs >= 363, "sigma: %d of 400 intervals hold the true value (>= 363)", hs);
    cr_expect(hd >= 363, "drift: %d of 400 intervals hold the true value (>= 363)", hd);
    /* negative control: without the statistical inefficiency the intervals are ~ 3 times
     * too narrow and hold the truth in ~ 50 % of the series */
    coverage(1, &hs, &hd);
    cr_log_info("without the inefficiency: sigma %d, drift %d of 400", hs, hd);
    cr_expect(hs < 363, "sigma without g: %d of 400 (must fall below 363)", hs);
    cr_expect(hd < 363, "drift without g: %d of 400 (must fall below 363)", hd);
}

Test(series_stats, fluctuation_and_drift_of_known_series)
{
    /* e = 2 + 0.5 t + a square wave of amplitude 0.25: sigma of e about its mean is the
     * sigma of (0.5 t + wave), computed by hand; the slope of a line plus a zero-mean
     * alternating wave over an even number of samples is 0.5 + the wave's own slope */
    enum { N = 1000 };
    double t[N], e[N], mean = 0.0, var = 0.0;
    for (size_t k = 0; k < N; k++) {
        t[k] = 0.002 * (double)k;
        e[k] = 2.0 + 0.5 * t[k] + (k % 2 ? 0.25 : -0.25);
        mean += e[k] / N;
    }
    for (size_t k = 0; k < N; k++)
        var += (e[k] - mean) * (e[k] - mean) / N;
    mb_stat_value f, d;
    cr_assert_eq(mb_stat_fluctuation(N, e, &f), MB_SUCCESS);
    cr_expect(fabs(f.value - sqrt(var)) <= 1e-14, "sigma %.17g, by hand %.17g", f.value, sqrt(var));
    double mt = 0.0, sxx = 0.0, swave = 0.0;
    for (size_t k = 0; k < N; k++)
        mt += t[k] / N;
    for (size_t k = 0; k < N; k++) {
        sxx += (t[k] - mt) * (t[k] - mt);
        swave += (t[k] - mt) * (k % 2 ? 0.25 : -0.25);
    }
    cr_assert_eq(mb_stat_drift(N, t, e, &d), MB_SUCCESS);
    cr_expect(fabs(d.value - (0.5 + swave / sxx)) <= 1e-12, "slope %.17g", d.value);
    cr_expect_eq(mb_stat_fluctuation(3, e, &f), MB_EINVAL);
    cr_expect_eq(mb_stat_drift(3, t, e, &d), MB_EINVAL);
}

Test(series_stats, power_fit)
{
    const double p = 2.0, A = 1.7;
    double dt[5], s[5], se[5];
    for (int k = 0; k < 5; k++) {
        dt[k] = 0.0005 * pow(2.0, k);
        s[k] = A * pow(dt[k], p);
        se[k] = 0.05 * s[k];
    }
    mb_power_fit f;
    cr_assert_eq(mb_stat_power_fit(5, dt, s, se, &f), MB_SUCCESS);
    cr_expect(fabs(f.order - p) < 1e-12 && f.chi2 < 1e-20, "order %.17g chi2 %g", f.order, f.chi2);
    cr_expect(f.p_value > 0.999);
    /* equal relative errors r: se(p) = r / sqrt(Sxx), Sxx = sum (ln dt - mean)^2 = 10 ln^2 2 */
    double se_p = 0.05 / sqrt(10.0 * log(2.0) * log(2.0));
    cr_expect(fabs(f.stderr_ / se_p - 1.0) < 1e-12, "stderr %.17g, closed form %.17g",
              f.stderr_, se_p);
    cr_expect_eq(f.n_pairwise, 4);
    for (size_t k = 0; k < 4; k++) {
        cr_expect(fabs(f.pairwise[k] - p) < 1e-12);
        cr_expect(fabs(f.pairwise_stderr[k] - sqrt(2.0) * 0.05 / log(2.0)) < 1e-15);
        cr_expect_eq(f.pairwise_dt[k], dt[k]);
    }
    /* three points, unequal weights, off the line: the normal equations by hand */
    double x[3] = { 0.001, 0.002, 0.004 }, y[3] = { 1e-6, 3.7e-6, 1.7e-5 }, e3[3] = { 1e-8, 5e-8, 1e-7 };
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int k = 0; k < 3; k++) {
        double w = pow(y[k] / e3[k], 2), lx = log(x[k]), ly = log(y[k]);
        sw += w; sx += w * lx; sy += w * ly; sxx += w * lx * lx; sxy += w * lx * ly;
    }
    double det = sw * sxx - sx * sx, slope = (sw * sxy - sx * sy) / det, a = (sy - slope * sx) / sw;
    double chi2 = 0;
    for (int k = 0; k < 3; k++)
        chi2 += pow((log(y[k]) - a - slope * log(x[k])) * y[k] / e3[k], 2);
    cr_assert_eq(mb_stat_power_fit(3, x, y, e3, &f), MB_SUCCESS);
    cr_expect(fabs(f.order - slope) < 1e-12, "order %.17g, by hand %.17g", f.order, slope);
    cr_expect(fabs(f.chi2 - chi2) < 1e-9 * chi2, "chi2 %.17g, by hand %.17g", f.chi2, chi2);
    /* the points scatter beyond their 1 % errors: chi^2 / (K - 2) > 1 widens the error */
    cr_assert(chi2 > 1.0, "chi2 %g: the test needs points off the line beyond their errors", chi2);
    double widened = sqrt(sw / det) * sqrt(chi2);
    cr_expect(fabs(f.stderr_ - widened) < 1e-12 * widened, "Birge-widened stderr %.17g, %.17g",
              f.stderr_, widened);
    /* the negative control of the non-power-law flag: the finest point of the exact ladder
     * raised 40 % (20 of its standard errors... 8 of the relative error 0.05) */
    s[0] *= 1.4;
    cr_assert_eq(mb_stat_power_fit(5, dt, s, se, &f), MB_SUCCESS);
    cr_expect(f.p_value < 1e-3, "a point off the power law: p %g", f.p_value);
    cr_expect(f.order < p, "order %g", f.order);
    /* bad input */
    se[2] = 0.0;
    cr_expect_eq(mb_stat_power_fit(5, dt, s, se, &f), MB_EINVAL);
    cr_expect_eq(mb_stat_power_fit(1, dt, s, se, &f), MB_EINVAL);
    double rev[2] = { 0.002, 0.001 };
    cr_expect_eq(mb_stat_power_fit(2, rev, s, s, &f), MB_EINVAL);
}
