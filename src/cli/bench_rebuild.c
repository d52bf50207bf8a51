/* bench_rebuild.c -- the plain rebuild of one linearised backward-Euler system
 * (bench_rebuild.h): per spring, with d = x_j - x_i, l = |d|, n = d / l, dv = v_j - v_i,
 *   F = [k (l - L) + c dv.n] n,   C = c n n^T,
 *   K = k (1 - L/l) I + k (L/l) n n^T + (c/l) [n (dv - (dv.n) n)^T + (dv.n)(I - n n^T)]
 * (F = k d, K = k I, C = 0 for the linear spring L = c = 0), f_i += F, f_j -= F, and
 * G = h C + h^2 K added to A(i,i), A(j,j) and subtracted from A(i,j), A(j,i); gravity
 * m g and drag -D v per node; b = M v + h f - h C v; rows of fixed degrees of freedom
 * d e_k^T with b_k = d v_k (d = mass, 1 for infinite mass) -- the system of DESIGN 4.1. */
#include "bench_rebuild.h"
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

/* offset of block (r, c) in the storage; 0 and *ok = 0 when it has no slot */
static size_t block_offset(const bench_rebuild *R, const mb_csr *csr, size_t r, size_t c, int *ok)
{
    if (csr == NULL) {
        if (r == c)
            return 9 * r;
        if (c + 1 == r)
            return 9 * R->n + 9 * r;
        if (r + 1 == c)
            return 18 * R->n + 9 * r;
    } else {
        const gsl_spmatrix *A = csr->A;
        for (int p = A->p[3 * r]; p < A->p[3 * r + 1]; p++)
            if ((size_t)A->i[p] == 3 * c)
                return (size_t)p;
    }
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

/* value offsets of row k (fixed) and its diagonal */
static void fixed_row(bench_rebuild *R, const mb_csr *csr, size_t k, size_t *nz)
{
    size_t i = k / 3, a = k % 3;
    if (csr == NULL) {
        for (int blk = 0; blk < 3; blk++)
            for (size_t e = 0; e < 3; e++)
                R->zero[(*nz)++] = 9 * R->n * (size_t)blk + 9 * i + 3 * a + e;
    } else {
        for (int p = csr->A->p[k]; p < csr->A->p[k + 1]; p++)
            R->zero[(*nz)++] = (size_t)p;
    }
    R->fixed_dof[R->nfixed] = k;
    R->fixed_val[R->nfixed++] = R->doff[i] + a * R->stride[i] + a;
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
    R->nvals = csr ? csr->A->nz : 27 * R->n;
    size_t maxzero = csr ? R->nvals : 27 * R->n;
    R->f = malloc(3 * R->n * sizeof(double));
    R->b = malloc(3 * R->n * sizeof(double));
    R->vals = malloc(R->nvals * sizeof(double));
    R->soff = malloc((4 * R->ns + 1) * sizeof(size_t));
    R->doff = malloc(R->n * sizeof(size_t));
    R->stride = malloc(R->n * sizeof(size_t));
    R->zero = malloc(maxzero * sizeof(size_t));
    R->fixed_dof = malloc(3 * R->n * sizeof(size_t));
    R->fixed_val = malloc(3 * R->n * sizeof(size_t));
    int ok = R->f && R->b && R->vals && R->soff && R->doff && R->stride && R->zero
             && R->fixed_dof && R->fixed_val;
    for (size_t i = 0; ok && i < R->n; i++) {
        R->doff[i] = block_offset(R, csr, i, i, &ok);
        R->stride[i] = csr ? (size_t)(csr->A->p[3 * i + 1] - csr->A->p[3 * i]) : 3;
    }
    for (size_t m = 0; ok && m < R->ns; m++) {
        const mb_spring *sp = &R->sp[m];
        ok = !sp->anchored && !sp->has_arms;
        size_t ij[4][2] = { { sp->i, sp->i }, { sp->i, sp->j }, { sp->j, sp->i }, { sp->j, sp->j } };
        for (int q = 0; ok && q < 4; q++)
            R->soff[4 * m + (size_t)q] = block_offset(R, csr, ij[q][0], ij[q][1], &ok);
    }
    size_t nz = 0;
    for (size_t k = 0; ok && k < 3 * R->n; k++)
        if (s->inv_mass[k / 3] == 0.0 || (s->blocked[k / 3] & (1u << (k % 3))) != 0)
            fixed_row(R, csr, k, &nz);
    R->nzero = nz;
    R->chain = csr == NULL && R->ns + 1 == R->n;
    for (size_t m = 0; m < R->ns && R->chain; m++)
        R->chain = R->sp[m].i == m && R->sp[m].j == m + 1;
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

/* The rows of fixed degrees of freedom: d e_k^T, b_k = d v_k */
static void rebuild_fixed_rows(bench_rebuild *R, const mb_nodes *s)
{
    for (size_t z = 0; z < R->nzero; z++)
        R->vals[R->zero[z]] = 0.0;
    for (size_t q = 0; q < R->nfixed; q++) {
        size_t k = R->fixed_dof[q];
        double dk = s->inv_mass[k / 3] == 0.0 ? 1.0 : s->mass[k / 3];
        R->vals[R->fixed_val[q]] = dk;
        R->b[k] = dk * s->v[k];
    }
}

/* Spring i of a chain (joining nodes i and i + 1) at the state of s: G = h C + h^2 K and
 * the elastic force E = k (l - L) n on node i (header; F - C dv = E, so the dashpot's
 * force and its term of C v cancel in b and neither is formed; the linear spring
 * L = c = 0 at l = 0 has E = k d = 0 and G = h^2 k I).  G is formed as the header's
 * expression collected by its terms in I, n n^T and n dv^T:
 *   G = alpha I + n p^T,  alpha = h^2 (k (1 - L/l) + (c/l) dv.n),
 *   p = (h c + h^2 (k L/l - 2 (c/l) dv.n)) n + h^2 (c/l) dv
 * (12 products where the entries one by one took about 60). */
static void chain_spring(const mb_spring *sp, const mb_nodes *s, double h, double G[9],
                         double E[3])
{
    const double *x = &s->x[3 * sp->i], *v = &s->v[3 * sp->i];
    double d[3] = { x[3] - x[0], x[4] - x[1], x[5] - x[2] };
    double dv[3] = { v[3] - v[0], v[4] - v[1], v[5] - v[2] };
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), h2 = h * h;
    if (l == 0.0) {
        for (int q = 0; q < 9; q++)
            G[q] = q % 4 == 0 ? h2 * sp->k : 0.0;
        E[0] = E[1] = E[2] = 0.0;
        return;
    }
    double n[3] = { d[0] / l, d[1] / l, d[2] / l };
    double dvn = dv[0] * n[0] + dv[1] * n[1] + dv[2] * n[2], e = sp->k * (l - sp->rest);
    double kd = sp->k * (1.0 - sp->rest / l), kn = sp->k * sp->rest / l, cl = sp->c / l;
    double alpha = h2 * (kd + cl * dvn), beta = h * sp->c + h2 * (kn - 2.0 * cl * dvn);
    double p[3];
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        p[a] = beta * n[a] + h2 * cl * dv[a];
        E[a] = e * n[a];
    }
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++)
        MB_UNROLL(3)
        for (int q = 0; q < 3; q++)
            G[3 * a + q] = a == q ? n[a] * p[q] + alpha : n[a] * p[q];
}

