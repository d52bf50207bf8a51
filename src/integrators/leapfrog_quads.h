/* leapfrog_quads.h -- the AVX2 width of the leap-frog fast path's translation kernels:
 * four nodes a pass in 32-byte vectors, chosen at run time on processors that have AVX2
 * (lf_quads_start); the SSE2 width (leapfrog_stream.h) serves the others.  The kernels
 * themselves are written once for both widths in leapfrog_lanes_source.h; this file
 * holds what is the width's own: the AVX2 target, the spread of a per-node array and of
 * g over three vectors, the test of the residue, and where a pass starts.
 *
 * Four nodes are twelve doubles, three vectors per array: x0 y0 z0 x1 | y1 z1 x2 y2 |
 * z2 x3 y3 z3.  A per-node array (mass, inverse mass) is read as one vector m0 m1 m2 m3
 * and spread over that pattern by three permutations.  Streamed stores
 * (_mm256_stream_pd) want 32-byte aligned outputs: the scalar loop takes the first nodes
 * up to a 32-byte boundary (lf_quads_start).  Included by leapfrog_common.h; elsewhere
 * than x86-64 GCC or Clang, LF_HAVE_QUADS is undefined. */
#ifndef MB_LEAPFROG_QUADS_H
#define MB_LEAPFROG_QUADS_H

#if defined(__x86_64__) && defined(__GNUC__)
#define LF_HAVE_QUADS 1

#include <immintrin.h>
#include "mb_compiler.h"

#include <stddef.h>
#include <stdint.h>

#define LF_AVX2 __attribute__((target("avx2")))
#define LF_AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

/* 1 on a processor with AVX2 */
static inline int lf_have_avx2(void)
{
    return __builtin_cpu_supports("avx2") != 0;
}

static inline int lf_quad_aligned(const double *p)
{
    return ((uintptr_t)p & 31u) == 0;
}

/* The first node of the quad kernels' part of a pass, the nodes before it being left to
 * the scalar loop, or -1 when the quad kernels are not to run (a processor without
 * AVX2).  Unstreamed, 0.  Streamed, the node p in 0 .. 3 from which its count output
 * arrays outs (3 doubles per node) are all 32-byte aligned: a node moves an array's
 * alignment by 24 bytes, so from an 8-byte aligned array one of the first four nodes
 * starts a 32-byte boundary (the 16-byte alignment of calloc's large blocks gives
 * p = 2); -1 when the arrays do not share it (the SSE2 kernels then stream). */
static inline long lf_quads_start(int streams, const double *const *outs, int count)
{
    if (!lf_have_avx2())
        return -1;
    if (!streams)
        return 0;
    for (long p = 0; p < 4; p++) {
        int aligned = 1;
        for (int k = 0; k < count; k++)
            aligned &= lf_quad_aligned(outs[k] + 3 * p);
        if (aligned)
            return p;
    }
    return -1;
}

/* A per-node array a of nodes i .. i + 3 in the three vectors of their components:
 * a0 a0 a0 a1 | a1 a1 a2 a2 | a2 a3 a3 a3. */
LF_AVX2_INLINE void lf_spread_quads(const double *a, size_t i, __m256d q[3])
{
    const __m256d four = _mm256_loadu_pd(&a[i]);
    q[0] = _mm256_permute4x64_pd(four, 0 | 0 << 2 | 0 << 4 | 1 << 6);
    q[1] = _mm256_permute4x64_pd(four, 1 | 1 << 2 | 2 << 4 | 2 << 6);
    q[2] = _mm256_permute4x64_pd(four, 2 | 3 << 2 | 3 << 4 | 3 << 6);
}

/* The 3-vector g repeated over the pattern: g0 g1 g2 g0 | g1 g2 g0 g1 | g2 g0 g1 g2. */
LF_AVX2_INLINE void lf_repeat_quads(const double g[3], __m256d g_q[3])
{
    g_q[0] = _mm256_set_pd(g[0], g[2], g[1], g[0]);
    g_q[1] = _mm256_set_pd(g[1], g[0], g[2], g[1]);
    g_q[2] = _mm256_set_pd(g[2], g[1], g[0], g[2]);
}

/* 1 when some bit of r is set */
LF_AVX2_INLINE int lf_any_set_quads(__m256d r)
{
    const __m256i bits = _mm256_castpd_si256(r);
    return !_mm256_testz_si256(bits, bits);
}

/* The kernels (leapfrog_lanes_source.h) four nodes a pass: lf_translate_quads,
 * lf_uniform_quads, ordinary functions compiled for AVX2 (called only where
 * lf_quads_start found it), streamed when `stream` (the outputs, and f when stored,
 * 32-byte aligned). */
#define LANE __m256d
#define LANE_NODES 4
#define LANE_FN(name) name##_quads
#define LANE_INLINE LF_AVX2_INLINE
#define LANE_ENTRY static LF_AVX2 __attribute__((noinline, unused))
#define LANE_SET1(d) _mm256_set1_pd(d)
#define LANE_ZERO() _mm256_setzero_pd()
#define LANE_LOADU(p) _mm256_loadu_pd(p)
#define LANE_STOREU(p, a) _mm256_storeu_pd(p, a)
#define LANE_STREAM(p, a) _mm256_stream_pd(p, a)
#define LANE_MUL(a, b) _mm256_mul_pd(a, b)
#define LANE_ADD(a, b) _mm256_add_pd(a, b)
#define LANE_SUB(a, b) _mm256_sub_pd(a, b)
#define LANE_OR(a, b) _mm256_or_pd(a, b)
#define LANE_AND(a, b) _mm256_and_pd(a, b)
#define LANE_NEQ(a, b) _mm256_cmp_pd(a, b, _CMP_NEQ_UQ)
#include "leapfrog_lanes_source.h"

#endif
#endif
