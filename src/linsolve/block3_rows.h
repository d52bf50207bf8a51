/* block3_rows.h -- a row-major 3x3 block held in registers by rows, for the block sweep's
 * pivot blocks (linsolve_blocktri.c): row a's columns 0 and 1 in the two lanes of one SSE2
 * vector c01[a], its column 2 in the low lane of another, c2[a] (the high lane is not
 * specified and never read).  The sweep forms S_i = D_i - L_i X_{i-1} into it, checks
 * S_i's and D_i's 1-norms, forms the adjugate and its 1-norm, multiplies U_i and a vector
 * by the adjugate and scales the products by r / det (S_i^-1 = adj(T_i) r / det T_i), without
 * S_i or its adjugate leaving the registers; X_i = S_i^-1 U_i is stored and carried in
 * registers to the next node's S_{i+1}.
 *
 * Beside it a 3-vector in registers (block3_vec): entries 0 and 1 in the lanes of c01,
 * entry 2 in the low lane of c2 (the high lane not specified and never read): the sweep's
 * r_i = b_i - L_i z_{i-1}, z_i = S_i^-1 r_i (carried to the next node's r_{i+1}) and
 * x_i = z_i - X_i x_{i+1} (carried to x_{i-1}).  A product of rows by a vector in lanes:
 * rows a = 0 and 1 at once, t_a = (B_a0 w_0, B_a1 w_1), their lanes added crosswise,
 * (lo t_0 + hi t_0, lo t_1 + hi t_1), then + (B_02, B_12) w_2; row 2 as lo t_2 + hi t_2,
 * then + B_22 w_2: each entry the scalar (B_a0 w_0 + B_a1 w_1) + B_a2 w_2.
 *
 * Every entry gets the very IEEE operations, in the very order, of the scalar expressions
 * (the build has -ffp-contract=off; a lane is one operation as a scalar is):
 *   D - A B     D_ac - ((A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c)
 *   (A B) s     ((A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c) s
 *   A v         (A_a0 v_0 + A_a1 v_1) + A_a2 v_2
 *   v s         v_a s
 *   v - A w     v_a - ((A_a0 w_0 + A_a1 w_1) + A_a2 w_2)
 *   y + x h     y_a + x_a h (mb_blocktri_solve_axpy's drift)
 *   ||A||_1     m = +0, then m = (x > m ? x : m) for the column sums
 *               x = (|A_0c| + |A_1c|) + |A_2c|, c = 0, 1, 2 in turn (a NaN sum is
 *               passed over, as fmax does; the largest of sums >= +0 is the same value in
 *               any order, so S's and D's maxima are taken two lanes at once)
 *   adj(t)      the cofactors g_0 = t4 t8 - t5 t7, g_1 = t2 t7 - t1 t8, g_2 = t1 t5 - t2 t4,
 *               g_3 = t5 t6 - t3 t8, g_4 = t0 t8 - t2 t6, g_5 = t2 t3 - t0 t5,
 *               g_6 = t3 t7 - t4 t6, g_7 = t1 t6 - t0 t7, g_8 = t0 t4 - t1 t3 (t_3a+c =
 *               t(a, c); the scalar path below writes them out)
 *   det t       (t_0 g_0 + t_1 g_3) + t_2 g_6, g = adj(t)
 *   A r         A_ac r, entry by entry
 * The adjugate's columns are cross products of the rows, r1 x r2, r2 x r0, r0 x r1; with
 * u = (t1, t2), v = (t4, t5), w = (t7, t8) its six entries of rows 0 and 2 come two a
 * lane from three products of vectors:
 *   A0 v - u A1 = (t0 t4 - t1 t3, t1 t5 - t2 t4) = (g8, g2)
 *   A1 w - v A2 = (t3 t7 - t4 t6, t4 t8 - t5 t7) = (g6, g0)
 *   A2 u - w A0 = (t6 t1 - t7 t0, t7 t2 - t8 t1) = (g7, g1)
 * (A_a = (t_a0, t_a1); each product of two doubles is the same value either way round),
 * and g3, g4, g5 one at a time.
 *
 * Without SSE2 the scalar expressions, entry by entry (also chosen by defining
 * MB_BLOCK3_ROWS_SCALAR, as tests/test_blocktri_rows_scalar does to test them). */
#ifndef MB_BLOCK3_ROWS_H
#define MB_BLOCK3_ROWS_H

#include "mb_compiler.h"

#include <math.h>

#if defined(__SSE2__) && !defined(MB_BLOCK3_ROWS_SCALAR)
#include <emmintrin.h>

