/* mb_sincos.h -- sine and cosine of four doubles at once on |x| <= pi/4, for the hot loops
 * of the double schemes (internal).
 *
 * fdlibm 5.3's kernels (k_sin.c, k_cos.c; the cosine as FreeBSD's msun writes it, which
 * musl also uses), applied to the four lanes of a 32-byte vector (GCC vector extensions;
 * two 16-byte halves where the processor has no wider registers):
 *   z = x^2,
 *   sin x = x + x^3 (S1 + z (S2 + z (S3 + z S4) + z^2 (S5 + z S6))),
 *     |sin(x)/x - (1 + S1 x^2 + ... + S6 x^12)| <= 2^-58 on |x| <= pi/4,
 *   cos x = w + (((1 - w) - z/2) + z r),  w = 1 - z/2,
 *     r = z (C1 + z (C2 + z C3)) + z^4 (C4 + z (C5 + z C6)),
 *     |cos(x) - (1 - x^2/2 + C1 x^4 + ... + C6 x^14)| <= 2^-58 on |x| <= pi/4
 *     (the split w + ((1 - w) - z/2) recovers the rounding error of 1 - z/2).
 * fdlibm's bound for both: an error below 1 ulp; tests/test_sincos.c measures it against
 * MPFR.  The sine is computed on |x| and given x's sign (the kernel is odd operation by
 * operation, so this changes no nonzero result and keeps sin(-0) = -0 as libm does).
 *
 * Why not libm or libmvec: only IEEE 754 additions, subtractions and multiplications
 * rounded to nearest, and sign-bit moves, are used, so each lane's result is the same on
 * every processor and at every vector width the compiler picks.  glibc selects among
 * variants of its scalar sincos and of its vector sincos (libmvec) by the processor's
 * instruction set at load time, and they do not round alike: libmvec's SSE and AVX2 sines
 * differ on about 5 % of a million arguments (most in [-0.5, 0.5]), and from the scalar
 * sine on about half (doc/performance.md).
 *
 * Vectors are passed by address (by value, a 32-byte vector's calling convention would
 * depend on whether AVX is enabled).
 *
 * Domain: |x| <= MB_SINCOS_PIO4 (no argument reduction); mb_sincos_v4_in_range says
 * whether all lanes are in it.  Callers use libm's sin and cos elsewhere (NaN, Inf and
 * large arguments included).
 *
 * The coefficients are fdlibm's, under this notice:
 *   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *   Developed at SunPro, a Sun Microsystems, Inc. business.
 *   Permission to use, copy, modify, and distribute this software is freely granted,
 *   provided that this notice is preserved. */
#ifndef MB_SINCOS_H
#define MB_SINCOS_H

#include <stdint.h>

#define MB_SINCOS_LANES 4
typedef double mb_sincos_v4d __attribute__((vector_size(MB_SINCOS_LANES * sizeof(double))));
typedef int64_t mb_sincos_v4i __attribute__((vector_size(MB_SINCOS_LANES * sizeof(int64_t))));

/* pi/4 rounded down to double (0x3FE921FB54442D18): the kernels' domain */
#define MB_SINCOS_PIO4 0x1.921fb54442d18p-1

/* fdlibm's sine coefficients (high and low words in its comments) */
#define MB_SINCOS_S1 (-0x1.5555555555549p-3)   /* 0xBFC55555 0x55555549 */
#define MB_SINCOS_S2 0x1.111111110f8a6p-7      /* 0x3F811111 0x1110F8A6 */
#define MB_SINCOS_S3 (-0x1.a01a019c161d5p-13)  /* 0xBF2A01A0 0x19C161D5 */
#define MB_SINCOS_S4 0x1.71de357b1fe7dp-19     /* 0x3EC71DE3 0x57B1FE7D */
#define MB_SINCOS_S5 (-0x1.ae5e68a2b9cebp-26)  /* 0xBE5AE5E6 0x8A2B9CEB */
#define MB_SINCOS_S6 0x1.5d93a5acfd57cp-33     /* 0x3DE5D93A 0x5ACFD57C */
/* fdlibm's cosine coefficients */
#define MB_SINCOS_C1 0x1.555555555554cp-5      /* 0x3FA55555 0x5555554C */
#define MB_SINCOS_C2 (-0x1.6c16c16c15177p-10)  /* 0xBF56C16C 0x16C15177 */
#define MB_SINCOS_C3 0x1.a01a019cb159p-16      /* 0x3EFA01A0 0x19CB1590 */
#define MB_SINCOS_C4 (-0x1.27e4f809c52adp-22)  /* 0xBE927E4F 0x809C52AD */
#define MB_SINCOS_C5 0x1.1ee9ebdb4b1c4p-29     /* 0x3E21EE9E 0xBDB4B1C4 */
#define MB_SINCOS_C6 (-0x1.8fae9be8838d4p-37)  /* 0xBDA8FAE9 0xBE8838D4 */

/* 1 when every lane of x lies in the kernels' domain |x| <= pi/4 (0 for NaN) */
static inline int mb_sincos_v4_in_range(const mb_sincos_v4d *xp)
{
    mb_sincos_v4d x = *xp;
    const mb_sincos_v4i sign = { INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN };
    mb_sincos_v4d a = (mb_sincos_v4d)((mb_sincos_v4i)x & ~sign);
    mb_sincos_v4i ok = a <= MB_SINCOS_PIO4;      /* -1 where true */
    return (ok[0] & ok[1] & ok[2] & ok[3]) != 0;
}

/* *s = sin x, *c = cos x in every lane, |x| <= pi/4 (fdlibm's __kernel_sin(x, 0, 0) and
 * __kernel_cos(x, 0)) */
static inline void mb_sincos_v4(const mb_sincos_v4d *xp, mb_sincos_v4d *s, mb_sincos_v4d *c)
{
    mb_sincos_v4d x = *xp;
    const mb_sincos_v4i sign = { INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN };
    mb_sincos_v4i xs = (mb_sincos_v4i)x & sign;
    mb_sincos_v4d a = (mb_sincos_v4d)((mb_sincos_v4i)x & ~sign);
    mb_sincos_v4d z = a * a, w = z * z;
    /* sine: r = S2 + z (S3 + z S4) + z w (S5 + z S6),  sin a = a + v (S1 + z r),  v = z a */
    mb_sincos_v4d r = (MB_SINCOS_S2 + z * (MB_SINCOS_S3 + z * MB_SINCOS_S4))
                      + z * w * (MB_SINCOS_S5 + z * MB_SINCOS_S6);
    mb_sincos_v4d v = z * a;
    mb_sincos_v4d sa = a + v * (MB_SINCOS_S1 + z * r);
    *s = (mb_sincos_v4d)((mb_sincos_v4i)sa | xs);
    /* cosine: r = z (C1 + z (C2 + z C3)) + w^2 (C4 + z (C5 + z C6)), hz = z/2, w = 1 - hz,
     * cos a = w + (((1 - w) - hz) + z r) */
    mb_sincos_v4d rc = z * (MB_SINCOS_C1 + z * (MB_SINCOS_C2 + z * MB_SINCOS_C3))
                       + w * w * (MB_SINCOS_C4 + z * (MB_SINCOS_C5 + z * MB_SINCOS_C6));
    mb_sincos_v4d hz = 0.5 * z, wc = 1.0 - hz;
    *c = wc + (((1.0 - wc) - hz) + z * rc);
}

#endif
