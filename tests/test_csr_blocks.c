/* test_csr_blocks.c -- the sparse backward-Euler matrix with one 3x3 block shared by a
 * spring's two mirrored blocks (linsolve_csr_blocks.c): which blocks share, the product
 * y = A x, the Jacobi diagonal and the GSL CSR matrix made from the shared blocks, and
 * the storage's refusals.
 *
 * Expected values: the dense matrix the block list gives (mb_forces_eval_jacobian,
 * mb_linsys_dense: another path, which never shares a block), and its product written
 * here, each row summed from +0 over all 3n columns in ascending order.  That sum has the
 * bits of the sparse row's sum over its pattern in the same order: the extra terms are
 * 0 x_c = +-0, and adding +-0 leaves a sum unchanged unless the sum is -0, which a sum
 * started at +0 never is (x + (-x) = +0 in round-to-nearest).  So: memcmp, no tolerance.
 * The number of shared blocks comes from the spring list: one per spring between two
 * free nodes (the cloth has no spring twice).  Negative controls: one entry of one shared
 * block moved by 2^-12 of itself changes the rows of both of its nodes; a node blocked
 * after the pattern was built, a single block handed over where a pair's mirrored blocks share, and
 * a position that a pair and a single block both write are refused or not shared. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_implicit.h"
#include "mb_linsys_sink.h"
#include "mb_status.h"
#include "mb_system.h"
#include "test_helpers.h"

#include "csr_test_fixture.h"

/* the number of rows of y and z that differ in their bits, and which nodes */
static size_t rows_differing(const double *y, const double *z, size_t n3, unsigned char *node)
{
    size_t d = 0;
    for (size_t k = 0; k < n3; k++)
        if (memcmp(&y[k], &z[k], sizeof y[k]) != 0) {
            d++;
            node[k / 3] = 1;
        }
    return d;
}

/* springs between two free nodes: the blocks the storage shares */
static size_t springs_between_free_nodes(const mb_system *sys)
{
    size_t count = 0;
    for (size_t m = 0; m < sys->forces->count; m++) {
        if (sys->forces->items[m].type != mb_force_springs)
            continue;
        const void *sp = sys->forces->items[m].params;
        const mb_spring *it = mb_springs_items(sp);
        for (size_t q = 0; q < mb_springs_count(sp); q++)
            count += !it[q].anchored && !mb_linsys_node_fixed(sys->nodes, it[q].i)
                     && !mb_linsys_node_fixed(sys->nodes, it[q].j);
    }
    return count;
}

/* The product, the Jacobi diagonal and the GSL matrix from the shared blocks against the
 * dense matrix of the block list, bit for bit; then a change of one entry of a shared
 * block shows in the rows of both its nodes, and in no other. */
static void expect_dense_product(mb_system *sys, const char *what)
{
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    double *b = malloc(n3 * sizeof *b), *x = malloc(n3 * sizeof *x);
    double *y = malloc(n3 * sizeof *y), *z = malloc(n3 * sizeof *z);
    mb_csr *C = shared_storage(sys, b);
    double *A = dense_of(sys);
    size_t springs = springs_between_free_nodes(sys);
    cr_expect_eq(C->n_shared, springs, "%s: %zu blocks shared, not one per spring between "
                 "free nodes (%zu)", what, C->n_shared, springs);
    cr_expect_eq(C->n_pool + C->n_shared, C->cstart[s->n], "%s: pool blocks", what);
    for (size_t k = 0; k < n3; k++)
        x[k] = cos(1.3 * (double)k + 0.2) * (k % 5 == 2 ? 1e6 : 1.0);
    mb_csr_matvec(C, x, y);
    dense_product(A, n3, x, z);
    unsigned char *node = calloc(s->n, 1);
    cr_expect_eq(rows_differing(y, z, n3, node), 0, "%s: the product differs from the dense one",
                 what);
    mb_krylov *kr = mb_krylov_alloc(n3, 1e-12, 10);
    cr_assert_eq(mb_krylov_jacobi(kr, C), MB_SUCCESS);
    for (size_t k = 0; k < n3; k++)
        cr_expect(kr->dinv[k] == 1.0 / A[k * n3 + k], "%s: Jacobi %zu", what, k);
    const gsl_spmatrix *G = mb_csr_spmatrix(C);
    cr_assert_not_null(G);
    size_t nonzero = 0, stored_nonzero = 0;
    for (size_t k = 0; k < n3; k++) {
        for (size_t c = 0; c < n3; c++)
            nonzero += A[k * n3 + c] != 0.0;
        for (int p = G->p[k]; p < G->p[k + 1]; p++) {
            double a = A[k * n3 + (size_t)G->i[p]];
            cr_expect(memcmp(&G->data[p], &a, sizeof a) == 0, "%s: GSL entry (%zu, %d)", what,
                      k, G->i[p]);
            stored_nonzero += G->data[p] != 0.0;
        }
    }
    cr_expect_eq(stored_nonzero, nonzero, "%s: the GSL matrix misses nonzero entries", what);
    /* control: 2^-12 of itself added to an entry of the first shared block of a lower row */
    size_t r = 0, p = 0;
    for (r = 0; r < s->n; r++) {
        for (p = C->cstart[r]; p < C->cstart[r + 1]; p++)
            if (C->ncol[p] < r && C->cref[p] < C->pstart[r])
                break;
        if (p < C->cstart[r + 1])
            break;
    }
    cr_assert_lt(r, s->n, "%s: no shared block", what);
    double *e = &C->pool[9 * (size_t)C->cref[p] + 4];
    *e += *e * 0x1p-12;
    mb_csr_matvec(C, x, y);
    memset(node, 0, s->n);
    size_t rows = rows_differing(y, z, n3, node);
    cr_expect(rows == 2 && node[r] && node[C->ncol[p]],
              "%s: control: a change at (%zu, %u) changed %zu rows", what, r, C->ncol[p], rows);
    free(node);
    mb_krylov_free(kr);
    mb_csr_free(C);
    free(A);
    free(b);
    free(x);
    free(y);
    free(z);
}

