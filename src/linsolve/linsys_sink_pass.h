/* linsys_sink_pass.h -- a force model's blocks pass into the sink (mb_linsys_sink.h) with
 * what the sink's inline steps read held in the pass: the addresses of the state's arrays
 * and of b, h, the weight, and the sums (the blocks received, the largest |i - j|, the
 * f - f), taken from the sink once a pass (mb_linsys_sink_pass_start) and
 * handed back at its end (mb_linsys_sink_pass_stop), where the calls of mb_linsys_sink.h
 * take them from the sink and its state for every node and every block.  A pass may so
 * hold them in registers.
 *
 * The steps are the very operations of the sink's own (linsys_sink.c, made of the same
 * inline functions):
 *   - b_i = M_i v_i + h f_i, the weight first (mb_linsys_sink_pass_rhs): the pass of
 *     mb_linsys_sink_rhs(_weighed), node by node, and b formed inside a model's blocks
 *     pass (mb_linsys_sink_rhs_by_node);
 *   - a pair's four blocks and its terms of b in block-tridiagonal storage
 *     (mb_linsys_sink_pass_pair): mb_linsys_sink_pair's, inline; any other pair (a node
 *     with itself, a coupling beyond the neighbours, a sink already misfit, CSR storage,
 *     the pattern pass) goes to mb_linsys_sink_pair, the sums handed back first.
 * Internal to the library (mb_compiler.h, block3_lanes.h). */
#ifndef MB_LINSYS_SINK_PASS_H
#define MB_LINSYS_SINK_PASS_H

#include "block3_lanes.h"
#include "mb_compiler.h"
#include "mb_linsys_sink.h"

typedef struct mb_linsys_sink_pass {
    mb_linsys_sink *k;
    const double *mass, *inv_mass, *v;
    const unsigned char *blocked;
    double *f, *b;
    double h, h2;
    int weighed;                /* the weight m g added to each force first */
    double g[3];
    double nonfinite;           /* sum of f - f over the nodes formed: +0 while all finite */
    mb_blocktri *T;             /* the block-tridiagonal storage, or NULL */
    size_t count, reach;        /* blocks received, largest |i - j|: not yet added to the
                                 * sink's (mb_linsys_sink_pass_flush) */
} mb_linsys_sink_pass;

/* The start of a pass into sink k: b formed with the weight g (NULL: none) */
static inline mb_linsys_sink_pass mb_linsys_sink_pass_start(mb_linsys_sink *k, const double *g)
{
    const mb_nodes *s = k->s;
    mb_linsys_sink_pass p = { .k = k, .mass = s->mass, .inv_mass = s->inv_mass, .v = s->v,
                              .blocked = s->blocked, .f = s->f, .b = k->b, .h = k->h,
                              .h2 = k->h2, .weighed = g != NULL, .nonfinite = 0.0,
                              .T = k->btri, .count = 0, .reach = 0 };
    for (int a = 0; a < 3; a++)
        p.g[a] = g != NULL ? g[a] : 0.0;
    return p;
}

/* Node i of a fixed degree of freedom listed for mb_linsys_sink_finish */
static inline void mb_linsys_sink_list_fixed(mb_linsys_sink *k, size_t i)
{
    if (k->nfixed < MB_LINSYS_FIXED_LIST)
        k->fixed[k->nfixed] = i;
    k->nfixed++;
}

/* b_i = M_i v_i + h f_i, the forces of node i of finite mass first f_i + m_i g with the
 * weight (per axis, gravity_eval's operations), f_i's finiteness summed, node i listed
 * when fixed: on node i the very operations of the pass of mb_linsys_sink_rhs(_weighed)
 * (Baraff & Witkin eq. 6, b = M v + h f before the terms -h C v) -- that pass is made of
 * this, node by node. */
static MB_ALWAYS_INLINE void mb_linsys_sink_pass_rhs(mb_linsys_sink_pass *p, size_t i)
{
    const double h = p->h, m = p->mass[i];
    double *restrict bi = &p->b[3 * i], *restrict fi = &p->f[3 * i];
    const double *restrict vi = &p->v[3 * i];
    double f0 = fi[0], f1 = fi[1], f2 = fi[2];
    const int infinite = p->inv_mass[i] == 0.0;
    if (p->weighed && !infinite) {
        f0 = f0 + m * p->g[0];
        f1 = f1 + m * p->g[1];
        f2 = f2 + m * p->g[2];
        fi[0] = f0, fi[1] = f1, fi[2] = f2;
    }
    p->nonfinite += (f0 - f0) + (f1 - f1) + (f2 - f2);
    bi[0] = m * vi[0] + f0 * h;
    bi[1] = m * vi[1] + f1 * h;
    bi[2] = m * vi[2] + f2 * h;
    if (infinite || p->blocked[i] != 0)         /* mb_linsys_node_fixed_inline */
        mb_linsys_sink_list_fixed(p->k, i);
}

