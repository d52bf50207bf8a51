/* test_cell.c -- the uniformly deforming periodic cell (mb_cell.h) and leap-frog in it
 * (seed 002, DESIGN 4.3), against closed forms and exact discrete solutions derived by
 * hand.  Discrete solutions used below (constant L, u = 2^-53):
 *   simple shear L = g e_x e_y^T is nilpotent (L^2 = 0), so (1 - Lh/2)^-1 (1 + Lh/2) =
 *     (1 + Lh/2)^2 = 1 + Lh = exp(Lh): H_n = (1 + L t) H0 = exp(Lt) H0 exactly, and
 *     T_n = (1 + Lh)^n = 1 + n L h exactly; leap-frog moves particles with v = L x0
 *     constant, x_n = x0 + t L x0 = exp(Lt) x0: only round-off remains.
 *   rigid rotation L x = W n x x: the Cayley transform (1 - Lh/2)^-1 (1 + Lh/2) is the
 *     rotation by theta = 2 atan(W h/2) about n (orthogonal), so H_n = R(n theta) H0 and
 *     the phase error against exp(Lt) is t W - n theta = t W^3 h^2/12 + O(h^4): order 2.
 *     1 + L h is sqrt(1 + W^2 h^2) times the rotation by atan(W h) in the plane normal
 *     to n and 1 along n, so T_n = n n^T + (1 + W^2 h^2)^(n/2) R_perp(n atan(W h)):
 *     order 1 against exp(Lt).
 *     Leap-frog with on-step v0 = L x0 (first-step adjustment): v(h/2) = C(h/2) v0,
 *     v(t+h/2) = C(h) v(t-h/2), so x_n = x0 + h sum_k R(k theta) R(theta') v0 with
 *     theta' = 2 atan(W h/4).  Against exp(Lt) x0 the error is at most
 *     |x_perp| (W h)^2 (W t/12 + 1/4) + O(h^3) (phase term, plus the bounded term
 *     (C^n - 1) (Lh/2)^2/2 x0 of the first half step).
 * Round-off: each step rounds O(10) times per component, so after n steps the error is
 * below ~ 10 n u max|x|; tolerances take 64 n u max|x| (a factor 6 of margin). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "array_scan.h"
#include "lf_run.h"
#include "mb_cell.h"
#include "mb_closed.h"
#include "mb_mpfr_extra.h"

static const double U = DBL_EPSILON / 2;
static const double AXIS[3] = { 0.3, -0.5, 0.81 };   /* affine-flow default axis */

/* ---- independent helpers (long double where sums are long) ---- */

static void unit_axis(double n[3])
{
    double r = sqrt(AXIS[0] * AXIS[0] + AXIS[1] * AXIS[1] + AXIS[2] * AXIS[2]);
    for (int k = 0; k < 3; k++)
        n[k] = AXIS[k] / r;
}

/* L with L x = w x x */
static void rot_grad(const double w[3], double L[9])
{
    double M[9] = { 0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0 };
    memcpy(L, M, sizeof M);
}

/* Rodrigues: r = x cos a + (n x x) sin a + n (n.x)(1 - cos a), unit n */
static void rodrigues(long double r[3], const double n[3], long double a, const long double x[3])
{
    long double c = cosl(a), s = sinl(a), d = n[0] * x[0] + n[1] * x[1] + n[2] * x[2];
    long double nx[3] = { n[1] * x[2] - n[2] * x[1], n[2] * x[0] - n[0] * x[2],
                          n[0] * x[1] - n[1] * x[0] };
    for (int k = 0; k < 3; k++)
        r[k] = x[k] * c + nx[k] * s + n[k] * d * (1 - c);
}

static double frob_diff(const double *A, const double *B, int n)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        s += (A[k] - B[k]) * (A[k] - B[k]);
    return sqrt(s);
}

/* inverse by cofactors (independent of the LU path under test) */
static void inv3(const double H[9], double Hi[9])
{
    double det = H[0] * (H[4] * H[8] - H[5] * H[7]) - H[1] * (H[3] * H[8] - H[5] * H[6])
               + H[2] * (H[3] * H[7] - H[4] * H[6]);
    Hi[0] = (H[4] * H[8] - H[5] * H[7]) / det;
    Hi[1] = (H[2] * H[7] - H[1] * H[8]) / det;
    Hi[2] = (H[1] * H[5] - H[2] * H[4]) / det;
    Hi[3] = (H[5] * H[6] - H[3] * H[8]) / det;
    Hi[4] = (H[0] * H[8] - H[2] * H[6]) / det;
    Hi[5] = (H[2] * H[3] - H[0] * H[5]) / det;
    Hi[6] = (H[3] * H[7] - H[4] * H[6]) / det;
    Hi[7] = (H[1] * H[6] - H[0] * H[7]) / det;
    Hi[8] = (H[0] * H[4] - H[1] * H[3]) / det;
}

