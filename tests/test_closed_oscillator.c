/* test_closed_oscillator.c -- closed forms of the linear oscillators, the spring-dashpot
 * collision and the mathematical pendulum, checked by the differential equations they
 * solve (central differences), invariants, hand-derived special cases and published
 * values.
 *
 * Central differences with step h have truncation error h^2/6 |y'''| and round-off about
 * eps |y| / h.  With lam the largest rate of the solution (|y'''| <= lam^3 S, S the state
 * scale) and h = 1e-4 / lam both terms are below 1e-8 lam S; the residual checks use
 * 1e-7 lam S. */
#include <criterion/criterion.h>
#include <float.h>
#include <gsl/gsl_sf_elljac.h>
#include <math.h>

#include "mb_closed.h"
#include "mb_status.h"

/* residual of x'' + 2 zeta w0 x' + w0^2 x = 0 and of v = x' at t, step h */
static void damped_residuals(double w0, double zeta, double x0, double v0, double t, double h,
                             double *res_v, double *res_a)
{
    double xm, vm, x, v, xp, vp;
    mb_closed_damped(w0, zeta, x0, v0, t - h, &xm, &vm);
    mb_closed_damped(w0, zeta, x0, v0, t, &x, &v);
    mb_closed_damped(w0, zeta, x0, v0, t + h, &xp, &vp);
    *res_v = (xp - xm) / (2 * h) - v;
    *res_a = (vp - vm) / (2 * h) + 2 * zeta * w0 * v + w0 * w0 * x;
}

Test(closed_oscillator, damped_solves_the_ode_in_all_regimes)
{
    const double w0 = 2.385, x0 = 0.413, v0 = -1.27;
    const double zetas[] = { 0.0, 0.137, 0.71, 1.0 - 1e-9, 1.0, 1.0 + 1e-9, 1.83, 7.4 };
    for (size_t z = 0; z < sizeof zetas / sizeof *zetas; z++) {
        double zeta = zetas[z];
        double lam = fmax(1.0, w0 * (zeta + sqrt(fabs(zeta * zeta - 1))));
        double S = fabs(x0) * lam + fabs(v0), tol = 1e-7 * lam * S, h = 1e-4 / lam;
        for (double t = 0.05; t < 6.0; t += 0.731) {
            double rv, ra;
            damped_residuals(w0, zeta, x0, v0, t, h, &rv, &ra);
            cr_expect(fabs(rv) < tol && fabs(ra) < lam * tol, "zeta %g t %g: residuals %g %g",
                      zeta, t, rv, ra);
        }
    }
    double x, v;
    mb_closed_damped(w0, 0.5, x0, v0, 0.0, &x, &v);
    cr_expect(x == x0 && v == v0, "initial state reproduced exactly");
}

Test(closed_oscillator, harmonic_matches_undamped_limit)
{
    double x, v, xd, vd;
    cr_assert_eq(mb_closed_harmonic(2.385, 0.413, -1.27, 3.7, &x, &v), MB_SUCCESS);
    mb_closed_damped(2.385, 0.0, 0.413, -1.27, 3.7, &xd, &vd);
    /* same formula family, different code paths: agreement to a few ulps of the scale 0.8 */
    cr_expect(fabs(x - xd) < 1e-15 && fabs(v - vd) < 4e-15, "harmonic %.17g %.17g vs %.17g %.17g",
              x, v, xd, vd);
    /* energy 1/2 (v^2 + w^2 x^2) is conserved */
    double e0 = 0.5 * (1.27 * 1.27 + 2.385 * 2.385 * 0.413 * 0.413);
    cr_expect(fabs(0.5 * (v * v + 2.385 * 2.385 * x * x) / e0 - 1) < 4 * DBL_EPSILON);
}