typedef struct block3_rows {
    __m128d c01[3], c2[3];
} block3_rows;

/* the rows of a block in memory */
static MB_ALWAYS_INLINE block3_rows block3_rows_load(const double *a)
{
    block3_rows x;
    MB_UNROLL(3)
    for (int r = 0; r < 3; r++) {
        x.c01[r] = _mm_loadu_pd(&a[3 * r]);
        x.c2[r] = _mm_load_sd(&a[3 * r + 2]);
    }
    return x;
}

/* D - A B, entry by entry D_ac - ((A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c); B held in
 * registers (the sweep's X_{i-1}, carried from the node before), D and A in memory */
static MB_ALWAYS_INLINE block3_rows block3_rows_sub_mul(const double *D, const double *A,
                                                        const block3_rows *B)
{
    block3_rows s;
    const block3_rows b = *B;
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        const __m128d a0 = _mm_set1_pd(A[3 * a]), a1 = _mm_set1_pd(A[3 * a + 1]),
                      a2 = _mm_set1_pd(A[3 * a + 2]);
        __m128d p = _mm_add_pd(_mm_mul_pd(a0, b.c01[0]), _mm_mul_pd(a1, b.c01[1]));
        p = _mm_add_pd(p, _mm_mul_pd(a2, b.c01[2]));
        __m128d q = _mm_add_sd(_mm_mul_sd(a0, b.c2[0]), _mm_mul_sd(a1, b.c2[1]));
        q = _mm_add_sd(q, _mm_mul_sd(a2, b.c2[2]));
        s.c01[a] = _mm_sub_pd(_mm_loadu_pd(&D[3 * a]), p);
        s.c2[a] = _mm_sub_sd(_mm_load_sd(&D[3 * a + 2]), q);
    }
    return s;
}

/* the column sums (|x_0c| + |x_1c|) + |x_2c|: columns 0 and 1 in *c01's lanes, column 2
 * in *c2's low lane */
static MB_ALWAYS_INLINE void block3_rows_colsums(const block3_rows *x, __m128d *c01,
                                                 __m128d *c2)
{
    const __m128d mag = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
    *c01 = _mm_add_pd(_mm_add_pd(_mm_and_pd(x->c01[0], mag), _mm_and_pd(x->c01[1], mag)),
                      _mm_and_pd(x->c01[2], mag));
    *c2 = _mm_add_sd(_mm_add_sd(_mm_and_pd(x->c2[0], mag), _mm_and_pd(x->c2[1], mag)),
                     _mm_and_pd(x->c2[2], mag));
}

/* ||x||_1 and ||y||_1, the maxima taken in two lanes (x's low, y's high) */
static MB_ALWAYS_INLINE void block3_rows_norm1_pair(const block3_rows *x, const block3_rows *y,
                                                    double *nx, double *ny)
{
    __m128d x01, x2, y01, y2;
    block3_rows_colsums(x, &x01, &x2);
    block3_rows_colsums(y, &y01, &y2);
    __m128d m = _mm_max_pd(_mm_unpacklo_pd(x01, y01), _mm_setzero_pd());
    m = _mm_max_pd(_mm_unpackhi_pd(x01, y01), m);
    m = _mm_max_pd(_mm_unpacklo_pd(x2, y2), m);
    *nx = _mm_cvtsd_f64(m);
    *ny = _mm_cvtsd_f64(_mm_unpackhi_pd(m, m));
}

/* ||x||_1 */
static MB_ALWAYS_INLINE double block3_rows_norm1(const block3_rows *x)
{
    __m128d c01, c2;
    block3_rows_colsums(x, &c01, &c2);
    __m128d m = _mm_max_pd(c01, _mm_setzero_pd());
    m = _mm_max_sd(_mm_unpackhi_pd(m, m), m);
    return _mm_cvtsd_f64(_mm_max_sd(c2, m));
}

/* r x, entry by entry */
static MB_ALWAYS_INLINE void block3_rows_scale(block3_rows *x, double r)
{
    const __m128d rv = _mm_set1_pd(r);
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        x->c01[a] = _mm_mul_pd(x->c01[a], rv);
        x->c2[a] = _mm_mul_sd(x->c2[a], rv);
    }
}

