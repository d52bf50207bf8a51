/* bench_rebuild.c -- the plain rebuild of one linearised backward-Euler system
 * (bench_rebuild.h): per spring, with d = x_j - x_i, l = |d|, n = d / l, dv = v_j - v_i,
 *   F = [k (l - L) + c dv.n] n,   C = c n n^T,
 *   K = k (1 - L/l) I + k (L/l) n n^T + (c/l) [n (dv - (dv.n) n)^T + (dv.n)(I - n n^T)]
 * (F = k d, K = k I, C = 0 for the linear spring L = c = 0), f_i += F, f_j -= F, and
 * G = h C + h^2 K added to A(i,i), A(j,j) and subtracted from A(i,j), A(j,i); gravity
 * m g and drag -D v per node; b = M v + h f - h C v; rows of fixed degrees of freedom
 * d e_k^T with b_k = d v_k (d = mass, 1 for infinite mass) -- the system of DESIGN 4.1. */
#include "bench_rebuild.h"
#include "bench_pair.h"
#include "block3_lanes.h"
#include "mb_compiler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bench_rebuild_free(bench_rebuild *R)
{
    if (R == NULL)
        return;
    free(R->f); free(R->b); free(R->vals); free(R->soff); free(R->doff); free(R->stride);
    free(R->zero); free(R->fixed_dof); free(R->fixed_val);
    free(R);
}

/* offset of block (r, c) in the CSR values; 0 and *ok = 0 when it has no slot */
static size_t block_offset(const mb_csr *csr, size_t r, size_t c, int *ok)
{
    const gsl_spmatrix *A = csr->A;
    for (int p = A->p[3 * r]; p < A->p[3 * r + 1]; p++)
        if ((size_t)A->i[p] == 3 * c)
            return (size_t)p;
    *ok = 0;
    return 0;
}

/* the springs model of the field, or NULL */
static const void *springs_of(const mb_system *sys)
{
    for (size_t m = 0; m < sys->forces->count; m++)
        if (sys->forces->items[m].type == mb_force_springs)
            return sys->forces->items[m].params;
    return NULL;
}

/* value offsets of row k (fixed) and its diagonal: on a chain its three entries in each
 * of [D_i | b_i] (not b_i), L_i and U_i (header), in CSR the row's values */
static void fixed_row(bench_rebuild *R, const mb_csr *csr, size_t k, size_t *nz)
{
    size_t i = k / 3, a = k % 3;
    if (csr == NULL) {
        size_t rows[3] = { 12 * i + 4 * a, 12 * R->n + 9 * i + 3 * a, 21 * R->n + 9 * i + 3 * a };
        for (int blk = 0; blk < 3; blk++)
            for (size_t e = 0; e < 3; e++)
                R->zero[(*nz)++] = rows[blk] + e;
        R->fixed_val[R->nfixed] = 12 * i + 5 * a;
    } else {
        for (int p = csr->A->p[k]; p < csr->A->p[k + 1]; p++)
            R->zero[(*nz)++] = (size_t)p;
        R->fixed_val[R->nfixed] = R->doff[i] + a * R->stride[i] + a;
    }
    R->fixed_dof[R->nfixed++] = k;
}

/* entry k of b: on a chain the fourth column of row k of [D_i | b_i] */
static double *rhs_entry(bench_rebuild *R, size_t k)
{
    return R->chain ? &R->Db[12 * (k / 3) + 4 * (k % 3) + 3] : &R->b[k];
}

/* spring m joins nodes m and m + 1, in order, and nothing else (the chain's form) */
static int springs_chain(const bench_rebuild *R)
{
    int chain = R->ns + 1 == R->n;
    for (size_t m = 0; m < R->ns && chain; m++)
        chain = R->sp[m].i == m && R->sp[m].j == m + 1 && !R->sp[m].anchored
                && !R->sp[m].has_arms;
    return chain;
}

