/* test_runner.c -- the `run` and `check` commands end to end: byte-identical reports
 * across repeated runs and --jobs, exit statuses, divergence handling, reports left
 * intact by bad input and by an interrupted run, and the baseline check flagging a
 * perturbed, truncated or status-changed metrics.csv while passing an identical one.
 * The program is the one built beside the tests (test_program.h). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_files.h"
#include "test_program.h"

static char prog[4096], data[4096], tmp[256];

static void setup(void)
{
    const char *s = getenv("MB_SRCDIR");
    tp_program(prog, sizeof prog);
    snprintf(data, sizeof data, "%s/tests/data", s ? s : MB_SRCDIR);
    strcpy(tmp, "/tmp/mb-runner-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(runner, .init = setup, .fini = teardown);

/* run a shell command line (program and data paths substituted), return exit status */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "%s: no exit status", cmd);
    return WEXITSTATUS(st);
}

static char *slurp(const char *dir, const char *name, size_t *len)
{
    return tf_read_in(dir, name, len);
}

static void expect_same_file(const char *d1, const char *d2, const char *name)
{
    size_t n1, n2;
    char *a = slurp(d1, name, &n1), *b = slurp(d2, name, &n2);
    cr_expect(n1 == n2 && memcmp(a, b, n1) == 0, "%s differs between %s and %s", name, d1, d2);
    free(a);
    free(b);
}

static const char *const reports[] = { "runs.csv", "metrics.csv", "checks.csv" };

Test(runner, deterministic_across_runs_and_jobs)
{
    const char *cases = "runner/osc-a.case runner/osc-b.case runner/fail.case";
    cr_expect_eq(sh("cd '%s' && '%s' run %s -o '%s/j1' --jobs 1 --quiet 2>/dev/null", data, prog,
                    cases, tmp), 1);
    cr_expect_eq(sh("cd '%s' && '%s' run %s -o '%s/j2' --jobs 2 --quiet 2>/dev/null", data, prog,
                    cases, tmp), 1);
    cr_expect_eq(sh("cd '%s' && '%s' run %s -o '%s/j2b' --jobs 2 --quiet 2>/dev/null", data,
                    prog, cases, tmp), 1);
    /* repetitions for timing change nothing but timing.csv */
    cr_expect_eq(sh("cd '%s' && '%s' run %s -o '%s/r3' --jobs 2 --repeat 3 --quiet 2>/dev/null",
                    data, prog, cases, tmp), 1);
    char d1[512], d2[512], d3[512], d4[512];
    snprintf(d1, sizeof d1, "%s/j1", tmp);
    snprintf(d2, sizeof d2, "%s/j2", tmp);
    snprintf(d3, sizeof d3, "%s/j2b", tmp);
    snprintf(d4, sizeof d4, "%s/r3", tmp);
    for (int k = 0; k < 3; k++) {
        expect_same_file(d1, d2, reports[k]);
        expect_same_file(d2, d3, reports[k]);
        expect_same_file(d1, d4, reports[k]);
    }
    size_t n;
    char *t = slurp(d1, "timing.csv", &n);      /* exists; its content is not compared */
    const char *head = "case,integrator,precision,dt,steps,repeats,wall_min_s,wall_median_s,"
                       "cpu_min_s,cpu_median_s,ns_per_step\r\n";
    cr_expect(strncmp(t, head, strlen(head)) == 0, "%.120s", t);
    free(t);
    /* osc-a, first row: 530 steps done, 3 repeats, then the minimum <= the median */
    t = slurp(d4, "timing.csv", &n);
    double wmin, wmed, cmin, cmed;
    const char *row = strstr(t, "\r\nosc-a,explicit-euler,double,");
    cr_assert(row != NULL, "%s", t);
    row = strchr(row + 2, ',');
    for (int k = 0; k < 3 && row; k++)
        row = strchr(row + 1, ',');
    int steps = 0, reps = 0;
    cr_assert(row && sscanf(row, ",%d,%d,%lf,%lf,%lf,%lf", &steps, &reps, &wmin, &wmed, &cmin,
                            &cmed) == 6, "%s", t);
    cr_expect_eq(reps, 3);
    cr_expect(wmin <= wmed && cmin <= cmed, "%s", t);
    free(t);
}

