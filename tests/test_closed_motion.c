/* test_closed_motion.c -- closed forms of translational motion: free fall, the linear-drag
 * projectile, the affine flow exp(L t) x0 and Kepler orbits.  Checked by hand-derived
 * special cases, the differential equations (central differences: truncation h^2/6 |y'''|,
 * round-off eps |y| / h, tolerances stated per test), invariants and published values. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "mb_closed.h"
#include "mb_status.h"
#include "mb_vec.h"

static const double G[3] = { 0.31, -0.17, -9.81 };
static const double X0[3] = { 0.413, -2.385, 1.27 };
static const double V0[3] = { 3.7, 1.9, 4.1 };

Test(closed_motion, free_fall_hand_values)
{
    double x[3], v[3], t = 1.37;
    mb_closed_free_fall(G, X0, V0, t, x, v);
    /* z: 1.27 + 4.1 * 1.37 - 9.81 * 1.37^2 / 2 = -2.326... typed out */
    double z = 1.27 + 4.1 * 1.37 - 0.5 * 9.81 * 1.37 * 1.37;
    cr_expect(fabs(x[2] - z) < 4 * DBL_EPSILON * 10, "z %.17g vs %.17g", x[2], z);
    cr_expect(fabs(v[2] - (4.1 - 9.81 * 1.37)) < 4 * DBL_EPSILON * 10);
}

/* The series form must reduce to free fall at gamma = 0 and stay accurate for tiny gamma,
 * where the textbook x0 + v_inf t + (v0 - v_inf)(1 - e^(-gamma t))/gamma, v_inf = g/gamma,
 * cancels catastrophically (negative control). */
Test(closed_motion, drag_weak_limit)
{
    double x[3], v[3], xf[3], vf[3], t = 1.37;
    mb_closed_free_fall(G, X0, V0, t, xf, vf);
    mb_closed_drag_projectile(0.0, G, X0, V0, t, x, v);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(x[k] - xf[k]) < 1e-14 && fabs(v[k] - vf[k]) < 1e-14);
    double gam = 1e-9;
    mb_closed_drag_projectile(gam, G, X0, V0, t, x, v);
    /* first-order correction: dx = -gamma (v0 t^2/2 + g t^3/6), dv = -gamma (v0 t + g t^2/2) */
    for (int k = 0; k < 3; k++) {
        double dx = -gam * (V0[k] * t * t / 2 + G[k] * t * t * t / 6);
        cr_expect(fabs(x[k] - (xf[k] + dx)) < 1e-15 * 10, "k %d: %.17g vs %.17g", k, x[k], xf[k] + dx);
    }
    double vinf = G[2] / gam;
    double naive = X0[2] + vinf * t + (V0[2] - vinf) * (1 - exp(-gam * t)) / gam;
    cr_expect(fabs(naive - x[2]) > 1e-8, "negative control: the textbook form should lose digits "
              "(%.17g vs %.17g)", naive, x[2]);
}

Test(closed_motion, drag_solves_the_ode_and_terminal_velocity)
{
    const double gam = 0.734, h = 1e-4;
    for (double t = 0.1; t < 5; t += 0.61) {
        double xm[3], vm[3], x[3], v[3], xp[3], vp[3];
        mb_closed_drag_projectile(gam, G, X0, V0, t - h, xm, vm);
        mb_closed_drag_projectile(gam, G, X0, V0, t, x, v);
        mb_closed_drag_projectile(gam, G, X0, V0, t + h, xp, vp);
        for (int k = 0; k < 3; k++) {
            /* |x'''| = |v''| <= gamma^2 (|v0| + |g|/gamma) ~ 6: FD error < 1e-8 */
            cr_expect(fabs((xp[k] - xm[k]) / (2 * h) - v[k]) < 1e-7);
            cr_expect(fabs((vp[k] - vm[k]) / (2 * h) - (G[k] - gam * v[k])) < 1e-7);
        }
    }
    double x[3], v[3];
    mb_closed_drag_projectile(gam, G, X0, V0, 80.0, x, v);
    for (int k = 0; k < 3; k++)  /* e^(-0.734 * 80) ~ 3e-26: v = g/gamma to round-off */
        cr_expect(fabs(v[k] - G[k] / gam) < 1e-14 * fabs(G[2] / gam));
    cr_expect_eq(mb_closed_drag_projectile(-1.0, G, X0, V0, 1.0, x, v), MB_EDOM);
}

Test(closed_motion, affine_flow_special_cases)
{
    double x[3], v[3];
    /* simple shear: L nilpotent, exp(L t) = I + L t exactly */
    const double Ls[9] = { 0, 2.385, 0, 0, 0, 0, 0, 0, 0 };
    cr_assert_eq(mb_closed_affine_flow(Ls, 1.7, X0, x, v), MB_SUCCESS);
    cr_expect(fabs(x[0] - (X0[0] + 2.385 * 1.7 * X0[1])) < 1e-14 && x[1] == X0[1] && x[2] == X0[2]);
    cr_expect(fabs(v[0] - 2.385 * X0[1]) < 1e-14);
    /* rigid rotation v = w x r about z: exp(L t) = rotation by w t (Rodrigues, typed out) */
    const double w = 0.913, Lr[9] = { 0, -w, 0, w, 0, 0, 0, 0, 0 };
    mb_closed_affine_flow(Lr, 2.1, X0, x, v);
    double c = cos(w * 2.1), s = sin(w * 2.1);
    cr_expect(fabs(x[0] - (c * X0[0] - s * X0[1])) < 1e-14 && fabs(x[1] - (s * X0[0] + c * X0[1])) < 1e-14,
              "rotation: %.17g %.17g", x[0], x[1]);
    /* diagonal stretch; gsl_linalg_exponential_ss in GSL_PREC_DOUBLE mode truncates its
     * Taylor series at about 5e-15 relative (measured 4.8e-15 here), hence 2e-14 */
    const double Ld[9] = { -0.3, 0, 0, 0, 0.7, 0, 0, 0, 0.2 };
    mb_closed_affine_flow(Ld, 1.3, X0, x, v);
    cr_expect(fabs(x[1] / X0[1] / exp(0.7 * 1.3) - 1) < 2e-14, "%.17g vs %.17g", x[1] / X0[1],
              exp(0.7 * 1.3));
}

