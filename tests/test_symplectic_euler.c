/* test_symplectic_euler.c -- symplectic Euler against hand-derived closed forms.
 *
 * Modified energy.  On x'' = -w^2 x one step is v+ = v - h w^2 x, x+ = x + h v+.  Let
 *   Q(x, v) = v^2 + w^2 x^2 - h w^2 x v.
 * Then Q(x, v) = v (v - h w^2 x) + w^2 x^2 = v v+ + w^2 x^2 and, using x = x+ - h v+,
 * Q(x+, v+) = v+^2 + w^2 x+ (x+ - h v+) = v+^2 + w^2 x+ x, so
 *   Q(x+, v+) - Q(x, v) = v+ (v+ - v) + w^2 x (x+ - x) = -h w^2 x v+ + h w^2 x v+ = 0:
 * E_h = Q/2 = 1/2 (v^2 + w^2 x^2) - 1/2 h w^2 x v is conserved exactly (in exact
 * arithmetic).  In floating point each step commits a few roundings of relative size
 * u = 2^-53 on quantities of the size of E_h (|h w| < 2 keeps Q positive definite and
 * comparable to E), so after N steps |E_h,N / E_h,0 - 1| <= 8 N u is a safe bound.
 * The negative control is explicit Euler, for which E_h is not invariant. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "mb_mpfr_extra.h"
#include "test_helpers.h"

static double modified_energy(const mb_nodes *s, double w2, double h)
{
    double x = s->x[0], v = s->v[0];
    return 0.5 * (v * v + w2 * x * x) - 0.5 * h * w2 * x * v;
}

/* Seed 004, two-particle spring, reference values: v_i+ from v_i, x+ = x + h v+. */
static void pair_reference(const double *x, const double *v, double m0, double m1, double k,
                           double h, double *xr, double *vr)
{
    for (int a = 0; a < 3; a++) {
        double f0 = k * (x[3 + a] - x[a]);
        vr[a] = v[a] + h / m0 * f0;
        vr[3 + a] = v[3 + a] + h / m1 * (-f0);
        xr[a] = x[a] + h * vr[a];
        xr[3 + a] = x[3 + a] + h * vr[3 + a];
    }
}

/* The seed's typo, kept as a negative control: v1+ starts from v0. */
static void pair_typo_v1_from_v0(const double *x, const double *v, double m0, double m1,
                                 double k, double h, double *xr, double *vr)
{
    for (int a = 0; a < 3; a++) {
        double f0 = k * (x[3 + a] - x[a]);
        vr[a] = v[a] + h / m0 * f0;
        vr[3 + a] = v[a] + h / m1 * (-f0);
        xr[a] = x[a] + h * vr[a];
        xr[3 + a] = x[3 + a] + h * vr[3 + a];
    }
}

/* The check: every component within 4 ulp-scale of the reference (a handful of
 * correctly rounded operations per component; 8 u relative with an absolute floor
 * from the largest term, 8 u max|.|). */
static int pair_matches(const double *xa, const double *va, const double *xb, const double *vb)
{
    for (int k = 0; k < 6; k++) {
        double sx = 8 * DBL_EPSILON / 2 * (fabs(xb[k]) + 1.0), sv = 8 * DBL_EPSILON / 2 * (fabs(vb[k]) + 1.0);
        if (fabs(xa[k] - xb[k]) > sx || fabs(va[k] - vb[k]) > sv)
            return 0;
    }
    return 1;
}

Test(symplectic_euler, one_step_two_particle_spring_seed_004)
{
    const double m0 = 1.37, m1 = 0.583, k = 41.9, h = 0.0127;
    mb_system *sys = th_problem("spring-pair", (const char *const[]){ "m0=1.37", "m1=0.583",
        "k=41.9", "d=0.413", "u0=0.217", "u1=-0.771", NULL });
    /* give the pair a transverse velocity too, so all three axes are exercised */
    sys->nodes->v[4] = 0.339;
    double x[6], v[6], xr[6], vr[6], xt[6], vt[6];
    memcpy(x, sys->nodes->x, sizeof x);
    memcpy(v, sys->nodes->v, sizeof v);
    mb_stepper *st = mb_stepper_alloc("symplectic-euler", sys);
    cr_assert_not_null(st);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    pair_reference(x, v, m0, m1, k, h, xr, vr);
    cr_expect(pair_matches(sys->nodes->x, sys->nodes->v, xr, vr),
              "symplectic-euler does not match seed 004's two-particle update");
    /* negative control: the seed's typo must be caught by the same check */
    pair_typo_v1_from_v0(x, v, m0, m1, k, h, xt, vt);
    cr_expect(!pair_matches(xt, vt, xr, vr), "the v1-from-v0 typo was not detected");
    cr_expect_eq(sys->t, h);
    mb_stepper_free(st);
    mb_system_free(sys);
}

static double modified_energy_drift(const char *scheme, int N, double h, double w2)
{
    mb_system *sys = th_problem("harmonic", (const char *const[]){ "mass=2.385", "k=7.31",
        "x0=0.413", "v0=-1.27", NULL });
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    double e0 = modified_energy(sys->nodes, w2, h);
    for (int n = 0; n < N; n++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    double drift = fabs(modified_energy(sys->nodes, w2, h) / e0 - 1.0);
    mb_stepper_free(st);
    mb_system_free(sys);
    return drift;
}

Test(symplectic_euler, conserves_modified_energy)
{
    const double w2 = 7.31 / 2.385, h = 0.0731;   /* h w = 0.128 */
    const int N = 5000;                           /* ~100 periods */
    double bound = 8.0 * N * DBL_EPSILON / 2;
    double drift = modified_energy_drift("symplectic-euler", N, h, w2);
    cr_expect(drift <= bound, "E_h drift %g > %g", drift, bound);
    /* negative control: explicit Euler multiplies E by (1 + h^2 w^2) per step */
    double drift_x = modified_energy_drift("explicit-euler", N, h, w2);
    cr_expect(drift_x > 1e3 * bound, "explicit Euler E_h drift %g not flagged", drift_x);
}

Test(symplectic_euler, mpfr53_twin_is_bit_identical)
{
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=7", "D=0.031", NULL });
    mb_nodes_free(th_expect_twin53_identical(sys, "symplectic-euler", "symplectic-euler",
                                             1.0 / 997, 300));
}

Test(symplectic_euler, nan_is_diverged_and_state_untouched)
{
    double x[3] = { 1e300, 0, 0 }, v[3] = { 1e300, 0, 0 };
    mb_system *sys = th_particle(1e-300, x, v, 0.0, 0.0, (const double[]){ 0, -9.81, 0 });
    mb_stepper *st = mb_stepper_alloc("symplectic-euler", sys);
    mb_nodes *before = mb_nodes_alloc(1, 53);
    mb_nodes_copy(before, sys->nodes);
    sys->nodes->v[0] = 1e308;
    before->v[0] = 1e308;
    int rc = mb_stepper_step(st, sys, 1e10);
    cr_expect_eq(rc, MB_EDIVERGED, "got %d: %s", rc, mb_last_error());
    cr_expect(th_same_state(before, sys->nodes), "state changed by a failed step");
    cr_expect_eq(sys->t, 0.0);
    mb_nodes_free(before);
    mb_stepper_free(st);
    mb_system_free(sys);
}