static const double H0[9] = { 1.93, 0.2509, 0.0, 0.0, 1.93, -0.1544, 0.0, 0.0, 1.93 };

/* Step a cell n times with constant L (the scheme's cell update: L- = L+ = L). */
static mb_cell *cell_run(const double L[9], double h, long n)
{
    mb_cell *c = mb_cell_new(H0, L);
    cr_assert_not_null(c, "%s", mb_last_error());
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_cell_advance(c, L, L, h), MB_SUCCESS, "%s", mb_last_error());
    return c;
}

/* ---- H update ---- */

Test(cell, shear_H_and_T_are_exact)
{
    const double g = 0.7311, h = 0.0123;
    const long n = 333;
    double L[9] = { 0, g, 0, 0, 0, 0, 0, 0, 0 }, E[9];
    mb_cell *c = cell_run(L, h, n);
    /* exp(L t) H0 = (1 + L t) H0: only row 0 changes, by g t H0[row 1] */
    double t = n * h;
    memcpy(E, H0, sizeof E);
    for (int col = 0; col < 3; col++)
        E[col] += g * t * H0[3 + col];
    double tol = 64 * n * U * mb_max_abs(E, 9);
    cr_expect_leq(frob_diff(c->H, E, 9), tol, "H: %g > %g", frob_diff(c->H, E, 9), tol);
    double ET[9] = { 1, g * t, 0, 0, 1, 0, 0, 0, 1 };
    cr_expect_leq(frob_diff(c->T, ET, 9), 64 * n * U * (1 + g * t), "T: %g",
                  frob_diff(c->T, ET, 9));
    cr_expect_float_eq(mb_cell_volume(c), 1.93 * 1.93 * 1.93, 64 * n * U * 8, "volume");
    mb_cell_free(c);
}

/* H_n = R(n theta) H0 with theta = 2 atan(W h/2); orthogonality; order 2 against exp. */
Test(cell, rotation_H_is_cayley_order_2)
{
    double nax[3], w[3], L[9];
    const double W = 1.37, t = 2.05;
    unit_axis(nax);
    for (int k = 0; k < 3; k++)
        w[k] = W * nax[k];
    rot_grad(w, L);
    double hs[4] = { 0.02, 0.01, 0.005, 0.0025 }, err[4], err_euler[4];
    for (int m = 0; m < 4; m++) {
        long n = lround(t / hs[m]);
        mb_cell *c = cell_run(L, hs[m], n);
        double theta = 2 * atan(W * hs[m] / 2), D[9], E[9], Hx[9];
        for (int col = 0; col < 3; col++) {
            long double x[3] = { H0[col], H0[3 + col], H0[6 + col] }, r[3], re[3];
            rodrigues(r, nax, (long double)n * theta, x);
            rodrigues(re, nax, (long double)W * n * hs[m], x);
            for (int k = 0; k < 3; k++) {
                D[3 * k + col] = (double)r[k];
                E[3 * k + col] = (double)re[k];
            }
        }
        double tol = 64 * n * U * mb_max_abs(D, 9);
        cr_expect_leq(frob_diff(c->H, D, 9), tol, "h %g: H vs R(n theta) H0: %g > %g", hs[m],
                      frob_diff(c->H, D, 9), tol);
        /* orthogonal: H^T H = H0^T H0 */
        double G[9], G0[9];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                G[3 * i + j] = G0[3 * i + j] = 0;
                for (int k = 0; k < 3; k++) {
                    G[3 * i + j] += c->H[3 * k + i] * c->H[3 * k + j];
                    G0[3 * i + j] += H0[3 * k + i] * H0[3 * k + j];
                }
            }
        cr_expect_leq(frob_diff(G, G0, 9), 64 * n * U * 16, "H^T H drift %g", frob_diff(G, G0, 9));
        err[m] = frob_diff(c->H, E, 9);
        /* leading term: |phase| |P_perp H0|_F, phase = t W^3 h^2 / 12 */
        double perp = 0;
        for (int col = 0; col < 3; col++) {
            double x[3] = { H0[col], H0[3 + col], H0[6 + col] };
            double d = x[0] * nax[0] + x[1] * nax[1] + x[2] * nax[2];
            perp += x[0] * x[0] + x[1] * x[1] + x[2] * x[2] - d * d;
        }
        double pred = n * hs[m] * W * W * W * hs[m] * hs[m] / 12 * sqrt(perp);
        cr_expect(fabs(err[m] / pred - 1) < 0.01, "h %g: error %g, predicted %g", hs[m], err[m], pred);
        /* negative control: explicit Euler H += L H h (first order) */
        memcpy(Hx, H0, sizeof Hx);
        for (long k = 0; k < n; k++) {
            double LH[9];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    LH[3 * i + j] = L[3 * i] * Hx[j] + L[3 * i + 1] * Hx[3 + j] + L[3 * i + 2] * Hx[6 + j];
            for (int q = 0; q < 9; q++)
                Hx[q] += LH[q] * hs[m];
        }
        err_euler[m] = frob_diff(Hx, E, 9);
        mb_cell_free(c);
    }
    double p = lf_order(hs, err, 4), pe = lf_order(hs, err_euler, 4);
    cr_log_info("H update: order %.4f (errors %.3g .. %.3g); Euler control %.4f", p, err[0], err[3], pe);
    cr_expect(fabs(p - 2) < 0.05, "order %.4f", p);
    cr_expect(fabs(pe - 2) > 0.5, "control not flagged: order %.4f", pe);
}

