/* linsolve_csr.c -- the backward-Euler matrix A = M - h C - h^2 K assembled directly into
 * a CSR gsl_spmatrix from the block Jacobian.
 *
 * The pattern is built once (and again only if the list of blocks changes): per node row
 * r the distinct column nodes c_1 < ... < c_q (the diagonal always included); scalar row
 * 3r + a holds the 3q entries (3 c_j + e), so block (r, c_j) entry (a, e) lives at
 * data[base_r + a 3q + 3j + e].  Each Jacobian block remembers its slot, so assembly is
 * one pass over the blocks (duplicates summed in list order) -- linear in their number,
 * with no allocation and no searching after the first step. */
#include "mb_linsolve.h"
#include "mb_status.h"

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
    free(c->boff);
    free(c->brow);
    free(c->bcol);
    free(c->stride);
    free(c->doff);
    free(c->ncol);
    if (c->A)
        gsl_spmatrix_free(c->A);
    c->boff = c->stride = c->doff = NULL;
    c->brow = c->bcol = c->ncol = NULL;
    c->A = NULL;
    c->n_nodes = c->n_blocks = 0;
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

/* index of col in the sorted list a[0..q) (present by construction) */
static size_t find_col(const size_t *a, size_t q, size_t col)
{
    size_t lo = 0, hi = q;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (a[mid] <= col)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int mb_csr_pattern(mb_csr *c, const mb_jacobian *J)
{
    size_t nb = J->count;
    size_t *row = malloc((nb + 1) * sizeof *row), *col = malloc((nb + 1) * sizeof *col);
    if (row && col) {
        memcpy(row, J->row, nb * sizeof *row);
        memcpy(col, J->col, nb * sizeof *col);
    }
    return mb_csr_pattern_adopt(c, J->n_nodes, nb, row, col);
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

int mb_csr_pattern_adopt(mb_csr *c, size_t n, size_t nb, size_t *row, size_t *col)
{
    csr_release(c);
    size_t *start = calloc(n + 1, sizeof *start), *cols = malloc((n + nb + 1) * sizeof *cols);
    size_t *fill = calloc(n + 1, sizeof *fill), *q = calloc(n + 1, sizeof *q);
    c->boff = malloc((nb + 1) * sizeof *c->boff);
    c->brow = malloc((nb + 1) * sizeof *c->brow);
    c->bcol = malloc((nb + 1) * sizeof *c->bcol);
    c->stride = malloc((n + 1) * sizeof *c->stride);
    c->doff = malloc((n + 1) * sizeof *c->doff);
    int st = MB_SUCCESS;
    if (!start || !cols || !fill || !q || !row || !col || !c->boff || !c->brow || !c->bcol
        || !c->stride || !c->doff) {
        st = MB_ENOMEM;
        goto done;
    }
    csr_columns(n, nb, row, col, start, fill, cols, q);
    size_t nnz = 0;
    for (size_t r = 0; r < n; r++) {                  /* the slots, before the values */
        c->stride[r] = 3 * q[r];
        c->doff[r] = nnz + 3 * find_col(&cols[start[r]], q[r], r);
        nnz += 9 * q[r];
    }
    for (size_t b = 0; b < nb; b++) {
        size_t r = row[b];
        c->boff[b] = c->doff[r] - 3 * find_col(&cols[start[r]], q[r], r)
                   + 3 * find_col(&cols[start[r]], q[r], col[b]);
        c->brow[b] = (uint32_t)r;
        c->bcol[b] = (uint32_t)col[b];
    }
    free(row);
    free(col);
    row = col = NULL;
    if (nnz > (size_t)INT_MAX) {       /* GSL's CSR indices are int */
        st = MB_EDOM;
        goto done;
    }
    if ((c->ncol = malloc((nnz / 9 + 1) * sizeof *c->ncol)) == NULL) {  /* sum of the q */
        st = MB_ENOMEM;
        goto done;
    }
    c->A = gsl_spmatrix_alloc_nzmax(3 * n, 3 * n, nnz ? nnz : 1, GSL_SPMATRIX_CSR);
    if (c->A == NULL) {
        st = MB_ENOMEM;
        goto done;
    }
    size_t base = 0;
    for (size_t r = 0; r < n; r++) {
        for (size_t j = 0; j < q[r]; j++)
            c->ncol[base / 9 + j] = (uint32_t)cols[start[r] + j];
        for (int a = 0; a < 3; a++) {
            c->A->p[3 * r + a] = (int)(base + (size_t)a * 3 * q[r]);
            for (size_t j = 0; j < q[r]; j++)
                for (int e = 0; e < 3; e++)
                    c->A->i[base + (size_t)a * 3 * q[r] + 3 * j + e] = (int)(3 * cols[start[r] + j] + e);
        }
        base += 9 * q[r];
    }
    c->A->p[3 * n] = (int)nnz;
    c->A->nz = nnz;
    c->n_nodes = n;
    c->n_blocks = nb;
done:
    free(row);
    free(col);
    free(start);
    free(cols);
    free(fill);
    free(q);
    if (st != MB_SUCCESS) {
        csr_release(c);
        MB_ERROR(st, "cannot build the sparse pattern of %zu blocks on %zu nodes", nb, n);
    }
    return MB_SUCCESS;
}

int mb_csr_matches(const mb_csr *c, const mb_jacobian *J)
{
    if (c->A == NULL || c->n_nodes != J->n_nodes || c->n_blocks != J->count)
        return 0;
    for (size_t b = 0; b < J->count; b++)
        if (J->row[b] >= c->n_nodes || !mb_csr_slot_is(c, b, J->row[b], J->col[b]))
            return 0;
    return 1;
}

/* A = M: the values zeroed and the masses on the diagonal (the start of every entry) */
void mb_csr_begin(mb_csr *c, const mb_nodes *s)
{
    double *data = c->A->data;
    const int *p = c->A->p;
    for (size_t r = 0; r < c->n_nodes; r++) {   /* one pass: a node's three rows are adjacent */
        memset(&data[p[3 * r]], 0, (size_t)(p[3 * r + 3] - p[3 * r]) * sizeof(double));
        for (int a = 0; a < 3; a++)
            data[c->doff[r] + (size_t)a * c->stride[r] + (size_t)a] = s->mass[r];
    }
}

/* the rows of fixed degrees of freedom: d e_k^T, d = mass (1 for infinite mass), as
 * mb_linsys_dense */
void mb_csr_fix_rows(mb_csr *c, const mb_nodes *s)
{
    double *data = c->A->data;
    for (size_t k = 0; k < 3 * c->n_nodes; k++)
        if (mb_linsys_node_fixed_inline(s, k / 3) && mb_linsys_fixed(s, k)) {
            for (int p = c->A->p[k]; p < c->A->p[k + 1]; p++)
                data[p] = 0.0;
            data[c->doff[k / 3] + (k % 3) * c->stride[k / 3] + (k % 3)] =
                s->inv_mass[k / 3] == 0.0 ? 1.0 : s->mass[k / 3];
        }
}

/* Same entry recipe as the dense assembly: m on the diagonal, then per block
 * A -= h C_b, A -= h^2 K_b, then the diagonal rows of fixed degrees of freedom. */
void mb_csr_assemble(mb_csr *c, const mb_nodes *s, const mb_jacobian *J, double h)
{
    double h2 = h * h;
    mb_csr_begin(c, s);
    for (size_t b = 0; b < J->count; b++)
        mb_csr_add(c, b, J->row[b], &J->dfdv[9 * b], &J->dfdx[9 * b], h, h2);
    mb_csr_fix_rows(c, s);
}

/* y = A x, each scalar row summed from +0 in the order of its entries, sum += a_p x_(i_p).
 * The three rows of a node share their columns (the pattern above), so they are summed
 * side by side, and a node's rows beside the next node's when both have as many entries:
 * six independent chains of additions instead of one, the very operations of each row
 * in its order, hence the same bits as a row at a time.  A column block (3 c_j .. 3 c_j
 * + 2) reads one index, its column node in ncol: 4 bytes where the scalar indices of the
 * node's three rows take 36 (a third of a matrix-vector product's memory traffic). */
static inline __attribute__((always_inline)) void
csr_rows_of_node(const mb_csr *c, size_t r, const double *x, double *y)
{
    const gsl_spmatrix *A = c->A;
    const size_t len = c->stride[r], base = (size_t)A->p[3 * r];
    const double *d0 = &A->data[base], *d1 = d0 + len, *d2 = d1 + len;
    const uint32_t *col = &c->ncol[base / 9];
    double s0 = 0.0, s1 = 0.0, s2 = 0.0;
    for (size_t p = 0; p < len; p += 3) {
        const double *xc = &x[3 * (size_t)col[p / 3]];
        for (size_t e = 0; e < 3; e++) {
            s0 += d0[p + e] * xc[e];
            s1 += d1[p + e] * xc[e];
            s2 += d2[p + e] * xc[e];
        }
    }
    y[3 * r] = s0;
    y[3 * r + 1] = s1;
    y[3 * r + 2] = s2;
}

/* The rows of nodes r and r + 1, which have len entries each. */
static inline __attribute__((always_inline)) void
csr_rows_of_two_nodes(const mb_csr *c, size_t r, size_t len, const double *x, double *y)
{
    const gsl_spmatrix *A = c->A;
    const size_t base = (size_t)A->p[3 * r];
    const double *d0 = &A->data[base], *d1 = d0 + len, *d2 = d1 + len;
    const double *d3 = d2 + len, *d4 = d3 + len, *d5 = d4 + len;
    const uint32_t *col = &c->ncol[base / 9], *col1 = col + len / 3;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0;
    for (size_t p = 0; p < len; p += 3) {
        const double *xc = &x[3 * (size_t)col[p / 3]], *xd = &x[3 * (size_t)col1[p / 3]];
        for (size_t e = 0; e < 3; e++) {
            s0 += d0[p + e] * xc[e];
            s1 += d1[p + e] * xc[e];
            s2 += d2[p + e] * xc[e];
            s3 += d3[p + e] * xd[e];
            s4 += d4[p + e] * xd[e];
            s5 += d5[p + e] * xd[e];
        }
    }
    y[3 * r] = s0;
    y[3 * r + 1] = s1;
    y[3 * r + 2] = s2;
    y[3 * r + 3] = s3;
    y[3 * r + 4] = s4;
    y[3 * r + 5] = s5;
}

/* The sums a Krylov iteration forms from y = A x, taken while y[k0 .. k1) is still in
 * registers and cache: yw += w_k y_k and yy += y_k y_k in ascending k, so each is the
 * very sum mb_krylov_dot forms (the same bits) without a pass of its own over y. */
static inline __attribute__((always_inline)) void
csr_sums(const double *y, const double *w, size_t k0, size_t k1, int want_w, int want_yy,
         double *yw, double *yy)
{
    for (size_t k = k0; k < k1; k++) {
        if (want_w)
            *yw += w[k] * y[k];
        if (want_yy)
            *yy += y[k] * y[k];
    }
}

/* y = A x node by node (pairs of equal length side by side); with want_w / want_yy also
 * the sums of csr_sums, in the order of the rows.  Inlined with constant flags, so each
 * caller gets a loop of its own without tests inside. */
static inline __attribute__((always_inline)) void
csr_product(const mb_csr *c, const double *x, double *y, const double *w, int want_w,
            int want_yy, double *yw_out, double *yy_out)
{
    double yw = 0.0, yy = 0.0;
    size_t r = 0;
    for (; r + 1 < c->n_nodes; r++) {
        if (c->stride[r] == c->stride[r + 1]) {
            csr_rows_of_two_nodes(c, r, c->stride[r], x, y);
            csr_sums(y, w, 3 * r, 3 * r + 6, want_w, want_yy, &yw, &yy);
            r++;
        } else {
            csr_rows_of_node(c, r, x, y);
            csr_sums(y, w, 3 * r, 3 * r + 3, want_w, want_yy, &yw, &yy);
        }
    }
    if (r < c->n_nodes) {
        csr_rows_of_node(c, r, x, y);
        csr_sums(y, w, 3 * r, 3 * r + 3, want_w, want_yy, &yw, &yy);
    }
    if (want_w)
        *yw_out = yw;
    if (want_yy)
        *yy_out = yy;
}

void mb_csr_matvec(const mb_csr *c, const double *x, double *y)
{
    csr_product(c, x, y, NULL, 0, 0, NULL, NULL);
}

void mb_csr_matvec_dots(const mb_csr *c, const double *x, double *y, const double *w,
                        double *yw, double *yy)
{
    if (yy == NULL)
        csr_product(c, x, y, w, 1, 0, yw, NULL);
    else
        csr_product(c, x, y, w, 1, 1, yw, yy);
}
