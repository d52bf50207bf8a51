/* test_bench_lammps.c -- how a benchmark charges LAMMPS for its run loop
 * (src/cli/bench_lammps.c): the loop's CPU time read from logs written here by hand, in
 * the lines LAMMPS prints ("Loop time of T on 1 procs for S steps with N atoms", "C% CPU
 * use with 1 MPI tasks x 1 OpenMP threads").  Expected values written out: 0.5 s at
 * 99.5 % is 0.4975 s, at 100.4 % the wall 0.5 s (one thread holds a core at most for the
 * loop's wall time).  A loop shorter than MB_BENCH_LAMMPS_MIN_LOOP (0.2 s) is not charged
 * whatever its CPU use (LAMMPS's CPU timer reads 0 % to over 100 % there) and is run again
 * with steps for 1.25 x 0.2 s. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench_lammps.h"

#include <string.h>

static char path[64];

/* A log of a loop of `wall` s over `steps` steps with the CPU-use line `cpu`. */
static const char *log_of_steps(const char *wall, const char *cpu, long steps)
{
    if (path[0])
        unlink(path);
    strcpy(path, "/tmp/test_bench_lammps_XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    cr_assert(f != NULL);
    fprintf(f, "LAMMPS (29 Sep 2021 - Update 2)\nStep Temp\n       0 0\n%8ld 0\n", steps);
    if (wall)
        fprintf(f, "Loop time of %s on 1 procs for %ld steps with 864 atoms\n\n"
                "Performance: 1.0 tau/day, 1.0 timesteps/s\n", wall, steps);
    if (cpu)
        fprintf(f, "%s%% CPU use with 1 MPI tasks x 1 OpenMP threads\n", cpu);
    fprintf(f, "\nMPI task timing breakdown:\n");
    cr_assert(fclose(f) == 0);
    return path;
}

/* A log of a loop of `wall` s over 100 steps with the CPU-use line `cpu`. */
static const char *log_of(const char *wall, const char *cpu)
{
    return log_of_steps(wall, cpu, 100);
}

static void remove_log(void)
{
    if (path[0])
        unlink(path);
}

TestSuite(bench_lammps, .fini = remove_log);

Test(bench_lammps, charges_wall_times_cpu_use)
{
    double wall, cpu;
    cr_assert_eq(mb_bench_lammps_loop(log_of("0.5", "99.5"), 100, &wall, &cpu), 0);
    cr_expect_eq(wall, 0.5);
    cr_expect(fabs(cpu - 0.4975) <= 1e-15, "cpu %.17g, expected 0.4975", cpu);
}

/* a CPU use above 100 % (the timers' granularity) is charged the wall time: the reading
 * was refused before, and the benchmark failed */
Test(bench_lammps, cpu_use_above_100_is_the_wall_time)
{
    double wall, cpu;
    cr_assert_eq(mb_bench_lammps_loop(log_of("0.5", "100.4"), 100, &wall, &cpu), 0);
    cr_expect_eq(cpu, 0.5);
}

/* a loop of 1.83 ms read 20 % on an otherwise idle core: not charged, run again longer */
Test(bench_lammps, short_loop_is_run_again)
{
    double wall, cpu;
    cr_assert_eq(mb_bench_lammps_loop(log_of("0.00183", "20.0"), 100, &wall, &cpu), 1);
    cr_expect_eq(wall, 0.00183);
    /* 1.25 x 0.2 s / 0.00183 s x 100 steps = 13661.2 -> 13662 */
    cr_expect_eq(mb_bench_lammps_longer(100, 0.00183), 13662);
    /* 0 % of a short loop (the CPU timer did not advance) is short too, not a failure */
    cr_expect_eq(mb_bench_lammps_loop(log_of("0.001", "0.0"), 100, &wall, &cpu), 1);
    /* a loop just short of the floor: at least twice the steps */
    cr_expect_eq(mb_bench_lammps_longer(100, 0.199), 200);
}

Test(bench_lammps, unreadable_logs_fail)
{
    double wall, cpu;
    cr_expect_eq(mb_bench_lammps_loop(log_of("0.5", "0.0"), 100, &wall, &cpu), -1);
    cr_expect_eq(mb_bench_lammps_loop(log_of("0.5", "-nan"), 100, &wall, &cpu), -1);
    cr_expect_eq(mb_bench_lammps_loop(log_of("0.5", NULL), 100, &wall, &cpu), -1);
    cr_expect_eq(mb_bench_lammps_loop(log_of(NULL, "99.5"), 100, &wall, &cpu), -1);
    unlink(path);
    /* a log of another run's steps */
    cr_expect_eq(mb_bench_lammps_loop(log_of("0.5", "99.5"), 200, &wall, &cpu), -1);
    cr_expect_eq(mb_bench_lammps_loop("/nonexistent/log", 100, &wall, &cpu), -1);
}

/* A stand-in for a run of LAMMPS (mb_bench_lammps_charged's run): the steps it was asked
 * for recorded, and the log such a run would leave written, from its script of loops */
struct fake_runs {
    int calls, fail_at;
    long asked[4];
    const char *wall[4], *cpu[4];
    long logged_steps;          /* > 0: the log names these steps, not the ones asked */
};

static int fake_run(void *ctx, long steps)
{
    struct fake_runs *r = ctx;
    cr_assert_lt(r->calls, 4, "run again after a loop long enough to be charged");
    int k = r->calls++;
    r->asked[k] = steps;
    if (k == r->fail_at)
        return -1;
    log_of_steps(r->wall[k], r->cpu[k], r->logged_steps > 0 ? r->logged_steps : steps);
    return 0;
}

/* a loop of 1.83 ms is run again with 13662 steps (1.25 x 0.2 s / 0.00183 s x 100), and
 * that run's 0.25 s at 99 % is charged: 0.2475 s, its steps handed back */
Test(bench_lammps, charged_runs_a_short_loop_again)
{
    struct fake_runs r = { .fail_at = -1, .wall = { "0.00183", "0.25" },
                           .cpu = { "20.0", "99.0" } };
    long steps = 100;
    double cpu = mb_bench_lammps_charged(fake_run, &r, path, &steps);
    cr_expect_eq(r.calls, 2);
    cr_expect_eq(r.asked[0], 100);
    cr_expect_eq(r.asked[1], 13662);
    cr_expect_eq(steps, 13662);
    cr_expect(fabs(cpu - 0.2475) <= 1e-15, "cpu %.17g, expected 0.2475", cpu);
}

/* a loop long enough the first time is charged from that one run */
Test(bench_lammps, charged_runs_a_long_loop_once)
{
    struct fake_runs r = { .fail_at = -1, .wall = { "0.5" }, .cpu = { "99.5" } };
    long steps = 100;
    double cpu = mb_bench_lammps_charged(fake_run, &r, path, &steps);
    cr_expect_eq(r.calls, 1);
    cr_expect_eq(steps, 100);
    cr_expect(fabs(cpu - 0.4975) <= 1e-15, "cpu %.17g, expected 0.4975", cpu);
}

/* a failed run, and a log of other steps than the run was asked for, are not charged */
Test(bench_lammps, charged_refuses_failed_runs)
{
    struct fake_runs r = { .fail_at = 1, .wall = { "0.00183" }, .cpu = { "20.0" } };
    long steps = 100;
    cr_expect_eq(mb_bench_lammps_charged(fake_run, &r, path, &steps), -1.0);
    cr_expect_eq(r.calls, 2);
    struct fake_runs other = { .fail_at = -1, .wall = { "0.5" }, .cpu = { "99.5" },
                               .logged_steps = 200 };
    steps = 100;
    cr_expect_eq(mb_bench_lammps_charged(fake_run, &other, path, &steps), -1.0);
    cr_expect_eq(other.calls, 1);
}
