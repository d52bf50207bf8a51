/* chain_driver.c -- an independent check of `motionbench bench implicit-chain`'s verdict:
 * the whole linearised backward-Euler step of the library (mb_stepper_step of
 * implicit-euler on the spring-chain problem, public API) against two lean steps written
 * here for the same chain, a scalar one and one whose block work runs two doubles a lane
 * (SSE2), timed alternately in one process.  It shares no code with the benchmark.
 *
 * The lean step, one assembly plus one block-tridiagonal solve (Baraff & Witkin 1998,
 * eq. 6 in velocity form; DESIGN 4.1):
 *     (M - h C - h^2 K) v+ = M v + h f - h C v,   x+ = x + h v+.
 * Spring s joins nodes s and s + 1: d = x_{s+1} - x_s, l = |d|, n = d / l, w = v_{s+1} - v_s,
 * F = [k (l - L) + c w.n] n on node s (-F on s + 1), C = c n n^T and
 *     K = k (1 - L/l) I + k (L/l) n n^T + (c/l) [n (w - (w.n) n)^T + (w.n)(I - n n^T)]
 * (the derivatives of F by x_{s+1} and v_{s+1}).  With G_s = h C + h^2 K the blocks of
 * node i are written once each, in one pass over the nodes:
 *     D_i = (m_i + h D) I + G_{i-1} + G_i,   L_i = -G_{i-1},   U_i = -G_i,
 *     b_i = m_i v_i + h m_i g + h (R_i - R_{i-1}),   R_s = k (l - L) n
 * (F - C w: the dashpot's force cancels against its term of C v; drag D cancels in b).  A
 * pinned node's rows are m e_a^T, b_a = m v_a, and its v+ is v (zero acceleration).  The
 * solve is the block Thomas algorithm (Golub & Van Loan, Matrix Computations, 4th ed.,
 * sec. 4.5.1): S_i = D_i - L_i X_{i-1}, X_i = S_i^-1 U_i, z_i = S_i^-1 (b_i - L_i z_{i-1}),
 * v+_i = z_i - X_i v+_{i+1}, S_i^-1 by cofactors.  No zeroing, no checks: only the work.
 * The scalar step (lean_step) forms G entry by entry as written above; the lane step
 * (lane_step, below) collects it as alpha I + n p^T and keeps z_i in the fourth column of
 * the sweep's rows.  Both are timed as batches of whole steps (the clock read once around
 * a batch, as for the library's step), their small loops unrolled, their helpers inlined,
 * nothing allocated in the timed loop.
 *
 * Build and run from a built tree (x86-64: SSE2 is part of the base instruction set):
 *   gcc -O2 -ffp-contract=off -I src/core -I src/forces -I src/integrators -I src/problems \
 *       -I src/metrics -I src -I . -o chain_driver tools/peers/chain_driver.c \
 *       -L.libs -lmotionbench -lm
 *   LD_LIBRARY_PATH=.libs ./chain_driver PARTICLES [ROUNDS]
 * First one step of each code from the same state: each lean step's v+ and x+ must agree
 * with the library's to round-off (largest difference relative to the largest value,
 * printed; above 1e-9, or NaN, exit 1).  The limit: two backward-stable solves of the
 * same system agree to 2 n u kappa(A) growth (test_cli_simulate.c: 1e-9 for kappa ~ 10^2
 * and growth <= 16); the lean steps' A and b differ from the library's by a few rounding
 * errors an entry (the lane step's G = alpha I + n p^T, n = d (1/l), and its
 * S^-1 U = (cof(S)^T U) / det are other roundings of the same expressions), which adds
 * about kappa(A) times 10 u ~ 10^-13: far below the limit.  Measured: 4e-16 to 6e-16.
 * Then ROUNDS rounds (default 9), each timing a batch of library steps, a batch of
 * scalar lean steps and a batch of lane lean steps (at least 0.05 s of CPU time of this
 * thread each; every code advances its own chain); prints the lean steps' configuration,
 * the three costs per node-step (medians) and the median, smallest and largest of the
 * rounds' ratios library / scalar lean and library / lane lean.  Instructions per
 * node-step of each code: valgrind's callgrind with --toggle-collect=mb_stepper_step,
 * --toggle-collect='lean_step*' or --toggle-collect=lane_step. */
#include <emmintrin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mb_options.h"
#include "mb_problem.h"
#include "mb_stepper.h"
#include "mb_system.h"

/* unroll the small fixed loop that follows (GCC keeps 3- and 9-trip loops rolled at -O2;
 * the library's hot loops are unrolled so, and the lean step gets the same hint) */
