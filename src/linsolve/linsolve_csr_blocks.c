/* linsolve_csr_blocks.c -- the values of the sparse backward-Euler matrix
 * A = M - h C - h^2 K (pattern: linsolve_csr.c) as 3x3 blocks in a pool, one block shared
 * by the two mirrored blocks of a spring; A = M, the fixed rows, the product y = A x with
 * the Krylov iterations' sums, and the GSL CSR matrix for the solvers that read one.
 *
 * A spring (any two-node element, mb_linsys_sink_pair) adds the same operations to its
 * blocks (i, j) and (j, i) -- A(i, j) = (A(i, j) - h C) - h^2 K with the same C and K,
 * starting from the same +0 -- so the two hold the same bits and one pool block can serve
 * both, where nothing else writes there: every block of the list at (i, j) and (j, i) is
 * such a pair's, and neither node has a fixed degree of freedom (whose rows the
 * assembly overwrites in one of the two blocks only).  Each node row owns its diagonal
 * block, its blocks to the right of the diagonal and any block to the left that cannot
 * be shared, in column order; a block to the left of the diagonal that is shared is read
 * where its mirror's node row stored it.  A cloth node (four springs) so keeps 5 blocks
 * of values (360 bytes) where the CSR kept 9 (648 bytes), and the product streams the pool
 * once, reading the shared blocks again within about one cloth row, from cache.
 *
 * The product sums each scalar row from +0 in the order of its column blocks, entry by
 * entry, s += a x: the operations of the CSR product of these values, hence its bits. */
#include "mb_linsolve.h"

#include <stdlib.h>
#include <string.h>

/* node row r's column block p: a pool block of its own, or its mirror's (the mirror's
 * node row comes first, col < r) */
static uint32_t layout_block(mb_csr *c, size_t r, size_t p, unsigned char *own,
                             const unsigned char *fixed, uint32_t *next)
{
    size_t col = c->ncol[p];
    if (col < r && !own[p] && !fixed[r] && !fixed[col]) {
        size_t m = mb_csr_position(c, col, r);
        if (m != SIZE_MAX && !own[m]) {
            own[p] = own[m] = 2;
            c->shares[r] = c->shares[col] = 1;
            c->n_shared++;
            return c->cref[m];
        }
    }
    return (*next)++;
}

void mb_csr_blocks_layout(mb_csr *c, unsigned char *own, const unsigned char *fixed)
{
    size_t n = c->n_nodes;
    uint32_t next = 0;
    c->n_shared = 0;
    memset(c->shares, 0, n + 1);
    for (size_t r = 0; r < n; r++) {
        c->pstart[r] = next;
        for (size_t p = c->cstart[r]; p < c->cstart[r + 1]; p++) {
            c->cref[p] = layout_block(c, r, p, own, fixed, &next);
            if (c->ncol[p] == r)
                c->dblk[r] = c->cref[p];
        }
    }
    c->pstart[n] = next;
    c->n_pool = next;
}

/* A = M: every block zeroed, the masses on the diagonal.  The nodes' own blocks are
 * adjacent in the pool and cover it (pstart[0] = 0, pstart[n] = n_pool), so the pool is
 * zeroed by one call rather than one a node, which at a thousand nodes cost more than the
 * zeroing. */
void mb_csr_begin(mb_csr *c, const mb_nodes *s)
{
    memset(c->pool, 0, 9 * c->n_pool * sizeof(double));
    for (size_t r = 0; r < c->n_nodes; r++) {
        double *d = &c->pool[9 * (size_t)c->dblk[r]];
        d[0] = d[4] = d[8] = s->mass[r];
    }
}

int mb_csr_fix_rows(mb_csr *c, const mb_nodes *s)
{
    for (size_t r = 0; r < c->n_nodes; r++) {
        if (!mb_linsys_node_fixed_inline(s, r))
            continue;
        if (c->shares[r])
            return 0;
        for (size_t a = 0; a < 3; a++) {
            if (!mb_linsys_fixed(s, 3 * r + a))
                continue;
            for (size_t p = c->cstart[r]; p < c->cstart[r + 1]; p++)
                memset(&c->pool[9 * (size_t)c->cref[p] + 3 * a], 0, 3 * sizeof(double));
            c->pool[9 * (size_t)c->dblk[r] + 4 * a] = s->inv_mass[r] == 0.0 ? 1.0 : s->mass[r];
        }
    }
    return 1;
}

/* y = A x, each scalar row summed from +0 in the order of its entries, sum += a x.  The
 * three rows of a node share their column blocks, so they are summed side by side, and a
 * node's rows beside the next node's when both have as many column blocks: six
 * independent chains of additions instead of one, the very operations of each row in its
 * order, hence the same bits as a row at a time.  A column block reads its column node
 * and its pool block (4 bytes each) and the block's nine values. */
