/* lf_run.h -- small driver shared by the leap-frog tests: build a registered problem from
 * "name[k=v,...]", step it with a scheme spec, and read the synchronized on-step state.
 * Static functions only; included by tests/test_leapfrog.c and tests/test_fincham.c. */
#ifndef LF_RUN_H
#define LF_RUN_H

#include <criterion/criterion.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>

#include "mb_energy.h"
#include "mb_problem.h"
#include "mb_stepper.h"
#include "mb_vec.h"

typedef struct lf_run {
    const mb_problem_type *pt;
    mb_options *params;
    mb_system *sys;
    mb_stepper *st;
    mb_nodes *on;        /* synchronized on-step copy (lf_run_sync) */
    mb_nodes *ref;       /* scratch for exact() */
} lf_run;

static lf_run *lf_run_new(const char *problem_spec, const char *scheme_spec)
{
    lf_run *r = calloc(1, sizeof *r);
    char *name;
    mb_options *in;
    cr_assert_eq(mb_spec_split(problem_spec, &name, &in), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_problem_prepare(name, in, &r->pt, &r->params), MB_SUCCESS, "%s", mb_last_error());
    free(name);
    mb_options_free(in);
    cr_assert_eq(r->pt->setup(r->params, &r->sys), MB_SUCCESS, "%s", mb_last_error());
    r->st = mb_stepper_alloc(scheme_spec, r->sys);
    cr_assert_not_null(r->st, "%s", mb_last_error());
    r->on = mb_nodes_alloc(r->sys->nodes->n, 53);
    r->ref = mb_nodes_alloc(r->sys->nodes->n, 53);
    cr_assert_eq(mb_nodes_copy(r->ref, r->sys->nodes), MB_SUCCESS);
    return r;
}

static void lf_run_steps(lf_run *r, long n, double h)
{
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(r->st, r->sys, h), MB_SUCCESS, "step %ld: %s", k, mb_last_error());
}

static const mb_nodes *lf_run_sync(lf_run *r)
{
    cr_assert_eq(mb_stepper_on_step(r->st, r->sys, r->on), MB_SUCCESS, "%s", mb_last_error());
    return r->on;
}

static const mb_nodes *lf_run_exact(lf_run *r, double t)
{
    cr_assert_not_null(r->pt->exact);
    cr_assert_eq(r->pt->exact(r->params, t, r->ref), MB_SUCCESS, "%s", mb_last_error());
    return r->ref;
}

static void lf_run_free(lf_run *r)
{
    mb_stepper_free(r->st);
    mb_system_free(r->sys);
    mb_nodes_free(r->on);
    mb_nodes_free(r->ref);
    mb_options_free(r->params);
    free(r);
}

static double lf_dist3(const double *a, const double *b)
{
    return mb_v3_dist(a, b);
}

/* Least-squares slope of log(err) against log(h) (the observed order), gsl_fit_linear. */
static double lf_order(const double *h, const double *err, int n)
{
    double x[16], y[16], c0, c1, cov00, cov01, cov11, sumsq;
    cr_assert(n >= 2 && n <= 16);
    for (int k = 0; k < n; k++) {
        cr_assert(err[k] > 0.0, "error %d is %g", k, err[k]);
        x[k] = log(h[k]);
        y[k] = log(err[k]);
    }
    gsl_fit_linear(x, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    return c1;
}

#endif
