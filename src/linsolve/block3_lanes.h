/* block3_lanes.h -- entry-wise arithmetic on row-major 3x3 blocks (9 doubles) in two-lane
 * SSE2 vectors: entries 0-1, 2-3, 4-5 and 6-7 in four vectors, entry 8 in the low lane of
 * a fifth (its high lane +0, never stored).  Each lane makes the very IEEE operation the
 * scalar loop makes on its entry -- a multiply and an add are separate instructions, and
 * the library is compiled without contraction (-ffp-contract=off) -- so a block gets the
 * same bits as entry by entry, in about half the instructions.  Loads and stores are
 * unaligned (a block starts every 72 bytes).  Without SSE2 the scalar loops.
 *
 * Used where blocks are added to blocks: a spring's G = h C + h^2 K and its four blocks
 * of A in block-tridiagonal and in CSR storage (linsys_sink.c, linsys_sink_pass.h).  The
 * cloth benchmark's lean peer uses block3_row_addsub for the rows of its blocks in the
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

/* G = h C + h2 K, entry by entry: the sum of mb_linsys_block_g (mb_linsolve.h) */
static MB_ALWAYS_INLINE block3_lanes block3_g(const double *C, const double *K, double h,
                                              double h2)
{
    block3_lanes c = block3_load(C), k = block3_load(K);
    const __m128d hv = _mm_set1_pd(h), h2v = _mm_set1_pd(h2);
    MB_UNROLL(5)
    for (int p = 0; p < 5; p++)
        c.q[p] = _mm_add_pd(_mm_mul_pd(hv, c.q[p]), _mm_mul_pd(h2v, k.q[p]));
    return c;
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

static inline block3_lanes block3_g(const double *C, const double *K, double h, double h2)
{
    block3_lanes g;
    MB_UNROLL(9)
    for (int q = 0; q < 9; q++)
        g.e[q] = h * C[q] + h2 * K[q];
    return g;
}

static inline void block3_row_addsub(double *a, const double *g, int add)
{
    for (int e = 0; e < 3; e++)
        a[e] = add ? a[e] + g[e] : a[e] - g[e];
}

#endif

#endif
