/* bench_blocktri.h -- the block-tridiagonal solve of the lean peer of `bench
 * implicit-chain`: a plain block Thomas sweep (block LU without pivoting, 3x3 blocks,
 * inverses by cofactors) written directly, reading the blocks where the plain rebuild
 * (bench_rebuild.h) left them -- the rows [D_i | b_i] with the right-hand side as a
 * fourth column, L_i and U_i row-major -- whose backward pass also forms the step's
 * x+ = x + h v+.  Benchmark code, independent of the library's solvers. */
#ifndef MB_BENCH_BLOCKTRI_H
#define MB_BENCH_BLOCKTRI_H

#include <stddef.h>

typedef struct bench_thomas {
    size_t n;                  /* nodes */
    double *Xz;                /* 12 n, 16-byte aligned: the rows of [S_i^-1 U_i | z_i] */
} bench_thomas;

/* Room for the sweep of a block-tridiagonal A of n nodes; NULL when out of memory. */
bench_thomas *bench_thomas_alloc(size_t n);
void bench_thomas_free(bench_thomas *T);
/* Factor and solve A v = b, with A(i,i) = D_i, A(i,i-1) = L_i, A(i,i+1) = U_i: Db the
 * rows of [D_i | b_i] (12 n doubles, 16-byte aligned, Db[12 i + 4 a + c] = D_i(a, c),
 * Db[12 i + 4 a + 3] = b_i(a)), L and U 9 n doubles each, row-major (L_0 and U_{n-1}
 * multiply zeros: they must be finite); then xn = x + h v (3 n each).  -1 when a pivot
 * block is singular (v_0 is then not finite: bench_blocktri.c). */
int bench_thomas_solve(bench_thomas *T, const double *Db, const double *L, const double *U,
                       const double *x, double h, double *v, double *xn);

#endif
