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
#include <sys/stat.h>
#include <unistd.h>

#include "bench_lammps.h"
#include "bench_lammps_rounds.h"
#include "mb_status.h"

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

/* a run that fails with a message of its own, as mb_bench_lammps_run does */
static int run_that_records(void *ctx, long steps)
{
    (void)ctx;
    (void)steps;
    return mb_error_record(MB_EIO, __FILE__, __LINE__, "the stand-in's reason");
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

/* ---- a run of a program in LAMMPS's place (mb_bench_lammps_run) ---- */

static char dir[64], in_path[96], log_path[96];

/* A directory with a stand-in program `lmp` whose body is `script` (sh), given the
 * arguments LAMMPS is given; the paths of its input and log, in_path and log_path, in dir */
static const char *stand_in(const char *script)
{
    strcpy(dir, "/tmp/test_bench_lammps_run_XXXXXX");
    cr_assert(mkdtemp(dir) != NULL);
    snprintf(in_path, sizeof in_path, "%s/in", dir);
    snprintf(log_path, sizeof log_path, "%s/log", dir);
    static char program[96];
    snprintf(program, sizeof program, "%s/lmp", dir);
    FILE *f = fopen(program, "w");
    cr_assert(f != NULL);
    fprintf(f, "#!/bin/sh\necho >> \"$(dirname \"$0\")/starts\"\n"
            "while [ $# -gt 0 ]; do [ \"$1\" = -log ] && log=$2; shift; done\n%s\n", script);
    cr_assert(fclose(f) == 0);
    cr_assert(chmod(program, 0755) == 0);
    return program;
}

static void remove_stand_in(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert(system(cmd) == 0);
}

/* How many times the stand-in was started */
static int starts(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/starts", dir);
    FILE *f = fopen(p, "r");
    int n = 0, c;
    while (f != NULL && (c = fgetc(f)) != EOF)
        n += c == '\n';
    if (f != NULL)
        fclose(f);
    return n;
}

static int exists(const char *file)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    return access(p, F_OK) == 0;
}

/* a run that exits 0: 0, its output file removed */
Test(bench_lammps, run_that_succeeds_leaves_no_output)
{
    const char *lmp = stand_in("echo chatter; echo noise >&2; echo 'Loop time' > \"$log\"");
    cr_expect_eq(mb_bench_lammps_run(lmp, in_path, log_path, "-var n 1"), 0);
    cr_expect(exists("log"));
    cr_expect(!exists("log.out"), "the output of a run that went well is kept");
    cr_expect_eq(starts(), 1);
    remove_stand_in();
}

/* a run that exits 3 after LAMMPS's ERROR line in its log and a line on its standard
 * error: refused, the message telling the status, quoting both lines, the files kept */
Test(bench_lammps, failed_run_tells_why_and_keeps_its_files)
{
    const char *lmp = stand_in("printf 'LAMMPS (x)\\nERROR: Lost atoms: original 864 "
                               "current 863 (src/thermo.cpp:481)\\nLast command: run 10\\n' "
                               "> \"$log\"; echo 'mpi: cannot attach' >&2; exit 3");
    cr_expect_lt(mb_bench_lammps_run(lmp, in_path, log_path, ""), 0);
    const char *msg = mb_last_error();
    cr_expect(strstr(msg, "exited with status 3;") != NULL, "%s", msg);
    cr_expect(strstr(msg, "\"ERROR: Lost atoms: original 864 current 863 "
                          "(src/thermo.cpp:481)\"") != NULL, "%s", msg);
    cr_expect(strstr(msg, "log.out: \"mpi: cannot attach\"") != NULL, "%s", msg);
    cr_expect(exists("log") && exists("log.out"), "the failed run's files were not kept");
    cr_expect_eq(starts(), 1, "a run that failed after writing its log was started again");
    remove_stand_in();
}

/* a run killed by a signal says so (sh reports it as 128 + the signal) */
Test(bench_lammps, killed_run_names_the_signal)
{
    const char *lmp = stand_in("kill -KILL $$");
    cr_expect_lt(mb_bench_lammps_run(lmp, in_path, log_path, ""), 0);
    cr_expect(strstr(mb_last_error(), "signal 9") != NULL, "%s", mb_last_error());
    remove_stand_in();
}

