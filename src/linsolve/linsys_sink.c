/* linsys_sink.c -- the linearised backward-Euler system (DESIGN 4.1; Baraff & Witkin,
 * "Large steps in cloth simulation", SIGGRAPH 1998, eq. 6 in velocity form)
 *     (M - h C - h^2 K) v+ = (M - h C) v + h f(x, v)
 * assembled while the force models produce their Jacobian blocks (mb_forces_assemble),
 * straight into the solver's storage: each block is added where it belongs the moment it
 * is computed, and never stored.
 *
 * Every number is formed by the operations of the assembly from a block list, in the same
 * order, so both hold the very same bits:
 *   A: M first (mb_blocktri_begin / mb_csr_begin), then each block in list order
 *      A(r, c) = A(r, c) - G, G = h C + h^2 K (mb_linsys_block_g; mb_blocktri_add /
 *      mb_csr_add), the fixed rows
 *      last -- the functions mb_blocktri_assemble and mb_csr_assemble are made of.  In
 *      block-tridiagonal storage M is not written first: the first block on each slot
 *      reads its start value, M's block or +0, in place of the slot, and the slots no
 *      block reached get theirs at the end (mb_blocktri_begin_unset, mb_blocktri_from,
 *      mb_blocktri_finish), the same operations on the same values;
 *   b: b = M v + h f once every model's forces are complete (mb_linsys_sink_rhs, before
 *      the first block), then each block with C != 0 takes its term h (C v_c) off its
 *      rows the moment it arrives (mb_linsys_be_rhs_term_d, in list order, as
 *      mb_linsys_be_rhs), a pair's four blocks their terms together (h C (v_j - v_i),
 *      mb_linsys_be_rhs_pair_d, as the list's marked pairs), the fixed rows last -- of the nodes the pass forming b listed as
 *      fixed (up to MB_LINSYS_FIXED_LIST of them; beyond, a scan of every node), A's and
 *      b's rows of a node together.
 *      In block-tridiagonal storage the pass forming b may be left to the first model's
 *      blocks pass (mb_linsys_sink_rhs_by_node): b_i is then formed, with the same
 *      operations (mb_linsys_sink_pass_rhs), just before the first block on node i, when
 *      f_i is complete and no term has reached b_i yet, so every entry keeps its sequence.
 * The models therefore evaluate their forces in a first pass and hand over their blocks in
 * a second; what a model needs between the two (a spring's direction and length) it keeps
 * in the sink (mb_linsys_sink_keep).
 * Blocks on different entries commute; only each entry's own sequence fixes its bits.  So
 * a diagonal field (drag) that follows a model in the list may add its block on node r as
 * soon as that model reports it has handed over its last block on r (folding,
 * mb_linsys_sink_fold): the node's rows of A and b are then still in cache, where a
 * separate sweep over the nodes would fetch them from memory once more.
 * A block the storage has no slot for -- beyond the neighbours of a block-tridiagonal
 * system, or not the block the CSR pattern holds at that position -- marks the sink
 * misfit; the caller then assembles the step from a block list. */
#include "block3_lanes.h"
#include "mb_compiler.h"
#include "linsys_sink_pass.h"
#include "mb_linsys_sink.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void mb_linsys_sink_release(mb_linsys_sink *k)
{
    free(k->prow);
    free(k->pcol);
    free(k->ppair);
    k->prow = k->pcol = NULL;
    k->ppair = NULL;
    k->pcap = 0;
    for (size_t m = 0; m < k->nkeep; m++)
        free(k->keep[m].data);
    free(k->keep);
    free(k->done);
    k->keep = NULL;
    k->nkeep = 0;
    k->done = NULL;
    k->done_room = 0;
}

void mb_linsys_sink_begin(mb_linsys_sink *k, const mb_nodes *s, double h, mb_blocktri *btri,
                          mb_csr *csr, double *b)
{
    k->recording = 0;
    k->s = s;
    k->h = h;
    k->h2 = h * h;
    k->b = b;
    k->btri = btri;
    k->csr = btri ? NULL : csr;
    k->count = k->reach = k->model = k->nfold = 0;
    k->misfit = 0;
    k->nfixed = SIZE_MAX;               /* until mb_linsys_sink_rhs lists them */
    k->rhs_by_node = 0;
    if (btri)
        mb_blocktri_begin_unset(btri, s);
    else
        mb_csr_begin(csr, s);
}