/* A chain in the lean step's form: one pass over the nodes, spring i's terms
 * formed once, node i's D, L and U blocks and its b written once each,
 *   D_i = (m_i + h D) I + G_{i-1} + G_i,  L_i = -G_{i-1},  U_i = -G_i,
 *   b_i = m_i v_i + h (m_i g + E_i - E_{i-1})
 * (drag's -h D v of f cancels against its h D v of -h C v); no forces are stored (the
 * step needs A and b alone), the fixed rows last.  The blocks two entries a lane (SSE2,
 * block3_lanes.h), G_{i-1} kept in registers from one node to the next. */
static void rebuild_chain(bench_rebuild *R, const mb_nodes *s, double h)
{
    double Ep[3] = { 0 }, G[9], E[3];
    double *Dn = R->vals, *Ln = R->vals + 9 * R->n, *Un = R->vals + 18 * R->n, hD = h * R->D;
    block3_lanes gp = block3_zero();
    for (size_t i = 0; i < R->n; i++) {
        if (i < R->ns)
            chain_spring(&R->sp[i], s, h, G, E);
        else
            memset(G, 0, sizeof G), memset(E, 0, sizeof E);
        double m = s->mass[i], md = m + hD;
        block3_lanes g = block3_load(G);
        block3_store(&Dn[9 * i], block3_add(block3_add(block3_mass(md), gp), g));
        block3_store(&Ln[9 * i], block3_neg(gp));
        block3_store(&Un[9 * i], block3_neg(g));
        MB_UNROLL(3)
        for (int a = 0; a < 3; a++) {
            size_t k = 3 * i + (size_t)a;
            R->b[k] = m * s->v[k] + h * (m * R->g[a] + (E[a] - Ep[a]));
        }
        gp = g;
        memcpy(Ep, E, sizeof E);
    }
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
