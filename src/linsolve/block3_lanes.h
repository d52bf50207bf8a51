/* block3_lanes.h -- entry-wise arithmetic on row-major 3x3 blocks (9 doubles) in two-lane
 * SSE2 vectors: entries 0-1, 2-3, 4-5 and 6-7 in four vectors, entry 8 in the low lane of
 * a fifth (its high lane +0, never stored).  Each lane makes the very IEEE operation the
 * scalar loop makes on its entry -- a multiply and an add are separate instructions, and
 * the library is compiled without contraction (-ffp-contract=off) -- so a block gets the
 * same bits as entry by entry, in about half the instructions.  Loads and stores are
 * unaligned (a block starts every 72 bytes).  Without SSE2 the scalar loops.
 *
 * Used where blocks are formed and added to blocks: a spring's K and C from the outer
 * products n n^T and u pdv^T (force_springs_source.c), its G = h C + h^2 K and its four
 * blocks of A in block-tridiagonal and in CSR storage (linsys_sink.c, linsys_sink_pass.h,
 * linsys_sink_chain.h), and whether a block is zero (block3_nonzero).
 * The cloth benchmark's lean peer uses block3_row_addsub for the rows of its blocks in the
 * scalar CSR matrix it hands to CHOLMOD (bench_rebuild.c). */
#ifndef MB_BLOCK3_LANES_H
#define MB_BLOCK3_LANES_H

#include "mb_compiler.h"

#if defined(__SSE2__)
#include <emmintrin.h>

typedef struct block3_lanes {
    __m128d q[5];
} block3_lanes;

static MB_ALWAYS_INLINE block3_lanes block3_load(const double *a)
{
    block3_lanes x;
    MB_UNROLL(4)
    for (int p = 0; p < 4; p++)
        x.q[p] = _mm_loadu_pd(&a[2 * p]);
    x.q[4] = _mm_load_sd(&a[8]);
    return x;
}

static MB_ALWAYS_INLINE void block3_store(double *a, block3_lanes x)
{
    MB_UNROLL(4)
    for (int p = 0; p < 4; p++)
        _mm_storeu_pd(&a[2 * p], x.q[p]);
    _mm_store_sd(&a[8], x.q[4]);
}

/* the block diag(m), +0 off the diagonal (mb_blocktri_mass_block) */
static MB_ALWAYS_INLINE block3_lanes block3_mass(double m)
{
    const __m128d d = _mm_set_sd(m), z = _mm_setzero_pd();
    return (block3_lanes){ { d, z, d, z, d } };
}

/* the block +0 */
static MB_ALWAYS_INLINE block3_lanes block3_zero(void)
{
    const __m128d z = _mm_setzero_pd();
    return (block3_lanes){ { z, z, z, z, z } };
}

/* -a, entry by entry (each sign flipped: -(+0) is -0) */
static MB_ALWAYS_INLINE block3_lanes block3_neg(block3_lanes a)
{
    const __m128d sign = _mm_set1_pd(-0.0);
    MB_UNROLL(5)
    for (int p = 0; p < 5; p++)
        a.q[p] = _mm_xor_pd(a.q[p], sign);
    return a;
}

/* a + g, entry by entry */
static MB_ALWAYS_INLINE block3_lanes block3_add(block3_lanes a, block3_lanes g)
{
    MB_UNROLL(5)
    for (int p = 0; p < 5; p++)
        a.q[p] = _mm_add_pd(a.q[p], g.q[p]);
    return a;
}

/* a - g, entry by entry */
static MB_ALWAYS_INLINE block3_lanes block3_sub(block3_lanes a, block3_lanes g)
{
    MB_UNROLL(5)
    for (int p = 0; p < 5; p++)
        a.q[p] = _mm_sub_pd(a.q[p], g.q[p]);
    return a;
}

/* a s, entry by entry */
static MB_ALWAYS_INLINE block3_lanes block3_scale(block3_lanes a, double s)
{
    const __m128d sv = _mm_set1_pd(s);
    MB_UNROLL(5)
    for (int p = 0; p < 5; p++)
        a.q[p] = _mm_mul_pd(a.q[p], sv);
    return a;
}

/* a + s I: s added to the diagonal entries 0, 4 and 8; the others get -0, which adds
 * nothing to any value (x + -0 is x, -0 included), so each keeps its bits */
static MB_ALWAYS_INLINE block3_lanes block3_add_diagonal(block3_lanes a, double s)
{
    const __m128d d = _mm_set_pd(-0.0, s);
    a.q[0] = _mm_add_pd(a.q[0], d);
    a.q[2] = _mm_add_pd(a.q[2], d);
    a.q[4] = _mm_add_pd(a.q[4], d);
    return a;
}

/* the outer product x y^T, entry (r, c) = x_r y_c */
static MB_ALWAYS_INLINE block3_lanes block3_outer(const double x[3], const double y[3])
{
    const __m128d x01 = _mm_loadu_pd(x), y01 = _mm_loadu_pd(y), y2 = _mm_load_sd(&y[2]);
    block3_lanes o;
    o.q[0] = _mm_mul_pd(_mm_set1_pd(x[0]), y01);                        /* x0 y0, x0 y1 */
    o.q[1] = _mm_mul_pd(x01, _mm_unpacklo_pd(y2, y01));                 /* x0 y2, x1 y0 */
    o.q[2] = _mm_mul_pd(_mm_set1_pd(x[1]), _mm_shuffle_pd(y01, y2, 1)); /* x1 y1, x1 y2 */
    o.q[3] = _mm_mul_pd(_mm_set1_pd(x[2]), y01);                        /* x2 y0, x2 y1 */
    o.q[4] = _mm_mul_sd(_mm_load_sd(&x[2]), y2);                        /* x2 y2 */
    return o;
}

