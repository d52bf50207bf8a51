/* mb_linsolve.h -- the linear systems of the implicit Euler schemes and their solvers.
 *
 * Backward Euler linearised about the state (x, v) (DESIGN 4.1) solves
 *     A v+ = b,   A = M - h C - h^2 K,   b = (M - h C) v + h f(x, v),
 * with K = df/dx and C = df/dv the 3x3 node blocks of a block Jacobian (mb_jacobian.h)
 * and M the lumped mass.  A degree of freedom that is blocked (MB_BLOCK_X/Y/Z) or belongs
 * to a node of infinite mass (inv_mass = 0) gets a diagonal row d v+ = d v: its new
 * velocity is its old one (zero acceleration).  d is the node's mass (1 for infinite
 * mass), so these rows share the scale of the others and pivot-ratio tests do not
 * depend on the units.
 *
 * Solvers, one per file:
 *   linsys_assemble   A and b, dense (double and MPFR, one template) -- same operation
 *                     order in both instances, so 53-bit twins see the same numbers;
 *   linsolve_gauss    Gaussian elimination with partial pivoting (double and MPFR);
 *   linsolve_lu       GSL dense LU with a singularity test (double);
 *   linsolve_csr      the CSR pattern of A and assembly into it, blocks summed (double);
 *   linsolve_csr_blocks the values of that pattern as 3x3 blocks, one shared by the two
 *                     mirrored blocks of a spring; the product y = A x (double);
 *   linsolve_band     A in band storage, GSL's banded LU: exact and O(n) on chains (double);
 *   linsolve_blocktri A as 3x3 blocks D, L, U of a chain, block Thomas sweep: exact, O(n),
 *                     with a stability test that sends the caller to a pivoting solver;
 *   linsolve_krylov   workspace, Jacobi preconditioner and norms of the Krylov solvers;
 *   linsolve_bicgstab Jacobi-preconditioned BiCGSTAB on that CSR matrix (double);
 *   linsolve_pcg      Jacobi-preconditioned conjugate gradients (double, SPD systems);
 *   linsolve_gmres    GSL's restarted GMRES on that CSR matrix (double). */
#ifndef MB_LINSOLVE_H
#define MB_LINSOLVE_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <stdint.h>

#include <gsl/gsl_spmatrix.h>
#include <gsl/gsl_splinalg.h>
#include <gsl/gsl_vector.h>

#include "mb_jacobian.h"
#include "mb_nodes.h"

/* ---- assembly and Gaussian elimination: mb_linsys_*, mb_gauss_* (double) and
 *      mb_linsys_mpfr_*, mb_gauss_mpfr_* (MPFR), defined by one source each ---- */

/* ---- double ---- */
/* 1 when degree of freedom k (0..3n-1) of s is fixed: blocked axis or infinite mass. */
int mb_linsys_fixed(const mb_nodes *s, size_t k);
/* 1 when some degree of freedom of node i is fixed: a cheap test before the per-axis one. */
int mb_linsys_node_fixed(const mb_nodes *s, size_t i);
/* mb_linsys_node_fixed inlined, for the loops over every node */
static inline int mb_linsys_node_fixed_inline(const mb_nodes *s, size_t i)
{
    return s->inv_mass[i] == 0.0 || s->blocked[i] != 0;
}

/* Dense A = M - h C - h^2 K (row-major, leading dimension lda, 3n x 3n); the row of a
 * fixed degree of freedom is d e_k^T (d = mass, 1 for infinite mass).  Duplicate blocks
 * are summed in list order. */
void mb_linsys_dense(const mb_nodes *s, const mb_jacobian *J,
                                double h, double *A, size_t lda); /* b = (M - h C) v + h f  with f = s->f current; b_k = d v_k on fixed rows.  tmp: 2 doubles
 * initialised by the caller (no allocation here). */
void mb_linsys_be_rhs(const mb_nodes *s, const mb_jacobian *J,
                                 double h, double *b, double *tmp);
/* The stages of mb_linsys_be_rhs, for assembly block by block (linsys_sink.c): b = M v + h f;
 * the term t = h (C vc)_a one block C (column velocity vc) takes off b_{3 row + a}, u a
 * scratch; whether C is zero (then the block is skipped); the fixed rows. */
void mb_linsys_be_rhs_begin(const mb_nodes *s, double h, double *b, double *tmp);
void mb_linsys_be_rhs_term(const double *C, const double *vc, int a, double h, double *t,
                           double *u);
