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

/* ---- MPFR (same layout; every number an mpfr_t of precision prec) ---- */
typedef struct mb_jacobian_mpfr {
    size_t n_nodes;         /* the system has 3 n_nodes translational unknowns */
    size_t count, cap;      /* blocks in use / allocated */
    mpfr_prec_t prec;
    size_t *row, *col;      /* node indices: block is d f_row / d (x|v)_col */
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

#endif
