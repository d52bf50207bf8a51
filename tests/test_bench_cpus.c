/* test_bench_cpus.c -- the processors a benchmark's timings ran on (src/cli/bench_cpus.c):
 * the set's list of numbers and ranges against lists written out by hand, its snprintf-like
 * truncation, and the note of the benchmarks' clock (mb_bench_now) against the processor
 * the test pins itself to (sched_setaffinity), with the empty set as the control. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cpus.h"
#include "bench_util.h"

/* bench_util.c's size parser reports its failures through the program's mb_cli_fail
 * (src/cli/main.c), which this test does not link; the clock under test never calls it. */
int mb_cli_fail(const char *context)
{
    (void)context;
    return 2;
}

static mb_bench_cpus set_of(const int *cpus, size_t n)
{
    mb_bench_cpus set = { 0, 0 };
    for (size_t k = 0; k < n; k++)
        mb_bench_cpus_add(&set, cpus[k]);
    return set;
}

static void expect_list(const int *cpus, size_t n, const char *want)
{
    mb_bench_cpus set = set_of(cpus, n);
    char buf[64];
    int len = mb_bench_cpus_format(&set, buf, sizeof buf);
    cr_expect_str_eq(buf, want);
    cr_expect_eq(len, (int)strlen(want));
}

Test(bench_cpus, lists_numbers_and_ranges)
{
    expect_list((int[]){ 0 }, 1, "0");
    expect_list((int[]){ 1, 0 }, 2, "0-1");
    expect_list((int[]){ 7, 3, 0, 2, 4 }, 5, "0,2-4,7");
    expect_list((int[]){ 5, 5, 5 }, 3, "5");
    expect_list((int[]){ 62, 63, 64, 200 }, 4, "62-63,64+");
    expect_list((int[]){ 64 }, 1, "64+");
    expect_list((int[]){ -1 }, 1, "");       /* sched_getcpu's "unknown" is not a processor */
    expect_list(NULL, 0, "");
}

Test(bench_cpus, truncates_as_snprintf)
{
    mb_bench_cpus set = set_of((int[]){ 0, 2, 3, 4, 7 }, 5);   /* "0,2-4,7": 7 characters */
    char buf[4] = "xyz";
    cr_expect_eq(mb_bench_cpus_format(&set, buf, sizeof buf), 7);
    cr_expect_str_eq(buf, "0,2");
    cr_expect_eq(mb_bench_cpus_format(&set, NULL, 0), 7);
}

/* the allowed processors, lowest and highest, or -1 when the mask cannot be read */
static void allowed_ends(int *lo, int *hi)
{
    cpu_set_t mask;
    *lo = *hi = -1;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0)
        return;
    for (int c = 0; c < 64; c++)
        if (CPU_ISSET(c, &mask)) {
            if (*lo < 0)
                *lo = c;
            *hi = c;
        }
}

static int pin_to(int cpu)
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    CPU_SET(cpu, &mask);
    return sched_setaffinity(0, sizeof mask, &mask);
}

/* The test pinned to its lowest (or highest) allowed processor, the clock's set emptied;
 * that processor */
static int pinned_afresh(int highest)
{
    int lo, hi;
    allowed_ends(&lo, &hi);
    cr_assert_geq(lo, 0, "no allowed processor below 64 to pin to");
    int cpu = highest ? hi : lo;
    cr_assert_eq(pin_to(cpu), 0);
    mb_bench_cpus_reset();
    return cpu;
}

Test(bench_cpus, the_note_names_the_processor_pinned_to)
{
    int lo, hi;
    allowed_ends(&lo, &hi);
    cr_assert_geq(lo, 0, "no allowed processor below 64 to pin to");
    mb_bench_cpus_reset();
    mb_bench_cpus seen = mb_bench_cpus_seen();
    cr_expect(seen.bits == 0 && !seen.beyond, "control: nothing noted yet");
    cr_assert_eq(pin_to(lo), 0);
    mb_bench_cpus_note();
    seen = mb_bench_cpus_seen();
    cr_expect(seen.bits == (UINT64_C(1) << lo), "pinned to %d, noted %#llx", lo,
              (unsigned long long)seen.bits);
    if (hi != lo) {
        cr_assert_eq(pin_to(hi), 0);
        mb_bench_cpus_note();
        seen = mb_bench_cpus_seen();
        cr_expect(seen.bits == ((UINT64_C(1) << lo) | (UINT64_C(1) << hi)));
    }
    mb_bench_cpus allowed = mb_bench_cpus_allowed();
    cr_expect(allowed.bits == (UINT64_C(1) << hi), "the pin is the allowed set now");
}

static char *report_text(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    mb_bench_cpus_report(out);
    fclose(out);
    return text;
}

Test(bench_cpus, the_report_names_the_processors_only_after_a_clock_reading)
{
    int lo = pinned_afresh(0);
    char *text = report_text();
    cr_expect_str_eq(text, "", "control: a benchmark that read no clock reports nothing");
    free(text);
    mb_bench_cpus_note();
    text = report_text();
    char want[96];
    snprintf(want, sizeof want, "# timed on processor(s) %d of %d allowed;", lo, lo);
    cr_expect(strncmp(text, want, strlen(want)) == 0, "report: %s", text);
    cr_expect(strstr(text, "taskset -c N") != NULL);
    free(text);
}

Test(bench_cpus, the_benchmark_clock_notes_its_processor)
{
    int hi = pinned_afresh(1);
    double t = mb_bench_now();
    cr_expect(t >= 0.0);
    mb_bench_cpus seen = mb_bench_cpus_seen();
    cr_expect(seen.bits == (UINT64_C(1) << hi) && !seen.beyond, "pinned to %d, noted %#llx",
              hi, (unsigned long long)seen.bits);
}
