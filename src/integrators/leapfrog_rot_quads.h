/* leapfrog_rot_quads.h -- the leap-frog rotation of plain spherical nodes (no damping,
 * blocked rotations, medium spin or aspherical inertia) four nodes at a time in 32-byte
 * AVX2 vectors, chosen at run time on processors that have AVX2 (lf_have_avx2).
 *
 * The step of one node (seed 002, spherical inertia I11; lf_rot_spherical_plain):
 *   w+ = w + (T / I11) hk,  theta = w+ h,  q+ = Quaternion(theta) (x) q, normalised,
 *   L+ = w+ I11,
 * with Quaternion(theta) by its series for |theta|^2 < 1e-8 (mbq_from_rotvec):
 *   a = |theta|^2,  q0 = (1 - a/8) + a^2/384,  (q1, q2, q3) = theta ((1/2 - a/48) + a^2/3840).
 * The four nodes are held one component per vector, lane k node i + k: the AoS arrays
 * (3 or 4 doubles per node) are transposed on load and back on store, and every
 * operation is the scalar code's, in its order, one IEEE double operation per lane (the
 * build sets -ffp-contract=off and the avx2 target does not enable FMA; a / 8 is
 * computed as a * 0.125, the same real number, as the compiler does for the scalar
 * code), so the bits are those of lf_rot_spherical_plain on any processor
 * (tests/test_leapfrog_rot_quads.c computes the equations above itself).
 *
 * A lane whose |theta|^2 is not below 1e-8 (or is NaN) takes the closed form instead,
 * r = sqrt(|theta|^2), q0 = cos(r/2), b = sin(r/2) / r, in scalar code with libm's
 * cosine and sine, as mbq_from_rotvec (lf_rq_large_angles); the group's other lanes keep
 * the series, and the rest of the step is the same for all.  Outputs are stored in
 * 16-byte halves when streamed around the caches (`stream`: w+, q+ and L+ then 16-byte
 * aligned at the first node, so that every group starts 16-byte aligned, four nodes
 * being 96 and 128 bytes), else in 32-byte stores.  Included by
 * leapfrog_common.h after leapfrog_quads.h; without it LF_HAVE_ROT_QUADS is undefined. */
#ifndef MB_LEAPFROG_ROT_QUADS_H
#define MB_LEAPFROG_ROT_QUADS_H

#include "leapfrog_quads.h"

#ifdef LF_HAVE_QUADS
#define LF_HAVE_ROT_QUADS 1

#include <immintrin.h>
#include <math.h>
#include "mb_compiler.h"
#include <stddef.h>

/* Nodes i .. i + 3 of an array of three doubles per node at p = &a[3 i], as the three
 * vectors of their x, y and z components.  The 16-byte halves at p + 0, 2, 4, 6, 8, 10
 * are x0 y0 | z0 x1 | y1 z1 | x2 y2 | z2 x3 | y3 z3. */
LF_AVX2_INLINE void lf_rq_load3(const double *p, __m256d c[3])
{
    const __m256d lo = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p)),
                                            _mm_loadu_pd(p + 6), 1);    /* x0 y0 x2 y2 */
    const __m256d mid = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p + 2)),
                                             _mm_loadu_pd(p + 8), 1);   /* z0 x1 z2 x3 */
    const __m256d hi = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p + 4)),
                                            _mm_loadu_pd(p + 10), 1);   /* y1 z1 y3 z3 */
    c[0] = _mm256_blend_pd(lo, mid, 0xA);
    c[1] = _mm256_shuffle_pd(lo, hi, 0x5);
    c[2] = _mm256_blend_pd(mid, hi, 0xA);
}

/* Store of two doubles at p, 16-byte aligned when streamed. */
LF_AVX2_INLINE void lf_rq_store2(double *p, __m128d a, int stream)
{
    if (stream)
        _mm_stream_pd(p, a);
    else
        _mm_storeu_pd(p, a);
}

/* The inverse of lf_rq_load3: components c[0..2] of nodes i .. i + 3 to p = &a[3 i],
 * in 16-byte halves when streamed, else in three 32-byte stores. */
LF_AVX2_INLINE void lf_rq_store3(double *p, const __m256d c[3], int stream)
{
    const __m256d lo = _mm256_shuffle_pd(c[0], c[1], 0x0);     /* x0 y0 x2 y2 */
    const __m256d mid = _mm256_blend_pd(c[2], c[0], 0xA);      /* z0 x1 z2 x3 */
    const __m256d hi = _mm256_shuffle_pd(c[1], c[2], 0xF);     /* y1 z1 y3 z3 */
    if (!stream) {
        _mm256_storeu_pd(p, _mm256_permute2f128_pd(lo, mid, 0x20));     /* x0 y0 z0 x1 */
        _mm256_storeu_pd(p + 4, _mm256_blend_pd(hi, lo, 0xC));          /* y1 z1 x2 y2 */
        _mm256_storeu_pd(p + 8, _mm256_permute2f128_pd(mid, hi, 0x31)); /* z2 x3 y3 z3 */
        return;
    }
    lf_rq_store2(p, _mm256_castpd256_pd128(lo), stream);
    lf_rq_store2(p + 2, _mm256_castpd256_pd128(mid), stream);
    lf_rq_store2(p + 4, _mm256_castpd256_pd128(hi), stream);
    lf_rq_store2(p + 6, _mm256_extractf128_pd(lo, 1), stream);
    lf_rq_store2(p + 8, _mm256_extractf128_pd(mid, 1), stream);
    lf_rq_store2(p + 10, _mm256_extractf128_pd(hi, 1), stream);
}

