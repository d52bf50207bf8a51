/* test_consolver.c -- the per-contact solver of the Gauss-Seidel sweep on random
 * positive definite 3x3 blocks W (W = M M^T + 0.1 I, entries of M in [-1, 1]) and free
 * velocities B, for mu in [0.1, 1.2]: the solution must satisfy the contact law read
 * directly, with U = B + W R:
 *   R = 0 and U_n >= 0 (separation), or R_n > 0, U_n = 0 and either U_t = 0 with
 *   |R_t| <= mu R_n (stick) or R_t = -mu R_n U_t/|U_t| (slip).
 * Tolerance 1e-9 on O(1) quantities: the slip direction is found to 1e-15 rad, the stick
 * solve by Cramer's rule with condition numbers up to ~1e3 here.  Both slip paths (fixed
 * point with scan fallback, scan only) are checked.  Negative control: the stick force
 * projected radially onto the cone, exact only for isotropic W, must be rejected. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "mb_consolver.h"
#include "mb_status.h"

static double rnd(double a, double b) { return a + (b - a) * rand() / (double)RAND_MAX; }

static void random_block(double W[9], double B[3], double *mu)
{
    double M[9];
    for (int k = 0; k < 9; k++)
        M[k] = rnd(-1, 1);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            W[3 * r + c] = (r == c) ? 0.1 : 0.0;
            for (int k = 0; k < 3; k++)
                W[3 * r + c] += M[3 * r + k] * M[3 * c + k];
        }
    for (int k = 0; k < 3; k++)
        B[k] = rnd(-1, 1);
    *mu = rnd(0.1, 1.2);
}

/* 0 when (R, U) satisfies the law; otherwise a code for the violated condition */
static int law_violation(const double W[9], const double B[3], double mu, const double R[3], double tol)
{
    double U[3];
    for (int r = 0; r < 3; r++)
        U[r] = B[r] + W[3 * r] * R[0] + W[3 * r + 1] * R[1] + W[3 * r + 2] * R[2];
    double rt = hypot(R[0], R[1]), ut = hypot(U[0], U[1]);
    if (R[2] == 0.0 && rt == 0.0)
        return U[2] >= -tol ? 0 : 1;
    if (!(R[2] > 0.0) || fabs(U[2]) > tol)
        return 2;
    if (rt > mu * R[2] * (1 + tol) + tol)
        return 3;
    if (ut <= tol)
        return 0;
    for (int k = 0; k < 2; k++)
        if (fabs(R[k] + mu * R[2] * U[k] / ut) > tol)
            return 4;
    return 0;
}

/* the wrong solver: stick force projected radially onto the cone */
static void radial(const double W[9], const double B[3], double mu, double R[3])
{
    double c0 = W[4] * W[8] - W[5] * W[7], c1 = W[5] * W[6] - W[3] * W[8], c2 = W[3] * W[7] - W[4] * W[6];
    double det = W[0] * c0 + W[1] * c1 + W[2] * c2;
    double inv[9] = { c0, W[2] * W[7] - W[1] * W[8], W[1] * W[5] - W[2] * W[4],
                      c1, W[0] * W[8] - W[2] * W[6], W[2] * W[3] - W[0] * W[5],
                      c2, W[1] * W[6] - W[0] * W[7], W[0] * W[4] - W[1] * W[3] };
    for (int r = 0; r < 3; r++)
        R[r] = -(inv[3 * r] * B[0] + inv[3 * r + 1] * B[1] + inv[3 * r + 2] * B[2]) / det;
    if (B[2] >= 0.0 || R[2] <= 0.0) {
        R[0] = R[1] = R[2] = 0.0;
        return;
    }
    double t = hypot(R[0], R[1]);
    if (t > mu * R[2]) {
        R[0] *= mu * R[2] / t;
        R[1] *= mu * R[2] / t;
    }
}