/* h = 1 on w = 1: E doubles each step, |E - E0| > 1e6 E0 first at step 20 */
Test(runner, divergence_is_a_status_not_a_crash)
{
    cr_expect_eq(sh("'%s' run '%s/runner/osc-b.case' -o '%s' --quiet 2>/dev/null", prog, data,
                    tmp), 0);
    size_t n;
    char *runs = slurp(tmp, "runs.csv", &n), *metrics = slurp(tmp, "metrics.csv", &n);
    cr_expect(strstr(runs, "\r\nosc-b,explicit-euler,double,1,40,20,diverged,20,20,20,") != NULL,
              "%s", runs);
    cr_expect(strstr(metrics, ",order.velocity.excluded,1,abs:0,not finished 1;") != NULL);
    cr_expect(strstr(metrics, ",order.velocity.points,3,") != NULL);
    free(runs);
    free(metrics);
}

Test(runner, exit_statuses_and_bad_input_keeps_report)
{
    cr_expect_eq(sh("'%s' run '%s/runner/osc-a.case' -o '%s/a' --quiet", prog, data, tmp), 0);
    cr_expect_eq(sh("'%s' run '%s/runner/fail.case' -o '%s/f' --quiet 2>/dev/null", prog, data,
                    tmp), 1);
    size_t n;
    char *checks = slurp(tmp, "f/checks.csv", &n);
    cr_expect(strstr(checks, "explicit-euler.order.position = 2 +- 0.1,") != NULL);
    cr_expect(strstr(checks, ",fail\r\n") != NULL);
    free(checks);
    /* a good case followed by a bad one: nothing runs, nothing is written */
    char a[512], copy[512];
    snprintf(a, sizeof a, "%s/a", tmp);
    snprintf(copy, sizeof copy, "%s/copy", tmp);
    cr_assert_eq(sh("cp -r '%s' '%s'", a, copy), 0);
    cr_expect_eq(sh("'%s' run '%s/runner/osc-b.case' '%s/bad/unknown-problem.case' -o '%s' "
                    "2>'%s/err'", prog, data, data, a, tmp), 2);
    char *err = slurp(tmp, "err", &n);
    cr_expect(strstr(err, "unknown-problem.case:3: unknown problem 'harmonc' (did you mean "
                          "'harmonic'?)") != NULL, "%s", err);
    free(err);
    for (int k = 0; k < 3; k++)
        expect_same_file(a, copy, reports[k]);
    cr_expect_eq(sh("'%s' run --jobs 0 '%s/runner/osc-a.case' 2>/dev/null", prog, data), 2);
    cr_expect_eq(sh("'%s' run --frobnicate 2>/dev/null", prog), 2);
    cr_expect_eq(sh("'%s' run '%s/nonexistent.case' 2>/dev/null", prog, data), 2);
    cr_expect_eq(sh("'%s' run --help >/dev/null", prog), 0);
    cr_expect_eq(sh("'%s' check --help >/dev/null", prog), 0);
    /* without --baseline check takes the committed baseline (doc/install.md); a report
     * directory that does not exist, or two of them, are still bad input */
    cr_expect_eq(sh("'%s' check '%s/none' 2>/dev/null", prog, tmp), 2);
    cr_expect_eq(sh("'%s' check '%s' '%s' 2>/dev/null", prog, a, copy), 2);
}

static int no_temporary_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int clean = 1;
    while (d && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp."))
            clean = 0;
    if (d)
        closedir(d);
    return clean;
}

/* 1 once process pid runs the program itself and catches signal sig, 0 if it ends or 30 s
 * pass first (tests/hostile/caught.sh, the hostile catalogue's wait: a fixed wait could
 * send the signal before a slow start installed the handler, or to libtool's wrapper
 * shell, which catches SIGINT while it waits for its own commands) */
static int catches_signal(pid_t pid, int sig)
{
    return sh("sh '%s/../hostile/caught.sh' %d %d", data, (int)pid, sig) == 0;
}

/* A run killed mid-way (SIGTERM, or SIGINT) exits 2 and leaves the previous report. */
static void interrupted(int sig)
{
    char a[512], copy[512], slow[4200];
    snprintf(a, sizeof a, "%s/a", tmp);
    snprintf(copy, sizeof copy, "%s/copy", tmp);
    snprintf(slow, sizeof slow, "%s/runner/slow.case", data);
    cr_assert_eq(sh("'%s' run '%s/runner/osc-a.case' -o '%s' --quiet", prog, data, a), 0);
    cr_assert_eq(sh("cp -r '%s' '%s'", a, copy), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        execl(prog, prog, "run", slow, "-o", a, "--quiet", (char *)NULL);
        _exit(127);
    }
    cr_assert(catches_signal(pid, sig), "the run did not take over signal %d within 30 s",
              sig);
    int still_running = waitpid(pid, NULL, WNOHANG) == 0;
    cr_assert(still_running, "the slow case finished before it was interrupted");
    kill(pid, sig);
    int st;
    waitpid(pid, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2, "status %d", st);
    for (int k = 0; k < 3; k++)
        expect_same_file(a, copy, reports[k]);
    cr_expect(no_temporary_files(a));
}