Test(csr_blocks, shared_blocks_give_the_dense_product_bit_for_bit)
{
    mb_system *sys = cloth("7", "5");
    expect_dense_product(sys, "cloth 7 x 5");
    mb_system_free(sys);
    sys = cloth("6", "6");            /* even: pairs of equal rows side by side */
    expect_dense_product(sys, "cloth 6 x 6");
    mb_system_free(sys);
}

/* A node blocked after the pattern was built, whose blocks are shared: its fixed row
 * cannot be written into a block its neighbour's row reads, so the assembly is refused
 * (the implicit step then assembles from a block list).  Control: a node blocked that
 * was already fixed (a pinned corner, which shares nothing) is accepted. */
Test(csr_blocks, a_node_fixed_after_the_pattern_is_refused)
{
    mb_system *sys = cloth("5", "4");
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    double *b = malloc(n3 * sizeof *b);
    mb_csr *C = shared_storage(sys, b);
    mb_jacobian *scratch = mb_jacobian_alloc(s->n, 53);
    mb_linsys_sink k = { 0 };
    cr_assert(mb_linsys_node_fixed(s, 0) && !C->shares[0] && C->shares[7]);
    s->blocked[0] |= MB_BLOCK_Z;                  /* control: already pinned */
    mb_linsys_sink_begin(&k, s, H, NULL, C, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.25, &k, scratch), MB_SUCCESS);
    cr_expect(mb_linsys_sink_finish(&k), "control: a pinned node's rows must be accepted");
    s->blocked[7] = MB_BLOCK_X;
    mb_linsys_sink_begin(&k, s, H, NULL, C, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.25, &k, scratch), MB_SUCCESS);
    cr_expect(!mb_linsys_sink_finish(&k), "node 7 blocked: its shared blocks taken");
    cr_expect(!mb_csr_matches(C, scratch), "a pattern that shares matches a block list");
    mb_linsys_sink_release(&k);
    mb_jacobian_free(scratch);
    mb_csr_free(C);
    free(b);
    mb_system_free(sys);
}

/* Which positions share, on two nodes: a pair's (0, 1) and (1, 0) share one block; a
 * single block where they share is refused (it would write both); a position that a
 * single block writes besides a pair does not share. */
Test(csr_blocks, only_blocks_a_pair_alone_writes_are_shared)
{
    const double Cb[9] = { 0.31, -0.12, 0.2, 0.05, 0.7, -0.4, 0.1, 0.23, 0.9 };
    const double Kb[9] = { -5.1, 1.3, 0.5, 2.0, -4.7, 0.25, 0.6, 1.5, -3.3 };
    mb_nodes *s = mb_nodes_alloc(2, 53);
    mb_nodes_set_mass(s, 0, 0.7);
    mb_nodes_set_mass(s, 1, 1.3);
    const size_t rows[5] = { 0, 0, 1, 1, 0 }, cols[5] = { 0, 1, 0, 1, 1 };
    const unsigned char marks[5] = { 0, 1, 1, 0, 0 };
    double b[6] = { 0 };
    for (int extra = 0; extra <= 1; extra++) {
        size_t nb = 4 + (size_t)extra;
        size_t *row = malloc(nb * sizeof *row), *col = malloc(nb * sizeof *col);
        unsigned char *pair = malloc(nb);
        memcpy(row, rows, nb * sizeof *row);
        memcpy(col, cols, nb * sizeof *col);
        memcpy(pair, marks, nb);
        mb_csr *C = mb_csr_alloc();
        cr_assert_eq(mb_csr_pattern_adopt(C, 2, nb, row, col, pair, s), MB_SUCCESS);
        cr_expect_eq(C->n_shared, extra ? 0u : 1u, "extra=%d: %zu shared", extra, C->n_shared);
        cr_expect_eq(C->n_pool, extra ? 4u : 3u, "extra=%d: %zu pool blocks", extra, C->n_pool);
        mb_linsys_sink k = { 0 };
        mb_linsys_sink_begin(&k, s, H, NULL, C, b);
        mb_linsys_sink_pair(&k, 0, 1, Cb, Kb);
        if (extra)
            mb_linsys_sink_block(&k, 0, 1, Cb, Kb);
        cr_expect(mb_linsys_sink_finish(&k), "extra=%d: the pair", extra);
        mb_linsys_sink_begin(&k, s, H, NULL, C, b);   /* the pair as four single blocks */
        double nC[9], nK[9];
        for (int q = 0; q < 9; q++)
            nC[q] = -Cb[q], nK[q] = -Kb[q];
        mb_linsys_sink_block(&k, 0, 0, nC, nK);
        mb_linsys_sink_block(&k, 0, 1, Cb, Kb);
        mb_linsys_sink_block(&k, 1, 0, Cb, Kb);
        mb_linsys_sink_block(&k, 1, 1, nC, nK);
        if (extra)
            mb_linsys_sink_block(&k, 0, 1, Cb, Kb);
        cr_expect_eq(mb_linsys_sink_finish(&k), extra, "extra=%d: single blocks on a shared "
                     "block", extra);
        mb_linsys_sink_release(&k);
        mb_csr_free(C);
    }
    mb_nodes_free(s);
}