#define UNROLL_STRING(x) #x
#define UNROLL(n) _Pragma(UNROLL_STRING(GCC unroll n))

#define BATCH_SECONDS 0.05
#define MAX_ROUNDS 101
#define AGREEMENT 1e-9

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The lean chain: its parameters, its own state and the blocks of its system */
struct lean {
    size_t n;
    double k, rest, c, drag, g[3];
    const double *m;            /* masses (the library's, read only) */
    unsigned char *pinned;      /* per node: its three axes fixed */
    double *x, *v, *xn, *vn;    /* state, next state */
    double *D, *L, *U, *b;      /* 9 n, 9 n, 9 n, 3 n */
    double *X, *z;              /* 9 n, 3 n */
};

/* G = h c n n^T + h^2 K of one spring and R = k (l - L) n, from d and w (header) */
static void spring_blocks(const struct lean *c, const double d[3], const double w[3],
                          double h, double G[9], double R[3])
{
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double n[3] = { d[0] / l, d[1] / l, d[2] / l };
    double wn = w[0] * n[0] + w[1] * n[1] + w[2] * n[2];
    double ka = c->k * (1.0 - c->rest / l), kb = c->k * c->rest / l, cl = c->c / l;
    double hc = h * c->c, h2 = h * h, e = c->k * (l - c->rest);
    UNROLL(3)
    for (int a = 0; a < 3; a++) {
        UNROLL(3)
        for (int q = 0; q < 3; q++) {
            double nn = n[a] * n[q], id = a == q ? 1.0 : 0.0;
            double K = ka * id + kb * nn + cl * (n[a] * (w[q] - wn * n[q]) + wn * (id - nn));
            G[3 * a + q] = hc * nn + h2 * K;
        }
        R[a] = e * n[a];
    }
}

/* The rows of pinned node i: m e_a^T, b_a = m v_a */
static void pin_rows(struct lean *c, size_t i)
{
    double *Di = &c->D[9 * i], *Li = &c->L[9 * i], *Ui = &c->U[9 * i];
    UNROLL(9)
    for (int q = 0; q < 9; q++)
        Di[q] = Li[q] = Ui[q] = 0.0;
    UNROLL(3)
    for (int a = 0; a < 3; a++) {
        Di[4 * a] = c->m[i];
        c->b[3 * i + a] = c->m[i] * c->v[3 * i + a];
    }
}

/* The system of the step: every block and b written once, node by node */
static void lean_assemble(struct lean *c, double h)
{
    double Gp[9] = { 0 }, Rp[3] = { 0 }, G[9], R[3];
    for (size_t i = 0; i < c->n; i++) {
        if (i + 1 < c->n) {
            double d[3], w[3];
            UNROLL(3)
            for (int a = 0; a < 3; a++) {
                d[a] = c->x[3 * (i + 1) + a] - c->x[3 * i + a];
                w[a] = c->v[3 * (i + 1) + a] - c->v[3 * i + a];
            }
            spring_blocks(c, d, w, h, G, R);
        } else {
            memset(G, 0, sizeof G);
            memset(R, 0, sizeof R);
        }
        double md = c->m[i] + h * c->drag, *Di = &c->D[9 * i];
        UNROLL(9)
        for (int q = 0; q < 9; q++) {
            Di[q] = (q % 4 == 0 ? md : 0.0) + Gp[q] + G[q];
            c->L[9 * i + q] = -Gp[q];
            c->U[9 * i + q] = -G[q];
        }
        UNROLL(3)
        for (int a = 0; a < 3; a++)
            c->b[3 * i + a] = c->m[i] * c->v[3 * i + a] + h * (c->m[i] * c->g[a] + R[a] - Rp[a]);
        if (c->pinned[i])
            pin_rows(c, i);
        memcpy(Gp, G, sizeof G);
        memcpy(Rp, R, sizeof R);
    }
}

/* inv = a^-1 by cofactors */
static void invert3(const double *a, double *inv)
{
    double c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8],
           c2 = a[3] * a[7] - a[4] * a[6];
    double r = 1.0 / (a[0] * c0 + a[1] * c1 + a[2] * c2);
    inv[0] = c0 * r, inv[1] = (a[2] * a[7] - a[1] * a[8]) * r, inv[2] = (a[1] * a[5] - a[2] * a[4]) * r;
    inv[3] = c1 * r, inv[4] = (a[0] * a[8] - a[2] * a[6]) * r, inv[5] = (a[2] * a[3] - a[0] * a[5]) * r;
    inv[6] = c2 * r, inv[7] = (a[1] * a[6] - a[0] * a[7]) * r, inv[8] = (a[0] * a[4] - a[1] * a[3]) * r;
}

