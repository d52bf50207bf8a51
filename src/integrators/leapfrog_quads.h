/* leapfrog_quads.h -- the translation kernels of the leap-frog fast path four nodes at a
 * time in 32-byte AVX2 vectors, chosen at run time on processors that have AVX2
 * (lf_quads_usable); the SSE2 pair kernels of leapfrog_stream.h serve the others.
 *
 * Four nodes are twelve doubles, three vectors per array: x0 y0 z0 x1 | y1 z1 x2 y2 |
 * z2 x3 y3 z3.  A per-node array (mass, inverse mass) is read as one vector m0 m1 m2 m3
 * and spread over that pattern by three permutations.  The arithmetic is the scalar
 * kernel's, operation for operation and component for component -- f = +0 + m g
 * (gravity's eval_set), a = f im, a = a hk, v+ = v + a, x+ = x + v+ h, each one IEEE
 * double operation -- so the bits are those of the SSE2 and scalar paths on any
 * processor: the build sets -ffp-contract=off, and the avx2 target does not enable FMA
 * (tests/test_leapfrog_stream.c compares both kernels with eq. (28) computed in the test).
 * Streamed stores (_mm256_stream_pd) want 32-byte aligned outputs: the scalar loop takes
 * the first nodes up to a 32-byte boundary (lf_quads_start).  Included by
 * leapfrog_common.h; elsewhere than x86-64 GCC or Clang, LF_HAVE_QUADS is undefined. */
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
LF_AVX2_INLINE void lf_quad_spread(const double *a, size_t i, __m256d q[3])
{
    const __m256d four = _mm256_loadu_pd(&a[i]);
    q[0] = _mm256_permute4x64_pd(four, 0 | 0 << 2 | 0 << 4 | 1 << 6);
    q[1] = _mm256_permute4x64_pd(four, 1 | 1 << 2 | 2 << 4 | 2 << 6);
    q[2] = _mm256_permute4x64_pd(four, 2 | 3 << 2 | 3 << 4 | 3 << 6);
}

/* Store of four doubles at p: streamed (p 32-byte aligned) or ordinary (any p). */
LF_AVX2_INLINE void lf_quad_store(double *p, __m256d a, int stream)
{
    if (stream)
        _mm256_stream_pd(p, a);
    else
        _mm256_storeu_pd(p, a);
}

/* Kick and drift of one vector (four components at c): a = f im, a = a hk, v+ = v + a,
 * x+ = x + v+ h.  The bits of x+ - x+ are or-ed into *residue: +0 when x+ is finite, and
 * x+ is not finite whenever v+ is not (v+ h is then NaN or +-Inf whatever h is, and so
 * is x + v+ h), so one residue detects either. */
LF_AVX2_INLINE void lf_quad_kick_drift(const double *x, const double *v, size_t c, __m256d f,
                                       __m256d im, __m256d vhk, __m256d vh, double *x_out,
                                       double *v_out, __m256d *residue, int stream)
{
    __m256d a = _mm256_mul_pd(f, im);
    a = _mm256_mul_pd(a, vhk);
    const __m256d vo = _mm256_add_pd(_mm256_loadu_pd(&v[c]), a);
    const __m256d xo = _mm256_add_pd(_mm256_loadu_pd(&x[c]), _mm256_mul_pd(vo, vh));
    lf_quad_store(&v_out[c], vo, stream);
    lf_quad_store(&x_out[c], xo, stream);
    *residue = _mm256_or_pd(*residue, _mm256_sub_pd(xo, xo));
}

/* The end of a pass: streamed lines made visible before the caller swaps the arrays
 * in, and *bad set when a result was NaN or Inf (some bit of the residue set). */
LF_AVX2_INLINE void lf_quad_done(__m256d residue, int *bad, int stream)
{
    if (stream)
        _mm_sfence();
    const __m256i bits = _mm256_castpd_si256(residue);
    *bad |= !_mm256_testz_si256(bits, bits);
}

/* Kick and drift of the nodes 0 .. 4 floor(n/4) - 1 from the forces f, four at a time,
 * streamed when `stream` (x_out, v_out 32-byte aligned).  Sets *bad on NaN or Inf;
 * returns the number of nodes done. */
