/* bench_rebuild.h -- the plain rebuild of `bench implicit-chain` and `implicit-cloth`:
 * a straight loop over the springs that forms forces, the matrix A = M - h C - h^2 K and
 * the right-hand side b = (M - h C) v + h f of one linearised backward-Euler step, in the
 * storage the library's solver=auto uses (3x3 blocks of a chain, or the values of its
 * CSR pattern), the work the library's assembly is measured against.  Benchmark code,
 * independent of the library's assembly: it reads only the spring list, the masses and
 * the storage layout, and handles springs between nodes (no anchors, no arms), gravity
 * and drag -- the models of the chain and cloth problems.  A chain (spring m joins
 * nodes m and m + 1, in order, block-tridiagonal storage) is rebuilt in the form of a
 * lean chain step: one pass over the nodes, each block and each entry of b written once (no zeroing), the
 * dashpots' and drag's terms of b cancelled in closed form, and no forces stored (f is
 * left unwritten); other systems spring by spring into storage zeroed first, with f. */
#ifndef MB_BENCH_REBUILD_H
#define MB_BENCH_REBUILD_H

#include "mb_linsolve.h"
#include "mb_system.h"

typedef struct bench_rebuild {
    size_t n, ns;              /* nodes, springs */
    const mb_spring *sp;
    double g[3], D;            /* gravity and drag of the problem */
    double *f, *b;             /* 3 n each */
    double *vals;              /* matrix values: D | L | U blocks (27 n), or CSR values */
    size_t nvals;
    size_t *soff;              /* 4 per spring: offsets of blocks (i,i), (i,j), (j,i), (j,j) */
    size_t *doff, *stride;     /* per node: diagonal block offset, row stride */
    size_t nzero, nfixed;      /* fixed degrees of freedom: values to zero, diagonals */
    size_t *zero, *fixed_dof, *fixed_val;
    int chain;                 /* spring m joins m and m + 1, block-tridiagonal storage */
} bench_rebuild;

/* For the springs of sys (the first springs model of its field) with gravity g and drag
 * D, into block-tridiagonal storage (csr NULL) or the pattern of csr (its GSL matrix
 * csr->A, mb_csr_spmatrix, built by the caller).  NULL when the
 * system has something the plain loop does not handle. */
bench_rebuild *bench_rebuild_alloc(const mb_system *sys, const double g[3], double D,
                                   const mb_csr *csr);
void bench_rebuild_free(bench_rebuild *R);
/* Forces, matrix and right-hand side at the state of s, time step h. */
void bench_rebuild_run(bench_rebuild *R, const mb_nodes *s, double h);

#endif
