/* linsolve_sgs.c -- the symmetric Gauss-Seidel splitting of the sparse backward-Euler
 * matrix in its block storage (linsolve_csr_blocks.c), and Eisenstat's form of the
 * operator it preconditions.
 *
 * A = L + D + U by scalar entries: D the diagonal, L and U the entries left and right of
 * it (inside a node's diagonal block as well as in the blocks of other nodes).  The
 * symmetric Gauss-Seidel preconditioner is M = (D + L) D^-1 (D + U) (Saad, Iterative
 * Methods for Sparse Linear Systems, 2nd ed., sec. 4.1.2 and 10.2).  Split between the two
 * sides as M1 = (D + L) D^-1 and M2 = D + U, the preconditioned operator is
 *   M1^-1 A M2^-1 x = D t + D (D + L)^-1 (x - D t),   t = (D + U)^-1 x,
 * since A = (D + L) + (D + U) - D (Eisenstat, SIAM J. Sci. Stat. Comput. 2, 1981): one
 * backward sweep, which also forms x - D t, and one forward sweep, which also forms the
 * result and its sums, each reading the blocks on one side of the diagonal: about the
 * cost of one product y = A x, where applying M^-1 and A separately costs two.
 *
 * How a sweep's row is computed.  A sweep is a recurrence: node i's unknowns wait for
 * its neighbour i - 1's (i + 1's going back), which were found just before, so the time
 * of a sweep is bounded by the length of that chain of operations per node as well as by
 * the count of its operations (doc/performance-history.md, "The sweeps' chain from node
 * to node").  Three things keep the chain short and the count low.  (1) The blocks of other columns are
 * summed first, each of the nine products B_ae z_e in a lane of its own (below), none
 * waiting for the node before.  (2) The neighbour's block comes last, from the values
 * still in registers, (B_a0 z0 + B_a1 z1) + B_a2 z2 with z2, the neighbour's last
 * unknown, entering last.  (3) The node's own triangle is solved by its inverse,
 * z = T s, whose entries depend on the diagonal block alone and are formed once per
 * matrix, one record per node and sweep (linsolve_sgs_nodes.c); z_2 = d2 s2 + (t20 s0 +
 * t21 s1) takes three operations after s where the substitution (s2 - D6 z0 - D7 z1) d2
 * takes seven.  Every row's sums still run in a fixed order, so the bits are the same on
 * every run and target (doc/performance-history.md, "The cloth's small sizes"). */
#include "mb_compiler.h"
#include "mb_linsolve.h"

#include <math.h>
#include <string.h>

/* MB_CLONES_AVX2 (mb_compiler.h): compiled for AVX2 (four lanes of doubles in a 32-byte
 * register, three-operand instructions that read unaligned memory) and for the x86-64
 * baseline (the same four-lane operations as pairs of 16-byte ones).  SGS_AVX512: the eight-lane form below, compiled for
 * AVX-512F (a 64-byte register) and chosen at run time where the processor has it.  None
 * contracts a multiply and add, and every form sums the same lanes, so all give the same
 * bits. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SGS_AVX512 __attribute__((target("avx512f")))
#define SGS_HAVE_AVX512() __builtin_cpu_supports("avx512f")
#else
#define SGS_AVX512
#define SGS_HAVE_AVX512() 0
#endif

/* The nine sums B_ae z_e (row a, column e of each 3x3 block B, row-major), each summed
 * from +0 over the blocks in the order visited, in lanes (GCC's vector extension; the
 * build contracts no multiply and add, -ffp-contract=off): B0 ... B7 against
 * (z0 z1 z2 z0 z1 z2 z0 z1), as two four-lane vectors (B0 B1 B2 B3) (B4 B5 B6 B7) or one
 * of eight lanes (wide), and B8 z2 alone.  Two or one multiplication and addition a block
 * and a scalar pair where a row at a time takes nine of each; lane l holds the same sum
 * in either form (and as the earlier pairs of two-lane vectors formed it), so the bits
 * do not depend on the form.  The lanes' values of z are picked by __builtin_shufflevector,
 * which GCC (from 12) and clang both know. */