/* adj(t) into *g (t^-1 = adj(t) / det t); returns det t */
static MB_ALWAYS_INLINE double block3_rows_adjugate(const block3_rows *t, block3_rows *g)
{
    const __m128d A0 = t->c01[0], A1 = t->c01[1], A2 = t->c01[2];
    const __m128d B0 = t->c2[0], B1 = t->c2[1], B2 = t->c2[2];
    const __m128d u = _mm_shuffle_pd(A0, B0, 1), v = _mm_shuffle_pd(A1, B1, 1),
                  w = _mm_shuffle_pd(A2, B2, 1);                 /* (t1,t2) (t4,t5) (t7,t8) */
    const __m128d g82 = _mm_sub_pd(_mm_mul_pd(A0, v), _mm_mul_pd(u, A1));
    const __m128d g60 = _mm_sub_pd(_mm_mul_pd(A1, w), _mm_mul_pd(v, A2));
    const __m128d g71 = _mm_sub_pd(_mm_mul_pd(A2, u), _mm_mul_pd(w, A0));
    const __m128d g3 = _mm_sub_sd(_mm_mul_sd(B1, A2), _mm_mul_sd(A1, B2));  /* t5t6 - t3t8 */
    const __m128d g4 = _mm_sub_sd(_mm_mul_sd(A0, B2), _mm_mul_sd(B0, A2));  /* t0t8 - t2t6 */
    const __m128d g5 = _mm_sub_sd(_mm_mul_sd(B0, A1), _mm_mul_sd(A0, B1));  /* t2t3 - t0t5 */
    g->c01[0] = _mm_unpackhi_pd(g60, g71);                      /* (g0, g1) */
    g->c01[1] = _mm_unpacklo_pd(g3, g4);                        /* (g3, g4) */
    g->c01[2] = _mm_unpacklo_pd(g60, g71);                      /* (g6, g7) */
    g->c2[0] = _mm_unpackhi_pd(g82, g82);                       /* g2 */
    g->c2[1] = g5;
    g->c2[2] = g82;                                             /* g8 */
    /* (t0 g0 + t1 g3) + t2 g6 */
    const __m128d p = _mm_mul_pd(A0, _mm_shuffle_pd(g60, g3, 1));    /* (t0 g0, t1 g3) */
    const __m128d s = _mm_add_sd(p, _mm_unpackhi_pd(p, p));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_mul_sd(B0, g60)));
}

/* out = (g B) s, entry by entry ((g_a0 B_0c + g_a1 B_1c) + g_a2 B_2c) s (g in registers,
 * B and out in memory, out not aliasing B), also returned in registers (the sweep's X_i =
 * (adj(T_i) U_i) (r / det), carried to the next node's S): the products need not wait
 * for the division that gives s */
static MB_ALWAYS_INLINE block3_rows block3_rows_mul_scaled(const block3_rows *g,
                                                           const double *B, double s,
                                                           double *out)
{
    const block3_rows b = block3_rows_load(B);
    const __m128d sv = _mm_set1_pd(s);
    block3_rows x;
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        const __m128d g0 = _mm_unpacklo_pd(g->c01[a], g->c01[a]),
                      g1 = _mm_unpackhi_pd(g->c01[a], g->c01[a]),
                      g2 = _mm_unpacklo_pd(g->c2[a], g->c2[a]);
        __m128d p = _mm_add_pd(_mm_mul_pd(g0, b.c01[0]), _mm_mul_pd(g1, b.c01[1]));
        p = _mm_add_pd(p, _mm_mul_pd(g2, b.c01[2]));
        __m128d q = _mm_add_sd(_mm_mul_sd(g0, b.c2[0]), _mm_mul_sd(g1, b.c2[1]));
        q = _mm_add_sd(q, _mm_mul_sd(g2, b.c2[2]));
        p = _mm_mul_pd(p, sv);
        q = _mm_mul_sd(q, sv);
        _mm_storeu_pd(&out[3 * a], p);
        _mm_store_sd(&out[3 * a + 2], q);
        x.c01[a] = p;
        x.c2[a] = q;
    }
    return x;
}

typedef struct block3_vec {
    __m128d c01, c2;
} block3_vec;

/* a vector in memory */
static MB_ALWAYS_INLINE block3_vec block3_vec_load(const double *v)
{
    return (block3_vec){ _mm_loadu_pd(v), _mm_load_sd(&v[2]) };
}

static MB_ALWAYS_INLINE void block3_vec_store(const block3_vec *v, double *out)
{
    _mm_storeu_pd(out, v->c01);
    _mm_store_sd(&out[2], v->c2);
}

/* y + x h, entry by entry y_a + x_a h (the product, then the sum); y in memory */
static MB_ALWAYS_INLINE block3_vec block3_vec_add_scaled(const double *y, const block3_vec *x,
                                                         double h)
{
    const __m128d hv = _mm_set1_pd(h);
    return (block3_vec){ _mm_add_pd(_mm_loadu_pd(y), _mm_mul_pd(x->c01, hv)),
                         _mm_add_sd(_mm_load_sd(&y[2]), _mm_mul_sd(x->c2, hv)) };
}