Test(runner, sigterm_keeps_previous_report) { interrupted(SIGTERM); }
Test(runner, sigint_keeps_previous_report) { interrupted(SIGINT); }

Test(runner, check_against_baseline)
{
    cr_assert_eq(sh("'%s' run '%s/runner/osc-a.case' '%s/runner/osc-b.case' -o '%s/base' "
                    "--quiet", prog, data, data, tmp), 0);
    cr_assert_eq(sh("'%s' run '%s/runner/osc-a.case' '%s/runner/osc-b.case' -o '%s/new' "
                    "--quiet", prog, data, data, tmp), 0);
    cr_expect_eq(sh("'%s' check --baseline '%s/base' '%s/new' >/dev/null", prog, tmp, tmp), 0);
    /* one error.position moved from 0.0... to 0.1...: far beyond rel 1e-6 */
    cr_assert_eq(sh("mkdir '%s/p' && sed '0,/,error.position,0\\./s//,error.position,0.1/' "
                    "'%s/new/metrics.csv' > '%s/p/metrics.csv'", tmp, tmp, tmp), 0);
    cr_expect_eq(sh("'%s' check --baseline '%s/base' '%s/p' > '%s/out'", prog, tmp, tmp, tmp), 1);
    size_t n;
    char *out = slurp(tmp, "out", &n);
    cr_expect(strstr(out, "  osc-a  explicit-euler: 1 row\n    error.position dt=0.01: "
                          "baseline 0.") != NULL, "%s", out);
    cr_expect(strstr(out, " baseline metrics compared: 1 regression (0 missing) "
                      "in 1 case,") != NULL, "%s", out);
    free(out);
    /* the same change downwards (baseline 0.1..., now 0.0...) is a regression (two-sided
     * by default, doc/results.md), an improvement of an error with --one-sided */
    cr_expect_eq(sh("'%s' check --baseline '%s/p' '%s/new' >/dev/null", prog, tmp, tmp), 1);
    cr_expect_eq(sh("'%s' check --one-sided --baseline '%s/p' '%s/new' >/dev/null", prog, tmp,
                    tmp), 0);
    /* a change of 1 unit in the 15th digit stays inside rel 1e-6 */
    cr_assert_eq(sh("mkdir '%s/q' && sed '0,/,error.position,\\([0-9.]*\\)[0-9]\\([0-9]\\),/"
                    "s//,error.position,\\11\\2,/' '%s/new/metrics.csv' > '%s/q/metrics.csv'",
                    tmp, tmp, tmp), 0);
    cr_expect_eq(sh("cmp -s '%s/new/metrics.csv' '%s/q/metrics.csv'", tmp, tmp), 1);
    cr_expect_eq(sh("'%s' check --baseline '%s/base' '%s/q' >/dev/null", prog, tmp, tmp), 0);
    /* a missing metric and a changed status are regressions */
    cr_assert_eq(sh("mkdir '%s/m' && sed '/,error.velocity,/d' '%s/new/metrics.csv' > "
                    "'%s/m/metrics.csv'", tmp, tmp, tmp), 0);
    cr_expect_eq(sh("'%s' check -b '%s/base' '%s/m' | grep -q 'missing'", prog, tmp, tmp), 0);
    cr_expect_eq(sh("'%s' check -b '%s/base' '%s/m' >/dev/null", prog, tmp, tmp), 1);
    cr_assert_eq(sh("mkdir '%s/s' && sed '0,/,status,ok,/s//,status,failed,/' "
                    "'%s/new/metrics.csv' > '%s/s/metrics.csv'", tmp, tmp, tmp), 0);
    cr_expect_eq(sh("'%s' check -b '%s/base' '%s/s' >/dev/null", prog, tmp, tmp), 1);
    /* malformed input is exit 2 */
    cr_assert_eq(sh("mkdir '%s/x' && echo 'not,a,metrics,file' > '%s/x/metrics.csv'", tmp, tmp),
                 0);
    cr_expect_eq(sh("'%s' check -b '%s/base' '%s/x' 2>/dev/null", prog, tmp, tmp), 2);
    cr_expect_eq(sh("'%s' check -b '%s/nowhere' '%s/new' 2>/dev/null", prog, tmp, tmp), 2);
}