/* the chain's arrays: Db | L | U in one block, 16-byte aligned for Db's pairs */
static int chain_alloc(bench_rebuild *R)
{
    R->nvals = 30 * R->n;
    R->vals = aligned_alloc(16, R->nvals * sizeof(double));
    if (R->vals == NULL)
        return 0;
    R->Db = R->vals;
    R->L = R->vals + 12 * R->n;
    R->U = R->vals + 21 * R->n;
    return 1;
}

/* the CSR pattern's arrays and the offsets of the springs' blocks and the diagonals */
static int csr_alloc(bench_rebuild *R, const mb_csr *csr)
{
    R->nvals = csr->A->nz;
    R->f = malloc(3 * R->n * sizeof(double));
    R->b = malloc(3 * R->n * sizeof(double));
    R->vals = malloc(R->nvals * sizeof(double));
    R->soff = malloc((4 * R->ns + 1) * sizeof(size_t));
    R->doff = malloc(R->n * sizeof(size_t));
    R->stride = malloc(R->n * sizeof(size_t));
    int ok = R->f && R->b && R->vals && R->soff && R->doff && R->stride;
    for (size_t i = 0; ok && i < R->n; i++) {
        R->doff[i] = block_offset(csr, i, i, &ok);
        R->stride[i] = (size_t)(csr->A->p[3 * i + 1] - csr->A->p[3 * i]);
    }
    for (size_t m = 0; ok && m < R->ns; m++) {
        const mb_spring *sp = &R->sp[m];
        ok = !sp->anchored && !sp->has_arms;
        size_t ij[4][2] = { { sp->i, sp->i }, { sp->i, sp->j }, { sp->j, sp->i }, { sp->j, sp->j } };
        for (int q = 0; ok && q < 4; q++)
            R->soff[4 * m + (size_t)q] = block_offset(csr, ij[q][0], ij[q][1], &ok);
    }
    return ok;
}

bench_rebuild *bench_rebuild_alloc(const mb_system *sys, const double g[3], double D,
                                   const mb_csr *csr)
{
    const void *springs = springs_of(sys);
    const mb_nodes *s = sys->nodes;
    if (springs == NULL)
        return NULL;
    bench_rebuild *R = calloc(1, sizeof *R);
    if (R == NULL)
        return NULL;
    R->n = s->n;
    R->ns = mb_springs_count(springs);
    R->sp = mb_springs_items(springs);
    memcpy(R->g, g, sizeof R->g);
    R->D = D;
    R->chain = csr == NULL;
    int ok = R->chain ? springs_chain(R) && chain_alloc(R) : csr_alloc(R, csr);
    size_t maxzero = R->chain ? 27 * R->n : R->nvals;
    R->zero = ok ? malloc(maxzero * sizeof(size_t)) : NULL;
    R->fixed_dof = malloc(3 * R->n * sizeof(size_t));
    R->fixed_val = malloc(3 * R->n * sizeof(size_t));
    ok = ok && R->zero && R->fixed_dof && R->fixed_val;
    size_t nz = 0;
    for (size_t k = 0; ok && k < 3 * R->n; k++)
        if (s->inv_mass[k / 3] == 0.0 || (s->blocked[k / 3] & (1u << (k % 3))) != 0)
            fixed_row(R, csr, k, &nz);
    R->nzero = nz;
    if (!ok) {
        bench_rebuild_free(R);
        return NULL;
    }
    return R;
}

/* G added to (add 1) or subtracted from (add 0) the block at offset off (row stride str),
 * each row's columns 0 and 1 two entries a lane (block3_row_addsub) */
static MB_ALWAYS_INLINE void add_block(double *vals, size_t off, size_t str, const double G[9],
                                       int add)
{
    MB_UNROLL(3)
    for (size_t a = 0; a < 3; a++)
        block3_row_addsub(&vals[off + a * str], &G[3 * a], add);
}

