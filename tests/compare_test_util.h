/* compare_test_util.h -- set-ups, closed forms and the order fit shared by the tests of
 * the comparison schemes (velocity Verlet, RK4, GSL odeiv2 steppers); header only.
 *
 * Oscillator: one particle of mass M_OSC on a zero-rest-length spring K_OSC to the
 * origin, so each axis obeys x'' = -w^2 x, w^2 = K_OSC / M_OSC, with the closed form
 *   x(t) = x0 cos(w t) + v0 / w sin(w t),  v(t) = -x0 w sin(w t) + v0 cos(w t).
 * Kepler: the registered problem (mu = a = 1), energy per unit mass v^2/2 - 1/r, exact
 * value -1/2. */
#ifndef COMPARE_TEST_UTIL_H
#define COMPARE_TEST_UTIL_H

#include <gsl/gsl_fit.h>
#include <math.h>

#include "mb_mpfr_extra.h"
#include "test_helpers.h"

#ifndef ECC
#define ECC "eccentricity=0.6"
#endif

#define M_OSC 2.385
#define K_OSC 7.31

static const double osc_x0[3] = { 0.413, -0.271, 0.0917 };
static const double osc_v0[3] = { -1.27, 0.338, 0.0561 };

static inline mb_system *ct_oscillator(void)
{
    return th_particle(M_OSC, osc_x0, osc_v0, K_OSC, 0.0, NULL);
}

static inline double ct_w(void) { return sqrt(K_OSC / M_OSC); }

/* max over x and v of the Euclidean error against the closed form at t */
static inline double ct_osc_error(const mb_nodes *s, double t)
{
    double w = ct_w(), ex = 0.0, ev = 0.0;
    for (int a = 0; a < 3; a++) {
        double x = osc_x0[a] * cos(w * t) + osc_v0[a] / w * sin(w * t);
        double v = -osc_x0[a] * w * sin(w * t) + osc_v0[a] * cos(w * t);
        ex += (s->x[a] - x) * (s->x[a] - x);
        ev += (s->v[a] - v) * (s->v[a] - v);
    }
    return fmax(sqrt(ex), sqrt(ev));
}

/* energy 1/2 m v^2 + 1/2 k x^2 of the oscillator */
static inline double ct_osc_energy(const mb_nodes *s)
{
    double e = 0.0;
    for (int a = 0; a < 3; a++)
        e += 0.5 * M_OSC * s->v[a] * s->v[a] + 0.5 * K_OSC * s->x[a] * s->x[a];
    return e;
}

/* error of `scheme` at t_end after n steps on the oscillator */
static inline double ct_osc_run(const char *scheme, double t_end, long n)
{
    mb_system *sys = ct_oscillator();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    double h = t_end / (double)n;
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    double e = ct_osc_error(sys->nodes, sys->t);
    mb_stepper_free(st);
    mb_system_free(sys);
    return e;
}

/* least-squares slope of log e against log h (gsl_fit_linear) over count runs with
 * n0, 2 n0, 4 n0, ... steps to t_end */