void mb_linsys_sink_begin_pattern(mb_linsys_sink *k, const mb_nodes *s, double h, double *b)
{
    k->s = s;
    k->h = h;
    k->h2 = h * h;
    k->b = b;
    k->btri = NULL;
    k->csr = NULL;
    k->count = k->reach = k->model = k->nfold = 0;
    k->misfit = 0;
    k->nfixed = SIZE_MAX;
    k->rhs_by_node = 0;
    k->recording = 1;
}

void mb_linsys_sink_take_pattern(mb_linsys_sink *k, size_t **row, size_t **col,
                                 unsigned char **pair)
{
    *row = k->prow;
    *col = k->pcol;
    *pair = k->ppair;
    k->prow = k->pcol = NULL;
    k->ppair = NULL;
    k->pcap = 0;
}

/* Record block (r, c) as the next of the pattern pass, pair 1 for the (i, j) and (j, i)
 * blocks of a pair (misfit when out of memory). */
static void sink_record(mb_linsys_sink *k, size_t r, size_t c, unsigned char pair)
{
    if (k->misfit)
        return;
    if (k->count == k->pcap) {
        size_t cap = k->pcap ? 2 * k->pcap : 1024;
        size_t *row = realloc(k->prow, cap * sizeof *row);
        if (row != NULL)
            k->prow = row;
        size_t *col = realloc(k->pcol, cap * sizeof *col);
        if (col != NULL)
            k->pcol = col;
        unsigned char *pr = realloc(k->ppair, cap);
        if (pr != NULL)
            k->ppair = pr;
        if (row == NULL || col == NULL || pr == NULL) {
            k->misfit = 1;
            return;
        }
        k->pcap = cap;
    }
    k->prow[k->count] = r;
    k->pcol[k->count] = c;
    k->ppair[k->count] = pair;
    size_t d = r > c ? r - c : c - r;
    k->reach = d > k->reach ? d : k->reach;
    k->count++;
}

void *mb_linsys_sink_keep(mb_linsys_sink *k, size_t bytes)
{
    if (k->model >= k->nkeep) {
        mb_linsys_keep *list = realloc(k->keep, (k->model + 1) * sizeof *list);
        if (list == NULL)
            return NULL;
        for (size_t m = k->nkeep; m <= k->model; m++)
            list[m] = (mb_linsys_keep){ NULL, 0 };
        k->keep = list;
        k->nkeep = k->model + 1;
    }
    mb_linsys_keep *kp = &k->keep[k->model];
    if (kp->bytes < bytes) {
        void *data = realloc(kp->data, bytes);
        if (data == NULL)
            return NULL;
        kp->data = data;
        kp->bytes = bytes;
    }
    return kp->data;
}

const void *mb_linsys_sink_kept(const mb_linsys_sink *k)
{
    return k->model < k->nkeep ? k->keep[k->model].data : NULL;
}

/* The pass of mb_linsys_sink_rhs: with g, each force of a node of finite mass first gets
 * its weight added, f = f + m g_a per axis (gravity_eval's operations), then b is formed
 * from it; without g (NULL), b alone (mb_linsys_sink_pass_rhs, node by node). */
static MB_ALWAYS_INLINE int sink_rhs(mb_linsys_sink *k, const double *g)
{
    mb_linsys_sink_pass p = mb_linsys_sink_pass_start(k, g);  /* its sum of f - f: +0 */
    k->nfixed = 0;                                  /* for finite forces, NaN otherwise */
    for (size_t i = 0; i < k->s->n; i++)        /* mb_linsys_be_rhs_begin's operations */
        mb_linsys_sink_pass_rhs(&p, i);
    return p.nonfinite == 0.0;
}