/* Spring m at the state of s: its force F on node i, G = h C + h^2 K, and hcdv = h (C dv),
 * the term of its blocks (i, i) and (i, j) in row i of b (header) */
static void spring_terms(const bench_rebuild *R, size_t m, const mb_nodes *s, double h,
                         double F[3], double G[9], double hcdv[3])
{
    const mb_spring *sp = &R->sp[m];
    size_t i = sp->i, j = sp->j;
    double d[3], dv[3], n[3], l2 = 0.0;
    for (int k = 0; k < 3; k++) {
        d[k] = s->x[3 * j + k] - s->x[3 * i + k];
        dv[k] = s->v[3 * j + k] - s->v[3 * i + k];
        l2 += d[k] * d[k];
    }
    double l = sqrt(l2), h2 = h * h;
    if (l == 0.0) {                     /* only the linear spring is defined here */
        memset(G, 0, 9 * sizeof(double));
        for (int k = 0; k < 3; k++) {
            F[k] = sp->k * d[k];
            G[4 * k] = h2 * sp->k;
            hcdv[k] = 0.0;
        }
        return;
    }
    for (int k = 0; k < 3; k++)
        n[k] = d[k] / l;
    double dvn = dv[0] * n[0] + dv[1] * n[1] + dv[2] * n[2];
    double mag = sp->k * (l - sp->rest) + sp->c * dvn;
    double kd = sp->k * (1.0 - sp->rest / l), kn = sp->k * sp->rest / l, cl = sp->c / l;
    for (int a = 0; a < 3; a++) {
        F[a] = mag * n[a];
        for (int e = 0; e < 3; e++) {
            double nn = n[a] * n[e], id = a == e ? 1.0 : 0.0;
            double K = kd * id + kn * nn + cl * (n[a] * (dv[e] - dvn * n[e]) + dvn * (id - nn));
            G[3 * a + e] = h * sp->c * nn + h2 * K;
        }
        hcdv[a] = h * sp->c * dvn * n[a];
    }
}

static void rebuild_spring(bench_rebuild *R, size_t m, const mb_nodes *s, double h)
{
    const mb_spring *sp = &R->sp[m];
    size_t i = sp->i, j = sp->j;
    double F[3], G[9], hcdv[3];
    spring_terms(R, m, s, h, F, G, hcdv);
    for (int k = 0; k < 3; k++) {
        R->b[3 * i + k] -= hcdv[k];             /* -h (C_ii v_i + C_ij v_j) */
        R->b[3 * j + k] += hcdv[k];
        R->f[3 * i + k] += F[k];
        R->f[3 * j + k] -= F[k];
    }
    const size_t *o = &R->soff[4 * m];
    add_block(R->vals, o[0], R->stride[i], G, 1);
    add_block(R->vals, o[1], R->stride[i], G, 0);
    add_block(R->vals, o[2], R->stride[j], G, 0);
    add_block(R->vals, o[3], R->stride[j], G, 1);
}

/* The rows of fixed degrees of freedom: d e_k^T, b_k = d v_k (on a chain b_k in the
 * fourth column of its row) */
static void rebuild_fixed_rows(bench_rebuild *R, const mb_nodes *s)
{
    for (size_t z = 0; z < R->nzero; z++)
        R->vals[R->zero[z]] = 0.0;
    for (size_t q = 0; q < R->nfixed; q++) {
        size_t k = R->fixed_dof[q];
        double dk = s->inv_mass[k / 3] == 0.0 ? 1.0 : s->mass[k / 3];
        R->vals[R->fixed_val[q]] = dk;
        *rhs_entry(R, k) = dk * s->v[k];
    }
}

/* A spring's block G of a chain and its elastic force E, by rows in pairs: r[a] holds
 * (G_a0, G_a1), c2 (G_02, G_12), e (E_0, E_1) */
typedef struct chain_block {
    bench_pair r[3], c2, e;
    double g22, e2;
} chain_block;