/* The critical solution, typed here from the textbook: x = e^(-w t)(x0 + (v0 + w x0) t). */
Test(closed_oscillator, critical_case_textbook_and_continuity)
{
    const double w0 = 2.385, x0 = 0.413, v0 = -1.27;
    for (double t = 0.1; t < 8.0; t += 0.9) {
        double x, v, xm, vm, xp, vp;
        mb_closed_damped(w0, 1.0, x0, v0, t, &x, &v);
        double xe = exp(-w0 * t) * (x0 + (v0 + w0 * x0) * t);
        double ve = exp(-w0 * t) * (v0 - w0 * (v0 + w0 * x0) * t);
        cr_expect(fabs(x - xe) <= 4 * DBL_EPSILON * fabs(x0) + 4 * DBL_EPSILON * fabs(xe));
        cr_expect(fabs(v - ve) <= 8 * DBL_EPSILON * (fabs(v0) + w0 * fabs(x0)));
        /* dx/dzeta is bounded (|dx/dzeta| < 10 here): zeta = 1 +- 1e-12 moves x by < 1e-11 */
        mb_closed_damped(w0, 1.0 - 1e-12, x0, v0, t, &xm, &vm);
        mb_closed_damped(w0, 1.0 + 1e-12, x0, v0, t, &xp, &vp);
        cr_expect(fabs(xm - x) < 1e-11 && fabs(xp - x) < 1e-11, "t %g: %.17g %.17g %.17g", t, xm,
                  x, xp);
    }
}

/* Negative control: the textbook over-damped form (A e^(r1 t) + B e^(r2 t)) with r1 - r2 =
 * 2 w0 sqrt(zeta^2 - 1) loses digits like eps / (2 b t) near zeta = 1: at zeta = 1 + 1e-14
 * it is off by > 1e-12 where the series form is exact to round-off. */
static double naive_overdamped(double w0, double zeta, double x0, double v0, double t)
{
    double b = w0 * sqrt(zeta * zeta - 1), r1 = -zeta * w0 + b, r2 = -zeta * w0 - b;
    double A = (v0 - r2 * x0) / (r1 - r2), B = x0 - A;
    return A * exp(r1 * t) + B * exp(r2 * t);
}

Test(closed_oscillator, near_critical_no_cancellation)
{
    const double w0 = 2.385, x0 = 0.413, v0 = -1.27, zeta = 1.0 + 4e-15, t = 1.3;
    double x, v, xc, vc;
    mb_closed_damped(w0, zeta, x0, v0, t, &x, &v);
    mb_closed_damped(w0, 1.0, x0, v0, t, &xc, &vc);
    cr_expect(fabs(x - xc) < 1e-14, "series form %.17g vs critical %.17g", x, xc);
    double naive = naive_overdamped(w0, zeta, x0, v0, t);
    cr_expect(fabs(naive - xc) > 1e-12, "negative control: naive form %.17g should lose digits", naive);
}

/* Under-damped: over one damped period T_d = 2 pi / w_d the state shrinks by exactly
 * exp(-2 pi zeta / sqrt(1 - zeta^2)) (both x and v). */
Test(closed_oscillator, underdamped_decrement)
{
    const double w0 = 2.385, zeta = 0.137, x0 = 0.413, v0 = -1.27, t = 0.77;
    double wd = w0 * sqrt(1 - zeta * zeta), Td = 2 * M_PI / wd;
    double x1, v1, x2, v2;
    mb_closed_damped(w0, zeta, x0, v0, t, &x1, &v1);
    mb_closed_damped(w0, zeta, x0, v0, t + Td, &x2, &v2);
    double r = exp(-2 * M_PI * zeta / sqrt(1 - zeta * zeta));
    cr_expect(fabs(x2 / x1 - r) < 1e-13 && fabs(v2 / v1 - r) < 1e-13, "ratios %.17g %.17g vs %.17g",
              x2 / x1, v2 / v1, r);
}

