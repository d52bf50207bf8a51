/* test_euler_order.c -- observed order of convergence of every Euler scheme on the
 * damped oscillator, whose closed form is the reference (problem `damped`).
 *
 * Global error at t = 2 for h = 0.02 / 2^j, j = 0..3, fitted as log err = c + p log h by
 * least squares (gsl_fit_linear).  All four schemes are first order, so p must lie in
 * [0.9, 1.1] (at these h the O(h^2) remainder shifts p by ~h w ~ 0.05 at most); as
 * SUNDIALS' order checks do, p < nominal - 0.5 is a failure.  Negative control: the
 * seed's damped update with its sign typo, v+ = v - m^-1 (m g - k x+ - D v+), does not
 * converge at all (its iterates blow up), and must fail the same check. */
#include <criterion/criterion.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>

#include "test_helpers.h"

static const double T = 2.0;

static double error_at_T(const char *scheme, double h)
{
    const mb_problem_type *pt;
    mb_options *p;
    cr_assert_eq(mb_problem_prepare("damped", NULL, &pt, &p), MB_SUCCESS);
    mb_system *sys;
    pt->setup(p, &sys);
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    long n = lround(T / h);
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *ex = mb_nodes_alloc(1, 53);
    pt->exact(p, T, ex);
    double e = fmax(fabs(sys->nodes->x[0] - ex->x[0]), fabs(sys->nodes->v[0] - ex->v[0]));
    mb_nodes_free(ex);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(p);
    return e;
}

/* the sign typo on the damped oscillator (g = 0), solved for v+ per step */
static double error_at_T_typo(double h)
{
    const double m = 1.37, k = 5.9, D = 0.83;
    double x = 0.71, v = -0.4;
    long n = lround(T / h);
    for (long j = 0; j < n; j++) {
        v = (v + k / m * x) / (1.0 - h * k / m - D / m);
        x = x + h * v;
    }
    const mb_problem_type *pt;
    mb_options *p;
    mb_problem_prepare("damped", NULL, &pt, &p);
    mb_nodes *ex = mb_nodes_alloc(1, 53);
    pt->exact(p, T, ex);
    double e = fmax(fabs(x - ex->x[0]), fabs(v - ex->v[0]));
    mb_nodes_free(ex);
    mb_options_free(p);
    return e;
}

static double fitted_order(const char *scheme)
{
    double lh[4], le[4];
    for (int j = 0; j < 4; j++) {
        double h = 0.02 / (double)(1 << j);
        lh[j] = log(h);
        le[j] = log(scheme ? error_at_T(scheme, h) : error_at_T_typo(h));
    }
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(lh, 1, le, 1, 4, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    fprintf(stderr, "%s: observed order %.4f\n", scheme ? scheme : "seed sign typo", c1);
    return c1;
}

Test(euler_order, every_scheme_is_first_order)
{
    const char *schemes[] = { "explicit-euler", "symplectic-euler", "implicit-euler",
                              "implicit-euler-newton", "implicit-euler[solver=sparse,rtol=1e-15]",
                              NULL };
    for (const char **s = schemes; *s; s++) {
        double p = fitted_order(*s);
        cr_expect(p >= 0.9 && p <= 1.1, "%s: observed order %g", *s, p);
    }
}

Test(euler_order, seed_sign_typo_does_not_converge)
{
    double p = fitted_order(NULL);      /* NaN when the iterates overflow */
    cr_expect(!(p >= 0.9 && p <= 1.1), "the sign typo passed the order check (order %g)", p);
}