int mb_linsys_sink_rhs_by_node(mb_linsys_sink *k, const double *g)
{
    if (k->btri == NULL || k->recording)
        return 0;
    k->rhs_by_node = 1;
    k->rhs_weighed = g != NULL;
    for (int a = 0; a < 3 && g != NULL; a++)
        k->g_rhs[a] = g[a];
    k->nonfinite = 0.0;
    k->nfixed = 0;                      /* listed anew as b is formed */
    return 1;
}

int mb_linsys_sink_rhs_by_node_end(mb_linsys_sink *k)
{
    k->rhs_by_node = 0;
    return k->nonfinite == 0.0;
}

int mb_linsys_sink_rhs(mb_linsys_sink *k)
{
    return sink_rhs(k, NULL);
}

int mb_linsys_sink_rhs_weighed(mb_linsys_sink *k, const double g[3])
{
    return sink_rhs(k, g);
}

/* b_{3 r + a} -= h (C v_c)_a, a = 0..2: the term of block (r, c) */
static inline void sink_term(mb_linsys_sink *k, size_t r, size_t c, const double C[9])
{
    const double *vc = &k->s->v[3 * c];
    double *br = &k->b[3 * r];
    for (int a = 0; a < 3; a++)
        br[a] -= mb_linsys_be_rhs_term_d(C, vc, a, k->h);
}

/* 1 when the CSR pattern holds block (r, c) as its b-th block */
static int csr_slot_is(const mb_csr *csr, size_t b, size_t r, size_t c)
{
    return r < csr->n_nodes && mb_csr_slot_is(csr, b, r, c);
}

/* 1 when the storage has a slot for block (r, c), the count-th of the list, of its own
 * (a block shared with its mirror takes a pair's blocks only, mb_linsys_sink_pair) */
static int sink_fits(const mb_linsys_sink *k, size_t r, size_t c)
{
    if (k->btri)
        return r <= c + 1 && c <= r + 1;
    return csr_slot_is(k->csr, k->count, r, c) && !k->csr->bshared[k->count];
}

/* 1 when the sink takes the next blocks: none has missed its slot so far, and these fit
 * (else the sink is misfit from now on) */
static int sink_takes(mb_linsys_sink *k, int fits)
{
    if (!k->misfit && !fits)
        k->misfit = 1;
    return !k->misfit;
}

/* n blocks coupling r and c received */
static void sink_received(mb_linsys_sink *k, size_t r, size_t c, size_t n)
{
    size_t d = r > c ? r - c : c - r;
    k->reach = d > k->reach ? d : k->reach;
    k->count += n;
}

void mb_linsys_sink_block(mb_linsys_sink *k, size_t r, size_t c, const double C[9],
                          const double K[9])
{
    if (k->recording) {
        sink_record(k, r, c, 0);
        return;
    }
    if (!sink_takes(k, sink_fits(k, r, c)))
        return;
    double G[9];
    mb_linsys_block_g(C, K, k->h, k->h2, G);
    if (k->btri)
        mb_blocktri_sub(k->btri, r, c, G);
    else
        mb_csr_sub(k->csr, k->count, G);
    sink_received(k, r, c, 1);
    if (!mb_linsys_block_zero(C))
        sink_term(k, r, c, C);
}

/* The diagonal block (C, K) as d: G = h C + h^2 K, each of its nine entries subtracted
 * from A(r, r) at each node, as the block list subtracts them (mb_csr_add). */
static void diagonal_prepare(const mb_linsys_sink *k, const double C[9], const double K[9],
                             mb_linsys_diagonal *d)
{
    mb_linsys_block_g(C, K, k->h, k->h2, d->G);
    memcpy(d->C, C, sizeof d->C);
    d->c_nonzero = !mb_linsys_block_zero(C);
}

/* the diagonal block (r, r) of node r in the storage (row-major, row stride 3) */
static double *diagonal_of(const mb_linsys_sink *k, size_t r)
{
    if (k->btri)
        return mb_blocktri_diagonal(k->btri, r);
    return &k->csr->pool[9 * (size_t)k->csr->dblk[r]];
}

