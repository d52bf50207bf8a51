/* test_rk4.c -- the classical Runge-Kutta method against hand-derived values and closed
 * forms, with its negative control (rk4-defect: the 3/8-rule weights on RK4's stages).
 *
 * One step.  On the linear system y' = A y (per axis y = (x, v), A = [[0, 1], [-w^2, 0]])
 * any 4-stage, order-4 explicit method gives y1 = (I + hA + (hA)^2/2 + (hA)^3/6 +
 * (hA)^4/24) y0.  With z = (h w)^2: (hA)^2 = -z I, (hA)^3 = -z hA, (hA)^4 = z^2 I, so
 *   x1 = (1 - z/2 + z^2/24) x0 + h (1 - z/6) v0,
 *   v1 = -h w^2 (1 - z/6) x0 + (1 - z/2 + z^2/24) v0.
 * Energy.  In the coordinates (w x, v) the map is a I + b J (J the rotation by 90 deg),
 * a = 1 - z/2 + z^2/24, b = h w (1 - z/6), so the energy is multiplied exactly by
 *   a^2 + b^2 = 1 - z^3/72 + z^4/576 per step
 * (a^2 = 1 - z + z^2/3 - z^3/24 + z^4/576, b^2 = z - z^2/3 + z^3/36).  The defect's
 * weights give x1 = ... with a different polynomial (b4 = 1/8: the h^4 term of x1 is
 * z^2/32 instead of z^2/24) and fail both checks.
 * Order: fitted slope on the oscillator, h w = 0.046 .. 0.0058: e = C h^4 (1 + O(z)),
 * slope within 0.01 of 4; margin +-0.1.  The defect satisfies sum b c^2 = 5/16 != 1/3:
 * order 2 (must stay below 2.5). */
#include <criterion/criterion.h>
#include <float.h>

#include "compare_test_util.h"
#include "mb_mpfr_extra.h"
#include "mb_rk_tableau.h"

/* Order conditions up to order 4 for an explicit tableau (Hairer, Norsett & Wanner I,
 * II.2, Table 2.2), evaluated in double on small rationals: every sum is exact to a few
 * u, so 1e-14 separates "holds" from "fails" (the defect misses its order-3 conditions by
 * 1/48 and 1/96).
 * Returns the highest order whose conditions all hold. */
static double q(struct rk_rational r) { return (double)r.num / (double)r.den; }

static int tableau_order(const struct rk_tableau *t)
{
    int s = t->stages;
    double b[RK_MAX_STAGES], c[RK_MAX_STAGES], a[RK_MAX_STAGES][RK_MAX_STAGES] = { { 0 } };
    double ac[RK_MAX_STAGES] = { 0 }, ac2[RK_MAX_STAGES] = { 0 }, aac[RK_MAX_STAGES] = { 0 };
    for (int i = 0; i < s; i++) {
        b[i] = q(t->b[i]);
        c[i] = q(t->c[i]);
        double row = 0.0;
        for (int j = 0; j < i; j++)
            row += a[i][j] = q(t->a[i][j]);
        cr_expect(fabs(row - c[i]) < 1e-14, "%s: c_%d != sum_j a_%dj", t->name, i, i);
    }
    for (int i = 0; i < s; i++)
        for (int j = 0; j < i; j++) {
            ac[i] += a[i][j] * c[j];
            ac2[i] += a[i][j] * c[j] * c[j];
        }
    for (int i = 0; i < s; i++)
        for (int j = 0; j < i; j++)
            aac[i] += a[i][j] * ac[j];
    double sums[8] = { 0 };
    const double want[8] = { 1.0, 1.0 / 2, 1.0 / 3, 1.0 / 6, 1.0 / 4, 1.0 / 8, 1.0 / 12, 1.0 / 24 };
    const int order_of[8] = { 1, 2, 3, 3, 4, 4, 4, 4 };
    for (int i = 0; i < s; i++) {
        sums[0] += b[i];
        sums[1] += b[i] * c[i];
        sums[2] += b[i] * c[i] * c[i];
        sums[3] += b[i] * ac[i];
        sums[4] += b[i] * c[i] * c[i] * c[i];
        sums[5] += b[i] * c[i] * ac[i];
        sums[6] += b[i] * ac2[i];
        sums[7] += b[i] * aac[i];
    }
    int order = 4;
    for (int k = 0; k < 8; k++)
        if (fabs(sums[k] - want[k]) > 1e-14 && order_of[k] - 1 < order)
            order = order_of[k] - 1;
    return order;
}

