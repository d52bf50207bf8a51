/* bench_rebuild.h -- the plain rebuild of `bench implicit-chain` and `implicit-cloth`:
 * a straight loop over the springs that forms forces, the matrix A = M - h C - h^2 K and
 * the right-hand side b = (M - h C) v + h f of one linearised backward-Euler step, the
 * work the library's assembly is measured against.  Benchmark code, independent of the
 * library's assembly: it reads only the spring list, the masses and the storage layout,
 * and handles springs between nodes (no anchors, no arms), gravity and drag -- the models
 * of the chain and cloth problems.
 *
 * A chain (spring m joins nodes m and m + 1, in order) is rebuilt for the lean peer's
 * block sweep (bench_blocktri.h), in the form of a lean chain step: one pass over the
 * nodes, each block and each entry of b written once (no zeroing), the dashpots' and
 * drag's terms of b cancelled in closed form, and no forces stored (f and b are not
 * used).  Its storage: the rows of [D_i | b_i], four numbers a row -- the right-hand side
 * rides as a fourth column beside the diagonal block D_i = A(i,i), b_i entry a of row a:
 * Db[12 i + 4 a + c] = D_i(a, c), Db[12 i + 4 a + 3] = b_i(a); 16-byte aligned, so that
 * each row is two aligned pairs -- then L_i = A(i,i-1) and U_i = A(i,i+1), 9 numbers
 * each, row-major (L_0 and U_{n-1}, outside A, written +-0).
 *
 * Other systems, in the values of the library's CSR pattern, spring by spring into
 * storage zeroed first, with f. */
#ifndef MB_BENCH_REBUILD_H
#define MB_BENCH_REBUILD_H

#include "mb_linsolve.h"
#include "mb_system.h"

typedef struct bench_rebuild {
    size_t n, ns;              /* nodes, springs */
    const mb_spring *sp;
    double g[3], D;            /* gravity and drag of the problem */
    double *f, *b;             /* 3 n each (CSR; a chain's b is in Db) */
    double *vals;              /* a chain's Db | L | U (30 n), or the CSR values */
    double *Db, *L, *U;        /* a chain's arrays in vals (header; NULL in CSR) */
    size_t nvals;
    size_t *soff;              /* CSR, 4 per spring: offsets of blocks (i,i), (i,j), (j,i), (j,j) */
    size_t *doff, *stride;     /* CSR, per node: diagonal block offset, row stride */
    size_t nzero, nfixed;      /* fixed degrees of freedom: values to zero, diagonals */
    size_t *zero, *fixed_dof, *fixed_val;
    int chain;                 /* spring m joins m and m + 1, the chain's storage */
} bench_rebuild;

/* For the springs of sys (the first springs model of its field) with gravity g and drag
 * D, into the chain's storage (csr NULL; the springs must form a chain) or the pattern of
 * csr (its GSL matrix csr->A, mb_csr_spmatrix, built by the caller).  NULL when the
 * system has something the plain loop does not handle. */
bench_rebuild *bench_rebuild_alloc(const mb_system *sys, const double g[3], double D,
                                   const mb_csr *csr);
void bench_rebuild_free(bench_rebuild *R);
/* Forces, matrix and right-hand side at the state of s, time step h. */
void bench_rebuild_run(bench_rebuild *R, const mb_nodes *s, double h);

#endif