/* the double instance of mb_linsys_be_rhs_term, inlined where blocks are handed over one
 * by one: ((C_a0 v_0 + C_a1 v_1) + C_a2 v_2) h */
static inline double mb_linsys_be_rhs_term_d(const double *C, const double *vc, int a, double h)
{
    double t = C[3 * a] * vc[0];
    t = t + C[3 * a + 1] * vc[1];
    t = t + C[3 * a + 2] * vc[2];
    return t * h;
}
/* The terms of a two-node element's four blocks (i, i) -C, (i, j) C, (j, i) C, (j, j) -C
 * (mb_jacobian_mark_pair, mb_linsys_sink_pair), i != j: h (-C v_i + C v_j) off b_i and
 * h (C v_i - C v_j) off b_j, that is t = h C (v_j - v_i) formed once, b_i -= t, b_j += t;
 * t_a = ((C_a0 w_0 + C_a1 w_1) + C_a2 w_2) h with w = v_j - v_i.  w: 3 scratch values,
 * t: 2 (the double instance inlined below). */
void mb_linsys_be_rhs_pair(const double *C, const double *vi, const double *vj, double h,
                           double *bi, double *bj, double *w, double *t);
static inline void mb_linsys_be_rhs_pair_d(const double *C, const double *vi,
                                           const double *vj, double h, double *restrict bi,
                                           double *restrict bj)
{
    const double w0 = vj[0] - vi[0], w1 = vj[1] - vi[1], w2 = vj[2] - vi[2];
#if defined(__GNUC__)
#pragma GCC unroll 3
#endif
    for (int a = 0; a < 3; a++) {
        double t = C[3 * a] * w0;
        t = t + C[3 * a + 1] * w1;
        t = t + C[3 * a + 2] * w2;
        t = t * h;
        bi[a] = bi[a] - t;
        bj[a] = bj[a] + t;
    }
}
/* 1 when every entry of the 3x3 block C is zero (a block that adds nothing to b; a NaN
 * entry is not zero) */
int mb_linsys_block_zero(const double *C);
/* Its negation, inline for the blocks passes (linsys_sink_pass.h) and the one test of
 * the double instance of mb_linsys_block_zero: 1 when some entry of C is not zero, NaN
 * included (NaN != 0), entry by entry until one is.  Always inlined where the compiler
 * reads GCC's attribute (the internal MB_ALWAYS_INLINE of mb_compiler.h, which this
 * installed header cannot include). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int mb_linsys_block_nonzero(const double *C)
{
    return C[0] != 0.0 || C[1] != 0.0 || C[2] != 0.0 || C[3] != 0.0 || C[4] != 0.0
           || C[5] != 0.0 || C[6] != 0.0 || C[7] != 0.0 || C[8] != 0.0;
}
void mb_linsys_be_rhs_fix_rows(const mb_nodes *s, double *b, double *tmp);
/* the same for node i alone (a node known to be fixed: mb_linsys_sink_finish) */
void mb_linsys_be_rhs_fix_node(const mb_nodes *s, size_t i, double *b, double *tmp);
/* Newton right-hand side of backward Euler in velocity form, -R(w) with
 *     R(w) = M (w - v) - h f(x + h w, w),
 * where f = trial->f was evaluated at the trial state (x + h w, w) and v is the start
 * velocity; 0 on fixed rows.  tmp: 2 doubles. */
void mb_linsys_newton_rhs(const mb_nodes *trial, const double *v, double h,
                                     double *b, double *tmp); /* Gaussian elimination with partial pivoting: solves A x = b in place of A and b
 * (n x n, row-major).  piv: n size_t scratch; tmp: 3 doubles.
 * MB_ESINGULAR when a pivot is 0 or |pivot| <= n 2^(1-prec) max|A|. */
int mb_gauss_solve(double *A, size_t n, double *b, double *x, size_t *piv, double *tmp);

/* ---- MPFR (same layout; every number an mpfr_t of precision prec) ---- */
/* 1 when degree of freedom k (0..3n-1) of s is fixed: blocked axis or infinite mass. */
int mb_linsys_mpfr_fixed(const mb_nodes_mpfr *s, size_t k);
/* 1 when some degree of freedom of node i is fixed: a cheap test before the per-axis one. */
int mb_linsys_mpfr_node_fixed(const mb_nodes_mpfr *s, size_t i);