Test(rk4, tableau_order_conditions)
{
    cr_expect_eq(tableau_order(&mb_rk4_tableau), 4, "rk4 tableau is not of order 4");
    cr_expect_eq(tableau_order(&mb_rk4_defect_tableau), 2,
                 "negative control: the 3/8 weights on RK4's stages should stop at order 2");
}

static void one_step(const char *scheme, double h, double *x, double *v)
{
    mb_system *sys = ct_oscillator();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    memcpy(x, sys->nodes->x, 3 * sizeof(double));
    memcpy(v, sys->nodes->v, 3 * sizeof(double));
    cr_expect_eq(sys->t, h);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* max deviation of (x, v) from the hand-derived step */
static double step_deviation(const double *x, const double *v, double h)
{
    double w2 = K_OSC / M_OSC, z = h * h * w2, d = 0.0;
    double a = 1.0 - z / 2.0 + z * z / 24.0, b = h * (1.0 - z / 6.0);
    for (int k = 0; k < 3; k++) {
        double x1 = a * osc_x0[k] + b * osc_v0[k];
        double v1 = -w2 * b * osc_x0[k] + a * osc_v0[k];
        d = fmax(d, fmax(fabs(x[k] - x1), fabs(v[k] - v1)));
    }
    return d;
}

Test(rk4, one_step_hand_derived)
{
    const double h = 0.0731;        /* h w = 0.128 */
    double x[3], v[3], xd[3], vd[3];
    one_step("rk4", h, x, v);
    /* ~30 roundings on terms of size <= max|x0|, |v0| w ~ 2.2: 64 u of 4 */
    double tol = 64 * DBL_EPSILON * 4;
    double d = step_deviation(x, v, h);
    cr_expect(d <= tol, "rk4 step deviates by %g > %g", d, tol);
    one_step("rk4-defect", h, xd, vd);
    double dd = step_deviation(xd, vd, h);
    cr_expect(dd > 1e3 * tol, "negative control: wrong weights deviate by only %g", dd);
}

static double energy_factor_error(const char *scheme, double h, int N)
{
    mb_system *sys = ct_oscillator();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    double e0 = ct_osc_energy(sys->nodes), z = h * h * K_OSC / M_OSC;
    for (int n = 0; n < N; n++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    double expect = pow(1.0 - z * z * z / 72.0 + z * z * z * z / 576.0, N);
    double got = ct_osc_energy(sys->nodes) / e0;
    mb_stepper_free(st);
    mb_system_free(sys);
    return fabs(got / expect - 1.0);
}

Test(rk4, energy_factor_per_step)
{
    /* h w = 0.35 (z^3/72 = 2.6e-5 per step), 2000 steps (~110 periods): the energy
     * decays to 0.949 of E0.  Round-off: a few u per step relative, random-walk or
     * linear, so 2000 * 16 u = 7e-12 bounds it. */
    const double h = 0.2, tol = 2000 * 16 * DBL_EPSILON;
    double d = energy_factor_error("rk4", h, 2000);
    cr_expect(d <= tol, "rk4 energy factor off by %g > %g", d, tol);
    double dd = energy_factor_error("rk4-defect", h, 2000);
    cr_expect(dd > 1e3 * tol, "negative control: rk4-defect energy factor off by only %g", dd);
}

Test(rk4, fourth_order_on_the_oscillator)
{
    double p = ct_osc_order("rk4", 5.3, 200, 4);
    cr_expect(fabs(p - 4.0) <= 0.1, "order %.4f", p);
    double pd = ct_osc_order("rk4-defect", 5.3, 200, 4);
    cr_expect(pd < 2.5, "negative control: rk4-defect order %.4f not flagged", pd);
}

Test(rk4, energy_drifts_slowly_on_kepler)
{
    /* not symplectic: the energy error grows over 20 periods (last-period max more than
     * twice the first), its slope is negative (RK4 loses energy, as on the oscillator),
     * and stays small: at h = 2 pi/1000 the local error O(h^5) ~ 1e-12 per step */
    double first, last, slope;
    ct_kepler_energy_run("rk4", 2.0 * M_PI / 1000, 20, &first, &last, &slope);
    cr_expect(last > 2.0 * first, "no drift: first %g, last %g", first, last);
    cr_expect(last < 1e-6, "drift too large: %g", last);
    /* E/E0 - 1 with E0 < 0: losing energy makes E more negative, E/E0 - 1 > 0 */
    cr_expect(slope > 0.0, "energy gained (slope of E/E0 - 1: %g)", slope);
}

Test(rk4, mpfr53_twin_is_bit_identical)
{
    ct_expect_twin53_identical("rk4");
}

Test(rk4, nan_is_diverged_and_state_untouched)
{
    ct_expect_overflow_diverges("rk4", -0.1);
}