typedef double sgs_v4 __attribute__((vector_size(4 * sizeof(double))));
typedef double sgs_v8 __attribute__((vector_size(8 * sizeof(double))));

typedef struct {
    sgs_v4 lo, hi;          /* four-lane form: lanes 0-3 and 4-7 */
    sgs_v8 all;             /* eight-lane form: lanes 0-7 */
    double a22;
} block_lanes;

#define LANES_ZERO { { 0.0, 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0, 0.0 }, \
                     { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }, 0.0 }

/* acc += the block's products with z_e = zp[e + o]: the four-lane form reads zp[0..3]
 * with o = 0 or 1 (z0 z1 z2 and the value after, or the value before and z0 z1 z2), the
 * eight-lane form zp[0..7] with o = 0 or 5 (z0 z1 z2 and five after, or five before and
 * z0 z1 z2); the values beside z are read and never used. */
static inline __attribute__((always_inline)) void
lanes_add(block_lanes *acc, const double *restrict B, const double *restrict zp, int o,
          int wide)
{
    if (wide) {
        sgs_v8 zq, b;
        memcpy(&zq, zp, sizeof zq);
        memcpy(&b, B, sizeof b);
        sgs_v8 za = o ? __builtin_shufflevector(zq, zq, 5, 6, 7, 5, 6, 7, 5, 6)
                      : __builtin_shufflevector(zq, zq, 0, 1, 2, 0, 1, 2, 0, 1);
        acc->all += b * za;
    } else {
        sgs_v4 zq, b0, b1;
        memcpy(&zq, zp, sizeof zq);
        memcpy(&b0, B, sizeof b0);
        memcpy(&b1, B + 4, sizeof b1);
        sgs_v4 za = o ? __builtin_shufflevector(zq, zq, 1, 2, 3, 1)
                      : __builtin_shufflevector(zq, zq, 0, 1, 2, 0);
        sgs_v4 zb = o ? __builtin_shufflevector(zq, zq, 2, 3, 1, 2)
                      : __builtin_shufflevector(zq, zq, 1, 2, 0, 1);
        acc->lo += b0 * za;
        acc->hi += b1 * zb;
    }
    acc->a22 += B[8] * zp[2 + o];
}

/* s_a = r_a - ((lane 3a + lane 3a+1) + lane 3a+2), a = 0, 1, 2 (lane 8: a22) */
static inline __attribute__((always_inline)) void
lanes_subtract(const block_lanes *acc, const double *r, double s[3], int wide)
{
    if (wide) {
        s[0] = r[0] - ((acc->all[0] + acc->all[1]) + acc->all[2]);
        s[1] = r[1] - ((acc->all[3] + acc->all[4]) + acc->all[5]);
        s[2] = r[2] - ((acc->all[6] + acc->all[7]) + acc->a22);
    } else {
        s[0] = r[0] - ((acc->lo[0] + acc->lo[1]) + acc->lo[2]);
        s[1] = r[1] - ((acc->lo[3] + acc->hi[0]) + acc->hi[1]);
        s[2] = r[2] - ((acc->hi[2] + acc->hi[3]) + acc->a22);
    }
}

/* The storage's arrays, read into locals once a sweep: the sweep's stores of doubles
 * then leave the compiler nothing to reload. */
typedef struct {
    const size_t *restrict cstart;
    const uint32_t *restrict col, *restrict ref;
    const double *restrict pool;
} sweep_view;

static inline sweep_view view_of(const mb_csr *c)
{
    return (sweep_view){ c->cstart, c->ncol, c->cref, c->pool };
}

/* s -= B zn for the neighbour's block, zn in registers, zn2 entering last */
static inline __attribute__((always_inline)) void
neighbour_subtract(const double *restrict B, double zn0, double zn1, double zn2, double s[3])
{
    s[0] -= (B[0] * zn0 + B[1] * zn1) + B[2] * zn2;
    s[1] -= (B[3] * zn0 + B[4] * zn1) + B[5] * zn2;
    s[2] -= (B[6] * zn0 + B[7] * zn1) + B[8] * zn2;
}

