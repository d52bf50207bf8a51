/* test_array_scan.c -- array_scan.h: the largest magnitude of an array (its sign, its
 * position first, inside or last, NaN passed over, -0, Inf, only the count given read),
 * and the finite and +0 tests at every length around their four-chain loop (the value
 * that fails them in each chain and in the tail); every answer written out by hand. */
#include <criterion/criterion.h>
#include <math.h>

#include "array_scan.h"

Test(max_abs, largest_magnitude_wherever_it_stands)
{
    const double first[4] = { -9.75, 2.385, -3.5, 7.25 };
    const double inside[4] = { 2.385, -3.5, -9.75, 7.25 };
    const double last[4] = { 2.385, -3.5, 7.25, -9.75 };
    cr_expect_eq(mb_max_abs(first, 4), 9.75);
    cr_expect_eq(mb_max_abs(inside, 4), 9.75);
    cr_expect_eq(mb_max_abs(last, 4), 9.75);
    const double positive[3] = { 0.125, 6.5, 1.0 };
    cr_expect_eq(mb_max_abs(positive, 3), 6.5);
}

Test(max_abs, reads_only_count_values)
{
    const double a[3] = { 1.5, -2.25, 100.0 };
    cr_expect_eq(mb_max_abs(a, 2), 2.25);
    cr_expect_eq(mb_max_abs(a, 1), 1.5);
    cr_expect_eq(mb_max_abs(a, 0), 0.0);
}

Test(max_abs, nan_passed_over_zero_and_inf)
{
    const double with_nan[3] = { 1.5, NAN, -4.0 };
    cr_expect_eq(mb_max_abs(with_nan, 3), 4.0);
    const double nan_only[2] = { NAN, -NAN };
    cr_expect_eq(mb_max_abs(nan_only, 2), 0.0);
    const double neg_zero[2] = { -0.0, -0.0 };
    double z = mb_max_abs(neg_zero, 2);
    cr_expect(z == 0.0 && !signbit(z), "max |-0| = %g, sign bit %d", z, signbit(z) != 0);
    const double inf[3] = { 3.0, -INFINITY, 5.0 };
    cr_expect(isinf(mb_max_abs(inf, 3)) && mb_max_abs(inf, 3) > 0.0);
}

/* lengths 0 .. 9 cover no, one and two passes of the four-chain loop with each tail */
Test(all_finite, one_bad_value_at_any_place)
{
    const double bad[3] = { NAN, INFINITY, -INFINITY };
    for (size_t count = 0; count <= 9; count++) {
        double a[9];
        for (size_t k = 0; k < count; k++)
            a[k] = -1.5 + (double)k;
        cr_expect_eq(mb_all_finite(a, count), 1, "count %zu", count);
        for (size_t at = 0; at < count; at++)
            for (int b = 0; b < 3; b++) {
                double keep = a[at];
                a[at] = bad[b];
                cr_expect_eq(mb_all_finite(a, count), 0, "count %zu, %g at %zu", count, bad[b], at);
                a[at] = keep;
            }
    }
}

Test(all_pos_zero, minus_zero_and_tiny_values_refused)
{
    const double bad[3] = { -0.0, 0x1p-1074, 1.0 };
    for (size_t count = 0; count <= 9; count++) {
        double a[9] = { 0.0 };
        cr_expect_eq(mb_all_pos_zero(a, count), 1, "count %zu", count);
        for (size_t at = 0; at < count; at++)
            for (int b = 0; b < 3; b++) {
                a[at] = bad[b];
                cr_expect_eq(mb_all_pos_zero(a, count), 0, "count %zu, %g at %zu", count, bad[b], at);
                a[at] = 0.0;
            }
    }
}
