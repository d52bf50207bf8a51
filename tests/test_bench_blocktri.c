/* test_bench_blocktri.c -- the block Thomas sweep of `bench implicit-chain`'s lean peer
 * (src/cli/bench_blocktri.c) on a small block-tridiagonal system whose solution is known:
 * four nodes, blocks of small integers (each D_i strictly diagonally dominant by rows
 * over its row of A), the solution v* of dyadic entries, b = A v* formed here exactly
 * (every product and sum of the small integers and dyadics is a double), the right-hand
 * side in the fourth column of the rows [D_i | b_i] (bench_blocktri.h).  The sweep must
 * give v* and x+ = x + h v* to round-off: with row dominance the pivot blocks' growth is
 * below 2 and kappa(A) below 10 here, so a backward-stable solve is within 2 n u kappa
 * growth = 2 x 12 x 1.1e-16 x 10 x 2 = 5.3e-14 of v* relative to max|v*|; 1e-13, and
 * x+ (h = 1/8, |x| <= 3) likewise.  Controls: the system with L and U exchanged, or b_i
 * not reduced by L_i z_{i-1}, has another solution (A' v* differs from b), so a sweep
 * that solves either fails.  A singular pivot block (det S_1 = 0), and a NaN in D_0, make
 * the sweep return -1; the same system with S_1 regular returns 0 (the first test). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "array_scan.h"
#include "bench_blocktri.h"

#define N 4

/* The blocks (row-major) of nodes 0..3; L_0 and U_3 are outside A and +0 */
static const double Dblk[N][9] = {
    { 9, 1, -2, 0, 8, 1, 1, -1, 10 },
    { 11, -2, 1, 1, 9, -1, 2, 0, 12 },
    { 10, 1, 0, -1, 12, 2, 1, 1, 12 },
    { 8, 0, 1, 2, 10, -1, 0, 1, 7 },
};
static const double Lblk[N][9] = {
    { 0 },
    { -1, 2, 0, 1, -1, 1, 0, -2, 1 },
    { 2, 0, -1, -1, 1, 0, 1, 1, -2 },
    { 0, -1, 2, 1, 0, -1, -1, 1, 0 },
};
static const double Ublk[N][9] = {
    { 1, -1, 2, 0, 2, -1, -1, 0, 1 },
    { -2, 1, 0, 1, 1, 1, 0, -1, 2 },
    { 1, 0, 1, -2, 1, 0, 1, 2, -1 },
    { 0 },
};
static const double vstar[3 * N] = { 0.5, -1.25, 2.0, 0.75, 0.125, -1.5,
                                     -2.25, 1.0, 0.375, 1.5, -0.625, 0.25 };

/* b = A v (exact on these data) with A's blocks, optionally L and U exchanged */
static void times_a(const double D[N][9], const double L[N][9], const double U[N][9],
                    const double *v, double *b)
{
    for (int i = 0; i < N; i++)
        for (int a = 0; a < 3; a++) {
            double s = 0.0;
            for (int c = 0; c < 3; c++) {
                s += D[i][3 * a + c] * v[3 * i + c];
                if (i > 0)
                    s += L[i][3 * a + c] * v[3 * (i - 1) + c];
                if (i + 1 < N)
                    s += U[i][3 * a + c] * v[3 * (i + 1) + c];
            }
            b[3 * i + a] = s;
        }
}

/* the rows [D_i | b_i] of the sweep's input, and L, U flat */
static void rows_of(const double D[N][9], const double *b, double *Db, double *L, double *U)
{
    for (int i = 0; i < N; i++) {
        for (int a = 0; a < 3; a++) {
            for (int c = 0; c < 3; c++)
                Db[12 * i + 4 * a + c] = D[i][3 * a + c];
            Db[12 * i + 4 * a + 3] = b[3 * i + a];
        }
        memcpy(&L[9 * i], Lblk[i], sizeof Lblk[i]);
        memcpy(&U[9 * i], Ublk[i], sizeof Ublk[i]);
    }
}

Test(bench_blocktri, solves_a_known_system_and_forms_x_plus)
{
    _Alignas(16) double Db[12 * N];
    double L[9 * N], U[9 * N], b[3 * N], bx[3 * N], v[3 * N], xn[3 * N], want[3 * N];
    const double x[3 * N] = { 1, -2, 3, 0.5, 2.5, -1, -3, 0.25, 1.75, 2, -0.5, 1.25 }, h = 0.125;
    times_a(Dblk, Lblk, Ublk, vstar, b);
    /* controls: L and U exchanged, or b_i unreduced (L = 0), are other systems for v* */
    times_a(Dblk, Ublk, Lblk, vstar, bx);
    cr_assert(mb_max_rel_diff(bx, b, 3 * N) > 0.1, "control: L and U tell the systems apart");
    const double Z[N][9] = { { 0 } };
    times_a(Dblk, Z, Ublk, vstar, bx);
    cr_assert(mb_max_rel_diff(bx, b, 3 * N) > 0.1, "control: L_i z_{i-1} changes the system");

    rows_of(Dblk, b, Db, L, U);
    bench_thomas *T = bench_thomas_alloc(N);
    cr_assert(T != NULL);
    cr_assert_eq(bench_thomas_solve(T, Db, L, U, x, h, v, xn), 0);
    for (int k = 0; k < 3 * N; k++)
        want[k] = x[k] + h * vstar[k];
    double dv = mb_max_rel_diff(v, vstar, 3 * N), dx = mb_max_rel_diff(xn, want, 3 * N);
    cr_expect(dv <= 1e-13, "v+: %g", dv);
    cr_expect(dx <= 1e-13, "x+: %g", dx);
    bench_thomas_free(T);
}

Test(bench_blocktri, refuses_a_singular_pivot)
{
    _Alignas(16) double Db[12 * N];
    double L[9 * N], U[9 * N], b[3 * N], v[3 * N], xn[3 * N], x[3 * N] = { 0 };
    double D[N][9];
    memcpy(D, Dblk, sizeof D);
    for (int c = 0; c < 3; c++)                 /* D_1's row 2 = row 0 + row 1 */
        D[1][6 + c] = D[1][c] + D[1][3 + c];
    times_a(D, Lblk, Ublk, vstar, b);
    rows_of(D, b, Db, L, U);
    memset(&L[9], 0, 9 * sizeof(double));       /* S_1 = D_1 - 0 X_0: singular */
    bench_thomas *T = bench_thomas_alloc(N);
    cr_assert(T != NULL);
    cr_expect_eq(bench_thomas_solve(T, Db, L, U, x, 0.125, v, xn), -1, "det S_1 = 0");
    rows_of(Dblk, b, Db, L, U);
    Db[4] = NAN;                                /* D_0(1, 0) */
    cr_expect_eq(bench_thomas_solve(T, Db, L, U, x, 0.125, v, xn), -1, "a NaN in D_0");
    bench_thomas_free(T);
}
