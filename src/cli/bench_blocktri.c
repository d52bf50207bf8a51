/* bench_blocktri.c -- block Thomas sweep for block-tridiagonal systems (bench_blocktri.h).
 * With A(i,i) = D_i, A(i,i-1) = L_i, A(i,i+1) = U_i (3x3):
 *   S_0 = D_0,  S_i = D_i - L_i S_{i-1}^-1 U_{i-1},  y_i = b_i - L_i S_{i-1}^-1 y_{i-1},
 *   x_{n-1} = S_{n-1}^-1 y_{n-1},  x_i = S_i^-1 (y_i - U_i x_{i+1})
 * (block LU without pivoting; stable for the block diagonally dominant matrices
 * M - h C - h^2 K of chains at the benchmark's step sizes).  3x3 inverses by cofactors. */
#include "bench_blocktri.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bench_thomas_free(bench_thomas *T)
{
    if (T == NULL)
        return;
    free(T->D); free(T->L); free(T->U); free(T->G); free(T->y);
    free(T);
}

bench_thomas *bench_thomas_from_blocks(size_t n, const double *D, const double *L,
                                       const double *U)
{
    bench_thomas *T = calloc(1, sizeof *T);
    if (T == NULL)
        return NULL;
    T->n = n;
    T->D = malloc(9 * n * sizeof(double));
    T->L = malloc(9 * n * sizeof(double));
    T->U = malloc(9 * n * sizeof(double));
    T->G = calloc(9 * n, sizeof(double));
    T->y = calloc(3 * n, sizeof(double));
    if (!T->D || !T->L || !T->U || !T->G || !T->y) {
        bench_thomas_free(T);
        return NULL;
    }
    memcpy(T->D, D, 9 * n * sizeof(double));
    memcpy(T->L, L, 9 * n * sizeof(double));
    memcpy(T->U, U, 9 * n * sizeof(double));
    return T;
}

static double inverse3(const double *a, double *g)
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
    double det = a[0] * g[0] + a[1] * g[3] + a[2] * g[6];
    for (int k = 0; k < 9; k++)
        g[k] /= det;
    return det;
}

static void mat3_mul(const double *a, const double *b, double *c)
{
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++)
            c[3 * r + s] = a[3 * r] * b[s] + a[3 * r + 1] * b[3 + s] + a[3 * r + 2] * b[6 + s];
}

static void mat3_vec(const double *a, const double *v, double *out)
{
    for (int r = 0; r < 3; r++)
        out[r] = a[3 * r] * v[0] + a[3 * r + 1] * v[1] + a[3 * r + 2] * v[2];
}

int bench_thomas_solve(bench_thomas *T, const double *b, double *x)
{
    double S[9], LG[9], t[3];
    memcpy(S, T->D, sizeof S);
    memcpy(T->y, b, 3 * sizeof(double));
    for (size_t i = 0;; i++) {
        double det = inverse3(S, &T->G[9 * i]);
        if (!(fabs(det) > 0.0) || !isfinite(det))
            return -1;
        if (i + 1 == T->n)
            break;
        mat3_mul(&T->L[9 * (i + 1)], &T->G[9 * i], LG);           /* L_{i+1} S_i^-1 */
        double LGU[9];
        mat3_mul(LG, &T->U[9 * i], LGU);
        for (int k = 0; k < 9; k++)
            S[k] = T->D[9 * (i + 1) + k] - LGU[k];
        mat3_vec(LG, &T->y[3 * i], t);
        for (int k = 0; k < 3; k++)
            T->y[3 * (i + 1) + k] = b[3 * (i + 1) + k] - t[k];
    }
    for (size_t i = T->n; i-- > 0;) {
        double r[3];
        memcpy(r, &T->y[3 * i], sizeof r);
        if (i + 1 < T->n) {
            mat3_vec(&T->U[9 * i], &x[3 * (i + 1)], t);
            for (int k = 0; k < 3; k++)
                r[k] -= t[k];
        }
        mat3_vec(&T->G[9 * i], r, &x[3 * i]);
    }
    return 0;
}
