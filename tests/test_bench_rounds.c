/* test_bench_rounds.c -- the verdict of interleaved rounds (src/cli/bench_rounds.c): the
 * median of a few times and of the ratios of two codes timed in the same rounds, and the
 * batch of a round.  Expected values written out by hand: the middle of 5 values given out
 * of order, the mean of the two middle ones of 4, the ratio of the round whose ratio is the
 * middle one (which is neither the ratio of the medians nor of the fastest times). */
#include <criterion/criterion.h>
#include <math.h>

#include "bench_rounds.h"

Test(bench_rounds, median_of_odd_and_even_counts)
{
    const double v[5] = { 0.9, 0.3, 2.5, 0.5, 0.7 };
    double scratch[5];
    cr_expect_eq(mb_bench_median(v, 5, scratch), 0.7);
    cr_expect_eq(mb_bench_median(v, 4, scratch), 0.5 * (0.5 + 0.9));
    cr_expect_eq(mb_bench_median(v, 1, scratch), 0.9);
    cr_expect(isnan(mb_bench_median(v, 0, scratch)));
    cr_expect_eq(v[0], 0.9, "the values themselves are not sorted");
}

Test(bench_rounds, a_disturbed_round_moves_no_median)
{
    /* the last round, already above the median, slowed 7 times over: the median stays 1.01
     * (the mean would move from 1.01 to 2.304) */
    const double calm[5] = { 1.0, 1.01, 0.99, 1.02, 1.03 };
    const double hit[5] = { 1.0, 1.01, 0.99, 1.02, 7.5 };
    double scratch[5];
    cr_expect_eq(mb_bench_median(calm, 5, scratch), 1.01);
    cr_expect_eq(mb_bench_median(hit, 5, scratch), 1.01);
}

Test(bench_rounds, median_of_ratios_is_the_middle_round)
{
    /* rounds: step 2.0/1.0 = 2, 1.1/1.0 = 1.1, 3.0/2.0 = 1.5; median of ratios 1.5, while
     * the medians give 2.0 / 1.0 = 2 and the fastest 1.1 / 1.0 = 1.1 */
    const double step[3] = { 2.0, 1.1, 3.0 }, peer[3] = { 1.0, 1.0, 2.0 };
    double scratch[6];
    cr_expect_eq(mb_bench_median_ratio(step, peer, 3, scratch), 1.5);
    const double with_nan[3] = { 2.0, NAN, 3.0 };
    cr_expect(isnan(mb_bench_median_ratio(with_nan, peer, 3, scratch)),
              "a round without a peer gives no ratio");
}

Test(bench_rounds, batch_steps)
{
    cr_expect_eq(mb_bench_batch_steps(0.3, 0.02), 1);
    cr_expect_eq(mb_bench_batch_steps(0.02, 0.02), 1);
    cr_expect_eq(mb_bench_batch_steps(0.004, 0.02), 5);
    cr_expect_eq(mb_bench_batch_steps(0.003, 0.02), 7);        /* 6.67 rounded up */
    cr_expect_eq(mb_bench_batch_steps(0.0, 0.02), 1);
    cr_expect_eq(mb_bench_batch_steps(NAN, 0.02), 1);
}