/* Dense A = M - h C - h^2 K (row-major, leading dimension lda, 3n x 3n); the row of a
 * fixed degree of freedom is d e_k^T (d = mass, 1 for infinite mass).  Duplicate blocks
 * are summed in list order. */
void mb_linsys_mpfr_dense(const mb_nodes_mpfr *s, const mb_jacobian_mpfr *J,
                                double h, mpfr_ptr A, size_t lda); /* b = (M - h C) v + h f  with f = s->f current; b_k = d v_k on fixed rows.  tmp: 2 mpfr_t initialised by the caller
 * initialised by the caller (no allocation here). */
void mb_linsys_mpfr_be_rhs(const mb_nodes_mpfr *s, const mb_jacobian_mpfr *J,
                                 double h, mpfr_ptr b, mpfr_ptr tmp);
/* the stages of mb_linsys_mpfr_be_rhs (as the double ones) */
void mb_linsys_mpfr_be_rhs_begin(const mb_nodes_mpfr *s, double h, mpfr_ptr b, mpfr_ptr tmp);
void mb_linsys_mpfr_be_rhs_term(mpfr_srcptr C, mpfr_srcptr vc, int a, double h, mpfr_ptr t,
                                mpfr_ptr u);
void mb_linsys_mpfr_be_rhs_pair(mpfr_srcptr C, mpfr_srcptr vi, mpfr_srcptr vj, double h,
                                mpfr_ptr bi, mpfr_ptr bj, mpfr_ptr w, mpfr_ptr t);
int mb_linsys_mpfr_block_zero(mpfr_srcptr C);
void mb_linsys_mpfr_be_rhs_fix_rows(const mb_nodes_mpfr *s, mpfr_ptr b, mpfr_ptr tmp);
void mb_linsys_mpfr_be_rhs_fix_node(const mb_nodes_mpfr *s, size_t i, mpfr_ptr b,
                                    mpfr_ptr tmp);
/* Newton right-hand side of backward Euler in velocity form, -R(w) with
 *     R(w) = M (w - v) - h f(x + h w, w),
 * where f = trial->f was evaluated at the trial state (x + h w, w) and v is the start
 * velocity; 0 on fixed rows.  tmp: 2 mpfr_t initialised by the caller. */
void mb_linsys_mpfr_newton_rhs(const mb_nodes_mpfr *trial, mpfr_srcptr v, double h,
                                     mpfr_ptr b, mpfr_ptr tmp); /* Gaussian elimination with partial pivoting: solves A x = b in place of A and b
 * (n x n, row-major).  piv: n size_t scratch; tmp: 3 mpfr_t initialised by the caller.
 * MB_ESINGULAR when a pivot is 0 or |pivot| <= n 2^(1-prec) max|A|. */
int mb_gauss_mpfr_solve(mpfr_ptr A, size_t n, mpfr_ptr b, mpfr_ptr x, size_t *piv, mpfr_ptr tmp);

/* ---- dense LU through GSL (double) ---- */

typedef struct mb_lu {
    size_t n;
    gsl_matrix *A;          /* the system, factorised in place */
    gsl_permutation *perm;
    double rcond_estimate;  /* min |u_ii| / max |u_ii| of the last factorisation */
} mb_lu;

mb_lu *mb_lu_alloc(size_t n);
void mb_lu_free(mb_lu *lu);
/* Factorise lu->A (filled by the caller) and solve A x = b.  MB_ESINGULAR when a
 * pivot is zero or min|u_ii| <= n u max|u_ii| (u = 2^-53): the system is numerically
 * singular and the solution would be meaningless. */
int mb_lu_solve(mb_lu *lu, const double *b, double *x);

/* G = h C + h^2 K of one block: what every assembly of A subtracts from its entries,
 * A = A - G (double; mb_linsys_dense forms the same sum in both instances).  Since
 * h (-C) + h^2 (-K) = -(h C + h^2 K) exactly, a negated block subtracts -G: A + G.
 * Unrolled where the compiler reads GCC's pragma (the internal MB_UNROLL of
 * mb_compiler.h, which this installed header cannot include): GCC keeps the 9-trip loop
 * rolled at -O2. */
