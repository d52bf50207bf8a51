/* mb_jacobian.h -- force Jacobians df/dx and df/dv as a list of 3x3 node blocks.
 *
 * Force models append their blocks; the implicit schemes assemble them into a dense
 * GSL matrix, a sparse gsl_spmatrix, or an MPFR dense matrix for the twins. */
#ifndef MB_JACOBIAN_H
#define MB_JACOBIAN_H

#include <stddef.h>
#include <mpfr.h>

/* ---- double ---- */
typedef struct mb_jacobian {
    size_t n_nodes;         /* the system has 3 n_nodes translational unknowns */
    size_t count, cap;      /* blocks in use / allocated */
    mpfr_prec_t prec;
    size_t *row, *col;      /* node indices: block is d f_row / d (x|v)_col */
    unsigned char *pair;    /* per block: 1 on the first of a two-node element's four
                             * blocks (mb_jacobian_mark_pair), else 0 */
    double *dfdx;           /* 9 per block, row-major */
    double *dfdv;           /* 9 per block, row-major */
} mb_jacobian;

mb_jacobian *mb_jacobian_alloc(size_t n_nodes, mpfr_prec_t prec);
void mb_jacobian_free(mb_jacobian *J);
void mb_jacobian_clear(mb_jacobian *J);
/* Append a zeroed block (row, col) and return its index, or -1 when out of memory.
 * Repeated (row, col) pairs are summed by whoever assembles the matrix. */
long mb_jacobian_add_block(mb_jacobian *J, size_t row, size_t col);
/* Append a block (row, col) whose 18 values the caller sets (they hold stale numbers);
 * its index, or -1 when out of memory. */
long mb_jacobian_append_block(mb_jacobian *J, size_t row, size_t col);
/* Mark blocks b .. b + 3 as the four blocks of a two-node element, i != j, in the order
 * (i, i) -X, (i, j) X, (j, i) X, (j, j) -X, X = (K, C): their terms of the right-hand side
 * are formed together, h C (v_j - v_i) (mb_linsys_be_rhs).  Only a model that hands
 * these blocks to an assembly into the solver's storage as a pair (mb_linsys_sink_pair,
 * which forms them alike) may mark them: the springs. */
void mb_jacobian_mark_pair(mb_jacobian *J, size_t b);

/* ---- MPFR (same layout; every number an mpfr_t of precision prec) ---- */
typedef struct mb_jacobian_mpfr {
    size_t n_nodes;         /* the system has 3 n_nodes translational unknowns */
    size_t count, cap;      /* blocks in use / allocated */
    mpfr_prec_t prec;
    size_t *row, *col;      /* node indices: block is d f_row / d (x|v)_col */
    unsigned char *pair;    /* per block: 1 on the first of a two-node element's four
                             * blocks (mb_jacobian_mpfr_mark_pair), else 0 */
    mpfr_ptr dfdx;          /* 9 per block, row-major */
    mpfr_ptr dfdv;          /* 9 per block, row-major */
} mb_jacobian_mpfr;

mb_jacobian_mpfr *mb_jacobian_mpfr_alloc(size_t n_nodes, mpfr_prec_t prec);
void mb_jacobian_mpfr_free(mb_jacobian_mpfr *J);
void mb_jacobian_mpfr_clear(mb_jacobian_mpfr *J);
/* Append a zeroed block (row, col) and return its index, or -1 when out of memory.
 * Repeated (row, col) pairs are summed by whoever assembles the matrix. */
long mb_jacobian_mpfr_add_block(mb_jacobian_mpfr *J, size_t row, size_t col);
/* Append a block (row, col) whose 18 values the caller sets (they hold stale numbers);
 * its index, or -1 when out of memory. */
long mb_jacobian_mpfr_append_block(mb_jacobian_mpfr *J, size_t row, size_t col);
/* as mb_jacobian_mark_pair */
void mb_jacobian_mpfr_mark_pair(mb_jacobian_mpfr *J, size_t b);

#endif