/* a log never written is said to be unreadable, and without an ERROR line the last line
 * of the output that is not blank is quoted */
Test(bench_lammps, failed_run_without_error_line_quotes_the_last)
{
    const char *lmp = stand_in("echo first >&2; echo last >&2; echo ' ' >&2; exit 5");
    cr_expect_lt(mb_bench_lammps_run(lmp, in_path, log_path, ""), 0);
    const char *msg = mb_last_error();
    cr_expect(strstr(msg, "exited with status 5;") != NULL, "%s", msg);
    cr_expect(strstr(msg, "log: (cannot be read)") != NULL, "%s", msg);
    cr_expect(strstr(msg, "log.out: \"last\"") != NULL, "%s", msg);
    cr_expect_eq(starts(), 2, "a run that wrote no log was not started once more, once");
    remove_stand_in();
}

/* a start that fails before the log is written (Open MPI's start-up, seen on a loaded
 * machine) is run once more, and the second start's success stands; a log left by an
 * earlier run does not hide the failed start */
Test(bench_lammps, failed_start_is_run_once_more)
{
    const char *lmp = stand_in("if [ $(wc -l < \"$(dirname \"$0\")/starts\") -eq 1 ]; then "
                               "echo 'ORTE start-up failed' >&2; exit 1; fi; "
                               "echo 'Loop time' > \"$log\"");
    FILE *old = fopen(log_path, "w");
    cr_assert(old != NULL);
    fputs("an earlier run's log\n", old);
    cr_assert(fclose(old) == 0);
    cr_expect_eq(mb_bench_lammps_run(lmp, in_path, log_path, ""), 0, "%s", mb_last_error());
    cr_expect_eq(starts(), 2);
    remove_stand_in();
}

/* a path with a single quote is refused before any run */
Test(bench_lammps, quoted_path_is_refused)
{
    cr_expect_lt(mb_bench_lammps_run("/bin/true", "/tmp/it's", "/tmp/log", ""), 0);
    cr_expect(strstr(mb_last_error(), "single quote") != NULL, "%s", mb_last_error());
}

/* a failed run's message is carried by the charged loop that ran it */
Test(bench_lammps, charged_keeps_the_runs_message)
{
    struct fake_runs r = { .fail_at = 0 };
    long steps = 100;
    cr_expect_eq(mb_bench_lammps_charged(run_that_records, &r, path, &steps), -1.0);
    cr_expect(strstr(mb_last_error(), "LAMMPS's run of 100 steps failed: the stand-in's "
                                      "reason") != NULL, "%s", mb_last_error());
}

/* ---- the interleaved rounds (bench_lammps_rounds.c) ---- */

/* The library's and LAMMPS's side of the rounds, scripted: the library's batch k takes
 * lib_steps[k] steps and was asked for seconds[k]; LAMMPS's run k was asked for asked[k]
 * steps in slot slot[k] and leaves a log of wall[k] s at 100 % CPU (fails at fail_at) */
struct scripted {
    int batches, runs, lib_fail_at, fail_at;
    long lib_steps[8], asked[8];
    double seconds[8];
    int slot[8];
    const char *wall[8];
};

static double scripted_library(void *ctx, double seconds, long *steps)
{
    struct scripted *x = ctx;
    cr_assert_lt(x->batches, 8);
    int k = x->batches++;
    x->seconds[k] = seconds;
    if (k == x->lib_fail_at)
        return mb_error_record(MB_EINVAL, __FILE__, __LINE__, "the library's step failed");
    *steps = x->lib_steps[k];
    return 1.0;
}

static int scripted_lammps(void *ctx, int slot, long steps)
{
    struct scripted *x = ctx;
    cr_assert_lt(x->runs, 8);
    int k = x->runs++;
    x->asked[k] = steps;
    x->slot[k] = slot;
    if (k == x->fail_at)
        return mb_error_record(MB_EIO, __FILE__, __LINE__, "LAMMPS exited with status 1");
    log_of_steps(x->wall[k], "100.0", steps);
    return 0;
}

