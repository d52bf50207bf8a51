/* jacobian_source.c -- template body of the block Jacobian (see jacobian.c). */

TYPE(mb_jacobian) *FUNCTION(mb_jacobian, alloc)(size_t n_nodes, mpfr_prec_t prec)
{
    TYPE(mb_jacobian) *J = calloc(1, sizeof *J);
    if (J == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a Jacobian");
    J->n_nodes = n_nodes;
    J->prec = IS_MPFR ? prec : 53;
    return J;
}

void FUNCTION(mb_jacobian, free)(TYPE(mb_jacobian) *J)
{
    if (J == NULL)
        return;
    for (size_t k = 0; k < 9 * J->cap; k++) {
        R_CLEAR(&J->dfdx[k]);
        R_CLEAR(&J->dfdv[k]);
    }
    free(J->row);
    free(J->col);
    free(J->pair);
    free(J->dfdx);
    free(J->dfdv);
    free(J);
}

void FUNCTION(mb_jacobian, clear)(TYPE(mb_jacobian) *J) { J->count = 0; }

/* Grow capacity geometrically; new MPFR elements are initialised once and reused, so
 * after the first step of a run no further allocation happens. */
static int FUNCTION(jacobian, grow)(TYPE(mb_jacobian) *J)
{
    size_t cap = J->cap ? 2 * J->cap : 64;
    size_t *row = realloc(J->row, cap * sizeof *row);
    if (row) J->row = row;
    size_t *col = realloc(J->col, cap * sizeof *col);
    if (col) J->col = col;
    unsigned char *pair = realloc(J->pair, cap);
    if (pair) J->pair = pair;
    REAL *dfdx = realloc(J->dfdx, 9 * cap * sizeof *dfdx);
    if (dfdx) J->dfdx = dfdx;
    REAL *dfdv = realloc(J->dfdv, 9 * cap * sizeof *dfdv);
    if (dfdv) J->dfdv = dfdv;
    if (!row || !col || !pair || !dfdx || !dfdv)
        MB_ERROR(MB_ENOMEM, "cannot grow the Jacobian to %zu blocks", cap);
    for (size_t k = 9 * J->cap; k < 9 * cap; k++) {
        R_INIT(&J->dfdx[k], J->prec);
        R_INIT(&J->dfdv[k], J->prec);
    }
    J->cap = cap;
    return MB_SUCCESS;
}

long FUNCTION(mb_jacobian, append_block)(TYPE(mb_jacobian) *J, size_t row, size_t col)
{
    if (J->count == J->cap && FUNCTION(jacobian, grow)(J) != MB_SUCCESS)
        return -1;
    size_t b = J->count++;
    J->row[b] = row;
    J->col[b] = col;
    J->pair[b] = 0;
    return (long)b;
}

void FUNCTION(mb_jacobian, mark_pair)(TYPE(mb_jacobian) *J, size_t b)
{
    J->pair[b] = 1;
}

long FUNCTION(mb_jacobian, add_block)(TYPE(mb_jacobian) *J, size_t row, size_t col)
{
    long b = FUNCTION(mb_jacobian, append_block)(J, row, col);
    if (b < 0)
        return -1;
    for (int k = 0; k < 9; k++) {
        R_SET_D(&J->dfdx[9 * b + k], 0.0);
        R_SET_D(&J->dfdv[9 * b + k], 0.0);
    }
    return b;
}