/* At 53 bits with double's exponent range, the MPFR twin of explicit Euler reproduces the
 * double run bit for bit (DESIGN 5), so through the runner every metric is identical. */
Test(runner, twin_at_53_bits_matches_double)
{
    cr_assert_eq(sh("cd '%s' && sed 's/^name = osc-a/name = twin/; s/^sample_every = 3/"
                    "sample_every = 3\\nprecision = mpfr:53/' runner/osc-a.case > "
                    "'%s/twin.case'", data, tmp), 0);
    cr_assert_eq(sh("'%s' run '%s/runner/osc-a.case' '%s/twin.case' -o '%s/r' --quiet", prog,
                    data, tmp, tmp), 0);
    cr_assert_eq(sh("grep -q '^twin,explicit-euler,mpfr:53,' '%s/r/metrics.csv'", tmp), 0);
    cr_expect_eq(sh("cd '%s/r' && grep '^osc-a,' metrics.csv | cut -d, -f4- > a && "
                    "grep '^twin,' metrics.csv | grep -v -e ',roundoff\\.' -e ',truncation\\.' "
                    "| cut -d, -f4- > b && test -s a && cmp -s a b", tmp), 0);
    /* and the round-off of the double run, measured against that twin, is exactly zero */
    cr_expect_eq(sh("test $(grep -c '^twin,explicit-euler,mpfr:53,[0-9.]*,roundoff.max_abs,0,'"
                    " '%s/r/metrics.csv') = 4", tmp), 0);
}

Test(runner, series_files)
{
    cr_assert_eq(sh("'%s' run '%s/runner/osc-a.case' -o '%s' --series --quiet", prog, data, tmp),
                 0);
    size_t n;
    char *s = slurp(tmp, "series/osc-a__explicit-euler__dt00.csv", &n);
    static const char head[] = "t,energy_rel_error,balance_rel_residual,x,y,z,vx,vy,vz,"
        "angmom_rel_error,angmom_direction_error,quat_norm_error_max,omega_body_mid\r\n"
        "0,0,0,0.41299999999999998,0,0,-0.27000000000000002,0,0,nan,nan,nan,nan\r\n";
    /* motion along x only: L = x v_x (e_x x e_x) = 0 and no rotation, so the angular
     * momentum and rotation columns are nan */
    cr_expect(strncmp(s, head, sizeof head - 1) == 0, "%.160s", s);
    /* 530 steps sampled every 3 and at the end: 1 + 176 + 1 rows after the header */
    size_t rows = 0;
    for (size_t k = 0; k < n; k++)
        rows += s[k] == '\n';
    cr_expect_eq(rows, 179, "%zu lines", rows);
    free(s);
}

/* [check] tolerances land in metrics.csv; stderr carries no progress line when it is not
 * a terminal (only the one-line summary) */
Test(runner, check_tolerances_and_quiet_stderr)
{
    cr_assert_eq(sh("'%s' run '%s/runner/osc-a.case' -o '%s' --jobs 1 2> '%s/err'", prog, data,
                    tmp, tmp), 0);
    cr_expect_eq(sh("grep -q '^osc-a,explicit-euler,double,0.01,error.position,[0-9.e-]*,rel:0.0001,'"
                    " '%s/metrics.csv'", tmp), 0);
    cr_expect_eq(sh("grep -q '^osc-a,explicit-euler,double,,order.position,[0-9.]*,abs:0.05,'"
                    " '%s/metrics.csv'", tmp), 0);
    cr_expect_eq(sh("grep -q '^osc-a,explicit-euler,double,0.01,energy.drift_rate,[0-9.e-]*,"
                    "rel:1e-06,' '%s/metrics.csv'", tmp), 0);
    size_t n;
    char *err = slurp(tmp, "err", &n);
    /* one line: the summary, the wall time of the suite, where the reports went */
    const char *head = "motionbench: 1 case, 5 checks: 0 failed, 0 missing; ";
    char tail[600];
    snprintf(tail, sizeof tail, " s wall with 1 job; reports in %s/\n", tmp);
    double wall = -1.0;
    cr_expect(strncmp(err, head, strlen(head)) == 0, "%s", err);
    cr_expect_eq(sscanf(err + strlen(head), "%lf", &wall), 1, "%s", err);
    cr_expect(wall >= 0.0, "%s", err);
    cr_expect(strstr(err, tail) != NULL && strchr(err, '\n') == err + n - 1, "%s", err);
    free(err);
}

/* On a terminal (a pseudo-terminal from script(1)) the progress line appears, and
 * --quiet removes it.  Skipped where script(1) is missing. */