/* block d at (r, r): A(r, r) - G, two entries a lane (block3_lanes.h), its term off b */
static void diagonal_add(mb_linsys_sink *k, const mb_linsys_diagonal *d, size_t r)
{
    double *A = diagonal_of(k, r);
    block3_store(A, block3_sub(block3_load(A), block3_load(d->G)));
    if (d->c_nonzero)
        sink_term(k, r, r, d->C);
}

/* 1 when the storage has a slot for block (r, r) as the b-th block of the list */
static int diagonal_fits(const mb_linsys_sink *k, size_t b, size_t r)
{
    return k->btri != NULL || csr_slot_is(k->csr, b, r, r);
}

void mb_linsys_sink_diagonal(mb_linsys_sink *k, const double C[9], const double K[9])
{
    mb_linsys_diagonal d;
    diagonal_prepare(k, C, K, &d);
    for (size_t r = 0; r < k->s->n && k->recording; r++)
        sink_record(k, r, r, 0);
    for (size_t r = 0; r < k->s->n && !k->recording; r++) {
        if (!sink_takes(k, diagonal_fits(k, k->count, r)))
            return;
        diagonal_add(k, &d, r);
        sink_received(k, r, r, 1);
    }
}

int mb_linsys_sink_fold(mb_linsys_sink *k, const double C[9], const double K[9])
{
    size_t n = k->s->n;
    if (k->nfold == MB_LINSYS_FOLD_MAX)
        return 0;
    if (k->nfold == 0) {
        if (k->done_room < n) {
            unsigned char *done = realloc(k->done, n ? n : 1);
            if (done == NULL)
                return 0;
            k->done = done;
            k->done_room = n;
        }
        memset(k->done, 0, n);
    }
    diagonal_prepare(k, C, K, &k->fold[k->nfold++]);
    return 1;
}

void mb_linsys_sink_node_done(mb_linsys_sink *k, size_t r)
{
    if (k->nfold == 0 || r >= k->s->n || k->done[r])
        return;
    k->done[r] = 1;
    if (k->misfit || k->recording)
        return;
    for (size_t f = 0; f < k->nfold; f++)
        diagonal_add(k, &k->fold[f], r);
}

void mb_linsys_sink_fold_end(mb_linsys_sink *k)
{
    size_t n = k->s->n;
    if (k->nfold == 0)
        return;
    for (size_t r = 0; r < n; r++)
        mb_linsys_sink_node_done(k, r);
    for (size_t f = 0; f < k->nfold && k->recording; f++)
        for (size_t r = 0; r < n; r++)
            sink_record(k, r, r, 0);
    for (size_t f = 0; f < k->nfold && !k->recording; f++)
        for (size_t r = 0; r < n && !k->misfit; r++)
            sink_takes(k, diagonal_fits(k, k->count + f * n + r, r));
    if (!k->misfit && !k->recording)
        k->count += k->nfold * n;
    k->nfold = 0;
}

/* The four blocks of a pair of a node with itself, which share one slot: four blocks */
static void sink_pair_one_node(mb_linsys_sink *k, size_t i, const double C[9],
                               const double K[9])
{
    double nC[9], nK[9];
    for (int q = 0; q < 9; q++) {
        nC[q] = -C[q];
        nK[q] = -K[q];
    }
    mb_linsys_sink_block(k, i, i, nC, nK);
    mb_linsys_sink_block(k, i, i, C, K);
    mb_linsys_sink_block(k, i, i, C, K);
    mb_linsys_sink_block(k, i, i, nC, nK);
}

/* 1 when the storage has slots for the four blocks of the pair (i, j): (i, i), (i, j),
 * (j, i), (j, j), the next four of the list */
static int sink_fits_pair(const mb_linsys_sink *k, size_t i, size_t j)
{
    if (k->btri)
        return i <= j + 1 && j <= i + 1;
    size_t b = k->count;
    return csr_slot_is(k->csr, b, i, i) && csr_slot_is(k->csr, b + 1, i, j)
           && csr_slot_is(k->csr, b + 2, j, i) && csr_slot_is(k->csr, b + 3, j, j);
}

