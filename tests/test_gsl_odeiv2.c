/* test_gsl_odeiv2.c -- the GSL odeiv2 wrappers (gsl-rk8pd, gsl-rk4, gsl-rk2imp,
 * gsl-rk4imp) against hand-derived steps and closed forms.
 *
 * Per axis the oscillator is y' = A y, y = (x, v), A = [[0, 1], [-w^2, 0]].  With
 * k = h/2 and z = (k w)^2 (GSL's rk4 and rk*imp return two half steps, see
 * src/integrators/gsl_odeiv2_step.c):
 *   RK4 half step:  x' = (1 - z/2 + z^2/24) x + k (1 - z/6) v,
 *                   v' = -k w^2 (1 - z/6) x + (1 - z/2 + z^2/24) v;
 *   implicit midpoint half step (Cayley map (I - kA/2)^-1 (I + kA/2)), with d = 1 + z/4:
 *                   x' = ((1 - z/4) x + k v) / d,  v' = ((1 - z/4) v - k w^2 x) / d.
 * The negative controls are the same maps applied once with the full step h (what a
 * wrapper without step doubling would return), which differ at O(h^5) and O(h^3).
 * Gauss methods (rk2imp, rk4imp) conserve quadratic invariants (Hairer, Lubich & Wanner,
 * IV.2.1), so the oscillator energy is conserved to the Newton tolerance (1e-14
 * relative per step); explicit gsl-rk4 loses z^3/72 per half step and is flagged. */
#include <criterion/criterion.h>
#include <float.h>

#include "compare_test_util.h"

typedef void (*half_map)(double k, double *x, double *v);

static void rk4_map(double k, double *x, double *v)
{
    double w2 = K_OSC / M_OSC, z = k * k * w2;
    double a = 1.0 - z / 2.0 + z * z / 24.0, b = k * (1.0 - z / 6.0);
    double x1 = a * *x + b * *v, v1 = -w2 * b * *x + a * *v;
    *x = x1;
    *v = v1;
}

static void midpoint_map(double k, double *x, double *v)
{
    double w2 = K_OSC / M_OSC, z = k * k * w2, d = 1.0 + z / 4.0;
    double x1 = ((1.0 - z / 4.0) * *x + k * *v) / d, v1 = ((1.0 - z / 4.0) * *v - k * w2 * *x) / d;
    *x = x1;
    *v = v1;
}

/* max deviation of one wrapper step h from `times` applications of map with step h/times */
static double deviation(const char *scheme, half_map map, double h, int times)
{
    mb_system *sys = ct_oscillator();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(sys->t, h);
    double d = 0.0;
    for (int a = 0; a < 3; a++) {
        double x = osc_x0[a], v = osc_v0[a];
        for (int j = 0; j < times; j++)
            map(h / times, &x, &v);
        d = fmax(d, fmax(fabs(sys->nodes->x[a] - x), fabs(sys->nodes->v[a] - v)));
    }
    mb_stepper_free(st);
    mb_system_free(sys);
    return d;
}

Test(gsl_odeiv2, rk4_is_two_half_steps)
{
    const double h = 0.0731;
    double tol = 128 * DBL_EPSILON * 4;   /* two RK4 steps' roundings, values <= 2.2 */
    double d = deviation("gsl-rk4", rk4_map, h, 2);
    cr_expect(d <= tol, "gsl-rk4 deviates from two RK4 half steps by %g", d);
    double d1 = deviation("gsl-rk4", rk4_map, h, 1);
    cr_expect(d1 > 1e3 * tol, "negative control: one full RK4 step deviates by only %g", d1);
}

Test(gsl_odeiv2, implicit_midpoint_is_two_cayley_half_steps)
{
    const double h = 0.0731;
    /* the stages are solved to the 1e-14 Newton tolerance (GODEIV_EPS): 1e-13 */
    double d = deviation("gsl-rk2imp", midpoint_map, h, 2);
    cr_expect(d <= 1e-13, "gsl-rk2imp deviates from two Cayley half steps by %g", d);
    double d1 = deviation("gsl-rk2imp", midpoint_map, h, 1);
    cr_expect(d1 > 1e-8, "negative control: one full Cayley step deviates by only %g", d1);
}