/* (B_a0 w_0 + B_a1 w_1) + B_a2 w_2 for the rows a of B given as r01[a] = (B_a0, B_a1),
 * a = 0, 1, 2, c2 = (B_02, B_12) and b22 = B_22 (low lane): rows 0 and 1 in *p01's lanes,
 * row 2 in *p2's low lane */
static MB_ALWAYS_INLINE void block3_vec_dot_rows(const __m128d r01[3], __m128d c2, __m128d b22,
                                                 const block3_vec *w, __m128d *p01,
                                                 __m128d *p2)
{
    const __m128d t0 = _mm_mul_pd(r01[0], w->c01), t1 = _mm_mul_pd(r01[1], w->c01),
                  t2 = _mm_mul_pd(r01[2], w->c01);          /* (B_a0 w_0, B_a1 w_1) */
    const __m128d s01 = _mm_add_pd(_mm_unpacklo_pd(t0, t1), _mm_unpackhi_pd(t0, t1));
    *p01 = _mm_add_pd(s01, _mm_mul_pd(c2, _mm_unpacklo_pd(w->c2, w->c2)));
    const __m128d s2 = _mm_add_sd(t2, _mm_unpackhi_pd(t2, t2));
    *p2 = _mm_add_sd(s2, _mm_mul_sd(b22, w->c2));
}

/* v - B w, entry by entry v_a - ((B_a0 w_0 + B_a1 w_1) + B_a2 w_2); v and B (row-major)
 * in memory, w in registers (the sweep's z_{i-1} or x_{i+1}, carried from the node
 * before) */
static MB_ALWAYS_INLINE block3_vec block3_vec_sub_mat_vec(const double *v, const double *B,
                                                          const block3_vec *w)
{
    const __m128d r01[3] = { _mm_loadu_pd(&B[0]), _mm_loadu_pd(&B[3]), _mm_loadu_pd(&B[6]) };
    __m128d p01, p2;
    block3_vec_dot_rows(r01, _mm_loadh_pd(_mm_load_sd(&B[2]), &B[5]), _mm_load_sd(&B[8]), w,
                        &p01, &p2);
    return (block3_vec){ _mm_sub_pd(_mm_loadu_pd(v), p01), _mm_sub_sd(_mm_load_sd(&v[2]), p2) };
}

/* g v, entry by entry (g_a0 v_0 + g_a1 v_1) + g_a2 v_2; g and v in registers */
static MB_ALWAYS_INLINE block3_vec block3_rows_mat_vec(const block3_rows *g, const block3_vec *v)
{
    block3_vec out;
    block3_vec_dot_rows(g->c01, _mm_unpacklo_pd(g->c2[0], g->c2[1]), g->c2[2], v, &out.c01,
                        &out.c2);
    return out;
}

/* v s, entry by entry v_a s (the sweep's z_i = (adj(T_i) r_i) (r / det)) */
static MB_ALWAYS_INLINE block3_vec block3_vec_scale(const block3_vec *v, double s)
{
    const __m128d sv = _mm_set1_pd(s);
    return (block3_vec){ _mm_mul_pd(v->c01, sv), _mm_mul_sd(v->c2, sv) };
}

/* The sum of y_a - y_a over the entries of the vectors given: +0 while every entry is
 * finite, NaN once one is not (y - y is +0 for a finite y, NaN for a NaN or +-Inf), in
 * whatever order its terms are added; kept in two lanes and a low lane */
typedef struct block3_nonfinite {
    __m128d s01, s2;
} block3_nonfinite;

static MB_ALWAYS_INLINE block3_nonfinite block3_nonfinite_none(void)
{
    return (block3_nonfinite){ _mm_setzero_pd(), _mm_setzero_pd() };
}

static MB_ALWAYS_INLINE void block3_nonfinite_add(block3_nonfinite *n, const block3_vec *y)
{
    n->s01 = _mm_add_pd(n->s01, _mm_sub_pd(y->c01, y->c01));
    n->s2 = _mm_add_sd(n->s2, _mm_sub_sd(y->c2, y->c2));
}

static MB_ALWAYS_INLINE double block3_nonfinite_sum(const block3_nonfinite *n)
{
    return _mm_cvtsd_f64(_mm_add_sd(_mm_add_sd(n->s01, _mm_unpackhi_pd(n->s01, n->s01)), n->s2));
}

#else   /* the scalar expressions */

