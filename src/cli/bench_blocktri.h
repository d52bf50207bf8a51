/* bench_blocktri.h -- the block-tridiagonal peer of `bench implicit-chain`: a plain
 * block Thomas sweep (block LU without pivoting, 3x3 blocks) on the chain's matrix, the
 * dedicated O(n) solver the library's banded path is measured against.  Benchmark code,
 * not part of the library. */
#ifndef MB_BENCH_BLOCKTRI_H
#define MB_BENCH_BLOCKTRI_H

#include "mb_linsolve.h"

typedef struct mb_blocktri {
    size_t n;                  /* nodes */
    double *D, *L, *U;         /* 9 n each: A(i,i), A(i,i-1), A(i,i+1), row-major */
    double *G, *y;             /* 9 n inverses of the Schur complements; 3 n */
} mb_blocktri;

/* Blocks of a block-tridiagonal A from its band storage (half-bandwidth <= 5). */
mb_blocktri *mb_blocktri_from_band(const mb_band *B);
void mb_blocktri_free(mb_blocktri *T);
/* Factor and solve A x = b; -1 when a Schur complement is singular. */
int mb_blocktri_solve(mb_blocktri *T, const double *b, double *x);

#endif
