/* linsys_sink_chain.h -- a force model's blocks pass into block-tridiagonal storage along
 * a chain in node order: pair m joins nodes m and m + 1, for m = 0, 1, ..., n - 2 and no
 * other block, each node's b formed by the pass (mb_linsys_sink_rhs_by_node).
 *
 * The pass into the sink (linsys_sink_pass.h) takes any pair: for each of a pair's four
 * blocks it looks up and sets the block's mark of its first term (mb_blocktri_first,
 * mb_linsys_pair_from), and it tests each pair against the storage and the sink.  Along
 * a chain in order every block's terms are known in advance (Baraff & Witkin 1998, eq. 6:
 * A = M - h C - h^2 K; G_m = h C_m + h^2 K_m the sum of pair m):
 *   U_m = 0 - G_m,   L_{m+1} = 0 - G_m,   D_m = (M_m + G_{m-1}) + G_m,
 * D_0 = M_0 + G_0 and D_{n-1} = M_{n-1} + G_{n-2}: each block from its start value, then
 * each pair's term in pair order -- the operations mb_linsys_sink_pair_blocktri makes, so
 * the same bits.  This pass writes them so, without the marks, and sets the marks the
 * sink pass would leave at its end.  b_i = M_i v_i + h f_i and a pair's terms of b,
 * h C (v_j - v_i), are the sink pass's own (mb_linsys_sink_pass_rhs,
 * mb_linsys_be_rhs_pair_d), in the sink pass's order: b_0 first, b_{m+1} just before
 * pair m, then pair m's terms (where C is not zero, block3_nonzero: the test of
 * mb_linsys_block_nonzero in lanes).
 *
 * mb_linsys_sink_chain_applies tells when the sink is ready for such a pass; the model
 * knows whether its pairs are a chain in order (force_springs.c).  Internal to the
 * library. */
#ifndef MB_LINSYS_SINK_CHAIN_H
#define MB_LINSYS_SINK_CHAIN_H

#include "block3_lanes.h"
#include "linsys_sink_pass.h"
#include "mb_compiler.h"
#include "mb_linsys_sink.h"

#include <string.h>

/* 1 when sink k can take a chain pass of `pairs` pairs on nodes 0 ... pairs: block-
 * tridiagonal storage of pairs + 1 nodes with no block set yet, not misfit, b formed
 * node by node by the model's pass, and no field folded into it (whose blocks would come
 * between the pairs' on a node) */
static inline int mb_linsys_sink_chain_applies(const mb_linsys_sink *k, size_t pairs)
{
    const mb_blocktri *T = k->btri;
    return T != NULL && !k->recording && !k->misfit && T->nset == 0 && T->n == pairs + 1
           && pairs > 0 && mb_linsys_sink_rhs_deferred(k) && !mb_linsys_sink_folding(k);
}

/* The start of a chain pass into sink k (mb_linsys_sink_chain_applies holds): b_0 formed
 * (node 0's b comes before pair 0's terms) and D_0 at its start value M_0 */
static MB_ALWAYS_INLINE mb_linsys_sink_pass mb_linsys_sink_chain_start(mb_linsys_sink *k)
{
    mb_linsys_sink_pass p = mb_linsys_sink_pass_start(k, mb_linsys_sink_rhs_weight(k));
    mb_linsys_sink_pass_rhs(&p, 0);
    block3_store(p.T->D, block3_mass(p.T->mass[0]));
    return p;
}

/* Pair m of the chain, nodes m and m + 1, with its (K, C) in lanes: b_{m+1} formed first
 * (before any term reaches it), then D_m = D_m + G, U_m = L_{m+1} = 0 - G and
 * D_{m+1} = M_{m+1} + G, then the pair's terms of b where C is not zero */
static MB_ALWAYS_INLINE void mb_linsys_sink_chain_pair(mb_linsys_sink_pass *p, size_t m,
                                                       block3_lanes C, block3_lanes K)
{
    mb_blocktri *T = p->T;
    mb_linsys_sink_pass_rhs(p, m + 1);
    const block3_lanes G = block3_g_lanes(C, K, p->h, p->h2);
    const block3_lanes minus_g = block3_sub(block3_zero(), G);
    double *Dm = &T->D[9 * m];
    block3_store(Dm, block3_add(block3_load(Dm), G));
    block3_store(&T->U[9 * m], minus_g);
    block3_store(&T->L[9 * (m + 1)], minus_g);
    block3_store(&T->D[9 * (m + 1)], block3_add(block3_mass(T->mass[m + 1]), G));
    if (block3_nonzero(C)) {
        double c[9];
        block3_store(c, C);
        mb_linsys_be_rhs_pair_d(c, &p->v[3 * m], &p->v[3 * (m + 1)], p->h, &p->b[3 * m],
                                &p->b[3 * (m + 1)]);
    }
}

/* The end of a chain pass of `pairs` pairs: every block marked set, with the marks the
 * sink pass leaves (D and U on node 0, D and L on the last node, all three between), and
 * the blocks' count, the reach 1 and the f - f sum handed to the sink */
static inline void mb_linsys_sink_chain_stop(mb_linsys_sink_pass *p, size_t pairs)
{
    mb_blocktri *T = p->T;
    memset(T->set, MB_BLOCKTRI_SET_D | MB_BLOCKTRI_SET_L | MB_BLOCKTRI_SET_U, pairs + 1);
    T->set[0] = MB_BLOCKTRI_SET_D | MB_BLOCKTRI_SET_U;
    T->set[pairs] = MB_BLOCKTRI_SET_D | MB_BLOCKTRI_SET_L;
    T->nset = 3 * (pairs + 1) - 2;
    p->count = 4 * pairs;
    p->reach = 1;
    mb_linsys_sink_pass_stop(p);
}

#endif