static inline __attribute__((always_inline)) void
rows_of_node(const mb_csr *c, size_t r, const double *x, double *y)
{
    const size_t p0 = c->cstart[r], q = c->cstart[r + 1] - p0;
    const uint32_t *col = &c->ncol[p0], *ref = &c->cref[p0];
    double s0 = 0.0, s1 = 0.0, s2 = 0.0;
    for (size_t j = 0; j < q; j++) {
        const double *xc = &x[3 * (size_t)col[j]], *B = &c->pool[9 * (size_t)ref[j]];
        for (size_t e = 0; e < 3; e++) {
            s0 += B[e] * xc[e];
            s1 += B[3 + e] * xc[e];
            s2 += B[6 + e] * xc[e];
        }
    }
    y[3 * r] = s0;
    y[3 * r + 1] = s1;
    y[3 * r + 2] = s2;
}

/* The rows of nodes r and r + 1, which have q column blocks each. */
static inline __attribute__((always_inline)) void
rows_of_two_nodes(const mb_csr *c, size_t r, size_t q, const double *x, double *y)
{
    const size_t p0 = c->cstart[r];
    const uint32_t *col = &c->ncol[p0], *col1 = col + q;
    const uint32_t *ref = &c->cref[p0], *ref1 = ref + q;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0;
    for (size_t j = 0; j < q; j++) {
        const double *xc = &x[3 * (size_t)col[j]], *xd = &x[3 * (size_t)col1[j]];
        const double *B = &c->pool[9 * (size_t)ref[j]], *E = &c->pool[9 * (size_t)ref1[j]];
        for (size_t e = 0; e < 3; e++) {
            s0 += B[e] * xc[e];
            s1 += B[3 + e] * xc[e];
            s2 += B[6 + e] * xc[e];
            s3 += E[e] * xd[e];
            s4 += E[3 + e] * xd[e];
            s5 += E[6 + e] * xd[e];
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
product_sums(const double *y, const double *w, size_t k0, size_t k1, int want_w, int want_yy,
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
 * the sums of product_sums, in the order of the rows.  Inlined with constant flags, so
 * each caller gets a loop of its own without tests inside. */
static inline __attribute__((always_inline)) void
product(const mb_csr *c, const double *x, double *y, const double *w, int want_w,
        int want_yy, double *yw_out, double *yy_out)
{
    double yw = 0.0, yy = 0.0;
    const size_t *cs = c->cstart;
    size_t r = 0;
    for (; r + 1 < c->n_nodes; r++) {
        size_t q = cs[r + 1] - cs[r];
        if (q == cs[r + 2] - cs[r + 1]) {
            rows_of_two_nodes(c, r, q, x, y);
            product_sums(y, w, 3 * r, 3 * r + 6, want_w, want_yy, &yw, &yy);
            r++;
        } else {
            rows_of_node(c, r, x, y);
            product_sums(y, w, 3 * r, 3 * r + 3, want_w, want_yy, &yw, &yy);
        }
    }
    if (r < c->n_nodes) {
        rows_of_node(c, r, x, y);
        product_sums(y, w, 3 * r, 3 * r + 3, want_w, want_yy, &yw, &yy);
    }
    if (want_w)
        *yw_out = yw;
    if (want_yy)
        *yy_out = yy;
}

void mb_csr_matvec(const mb_csr *c, const double *x, double *y)
{
    product(c, x, y, NULL, 0, 0, NULL, NULL);
}

void mb_csr_matvec_dots(const mb_csr *c, const double *x, double *y, const double *w,
                        double *yw, double *yy)
{
    if (yy == NULL)
        product(c, x, y, w, 1, 0, yw, NULL);
    else
        product(c, x, y, w, 1, 1, yw, yy);
}

/* the GSL matrix's structure: row 3 r + a holds (3 c_j + e), j = 1..q, e = 0..2 */
static gsl_spmatrix *spmatrix_alloc(const mb_csr *c)
{
    size_t n = c->n_nodes, nnz = 9 * c->cstart[n];
    gsl_spmatrix *A = gsl_spmatrix_alloc_nzmax(3 * n, 3 * n, nnz ? nnz : 1, GSL_SPMATRIX_CSR);
    if (A == NULL)
        return NULL;
    for (size_t r = 0; r < n; r++) {
        size_t p0 = c->cstart[r], q = c->cstart[r + 1] - p0;
        for (size_t a = 0; a < 3; a++) {
            size_t base = 9 * p0 + 3 * q * a;
            A->p[3 * r + a] = (int)base;
            for (size_t j = 0; j < q; j++)
                for (size_t e = 0; e < 3; e++)
                    A->i[base + 3 * j + e] = (int)(3 * (size_t)c->ncol[p0 + j] + e);
        }
    }
    A->p[3 * n] = (int)nnz;
    A->nz = nnz;
    return A;
}

const gsl_spmatrix *mb_csr_spmatrix(mb_csr *c)
{
    if (c->A == NULL && (c->A = spmatrix_alloc(c)) == NULL)
        return NULL;
    for (size_t r = 0; r < c->n_nodes; r++) {
        size_t p0 = c->cstart[r], q = c->cstart[r + 1] - p0;
        for (size_t a = 0; a < 3; a++) {
            double *row = &c->A->data[9 * p0 + 3 * q * a];
            for (size_t j = 0; j < q; j++)
                memcpy(&row[3 * j], &c->pool[9 * (size_t)c->cref[p0 + j] + 3 * a],
                       3 * sizeof(double));
        }
    }
    return c->A;
}