/* The block Thomas sweep of A vn = b, then x+ = x + h v+ */
static void lean_solve(struct lean *c, double h)
{
    double S[9], Si[9], r[3];
    for (size_t i = 0; i < c->n; i++) {
        const double *Di = &c->D[9 * i], *Li = &c->L[9 * i], *bi = &c->b[3 * i];
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            UNROLL(3)
            for (int q = 0; q < 3; q++)
                S[3 * a + q] = i == 0 ? Di[3 * a + q]
                             : Di[3 * a + q] - (Li[3 * a] * c->X[9 * (i - 1) + q]
                                                + Li[3 * a + 1] * c->X[9 * (i - 1) + 3 + q]
                                                + Li[3 * a + 2] * c->X[9 * (i - 1) + 6 + q]);
            r[a] = i == 0 ? bi[a]
                 : bi[a] - (Li[3 * a] * c->z[3 * (i - 1)] + Li[3 * a + 1] * c->z[3 * (i - 1) + 1]
                            + Li[3 * a + 2] * c->z[3 * (i - 1) + 2]);
        }
        invert3(S, Si);
        const double *Ui = &c->U[9 * i];
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            UNROLL(3)
            for (int q = 0; q < 3; q++)
                c->X[9 * i + 3 * a + q] = Si[3 * a] * Ui[q] + Si[3 * a + 1] * Ui[3 + q]
                                          + Si[3 * a + 2] * Ui[6 + q];
            c->z[3 * i + a] = Si[3 * a] * r[0] + Si[3 * a + 1] * r[1] + Si[3 * a + 2] * r[2];
        }
    }
    for (size_t i = c->n; i-- > 0;)
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            double y = c->z[3 * i + a];
            if (i + 1 < c->n)
                y -= c->X[9 * i + 3 * a] * c->vn[3 * (i + 1)]
                     + c->X[9 * i + 3 * a + 1] * c->vn[3 * (i + 1) + 1]
                     + c->X[9 * i + 3 * a + 2] * c->vn[3 * (i + 1) + 2];
            c->vn[3 * i + a] = y;
        }
    for (size_t i = 0; i < c->n; i++)
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            size_t k = 3 * i + (size_t)a;
            if (c->pinned[i])
                c->vn[k] = c->v[k];
            c->xn[k] = c->x[k] + h * c->vn[k];
        }
}

/* One lean step: assembly, solve, the new state in place of the old */
static __attribute__((noinline)) void lean_step(struct lean *c, double h)
{
    lean_assemble(c, h);
    lean_solve(c, h);
    double *t = c->x;
    c->x = c->xn, c->xn = t;
    t = c->v;
    c->v = c->vn, c->vn = t;
}

static int lean_alloc(struct lean *c, const mb_options *p, const mb_nodes *s)
{
    size_t n = s->n;
    c->n = n;
    c->k = mb_options_double(p, "k");
    c->rest = mb_options_double(p, "rest");
    c->c = mb_options_double(p, "c");
    c->drag = mb_options_double(p, "D");
    c->g[0] = c->g[2] = 0.0;
    c->g[1] = -mb_options_double(p, "g");           /* the problem's gravity is along -y */
    c->m = s->mass;
    c->pinned = malloc(n);
    double **arrays[] = { &c->x, &c->v, &c->xn, &c->vn, &c->b, &c->z };
    for (size_t q = 0; q < 6; q++)
        *arrays[q] = malloc(3 * n * sizeof(double));
    c->D = malloc(9 * n * sizeof(double));
    c->L = malloc(9 * n * sizeof(double));
    c->U = malloc(9 * n * sizeof(double));
    c->X = malloc(9 * n * sizeof(double));
    if (!c->pinned || !c->x || !c->v || !c->xn || !c->vn || !c->b || !c->z || !c->D || !c->L
        || !c->U || !c->X)
        return -1;
    for (size_t i = 0; i < n; i++) {
        c->pinned[i] = s->blocked[i] != 0 || s->inv_mass[i] == 0.0;
        if (c->pinned[i] && (s->blocked[i] != 7u || s->inv_mass[i] == 0.0))
            return -1;                  /* only the problem's pins: all three axes */
    }
    memcpy(c->x, s->x, 3 * n * sizeof(double));
    memcpy(c->v, s->v, 3 * n * sizeof(double));
    return 0;
}

static void lean_free(struct lean *c)
{
    free(c->pinned);
    free(c->x), free(c->v), free(c->xn), free(c->vn), free(c->b), free(c->z);
    free(c->D), free(c->L), free(c->U), free(c->X);
}