static inline void mb_linsys_block_g(const double C[9], const double K[9], double h,
                                     double h2, double G[9])
{
#if defined(__GNUC__)
#pragma GCC unroll 9
#endif
    for (int k = 0; k < 9; k++)
        G[k] = h * C[k] + h2 * K[k];
}

/* ---- sparse assembly of A from block lists (double): the CSR pattern
 *      (linsolve_csr.c), its values as shared 3x3 blocks (linsolve_csr_blocks.c) ---- */

typedef struct mb_csr {
    size_t n_nodes, n_blocks; /* the pattern was built for these blocks */
    uint32_t *bblk;         /* per block of the list: its 3x3 block of values in the pool */
    unsigned char *bshared; /* per block of the list: 1 when its pool block is shared with
                             * its mirror (a pair's (i, j) and (j, i), linsolve_csr_blocks.c) */
    uint32_t *brow, *bcol;  /* per block: its coordinates (mb_csr_slot_is); 4 bytes each
                             * suffice, since 3 n_nodes < 2^31 (GSL's int indices) */
    size_t *cstart;         /* per node row r: its q column blocks are cstart[r] ..
                             * cstart[r + 1] - 1 of ncol and cref (n_nodes + 1 values) */
    uint32_t *ncol;         /* per column block: its column node, ascending in a row */
    uint32_t *cref;         /* per column block: its 3x3 block of values in the pool */
    uint32_t *dblk;         /* per node: the pool block of its diagonal block */
    uint32_t *pstart;       /* per node: the pool blocks pstart[r] .. pstart[r + 1] - 1 are
                             * node r's own (n_nodes + 1 values) */
    unsigned char *shares;  /* per node: 1 when one of its blocks is shared with a mirror */
    double *pool;           /* the values: 9 doubles per block, row-major, n_pool blocks */
    size_t n_pool, n_shared;  /* blocks in the pool; pool blocks read by two positions */
    gsl_spmatrix *A;        /* the same matrix as a GSL CSR matrix, built only when asked
                             * (mb_csr_spmatrix: GMRES, the benchmark's direct peer) */
} mb_csr;

mb_csr *mb_csr_alloc(void);
void mb_csr_free(mb_csr *c);
/* Build the CSR pattern of the blocks of J plus every diagonal block.  Duplicate
 * (row, col) blocks share one slot and are summed on assembly.  No pool block is
 * shared (a list of blocks says nothing of pairs). */
int mb_csr_pattern(mb_csr *c, const mb_jacobian *J);
/* The same pattern for nb blocks at (row[b], col[b]) on n nodes; row, col and pair
 * (malloc'ed, nb values each, or NULL when they could not be allocated: MB_ENOMEM) are
 * freed here, as soon as the slots are known.  pair[b] = 1 marks block b as the (i, j) or
 * (j, i) block of a two-node element (mb_linsys_sink_pair), which adds the same
 * operations to both: a position (r, c) and its mirror (c, r) share one pool block when
 * every block of the list there is so marked and neither r nor c has a fixed degree of
 * freedom in s (linsolve_csr_blocks.c).  pair NULL: nothing is shared (s unused, may be
 * NULL). */
int mb_csr_pattern_adopt(mb_csr *c, size_t n, size_t nb, size_t *row, size_t *col,
                         unsigned char *pair, const mb_nodes *s);
/* The column block of node row r at column node col (cstart[r] <= p < cstart[r + 1]), or
 * SIZE_MAX when the pattern has none there. */
size_t mb_csr_position(const mb_csr *c, size_t r, size_t col);
/* The pool's layout (linsolve_csr_blocks.c), from a pattern's columns (n_nodes, cstart,
 * ncol): cref, dblk, pstart, shares, n_pool and n_shared.  own[p] is 1 where column block
 * p must keep a pool block of its own, 0 where it may share its mirror's; fixed[r] 1 for
 * a node with a fixed degree of freedom, which shares nothing.  On return own[p] is 2
 * where column block p shares its pool block. */
void mb_csr_blocks_layout(mb_csr *c, unsigned char *own, const unsigned char *fixed);
/* 1 when a pattern is built (the storage can take an assembly). */
static inline int mb_csr_ready(const mb_csr *c)
{
    return c->pool != NULL;
}
/* 1 when the pattern's b-th block is (r, c). */
static inline int mb_csr_slot_is(const mb_csr *c, size_t b, size_t r, size_t col)
{
    return b < c->n_blocks && c->brow[b] == r && c->bcol[b] == col;
}
/* 1 when J has exactly the blocks the pattern was built for, and the pattern shares no
 * block (J's blocks are assembled one by one, mirrors included). */