/* G = h^2 k I, E = 0: the linear spring at l = 0; k = 0 the block of no spring */
static MB_ALWAYS_INLINE chain_block chain_block_linear(double h2k)
{
    return (chain_block){ .r = { { h2k, 0.0 }, { 0.0, h2k }, { 0.0, 0.0 } }, .c2 = { 0.0, 0.0 },
                          .e = { 0.0, 0.0 }, .g22 = h2k, .e2 = 0.0 };
}

/* Spring i of a chain (joining nodes i and i + 1) at the state of s: G = h C + h^2 K and
 * the elastic force E = k (l - L) n on node i (header; F - C dv = E, so the dashpot's
 * force and its term of C v cancel in b and neither is formed; the linear spring
 * L = c = 0 at l = 0 has E = k d = 0 and G = h^2 k I).  G is formed as the header's
 * expression collected by its terms in I, n n^T and n dv^T:
 *   G = alpha I + n p^T,  alpha = h^2 (k (1 - L/l) + (c/l) dv.n),
 *   p = (h c + h^2 (k L/l - 2 (c/l) dv.n)) n + h^2 (c/l) dv
 * (12 products where the entries one by one took about 60), with one division, 1/l;
 * components 0 and 1 of d, dv, n, p and E in the two lanes of a pair, 2 alone. */
static MB_ALWAYS_INLINE chain_block chain_spring(const mb_spring *sp, const mb_nodes *s,
                                                 double h)
{
    const double *x = &s->x[3 * sp->i], *v = &s->v[3 * sp->i];
    const bench_pair d = bench_pair_load(x + 3) - bench_pair_load(x),
                     dv = bench_pair_load(v + 3) - bench_pair_load(v), dd = d * d;
    const double d2 = x[5] - x[2], dv2 = v[5] - v[2], h2 = h * h;
    const double l = sqrt((dd[0] + dd[1]) + d2 * d2);
    if (l == 0.0)
        return chain_block_linear(h2 * sp->k);
    const double il = 1.0 / l, n2 = d2 * il;
    const bench_pair n = d * il, dvn01 = dv * n;
    const double dvn = (dvn01[0] + dvn01[1]) + dv2 * n2, e = sp->k * (l - sp->rest);
    const double kd = sp->k * (1.0 - sp->rest * il), kn = sp->k * (sp->rest * il);
    const double cl = sp->c * il, hcl = h2 * cl;
    const double alpha = h2 * (kd + cl * dvn), beta = h * sp->c + h2 * (kn - 2.0 * cl * dvn);
    const bench_pair p = beta * n + hcl * dv;
    const double p2 = beta * n2 + hcl * dv2;
    chain_block g;
    g.r[0] = n[0] * p + (bench_pair){ alpha, 0.0 };
    g.r[1] = n[1] * p + (bench_pair){ 0.0, alpha };
    g.r[2] = n2 * p;
    g.c2 = n * p2;
    g.g22 = n2 * p2 + alpha;
    g.e = e * n;
    g.e2 = e * n2;
    return g;
}

/* -G at q, row-major (L_i or U_i) */
static MB_ALWAYS_INLINE void chain_block_store_neg(double *q, const chain_block *g)
{
    const bench_pair c2 = -g->c2;
    bench_pair_store(q, -g->r[0]);
    q[2] = c2[0];
    bench_pair_store(q + 3, -g->r[1]);
    q[5] = c2[1];
    bench_pair_store(q + 6, -g->r[2]);
    q[8] = -g->g22;
}

/* the constants of a chain's rebuild: h, h D and gravity's (g0, g1) and g2 */
typedef struct chain_consts {
    double h, hD, g2;
    bench_pair g01;
} chain_consts;

/* Node i's rows [D_i | b_i] (two pairs a row), L_i = -G_{i-1} and U_i = -G_i, from the
 * blocks of its springs gp = G_{i-1} and g = G_i (rebuild_chain) */