/* ---- The lane-wise lean step: the same assembly and sweep, two doubles a lane (SSE2) ----
 * Layout: a row of [D_i | b_i] and of [X_i | z_i] is four numbers, held as two pairs,
 * (c0, c1) and (c2, 4th column); the right-hand side rides in the fourth column of the
 * sweep's products, [S_i | r_i] = [D_i | b_i] - L_i [X_{i-1} | z_{i-1}] and
 * [X_i | z_i] = S_i^-1 [U_i | r_i], so each product is pairs only.  L_i and U_i are 3x3,
 * row-major, their rows loaded as (c0, c1) and c2.  The spring's block in the form
 *     G = h C + h^2 K = alpha I + n p^T,   alpha = h^2 (k (1 - L/l) + (c/l) w.n),
 *     p = (h c + h^2 (k L/l - 2 (c/l) w.n)) n + h^2 (c/l) w
 * (the expression of the header, collected by terms in I, n n^T and n w^T).  S_i^-1 by
 * cofactors: the rows of cof(S) are the cross products of S's rows, S^-1 = cof(S)^T / det,
 * and [X_i | z_i] = (cof(S)^T [U_i | r_i]) (1/det), so the product runs while the division
 * does (the chain of dependent nodes waits for one multiplication after it).  The
 * backward pass forms x+ = x + h v+ node by node.  Of the two layouts measured, this one
 * ran 481 instructions a node-step (10^4 particles) against 552 for rows (c0, c1) + c2
 * with b and z apart, and 3-5 % less time (alternated, the same load). */
typedef __m128d pd;
#define INLINE static inline __attribute__((always_inline))

INLINE pd lo2(pd a) { return _mm_unpacklo_pd(a, a); }          /* (a0, a0) */
INLINE pd hi2(pd a) { return _mm_unpackhi_pd(a, a); }          /* (a1, a1) */
INLINE pd swap2(pd a) { return _mm_shuffle_pd(a, a, 1); }      /* (a1, a0) */
INLINE double lo(pd a) { return _mm_cvtsd_f64(a); }
INLINE double hsum(pd a) { return _mm_cvtsd_f64(_mm_add_sd(a, hi2(a))); }
INLINE pd all(double s) { return _mm_set1_pd(s); }
INLINE double root(double s) { return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(s))); }

/* a0 b0 + a1 b1 + a2 b2 of pairs, summed in that order */
INLINE pd madd3(pd a0, pd b0, pd a1, pd b1, pd a2, pd b2)
{
    return _mm_add_pd(_mm_add_pd(_mm_mul_pd(a0, b0), _mm_mul_pd(a1, b1)), _mm_mul_pd(a2, b2));
}

/* the lane-wise chain: state, the blocks and the sweep's rows (16-byte aligned) */
struct lanes {
    size_t n;
    double *x, *v, *xn, *vn;    /* 3 n each */
    double *Db, *L, *U, *Xz;    /* 12 n, 9 n, 9 n, 12 n */
};

/* the step's constants (header): h, h^2 k, h^2 k L, h^2 c, h c, k, L, h D, g */
struct lane_consts {
    double h, h2k, h2kL, h2c, hc, k, rest, hD, g2;
    pd g01;
};

/* a spring's G = alpha I + n p^T (rows' (c0, c1) pairs r[], (G02, G12) and G22) and its
 * R = k (l - L) n, from the end nodes' positions and velocities */
struct gblock {
    pd r[3], c01;
    double c22;
    pd R01;
    double R2;
};

INLINE struct gblock lane_spring(const struct lane_consts *K, pd xa, double xa2, pd xb,
                                  double xb2, pd va, double va2, pd vb, double vb2)
{
    struct gblock g;
    pd d = _mm_sub_pd(xb, xa), w = _mm_sub_pd(vb, va);
    double d2 = xb2 - xa2, w2 = vb2 - va2;
    double l = root(hsum(_mm_mul_pd(d, d)) + d2 * d2);
    double il = 1.0 / l;
    pd n = _mm_mul_pd(d, all(il));
    double n2 = d2 * il, wn = hsum(_mm_mul_pd(w, n)) + w2 * n2, t = K->h2c * wn;
    double alpha = K->h2k + il * (t - K->h2kL), beta = K->hc + il * (K->h2kL - 2.0 * t);
    double gam = K->h2c * il, e = K->k * (l - K->rest);
    pd p = _mm_add_pd(_mm_mul_pd(all(beta), n), _mm_mul_pd(all(gam), w));
    double p2 = beta * n2 + gam * w2;
    g.r[0] = _mm_add_pd(_mm_mul_pd(lo2(n), p), _mm_set_sd(alpha));
    g.r[1] = _mm_add_pd(_mm_mul_pd(hi2(n), p), _mm_set_pd(alpha, 0.0));
    g.r[2] = _mm_mul_pd(all(n2), p);
    g.c01 = _mm_mul_pd(n, all(p2));
    g.c22 = n2 * p2 + alpha;
    g.R01 = _mm_mul_pd(n, all(e));
    g.R2 = n2 * e;
    return g;
}