/* s = r_i - (L z)_i over node row i's column blocks left of its diagonal: those left of
 * column i - 1 in lanes, in ascending order, then column i - 1's block with
 * zn = z_{i-1} (every row has a diagonal block, which ends the loop) */
static inline __attribute__((always_inline)) void
row_lower(const sweep_view *v, size_t i, const double *r, const double *z, double zn0,
          double zn1, double zn2, double s[3], int wide)
{
    block_lanes acc = LANES_ZERO;
    size_t p = v->cstart[i];
    for (; v->col[p] + 1 < i; p++)    /* columns c <= i - 2: z[3c .. 3c + 7] lie in z */
        lanes_add(&acc, &v->pool[9 * (size_t)v->ref[p]], &z[3 * (size_t)v->col[p]], 0, wide);
    lanes_subtract(&acc, &r[3 * i], s, wide);
    if (v->col[p] + 1 == i)
        neighbour_subtract(&v->pool[9 * (size_t)v->ref[p]], zn0, zn1, zn2, s);
}

/* s = r_i - (U z)_i: the blocks right of column i + 1 in lanes, from the last one back,
 * then column i + 1's block with zn = z_{i+1} */
static inline __attribute__((always_inline)) void
row_upper(const sweep_view *v, size_t i, const double *r, const double *z, double zn0,
          double zn1, double zn2, double s[3], int wide)
{
    block_lanes acc = LANES_ZERO;
    size_t p = v->cstart[i + 1] - 1, o = wide ? 5 : 1;
    for (; v->col[p] > i + 1; p--)    /* columns c >= 2: z[3c - 5 .. 3c + 2] lie in z */
        lanes_add(&acc, &v->pool[9 * (size_t)v->ref[p]], &z[3 * (size_t)v->col[p] - o],
                  (int)o, wide);
    lanes_subtract(&acc, &r[3 * i], s, wide);
    if (v->col[p] == i + 1)
        neighbour_subtract(&v->pool[9 * (size_t)v->ref[p]], zn0, zn1, zn2, s);
}

/* z = (D + L)^-1 r row by row (z may be r: row i reads z of rows < i only); with y not
 * NULL also y = D (y + z) in the same pass, and the sums w.y and (want_yy) y.y.  Node i's
 * unknowns z0 z1 z2 = T s, T the inverse of the lower triangle of its diagonal block, from
 * its record (linsolve_sgs_nodes.c: d = 1 / diagonal, t = t10 t20 t21, g = diagonal). */
static inline __attribute__((always_inline)) void
lower_sweep(const mb_csr *c, const mb_sgs_node *nodes, const double *r, double *z, double *y,
            const double *w, int want_yy, double *yw, double *yy, int wide)
{
    const sweep_view v = view_of(c);
    double sw = 0.0, sy = 0.0, z0 = 0.0, z1 = 0.0, z2 = 0.0;
    for (size_t i = 0; i < c->n_nodes; i++) {
        double s[3];
        row_lower(&v, i, r, z, z0, z1, z2, s, wide);
        const mb_sgs_node *restrict nd = &nodes[i];
        z0 = s[0] * nd->d[0];
        z1 = s[1] * nd->d[1] + s[0] * nd->t[0];
        z2 = s[2] * nd->d[2] + (s[0] * nd->t[1] + s[1] * nd->t[2]);
        z[3 * i] = z0;
        z[3 * i + 1] = z1;
        z[3 * i + 2] = z2;
        if (y) {
            double *yi = &y[3 * i];
            double y0 = nd->g[0] * (yi[0] + z0), y1 = nd->g[1] * (yi[1] + z1);
            double y2 = nd->g[2] * (yi[2] + z2);
            yi[0] = y0;
            yi[1] = y1;
            yi[2] = y2;
            sw += w[3 * i] * y0;
            sw += w[3 * i + 1] * y1;
            sw += w[3 * i + 2] * y2;
            if (want_yy) {
                sy += y0 * y0;
                sy += y1 * y1;
                sy += y2 * y2;
            }
        }
    }
    if (y) {
        *yw = sw;
        if (want_yy)
            *yy = sy;
    }
}