typedef struct block3_rows {
    double e[9];
} block3_rows;

static inline block3_rows block3_rows_load(const double *a)
{
    block3_rows x;
    for (int q = 0; q < 9; q++)
        x.e[q] = a[q];
    return x;
}

static inline block3_rows block3_rows_sub_mul(const double *D, const double *A,
                                              const block3_rows *B)
{
    const double *b = B->e;
    block3_rows s;
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            s.e[3 * a + c] = D[3 * a + c] - (A[3 * a] * b[c] + A[3 * a + 1] * b[3 + c]
                                             + A[3 * a + 2] * b[6 + c]);
    return s;
}

static inline double block3_rows_norm1(const block3_rows *x)
{
    double m = 0.0;
    for (int c = 0; c < 3; c++) {
        double s = fabs(x->e[c]) + fabs(x->e[3 + c]) + fabs(x->e[6 + c]);
        m = s > m ? s : m;
    }
    return m;
}

static inline void block3_rows_norm1_pair(const block3_rows *x, const block3_rows *y,
                                          double *nx, double *ny)
{
    *nx = block3_rows_norm1(x);
    *ny = block3_rows_norm1(y);
}

static inline void block3_rows_scale(block3_rows *x, double r)
{
    for (int q = 0; q < 9; q++)
        x->e[q] = x->e[q] * r;
}

static inline double block3_rows_adjugate(const block3_rows *x, block3_rows *y)
{
    const double *t = x->e;
    double *g = y->e;
    g[0] = t[4] * t[8] - t[5] * t[7];
    g[1] = t[2] * t[7] - t[1] * t[8];
    g[2] = t[1] * t[5] - t[2] * t[4];
    g[3] = t[5] * t[6] - t[3] * t[8];
    g[4] = t[0] * t[8] - t[2] * t[6];
    g[5] = t[2] * t[3] - t[0] * t[5];
    g[6] = t[3] * t[7] - t[4] * t[6];
    g[7] = t[1] * t[6] - t[0] * t[7];
    g[8] = t[0] * t[4] - t[1] * t[3];
    return t[0] * g[0] + t[1] * g[3] + t[2] * g[6];
}

static inline block3_rows block3_rows_mul_scaled(const block3_rows *g, const double *B,
                                                 double s, double *out)
{
    block3_rows x;
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            out[3 * a + c] = x.e[3 * a + c] = (g->e[3 * a] * B[c] + g->e[3 * a + 1] * B[3 + c]
                                               + g->e[3 * a + 2] * B[6 + c]) * s;
    return x;
}

typedef struct block3_vec {
    double e[3];
} block3_vec;

static inline block3_vec block3_vec_load(const double *v)
{
    return (block3_vec){ { v[0], v[1], v[2] } };
}

static inline void block3_vec_store(const block3_vec *v, double *out)
{
    for (int a = 0; a < 3; a++)
        out[a] = v->e[a];
}

static inline block3_vec block3_vec_add_scaled(const double *y, const block3_vec *x, double h)
{
    block3_vec out;
    for (int a = 0; a < 3; a++)
        out.e[a] = y[a] + x->e[a] * h;
    return out;
}

static inline block3_vec block3_vec_sub_mat_vec(const double *v, const double *B,
                                                const block3_vec *w)
{
    block3_vec out;
    for (int a = 0; a < 3; a++)
        out.e[a] = v[a] - (B[3 * a] * w->e[0] + B[3 * a + 1] * w->e[1] + B[3 * a + 2] * w->e[2]);
    return out;
}

static inline block3_vec block3_rows_mat_vec(const block3_rows *g, const block3_vec *v)
{
    block3_vec out;
    for (int a = 0; a < 3; a++)
        out.e[a] = g->e[3 * a] * v->e[0] + g->e[3 * a + 1] * v->e[1] + g->e[3 * a + 2] * v->e[2];
    return out;
}

static inline block3_vec block3_vec_scale(const block3_vec *v, double s)
{
    return (block3_vec){ { v->e[0] * s, v->e[1] * s, v->e[2] * s } };
}

typedef struct block3_nonfinite {
    double s;
} block3_nonfinite;

static inline block3_nonfinite block3_nonfinite_none(void)
{
    return (block3_nonfinite){ 0.0 };
}

static inline void block3_nonfinite_add(block3_nonfinite *n, const block3_vec *y)
{
    n->s += ((y->e[0] - y->e[0]) + (y->e[1] - y->e[1])) + (y->e[2] - y->e[2]);
}

static inline double block3_nonfinite_sum(const block3_nonfinite *n)
{
    return n->s;
}

#endif

#endif