/* store -G row-major at q */
INLINE void store_neg(double *q, const struct gblock *g)
{
    const pd s = _mm_set1_pd(-0.0);
    _mm_storeu_pd(q, _mm_xor_pd(g->r[0], s));
    _mm_storeu_pd(q + 3, _mm_xor_pd(g->r[1], s));
    _mm_storeu_pd(q + 6, _mm_xor_pd(g->r[2], s));
    pd c = _mm_xor_pd(g->c01, s);
    _mm_storel_pd(q + 2, c);
    _mm_storeh_pd(q + 5, c);
    q[8] = -g->c22;
}

/* node i's rows: [D_i | b_i] from G_{i-1}, G_i; L_i = -G_{i-1}, U_i = -G_i */
INLINE void lane_node(struct lanes *c, const struct lean *s, const struct lane_consts *K,
                      size_t i, const struct gblock *gp, const struct gblock *g, pd v01,
                      double v2)
{
    double m = s->m[i], md = m + K->hD;
    double *Db = &c->Db[12 * i];
    pd b = _mm_add_pd(_mm_mul_pd(all(m), v01),
                      _mm_mul_pd(all(K->h), _mm_add_pd(_mm_mul_pd(all(m), K->g01),
                                                        _mm_sub_pd(g->R01, gp->R01))));
    double b2 = m * v2 + K->h * (m * K->g2 + (g->R2 - gp->R2));
    pd dc = _mm_add_pd(gp->c01, g->c01);
    if (s->pinned[i]) {                 /* rows m e_a^T, b = m v; no coupling */
        _mm_store_pd(Db, _mm_set_sd(m));
        _mm_store_pd(Db + 2, _mm_set_pd(m * lo(v01), 0.0));
        _mm_store_pd(Db + 4, _mm_set_pd(m, 0.0));
        _mm_store_pd(Db + 6, _mm_set_pd(m * lo(hi2(v01)), 0.0));
        _mm_store_pd(Db + 8, _mm_setzero_pd());
        _mm_store_pd(Db + 10, _mm_set_pd(m * v2, m));
        memset(&c->L[9 * i], 0, 9 * sizeof(double));
        memset(&c->U[9 * i], 0, 9 * sizeof(double));
        return;
    }
    _mm_store_pd(Db, _mm_add_pd(_mm_add_pd(gp->r[0], g->r[0]), _mm_set_sd(md)));
    _mm_store_pd(Db + 2, _mm_unpacklo_pd(dc, b));
    _mm_store_pd(Db + 4, _mm_add_pd(_mm_add_pd(gp->r[1], g->r[1]), _mm_set_pd(md, 0.0)));
    _mm_store_pd(Db + 6, _mm_unpackhi_pd(dc, b));
    _mm_store_pd(Db + 8, _mm_add_pd(gp->r[2], g->r[2]));
    _mm_store_pd(Db + 10, _mm_set_pd(b2, gp->c22 + g->c22 + md));
    store_neg(&c->L[9 * i], gp);
    store_neg(&c->U[9 * i], g);
}

/* the system of the step, node by node; the end node has no spring of its own */
static void lane_assemble(struct lanes *c, const struct lean *s, const struct lane_consts *K)
{
    struct gblock gp, g;
    memset(&gp, 0, sizeof gp);
    const double *x = c->x, *v = c->v;
    pd xa = _mm_loadu_pd(x), va = _mm_loadu_pd(v);
    double xa2 = x[2], va2 = v[2];
    for (size_t i = 0; i + 1 < c->n; i++) {
        pd xb = _mm_loadu_pd(&x[3 * i + 3]), vb = _mm_loadu_pd(&v[3 * i + 3]);
        double xb2 = x[3 * i + 5], vb2 = v[3 * i + 5];
        g = lane_spring(K, xa, xa2, xb, xb2, va, va2, vb, vb2);
        lane_node(c, s, K, i, &gp, &g, va, va2);
        gp = g;
        xa = xb, xa2 = xb2, va = vb, va2 = vb2;
    }
    memset(&g, 0, sizeof g);
    lane_node(c, s, K, c->n - 1, &gp, &g, va, va2);
}

