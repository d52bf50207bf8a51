/* leapfrog_stream.h -- the translation kernel of the leap-frog fast path with
 * non-temporal stores, for node stores larger than any cache (double base, SSE2).
 *
 * The fast path writes x(t+h) and v(t+h/2) into arrays that this step does not read
 * again.  An ordinary store first reads each destination cache line from memory
 * (write-allocate): a third of the kernel's memory traffic on large stores.
 * _mm_stream_pd writes around the cache instead.  The arithmetic is that of
 * lf_kick_drift, operation for operation -- a = f im, a = a hk, v+ = v + a, x+ = x + v+ h,
 * each an IEEE double operation as the scalar code compiles on x86-64 -- so the results
 * are bit-identical (tests/test_leapfrog_stream.c).  Included by leapfrog_common.h;
 * without SSE2 LF_HAVE_STREAM is undefined and the template keeps its scalar loop. */
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

static inline int lf_stream_aligned(const double *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* A per-node array a of a pair of nodes i, i + 1 in the three halves of their
 * components, x0 y0 | z0 x1 | y1 z1. */
static inline void lf_pair_halves(const double *a, size_t i, __m128d half[3])
{
    half[0] = _mm_set1_pd(a[i]);
    half[1] = _mm_set_pd(a[i + 1], a[i]);
    half[2] = _mm_set1_pd(a[i + 1]);
}

/* Store of two doubles at p: streamed (p 16-byte aligned) or ordinary (any p). */
static inline void lf_store_pair(double *p, __m128d a, int stream)
{
    if (stream)
        _mm_stream_pd(p, a);
    else
        _mm_storeu_pd(p, a);
}

/* Kick and drift of one half (two components at c): a = f im, a = a hk, v+ = v + a,
 * x+ = x + v+ h, stored by lf_store_pair.  The bits of x+ - x+, +0 exactly when x+ is
 * finite, are or-ed into *residue (an or, not a sum: a chain of one-cycle operations
 * from pair to pair, where additions made the loop wait on their latency).  x+ is not
 * finite whenever v+ is not (v+ h is then NaN or +-Inf whatever h is, and so is
 * x + v+ h), so the one residue detects either. */
static inline void lf_stream_half(const double *x, const double *v, size_t c, __m128d f,
                                  __m128d im, __m128d vhk, __m128d vh, double *x_out,
                                  double *v_out, __m128d *residue, int stream)
{
    __m128d a = _mm_mul_pd(f, im);
    a = _mm_mul_pd(a, vhk);
    const __m128d vo = _mm_add_pd(_mm_loadu_pd(&v[c]), a);
    const __m128d xo = _mm_add_pd(_mm_loadu_pd(&x[c]), _mm_mul_pd(vo, vh));
    lf_store_pair(&v_out[c], vo, stream);
    lf_store_pair(&x_out[c], xo, stream);
    *residue = _mm_or_pd(*residue, _mm_sub_pd(xo, xo));
}

/* The end of a pass: streamed lines made visible before the caller swaps the arrays
 * in, and *bad set when a result was NaN or Inf (some bit of the residue set). */
static inline void lf_stream_done(__m128d residue, int *bad, int stream)
{
    if (stream)
        _mm_sfence();
    double r[2];
    _mm_storeu_pd(r, residue);
    *bad |= !(r[0] == 0.0 && r[1] == 0.0);
}

/* Kick and drift of the nodes 0 .. 2 floor(n/2) - 1, two at a time (six doubles, three
 * 16-byte stores per output array), streamed when `stream` (x_out and v_out must then be
 * 16-byte aligned: lf_stream_aligned).  Sets *bad when a result is NaN or Inf.  Returns
 * the number of nodes done; the caller finishes the odd one. */
static inline size_t lf_translate_pairs(const double *restrict x, const double *restrict v,
                                        const double *restrict f, const double *restrict im,
                                        size_t n, double *restrict x_out,
                                        double *restrict v_out, double hk, double h,
                                        int *bad, int stream)
{
    const __m128d vhk = _mm_set1_pd(hk), vh = _mm_set1_pd(h);
    __m128d residue = _mm_setzero_pd();
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        __m128d im_half[3];
        lf_pair_halves(im, i, im_half);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            const size_t c = 3 * i + 2 * (size_t)k;
            lf_stream_half(x, v, c, _mm_loadu_pd(&f[c]), im_half[k], vhk, vh, x_out, v_out,
                           &residue, stream);
        }
    }
    lf_stream_done(residue, bad, stream);
    return i;
}

/* lf_translate_pairs for a field that is one uniform acceleration g
 * (lf_translate_uniform): the force f = +0 + m g on nodes of nonzero inverse mass, +0 on
 * the others -- gravity's eval_set, operation for operation, the selection done by a
 * mask -- computed in the same pass and, when store_f, stored to f too (streamed: f,
 * x_out, v_out 16-byte aligned).  Without store_f, f already holds those values. */
static inline size_t lf_uniform_pairs(const double *restrict x, const double *restrict v,
                                      const double *restrict m, const double *restrict im,
                                      const double g[3], size_t n, double *restrict f,
                                      double *restrict x_out, double *restrict v_out,
                                      double hk, double h, int *bad, int stream, int store_f)
{
    const __m128d vhk = _mm_set1_pd(hk), vh = _mm_set1_pd(h), zero = _mm_setzero_pd();
    const __m128d g_half[3] = { _mm_set_pd(g[1], g[0]), _mm_set_pd(g[0], g[2]),
                                _mm_set_pd(g[2], g[1]) };
    __m128d residue = _mm_setzero_pd();
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        __m128d im_half[3], m_half[3];
        lf_pair_halves(im, i, im_half);
        lf_pair_halves(m, i, m_half);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            const size_t c = 3 * i + 2 * (size_t)k;
            const __m128d weighs = _mm_cmpneq_pd(im_half[k], zero);
            const __m128d mg = _mm_and_pd(weighs, _mm_mul_pd(m_half[k], g_half[k]));
            const __m128d fc = _mm_add_pd(zero, mg);
            if (store_f)
                lf_store_pair(&f[c], fc, stream);
            lf_stream_half(x, v, c, fc, im_half[k], vhk, vh, x_out, v_out, &residue, stream);
        }
    }
    lf_stream_done(residue, bad, stream);
    return i;
}

/* lf_uniform_pairs with `stream` (when the store is large enough, `streams`, and f,
 * x_out, v_out are 16-byte aligned) and `store_f` made constants of each instance, so
 * that no flag is tested inside the loop. */
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
