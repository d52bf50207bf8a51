/* leapfrog_stream.h -- the SSE2 width of the leap-frog fast path's translation kernels
 * (two nodes a pass in 16-byte vectors, on processors without AVX2: leapfrog_quads.h has
 * the four-node width), and when the kernels stream their outputs.  The kernels
 * themselves are written once for both widths in leapfrog_lanes_source.h; this file
 * holds what is the width's own: the spread of a per-node array and of g over three
 * halves, the test of the residue, the alignment streaming needs.
 *
 * The fast path writes x(t+h) and v(t+h/2) into arrays that this step does not read
 * again.  An ordinary store first reads each destination cache line from memory
 * (write-allocate): a third of the kernel's memory traffic on large stores.
 * _mm_stream_pd (and _mm256_stream_pd) write around the cache instead, on stores of at
 * least LF_STREAM_MIN_NODES nodes.  Included by leapfrog_common.h; without SSE2
 * LF_HAVE_STREAM is undefined and the template keeps its scalar loop. */
#ifndef MB_LEAPFROG_STREAM_H
#define MB_LEAPFROG_STREAM_H

#if defined(__SSE2__)
#define LF_HAVE_STREAM 1

#include <emmintrin.h>
#include "mb_compiler.h"

#include <stddef.h>
#include <stdint.h>

/* Stores of at least this many nodes stream.  A step touches 112 to 136 bytes per node
 * (x, v and the two outputs, 3 doubles each, mass and inverse mass, and f when it is
 * written), so 2^19 nodes are 56 to 68 MiB: beyond the last-level cache, where a
 * streamed output would otherwise have been read back from the cache by the next step. */
#define LF_STREAM_MIN_NODES ((size_t)1 << 19)

/* A step that also rotates its nodes as plain spheres (leapfrog_rot_quads.h) reads w, T,
 * q and the moments I (24 bytes a node, the line's share of I11) and writes w+, q+, L+:
 * 184 bytes a node more, 296 to 320 in all.  Its stores stream from the node count at
 * which it moves what 2^19 translating nodes move at 112 bytes, 56 MiB: 198 341 nodes.
 * Below that a line it writes is still cached when the next step's neighbour check and
 * force pass read it (x, v, w), which a streamed store would send to memory. */
#define LF_STREAM_MIN_NODES_ROTATING (LF_STREAM_MIN_NODES * 112 / 296)

static inline int lf_stream_aligned(const double *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* A per-node array a of a pair of nodes i, i + 1 in the three halves of their
 * components, x0 y0 | z0 x1 | y1 z1. */
static inline void lf_spread_pairs(const double *a, size_t i, __m128d half[3])
{
    half[0] = _mm_set1_pd(a[i]);
    half[1] = _mm_set_pd(a[i + 1], a[i]);
    half[2] = _mm_set1_pd(a[i + 1]);
}

/* The 3-vector g repeated over the pattern: g0 g1 | g2 g0 | g1 g2. */
static inline void lf_repeat_pairs(const double g[3], __m128d g_half[3])
{
    g_half[0] = _mm_set_pd(g[1], g[0]);
    g_half[1] = _mm_set_pd(g[0], g[2]);
    g_half[2] = _mm_set_pd(g[2], g[1]);
}

/* 1 when some bit of r is set (both halves compared with 0: r is +0 or a NaN's bits) */
static inline int lf_any_set_pairs(__m128d r)
{
    double h[2];
    _mm_storeu_pd(h, r);
    return !(h[0] == 0.0 && h[1] == 0.0);
}

/* The kernels (leapfrog_lanes_source.h) two nodes a pass: lf_translate_pairs,
 * lf_uniform_pairs, inlined in their callers, streamed when `stream` (the outputs, and
 * f when stored, 16-byte aligned: lf_stream_aligned). */
#define LANE __m128d
#define LANE_NODES 2
#define LANE_FN(name) name##_pairs
#define LANE_INLINE static inline
#define LANE_ENTRY static inline
#define LANE_SET1(d) _mm_set1_pd(d)
#define LANE_ZERO() _mm_setzero_pd()
#define LANE_LOADU(p) _mm_loadu_pd(p)
#define LANE_STOREU(p, a) _mm_storeu_pd(p, a)
#define LANE_STREAM(p, a) _mm_stream_pd(p, a)
#define LANE_MUL(a, b) _mm_mul_pd(a, b)
#define LANE_ADD(a, b) _mm_add_pd(a, b)
#define LANE_SUB(a, b) _mm_sub_pd(a, b)
#define LANE_OR(a, b) _mm_or_pd(a, b)
#define LANE_AND(a, b) _mm_and_pd(a, b)
#define LANE_NEQ(a, b) _mm_cmpneq_pd(a, b)
#include "leapfrog_lanes_source.h"

/* lf_uniform_pairs, streamed when the store is large enough (`streams`) and f (when
 * stored), x_out, v_out are 16-byte aligned. */
static inline size_t lf_uniform_pairs_run(const double *restrict x, const double *restrict v,
                                          const double *restrict m, const double *restrict im,
                                          const double g[3], size_t n, double *restrict f,
                                          double *restrict x_out, double *restrict v_out,
                                          double hk, double h, int *bad, int streams,
                                          int store_f)
{
    const int stream = streams && lf_stream_aligned(x_out) && lf_stream_aligned(v_out)
                       && (!store_f || lf_stream_aligned(f));
    if (stream)
        return store_f ? lf_uniform_pairs(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 1, 1)
                       : lf_uniform_pairs(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 1, 0);
    return store_f ? lf_uniform_pairs(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 0, 1)
                   : lf_uniform_pairs(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 0, 0);
}

#endif
#endif