/* z = (D + U)^-1 r, and with x not NULL also y = x - D z, row by row.  z = T s with T the
 * inverse of the upper triangle of the node's diagonal block, from its record (t = t01
 * t02 t12). */
static inline __attribute__((always_inline)) void
upper_sweep(const mb_csr *c, const mb_sgs_node *nodes, const double *r, double *z,
            const double *x, double *y, int wide)
{
    const sweep_view v = view_of(c);
    double z0 = 0.0, z1 = 0.0, z2 = 0.0;
    for (size_t i = c->n_nodes; i-- > 0;) {
        double s[3];
        row_upper(&v, i, r, z, z0, z1, z2, s, wide);
        const mb_sgs_node *restrict nd = &nodes[i];
        z2 = s[2] * nd->d[2];
        z1 = s[1] * nd->d[1] + s[2] * nd->t[2];
        z0 = s[0] * nd->d[0] + (s[2] * nd->t[1] + s[1] * nd->t[0]);
        z[3 * i] = z0;
        z[3 * i + 1] = z1;
        z[3 * i + 2] = z2;
        if (x) {
            y[3 * i] = x[3 * i] - nd->g[0] * z0;
            y[3 * i + 1] = x[3 * i + 1] - nd->g[1] * z1;
            y[3 * i + 2] = x[3 * i + 2] - nd->g[2] * z2;
        }
    }
}

/* acc += B x_c as lanes_add does, for a column whose four or eight values around x_c
 * would run past either end of x: the lanes' values of x_c set one by one (the same
 * products and sums) */
static inline __attribute__((always_inline)) void
lanes_add_edge(block_lanes *acc, const double *restrict B, const double *restrict xc, int wide)
{
    double x0 = xc[0], x1 = xc[1], x2 = xc[2];
    if (wide) {
        sgs_v8 b;
        memcpy(&b, B, sizeof b);
        acc->all += b * (sgs_v8){ x0, x1, x2, x0, x1, x2, x0, x1 };
    } else {
        sgs_v4 b0, b1;
        memcpy(&b0, B, sizeof b0);
        memcpy(&b1, B + 4, sizeof b1);
        acc->lo += b0 * (sgs_v4){ x0, x1, x2, x0 };
        acc->hi += b1 * (sgs_v4){ x1, x2, x0, x1 };
    }
    acc->a22 += B[8] * x2;
}

/* r = b - A x row by row, every column block of a row in lanes (columns in ascending
 * order), r_a = b_a - ((lane 3a + lane 3a+1) + lane 3a+2); returns r.r summed in
 * ascending order.  Rows do not depend on each other: no chain from node to node. */
static inline __attribute__((always_inline)) double
residual(const mb_csr *c, const double *b, const double *x, double *r, int wide)
{
    const sweep_view v = view_of(c);
    const size_t n = c->n_nodes, o = wide ? 5 : 1;
    double rr = 0.0;
    for (size_t i = 0; i < n; i++) {
        block_lanes acc = LANES_ZERO;
        for (size_t p = v.cstart[i]; p < v.cstart[i + 1]; p++) {
            size_t col = v.col[p];
            const double *B = &v.pool[9 * (size_t)v.ref[p]];
            if (col + 2 < n)                        /* x[3c .. 3c + 7] lie in x */
                lanes_add(&acc, B, &x[3 * col], 0, wide);
            else if (3 * col >= o)                  /* x[3c - o .. 3c + 2] lie in x */
                lanes_add(&acc, B, &x[3 * col - o], (int)o, wide);
            else
                lanes_add_edge(&acc, B, &x[3 * col], wide);
        }
        lanes_subtract(&acc, &b[3 * i], &r[3 * i], wide);
        rr += r[3 * i] * r[3 * i];
        rr += r[3 * i + 1] * r[3 * i + 1];
        rr += r[3 * i + 2] * r[3 * i + 2];
    }
    return rr;
}

