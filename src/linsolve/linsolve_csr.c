/* linsolve_csr.c -- the pattern of the backward-Euler matrix A = M - h C - h^2 K in
 * compressed sparse block rows, and its assembly from a list of Jacobian blocks.
 *
 * The pattern is built once (and again only if the list of blocks changes): per node row
 * r the distinct column nodes c_1 < ... < c_q (the diagonal always included), its column
 * blocks; scalar row 3r + a holds the 3q entries (3 c_j + e) (mb_csr_spmatrix).  Each
 * column block names its 3x3 block of values in a pool, where a spring's two mirrored
 * blocks may share one (linsolve_csr_blocks.c), and each Jacobian block of the list
 * remembers its pool block, so assembly is one pass over the blocks (duplicates summed
 * in list order) -- linear in their number, with no allocation and no searching after
 * the first step. */
#include "mb_linsolve.h"
#include "mb_status.h"
#include "mb_index_search.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

mb_csr *mb_csr_alloc(void)
{
    mb_csr *c = calloc(1, sizeof *c);
    if (c == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    return c;
}

static void csr_release(mb_csr *c)
{
    free(c->bblk);
    free(c->bshared);
    free(c->brow);
    free(c->bcol);
    free(c->cstart);
    free(c->ncol);
    free(c->cref);
    free(c->dblk);
    free(c->pstart);
    free(c->shares);
    free(c->pool);
    if (c->A)
        gsl_spmatrix_free(c->A);
    *c = (mb_csr){ 0 };
}

void mb_csr_free(mb_csr *c)
{
    if (c == NULL)
        return;
    csr_release(c);
    free(c);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

int mb_csr_pattern(mb_csr *c, const mb_jacobian *J)
{
    size_t nb = J->count;
    size_t *row = malloc((nb + 1) * sizeof *row), *col = malloc((nb + 1) * sizeof *col);
    if (row && col) {
        memcpy(row, J->row, nb * sizeof *row);
        memcpy(col, J->col, nb * sizeof *col);
    }
    return mb_csr_pattern_adopt(c, J->n_nodes, nb, row, col, NULL, NULL);
}

/* Per node row r the sorted distinct column nodes cols[start[r] .. start[r] + q[r]) of
 * the blocks (row, col) and of the diagonal block. */
static void csr_columns(size_t n, size_t nb, const size_t *row, const size_t *col,
                        size_t *start, size_t *fill, size_t *cols, size_t *q)
{
    for (size_t b = 0; b < nb; b++)
        start[row[b] + 1]++;
    for (size_t r = 0; r < n; r++)
        start[r + 1] += start[r] + 1;                 /* +1: the diagonal block */
    for (size_t r = 0; r < n; r++)
        cols[start[r] + fill[r]++] = r;
    for (size_t b = 0; b < nb; b++)
        cols[start[row[b]] + fill[row[b]]++] = col[b];
    for (size_t r = 0; r < n; r++) {                  /* sort and make unique per row */
        size_t *a = &cols[start[r]], m = start[r + 1] - start[r], u = 0;
        qsort(a, m, sizeof *a, cmp_size);
        for (size_t k = 0; k < m; k++)
            if (u == 0 || a[k] != a[u - 1])
                a[u++] = a[k];
        q[r] = u;
    }
}

size_t mb_csr_position(const mb_csr *c, size_t r, size_t col)
{
    return mb_index_find(c->ncol, c->cstart[r], c->cstart[r + 1], col);
}

/* the arrays of a pattern of nb blocks on n nodes sized by those counts alone (0 when
 * out of memory) */
static int csr_alloc_node_arrays(mb_csr *c, size_t n, size_t nb)
{
    c->bblk = malloc((nb + 1) * sizeof *c->bblk);
    c->bshared = malloc(nb + 1);
    c->brow = malloc((nb + 1) * sizeof *c->brow);
    c->bcol = malloc((nb + 1) * sizeof *c->bcol);
    c->cstart = malloc((n + 1) * sizeof *c->cstart);
    c->dblk = malloc((n + 1) * sizeof *c->dblk);
    c->pstart = malloc((n + 1) * sizeof *c->pstart);
    c->shares = malloc(n + 1);
    return c->bblk && c->bshared && c->brow && c->bcol && c->cstart && c->dblk && c->pstart
           && c->shares;
}

/* Per column block: 1 when it must keep a pool block of its own (a block of the list
 * there is not a pair's mirrored block, or pair is NULL), 0 when it may share one with
 * its mirror; per node: 1 when it has a fixed degree of freedom.  The list blocks'
 * column blocks are in c->bblk on entry. */
static void csr_sharing_marks(const mb_csr *c, size_t n, size_t nb, const unsigned char *pair,
                              const mb_nodes *s, unsigned char *own, unsigned char *fixed)
{
    size_t nq = c->cstart[n];
    memset(own, pair == NULL, nq + 1);
    for (size_t b = 0; pair != NULL && b < nb; b++)
        own[c->bblk[b]] |= pair[b] == 0;
    for (size_t r = 0; r < n; r++)
        fixed[r] = s != NULL && mb_linsys_node_fixed_inline(s, r);
}

int mb_csr_pattern_adopt(mb_csr *c, size_t n, size_t nb, size_t *row, size_t *col,
                         unsigned char *pair, const mb_nodes *s)
{
    csr_release(c);
    size_t *start = calloc(n + 1, sizeof *start), *cols = malloc((n + nb + 1) * sizeof *cols);
    size_t *fill = calloc(n + 1, sizeof *fill), *q = calloc(n + 1, sizeof *q);
    unsigned char *own = NULL, *fixed = malloc(n + 1);
    int st = MB_SUCCESS;
    if (!csr_alloc_node_arrays(c, n, nb) || !start || !cols || !fill || !q || !row || !col
        || !fixed) {
        st = MB_ENOMEM;
        goto done;
    }
    csr_columns(n, nb, row, col, start, fill, cols, q);
    size_t nq = 0;
    for (size_t r = 0; r < n; r++) {
        c->cstart[r] = nq;
        nq += q[r];
    }
    c->cstart[n] = nq;
    if (9 * nq > (size_t)INT_MAX) {    /* GSL's CSR indices are int (mb_csr_spmatrix) */
        st = MB_EDOM;
        goto done;
    }
    c->ncol = malloc((nq + 1) * sizeof *c->ncol);
    c->cref = malloc((nq + 1) * sizeof *c->cref);
    own = malloc(nq + 1);
    if (c->ncol == NULL || c->cref == NULL || own == NULL) {
        st = MB_ENOMEM;
        goto done;
    }
    for (size_t r = 0; r < n; r++)
        for (size_t j = 0; j < q[r]; j++)
            c->ncol[c->cstart[r] + j] = (uint32_t)cols[start[r] + j];
    free(start);
    free(cols);
    free(fill);
    free(q);
    start = cols = fill = q = NULL;
    c->n_nodes = n;
    for (size_t b = 0; b < nb; b++) {             /* each block's column block */
        c->bblk[b] = (uint32_t)mb_csr_position(c, row[b], col[b]);
        c->brow[b] = (uint32_t)row[b];
        c->bcol[b] = (uint32_t)col[b];
    }
    csr_sharing_marks(c, n, nb, pair, s, own, fixed);
    free(row);
    free(col);
    free(pair);
    row = col = NULL;
    pair = NULL;
    mb_csr_blocks_layout(c, own, fixed);
    for (size_t b = 0; b < nb; b++) {             /* and its pool block */
        c->bshared[b] = own[c->bblk[b]] == 2;
        c->bblk[b] = c->cref[c->bblk[b]];
    }
    if ((c->pool = malloc((9 * c->n_pool + 1) * sizeof *c->pool)) == NULL) {
        st = MB_ENOMEM;
        goto done;
    }
    c->n_blocks = nb;
done:
    free(row);
    free(col);
    free(pair);
    free(start);
    free(cols);
    free(fill);
    free(q);
    free(own);
    free(fixed);
    if (st != MB_SUCCESS) {
        csr_release(c);
        MB_ERROR(st, "cannot build the sparse pattern of %zu blocks on %zu nodes", nb, n);
    }
    return MB_SUCCESS;
}

int mb_csr_matches(const mb_csr *c, const mb_jacobian *J)
{
    if (!mb_csr_ready(c) || c->n_shared != 0 || c->n_nodes != J->n_nodes
        || c->n_blocks != J->count)
        return 0;
    for (size_t b = 0; b < J->count; b++)
        if (J->row[b] >= c->n_nodes || !mb_csr_slot_is(c, b, J->row[b], J->col[b]))
            return 0;
    return 1;
}

/* Same entry recipe as the dense assembly: m on the diagonal, then per block
 * A -= h C_b + h^2 K_b, then the diagonal rows of fixed degrees of freedom. */
void mb_csr_assemble(mb_csr *c, const mb_nodes *s, const mb_jacobian *J, double h)
{
    double h2 = h * h;
    mb_csr_begin(c, s);
    for (size_t b = 0; b < J->count; b++)
        mb_csr_add(c, b, &J->dfdv[9 * b], &J->dfdx[9 * b], h, h2);
    (void)mb_csr_fix_rows(c, s);        /* a matching pattern shares no block */
}