/* T(t+h) = T + L T h, T(0) = 1: T_n = n n^T + (1 + W^2 h^2)^(n/2) R_perp(n atan(W h)). */
Test(cell, rotation_T_is_euler_order_1)
{
    double nax[3], w[3], L[9];
    const double W = 1.37, t = 2.05;
    unit_axis(nax);
    for (int k = 0; k < 3; k++)
        w[k] = W * nax[k];
    rot_grad(w, L);
    double hs[4] = { 0.02, 0.01, 0.005, 0.0025 }, err[4];
    for (int m = 0; m < 4; m++) {
        long n = lround(t / hs[m]);
        mb_cell *c = cell_run(L, hs[m], n);
        long double rho = powl(1.0L + (long double)W * W * hs[m] * hs[m], 0.5L * n);
        double D[9], E[9];
        for (int col = 0; col < 3; col++) {
            long double e[3] = { col == 0, col == 1, col == 2 }, r[3], re[3];
            long double d = nax[col];                      /* n . e_col */
            long double perp[3] = { e[0] - d * nax[0], e[1] - d * nax[1], e[2] - d * nax[2] };
            rodrigues(r, nax, (long double)n * atanl((long double)W * hs[m]), perp);
            rodrigues(re, nax, (long double)W * n * hs[m], e);
            for (int k = 0; k < 3; k++) {
                D[3 * k + col] = (double)(d * nax[k] + rho * r[k]);
                E[3 * k + col] = (double)re[k];
            }
        }
        cr_expect_leq(frob_diff(c->T, D, 9), 64 * n * U * mb_max_abs(D, 9), "h %g: T %g", hs[m],
                      frob_diff(c->T, D, 9));
        err[m] = frob_diff(c->T, E, 9);
        mb_cell_free(c);
    }
    double p = lf_order(hs, err, 4);
    cr_log_info("T update: order %.4f against exp(Lt)", p);
    cr_expect(fabs(p - 1) < 0.05, "order %.4f", p);
}

/* Diagonal L: T stays diagonal with T_kk = (1 + L_kk h)^n, a stretch (-> exp(L_kk t));
 * the seed calls the diagonal the Hencky strain, which is ln T_kk = L_kk t + O(h): the
 * diagonal itself differs from it by exp(e) - 1 - e ~ e^2/2 (flagged below). */
Test(cell, diagonal_T_is_a_stretch_not_hencky_strain)
{
    const double h = 0.004;
    const long n = 250;
    double L[9] = { 0.31, 0, 0, 0, -0.17, 0, 0, 0, 0.05 };
    mb_cell *c = cell_run(L, h, n);
    for (int k = 0; k < 3; k++) {
        double d = L[4 * k], want = (double)powl(1.0L + (long double)d * h, (long double)n);
        cr_expect_float_eq(c->T[4 * k], want, 64 * n * U * want, "T_%d%d = %.17g, want %.17g",
                           k, k, c->T[4 * k], want);
        double e = d * n * h;                           /* Hencky strain */
        cr_expect_float_eq(log(c->T[4 * k]), e, 0.6 * d * d * n * h * h + 64 * n * U,
                           "ln T_%d%d vs Hencky", k, k);
        if (k == 0)
            cr_expect_gt(fabs(c->T[0] - e), 0.4 * e * e, "T_00 taken as Hencky not flagged");
    }
    for (int k = 0; k < 9; k++)
        if (k % 4)
            cr_expect_eq(c->T[k], 0.0);
    mb_cell_free(c);
}