/* h c + h2 k, entry by entry: the sum of mb_linsys_block_g (mb_linsolve.h) */
static MB_ALWAYS_INLINE block3_lanes block3_g_lanes(block3_lanes c, block3_lanes k, double h,
                                                    double h2)
{
    const __m128d hv = _mm_set1_pd(h), h2v = _mm_set1_pd(h2);
    MB_UNROLL(5)
    for (int p = 0; p < 5; p++)
        c.q[p] = _mm_add_pd(_mm_mul_pd(hv, c.q[p]), _mm_mul_pd(h2v, k.q[p]));
    return c;
}

/* G = h C + h2 K, entry by entry: the sum of mb_linsys_block_g (mb_linsolve.h) */
static MB_ALWAYS_INLINE block3_lanes block3_g(const double *C, const double *K, double h,
                                              double h2)
{
    return block3_g_lanes(block3_load(C), block3_load(K), h, h2);
}

/* 1 when some entry of a is not zero (+0 or -0; a NaN entry is not zero): the test of
 * mb_linsys_block_nonzero (mb_linsolve.h) on the block in lanes, entry 8 from its low
 * lane alone */
static MB_ALWAYS_INLINE int block3_nonzero(block3_lanes a)
{
    const __m128d z = _mm_setzero_pd();
    const __m128d any = _mm_or_pd(_mm_or_pd(_mm_cmpneq_pd(a.q[0], z), _mm_cmpneq_pd(a.q[1], z)),
                                  _mm_or_pd(_mm_cmpneq_pd(a.q[2], z), _mm_cmpneq_pd(a.q[3], z)));
    return _mm_movemask_pd(any) != 0 || (_mm_movemask_pd(_mm_cmpneq_sd(a.q[4], z)) & 1) != 0;
}

/* one row of three entries, a_e + g_e (add 1) or a_e - g_e (add 0), in place: columns 0
 * and 1 in the two lanes of one vector, column 2 alone (a block's rows in storage with
 * another row stride, such as a scalar CSR matrix's) */
static MB_ALWAYS_INLINE void block3_row_addsub(double *a, const double *g, int add)
{
    const __m128d x = _mm_loadu_pd(a), y = _mm_loadu_pd(g);
    _mm_storeu_pd(a, add ? _mm_add_pd(x, y) : _mm_sub_pd(x, y));
    a[2] = add ? a[2] + g[2] : a[2] - g[2];
}

#else   /* the scalar loops */

typedef struct block3_lanes {
    double e[9];
} block3_lanes;

static inline block3_lanes block3_load(const double *a)
{
    block3_lanes x;
    MB_UNROLL(9)
    for (int q = 0; q < 9; q++)
        x.e[q] = a[q];
    return x;
}

static inline void block3_store(double *a, block3_lanes x)
{
    MB_UNROLL(9)
    for (int q = 0; q < 9; q++)
        a[q] = x.e[q];
}

static inline block3_lanes block3_mass(double m)
{
    block3_lanes x;
    for (int q = 0; q < 9; q++)
        x.e[q] = q % 4 == 0 ? m : 0.0;
    return x;
}

static inline block3_lanes block3_zero(void)
{
    return block3_mass(0.0);
}

static inline block3_lanes block3_neg(block3_lanes a)
{
    MB_UNROLL(9)
    for (int q = 0; q < 9; q++)
        a.e[q] = -a.e[q];
    return a;
}

static inline block3_lanes block3_add(block3_lanes a, block3_lanes g)
{
    MB_UNROLL(9)
    for (int q = 0; q < 9; q++)
        a.e[q] = a.e[q] + g.e[q];
    return a;
}

static inline block3_lanes block3_sub(block3_lanes a, block3_lanes g)
{
    MB_UNROLL(9)
    for (int q = 0; q < 9; q++)
        a.e[q] = a.e[q] - g.e[q];
    return a;
}

static inline block3_lanes block3_scale(block3_lanes a, double s)
{
    for (int q = 0; q < 9; q++)
        a.e[q] = a.e[q] * s;
    return a;
}

static inline block3_lanes block3_add_diagonal(block3_lanes a, double s)
{
    for (int q = 0; q < 9; q += 4)
        a.e[q] = a.e[q] + s;
    return a;
}

static inline block3_lanes block3_outer(const double x[3], const double y[3])
{
    block3_lanes o;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            o.e[3 * r + c] = x[r] * y[c];
    return o;
}

static inline block3_lanes block3_g_lanes(block3_lanes c, block3_lanes k, double h, double h2)
{
    MB_UNROLL(9)
    for (int q = 0; q < 9; q++)
        c.e[q] = h * c.e[q] + h2 * k.e[q];
    return c;
}

static inline block3_lanes block3_g(const double *C, const double *K, double h, double h2)
{
    return block3_g_lanes(block3_load(C), block3_load(K), h, h2);
}

/* 1 when some entry of a is not zero (a NaN entry is not zero) */
static inline int block3_nonzero(block3_lanes a)
{
    int any = 0;
    for (int q = 0; q < 9; q++)
        any |= a.e[q] != 0.0;
    return any;
}

static inline void block3_row_addsub(double *a, const double *g, int add)
{
    for (int e = 0; e < 3; e++)
        a[e] = add ? a[e] + g[e] : a[e] - g[e];
}

#endif

#endif