Test(consolver, contact_law_on_random_blocks)
{
    srand(7331);
    int counts[2][3] = { { 0 } }, wrong_flagged = 0, wrong_slip = 0;
    for (int trial = 0; trial < 2000; trial++) {
        double W[9], B[3], mu, R[3];
        random_block(W, B, &mu);
        for (int scan = 0; scan < 2; scan++) {
            cr_assert_eq(mb_contact_local_solve(W, B, mu, scan, R), MB_SUCCESS, "trial %d: %s", trial,
                         mb_last_error());
            int v = law_violation(W, B, mu, R, 1e-9);
            cr_assert_eq(v, 0, "trial %d scan %d: condition %d violated (R = %g %g %g)", trial, scan, v,
                         R[0], R[1], R[2]);
            int kind = R[2] == 0.0 ? 0 : hypot(R[0], R[1]) < mu * R[2] * (1 - 1e-12) ? 1 : 2;
            counts[scan][kind]++;
        }
        double Rw[3];
        radial(W, B, mu, Rw);
        if (hypot(Rw[0], Rw[1]) > 0 && Rw[2] > 0 && hypot(Rw[0], Rw[1]) >= mu * Rw[2] * (1 - 1e-12)) {
            wrong_slip++;
            wrong_flagged += law_violation(W, B, mu, Rw, 1e-9) != 0;
        }
    }
    cr_log_info("separation/stick/slip: %d/%d/%d; radial projection flagged in %d of %d slip cases",
                counts[0][0], counts[0][1], counts[0][2], wrong_flagged, wrong_slip);
    cr_assert_gt(counts[0][0], 100);
    cr_assert_gt(counts[0][1], 100);
    cr_assert_gt(counts[0][2], 100);
    cr_assert_geq(wrong_flagged, wrong_slip * 9 / 10, "negative control: the radial projection must fail");
}

/* The projected Alart-Curnier iteration against the case analysis on well-conditioned
 * blocks (W = M M^T + I, |M_ij| <= 0.5: condition number below ~4, so with
 * rho = 1/(max row sum) the iteration contracts by at most ~0.8 per step and its stop at
 * a relative change of 1e-15 leaves an error below ~1e-14 |R|).  Asserted: the law holds
 * to 1e-9 and both solvers agree to 1e-9 (the slip solution is unique here). */
#include "mb_contact_ac.h"

Test(consolver, projected_alart_curnier_agrees_with_the_case_analysis)
{
    srand(4242);
    int used = 0, maxit = 0;
    for (int trial = 0; trial < 1000; trial++) {
        double M[9], W[9], B[3], mu = rnd(0.1, 0.9), Re[3], Ra[3] = { 0, 0, 0 };
        for (int k = 0; k < 9; k++)
            M[k] = rnd(-0.5, 0.5);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                W[3 * r + c] = r == c ? 1.0 : 0.0;
                for (int k = 0; k < 3; k++)
                    W[3 * r + c] += M[3 * r + k] * M[3 * c + k];
            }
        for (int k = 0; k < 3; k++)
            B[k] = rnd(-1, 1);
        cr_assert_eq(mb_contact_local_solve(W, B, mu, 0, Re), MB_SUCCESS);
        int it = mb_contact_ac_solve(W, B, mu, 100000, 1e-15, Ra);
        cr_assert_gt(it, 0, "trial %d: no convergence", trial);
        maxit = it > maxit ? it : maxit;
        cr_assert_eq(law_violation(W, B, mu, Ra, 1e-9), 0, "trial %d", trial);
        for (int k = 0; k < 3; k++)
            cr_assert_float_eq(Ra[k], Re[k], 1e-9, "trial %d axis %d: %.17g vs %.17g", trial, k, Ra[k], Re[k]);
        used += Re[2] > 0.0;
    }
    cr_log_info("%d active contacts of 1000; at most %d Alart-Curnier iterations", used, maxit);
    /* negative control: stopped after 2 iterations it must not pass the law check */
    double W[9] = { 1.3, 0.2, 0.1, 0.2, 0.9, -0.3, 0.1, -0.3, 1.1 }, B[3] = { 0.7, -0.2, -0.9 }, R[3] = { 0, 0, 0 };
    cr_assert_eq(mb_contact_ac_solve(W, B, 0.4, 2, 1e-15, R), -1);
    cr_assert_neq(law_violation(W, B, 0.4, R, 1e-9), 0);
}
