/* test_bench_mpfr_twin.c -- the mpfr-twin benchmark entry point: runs and prints a row per
 * precision (timing values themselves are not asserted: tests never time), and rejects bad
 * input with exit status 2. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

Test(bench_mpfr_twin, runs_and_reports_each_precision, .init = cr_redirect_stdout)
{
    char *argv[] = { "mpfr-twin", "-i", "explicit-euler", "--bits", "53,256", "--min-time", "0.01", NULL };
    cr_assert_eq(mb_bench_mpfr_twin(7, argv), 0);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char line[256];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char name[64];
        long bits;
        double td, tt, ratio;
        if (sscanf(line, "%63s %ld %lf %lf %lf", name, &bits, &td, &tt, &ratio) == 5) {
            cr_expect(!strcmp(name, "explicit-euler") && (bits == 53 || bits == 256));
            cr_expect(td > 0 && tt > 0 && ratio > 0, "%s", line);
            rows++;
        }
    }
    cr_expect_eq(rows, 2, "one row per precision");
}

Test(bench_mpfr_twin, bad_input_exit_2, .init = cr_redirect_stderr)
{
    char *bits[] = { "mpfr-twin", "--bits", "40", NULL };
    cr_expect_eq(mb_bench_mpfr_twin(3, bits), 2);
    char *scheme[] = { "mpfr-twin", "-i", "explicit-eulr", NULL };
    cr_expect_eq(mb_bench_mpfr_twin(3, scheme), 2);
    char *problem[] = { "mpfr-twin", "-p", "nosuch", NULL };
    cr_expect_eq(mb_bench_mpfr_twin(3, problem), 2);
    char *dt[] = { "mpfr-twin", "--dt", "-1", NULL };
    cr_expect_eq(mb_bench_mpfr_twin(3, dt), 2);
}
