/* mb_linsys_sink.h -- the backward-Euler system A v+ = b, A = M - h C - h^2 K,
 * b = (M - h C) v + h f (DESIGN 4.1), assembled block by block while the force models
 * produce their Jacobian blocks, straight into the solver's storage (block-tridiagonal
 * or CSR), with no list of blocks in between (linsys_sink.c).  Double only.
 *
 * Order of use: mb_linsys_sink_begin; the forces of every model (a model may keep what
 * its blocks will need, mb_linsys_sink_keep); mb_linsys_sink_rhs; the blocks in list
 * order (block, pair, diagonal); mb_linsys_sink_finish.  mb_forces_assemble does this.
 *
 * Folding: the diagonal blocks of a field that follows a model in the list (drag after
 * springs) may be added inside that model's pass, node by node, as soon as the model has
 * handed over its last block on the node (mb_linsys_sink_fold, _node_done, _fold_end):
 * every entry of A and b still gets its operations in list order, while the node's rows
 * are in cache. */
#ifndef MB_LINSYS_SINK_H
#define MB_LINSYS_SINK_H

#include "mb_linsolve.h"

/* what one force model keeps between the two passes of mb_forces_assemble */
typedef struct mb_linsys_keep {
    void *data;
    size_t bytes;
} mb_linsys_keep;

/* a diagonal block to add at every node: G = h C + h^2 K, subtracted from A (row-major),
 * and its C for the terms of b */
typedef struct mb_linsys_diagonal {
    double C[9];
    int c_nonzero;
    double G[9];
} mb_linsys_diagonal;

/* folded diagonal fields at most (mb_linsys_sink_fold) */
#define MB_LINSYS_FOLD_MAX 4

/* fixed nodes the sink lists (mb_linsys_sink_rhs); with more, mb_linsys_sink_finish scans
 * every node for them */
#define MB_LINSYS_FIXED_LIST 8

typedef struct mb_linsys_sink {
    const mb_nodes *s;
    double h, h2;
    double *b;                  /* the right-hand side (mb_linsys_sink_rhs) */
    mb_blocktri *btri;          /* the storage: btri, or else csr with its pattern built */
    mb_csr *csr;
    size_t count;               /* blocks received */
    size_t reach;               /* largest |row - col| received */
    int misfit;                 /* a block the storage has no slot for */
    size_t model;               /* the force model at work (mb_forces_assemble) */
    mb_linsys_keep *keep;       /* per model, kept for its blocks; nkeep in the list */
    size_t nkeep;
    mb_linsys_diagonal fold[MB_LINSYS_FOLD_MAX];    /* the folded fields, nfold of them */
    size_t nfold;
    unsigned char *done;        /* per node: 1 once its folded blocks are in; room for */
    size_t done_room;           /* done_room nodes */
    int recording;              /* the pattern pass: blocks recorded, no storage written */
    size_t *prow, *pcol;        /* the recorded blocks, count of them; room for pcap */
    unsigned char *ppair;       /* per recorded block: 1 for a pair's (i, j) and (j, i) */
    size_t pcap;
    size_t nfixed;              /* nodes with a fixed degree of freedom, SIZE_MAX unknown; */
    size_t fixed[MB_LINSYS_FIXED_LIST];     /* the first of them (mb_linsys_sink_rhs) */
    int rhs_by_node;            /* b formed node by node by the first model's blocks pass */
    int rhs_weighed;            /* (mb_linsys_sink_rhs_by_node): with the weight m g_rhs */
    double g_rhs[3];
    double nonfinite;           /* sum of f - f over the nodes formed: +0 while all finite */
} mb_linsys_sink;

/* Release what the models kept (the sink itself is the caller's). */
void mb_linsys_sink_release(mb_linsys_sink *k);
/* Start a system at state s and step h in exactly one of btri (any block-tridiagonal
 * system) or csr (the blocks of its pattern, in the pattern's order): A = M.  b (3 n
 * values) receives the right-hand side. */
void mb_linsys_sink_begin(mb_linsys_sink *k, const mb_nodes *s, double h, mb_blocktri *btri,
                          mb_csr *csr, double *b);
/* Start a pattern pass at state s and step h: the force models run as for an assembly
 * (forces, kept data, b = M v + h f into b), but each block is only recorded, in list
 * order, at (k->prow[q], k->pcol[q]) for q < k->count, and no storage is written;
 * k->reach as in an assembly.  mb_linsys_sink_finish then returns 1 unless out of
 * memory.  The caller takes the two arrays (mb_linsys_sink_take_pattern). */
void mb_linsys_sink_begin_pattern(mb_linsys_sink *k, const mb_nodes *s, double h, double *b);
/* The blocks recorded by the last pattern pass: *row and *col, and *pair (1 for the
 * (i, j) and (j, i) blocks of mb_linsys_sink_pair, mb_csr_pattern_adopt) -- malloc'ed,
 * the caller's from now on, k->count values each; the sink keeps none. */
void mb_linsys_sink_take_pattern(mb_linsys_sink *k, size_t **row, size_t **col,
                                 unsigned char **pair);
/* Room of at least `bytes` kept for force model k->model until the next assembly (it
 * stays allocated from step to step); NULL when out of memory. */