int mb_csr_matches(const mb_csr *c, const mb_jacobian *J);
/* A = M - h C - h^2 K into the pool (pattern must match), diagonal rows for fixed
 * degrees of freedom (as mb_linsys_dense). */
void mb_csr_assemble(mb_csr *c, const mb_nodes *s, const mb_jacobian *J, double h);
/* The stages of mb_csr_assemble, for assembly block by block as the force models
 * produce them (linsys_sink.c): A = M; block b (node row r) A -= h C + h^2 K
 * (mb_csr_add, made of mb_csr_sub); the fixed rows. */
void mb_csr_begin(mb_csr *c, const mb_nodes *s);
/* the 3x3 block of values (row-major) of the list's block b */
static inline double *mb_csr_block(const mb_csr *c, size_t b)
{
    return &c->pool[9 * (size_t)c->bblk[b]];
}
/* block b: A = A - G entry by entry, G = h C + h^2 K formed by the caller
 * (mb_linsys_block_g; a negated block passes -G); b must not be shared */
static inline void mb_csr_sub(mb_csr *c, size_t b, const double G[9])
{
    double *restrict d = mb_csr_block(c, b);
    for (int q = 0; q < 9; q++)
        d[q] -= G[q];
}
static inline void mb_csr_add(mb_csr *c, size_t b, const double C[9], const double K[9],
                              double h, double h2)
{
    double G[9];
    mb_linsys_block_g(C, K, h, h2, G);
    mb_csr_sub(c, b, G);
}
/* The rows of fixed degrees of freedom: d e_k^T (d = mass, 1 for infinite mass).  0 when
 * a node with a fixed degree of freedom shares a block with a mirror (it was free when
 * the pattern was built): its row cannot be written, and the step must be assembled from
 * a block list (whose pattern shares nothing). */
int mb_csr_fix_rows(mb_csr *c, const mb_nodes *s);
/* y = A x (A from mb_csr_assemble) */
void mb_csr_matvec(const mb_csr *c, const double *x, double *y);
/* y = A x and, in the same pass, *yw = w.y and (yy not NULL) *yy = y.y, each summed in
 * ascending index order: the bits of mb_krylov_dot(w, y, n) and mb_krylov_dot(y, y, n)
 * after mb_csr_matvec, without their passes over y (the Krylov iterations' fused sums) */
void mb_csr_matvec_dots(const mb_csr *c, const double *x, double *y, const double *w,
                        double *yw, double *yy);
/* diagonal entry a (0..2) of node r's diagonal block */
static inline double mb_csr_diagonal(const mb_csr *c, size_t r, int a)
{
    return c->pool[9 * (size_t)c->dblk[r] + 4 * (size_t)a];
}
/* The matrix as a GSL CSR matrix (c->A, allocated at the first call, its values copied
 * from the pool at every call): scalar row 3 r + a holds the entries (3 c_j + e) of
 * the column nodes c_1 < ... < c_q of node row r.  NULL when out of memory. */
const gsl_spmatrix *mb_csr_spmatrix(mb_csr *c);

/* ---- banded direct solve (double) ---- */

typedef struct mb_band {
    size_t n, w;                  /* 3 n_nodes unknowns, half-bandwidth (lb = ub = w) */
    gsl_matrix *AB;               /* n x (3 w + 1), GSL's band storage */
    gsl_vector_uint *piv;
} mb_band;

/* Half-bandwidth in unknowns of A for the blocks of J: 3 max|row - col| + 2. */
size_t mb_band_halfwidth(const mb_jacobian *J);
mb_band *mb_band_alloc(size_t n, size_t w);
void mb_band_free(mb_band *B);
/* A = M - h C - h^2 K into band storage (every block of J within the bandwidth), fixed
 * rows as mb_csr_assemble. */
void mb_band_assemble(mb_band *B, const mb_nodes *s, const mb_jacobian *J, double h);
/* Factorise and solve A x = b; MB_ESINGULAR by the pivot-ratio test of mb_lu_solve. */
int mb_band_solve(mb_band *B, const double *b, double *x);
/* The matrix of a block-tridiagonal T (mb_blocktri_assemble) in band storage: the same
 * entries mb_band_assemble forms from the blocks T was assembled from, when B->w is that
 * list's half-bandwidth (5, or 2 when every block is diagonal and L, U are zero). */