Test(closed_oscillator, overdamped_long_times_finite)
{
    /* zeta = 10, t = 100: cosh(b t) alone would overflow (b t = 2373) */
    double x, v, w0 = 2.385, zeta = 10.0, t = 100.0;
    cr_assert_eq(mb_closed_damped(w0, zeta, 0.413, -1.27, t, &x, &v), MB_SUCCESS);
    cr_expect(isfinite(x) && isfinite(v));
    /* slow mode only: x ~ C e^(-s t), s = w0^2 / (a + b); v = -s x */
    double a = zeta * w0, b = w0 * sqrt(zeta * zeta - 1), s = w0 * w0 / (a + b);
    cr_expect(fabs(v / x + s) < 1e-12 * s, "v/x %.17g vs -s %.17g", v / x, -s);
    cr_expect_eq(mb_closed_damped(-1.0, 0.1, 0, 0, 1, &x, &v), MB_EDOM);
    cr_expect_eq(mb_closed_damped(1.0, -0.1, 0, 0, 1, &x, &v), MB_EDOM);
}

Test(closed_oscillator, spring_dashpot_collision)
{
    const double m = 0.0213, k = 2.385e4, c = 3.7;
    mb_lsd_collision col;
    cr_assert_eq(mb_closed_lsd_collision(m, k, c, &col), MB_SUCCESS);
    double zeta = c / (2 * sqrt(k * m));
    cr_expect(fabs(col.restitution - exp(-zeta * M_PI / sqrt(1 - zeta * zeta))) < 1e-15);
    /* the overlap returns to 0 at the duration with rebound speed e v_in */
    double d, dd, v_in = 1.7;
    mb_closed_lsd_overlap(m, k, c, v_in, col.duration, &d, &dd);
    cr_expect(fabs(d) < 1e-14 * v_in / col.omega_d, "overlap at t_c %g", d);
    cr_expect(fabs(-dd / v_in - col.restitution) < 1e-13, "rebound %.17g vs e %.17g", -dd / v_in,
              col.restitution);
    /* force criterion: k d + c d' = 0 at duration_force, positive before */
    mb_closed_lsd_overlap(m, k, c, v_in, col.duration_force, &d, &dd);
    cr_expect(fabs(k * d + c * dd) < 1e-11 * c * v_in, "force at t_f %g", k * d + c * dd);
    cr_expect(fabs(-dd / v_in - col.restitution_force) < 1e-13);
    mb_closed_lsd_overlap(m, k, c, v_in, 0.9 * col.duration_force, &d, &dd);
    cr_expect(k * d + c * dd > 0);
    cr_expect(col.duration_force < col.duration && col.restitution_force > col.restitution);
    cr_expect_eq(mb_closed_lsd_collision(m, k, 2 * sqrt(k * m) * 1.01, &col), MB_EDOM);
}

Test(closed_oscillator, pendulum_published_values)
{
    /* K(1/sqrt 2) = Gamma(1/4)^2 / (4 sqrt(pi)) = 1.854074677301372 (A&S 17.3.37 / DLMF 19.20.2):
     * T(90 deg) / T0 = 2 K(1/sqrt 2) / pi = 1.1803405990160962 */
    double T;
    const double l = 1.0, g = 9.80665;
    cr_assert_eq(mb_closed_pendulum_period(l, g, M_PI / 2, &T), MB_SUCCESS);
    double T0 = 2 * M_PI * sqrt(l / g);
    cr_expect(fabs(T / T0 - 2 * 1.854074677301372 / M_PI) < 2e-15, "T/T0 = %.17g", T / T0);
    /* small amplitude: T = T0 (1 + th^2/16 + 11 th^4/3072 + 173 th^6/737280 + ...);
     * at th = 0.1 the next term is ~ 2e-10 * th^8 / th^6 ~ 2e-12 */
    double th = 0.1;
    mb_closed_pendulum_period(2.385, g, th, &T);
    T0 = 2 * M_PI * sqrt(2.385 / g);
    double series = 1 + th * th / 16 + 11 * pow(th, 4) / 3072 + 173 * pow(th, 6) / 737280;
    cr_expect(fabs(T / T0 - series) < 1e-11, "T/T0 %.17g, series %.17g", T / T0, series);
    cr_expect_eq(mb_closed_pendulum_period(l, g, 3.2, &T), MB_EDOM);
}