static inline double ct_osc_order(const char *scheme, double t_end, long n0, int count)
{
    double lh[16], le[16];
    for (int j = 0; j < count; j++) {
        long n = n0 << j;
        lh[j] = log(t_end / (double)n);
        le[j] = log(ct_osc_run(scheme, t_end, n));
    }
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(lh, 1, le, 1, (size_t)count, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    return c1;
}

/* error in position of `scheme` on the Kepler orbit e = 0.6 at t_end after n steps,
 * against the problem's closed form (Kepler's equation, tests/test_kepler) */
static inline double ct_kepler_run(const char *scheme, double t_end, long n)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    cr_assert_eq(mb_options_set_pair(in, ECC), MB_SUCCESS);
    cr_assert_eq(mb_problem_prepare("kepler", in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    double h = t_end / (double)n;
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *ex = mb_nodes_alloc(1, 53);
    cr_assert_eq(pt->exact(p, sys->t, ex), MB_SUCCESS);
    double e = 0.0;
    for (int a = 0; a < 3; a++)
        e += (sys->nodes->x[a] - ex->x[a]) * (sys->nodes->x[a] - ex->x[a]);
    mb_nodes_free(ex);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
    return sqrt(e);
}

/* specific orbital energy v^2/2 - mu/r of node 0 (mu = 1) */
static inline double ct_kepler_energy(const mb_nodes *s)
{
    double r = sqrt(s->x[0] * s->x[0] + s->x[1] * s->x[1] + s->x[2] * s->x[2]);
    double v2 = s->v[0] * s->v[0] + s->v[1] * s->v[1] + s->v[2] * s->v[2];
    return 0.5 * v2 - 1.0 / r;
}

/* Kepler e = 0.6 with `scheme` at step h for `periods` periods (2 pi each); returns the
 * max |E/E0 - 1| over the first and over the last period, and the least-squares slope
 * of E/E0 - 1 against t (per unit time). */
static inline void ct_kepler_energy_run(const char *scheme, double h, int periods,
                                        double *first, double *last, double *slope)
{
    mb_system *sys = th_problem("kepler", (const char *const[]){ ECC, NULL });
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    const double e0 = -0.5;
    long per = lround(2.0 * M_PI / h), n = per * periods;
    double st_sum = 0, sr = 0, stt = 0, str = 0;
    *first = *last = 0.0;
    for (long k = 1; k <= n; k++) {
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
        double r = fabs(ct_kepler_energy(sys->nodes) / e0 - 1.0);
        double rs = ct_kepler_energy(sys->nodes) / e0 - 1.0, t = sys->t;
        if (k <= per)
            *first = fmax(*first, r);
        if (k > n - per)
            *last = fmax(*last, r);
        st_sum += t;
        sr += rs;
        stt += t * t;
        str += t * rs;
    }
    double N = (double)n;
    *slope = (str - st_sum * sr / N) / (stt - st_sum * st_sum / N);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* The 53-bit MPFR twin of scheme (with double's exponent range) reproduces the double run
 * bit for bit over 300 steps of a damped spring chain; control: the 256-bit twin differs,
 * so the comparison is not blind. */
static inline void ct_expect_twin53_identical(const char *scheme)
{
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=7", "D=0.031", NULL });
    mb_nodes *end = th_expect_twin53_identical(sys, scheme, scheme, 1.0 / 997, 300);
    /* negative control: the same run at 256 bits is not bit-identical to double */
    mb_system *s0 = th_problem("spring-chain", (const char *const[]){ "n=7", "D=0.031", NULL });
    mb_system_mpfr *t256 = mb_system_mpfr_alloc_twin(s0, 256);
    mb_stepper *s2 = mb_stepper_alloc_twin(scheme, t256);
    for (int n = 0; n < 300; n++)
        cr_assert_eq(mb_stepper_step_twin(s2, t256, 1.0 / 997), MB_SUCCESS);
    mb_nodes *back = mb_nodes_alloc(end->n, 53);
    mb_nodes_mpfr_get_double(back, t256->nodes);
    cr_expect(!th_same_state(back, end), "256-bit twin equal to double: check is blind");
    mb_stepper_free(s2);
    mb_system_mpfr_free(t256);
    mb_system_free(s0);
    mb_nodes_free(back);
    mb_nodes_free(end);
}

/* A step that overflows (a particle of mass 1e-300 at x = 1e300 moving at 1e308, under
 * gravity, stepped by h = 1e10) fails with MB_EDIVERGED and leaves the state, t included,
 * exactly as it was; a step of bad_h (<= 0) is refused with MB_EDOM. */
static inline void ct_expect_overflow_diverges(const char *scheme, double bad_h)
{
    double x[3] = { 1e300, 0, 0 }, v[3] = { 1e308, 0, 0 };
    mb_system *sys = th_particle(1e-300, x, v, 0.0, 0.0, (const double[]){ 0, -9.81, 0 });
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    mb_nodes *before = mb_nodes_alloc(1, 53);
    mb_nodes_copy(before, sys->nodes);
    int rc = mb_stepper_step(st, sys, 1e10);
    cr_expect(rc == MB_EDIVERGED, "%s: got %d: %s", scheme, rc, mb_last_error());
    cr_expect(th_same_state(before, sys->nodes), "%s: state changed by a failed step", scheme);
    cr_expect_eq(sys->t, 0.0);
    cr_expect_eq(mb_stepper_step(st, sys, bad_h), MB_EDOM);
    mb_nodes_free(before);
    mb_stepper_free(st);
    mb_system_free(sys);
}

#endif
