/* bench_blocktri.h -- the block-tridiagonal peer of `bench implicit-chain`: a plain
 * block Thomas sweep (block LU without pivoting, 3x3 blocks, inverses by cofactors) on
 * the chain's matrix, the dedicated O(n) solver the library's direct path is measured
 * against.  Benchmark code, independent of the library's solvers. */
#ifndef MB_BENCH_BLOCKTRI_H
#define MB_BENCH_BLOCKTRI_H

#include "mb_linsolve.h"

typedef struct bench_thomas {
    size_t n;                  /* nodes */
    double *D, *L, *U;         /* 9 n each: A(i,i), A(i,i-1), A(i,i+1), row-major */
    double *G, *y;             /* 9 n inverses of the Schur complements; 3 n */
} bench_thomas;

/* A copy of the blocks A(i,i), A(i,i-1), A(i,i+1) (9 n doubles each, row-major) of a
 * block-tridiagonal A of n nodes. */
bench_thomas *bench_thomas_from_blocks(size_t n, const double *D, const double *L,
                                       const double *U);
void bench_thomas_free(bench_thomas *T);
/* Factor and solve A x = b; -1 when a Schur complement is singular. */
int bench_thomas_solve(bench_thomas *T, const double *b, double *x);

#endif