struct mb_blocktri;
void mb_band_from_blocktri(mb_band *B, const struct mb_blocktri *T);

/* ---- block-tridiagonal direct solve (double) ---- */

/* Acceptance of the block Thomas sweep (linsolve_blocktri.c): every pivot block S_i needs
 * rcond_1(S_i) >= MB_BLOCKTRI_RCOND_MIN (2^-26, about sqrt(u): at least half the digits
 * survive each block solve) and ||S_i||_1 <= MB_BLOCKTRI_GROWTH_MAX ||A(i,i)||_1 (8 times
 * the bound 2 that block diagonal dominance guarantees). */
#define MB_BLOCKTRI_RCOND_MIN 0x1p-26
#define MB_BLOCKTRI_GROWTH_MAX 16.0

typedef struct mb_blocktri {
    size_t n;                     /* nodes: 3 n unknowns */
    double *D, *L, *U;            /* 9 n each, row-major: A(i,i), A(i,i-1), A(i,i+1); L_0 and
                                   * U_{n-1} are not blocks of A (+0 from the allocation) */
    double *X, *z;                /* 9 n: S_i^-1 U_i;  3 n: forward-substituted b */
    unsigned char *set;           /* n: the blocks of node i that hold their value in this
                                   * assembly (MB_BLOCKTRI_SET_D | _L | _U) */
    size_t nset;                  /* how many blocks of A are set */
    const double *mass;           /* the masses of the nodes of this assembly */
    double rcond_min, growth_max; /* of the pivot blocks of the last (partial) solve */
} mb_blocktri;

/* the bits of mb_blocktri.set: A(i,i), A(i,i-1), A(i,i+1) */
#define MB_BLOCKTRI_SET_D 1u
#define MB_BLOCKTRI_SET_L 2u
#define MB_BLOCKTRI_SET_U 4u

/* a 3x3 block of +0: the start value of the blocks off the diagonal */
extern const double mb_blocktri_zero[9];
/* diag(m), +0 off the diagonal: M's block of a node of mass m */
static inline void mb_blocktri_mass_block(double m, double blk[9])
{
    blk[0] = m, blk[1] = 0.0, blk[2] = 0.0;
    blk[3] = 0.0, blk[4] = m, blk[5] = 0.0;
    blk[6] = 0.0, blk[7] = 0.0, blk[8] = m;
}

mb_blocktri *mb_blocktri_alloc(size_t n_nodes);
void mb_blocktri_free(mb_blocktri *T);
/* 1 when every block of J couples a node to itself or to a neighbour (|row - col| <= 1):
 * A is block-tridiagonal (the half-bandwidth of mb_band_halfwidth is at most 5). */
int mb_blocktri_fits(const mb_jacobian *J);
/* A = M - h C - h^2 K into the blocks (J must fit), fixed rows as mb_band_assemble; the
 * entries equal those of mb_band_assemble bit for bit. */
void mb_blocktri_assemble(mb_blocktri *T, const mb_nodes *s, const mb_jacobian *J, double h);
/* The stages of an assembly, block by block as the force models produce them
 * (mb_blocktri_assemble; linsys_sink.c): A = M; A(r, c) = A(r, c) - (h C + h^2 K)
 * (|r - c| <= 1; mb_blocktri_add, made of mb_blocktri_sub); mb_blocktri_finish.
 * mb_blocktri_begin writes M into every block (zero off the diagonal).
 * mb_blocktri_begin_unset writes nothing: each block is set by its first term from its
 * start value, M's diagonal block or +0 (mb_blocktri_from), which are the very operations
 * on the very values an assembly from M makes, and mb_blocktri_finish gives the blocks no
 * term reached their start values.  One write of each block instead of two. */
void mb_blocktri_begin(mb_blocktri *T, const mb_nodes *s);
void mb_blocktri_begin_unset(mb_blocktri *T, const mb_nodes *s);
/* Where the present value of block A(r, c) is read from, blk the block and which its bit
 * (MB_BLOCKTRI_SET_D, _L or _U): blk itself once set in this assembly; else the block is
 * marked set by this, its first term, and its start value is returned -- diag(m_r) written
 * into start on the diagonal, mb_blocktri_zero off it.  The caller then writes blk from
 * that value (blk may be the value returned: read each entry before writing it). */