Test(closed_motion, affine_flow_general_semigroup_and_ode)
{
    const double L[9] = { 0.12, -0.73, 0.4, 0.9, -0.2, 0.05, -0.31, 0.6, 0.08 };
    double a[3], va[3], b[3], vb[3], c[3], vc[3];
    mb_closed_affine_flow(L, 0.8, X0, a, va);
    mb_closed_affine_flow(L, 1.1, a, b, vb);
    mb_closed_affine_flow(L, 1.9, X0, c, vc);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(b[k] - c[k]) < 1e-13, "exp(1.1 L) exp(0.8 L) x0 vs exp(1.9 L) x0: %g", b[k] - c[k]);
    double xm[3], xp[3], h = 1e-4;
    mb_closed_affine_flow(L, 1.9 - h, X0, xm, va);
    mb_closed_affine_flow(L, 1.9 + h, X0, xp, va);
    for (int k = 0; k < 3; k++)     /* |x'''| <= |L|^3 |x| ~ 5 */
        cr_expect(fabs((xp[k] - xm[k]) / (2 * h) - vc[k]) < 1e-7);
}

/* Meeus, Astronomical Algorithms (2nd ed.), example 30.a: e = 0.100, M = 5 deg gives
 * E = 5.554589 deg (to the 1e-6 deg printed). */
Test(closed_motion, kepler_equation_published_and_identity)
{
    double E;
    cr_assert_eq(mb_closed_kepler_anomaly(5.0 * M_PI / 180, 0.1, &E), MB_SUCCESS);
    cr_expect(fabs(E * 180 / M_PI - 5.554589) < 1e-6, "E = %.9f deg", E * 180 / M_PI);
    const double es[] = { 0.0, 0.017, 0.3, 0.6, 0.93, 0.999 };
    for (size_t i = 0; i < sizeof es / sizeof *es; i++)
        for (double M = -20.0; M < 20.0; M += 0.377) {
            cr_assert_eq(mb_closed_kepler_anomaly(M, es[i], &E), MB_SUCCESS);
            /* |E - e sin E - M| is a few ulps of |M| after the Newton polish */
            cr_expect(fabs(E - es[i] * sin(E) - M) < 8 * DBL_EPSILON * (fabs(M) + 4),
                      "e %g M %g residual %g", es[i], M, E - es[i] * sin(E) - M);
        }
    cr_expect_eq(mb_closed_kepler_anomaly(1.0, 1.0, &E), MB_EDOM);
}

Test(closed_motion, kepler_invariants_period_and_ode)
{
    const double mu = 2.385, a = 1.37, e = 0.6;
    double P = mb_closed_kepler_period(mu, a), x[3], v[3], x0[3], v0[3];
    mb_closed_kepler(mu, a, e, 0.0, x0, v0);
    cr_expect(fabs(x0[0] - a * (1 - e)) < 1e-15 && fabs(x0[1]) < 1e-15);
    double E0 = -mu / (2 * a), h0 = sqrt(mu * a * (1 - e * e));
    for (double t = 0.0; t < 3 * P; t += 0.173) {
        mb_closed_kepler(mu, a, e, t, x, v);
        double r = mb_v3_norm(x), En = 0.5 * mb_v3_dot(v, v) - mu / r;
        double hz = x[0] * v[1] - x[1] * v[0];
        /* v^2 up to ~ mu(1+e)/(a(1-e)) = 6.9: round-off of a few ulps */
        cr_expect(fabs(En - E0) < 1e-14 * 8 && fabs(hz - h0) < 1e-14 * 4, "t %g: E %.17g h %.17g", t, En, hz);
    }
    mb_closed_kepler(mu, a, e, P, x, v);
    cr_expect(mb_v3_dist(x, x0) < 1e-14 && mb_v3_dist(v, v0) < 1e-13, "after one period");
    mb_closed_kepler(mu, a, e, P / 2, x, v);
    cr_expect(fabs(x[0] + a * (1 + e)) < 1e-14 && fabs(x[1]) < 1e-14, "apoapsis %g %g", x[0], x[1]);
    /* r'' = -mu r / r^3 by central differences (|r''''| <= ~ 200 near periapsis, h = 1e-4) */
    double hh = 1e-4;
    for (double t = 0.05; t < P; t += 0.29) {
        double xm[3], xp[3];
        mb_closed_kepler(mu, a, e, t - hh, xm, v);
        mb_closed_kepler(mu, a, e, t + hh, xp, v);
        mb_closed_kepler(mu, a, e, t, x, v);
        double r3 = pow(mb_v3_norm(x), 3);
        for (int k = 0; k < 2; k++)
            cr_expect(fabs((xp[k] - 2 * x[k] + xm[k]) / (hh * hh) + mu * x[k] / r3) < 1e-5);
    }
}
