/* block3_rows.h -- a row-major 3x3 block held in registers by rows, for the block sweep's
 * pivot blocks (linsolve_blocktri.c): row a's columns 0 and 1 in the two lanes of one SSE2
 * vector c01[a], its column 2 in the low lane of another, c2[a] (the high lane is not
 * specified and never read).  The sweep forms S_i = D_i - L_i X_{i-1} into it, checks
 * S_i's and D_i's 1-norms, forms the adjugate and its 1-norm, scales it to S_i^-1 and
 * multiplies U_i and a vector by it, without S_i or S_i^-1 leaving the registers; X_i =
 * S_i^-1 U_i is stored and carried in registers to the next node's S_{i+1}.
 *
 * Every entry gets the very IEEE operations, in the very order, of the scalar expressions
 * (the build has -ffp-contract=off; a lane is one operation as a scalar is):
 *   D - A B     D_ac - ((A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c)
 *   A B         (A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c
 *   A v         (A_a0 v_0 + A_a1 v_1) + A_a2 v_2
 *   ||A||_1     m = +0, then m = (x > m ? x : m) for the column sums
 *               x = (|A_0c| + |A_1c|) + |A_2c|, c = 0, 1, 2 in turn (a NaN sum is
 *               passed over, as fmax does; the largest of sums >= +0 is the same value in
 *               any order, so S's and D's maxima are taken two lanes at once)
 *   adj(t)      the cofactors g_0 = t4 t8 - t5 t7, g_1 = t2 t7 - t1 t8, g_2 = t1 t5 - t2 t4,
 *               g_3 = t5 t6 - t3 t8, g_4 = t0 t8 - t2 t6, g_5 = t2 t3 - t0 t5,
 *               g_6 = t3 t7 - t4 t6, g_7 = t1 t6 - t0 t7, g_8 = t0 t4 - t1 t3 (t_3a+c =
 *               t(a, c); the scalar path below writes them out)
 *   det t       (t_0 g_0 + t_1 g_3) + t_2 g_6, g = adj(t)
 *   r A         r A_ac, entry by entry
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

/* out = g B (g in registers, B and out in memory, out not aliasing B), also returned in
 * registers (the sweep's X_i, carried to the next node's S) */
static MB_ALWAYS_INLINE block3_rows block3_rows_mul(const block3_rows *g, const double *B,
                                                    double *out)
{
    const block3_rows b = block3_rows_load(B);
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
        _mm_storeu_pd(&out[3 * a], p);
        _mm_store_sd(&out[3 * a + 2], q);
        x.c01[a] = p;
        x.c2[a] = q;
    }
    return x;
}

/* out = g v (out may be v) */
static MB_ALWAYS_INLINE void block3_rows_mat_vec(const block3_rows *g, const double *v,
                                                 double *out)
{
    const double v0 = v[0], v1 = v[1], v2 = v[2];
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        const double g0 = _mm_cvtsd_f64(g->c01[a]),
                     g1 = _mm_cvtsd_f64(_mm_unpackhi_pd(g->c01[a], g->c01[a])),
                     g2 = _mm_cvtsd_f64(g->c2[a]);
        out[a] = g0 * v0 + g1 * v1 + g2 * v2;
    }
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

static inline block3_rows block3_rows_mul(const block3_rows *g, const double *B, double *out)
{
    block3_rows x;
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            out[3 * a + c] = x.e[3 * a + c] = g->e[3 * a] * B[c] + g->e[3 * a + 1] * B[3 + c]
                                              + g->e[3 * a + 2] * B[6 + c];
    return x;
}

static inline void block3_rows_mat_vec(const block3_rows *g, const double *v, double *out)
{
    const double v0 = v[0], v1 = v[1], v2 = v[2];
    for (int a = 0; a < 3; a++)
        out[a] = g->e[3 * a] * v0 + g->e[3 * a + 1] * v1 + g->e[3 * a + 2] * v2;
}

#endif

#endif
