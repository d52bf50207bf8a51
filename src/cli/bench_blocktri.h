/* bench_blocktri.h -- the block-tridiagonal solve of the lean peer of `bench
 * implicit-chain`: a plain block Thomas sweep (block LU without pivoting, 3x3 blocks,
 * inverses by cofactors) written directly, reading the blocks where the plain rebuild
 * (bench_rebuild.h) left them.  Benchmark code, independent of the library's solvers. */
#ifndef MB_BENCH_BLOCKTRI_H
#define MB_BENCH_BLOCKTRI_H

#include <stddef.h>

typedef struct bench_thomas {
    size_t n;                  /* nodes */
    double *X, *z;             /* 9 n: S_i^-1 U_i;  3 n: forward-substituted b */
} bench_thomas;

/* Room for the sweep of a block-tridiagonal A of n nodes; NULL when out of memory. */
bench_thomas *bench_thomas_alloc(size_t n);
void bench_thomas_free(bench_thomas *T);
/* Factor and solve A x = b, with A(i,i) = D_i, A(i,i-1) = L_i, A(i,i+1) = U_i (9 n doubles
 * each, row-major); -1 when a pivot block is singular. */
int bench_thomas_solve(bench_thomas *T, const double *D, const double *L, const double *U,
                       const double *b, double *x);

#endif