/* The T update takes L(t - h/2), H takes L(t + h/2): in the step that starts on the
 * switch, H already moves and T does not. */
Test(cell, T_lags_by_half_a_step_at_a_switch)
{
    lf_run *r = lf_run_new("affine-flow[flow=shear,t_switch=0.5,n=1]", "leapfrog");
    lf_run_steps(r, 50, 0.01);                 /* t = 0.5 (up to rounding of the sum) */
    const mb_cell *c = r->sys->cell;
    double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    cr_expect_eq(frob_diff(c->T, I, 9), 0.0, "T moved before the switch");
    cr_expect_eq(frob_diff(c->H, H0, 9), 0.0, "H moved before the switch");
    lf_run_steps(r, 1, 0.01);
    cr_expect_eq(frob_diff(c->T, I, 9), 0.0, "T used L(t + h/2) in the switching step");
    cr_expect_gt(frob_diff(c->H, H0, 9), 0.01 * 0.7311, "H did not use L(t + h/2)");
    lf_run_steps(r, 1, 0.01);
    cr_expect_float_eq(c->T[1], 0.7311 * 0.01, 4 * U, "T_xy after the lagged step: %g", c->T[1]);
    lf_run_free(r);
}

/* ---- wrapping ---- */

/* xw is a valid image of x: H^-1 xw in [0,1)^3 and H^-1 (x - xw) integer */
static int valid_image(const double H[9], const double x[3], const double xw[3])
{
    double Hi[9], s[3], d[3];
    inv3(H, Hi);
    for (int r = 0; r < 3; r++) {
        s[r] = Hi[3 * r] * xw[0] + Hi[3 * r + 1] * xw[1] + Hi[3 * r + 2] * xw[2];
        d[r] = Hi[3 * r] * (x[0] - xw[0]) + Hi[3 * r + 1] * (x[1] - xw[1]) + Hi[3 * r + 2] * (x[2] - xw[2]);
    }
    for (int k = 0; k < 3; k++)
        if (!(s[k] >= -1e-12 && s[k] < 1 + 1e-12) || fabs(d[k] - nearbyint(d[k])) > 1e-12)
            return 0;
    return 1;
}

Test(cell, wrap_into_sheared_cell)
{
    double L[9] = { 0.1, 0.7, 0, -0.2, 0, 0.3, 0, 0.05, -0.1 };
    mb_cell *c = mb_cell_new(H0, L);
    const double s0[3] = { 0.25, 0.6, 0.9 };
    const long n0[3] = { 2, -3, 1 };
    double x[3], s[3], xw[3];
    long n[3];
    for (int r = 0; r < 3; r++)
        x[r] = H0[3 * r] * (s0[0] + n0[0]) + H0[3 * r + 1] * (s0[1] + n0[1])
               + H0[3 * r + 2] * (s0[2] + n0[2]);
    cr_assert_eq(mb_cell_wrap(c, x, s, xw, n), MB_SUCCESS);
    for (int k = 0; k < 3; k++) {
        cr_expect_float_eq(s[k], s0[k], 1e-14, "s[%d] = %.17g", k, s[k]);
        cr_expect_eq(n[k], n0[k], "n[%d] = %ld", k, n[k]);
    }
    cr_expect(valid_image(H0, x, xw));
    /* image velocity: v - L H n; the fluctuation velocity v - L x is the same at both */
    double v[3] = { 0.4, -1.1, 0.27 }, vw[3], vf[3], vfw[3];
    mb_cell_wrap_velocity(c, L, n, v, vw);
    mb_cell_fluctuation(L, x, v, vf);
    mb_cell_fluctuation(L, xw, vw, vfw);
    for (int k = 0; k < 3; k++)
        cr_expect_float_eq(vf[k], vfw[k], 1e-13, "fluctuation %d: %g vs %g", k, vf[k], vfw[k]);
    /* points a hair below a cell face land in [0, 1), never on 1 */
    double tiny[3] = { -1e-18, -1e-18, -1e-18 };
    cr_assert_eq(mb_cell_wrap(c, tiny, s, xw, n), MB_SUCCESS);
    for (int k = 0; k < 3; k++)
        cr_expect(s[k] >= 0 && s[k] < 1, "s[%d] = %.17g", k, s[k]);
    /* negative control: per-axis modulo by the cell's diagonal ignores the shear */
    double naive[3];
    for (int k = 0; k < 3; k++)
        naive[k] = x[k] - H0[4 * k] * floor(x[k] / H0[4 * k]);
    cr_expect(!valid_image(H0, x, naive), "per-axis modulo not flagged");
    mb_cell_free(c);
}

/* ---- spin sign ---- */