/* The 4 x 4 transpose: rows r[k] (node k's four components) to columns c[k]
 * (component k of the four nodes), and back, the same permutation. */
LF_AVX2_INLINE void lf_rq_transpose4(const __m256d r[4], __m256d c[4])
{
    const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
    const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
    c[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    c[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    c[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* Nodes i .. i + 3 of an array of four doubles per node at p = &a[4 i], as the four
 * vectors of their components. */
LF_AVX2_INLINE void lf_rq_load4(const double *p, __m256d c[4])
{
    const __m256d r[4] = { _mm256_loadu_pd(p), _mm256_loadu_pd(p + 4), _mm256_loadu_pd(p + 8),
                           _mm256_loadu_pd(p + 12) };
    lf_rq_transpose4(r, c);
}

/* Columns c[0..3] of nodes i .. i + 3 to p = &a[4 i], a node's four components a
 * 32-byte store, in two 16-byte halves when streamed. */
LF_AVX2_INLINE void lf_rq_store4(double *p, const __m256d c[4], int stream)
{
    __m256d r[4];
    lf_rq_transpose4(c, r);
    MB_UNROLL(4)
    for (int k = 0; k < 4; k++) {
        if (!stream) {
            _mm256_storeu_pd(p + 4 * k, r[k]);
            continue;
        }
        lf_rq_store2(p + 4 * k, _mm256_castpd256_pd128(r[k]), stream);
        lf_rq_store2(p + 4 * k + 2, _mm256_extractf128_pd(r[k], 1), stream);
    }
}

/* Quaternion(theta)'s q0 and b in the lanes l whose bit of `small` is clear (|theta|^2 =
 * a[l] not below 1e-8, or NaN): mbq_from_rotvec's closed form, the scalar code's
 * operations.  Out of the loop's way: such lanes are the exception. */
static __attribute__((noinline, unused)) void lf_rq_large_angles(const double a[4], int small,
                                                                 double q0[4], double b[4])
{
    for (int l = 0; l < 4; l++) {
        if (small >> l & 1)
            continue;
        const double r = sqrt(a[l]), c = r * 0.5;
        q0[l] = cos(c);
        b[l] = sin(c) / r;
    }
}

/* q+ = qu (x) q, mbq_mul's rows in their order. */
LF_AVX2_INLINE void lf_rq_product(const __m256d u[4], const __m256d q[4], __m256d o[4])
{
#define M _mm256_mul_pd
#define A _mm256_add_pd
#define S _mm256_sub_pd
    o[0] = S(S(S(M(u[0], q[0]), M(u[1], q[1])), M(u[2], q[2])), M(u[3], q[3]));
    o[1] = S(A(A(M(u[0], q[1]), M(u[1], q[0])), M(u[2], q[3])), M(u[3], q[2]));
    o[2] = A(A(S(M(u[0], q[2]), M(u[1], q[3])), M(u[2], q[0])), M(u[3], q[1]));
    o[3] = A(S(A(M(u[0], q[3]), M(u[1], q[2])), M(u[2], q[1])), M(u[3], q[0]));
#undef M
#undef A
#undef S
}

/* Nodes 0 .. 4 floor(n / 4) - 1 of the arrays w, T, q, I (3, 3, 4, 3 doubles a node),
 * four at a time, to w_out, q_out, L_out.  Returns the number of nodes done (the caller
 * gives the last n mod 4 nodes to the scalar code).  The norm
 * deviation | |q+| - 1 | of each node done raises *qnorm_err (NaN when one is NaN, as
 * lf_renorm does), and *bad is set when a w+, q+ or L+ is NaN or Inf. */
LF_AVX2_INLINE size_t lf_rot_quads_body(const double *restrict w, const double *restrict T,
                                        const double *restrict q, const double *restrict I,
                                        size_t n, double hk, double h,
                                        double *restrict w_out, double *restrict q_out,
                                        double *restrict L_out, double *qnorm_err, int *bad,
                                        int stream)
{
    const __m256d vhk = _mm256_set1_pd(hk), vh = _mm256_set1_pd(h);
    const __m256d small = _mm256_set1_pd(1e-8), one = _mm256_set1_pd(1.0);
    const __m256d eighth = _mm256_set1_pd(0.125), half = _mm256_set1_pd(0.5);
    const __m256d d48 = _mm256_set1_pd(48.0), d384 = _mm256_set1_pd(384.0);
    const __m256d d3840 = _mm256_set1_pd(3840.0);
    const __m256d sign = _mm256_set1_pd(-0.0);
    __m256d residue = _mm256_setzero_pd(), devmax = _mm256_setzero_pd();
    __m256d devnan = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d wc[3], Tc[3], wo[3], th[3], Lo[3], qc[4], qu[4], qo[4];
        const __m256d I0 = _mm256_set_pd(I[3 * i + 9], I[3 * i + 6], I[3 * i + 3], I[3 * i]);
        lf_rq_load3(&w[3 * i], wc);
        lf_rq_load3(&T[3 * i], Tc);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            wo[k] = _mm256_add_pd(wc[k], _mm256_mul_pd(_mm256_div_pd(Tc[k], I0), vhk));
            th[k] = _mm256_mul_pd(wo[k], vh);
        }
        __m256d a = _mm256_mul_pd(th[0], th[0]);
        a = _mm256_add_pd(a, _mm256_mul_pd(th[1], th[1]));
        a = _mm256_add_pd(a, _mm256_mul_pd(th[2], th[2]));
        const int series = _mm256_movemask_pd(_mm256_cmp_pd(a, small, _CMP_LT_OQ));
        const __m256d c = _mm256_mul_pd(a, a);
        qu[0] = _mm256_add_pd(_mm256_sub_pd(one, _mm256_mul_pd(a, eighth)),
                              _mm256_div_pd(c, d384));
        __m256d b = _mm256_add_pd(_mm256_sub_pd(half, _mm256_div_pd(a, d48)),
                                  _mm256_div_pd(c, d3840));
        if (series != 0xF) {
            double al[4], q0l[4], bl[4];
            _mm256_storeu_pd(al, a);
            _mm256_storeu_pd(q0l, qu[0]);
            _mm256_storeu_pd(bl, b);
            lf_rq_large_angles(al, series, q0l, bl);
            qu[0] = _mm256_loadu_pd(q0l);
            b = _mm256_loadu_pd(bl);
        }
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++)
            qu[k + 1] = _mm256_mul_pd(th[k], b);
        lf_rq_load4(&q[4 * i], qc);
        lf_rq_product(qu, qc, qo);
        __m256d s = _mm256_mul_pd(qo[0], qo[0]);              /* mbq_normalize, lf_renorm */
        MB_UNROLL(3)
        for (int k = 1; k < 4; k++)
            s = _mm256_add_pd(s, _mm256_mul_pd(qo[k], qo[k]));
        const __m256d norm = _mm256_sqrt_pd(s);
        const __m256d dev = _mm256_andnot_pd(sign, _mm256_sub_pd(norm, one));
        devmax = _mm256_max_pd(devmax, dev);
        devnan = _mm256_or_pd(devnan, _mm256_cmp_pd(dev, dev, _CMP_UNORD_Q));
        MB_UNROLL(4)
        for (int k = 0; k < 4; k++) {
            qo[k] = _mm256_div_pd(qo[k], norm);
            residue = _mm256_or_pd(residue, _mm256_sub_pd(qo[k], qo[k]));
        }
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            Lo[k] = _mm256_mul_pd(wo[k], I0);
            residue = _mm256_or_pd(residue, _mm256_sub_pd(wo[k], wo[k]));
            residue = _mm256_or_pd(residue, _mm256_sub_pd(Lo[k], Lo[k]));
        }
        lf_rq_store3(&w_out[3 * i], wo, stream);
        lf_rq_store4(&q_out[4 * i], qo, stream);
        lf_rq_store3(&L_out[3 * i], Lo, stream);
    }
    if (stream)
        _mm_sfence();
    /* x - x is +0 for a finite x and NaN otherwise: some bit set exactly when a result
     * is not finite */
    const __m256i bits = _mm256_castpd_si256(residue);
    *bad |= !_mm256_testz_si256(bits, bits);
    double lanes[4];
    _mm256_storeu_pd(lanes, devmax);
    MB_UNROLL(4)
    for (int k = 0; k < 4; k++)
        if (lanes[k] > *qnorm_err)
            *qnorm_err = lanes[k];
    if (_mm256_movemask_pd(devnan) != 0)
        *qnorm_err = NAN;
    return i;
}

/* lf_rot_quads_body with `stream` a constant of each instance. */
static LF_AVX2 __attribute__((noinline, unused)) size_t
lf_rot_quads(const double *restrict w, const double *restrict T, const double *restrict q,
             const double *restrict I, size_t n, double hk, double h, double *restrict w_out,
             double *restrict q_out, double *restrict L_out, double *qnorm_err, int *bad,
             int stream)
{
    return stream ? lf_rot_quads_body(w, T, q, I, n, hk, h, w_out, q_out, L_out, qnorm_err,
                                      bad, 1)
                  : lf_rot_quads_body(w, T, q, I, n, hk, h, w_out, q_out, L_out, qnorm_err,
                                      bad, 0);
}

#endif
#endif
