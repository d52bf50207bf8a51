/* test_closed_granular.c -- Haff's law and its ingredients (mb_closed_granular.h).
 *
 * Expected values, derived here independently: g(sigma) of Carnahan-Starling at phi = 0.2
 * is 0.9 / 0.512 = 1.7578125 exactly (to 2 u); Haff's t0 against the form of Garzo &
 * Dufty (1999): cooling rate zeta* nu0 T with zeta* = (5/12)(1 - e^2) and
 * nu0 = (16/5) sqrt(pi) n sigma^2 g sqrt(T/m), t0 = 2 / (zeta* nu0) (to 8 u); T(t0) = T0/4;
 * the Sonine coefficient a2 vanishes at e = 1 and at e = 1/sqrt(2) (its factor
 * 1 - 2 e^2), and is -0.0126 at e = 0.8 (the 3-D formula of van Noije & Ernst evaluated by
 * hand: 16 (0.2)(-0.28) / 71.24). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "mb_closed_granular.h"

Test(closed_granular, carnahan_starling_contact_value)
{
    cr_expect(fabs(mb_granular_chi_cs(0.2) - 1.7578125) <= 2.0 * DBL_EPSILON * 1.76);
    cr_expect_eq(mb_granular_chi_cs(0.0), 1.0);
}

Test(closed_granular, haff_time_equals_the_garzo_dufty_form)
{
    const double n = 0.37, sigma = 1.13, chi = 1.29, e = 0.83, T0 = 2.385, m = 1.7;
    double nu0 = 16.0 / 5.0 * sqrt(M_PI) * n * sigma * sigma * chi * sqrt(T0 / m);
    double expected = 2.0 / (5.0 / 12.0 * (1.0 - e * e) * nu0);
    double t0 = mb_haff_cooling_time(n, sigma, chi, e, T0, m);
    cr_expect(fabs(t0 - expected) <= 8.0 * DBL_EPSILON * expected, "t0 = %.17g, expected %.17g",
              t0, expected);
    cr_expect(fabs(mb_haff_temperature(T0, t0, t0) - T0 / 4.0) <= 4.0 * DBL_EPSILON * T0);
}

Test(closed_granular, sonine_coefficient)
{
    cr_expect_eq(mb_granular_sonine_a2(1.0), 0.0);
    cr_expect(fabs(mb_granular_sonine_a2(1.0 / sqrt(2.0))) <= 4.0 * DBL_EPSILON);
    cr_expect(fabs(mb_granular_sonine_a2(0.8) - 16.0 * 0.2 * -0.28 / 71.24) <= 1e-15);
}
