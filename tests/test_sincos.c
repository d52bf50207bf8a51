/* test_sincos.c -- the four-lane sine and cosine of mb_sincos.h (fdlibm's kernels on
 * |x| <= pi/4), against MPFR.
 *
 * Reference: mpfr_sin and mpfr_cos at 200 bits of the double argument; the error of a
 * result y is |y - exact| in units of the last place of the exact value's binade
 * (2^(e-52) for |exact| in [2^e, 2^(e+1)), at least 2^-1074).  fdlibm's bound is an
 * error below 1 ulp (its kernels' polynomials are within 2^-58 of the functions, and
 * the final additions round once), so the limit is < 1 ulp, not loosened: a wrong
 * coefficient or a lost correction term of the cosine (1 - w) - z/2 goes over it.
 * Arguments: 2^17 evenly spaced over [-pi/4, pi/4] (both ends included), 2^17 drawn
 * from a fixed-seed generator (overridable: MB_TEST_SEED, printed when set), powers of
 * two down to the subnormals, +-0.  Also: each lane depends only on its own argument;
 * sin(-0) = -0; the domain test takes exactly |x| <= pi/4 rounded down, not NaN or
 * Inf. */
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mb_sincos.h"

#define REF_BITS 200

/* |y - exact f(x)| in ulps of exact's binade */
static double ulp_error(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), double x, double y)
{
    mpfr_t ex, d;
    mpfr_inits2(REF_BITS, ex, d, (mpfr_ptr)0);
    mpfr_set_d(ex, x, MPFR_RNDN);
    f(ex, ex, MPFR_RNDN);
    mpfr_sub_d(d, ex, y, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    long e = mpfr_zero_p(ex) ? -1074 : mpfr_get_exp(ex) - 1;    /* |ex| in [2^e, 2^(e+1)) */
    long ulp_exp = e - 52 < -1074 ? -1074 : e - 52;
    mpfr_mul_2si(d, d, -ulp_exp, MPFR_RNDN);
    double err = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clears(ex, d, (mpfr_ptr)0);
    return err;
}

/* lanes 0 and 1 <- x0, x1, lanes 2 and 3 <- x1, x0 */
static void sincos_pair(double x0, double x1, double s[2], double c[2])
{
    mb_sincos_v4d x = { x0, x1, x1, x0 }, vs, vc;
    mb_sincos_v4(&x, &vs, &vc);
    s[0] = vs[0]; s[1] = vs[1];
    c[0] = vc[0]; c[1] = vc[1];
    cr_assert(vs[3] == vs[0] && vs[2] == vs[1] && vc[3] == vc[0] && vc[2] == vc[1],
              "lanes 2, 3 differ from lanes 1, 0 on the same arguments (%a, %a)", x0, x1);
}

struct worst { double sin_err, cos_err, sin_x, cos_x; };

/* the errors of the pair (x0, x1) into w */
static void measure(struct worst *w, double x0, double x1)
{
    double s[2], c[2], x[2] = { x0, x1 };
    sincos_pair(x0, x1, s, c);
    for (int l = 0; l < 2; l++) {
        double es = ulp_error(mpfr_sin, x[l], s[l]), ec = ulp_error(mpfr_cos, x[l], c[l]);
        if (!(es <= w->sin_err)) { w->sin_err = es; w->sin_x = x[l]; }
        if (!(ec <= w->cos_err)) { w->cos_err = ec; w->cos_x = x[l]; }
    }
}

static void expect_below_one_ulp(const struct worst *w, const char *what)
{
    cr_log_info("%s: largest errors %.3f ulp (sin, x = %a), %.3f ulp (cos, x = %a)", what,
                w->sin_err, w->sin_x, w->cos_err, w->cos_x);
    cr_expect(w->sin_err < 1.0, "%s: sin(%a) is %.3f ulp off", what, w->sin_x, w->sin_err);
    cr_expect(w->cos_err < 1.0, "%s: cos(%a) is %.3f ulp off", what, w->cos_x, w->cos_err);
}

Test(sincos, below_one_ulp_on_an_even_grid)
{
    struct worst w = { 0 };
    const int m = 1 << 17;
    for (int k = 0; k <= m; k += 2) {
        double x0 = -MB_SINCOS_PIO4 + 2.0 * MB_SINCOS_PIO4 * k / m;
        double x1 = k + 1 <= m ? -MB_SINCOS_PIO4 + 2.0 * MB_SINCOS_PIO4 * (k + 1) / m
                               : MB_SINCOS_PIO4;
        if (x0 < -MB_SINCOS_PIO4) x0 = -MB_SINCOS_PIO4;
        if (x1 > MB_SINCOS_PIO4) x1 = MB_SINCOS_PIO4;
        measure(&w, x0, x1);
    }
    measure(&w, MB_SINCOS_PIO4, -MB_SINCOS_PIO4);
    expect_below_one_ulp(&w, "grid");
}

/* a fixed-seed 64-bit generator (splitmix64), independent of libc's rand */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

Test(sincos, below_one_ulp_at_random_arguments)
{
    uint64_t seed = 0x6d6f74696f6eu;
    const char *env = getenv("MB_TEST_SEED");
    if (env != NULL) {
        seed = strtoull(env, NULL, 0);
        fprintf(stderr, "test_sincos: seed %s\n", env);
    }
    struct worst w = { 0 };
    for (int k = 0; k < 1 << 16; k++) {
        double x[2];
        for (int l = 0; l < 2; l++) {
            /* uniform on [-pi/4, pi/4] for even k; for odd k, a uniform mantissa and an
             * exponent down to 2^-40 (the small angles of short steps) */
            uint64_t u = splitmix64(&seed);
            double f = (double)(u >> 11) * 0x1p-53;
            x[l] = k % 2 == 0 ? (2.0 * f - 1.0) * MB_SINCOS_PIO4
                              : ldexp(0.5 + 0.5 * f, -(int)(u % 41)) * MB_SINCOS_PIO4
                                    * (u & 1 ? -1.0 : 1.0);
        }
        measure(&w, x[0], x[1]);
    }
    expect_below_one_ulp(&w, "random");
}

Test(sincos, below_one_ulp_at_tiny_and_subnormal_arguments)
{
    struct worst w = { 0 };
    for (int e = -1; e >= -1074; e--)
        measure(&w, ldexp(1.0, e), -ldexp(1.0, e) * 1.375);
    measure(&w, 0x1p-1074, 0x1.fffffffffffffp-1023);
    expect_below_one_ulp(&w, "tiny");
}

Test(sincos, lanes_are_independent)
{
    const double xs[] = { 0.7318, -0.0023, 1e-9, MB_SINCOS_PIO4, -0.5 };
    size_t n = sizeof xs / sizeof xs[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double s[2], c[2], si[2], ci[2], sj[2], cj[2];
            sincos_pair(xs[i], xs[j], s, c);
            sincos_pair(xs[i], xs[i], si, ci);
            sincos_pair(xs[j], xs[j], sj, cj);
            cr_expect(s[0] == si[0] && c[0] == ci[0] && s[1] == sj[1] && c[1] == cj[1],
                      "lanes (%a, %a) are not those of each argument alone", xs[i], xs[j]);
        }
}

Test(sincos, signed_zero_and_symmetry)
{
    double s[2], c[2];
    sincos_pair(-0.0, 0.0, s, c);
    cr_expect(s[0] == 0.0 && signbit(s[0]) && s[1] == 0.0 && !signbit(s[1]),
              "sin(-0) = %a, sin(+0) = %a", s[0], s[1]);
    cr_expect(c[0] == 1.0 && c[1] == 1.0, "cos(-+0) = %a, %a", c[0], c[1]);
    sincos_pair(0.4242, -0.4242, s, c);
    cr_expect(s[1] == -s[0] && c[1] == c[0], "sin odd and cos even, bit for bit");
}

Test(sincos, domain_is_pi_over_four)
{
    mb_sincos_v4d in = { MB_SINCOS_PIO4, -MB_SINCOS_PIO4, 0.0, -0.0 };
    cr_expect(mb_sincos_v4_in_range(&in));
    mpfr_t pio4;
    mpfr_init2(pio4, REF_BITS);
    mpfr_const_pi(pio4, MPFR_RNDN);
    mpfr_div_2ui(pio4, pio4, 2, MPFR_RNDN);
    cr_expect(mpfr_cmp_d(pio4, MB_SINCOS_PIO4) > 0
                  && mpfr_cmp_d(pio4, nextafter(MB_SINCOS_PIO4, 1.0)) < 0,
              "the bound is pi/4 rounded down");
    mpfr_clear(pio4);
    const double out[] = { nextafter(MB_SINCOS_PIO4, 1.0), -nextafter(MB_SINCOS_PIO4, 1.0),
                           NAN, INFINITY, -INFINITY, 3.0 };
    for (size_t k = 0; k < sizeof out / sizeof out[0]; k++) {
        for (int l = 0; l < MB_SINCOS_LANES; l++) {
            mb_sincos_v4d a = { 0.1, 0.1, 0.1, 0.1 };
            a[l] = out[k];
            cr_expect(!mb_sincos_v4_in_range(&a), "%a in lane %d taken in range", out[k], l);
        }
    }
}
