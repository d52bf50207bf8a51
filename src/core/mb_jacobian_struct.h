/* mb_jacobian_struct.h -- template of the block Jacobian; included by mb_jacobian.h. */
typedef struct TYPE(mb_jacobian) {
    size_t n_nodes;      /* the system has 3 n_nodes translational unknowns */
    size_t count, cap;   /* blocks in use / allocated */
    mpfr_prec_t prec;
    size_t *row, *col;   /* node indices: block is d f_row / d (x|v)_col */
    REAL *dfdx;          /* 9 per block, row-major */
    REAL *dfdv;          /* 9 per block, row-major */
} TYPE(mb_jacobian);

TYPE(mb_jacobian) *FUNCTION(mb_jacobian, alloc)(size_t n_nodes, mpfr_prec_t prec);
void FUNCTION(mb_jacobian, free)(TYPE(mb_jacobian) *J);
void FUNCTION(mb_jacobian, clear)(TYPE(mb_jacobian) *J);
/* Append a zeroed block (row, col) and return its index, or -1 when out of memory.
 * Repeated (row, col) pairs are summed by whoever assembles the matrix. */
long FUNCTION(mb_jacobian, add_block)(TYPE(mb_jacobian) *J, size_t row, size_t col);