/* The medium spin of v = w x x is w itself (1/2 curl of a rigid rotation). */
static int spin_is_rotation_rate(const double got[3], const double w[3])
{
    for (int k = 0; k < 3; k++)
        if (fabs(got[k] - w[k]) > 4 * U * fabs(w[k]))
            return 0;
    return 1;
}

Test(cell, spin_of_rigid_rotation_is_plus_omega)
{
    const double w[3] = { 0.37, -1.213, 0.829 };
    double L[9], got[3], seed[3];
    rot_grad(w, L);
    mb_cell_spin(L, got);
    cr_expect(spin_is_rotation_rate(got, w), "spin (%g %g %g)", got[0], got[1], got[2]);
    /* negative control: the seed's 1/2 eps_ijk W_ij gives -w */
    mb_cell_spin_seed(L, seed);
    cr_expect(!spin_is_rotation_rate(seed, w), "seed sign not flagged");
    for (int k = 0; k < 3; k++)
        cr_expect_float_eq(seed[k], -w[k], 4 * U * fabs(w[k]), "seed gives -w: %g", seed[k]);
    /* symmetric part contributes nothing */
    double S[9] = { 0.3, 0.2, -0.1, 0.2, -0.5, 0.7, -0.1, 0.7, 0.2 };
    for (int k = 0; k < 9; k++)
        S[k] += L[k];
    mb_cell_spin(S, got);
    cr_expect(spin_is_rotation_rate(got, w));
}

/* A particle at rest, flow switched on to a rigid rotation: the spin correction must make
 * it co-rotate with the medium, w = +W n; with the seed's sign it spins at -W n. */
static void spin_after_switch(const char *scheme, double out[3])
{
    lf_run *r = lf_run_new("affine-flow[flow=rotation,rate=1.37,t_switch=0.25,n=1]", scheme);
    lf_run_steps(r, 50, 0.01);
    const mb_nodes *on = lf_run_sync(r);
    memcpy(out, on->omega, 3 * sizeof(double));
    lf_run_free(r);
}

Test(cell, leapfrog_spin_correction_sign)
{
    double nax[3], w[3], got[3], bad[3];
    unit_axis(nax);
    for (int k = 0; k < 3; k++)
        w[k] = 1.37 * nax[k];
    spin_after_switch("leapfrog", got);
    cr_expect(spin_is_rotation_rate(got, w), "leapfrog spin (%g %g %g), medium (%g %g %g)",
              got[0], got[1], got[2], w[0], w[1], w[2]);
    spin_after_switch("leapfrog-defect[defect=seed-spin-sign]", bad);
    cr_expect(!spin_is_rotation_rate(bad, w), "seed-sign scheme not flagged");
    cr_log_info("spin after switch: leapfrog (%.6g %.6g %.6g), seed sign (%.6g %.6g %.6g)",
                got[0], got[1], got[2], bad[0], bad[1], bad[2]);
}

/* ---- one step of the seed's velocity update ---- */

/* det of a long double 3x3 (row-major) */
static long double det3l(const long double A[9])
{
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6])
         + A[2] * (A[3] * A[7] - A[4] * A[6]);
}

/* One step across a switch L0 -> L1 (t_switch = 0, so L- = L(-h/2) = L0, L+ = L(h/2) = L1)
 * with gravity and v(-h/2) given (adj_vel0=off).  The seed's equation
 *   (1 - (L+ + L-) h/4) v+ = (L+ - L-) x + (1 + (L+ + L-) h/4) v- + a h
 * is solved here by Cramer's rule in long double (not the LU path of the code); the spin
 * must gain omega_L(L1) - omega_L(L0) = w1 - w0 (rigid rotations w0, w1).  Control: the
 * update without the LmL term (dropping dL/dt x) leaves a residual of order |LmL x|. */