/* y = D (D + L)^-1 (x - D t) with t = (D + U)^-1 x (header) */
static inline __attribute__((always_inline)) void
eisenstat(const mb_csr *c, const mb_sgs_node *lower, const mb_sgs_node *upper,
          const double *x, double *t, double *y, const double *w, double *yw, double *yy,
          int wide)
{
    upper_sweep(c, upper, x, y, x, t, wide);        /* y = (D + U)^-1 x, t = x - D y */
    if (yy)                                         /* t = (D + L)^-1 t in place, and */
        lower_sweep(c, lower, t, t, y, w, 1, yw, yy, wide);     /* y = D (y + t) */
    else
        lower_sweep(c, lower, t, t, y, w, 0, yw, NULL, wide);
}

/* The three operations in each form: four lanes (MB_CLONES_AVX2) and eight (SGS_AVX512) */
MB_CLONES_AVX2 static void lower4(const mb_csr *c, const mb_sgs_node *lo, const double *r, double *z)
{
    lower_sweep(c, lo, r, z, NULL, NULL, 0, NULL, NULL, 0);
}

SGS_AVX512 static void lower8(const mb_csr *c, const mb_sgs_node *lo, const double *r, double *z)
{
    lower_sweep(c, lo, r, z, NULL, NULL, 0, NULL, NULL, 1);
}

MB_CLONES_AVX2 static void upper4(const mb_csr *c, const mb_sgs_node *up, const double *r, double *z)
{
    upper_sweep(c, up, r, z, NULL, NULL, 0);
}

SGS_AVX512 static void upper8(const mb_csr *c, const mb_sgs_node *up, const double *r, double *z)
{
    upper_sweep(c, up, r, z, NULL, NULL, 1);
}

MB_CLONES_AVX2 static void eisenstat4(const mb_csr *c, const mb_sgs_node *lo, const mb_sgs_node *up,
                                  const double *x, double *t, double *y, const double *w,
                                  double *yw, double *yy)
{
    eisenstat(c, lo, up, x, t, y, w, yw, yy, 0);
}

SGS_AVX512 static void eisenstat8(const mb_csr *c, const mb_sgs_node *lo, const mb_sgs_node *up,
                                  const double *x, double *t, double *y, const double *w,
                                  double *yw, double *yy)
{
    eisenstat(c, lo, up, x, t, y, w, yw, yy, 1);
}

MB_CLONES_AVX2 static double residual4(const mb_csr *c, const double *b, const double *x, double *r)
{
    return residual(c, b, x, r, 0);
}

SGS_AVX512 static double residual8(const mb_csr *c, const double *b, const double *x, double *r)
{
    return residual(c, b, x, r, 1);
}

/* The form in use: -1 not chosen yet, then 8 or 4 */
static int sgs_lanes = -1;

static int lanes_in_use(void)
{
    if (sgs_lanes < 0)
        sgs_lanes = SGS_HAVE_AVX512() ? 8 : 4;
    return sgs_lanes;
}

int mb_csr_sgs_lanes(int lanes)
{
    if (lanes == 4 || (lanes == 8 && SGS_HAVE_AVX512()))
        sgs_lanes = lanes;
    return lanes_in_use();
}

void mb_csr_sgs_lower(const mb_csr *c, const mb_sgs_node *lower, const double *r, double *z)
{
    if (lanes_in_use() == 8)
        lower8(c, lower, r, z);
    else
        lower4(c, lower, r, z);
}

void mb_csr_sgs_upper(const mb_csr *c, const mb_sgs_node *upper, const double *r, double *z)
{
    if (lanes_in_use() == 8)
        upper8(c, upper, r, z);
    else
        upper4(c, upper, r, z);
}

void mb_csr_eisenstat(const mb_csr *c, const mb_sgs_node *lower, const mb_sgs_node *upper,
                      const double *x, double *t, double *y, const double *w, double *yw,
                      double *yy)
{
    if (lanes_in_use() == 8)
        eisenstat8(c, lower, upper, x, t, y, w, yw, yy);
    else
        eisenstat4(c, lower, upper, x, t, y, w, yw, yy);
}

double mb_csr_sgs_residual(const mb_csr *c, const double *b, const double *x, double *r)
{
    return sqrt(lanes_in_use() == 8 ? residual8(c, b, x, r) : residual4(c, b, x, r));
}