/* max over t in [0, T] of |theta'' + w0^2 sin theta| by central differences of theta(t)
 * (step 1e-4: truncation h^2/12 |theta''''| < 1e-7 w0^2 here, round-off 4 eps / h^2 < 1e-7) */
typedef void (*pendulum_fn)(double l, double g, double th0, double t, double *th);

static void pendulum_closed(double l, double g, double th0, double t, double *th)
{
    double thd;
    mb_closed_pendulum(l, g, th0, t, th, &thd);
}

/* Negative control: the modulus k passed where gsl_sf_elljac_e wants m = k^2. */
static void pendulum_wrong_parameter(double l, double g, double th0, double t, double *th)
{
    double w0 = sqrt(g / l), k = sin(th0 / 2), T, sn, cn, dn;
    mb_closed_pendulum_period(l, g, th0, &T);
    gsl_sf_elljac_e(T * w0 / 4 - w0 * t, k, &sn, &cn, &dn);
    *th = 2 * asin(k * sn);
}

static double pendulum_residual(pendulum_fn f, double l, double g, double th0, double T)
{
    double worst = 0, h = 1e-4;
    for (double t = 0.01; t < T; t += 0.137) {
        double a, b, c;
        f(l, g, th0, t - h, &a);
        f(l, g, th0, t, &b);
        f(l, g, th0, t + h, &c);
        worst = fmax(worst, fabs((a - 2 * b + c) / (h * h) + g / l * sin(b)));
    }
    return worst;
}

/* Energy E = theta'^2 / 2 - w0^2 cos(theta) is constant; the ODE holds; theta(T) = theta0,
 * theta(T/4) = 0.  (The energy alone cannot catch a wrong elliptic parameter: with any m,
 * theta = 2 asin(k sn), theta' = -2 k w0 cn give E = 2 k^2 w0^2 - w0^2.) */
Test(closed_oscillator, pendulum_solution_invariants)
{
    const double l = 2.385, g = 9.81, th0 = 2.1, w2 = g / l;
    double T, th, thd;
    mb_closed_pendulum_period(l, g, th0, &T);
    double e0 = -w2 * cos(th0);
    for (double t = 0.0; t < 2.5 * T; t += 0.137) {
        mb_closed_pendulum(l, g, th0, t, &th, &thd);
        cr_expect(fabs(0.5 * thd * thd - w2 * cos(th) - e0) < 1e-13 * w2, "t %g energy %g", t,
                  0.5 * thd * thd - w2 * cos(th) - e0);
    }
    double r = pendulum_residual(pendulum_closed, l, g, th0, T);
    cr_expect(r < 2e-7 * w2, "ODE residual %g", r);
    mb_closed_pendulum(l, g, th0, T, &th, &thd);
    /* sn is stationary at u = -3K: a phase error du moves theta by O(du^2), theta' by O(du) */
    cr_expect(fabs(th - th0) < 1e-13 && fabs(thd) < 1e-12 * sqrt(w2), "after one period %.17g %g",
              th, thd);
    mb_closed_pendulum(l, g, th0, T / 4, &th, &thd);
    cr_expect(fabs(th) < 1e-13, "quarter period angle %g", th);
}

Test(closed_oscillator, pendulum_modulus_parameter_confusion_is_detected)
{
    const double l = 2.385, g = 9.81, th0 = 2.1;
    double T;
    mb_closed_pendulum_period(l, g, th0, &T);
    double r = pendulum_residual(pendulum_wrong_parameter, l, g, th0, T);
    cr_expect(r > 1e-2 * g / l, "the wrong parameter went unnoticed (residual %g)", r);
}
