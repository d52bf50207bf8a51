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
#include <stddef.h>
#include <stdint.h>

/* Stores of at least this many nodes stream.  A step touches about 136 bytes per node
 * (x, v, f and the two outputs, 3 doubles each, mass and inverse mass), so 2^19 nodes
 * are 68 MiB: beyond the last-level cache, where a streamed output would otherwise
 * have been read back from the cache by the next step. */
#define LF_STREAM_MIN_NODES ((size_t)1 << 19)

static inline int lf_stream_aligned(const double *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

/* Kick and drift of the nodes 0 .. 2 floor(n/2) - 1, two at a time (six doubles, three
 * 16-byte stores per output array: x_out and v_out must be 16-byte aligned).  Sets *bad
 * when a result is NaN or Inf (v - v and x - x are +0 exactly when v and x are finite).
 * Returns the number of nodes done; the caller finishes the odd one. */
static inline size_t lf_translate_stream_pairs(const double *restrict x,
                                               const double *restrict v,
                                               const double *restrict f,
                                               const double *restrict im, size_t n,
                                               double *restrict x_out, double *restrict v_out,
                                               double hk, double h, int *bad)
{
    const __m128d vhk = _mm_set1_pd(hk), vh = _mm_set1_pd(h);
    __m128d residue = _mm_setzero_pd();
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        /* components x0 y0 | z0 x1 | y1 z1 of the pair: inverse masses per half */
        const __m128d im_half[3] = { _mm_set1_pd(im[i]), _mm_set_pd(im[i + 1], im[i]),
                                     _mm_set1_pd(im[i + 1]) };
        for (int k = 0; k < 3; k++) {
            const size_t c = 3 * i + 2 * (size_t)k;
            __m128d a = _mm_mul_pd(_mm_loadu_pd(&f[c]), im_half[k]);
            a = _mm_mul_pd(a, vhk);
            const __m128d vo = _mm_add_pd(_mm_loadu_pd(&v[c]), a);
            const __m128d xo = _mm_add_pd(_mm_loadu_pd(&x[c]), _mm_mul_pd(vo, vh));
            _mm_stream_pd(&v_out[c], vo);
            _mm_stream_pd(&x_out[c], xo);
            residue = _mm_add_pd(residue, _mm_add_pd(_mm_sub_pd(vo, vo), _mm_sub_pd(xo, xo)));
        }
    }
    _mm_sfence();                 /* the streamed lines are visible before the swap */
    double r[2];
    _mm_storeu_pd(r, residue);
    *bad |= !(r[0] == 0.0 && r[1] == 0.0);
    return i;
}

#endif
#endif