Test(runner, progress_line_on_a_terminal)
{
    if (sh("command -v script >/dev/null") != 0)
        cr_skip_test("script(1) is not installed");
    cr_assert_eq(sh("script -qec \"'%s' run '%s/runner/osc-a.case' -o '%s/r'\" /dev/null > "
                    "'%s/tty'", prog, data, tmp, tmp), 0);
    size_t n;
    char *out = slurp(tmp, "tty", &n);
    cr_expect(strstr(out, "[4/4] osc-a explicit-euler dt=") != NULL, "%s", out);
    cr_expect(strstr(out, "elapsed") != NULL && strstr(out, "left") != NULL);
    free(out);
    cr_assert_eq(sh("script -qec \"'%s' run '%s/runner/osc-a.case' -o '%s/r' --quiet\" "
                    "/dev/null > '%s/tty'", prog, data, tmp, tmp), 0);
    out = slurp(tmp, "tty", &n);
    cr_expect_eq(n, 0, "%s", out);
    free(out);
}

/* Relative tolerances have an absolute round-off floor of 1e-13: a round-off-level value
 * (2.2e-16 -> 6.7e-16, a 200 % change) is no regression, while a change of 1e-12 in the
 * same row, or a relative change of 1e-5 in a large value, is one (control). */
Test(runner, check_roundoff_floor)
{
    const char *head = "case,integrator,precision,dt,metric,value,tolerance,detail\r\n";
    const char *rows[][2] = {
        { "2.2204460492503131e-16", "6.6613381477509392e-16" },  /* inside the floor */
        { "2.2204460492503131e-16", "1.0000000000000000e-12" },  /* beyond it */
        { "0.25", "0.2500025" },                                 /* beyond rel 1e-6 */
    };
    int expect[] = { 0, 1, 1 };
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(sh("mkdir -p '%s/b%d' '%s/n%d'", tmp, k, tmp, k), 0);
        cr_assert_eq(sh("printf '%sc,leapfrog,double,0.01,error.position,%s,rel:1e-06,\\r\\n' > "
                        "'%s/b%d/metrics.csv'", head, rows[k][0], tmp, k), 0);
        cr_assert_eq(sh("printf '%sc,leapfrog,double,0.01,error.position,%s,rel:1e-06,\\r\\n' > "
                        "'%s/n%d/metrics.csv'", head, rows[k][1], tmp, k), 0);
        cr_expect_eq(sh("'%s' check -b '%s/b%d' '%s/n%d' >/dev/null", prog, tmp, k, tmp, k),
                     expect[k], "row %d: %s -> %s", k, rows[k][0], rows[k][1]);
    }
}

/* Empty directory names are usage errors: "" + "/metrics.csv" would read /metrics.csv,
 * and make_dir("") read past the end of its buffer. */
Test(runner, empty_directory_arguments)
{
    size_t n;
    cr_expect_eq(sh("'%s' run '%s/runner/osc-a.case' -o '' --quiet 2>'%s/err'", prog, data, tmp),
                 2);
    char *err = slurp(tmp, "err", &n);
    cr_expect(strstr(err, "motionbench: run: -o: empty directory name") != NULL, "%s", err);
    free(err);
    cr_expect_eq(sh("'%s' check --baseline '' '%s' 2>'%s/err'", prog, tmp, tmp), 2);
    err = slurp(tmp, "err", &n);
    cr_expect(strstr(err, "motionbench: check: --baseline: empty directory name") != NULL, "%s",
              err);
    free(err);
    cr_expect_eq(sh("'%s' check --baseline '%s' '' 2>'%s/err'", prog, tmp, tmp), 2);
    err = slurp(tmp, "err", &n);
    cr_expect(strstr(err, "motionbench: check: empty report directory name") != NULL, "%s", err);
    free(err);
}

/* A directory named like a case file is refused as not a regular file, not parsed as empty. */
Test(runner, directory_named_like_a_case)
{
    size_t n;
    char *err;
    cr_assert_eq(sh("mkdir -p '%s/cases/dir.case'", tmp), 0);
    cr_expect_eq(sh("'%s' run '%s/cases' -o '%s/out' 2>'%s/err'", prog, tmp, tmp, tmp), 2);
    err = slurp(tmp, "err", &n);
    cr_expect(strstr(err, "/cases/dir.case: not a regular file (directory)") != NULL, "%s", err);
    free(err);
    cr_expect_eq(sh("test -e '%s/out'", tmp), 1, "a report directory was created");
}