/* cross product of (a, a2) and (b, b2): the (c0, c1) pair, c2 in *c2 */
INLINE pd cross(pd a, double a2, pd b, double b2, double *c2)
{
    pd t = _mm_sub_pd(_mm_mul_pd(swap2(a), all(b2)), _mm_mul_pd(all(a2), swap2(b)));
    pd u = _mm_mul_pd(a, swap2(b));
    *c2 = lo(_mm_sub_sd(u, hi2(u)));
    return _mm_xor_pd(t, _mm_set_pd(-0.0, 0.0));        /* (a1 b2 - a2 b1, a2 b0 - a0 b2) */
}

/* The block Thomas sweep of A vn = b in lanes, then x+ = x + h v+ in the backward pass */
static void lane_solve(struct lanes *c, const struct lean *s, double h)
{
    pd x01[3], x23[3];          /* [X_{i-1} | z_{i-1}] rows; zero before node 0 */
    UNROLL(3)
    for (int a = 0; a < 3; a++)
        x01[a] = x23[a] = _mm_setzero_pd();
    for (size_t i = 0; i < c->n; i++) {
        const double *Db = &c->Db[12 * i], *Li = &c->L[9 * i], *Ui = &c->U[9 * i];
        pd s01[3], s23[3], cf[3], rd;
        double cf2[3];
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            pd lr = _mm_loadu_pd(&Li[3 * a]), l0 = lo2(lr), l1 = hi2(lr), l2 = all(Li[3 * a + 2]);
            s01[a] = _mm_sub_pd(_mm_load_pd(&Db[4 * a]), madd3(l0, x01[0], l1, x01[1], l2, x01[2]));
            s23[a] = _mm_sub_pd(_mm_load_pd(&Db[4 * a + 2]),
                                madd3(l0, x23[0], l1, x23[1], l2, x23[2]));
        }
        cf[0] = cross(s01[1], lo(s23[1]), s01[2], lo(s23[2]), &cf2[0]);
        cf[1] = cross(s01[2], lo(s23[2]), s01[0], lo(s23[0]), &cf2[1]);
        cf[2] = cross(s01[0], lo(s23[0]), s01[1], lo(s23[1]), &cf2[2]);
        rd = all(1.0 / (hsum(_mm_mul_pd(s01[0], cf[0])) + lo(s23[0]) * cf2[0]));
        pd u01[3], u23[3];
        UNROLL(3)
        for (int k = 0; k < 3; k++) {
            u01[k] = _mm_loadu_pd(&Ui[3 * k]);
            u23[k] = _mm_loadl_pd(s23[k], &Ui[3 * k + 2]);      /* (U_k2, r_k) */
        }
        UNROLL(3)
        for (int a = 0; a < 3; a++) {  /* row a of cof(S)^T [U | r], then / det */
            pd e[3];
            UNROLL(3)
            for (int k = 0; k < 3; k++)
                e[k] = a == 0 ? lo2(cf[k]) : a == 1 ? hi2(cf[k]) : all(cf2[k]);
            x01[a] = _mm_mul_pd(madd3(e[0], u01[0], e[1], u01[1], e[2], u01[2]), rd);
            x23[a] = _mm_mul_pd(madd3(e[0], u23[0], e[1], u23[1], e[2], u23[2]), rd);
            _mm_store_pd(&c->Xz[12 * i + 4 * a], x01[a]);
            _mm_store_pd(&c->Xz[12 * i + 4 * a + 2], x23[a]);
        }
    }
    /* v_i = z_i - X_i v+_{i+1}: row a of [X_i | z_i] times (-v+_{i+1}, 1); the pinned
     * nodes keep v; x+ = x + h v+ */
    const pd neg = _mm_set1_pd(-0.0), hh = all(h);
    pd m01 = _mm_setzero_pd(), m23 = _mm_set_pd(1.0, 0.0);  /* (-v0, -v1), (-v2, 1) */
    for (size_t i = c->n; i-- > 0;) {
        const double *Xz = &c->Xz[12 * i];
        pd t[3];
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            pd q = _mm_add_pd(_mm_mul_pd(_mm_load_pd(&Xz[4 * a]), m01),
                              _mm_mul_pd(_mm_load_pd(&Xz[4 * a + 2]), m23));
            t[a] = _mm_add_sd(q, hi2(q));
        }
        pd v01 = _mm_unpacklo_pd(t[0], t[1]), v2 = t[2];
        if (s->pinned[i])
            v01 = _mm_loadu_pd(&c->v[3 * i]), v2 = _mm_load_sd(&c->v[3 * i + 2]);
        _mm_storeu_pd(&c->vn[3 * i], v01);
        _mm_store_sd(&c->vn[3 * i + 2], v2);
        const double *x = &c->x[3 * i];
        _mm_storeu_pd(&c->xn[3 * i], _mm_add_pd(_mm_loadu_pd(x), _mm_mul_pd(hh, v01)));
        _mm_store_sd(&c->xn[3 * i + 2], _mm_add_sd(_mm_load_sd(x + 2), _mm_mul_sd(hh, v2)));
        m01 = _mm_xor_pd(v01, neg);
        m23 = _mm_unpacklo_pd(_mm_xor_pd(v2, neg), _mm_set_sd(1.0));
    }
}