static double energy_change(const char *scheme, double h, int N)
{
    mb_system *sys = ct_oscillator();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    double e0 = ct_osc_energy(sys->nodes);
    for (int n = 0; n < N; n++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    double r = fabs(ct_osc_energy(sys->nodes) / e0 - 1.0);
    mb_stepper_free(st);
    mb_system_free(sys);
    return r;
}

Test(gsl_odeiv2, gauss_methods_conserve_the_oscillator_energy)
{
    /* h w = 0.35, 1000 steps: Newton residuals of 1e-14 relative per step bound the
     * change by 1000 * 1e-14 = 1e-11 */
    const double h = 0.2;
    double r2 = energy_change("gsl-rk2imp", h, 1000), r4 = energy_change("gsl-rk4imp", h, 1000);
    cr_expect(r2 <= 1e-11, "gsl-rk2imp energy changed by %g", r2);
    cr_expect(r4 <= 1e-11, "gsl-rk4imp energy changed by %g", r4);
    /* negative control: explicit RK4, 2000 half steps each losing z^3/72 = 4e-7 */
    double re = energy_change("gsl-rk4", h, 1000);
    cr_expect(re > 1e-4, "negative control: gsl-rk4 energy change %g not flagged", re);
}

Test(gsl_odeiv2, orders_on_the_oscillator)
{
    /* t_end 5.3; fitted slopes, margins as for rk4 (+-0.1 at h w <= 0.046).  gsl-rk4imp
     * runs at coarser steps (h w = 0.19 .. 0.023, N = 50 .. 400): below e ~ 1e-11 the
     * 1e-14-per-step Newton tolerance adds to the error and bends the fit. */
    double p4 = ct_osc_order("gsl-rk4", 5.3, 200, 4);
    double p2 = ct_osc_order("gsl-rk2imp", 5.3, 200, 4);
    double p4i = ct_osc_order("gsl-rk4imp", 5.3, 50, 4);
    cr_expect(fabs(p4 - 4.0) <= 0.1, "gsl-rk4 order %.4f", p4);
    cr_expect(fabs(p2 - 2.0) <= 0.05, "gsl-rk2imp order %.4f", p2);
    cr_expect(fabs(p4i - 4.0) <= 0.1, "gsl-rk4imp order %.4f", p4i);
    /* negative control: the same fit on the second-order Gauss method is not fourth order */
    cr_expect(fabs(p2 - 4.0) > 0.1, "order check cannot tell 2 from 4");
}

/* |y(h) - y_exact(h)| after one step of `scheme` from the oscillator's initial state */
static double local_error(const char *scheme, double h)
{
    mb_system *sys = ct_oscillator();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    double e = ct_osc_error(sys->nodes, sys->t);
    mb_stepper_free(st);
    mb_system_free(sys);
    return e;
}

Test(gsl_odeiv2, rk8pd_local_error_on_a_linear_system)
{
    /* On a linear system a Runge-Kutta step is R(hA) y0; the 8th-order solution of
     * Prince & Dormand's pair has R(z) = e^z + O(z^10) (its linear order, 9, exceeds its
     * order 8; measured with gsl_odeiv2_step_apply on y' = y: (R(h) - e^h)/h^10 =
     * -4.0e-8, -4.3e-8, -5.0e-8 at h = 0.8, 0.4, 0.2).  So the local error on the
     * oscillator falls as h^10 and the global error as h^9 (measured slope 8.88 at
     * h w = 0.93 .. 0.23, the limit of round-off).  At h w = 1.4 .. 0.35 the local error
     * 1e-6 .. 1e-12 is far above round-off: pairwise slopes within 0.3 of 10. */
    double h = 0.8;
    for (int j = 0; j < 2; j++, h /= 2) {
        double q = log(local_error("gsl-rk8pd", h) / local_error("gsl-rk8pd", h / 2)) / log(2.0);
        cr_expect(fabs(q - 10.0) <= 0.3, "rk8pd local order %.3f at h = %g", q, h);
        /* negative control: gsl-rk4's local error falls as h^5 */
        double q4 = log(local_error("gsl-rk4", h) / local_error("gsl-rk4", h / 2)) / log(2.0);
        cr_expect(fabs(q4 - 10.0) > 0.3, "negative control: rk4 local order %.3f passes", q4);
    }
    /* global: fitted slope over N = 10, 20, 40 steps to 5.3 */
    double p8 = ct_osc_order("gsl-rk8pd", 5.3, 10, 3);
    cr_expect(fabs(p8 - 9.0) <= 0.25, "gsl-rk8pd global order on the oscillator %.4f", p8);
}

Test(gsl_odeiv2, nan_is_diverged_and_state_untouched)
{
    const char *names[] = { "gsl-rk8pd", "gsl-rk4", "gsl-rk2imp", "gsl-rk4imp" };
    for (int i = 0; i < 4; i++)
        ct_expect_overflow_diverges(names[i], 0.0);
}

Test(gsl_odeiv2, no_mpfr_twin)
{
    mb_system *sys = ct_oscillator();
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 64);
    cr_expect_null(mb_stepper_alloc_twin("gsl-rk8pd", tw));
    cr_expect(strstr(mb_last_error(), "no MPFR twin") != NULL, "%s", mb_last_error());
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
}