/* The present value of block blk (which, of node r) in lanes: the block once set in this
 * assembly, else -- at its first term, which marks it set -- its start value, diag(m_r)
 * on the diagonal and +0 off it (the values of mb_blocktri_from) */
static MB_ALWAYS_INLINE block3_lanes mb_linsys_pair_from(mb_blocktri *T, size_t r,
                                                         unsigned which, const double *blk)
{
    if (!mb_blocktri_first(T, r, which))
        return block3_load(blk);
    return which == MB_BLOCKTRI_SET_D ? block3_mass(T->mass[r]) : block3_zero();
}

/* The pair's four blocks in block-tridiagonal storage T (|i - j| = 1), G = h C + h^2 K
 * of the pair's (K, C): A(i, i) + G, A(i, j) - G, A(j, i) - G, A(j, j) + G (the negated
 * blocks' sums are -G exactly; A - (-G) is the operation A + G), each entry once, read
 * from its block or, at the block's first term, from its start value, two entries a
 * lane (block3_lanes.h) */
static MB_ALWAYS_INLINE void mb_linsys_sink_pair_blocktri(mb_blocktri *B, size_t i, size_t j,
                                                         block3_lanes G)
{
    unsigned wij = j > i ? MB_BLOCKTRI_SET_U : MB_BLOCKTRI_SET_L;
    unsigned wji = i > j ? MB_BLOCKTRI_SET_U : MB_BLOCKTRI_SET_L;
    double *Aii = &B->D[9 * i], *Ajj = &B->D[9 * j];
    double *Aij = j > i ? &B->U[9 * i] : &B->L[9 * i];
    double *Aji = i > j ? &B->U[9 * j] : &B->L[9 * j];
    block3_store(Aii, block3_add(mb_linsys_pair_from(B, i, MB_BLOCKTRI_SET_D, Aii), G));
    block3_store(Aij, block3_sub(mb_linsys_pair_from(B, i, wij, Aij), G));
    block3_store(Aji, block3_sub(mb_linsys_pair_from(B, j, wji, Aji), G));
    block3_store(Ajj, block3_add(mb_linsys_pair_from(B, j, MB_BLOCKTRI_SET_D, Ajj), G));
}

/* The sums the pass holds added to the sink's and the storage's, and its own +0 again:
 * before a call of the sink that reads them, and at the pass's end */
static inline void mb_linsys_sink_pass_flush(mb_linsys_sink_pass *p)
{
    mb_linsys_sink *k = p->k;
    k->count += p->count;
    k->reach = p->reach > k->reach ? p->reach : k->reach;
    p->count = p->reach = 0;
}

/* The blocks of a pair, -(K, C) at (i, i), (K, C) at (i, j) and (j, i), -(K, C) at
 * (j, j), as mb_linsys_sink_pair adds them, C and K in lanes (block3_lanes.h): in
 * block-tridiagonal storage with |i - j| = 1 and the sink not misfit, here
 * (mb_linsys_sink_pair_blocktri, then the four terms of b together, h C (v_j - v_i),
 * mb_linsys_be_rhs_pair_d); any other pair by mb_linsys_sink_pair. */
static MB_ALWAYS_INLINE void mb_linsys_sink_pass_pair(mb_linsys_sink_pass *p, size_t i,
                                                      size_t j, block3_lanes C, block3_lanes K)
{
    double c[9];
    block3_store(c, C);
    if (p->T == NULL || p->k->misfit || i == j || i > j + 1 || j > i + 1) {
        double k[9];
        block3_store(k, K);
        mb_linsys_sink_pass_flush(p);
        mb_linsys_sink_pair(p->k, i, j, c, k);
        return;
    }
    mb_linsys_sink_pair_blocktri(p->T, i, j, block3_g_lanes(C, K, p->h, p->h2));
    p->count += 4;
    p->reach = p->reach > 1 ? p->reach : 1;
    if (mb_linsys_block_nonzero(c))
        mb_linsys_be_rhs_pair_d(c, &p->v[3 * i], &p->v[3 * j], p->h, &p->b[3 * i],
                                &p->b[3 * j]);
}

/* The pass's end: its sums handed to the sink (the blocks, and while b is formed node by
 * node, f - f for mb_linsys_sink_rhs_by_node_end) */
static inline void mb_linsys_sink_pass_stop(mb_linsys_sink_pass *p)
{
    mb_linsys_sink_pass_flush(p);
    if (mb_linsys_sink_rhs_deferred(p->k))
        p->k->nonfinite += p->nonfinite;
}

#endif