/* One lane-wise lean step: assembly, solve, the new state in place of the old */
static __attribute__((noinline)) void lane_step(struct lanes *c, const struct lean *s,
                                                const struct lane_consts *K)
{
    lane_assemble(c, s, K);
    lane_solve(c, s, K->h);
    double *t = c->x;
    c->x = c->xn, c->xn = t;
    t = c->v;
    c->v = c->vn, c->vn = t;
}

static struct lane_consts lane_consts_of(const struct lean *s, double h)
{
    struct lane_consts K;
    K.h = h;
    K.h2k = h * h * s->k;
    K.h2kL = h * h * s->k * s->rest;
    K.h2c = h * h * s->c;
    K.hc = h * s->c;
    K.k = s->k;
    K.rest = s->rest;
    K.hD = h * s->drag;
    K.g01 = _mm_set_pd(s->g[1], s->g[0]);
    K.g2 = s->g[2];
    return K;
}

/* the lane-wise step's arrays (16-byte aligned for the rows' pairs), its state s's */
static double *aligned_doubles(size_t count)
{
    size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
    return aligned_alloc(64, bytes ? bytes : 64);
}

static int lanes_alloc(struct lanes *c, const struct lean *s)
{
    size_t n = s->n;
    c->n = n;
    double **arrays[] = { &c->x, &c->v, &c->xn, &c->vn };
    for (size_t q = 0; q < 4; q++)
        *arrays[q] = aligned_doubles(3 * n);
    c->Db = aligned_doubles(12 * n);
    c->Xz = aligned_doubles(12 * n);
    c->L = aligned_doubles(9 * n);
    c->U = aligned_doubles(9 * n);
    if (!c->x || !c->v || !c->xn || !c->vn || !c->Db || !c->Xz || !c->L || !c->U)
        return -1;
    memcpy(c->x, s->x, 3 * n * sizeof(double));
    memcpy(c->v, s->v, 3 * n * sizeof(double));
    return 0;
}

static void lanes_free(struct lanes *c)
{
    free(c->x), free(c->v), free(c->xn), free(c->vn);
    free(c->Db), free(c->Xz), free(c->L), free(c->U);
}

/* max |p - q| / max |q|; NaN when a difference is (fmax would drop it) */
static double relative_difference(const double *p, const double *q, size_t n)
{
    double dmax = 0.0, qmax = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d = fabs(p[k] - q[k]);
        if (isnan(d))
            return NAN;
        dmax = fmax(dmax, d);
        qmax = fmax(qmax, fabs(q[k]));
    }
    return qmax > 0.0 ? dmax / qmax : dmax;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Steps of a batch of at least BATCH_SECONDS, from the time of `probe` steps */
