/* test_memory_estimate.c -- the memory estimate of `run` (mb_memory.h) against the peak
 * resident set measured while the runner runs the case it estimated.
 *
 * The case is chosen so that what finished runs keep -- their probes -- dominates: 2000
 * nodes of the spring chain, 50 probe times, 2 schemes x 3 time steps.  Each run keeps
 * 50 x 2000 x 13 doubles = 10.4 MB of probes until the report is written, so the six
 * runs hold 62.4 MB at the end, while one run's working state is a few MB.  An estimate
 * that counts one run (its probes included) but not the probes every finished run keeps
 * is about 15 MB, a quarter of what the runner holds.
 *
 * The peak is measured as the growth of the resident set over the run, after the same
 * case on 2 nodes has run once, so that the code pages and the allocator's first arenas
 * (which the estimate, per node and per run, does not count) are already resident. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mb_case.h"
#include "mb_memory.h"
#include "mb_runner.h"
#include "mb_status.h"

#define NODES 2000
#define PROBES 50
#define RUNS 6

/* the resident set of this process now, in bytes (VmRSS of /proc/self/status) */
static double resident_now(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    cr_assert_not_null(f);
    char line[256];
    double kb = -1.0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %lf kB", &kb) == 1)
            break;
    fclose(f);
    cr_assert_gt(kb, 0.0);
    return 1024.0 * kb;
}

/* the peak resident set of this process so far, in bytes */
static double resident_peak(void)
{
    struct rusage ru;
    cr_assert_eq(getrusage(RUSAGE_SELF, &ru), 0);
    return 1024.0 * (double)ru.ru_maxrss;
}

/* the case: probe times 0.002, 0.004, ..., 0.1, step times of every dt */
static void write_case(const char *path, int nodes)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "[case]\nname = probes-kept\nproblem = spring-chain\nt_end = 0.1\n"
               "reference = none\n[problem]\nn = %d\n[run]\n"
               "integrators = explicit-euler, symplectic-euler\ndt = 0.002, 0.001, 0.0005\n"
               "probe = 0.002", nodes);
    for (int k = 2; k <= PROBES; k++)
        fprintf(f, k % 8 == 0 ? ",\n    %.3f" : ", %.3f", 0.002 * k);
    fputc('\n', f);
    cr_assert_eq(fclose(f), 0);
}

/* load the case on `nodes` nodes from dir */
static mb_case *load_case(const char *dir, int nodes)
{
    char path[64];
    snprintf(path, sizeof path, "%s/probes-%d.case", dir, nodes);
    write_case(path, nodes);
    mb_case *c = NULL;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    return c;
}

Test(memory_estimate, covers_the_probes_every_run_keeps)
{
    char dir[] = "/tmp/mb-memory-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    mb_runner_options opt = { .jobs = 1, .repeat = 1 };
    mb_case_result *r = NULL;
    mb_case *c = load_case(dir, 2);           /* the warm-up run */
    cr_assert_eq(mb_runner_run(&c, 1, &opt, &r), MB_SUCCESS, "%s", mb_last_error());
    mb_case_result_free(r, 1);
    mb_case_free(c);

    c = load_case(dir, NODES);
    cr_assert_eq(c->n_probes, (size_t)PROBES);
    cr_assert_eq(c->n_integrators * c->n_dt, (size_t)RUNS);

    size_t wc, wd;
    mb_memory_estimate worst;
    double kept;
    double need = mb_memory_estimate_cases(&c, 1, 1, 0, &wc, &wd, &worst, &kept);

    double before = resident_now();
    cr_assert_eq(mb_runner_run(&c, 1, &opt, &r), MB_SUCCESS, "%s", mb_last_error());
    double grown = resident_peak() - before;
    for (size_t k = 0; k < RUNS; k++)
        cr_assert_eq(r[0].runs[k].n_probes_kept, (size_t)PROBES, "run %zu: %s", k,
                     r[0].runs[k].message);

    /* the probes alone, counted independently: 13 doubles per node and probe time */
    double probes = (double)RUNS * PROBES * NODES * 13.0 * sizeof(double);
    cr_log_info("estimate %.4g B, peak growth %.4g B, probes of all runs %.4g B", need, grown,
                probes);
    /* The estimate is an upper bound of the peak: the runner holds what it estimates. */
    cr_expect_geq(need, grown, "estimate %.4g B below the measured peak growth %.4g B", need,
                  grown);
    /* and a close one: what it adds to the peak is at most the working allowance of the
     * one run in progress (its state at 2400 B per node, the largest scheme's, where the
     * Euler schemes measure about 712 B per node: doc/limits.md); counting a run's probes
     * twice, or every run's working state, exceeds it */
    double working = worst.total - worst.kept;
    cr_expect_leq(need - grown, working, "estimate %.4g B exceeds the peak growth %.4g B by "
                  "more than one run's working part %.4g B", need, grown, working);
    cr_expect_geq(kept, probes, "kept %.4g B < the probes of every run %.4g B", kept, probes);
    mb_case_result_free(r, 1);
    mb_case_free(c);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}