LF_AVX2_INLINE size_t lf_quads_body(const double *restrict x, const double *restrict v,
                                    const double *restrict f, const double *restrict im,
                                    size_t n, double *restrict x_out, double *restrict v_out,
                                    double hk, double h, int *bad, int stream)
{
    const __m256d vhk = _mm256_set1_pd(hk), vh = _mm256_set1_pd(h);
    __m256d residue = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d im_q[3];
        lf_quad_spread(im, i, im_q);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            const size_t c = 3 * i + 4 * (size_t)k;
            lf_quad_kick_drift(x, v, c, _mm256_loadu_pd(&f[c]), im_q[k], vhk, vh, x_out,
                               v_out, &residue, stream);
        }
    }
    lf_quad_done(residue, bad, stream);
    return i;
}

/* lf_quads_body for a field that is one uniform acceleration g: f = +0 + m g on nodes of
 * nonzero inverse mass (NaN included, as the scalar im != 0), +0 on the others --
 * gravity's eval_set, operation for operation, the selection done by a mask -- stored
 * to f too when store_f (streamed: f 32-byte aligned as well). */
LF_AVX2_INLINE size_t lf_uniform_quads_body(const double *restrict x, const double *restrict v,
                                            const double *restrict m,
                                            const double *restrict im, const double g[3],
                                            size_t n, double *restrict f,
                                            double *restrict x_out, double *restrict v_out,
                                            double hk, double h, int *bad, int stream,
                                            int store_f)
{
    const __m256d vhk = _mm256_set1_pd(hk), vh = _mm256_set1_pd(h), zero = _mm256_setzero_pd();
    const __m256d g_q[3] = { _mm256_set_pd(g[0], g[2], g[1], g[0]),
                             _mm256_set_pd(g[1], g[0], g[2], g[1]),
                             _mm256_set_pd(g[2], g[1], g[0], g[2]) };
    __m256d residue = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d im_q[3], m_q[3];
        lf_quad_spread(im, i, im_q);
        lf_quad_spread(m, i, m_q);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            const size_t c = 3 * i + 4 * (size_t)k;
            const __m256d weighs = _mm256_cmp_pd(im_q[k], zero, _CMP_NEQ_UQ);
            const __m256d mg = _mm256_and_pd(weighs, _mm256_mul_pd(m_q[k], g_q[k]));
            const __m256d fc = _mm256_add_pd(zero, mg);
            if (store_f)
                lf_quad_store(&f[c], fc, stream);
            lf_quad_kick_drift(x, v, c, fc, im_q[k], vhk, vh, x_out, v_out, &residue, stream);
        }
    }
    lf_quad_done(residue, bad, stream);
    return i;
}

/* The two kernels with `stream` (and `store_f`) made constants of each instance, so
 * that no flag is tested inside the loop. */
static LF_AVX2 __attribute__((noinline, unused)) size_t
lf_translate_quads(const double *restrict x, const double *restrict v, const double *restrict f,
                   const double *restrict im, size_t n, double *restrict x_out,
                   double *restrict v_out, double hk, double h, int *bad, int stream)
{
    return stream ? lf_quads_body(x, v, f, im, n, x_out, v_out, hk, h, bad, 1)
                  : lf_quads_body(x, v, f, im, n, x_out, v_out, hk, h, bad, 0);
}

static LF_AVX2 __attribute__((noinline, unused)) size_t
lf_uniform_quads(const double *restrict x, const double *restrict v, const double *restrict m,
                 const double *restrict im, const double g[3], size_t n, double *restrict f,
                 double *restrict x_out, double *restrict v_out, double hk, double h, int *bad,
                 int stream, int store_f)
{
    if (stream)
        return store_f ? lf_uniform_quads_body(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 1, 1)
                       : lf_uniform_quads_body(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 1, 0);
    return store_f ? lf_uniform_quads_body(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 0, 1)
                   : lf_uniform_quads_body(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 0, 0);
}

#endif
#endif