/* 1 when block `which` (MB_BLOCKTRI_SET_D, _L or _U) of node r gets its first term of
 * this assembly now, and marks it set; 0 when it was set already */
static inline int mb_blocktri_first(mb_blocktri *T, size_t r, unsigned which)
{
    if (T->set[r] & which)
        return 0;
    T->set[r] |= (unsigned char)which;
    T->nset++;
    return 1;
}
static inline const double *mb_blocktri_from(mb_blocktri *T, size_t r, unsigned which,
                                             const double *blk, double start[9])
{
    if (!mb_blocktri_first(T, r, which))
        return blk;
    if (which != MB_BLOCKTRI_SET_D)
        return mb_blocktri_zero;
    mb_blocktri_mass_block(T->mass[r], start);
    return start;
}
/* The diagonal block A(r, r), its start value written into it at its first term */
double *mb_blocktri_diagonal(mb_blocktri *T, size_t r);
/* A(r, c) = A(r, c) - G entry by entry, G = h C + h^2 K formed by the caller
 * (mb_linsys_block_g; a negated block passes -G) */
static inline void mb_blocktri_sub(mb_blocktri *T, size_t r, size_t c, const double G[9])
{
    double *A = r == c ? &T->D[9 * r] : c < r ? &T->L[9 * r] : &T->U[9 * r], start[9];
    unsigned which = r == c ? MB_BLOCKTRI_SET_D : c < r ? MB_BLOCKTRI_SET_L : MB_BLOCKTRI_SET_U;
    const double *F = mb_blocktri_from(T, r, which, A, start);
    for (int k = 0; k < 9; k++)
        A[k] = F[k] - G[k];
}
static inline void mb_blocktri_add(mb_blocktri *T, size_t r, size_t c, const double C[9],
                                   const double K[9], double h, double h2)
{
    double G[9];
    mb_linsys_block_g(C, K, h, h2, G);
    mb_blocktri_sub(T, r, c, G);
}
/* After the last term: the blocks of A no term reached given their start values, then
 * the rows of fixed degrees of freedom (as mb_band_assemble). */
void mb_blocktri_finish(mb_blocktri *T, const mb_nodes *s);
/* The same when the nodes with a fixed degree of freedom are known: exactly the nfixed
 * nodes fixed[0..nfixed) (mb_linsys_sink_finish); the others are not scanned. */
void mb_blocktri_finish_fixed(mb_blocktri *T, const mb_nodes *s, const size_t *fixed,
                              size_t nfixed);
/* Factor and solve A x = b (x must not alias b).  MB_ESINGULAR when a pivot block fails
 * the acceptance test above or x is not finite: then solve with a pivoting solver. */
int mb_blocktri_solve(mb_blocktri *T, const double *b, double *x);
/* The same, and as each x_i comes in the backward sweep, y+_i = y_i + x_i h entry by entry
 * (the product, then the sum) into y_new (3n values, aliasing none of the others);
 * *nonfinite = the sum of y+ - y+ over them, +0 when every y+ is finite, NaN otherwise.
 * On MB_ESINGULAR (x not finite, or a pivot block refused) y_new holds nothing useful. */
int mb_blocktri_solve_axpy(mb_blocktri *T, const double *b, double *x, const double *y,
                           double h, double *y_new, double *nonfinite);

/* ---- Jacobi-preconditioned Krylov solvers on the CSR matrix (double) ---- */

typedef struct mb_krylov {
    size_t n;
    double rtol;            /* stop when |b - A x|_2 <= rtol |b|_2 */
    unsigned long max_iter;
    unsigned long iterations_last;
    double residual_last;   /* true |b - A x|_2 / |b|_2 after the last solve */
    double *dinv;           /* Jacobi preconditioner 1/A_kk */
    double *r, *rhat, *p, *v, *s, *t, *phat, *shat;
    struct mb_sgs_node *sgs; /* the SGS sweeps' node records, lower then upper (allocated
                              * at the first SGS solve, 2 per node) */
} mb_krylov;

mb_krylov *mb_krylov_alloc(size_t n, double rtol, unsigned long max_iter);
void mb_krylov_free(mb_krylov *k);
/* dinv = 1 / diag(A); MB_ESINGULAR when a diagonal entry is 0 */
int mb_krylov_jacobi(mb_krylov *k, const mb_csr *A);
/* Solve A x = b (x: initial guess on entry).  MB_EMAXITER when the tolerance is not
 * reached in max_iter iterations, MB_ESINGULAR on a breakdown that restarting cannot
 * cure, MB_EDIVERGED on NaN/Inf.  Both call mb_krylov_jacobi themselves. */