/* without LAMMPS: one batch a round, of the slice given, however short */
Test(bench_lammps, rounds_without_lammps_time_the_library_alone)
{
    struct scripted x = { .lib_fail_at = -1, .fail_at = -1, .lib_steps = { 10, 10, 10 } };
    const struct mb_bench_rounds R = { .rounds = 3, .slots = 5, .n = 100, .min_steps = 10,
                                       .slice = 0.001, .ctx = &x,
                                       .library = scripted_library };
    struct mb_bench_peer_best best;
    int failed;
    cr_expect_eq(mb_bench_rounds_run(&R, &best, &failed), MB_BENCH_ROUNDS_OK);
    cr_expect_eq(x.batches, 3);
    cr_expect_eq(x.runs, 0);
    cr_expect_eq(best.runs, 0);
    for (int k = 0; k < 3; k++)
        cr_expect_eq(x.seconds[k], 0.001);
}

/* with LAMMPS, 2 rounds of 3 slots: each library batch at least 0.2 s (the slice 0.001 s
 * is shorter), a LAMMPS run after each of as many steps as the batch, at least 10, at
 * least those charged in the slot before (round 1, slot 0: 50, not the batch's 40); its
 * best: 100 x steps / wall, 100 x 50 / 0.25 = 2e4 in slot 0 */
Test(bench_lammps, rounds_time_lammps_after_each_batch)
{
    struct scripted x = { .lib_fail_at = -1, .fail_at = -1,
                          .lib_steps = { 50, 60, 5, 40, 70, 5 },
                          .wall = { "0.5", "0.5", "0.5", "0.25", "0.5", "0.5" } };
    const struct mb_bench_rounds R = { .rounds = 2, .slots = 3, .n = 100, .min_steps = 10,
                                       .slice = 0.001, .ctx = &x, .log = path,
                                       .library = scripted_library,
                                       .lammps = scripted_lammps };
    struct mb_bench_peer_best best;
    int failed;
    cr_expect_eq(mb_bench_rounds_run(&R, &best, &failed), MB_BENCH_ROUNDS_OK);
    cr_expect_eq(x.batches, 6);
    cr_expect_eq(x.runs, 6);
    const long asked[6] = { 50, 60, 10, 50, 70, 10 };
    for (int k = 0; k < 6; k++) {
        cr_expect_eq(x.seconds[k], 0.2, "batch %d asked for %g s", k, x.seconds[k]);
        cr_expect_eq(x.asked[k], asked[k], "run %d asked %ld steps", k, x.asked[k]);
        cr_expect_eq(x.slot[k], k % 3);
    }
    cr_expect_eq(best.runs, 6);
    cr_expect_eq(best.slot, 0);
    cr_expect_eq(best.steps, 50);
    cr_expect(fabs(best.rate - 2e4) <= 1e-9, "best rate %.17g, expected 2e4", best.rate);
    cr_expect_eq(failed, -1);
}

/* a failed LAMMPS run stops the rounds and names its slot; so does a failed batch */
Test(bench_lammps, rounds_stop_at_a_failure)
{
    struct scripted x = { .lib_fail_at = -1, .fail_at = 1, .lib_steps = { 50, 60 },
                          .wall = { "0.5" } };
    const struct mb_bench_rounds R = { .rounds = 2, .slots = 3, .n = 100, .min_steps = 10,
                                       .slice = 0.5, .ctx = &x, .log = path,
                                       .library = scripted_library,
                                       .lammps = scripted_lammps };
    struct mb_bench_peer_best best;
    int failed;
    cr_expect_eq(mb_bench_rounds_run(&R, &best, &failed), MB_BENCH_ROUNDS_LAMMPS_FAILED);
    cr_expect_eq(failed, 1);
    cr_expect_eq(x.runs, 2);
    cr_expect_eq(x.seconds[0], 0.5, "a slice above 0.2 s is kept");
    cr_expect(strstr(mb_last_error(), "exited with status 1") != NULL, "%s", mb_last_error());
    struct scripted y = { .lib_fail_at = 1, .fail_at = -1, .lib_steps = { 50 },
                          .wall = { "0.5" } };
    struct mb_bench_rounds Q = R;
    Q.ctx = &y;
    cr_expect_eq(mb_bench_rounds_run(&Q, &best, &failed), MB_BENCH_ROUNDS_LIBRARY_FAILED);
    cr_expect_eq(y.batches, 2);
    cr_expect_eq(y.runs, 1);
}