static MB_ALWAYS_INLINE void chain_node(bench_rebuild *R, const mb_nodes *s, size_t i,
                                        const chain_consts *K, const chain_block *gp,
                                        const chain_block *g)
{
    const double m = s->mass[i], md = m + K->hD, *v = &s->v[3 * i], h = K->h;
    const bench_pair b = m * bench_pair_load(v) + h * (m * K->g01 + (g->e - gp->e));
    const double b2 = m * v[2] + h * (m * K->g2 + (g->e2 - gp->e2));
    const bench_pair c2 = gp->c2 + g->c2;
    double *row = &R->Db[12 * i];
    bench_pair_store_aligned(row, ((bench_pair){ md, 0.0 } + gp->r[0]) + g->r[0]);
    bench_pair_store_aligned(row + 2, (bench_pair){ c2[0], b[0] });
    bench_pair_store_aligned(row + 4, ((bench_pair){ 0.0, md } + gp->r[1]) + g->r[1]);
    bench_pair_store_aligned(row + 6, (bench_pair){ c2[1], b[1] });
    bench_pair_store_aligned(row + 8, gp->r[2] + g->r[2]);
    bench_pair_store_aligned(row + 10, (bench_pair){ (md + gp->g22) + g->g22, b2 });
    chain_block_store_neg(&R->L[9 * i], gp);
    chain_block_store_neg(&R->U[9 * i], g);
}

/* A chain in the lean step's form: one pass over the nodes, spring i's terms
 * formed once, node i's rows of [D_i | b_i] (the right-hand side as a fourth column,
 * header) and its L and U blocks written once each,
 *   D_i = (m_i + h D) I + G_{i-1} + G_i,  L_i = -G_{i-1},  U_i = -G_i,
 *   b_i = m_i v_i + h (m_i g + E_i - E_{i-1})
 * (drag's -h D v of f cancels against its h D v of -h C v); no forces are stored (the
 * step needs A and b alone), the fixed rows last.  A row's columns 0 and 1 and its
 * column 2 and b in two pairs (bench_pair.h), G_{i-1} kept in registers from one node
 * to the next; the last node has no spring of its own. */
static void rebuild_chain(bench_rebuild *R, const mb_nodes *s, double h)
{
    const chain_consts K = { h, h * R->D, R->g[2], { R->g[0], R->g[1] } };
    chain_block gp = chain_block_linear(0.0);
    for (size_t i = 0; i < R->ns; i++) {
        const chain_block g = chain_spring(&R->sp[i], s, h);
        chain_node(R, s, i, &K, &gp, &g);
        gp = g;
    }
    const chain_block none = chain_block_linear(0.0);
    chain_node(R, s, R->ns, &K, &gp, &none);
    rebuild_fixed_rows(R, s);
}

void bench_rebuild_run(bench_rebuild *R, const mb_nodes *s, double h)
{
    if (R->chain) {
        rebuild_chain(R, s, h);
        return;
    }
    memset(R->vals, 0, R->nvals * sizeof(double));
    for (size_t i = 0; i < R->n; i++) {
        double m = s->mass[i], grav = s->inv_mass[i] == 0.0 ? 0.0 : m;
        for (size_t a = 0; a < 3; a++) {
            R->f[3 * i + a] = grav * R->g[a] - R->D * s->v[3 * i + a];
            R->b[3 * i + a] = h * R->D * s->v[3 * i + a];        /* -h C_drag v */
            R->vals[R->doff[i] + a * R->stride[i] + a] = m + h * R->D;
        }
    }
    for (size_t m = 0; m < R->ns; m++)
        rebuild_spring(R, m, s, h);
    for (size_t k = 0; k < 3 * R->n; k++)
        R->b[k] += s->mass[k / 3] * s->v[k] + h * R->f[k];
    rebuild_fixed_rows(R, s);
}