int mb_bicgstab_solve(mb_krylov *k, const mb_csr *A, const double *b, double *x);
int mb_pcg_solve(mb_krylov *k, const mb_csr *A, const double *b, double *x);
/* The same as mb_bicgstab_solve, preconditioned by symmetric Gauss-Seidel in Eisenstat's
 * split form (linsolve_bicgstab_sgs.c); the same workspace, and the sweeps' node records
 * (k->sgs, allocated at its first call). */
int mb_bicgstab_sgs_solve(mb_krylov *k, const mb_csr *A, const double *b, double *x);
/* What a symmetric Gauss-Seidel sweep reads of node i's diagonal block G, one record per
 * node and sweep (linsolve_sgs_nodes.c): 1 / G's diagonal, the off-diagonal entries of the
 * inverse of its lower (t10 t20 t21) or upper (t01 t02 t12) triangle, and G's diagonal. */
typedef struct mb_sgs_node {
    double d[3], t[3], g[3];
} mb_sgs_node;
/* dinv = 1 / diag(A) and the records of every node for the forward (lower) and backward
 * (upper) sweeps; MB_ESINGULAR when a diagonal entry is 0 or not finite */
int mb_csr_sgs_nodes(const mb_csr *c, double *dinv, mb_sgs_node *lower, mb_sgs_node *upper);
/* The symmetric Gauss-Seidel splitting A = L + D + U of the block storage by scalar
 * entries (linsolve_sgs.c), with the records of mb_csr_sgs_nodes: z = (D + L)^-1 r and
 * z = (D + U)^-1 r (z may be r); y = D (D + L)^-1 A (D + U)^-1 x by Eisenstat's trick (t:
 * scratch, y may not be x or t), with *yw = w.y and (yy not NULL) *yy = y.y. */
void mb_csr_sgs_lower(const mb_csr *c, const mb_sgs_node *lower, const double *r, double *z);
void mb_csr_sgs_upper(const mb_csr *c, const mb_sgs_node *upper, const double *r, double *z);
void mb_csr_eisenstat(const mb_csr *c, const mb_sgs_node *lower, const mb_sgs_node *upper,
                      const double *x, double *t, double *y, const double *w, double *yw,
                      double *yy);
/* The sweeps' form: their block sums in lanes of four (AVX2 or the x86-64 baseline) or of
 * eight (AVX-512F, the default where the processor has it), the same bits in both
 * (linsolve_sgs.c).  lanes 4 or 8 chooses it (8 only where the processor has AVX-512F),
 * any other value leaves it; returns the form in use. */
int mb_csr_sgs_lanes(int lanes);
/* r = b - A x with each row's column blocks summed in the sweeps' lanes (linsolve_sgs.c;
 * the same value as mb_krylov_residual's up to round-off); returns |r|_2 */
double mb_csr_sgs_residual(const mb_csr *c, const double *b, const double *x, double *r);
/* helpers shared by the solvers */
double mb_krylov_dot(const double *a, const double *b, size_t n);
/* r = b - A x, returns |r|_2 */
double mb_krylov_residual(const mb_csr *A, const double *b, const double *x, double *r);

/* ---- GMRES (GSL) on the CSR matrix (double) ---- */

typedef struct mb_gmres {
    size_t n, restart;
    double rtol;            /* stop when |b - A x| <= rtol |b| */
    unsigned long max_cycles; /* restart cycles before MB_EMAXITER */
    unsigned long cycles_last; /* cycles used by the last solve */
    double residual_last;   /* |b - A x| after the last solve */
    gsl_splinalg_itersolve *w;
    gsl_vector *b, *x;
} mb_gmres;

mb_gmres *mb_gmres_alloc(size_t n, size_t restart, double rtol, unsigned long max_cycles);
void mb_gmres_free(mb_gmres *g);
/* Solve A x = b, x holding the initial guess on entry.  MB_EMAXITER when the
 * tolerance is not reached, MB_EDIVERGED on NaN/Inf. */
int mb_gmres_solve(mb_gmres *g, const gsl_spmatrix *A, const double *b, double *x);

#endif