Test(cell, seed_velocity_update_across_a_switch)
{
    const double h = 0.037, w0[3] = { 0.2, -0.4, 0.9 }, w1[3] = { -0.7, 0.35, 0.15 };
    double L0[9], L1[9], R0[9], R1[9];
    rot_grad(w0, R0);
    rot_grad(w1, R1);
    const double S[9] = { 0.3, 0.1, 0.0, 0.1, -0.2, 0.25, 0.0, 0.25, -0.1 }; /* stretch part */
    for (int k = 0; k < 9; k++) {
        L0[k] = R0[k] + S[k];
        L1[k] = R1[k] - 0.5 * S[k];
    }
    mb_system *sys = mb_system_alloc(1);
    sys->cell = mb_cell_new(H0, L0);
    cr_assert_eq(mb_cell_set_switch(sys->cell, 0.0, L1), MB_SUCCESS);
    double g[3] = { 0.3, -0.7, -9.81 }, I[3] = { 0.013, 0.013, 0.013 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    mb_nodes *s = sys->nodes;
    mb_nodes_set_mass(s, 0, 1.3);
    mb_nodes_set_inertia(s, 0, I);
    const double x[3] = { 0.71, -0.33, 1.18 }, vm[3] = { 0.41, 0.27, -0.62 },
                 om[3] = { 0.05, 0.11, -0.21 };
    memcpy(s->x, x, sizeof x);
    memcpy(s->v, vm, sizeof vm);
    memcpy(s->omega, om, sizeof om);
    mb_stepper *st = mb_stepper_alloc("leapfrog[adj_vel0=off]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    long double A[9], rhs[3], rhs_nolml[3];
    for (int r = 0; r < 3; r++) {
        rhs[r] = (long double)g[r] * h;
        for (int c = 0; c < 3; c++) {
            long double q = ((long double)L1[3 * r + c] + L0[3 * r + c]) * h / 4;
            A[3 * r + c] = (r == c) - q;
            rhs[r] += ((r == c) + q) * vm[c];
        }
        rhs_nolml[r] = rhs[r];
        for (int c = 0; c < 3; c++)
            rhs[r] += ((long double)L1[3 * r + c] - L0[3 * r + c]) * x[c];
    }
    long double D = det3l(A), want[3], nolml[3];
    for (int c = 0; c < 3; c++) {
        long double Ac[9], An[9];
        memcpy(Ac, A, sizeof Ac);
        memcpy(An, A, sizeof An);
        for (int r = 0; r < 3; r++) {
            Ac[3 * r + c] = rhs[r];
            An[3 * r + c] = rhs_nolml[r];
        }
        want[c] = det3l(Ac) / D;
        nolml[c] = det3l(An) / D;
    }
    /* a handful of roundings on numbers of size |v| ~ 1: 64 u */
    double dv = 0, dctl = 0;
    for (int k = 0; k < 3; k++) {
        dv = fmax(dv, fabs(s->v[k] - (double)want[k]));
        dctl = fmax(dctl, fabs((double)(nolml[k] - want[k])));
        cr_expect_float_eq(s->x[k], x[k] + h * (double)want[k], 64 * U * 2, "x[%d]", k);
        cr_expect_float_eq(s->omega[k], om[k] + (w1[k] - w0[k]), 64 * U, "omega[%d] = %.17g",
                           k, s->omega[k]);
    }
    cr_expect_leq(dv, 64 * U, "v+ off the seed equation by %g", dv);
    cr_expect_gt(dctl, 1e3 * 64 * U, "update without LmL not flagged (%g)", dctl);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* ---- affine-flow trajectories ---- */

Test(cell, shear_flow_exact_to_roundoff)
{
    lf_run *r = lf_run_new("affine-flow[flow=shear]", "leapfrog");
    const long n = 400;
    const double h = 0.0103;
    lf_run_steps(r, n, h);
    const mb_nodes *on = lf_run_sync(r), *ex = lf_run_exact(r, n * h);
    double X = mb_max_abs(ex->x, 3 * on->n);
    for (size_t i = 0; i < on->n; i++) {
        double vf[3], L[9] = { 0, 0.7311, 0, 0, 0, 0, 0, 0, 0 };
        cr_expect_leq(lf_dist3(&on->x[3 * i], &ex->x[3 * i]), 64 * n * U * X, "node %zu x", i);
        cr_expect_leq(lf_dist3(&on->v[3 * i], &ex->v[3 * i]), 64 * U * X, "node %zu v", i);
        mb_cell_fluctuation(L, &on->x[3 * i], &on->v[3 * i], vf);
        cr_expect_leq(mb_v3_norm(vf), 64 * U * X, "node %zu fluctuation %g", i, mb_v3_norm(vf));
    }
    lf_run_free(r);
}

/* Rotation: exact discrete solution (to round-off), bound against exp(Lt) x0, order 2 of
 * positions and of the fluctuation velocity; cell=off (plain leap-frog) is flagged. */
Test(cell, rotation_flow_discrete_solution_and_order)
{
    const double W = 0.7311, t = 2.05;
    double nax[3];
    unit_axis(nax);
    double hs[4] = { 0.02, 0.01, 0.005, 0.0025 }, err[4], fl[4];
    for (int m = 0; m < 4; m++) {
        const double h = hs[m];
        const long n = lround(t / h);
        lf_run *r = lf_run_new("affine-flow[flow=rotation]", "leapfrog");
        mb_nodes *x0 = mb_nodes_alloc(r->sys->nodes->n, 53);
        mb_nodes_copy(x0, r->sys->nodes);
        lf_run_steps(r, n, h);
        const mb_nodes *on = lf_run_sync(r);
        double tn = r->sys->t;
        const mb_nodes *ex = lf_run_exact(r, tn);
        long double th = 2 * atanl((long double)W * h / 2), th1 = 2 * atanl((long double)W * h / 4);
        err[m] = fl[m] = 0;
        double xperp = 0;
        for (size_t i = 0; i < on->n; i++) {
            const double *p = &x0->x[3 * i], *v0 = &x0->v[3 * i];
            long double v12[3], vv[3], x[3] = { p[0], p[1], p[2] }, vk[3] = { v0[0], v0[1], v0[2] };
            rodrigues(v12, nax, th1, vk);
            for (long k = 0; k < n; k++) {
                rodrigues(vv, nax, k * th, v12);
                for (int j = 0; j < 3; j++)
                    x[j] += h * vv[j];
            }
            double xd[3] = { (double)x[0], (double)x[1], (double)x[2] };
            double X = mb_v3_norm(xd);
            cr_expect_leq(lf_dist3(&r->sys->nodes->x[3 * i], xd), 64 * n * U * X,
                          "h %g node %zu: %g from the discrete solution", h, i,
                          lf_dist3(&r->sys->nodes->x[3 * i], xd));
            /* on-step velocity v(t_n) = C(h/2) v(t_n - h/2) = R(2 theta' + (n-1) theta) v0 */
            long double vs[3];
            rodrigues(vs, nax, 2 * th1 + (n - 1) * th, vk);
            double vsd[3] = { (double)vs[0], (double)vs[1], (double)vs[2] };
            cr_expect_leq(lf_dist3(&on->v[3 * i], vsd), 64 * n * U * mb_v3_norm(vsd) + 1e-300,
                          "h %g node %zu: on-step velocity", h, i);
            err[m] = fmax(err[m], lf_dist3(&on->x[3 * i], &ex->x[3 * i]));
            double d = p[0] * nax[0] + p[1] * nax[1] + p[2] * nax[2];
            xperp = fmax(xperp, sqrt(fmax(0, mb_v3_dot(p, p) - d * d)));
            double L[9], w[3] = { W * nax[0], W * nax[1], W * nax[2] }, vf[3];
            rot_grad(w, L);
            mb_cell_fluctuation(L, &on->x[3 * i], &on->v[3 * i], vf);
            fl[m] = fmax(fl[m], mb_v3_norm(vf));
        }
        double bound = 1.1 * xperp * (W * h) * (W * h) * (W * tn / 12 + 0.25);
        cr_expect_leq(err[m], bound, "h %g: error %g above the bound %g", h, err[m], bound);
        mb_nodes_free(x0);
        lf_run_free(r);
    }
    double p = lf_order(hs, err, 4), pf = lf_order(hs, fl, 4);
    cr_log_info("rotation flow: position order %.4f (error %.3g at h = 0.0025), fluctuation "
                "order %.4f (%.3g)", p, err[3], pf, fl[3]);
    cr_expect(fabs(p - 2) < 0.05, "position order %.4f", p);
    cr_expect(fabs(pf - 2) < 0.05, "fluctuation order %.4f", pf);
    /* negative control: without the cell the particles fly off on tangents */
    lf_run *r = lf_run_new("affine-flow[flow=rotation]", "leapfrog[cell=off]");
    lf_run_steps(r, lround(t / 0.0025), 0.0025);
    const mb_nodes *on = lf_run_sync(r), *ex = lf_run_exact(r, r->sys->t);
    double e = 0;
    for (size_t i = 0; i < on->n; i++)
        e = fmax(e, lf_dist3(&on->x[3 * i], &ex->x[3 * i]));
    cr_expect_gt(e, 1e3 * err[3], "cell=off not flagged: %g", e);
    lf_run_free(r);
}

/* ---- MPFR twin ---- */

Test(cell, mpfr_twin_53_bits_bit_identical)
{
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    const char *scheme = "leapfrog";
    lf_run *r = lf_run_new("affine-flow[flow=mixed,t_switch=0.13]", scheme);
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(r->sys, 53);
    mb_stepper *st2 = mb_stepper_alloc_twin(scheme, tw);
    cr_assert_not_null(st2, "%s", mb_last_error());
    for (long k = 0; k < 700; k++) {
        cr_assert_eq(mb_stepper_step(r->st, r->sys, 0.0037), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step_twin(st2, tw, 0.0037), MB_SUCCESS);
    }
    mb_nodes *back = mb_nodes_alloc(r->sys->nodes->n, 53), *on2 = mb_nodes_alloc(r->sys->nodes->n, 53);
    mb_nodes_mpfr *onm = mb_nodes_mpfr_alloc(r->sys->nodes->n, 53);
    mb_nodes_mpfr_get_double(back, tw->nodes);
    const mb_nodes *d = r->sys->nodes;
    size_t n = d->n;
    cr_expect(memcmp(d->x, back->x, 3 * n * sizeof(double)) == 0, "positions differ");
    cr_expect(memcmp(d->v, back->v, 3 * n * sizeof(double)) == 0, "velocities differ");
    cr_expect(memcmp(d->omega, back->omega, 3 * n * sizeof(double)) == 0, "spins differ");
    cr_expect(memcmp(d->q, back->q, 4 * n * sizeof(double)) == 0, "orientations differ");
    cr_expect(memcmp(r->sys->cell->H, tw->cell->H, sizeof tw->cell->H) == 0, "cells differ");
    /* synchronized states too */
    const mb_nodes *on = lf_run_sync(r);
    cr_assert_eq(mb_stepper_on_step_twin(st2, tw, onm), MB_SUCCESS);
    mb_nodes_mpfr_get_double(on2, onm);
    cr_expect(memcmp(on->v, on2->v, 3 * n * sizeof(double)) == 0, "on-step velocities differ");
    cr_expect(memcmp(on->omega, on2->omega, 3 * n * sizeof(double)) == 0, "on-step spins differ");
    mb_nodes_mpfr_free(onm);
    mb_nodes_free(on2);
    mb_nodes_free(back);
    mb_stepper_free(st2);
    mb_system_mpfr_free(tw);
    lf_run_free(r);
    mb_mpfr_restore_range(saved);
}

/* ---- bad input ---- */

Test(cell, bad_input_is_reported)
{
    double S[9] = { 1, 2, 3, 2, 4, 6, 0, 0, 1 }, L[9] = { 0 }, C[9];
    cr_expect_null(mb_cell_new(S, L));
    cr_expect(strstr(mb_last_error(), "singular") != NULL, "%s", mb_last_error());
    double Lb[9] = { 2.0 / 0.1, 0, 0, 0, 0, 0, 0, 0, 0 };   /* 1 - L h/2 singular at h = 0.1 */
    cr_expect_eq(mb_cell_cayley(Lb, 0.1, C), MB_ESINGULAR);
    mb_cell *c = mb_cell_new(H0, Lb);
    double Hs[9];
    memcpy(Hs, c->H, sizeof Hs);
    cr_expect_eq(mb_cell_advance(c, Lb, Lb, 0.1), MB_ESINGULAR);
    cr_expect(memcmp(Hs, c->H, sizeof Hs) == 0, "H changed by a failed step");
    mb_cell_free(c);
    /* schemes that ignore the cell are refused, and damping is not supported in it */
    mb_system *sys;
    const mb_problem_type *pt;
    mb_options *par;
    cr_assert_eq(mb_problem_prepare("affine-flow", NULL, &pt, &par), MB_SUCCESS);
    cr_assert_eq(pt->setup(par, &sys), MB_SUCCESS);
    cr_expect_null(mb_stepper_alloc("explicit-euler", sys));
    cr_expect(strstr(mb_last_error(), "deforming cell") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_stepper_alloc("leapfrog[damping=0.1]", sys));
    cr_expect(strstr(mb_last_error(), "damping") != NULL, "%s", mb_last_error());
    mb_system_free(sys);
    mb_options_free(par);
    /* a step whose 1 - (L+ + L-) h/4 is singular fails and leaves the state as it was */
    mb_cell *c2 = mb_cell_new(H0, L);
    cr_expect_eq(mb_cell_set_switch(c2, NAN, L), MB_EDOM);
    mb_cell_free(c2);
    sys = mb_system_alloc(1);
    sys->cell = mb_cell_new(H0, Lb);
    mb_nodes_set_mass(sys->nodes, 0, 2.385);
    sys->nodes->x[0] = 0.3;
    sys->nodes->v[1] = -0.4;
    mb_stepper *st = mb_stepper_alloc("leapfrog[adj_vel0=off]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_expect_eq(mb_stepper_step(st, sys, 0.1), MB_ESINGULAR);
    cr_expect(strstr(mb_last_error(), "singular") != NULL, "%s", mb_last_error());
    cr_expect(sys->nodes->x[0] == 0.3 && sys->nodes->v[1] == -0.4 && sys->t == 0.0);
    cr_expect(memcmp(Hs, sys->cell->H, sizeof Hs) == 0, "H changed by a failed step");
    mb_stepper_free(st);
    mb_system_free(sys);
}