void *mb_linsys_sink_keep(mb_linsys_sink *k, size_t bytes);
/* What force model k->model kept in this assembly's first pass. */
const void *mb_linsys_sink_kept(const mb_linsys_sink *k);
/* Once the forces s->f are complete, before the first block: b = M v + h f, with the
 * bits of mb_linsys_be_rhs_begin; 0 when a force is NaN or Inf (checked in the same pass).
 * The same pass lists the nodes with a fixed degree of freedom, so that
 * mb_linsys_sink_finish writes their rows without a pass of its own over the nodes. */
int mb_linsys_sink_rhs(mb_linsys_sink *k);
/* mb_linsys_sink_rhs with the weight of the field's last model folded in: each force of a
 * node of finite mass first becomes f + m g (per axis, the operations of a uniform
 * acceleration's eval: gravity's), so the forces are complete at the end of the pass
 * (mb_forces_assemble uses it when that model is a uniform acceleration without blocks,
 * the last to add to the forces). */
int mb_linsys_sink_rhs_weighed(mb_linsys_sink *k, const double g[3]);
/* The b pass of mb_linsys_sink_rhs (g NULL) or _rhs_weighed (g) left to the first model's
 * blocks pass, node by node: 1 when taken, which is only in block-tridiagonal storage
 * (the CSR storage and the pattern pass keep the pass of their own; 0).  The model then
 * forms b_i (mb_linsys_sink_pass_rhs, linsys_sink_pass.h, with g =
 * mb_linsys_sink_rhs_weight, its sum of f - f handed over as the pass stops) for each
 * node i before handing over the first block on i, and for every node;
 * mb_linsys_sink_rhs_by_node_end ends it. */
int mb_linsys_sink_rhs_by_node(mb_linsys_sink *k, const double *g);
/* 1 while the model at work is to form b node by node (mb_linsys_sink_rhs_by_node) */
static inline int mb_linsys_sink_rhs_deferred(const mb_linsys_sink *k)
{
    return k->rhs_by_node;
}
/* The weight the model's blocks pass adds to its nodes' forces as it forms b
 * (mb_linsys_sink_rhs_by_node): g, or NULL without one */
static inline const double *mb_linsys_sink_rhs_weight(const mb_linsys_sink *k)
{
    return k->rhs_weighed ? k->g_rhs : NULL;
}
/* The model's blocks pass is over: 1 when b was formed with every force finite (the sums
 * of f - f the model handed over, mb_linsys_sink_pass_stop, are +0), as
 * mb_linsys_sink_rhs returns; node by node no more. */
int mb_linsys_sink_rhs_by_node_end(mb_linsys_sink *k);
/* The next block of the list: df_r/dx_c = K, df_r/dv_c = C (row-major 3x3). */
void mb_linsys_sink_block(mb_linsys_sink *k, size_t r, size_t c, const double C[9],
                          const double K[9]);
/* The same block (r, r) for every node r = 0, 1, ..., n - 1 in turn (a field such as
 * drag): as n calls of mb_linsys_sink_block. */
void mb_linsys_sink_diagonal(mb_linsys_sink *k, const double C[9], const double K[9]);
/* The four blocks of a two-node element in the order (i, i) -(K, C), (i, j) (K, C),
 * (j, i) (K, C), (j, j) -(K, C): as four calls of mb_linsys_sink_block. */
void mb_linsys_sink_pair(mb_linsys_sink *k, size_t i, size_t j, const double C[9],
                         const double K[9]);
/* Fold the next field of the list, whose blocks are (C, K) at (r, r) for r = 0, ..., n - 1
 * (as mb_linsys_sink_diagonal), into the pass of the model at work, which reports each
 * node whose last block it has handed over (mb_linsys_sink_node_done); only fields with
 * no blocks between them and that model.  1 when folded; 0 when it cannot be (too many,
 * or out of memory): the field then hands over its blocks itself. */
int mb_linsys_sink_fold(mb_linsys_sink *k, const double C[9], const double K[9]);
/* The model at work hands over no more blocks on node r: the folded blocks of r now, in
 * the order of the fields (nothing without folded fields, or when r is done). */
void mb_linsys_sink_node_done(mb_linsys_sink *k, size_t r);
/* 1 when fields are folded into the pass of the model at work: without, the nodes it is
 * done with need not be reported (mb_linsys_sink_node_done would do nothing). */
static inline int mb_linsys_sink_folding(const mb_linsys_sink *k)
{
    return k->nfold != 0;
}
/* The model's pass is over: the folded blocks of the nodes it did not report, in node
 * order; the folded blocks take their places in the list (checked against the CSR
 * pattern there) and folding ends. */
void mb_linsys_sink_fold_end(mb_linsys_sink *k);
/* After the last block: the fixed rows of A and b.  1 when A and b are complete; 0 when a
 * block had no slot in the storage, or a CSR storage received fewer blocks than its
 * pattern holds (a slot left at its mass-matrix value), or a fixed row falls on a block
 * the CSR storage shares with a mirror (mb_csr_fix_rows), and the step must be assembled
 * from a block list. */
int mb_linsys_sink_finish(mb_linsys_sink *k);

#endif
