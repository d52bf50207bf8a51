/* bench_blocktri.c -- block Thomas sweep for block-tridiagonal systems (bench_blocktri.h).
 * With A(i,i) = D_i, A(i,i-1) = L_i, A(i,i+1) = U_i (3x3; Golub & Van Loan, Matrix
 * Computations, 4th ed., sec. 4.5.1):
 *   S_0 = D_0,  S_i = D_i - L_i X_{i-1},  X_i = S_i^-1 U_i,
 *   z_0 = S_0^-1 b_0,  z_i = S_i^-1 (b_i - L_i z_{i-1}),
 *   x_{n-1} = z_{n-1},  x_i = z_i - X_i x_{i+1}
 * (block LU without pivoting; stable for the block diagonally dominant matrices
 * M - h C - h^2 K of chains at the benchmark's step sizes).  S_i^-1 by cofactors, one
 * division per node; the backward sweep reads 12 numbers per node (X_i, z_i).  The small
 * helpers are inlined and their 3- and 9-trip loops unrolled (mb_compiler.h, the hints
 * the library's sweep has): a product L_i X_{i-1} left in a call's stack frame put a
 * store and a reload on the sweep's chain of dependent nodes.  The products L_i X_{i-1}
 * and S_i^-1 U_i take columns 0 and 1 of a row two entries a lane (SSE2, block3_lanes.h),
 * as the library's sweep does.  S_i^-1 = adj(S_i) / det: X_i = (adj(S_i) U_i) (1/det) and
 * z_i = (adj(S_i) r_i) (1/det), so that the products run while the division does and the
 * chain of dependent nodes waits for one multiplication after it instead of a product. */
#include "bench_blocktri.h"
#include "block3_lanes.h"
#include "mb_compiler.h"

#include <math.h>
#include <stdlib.h>

void bench_thomas_free(bench_thomas *T)
{
    if (T == NULL)
        return;
    free(T->X);
    free(T->z);
    free(T);
}

bench_thomas *bench_thomas_alloc(size_t n)
{
    bench_thomas *T = calloc(1, sizeof *T);
    if (T == NULL)
        return NULL;
    T->n = n;
    T->X = malloc(9 * (n ? n : 1) * sizeof(double));
    T->z = malloc(3 * (n ? n : 1) * sizeof(double));
    if (!T->X || !T->z) {
        bench_thomas_free(T);
        return NULL;
    }
    return T;
}

/* g = adj(a) = det(a) a^-1 by cofactors; the determinant */
static MB_ALWAYS_INLINE double adjugate3(const double *a, double *g)
{
    g[0] = a[4] * a[8] - a[5] * a[7];
    g[1] = a[2] * a[7] - a[1] * a[8];
    g[2] = a[1] * a[5] - a[2] * a[4];
    g[3] = a[5] * a[6] - a[3] * a[8];
    g[4] = a[0] * a[8] - a[2] * a[6];
    g[5] = a[2] * a[3] - a[0] * a[5];
    g[6] = a[3] * a[7] - a[4] * a[6];
    g[7] = a[1] * a[6] - a[0] * a[7];
    g[8] = a[0] * a[4] - a[1] * a[3];
    return a[0] * g[0] + a[1] * g[3] + a[2] * g[6];
}

/* out = v - a w */
static MB_ALWAYS_INLINE void sub_mat_vec(const double *v, const double *a, const double *w,
                                         double *out)
{
    MB_UNROLL(3)
    for (int r = 0; r < 3; r++)
        out[r] = v[r] - (a[3 * r] * w[0] + a[3 * r + 1] * w[1] + a[3 * r + 2] * w[2]);
}

int bench_thomas_solve(bench_thomas *T, const double *D, const double *L, const double *U,
                       const double *b, double *x)
{
    double S[9], G[9], Y[9], r[3];
    for (size_t i = 0; i < T->n; i++) {
        if (i == 0) {
            MB_UNROLL(9)
            for (int k = 0; k < 9; k++)
                S[k] = D[k];
            r[0] = b[0], r[1] = b[1], r[2] = b[2];
        } else {
            block3_sub_mul(&D[9 * i], &L[9 * i], &T->X[9 * (i - 1)], S);
            sub_mat_vec(&b[3 * i], &L[9 * i], &T->z[3 * (i - 1)], r);
        }
        double det = adjugate3(S, G);
        if (!(fabs(det) > 0.0) || !isfinite(det))
            return -1;
        double rd = 1.0 / det;
        if (i + 1 < T->n) {
            block3_mul(G, &U[9 * i], Y);
            MB_UNROLL(9)
            for (int k = 0; k < 9; k++)
                T->X[9 * i + k] = Y[k] * rd;
        }
        MB_UNROLL(3)
        for (int a = 0; a < 3; a++)
            T->z[3 * i + a] = (G[3 * a] * r[0] + G[3 * a + 1] * r[1] + G[3 * a + 2] * r[2]) * rd;
    }
    for (size_t i = T->n; i-- > 0;) {
        if (i + 1 == T->n)
            MB_UNROLL(3)
            for (int a = 0; a < 3; a++)
                x[3 * i + a] = T->z[3 * i + a];
        else
            sub_mat_vec(&T->z[3 * i], &T->X[9 * i], &x[3 * (i + 1)], &x[3 * i]);
    }
    return 0;
}