static long batch_of(double seconds, long probe)
{
    double per = seconds / (double)probe;
    return per >= BATCH_SECONDS ? 1 : (long)ceil(BATCH_SECONDS / per);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: chain_driver PARTICLES [ROUNDS]\n");
        return 2;
    }
    const double n_wanted = atof(argv[1]), h = 1.0 / 120.0;
    const int rounds = argc > 2 ? atoi(argv[2]) : 9;
    if (!(n_wanted >= 3 && n_wanted <= 5e7) || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "chain_driver: PARTICLES in [3, 5e7], ROUNDS in [1, %d]\n", MAX_ROUNDS);
        return 2;
    }
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%.0f", n_wanted);
    mb_options *in = mb_options_new(), *p = NULL;
    const mb_problem_type *pt = NULL;
    mb_system *sys = NULL;
    struct lean c = { 0 };
    struct lanes w = { 0 };
    if (in == NULL || mb_options_set(in, "n", nbuf) != 0
        || mb_problem_prepare("spring-chain", in, &pt, &p) != 0 || pt->setup(p, &sys) != 0
        || lean_alloc(&c, p, sys->nodes) != 0 || lanes_alloc(&w, &c) != 0) {
        fprintf(stderr, "chain_driver: cannot build the chain of %s particles\n", nbuf);
        return 1;
    }
    const struct lane_consts K = lane_consts_of(&c, h);
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    size_t n = sys->nodes->n, n3 = 3 * n;
    /* the first library step (it chooses its storage), then the lean ones from its state */
    if (st == NULL || mb_stepper_step(st, sys, h) != 0) {
        fprintf(stderr, "chain_driver: the library's step failed\n");
        return 1;
    }
    memcpy(c.x, sys->nodes->x, n3 * sizeof(double));
    memcpy(c.v, sys->nodes->v, n3 * sizeof(double));
    memcpy(w.x, sys->nodes->x, n3 * sizeof(double));
    memcpy(w.v, sys->nodes->v, n3 * sizeof(double));
    lean_step(&c, h);
    lane_step(&w, &c, &K);
    if (mb_stepper_step(st, sys, h) != 0) {
        fprintf(stderr, "chain_driver: the library's step failed\n");
        return 1;
    }
    double dv = relative_difference(c.v, sys->nodes->v, n3);
    double dx = relative_difference(c.x, sys->nodes->x, n3);
    double wv = relative_difference(w.v, sys->nodes->v, n3);
    double wx = relative_difference(w.x, sys->nodes->x, n3);
    printf("n = %zu, h = 1/120: one step from the same state against the library's "
           "(relative to the largest value; limit %.0e): scalar lean v+ %.3g, x+ %.3g; "
           "lane lean v+ %.3g, x+ %.3g\n", n, AGREEMENT, dv, dx, wv, wx);
    if (!(dv <= AGREEMENT && dx <= AGREEMENT && wv <= AGREEMENT && wx <= AGREEMENT)) {
        fprintf(stderr, "chain_driver: a lean step does not solve the library's system\n");
        return 1;
    }
    printf("lean steps (driver code, public API only): one pass of assembly (D, L, U, b "
           "written once a node, no zeroing, no forces stored) + block Thomas sweep "
           "(cofactor inverses) + x+ = x + h v+, timed as batches of whole steps; "
           "scalar: 3x3 loops unrolled; lanes: SSE2, two doubles a lane, rows of [D|b] and "
           "[X|z] as (c0,c1)+(c2,b), G = alpha I + n p^T, x+ formed in the backward pass\n");
    double t0 = cpu_now();
    mb_stepper_step(st, sys, h);
    long batch = batch_of(cpu_now() - t0, 1);
    double lib[MAX_ROUNDS], lean[MAX_ROUNDS], lane[MAX_ROUNDS], ratio[MAX_ROUNDS],
           lratio[MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        t0 = cpu_now();
        for (long q = 0; q < batch; q++)
            if (mb_stepper_step(st, sys, h) != 0)
                return 1;
        double t1 = cpu_now();
        for (long q = 0; q < batch; q++)
            lean_step(&c, h);
        double t2 = cpu_now();
        for (long q = 0; q < batch; q++)
            lane_step(&w, &c, &K);
        double t3 = cpu_now();
        lib[r] = (t1 - t0) / ((double)batch * (double)n);
        lean[r] = (t2 - t1) / ((double)batch * (double)n);
        lane[r] = (t3 - t2) / ((double)batch * (double)n);
        ratio[r] = lib[r] / lean[r];
        lratio[r] = lib[r] / lane[r];
    }
    double lo = ratio[0], hi = ratio[0], llo = lratio[0], lhi = lratio[0];
    for (int r = 1; r < rounds; r++) {
        lo = fmin(lo, ratio[r]), hi = fmax(hi, ratio[r]);
        llo = fmin(llo, lratio[r]), lhi = fmax(lhi, lratio[r]);
    }
    printf("%d rounds of %ld steps each: library %.4g us, scalar lean %.4g us, lane lean "
           "%.4g us per node-step (medians); library / scalar lean: median %.3f (rounds "
           "%.3f .. %.3f); library / lane lean: median %.3f (rounds %.3f .. %.3f) "
           "(checksum %.6g)\n",
           rounds, batch, 1e6 * median(lib, rounds), 1e6 * median(lean, rounds),
           1e6 * median(lane, rounds), median(ratio, rounds), lo, hi, median(lratio, rounds),
           llo, lhi, c.x[3 * (n / 2) + 1] + w.x[3 * (n / 2) + 1] + sys->nodes->x[3 * (n / 2) + 1]);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
    lean_free(&c);
    lanes_free(&w);
    return 0;
}