/* The pair's blocks in CSR storage, the b-th to (b + 3)-th of the list, with G = h C +
 * h^2 K of the pair's (K, C): A - (-G) on the diagonal ones (the negated block's sum is
 * -G exactly), written A + G, which IEEE arithmetic defines to be the same operation, and
 * A - G off the diagonal, each entry once, two entries a lane (block3_lanes.h).  Where
 * (i, j) and (j, i) share one block of the pool (linsolve_csr_blocks.c) its entries get
 * the operations each of the two would get, once. */
static void pair_csr(const mb_csr *c, size_t b, block3_lanes G)
{
    double *Aii = mb_csr_block(c, b), *Ajj = mb_csr_block(c, b + 3);
    block3_store(Aii, block3_add(block3_load(Aii), G));
    if (c->bshared[b + 1]) {
        double *Ash = mb_csr_block(c, b + 1);
        block3_store(Ash, block3_sub(block3_load(Ash), G));
    } else {
        double *Aij = mb_csr_block(c, b + 1), *Aji = mb_csr_block(c, b + 2);
        block3_store(Aij, block3_sub(block3_load(Aij), G));
        block3_store(Aji, block3_sub(block3_load(Aji), G));
    }
    block3_store(Ajj, block3_add(block3_load(Ajj), G));
}

/* The terms of the pair off b_i and b_j, formed together as the block list forms a marked
 * pair's (mb_linsys_be_rhs_pair_d): t = h C (v_j - v_i), b_i -= t, b_j += t */
static void pair_terms(mb_linsys_sink *k, size_t i, size_t j, const double *C)
{
    mb_linsys_be_rhs_pair_d(C, &k->s->v[3 * i], &k->s->v[3 * j], k->h, &k->b[3 * i],
                            &k->b[3 * j]);
}

/* The blocks of a pair, -(K, C) at (i, i), (K, C) at (i, j) and (j, i), -(K, C) at
 * (j, j), as the block list adds a pair it marks (mb_jacobian_mark_pair): A as four calls
 * of mb_linsys_sink_block would add them (the negated blocks give -G exactly,
 * h (-C) + h^2 (-K) = -(h C + h^2 K), so G is formed once), and the four terms of b
 * together, h C (v_j - v_i) (pair_terms).  A pair of a node with itself is not marked:
 * its four blocks, terms included, go in one by one. */
void mb_linsys_sink_pair(mb_linsys_sink *k, size_t i, size_t j, const double C[9],
                         const double K[9])
{
    if (i == j) {
        sink_pair_one_node(k, i, C, K);
        return;
    }
    if (k->recording) {
        sink_record(k, i, i, 0);
        sink_record(k, i, j, 1);
        sink_record(k, j, i, 1);
        sink_record(k, j, j, 0);
        return;
    }
    if (!sink_takes(k, sink_fits_pair(k, i, j)))
        return;
    if (k->btri)
        mb_linsys_sink_pair_blocktri(k->btri, i, j, block3_g(C, K, k->h, k->h2));
    else
        pair_csr(k->csr, k->count, block3_g(C, K, k->h, k->h2));
    sink_received(k, i, j, 4);
    if (!mb_linsys_block_zero(C))
        pair_terms(k, i, j, C);
}

int mb_linsys_sink_finish(mb_linsys_sink *k)
{
    if (k->recording)
        return !k->misfit;
    if (k->misfit || (k->csr && k->count != k->csr->n_blocks))
        return 0;
    double tmp[2];
    if (k->nfixed <= MB_LINSYS_FIXED_LIST) {    /* the fixed nodes listed: only they */
        for (size_t f = 0; f < k->nfixed; f++)
            mb_linsys_be_rhs_fix_node(k->s, k->fixed[f], k->b, tmp);
        if (k->btri)
            mb_blocktri_finish_fixed(k->btri, k->s, k->fixed, k->nfixed);
    } else {
        mb_linsys_be_rhs_fix_rows(k->s, k->b, tmp);
        if (k->btri)
            mb_blocktri_finish(k->btri, k->s);
    }
    return k->btri || mb_csr_fix_rows(k->csr, k->s);
}
