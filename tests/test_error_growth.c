/* test_error_growth.c -- error.growth_exponent (src/metrics/error_growth.c): the fit on
 * synthetic error series of known exponent (exact, oscillating, with a transient, below
 * the round-off floor, not finite), the thinning of the kept samples, and through the
 * runner on Kepler: leap-frog grows linearly, explicit Euler quadratically, so the linear
 * law 1 +- 0.2 passes for one and fails for the other (negative control). */
#include "mb_metrics.h"
#include "mb_runner.h"
#include "mb_status.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 600

/* t_k = 0.1 .. 60 evenly, e = C t^p g(t) */
static void series(double p, double wobble, double *t, double *e)
{
    for (size_t k = 0; k < N; k++) {
        t[k] = 0.1 + 59.9 * (double)k / (double)(N - 1);
        e[k] = 2.385e-4 * pow(t[k], p) * (1.0 + wobble * sin(3.1 * t[k]));
    }
}

Test(error_growth, exact_power_law)
{
    double t[N], e[N];
    series(1.37, 0.0, t, e);
    mb_error_growth g;
    cr_assert_eq(mb_error_growth_fit(N, t, e, 6.0, 1e-300, &g), MB_SUCCESS);
    /* log e = log C + p log t exactly: only round-off in log, ~1e-15 */
    cr_expect_lt(fabs(g.exponent - 1.37), 1e-12, "exponent %.17g", g.exponent);
    cr_expect_lt(g.stderr_, 1e-12);
    cr_expect_eq(g.points + g.excluded_transient, N);
    cr_expect_geq(g.t_first, 6.0);
    cr_expect_eq(g.t_last, 60.0);
}

Test(error_growth, oscillating_power_law)
{
    double t[N], e[N];
    series(2.0, 0.4, t, e);
    mb_error_growth g;
    mb_error_growth_fit(N, t, e, 6.0, 1e-300, &g);
    /* the periodic factor adds a residual of amplitude <= ln(1.4/0.6)/2 = 0.42 in log e;
     * over 27 of its periods in [6, 60] its correlation with log t is a few percent of
     * that: 0.1 */
    cr_expect_lt(fabs(g.exponent - 2.0), 0.1, "exponent %g", g.exponent);
    cr_expect_gt(g.stderr_, 0.0);
}

Test(error_growth, transient_roundoff_and_invalid_points_are_left_out)
{
    double t[N], e[N];
    series(1.0, 0.0, t, e);
    size_t early = 0;
    for (size_t k = 0; k < N; k++)
        if (t[k] < 6.0) {
            e[k] = 1e3;             /* a wild transient: must not matter */
            early++;
        }
    e[N - 1] = 1e-20;               /* below the floor */
    e[N - 2] = 0.0;
    e[N - 3] = NAN;
    e[N - 4] = INFINITY;
    mb_error_growth g;
    mb_error_growth_fit(N, t, e, 6.0, 1e-15, &g);
    cr_expect_eq(g.excluded_transient, early);
    cr_expect_eq(g.excluded_roundoff, 2);
    cr_expect_eq(g.excluded_invalid, 2);
    cr_expect_eq(g.points, N - early - 4);
    cr_expect_lt(fabs(g.exponent - 1.0), 1e-12, "exponent %.17g", g.exponent);
    cr_expect_eq(g.t_last, t[N - 5]);
}

Test(error_growth, too_few_points)
{
    double t[2] = { 1.3, 2.9 }, e[2] = { 1e-3, 4e-3 };
    mb_error_growth g;
    mb_error_growth_fit(1, t, e, 0.5, 1e-300, &g);
    cr_expect(isnan(g.exponent));
    mb_error_growth_fit(2, t, e, 0.5, 1e-300, &g);
    cr_expect_lt(fabs(g.exponent - log(4.0) / log(2.9 / 1.3)), 1e-13);
    cr_expect(isnan(g.stderr_));
}

/* negative control on synthetic data: a quadratic series fails the linear law */
Test(error_growth, quadratic_series_fails_the_linear_law)
{
    double t[N], e[N];
    series(2.0, 0.0, t, e);
    mb_error_growth g;
    mb_error_growth_fit(N, t, e, 6.0, 1e-300, &g);
    mb_expectation x;
    memset(&x, 0, sizeof x);
    cr_assert_eq(mb_expect_parse_value("1 +- 0.2", &x), MB_SUCCESS);
    mb_metric_value m;
    memset(&m, 0, sizeof m);
    m.value = g.exponent;
    cr_expect_eq(mb_expectation_holds(&x, &m), MB_VERDICT_FAIL);
    series(1.0, 0.0, t, e);
    mb_error_growth_fit(N, t, e, 6.0, 1e-300, &g);
    m.value = g.exponent;
    cr_expect_eq(mb_expectation_holds(&x, &m), MB_VERDICT_PASS);
}

