/* block3_lanes.h -- entry-wise arithmetic on row-major 3x3 blocks (9 doubles) in two-lane
 * SSE2 vectors: entries 0-1, 2-3, 4-5 and 6-7 in four vectors, entry 8 in the low lane of
 * a fifth (its high lane +0, never stored).  Each lane makes the very IEEE operation the
 * scalar loop makes on its entry -- a multiply and an add are separate instructions, and
 * the library is compiled without contraction (-ffp-contract=off) -- so a block gets the
 * same bits as entry by entry, in about half the instructions.  Loads and stores are
 * unaligned (a block starts every 72 bytes).  Without SSE2 the scalar loops.
 *
 * The products of two blocks likewise take columns 0 and 1 of a row in the two lanes of
 * one vector and column 2 alone, each entry ((A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c) as the
 * scalar loop sums it.
 *
 * Used where blocks are added to blocks: a spring's G = h C + h^2 K and its four blocks
 * of A in block-tridiagonal and in CSR storage (linsys_sink.c); and the block sweep's products
 * S_i = D_i - L_i X_{i-1} and X_i = S_i^-1 U_i (linsolve_blocktri.c).  The chain
 * benchmark's lean peer uses the same for its blocks and its sweep's products
 * (bench_rebuild.c, bench_blocktri.c), the cloth's for the rows of its blocks in the
 * scalar CSR matrix it hands to CHOLMOD (bench_rebuild.c, block3_row_addsub). */
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

/* row a of A times B, columns 0 and 1: (A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c in lane c;
 * b0, b1, b2 hold columns 0-1 of B's rows */
static MB_ALWAYS_INLINE __m128d block3_row_times(const double *Aa, __m128d b0, __m128d b1,
                                                 __m128d b2)
{
    __m128d p = _mm_mul_pd(_mm_set1_pd(Aa[0]), b0);
    p = _mm_add_pd(p, _mm_mul_pd(_mm_set1_pd(Aa[1]), b1));
    return _mm_add_pd(p, _mm_mul_pd(_mm_set1_pd(Aa[2]), b2));
}

/* out = A B, entry by entry ((A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c); out aliases neither */
static MB_ALWAYS_INLINE void block3_mul(const double *A, const double *B, double *out)
{
    const __m128d b0 = _mm_loadu_pd(&B[0]), b1 = _mm_loadu_pd(&B[3]), b2 = _mm_loadu_pd(&B[6]);
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        const double *Aa = &A[3 * a];
        _mm_storeu_pd(&out[3 * a], block3_row_times(Aa, b0, b1, b2));
        out[3 * a + 2] = Aa[0] * B[2] + Aa[1] * B[5] + Aa[2] * B[8];
    }
}

/* out = D - A B, entry by entry D_ac - ((A_a0 B_0c + A_a1 B_1c) + A_a2 B_2c); out
 * aliases none of them */
static MB_ALWAYS_INLINE void block3_sub_mul(const double *D, const double *A, const double *B,
                                            double *out)
{
    const __m128d b0 = _mm_loadu_pd(&B[0]), b1 = _mm_loadu_pd(&B[3]), b2 = _mm_loadu_pd(&B[6]);
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        const double *Aa = &A[3 * a];
        _mm_storeu_pd(&out[3 * a],
                      _mm_sub_pd(_mm_loadu_pd(&D[3 * a]), block3_row_times(Aa, b0, b1, b2)));
        out[3 * a + 2] = D[3 * a + 2] - (Aa[0] * B[2] + Aa[1] * B[5] + Aa[2] * B[8]);
    }
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

static inline void block3_mul(const double *A, const double *B, double *out)
{
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++)
        MB_UNROLL(3)
        for (int c = 0; c < 3; c++)
            out[3 * a + c] = A[3 * a] * B[c] + A[3 * a + 1] * B[3 + c] + A[3 * a + 2] * B[6 + c];
}

static inline void block3_sub_mul(const double *D, const double *A, const double *B,
                                  double *out)
{
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++)
        MB_UNROLL(3)
        for (int c = 0; c < 3; c++)
            out[3 * a + c] = D[3 * a + c] - (A[3 * a] * B[c] + A[3 * a + 1] * B[3 + c]
                                             + A[3 * a + 2] * B[6 + c]);
}

#endif

#endif