Test(error_growth, selection_is_even_and_keeps_the_ends)
{
    mb_growth_track tr;
    mb_nodes *s = mb_nodes_alloc(2, 53);
    cr_assert_not_null(s);
    mb_growth_track_begin(&tr, 2, 0.5);
    for (size_t k = 0; k < 5000; k++) {
        s->x[0] = (double)k;
        cr_assert_eq(mb_growth_track_add(&tr, 0.001 * (double)k, s), MB_SUCCESS);
    }
    /* t < 0.5 not kept; of the 4500 others, the 4097th on the stride halved the store
     * (2049 left, stride 2), then every other one of the 403 that followed (202) and the
     * newest: 2049 + 201 + 1 */
    cr_expect_eq(tr.n, 2251);
    cr_expect_leq(tr.n, 2 * MB_GROWTH_MAX_POINTS + 2);
    size_t idx[MB_GROWTH_MAX_POINTS];
    size_t m = mb_growth_track_select(&tr, idx);
    cr_expect_eq(m, MB_GROWTH_MAX_POINTS);
    cr_expect_eq(idx[0], 0);
    cr_expect_eq(idx[m - 1], tr.n - 1);
    cr_expect_eq(tr.t[tr.n - 1], 0.001 * 4999.0, "the newest sample (t_end) is kept");
    for (size_t k = 1; k < m; k++)
        cr_expect_gt(idx[k], idx[k - 1]);
    /* the kept positions are the ones added, every other one: kept k had x0 = 500 + 2k */
    mb_nodes *ref = mb_nodes_alloc(2, 53);
    memset(ref->x, 0, 6 * sizeof(double));
    cr_expect_eq(mb_growth_track_error(&tr, 123, ref), 746.0);
    mb_nodes_free(ref);
    mb_nodes_free(s);
    mb_growth_track_free(&tr);
}

static const mb_metric_value *find(const mb_run_result *r, const char *name)
{
    for (size_t k = 0; k < r->n_metrics; k++)
        if (strcmp(r->metrics[k].name, name) == 0)
            return &r->metrics[k];
    return NULL;
}

/* Through the runner: the case's three expectations, in file order, are
 *   leapfrog 1 +- 0.2 (pass), explicit-euler 1 +- 0.2 (must fail), explicit-euler > 1.5 */
Test(error_growth, kepler_linear_versus_quadratic)
{
    char path[1024];
    const char *s = getenv("MB_SRCDIR");
    snprintf(path, sizeof path, "%s/tests/data/growth/kepler-growth.case", s ? s : MB_SRCDIR);
    mb_case *c = NULL;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(c->error_growth, 1);
    cr_assert_eq(c->n_expect, 3);
    mb_run_result *r = calloc(2, sizeof *r);
    for (size_t i = 0; i < 2; i++) {
        mb_run_one(c, i, 0, 0, &r[i]);
        cr_assert_eq(r[i].status, MB_RUN_OK, "%s: %s", c->integrators[i], r[i].message);
    }
    const mb_metric_value *lf = find(&r[0], "error.growth_exponent"),
                          *ee = find(&r[1], "error.growth_exponent");
    cr_assert_not_null(lf);
    cr_assert_not_null(ee);
    cr_log_info("growth exponents: leapfrog %.4f, explicit-euler %.4f", lf->value, ee->value);
    cr_expect_eq(mb_expectation_holds(&c->expect[0], lf), MB_VERDICT_PASS, "leapfrog %g",
                 lf->value);
    cr_expect_eq(mb_expectation_holds(&c->expect[1], ee), MB_VERDICT_FAIL,
                 "explicit Euler passed the linear law with %g", ee->value);
    cr_expect_eq(mb_expectation_holds(&c->expect[2], ee), MB_VERDICT_PASS, "explicit-euler %g",
                 ee->value);
    cr_expect_not_null(find(&r[1], "error.growth_exponent.stderr"));
    for (size_t i = 0; i < 2; i++)
        free(r[i].series);
    free(r);
    mb_case_free(c);
}

/* without the key the metric is not computed (the default suite stays fast) */
Test(error_growth, off_by_default)
{
    char path[1024];
    const char *s = getenv("MB_SRCDIR");
    snprintf(path, sizeof path, "%s/cases/kepler-e06.case", s ? s : MB_SRCDIR);
    mb_case *c = NULL;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(c->error_growth, 0);
    mb_run_result r;
    mb_run_one(c, 0, 0, 0, &r);
    cr_expect_eq(r.status, MB_RUN_OK);
    cr_expect_null(find(&r, "error.growth_exponent"));
    free(r.series);
    mb_case_free(c);
}
