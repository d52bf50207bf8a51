/* test_hardening.c -- the hardening contracts that a command line cannot reach
 * deterministically (doc/hardening.md): the report writer under a cancellation request,
 * output targets, stale temporaries, the shared number and precision rules, the memory
 * estimate's parts.  The hostile inputs themselves are in tests/hostile/catalogue. */
#include <criterion/criterion.h>
#include <errno.h>
#include <float.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mb_cancel.h"
#include "mb_case.h"
#include "mb_input.h"
#include "mb_memory.h"
#include "mb_output.h"
#include "mb_report.h"
#include "mb_runner.h"
#include "mb_status.h"

static char tmp[64];

static void setup(void)
{
    strcpy(tmp, "/tmp/mb-hardening-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    mb_cancel_reset();
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(hardening, .init = setup, .fini = teardown);

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

static char *read_text(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A cancellation that arrives while the reports are written (before the commit) keeps the
 * previous report, byte for byte, and leaves no temporary file. */
Test(hardening, interrupted_write_keeps_the_previous_report)
{
    char dir[128], path[160];
    snprintf(dir, sizeof dir, "%s/r", tmp);
    cr_assert_eq(mkdir(dir, 0777), 0);
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    write_text(path, "previous\n");
    mb_case *c = NULL;
    char case_path[4096];
    const char *s = getenv("MB_SRCDIR");
    snprintf(case_path, sizeof case_path, "%s/cases/free-fall.case", s ? s : MB_SRCDIR);
    cr_assert_eq(mb_case_load(case_path, &c), MB_SUCCESS, "%s", mb_last_error());
    mb_runner_options opt = { 1, 0, 0 };
    mb_case_result *r = NULL;
    cr_assert_eq(mb_runner_run(&c, 1, &opt, &r), MB_SUCCESS);
    mb_cancel_request(SIGINT);
    mb_report_summary sum;
    cr_expect_neq(mb_report_write(dir, r, 1, 0, &sum), MB_SUCCESS);
    cr_expect(strstr(mb_last_error(), "the previous report is kept") != NULL, "%s",
              mb_last_error());
    cr_expect_str_eq(read_text(path), "previous\n");
    cr_expect_eq(mb_report_clean_stale(dir), 0, "a temporary file was left");
    /* without the request the same write replaces the report */
    mb_cancel_reset();
    cr_expect_eq(mb_report_write(dir, r, 1, 0, &sum), MB_SUCCESS);
    cr_expect(strncmp(read_text(path), "case,integrator", 15) == 0);
    mb_case_result_free(r, 1);
    mb_case_free(c);
}

Test(hardening, cancel_flag_records_the_signal)
{
    cr_expect_not(mb_cancel_requested());
    mb_cancel_request(SIGTERM);
    cr_expect(mb_cancel_requested());
    cr_expect_eq(mb_cancel_signal(), SIGTERM);
    cr_expect_eq(mb_cancel_error(), MB_EFAILED);
    cr_expect_str_eq(mb_last_error(), "interrupted");
    mb_cancel_reset();
    cr_expect_not(mb_cancel_requested());
}

/* New path and regular file: atomic; device: straight through; link and directory: refused. */
Test(hardening, output_targets)
{
    char path[160], link[160];
    int direct = -1;
    snprintf(path, sizeof path, "%s/new.csv", tmp);
    cr_expect_eq(mb_output_target(path, &direct), MB_SUCCESS);
    cr_expect_eq(direct, 0);
    write_text(path, "old\n");
    cr_expect_eq(mb_output_target(path, &direct), MB_SUCCESS);
    cr_expect_eq(direct, 0);
    cr_expect_eq(mb_output_target("/dev/null", &direct), MB_SUCCESS);
    cr_expect_eq(direct, 1);
    snprintf(link, sizeof link, "%s/link.csv", tmp);
    cr_assert_eq(symlink(path, link), 0);
    cr_expect_eq(mb_output_target(link, &direct), MB_EINVAL);
    cr_expect(strstr(mb_last_error(), "is a symbolic link") != NULL);
    cr_expect_eq(mb_output_target(tmp, &direct), MB_EINVAL);
    /* a failed atomic write keeps the old file */
    mb_output o;
    cr_assert_eq(mb_output_open(&o, path), MB_SUCCESS);
    fputs("new\n", o.f);
    cr_expect_eq(mb_output_close(&o, 0), MB_SUCCESS);
    cr_expect_str_eq(read_text(path), "old\n");
    cr_assert_eq(mb_output_open(&o, path), MB_SUCCESS);
    fputs("new\n", o.f);
    cr_expect_eq(mb_output_close(&o, 1), MB_SUCCESS);
    cr_expect_str_eq(read_text(path), "new\n");
    /* writing through to a full device is an error with the reason */
    cr_assert_eq(mb_output_open(&o, "/dev/full"), MB_SUCCESS);
    for (int k = 0; k < 10000; k++)
        fputs("0123456789", o.f);
    cr_expect_eq(mb_output_close(&o, 1), MB_EIO);
    cr_expect(strstr(mb_last_error(), "No space left on device") != NULL, "%s", mb_last_error());
}

/* Two phases: a prepared output is complete and checked but not in place (the previous
 * file is read until the close), and a full device fails at the prepare, before any other
 * output would be renamed. */
Test(hardening, output_prepared_before_replaced)
{
    char path[160];
    snprintf(path, sizeof path, "%s/out.xml", tmp);
    write_text(path, "old\n");
    mb_output o;
    cr_assert_eq(mb_output_open(&o, path), MB_SUCCESS);
    fputs("new\n", o.f);
    cr_expect_eq(mb_output_prepare(&o), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_str_eq(read_text(path), "old\n", "prepared, not yet replaced");
    cr_expect_eq(mb_output_close(&o, 1), MB_SUCCESS);
    cr_expect_str_eq(read_text(path), "new\n");
    cr_assert_eq(mb_output_open(&o, path), MB_SUCCESS);
    fputs("dropped\n", o.f);
    cr_expect_eq(mb_output_prepare(&o), MB_SUCCESS);
    cr_expect_eq(mb_output_close(&o, 0), MB_SUCCESS);
    cr_expect_str_eq(read_text(path), "new\n", "a prepared output dropped");
    cr_expect_eq(mb_report_clean_stale(tmp), 0);
    cr_assert_eq(mb_output_open(&o, "/dev/full"), MB_SUCCESS);
    fputs("x\n", o.f);
    cr_expect_eq(mb_output_prepare(&o), MB_EIO);
    cr_expect(strstr(mb_last_error(), "cannot write /dev/full: No space left on device")
              != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_output_close(&o, 0), MB_SUCCESS);
}

/* SIGINT, SIGTERM and SIGHUP are caught, and held (pending, not lost) during a commit. */
Test(hardening, signals_held_during_a_commit)
{
    mb_cancel_catch_signals();
    const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    for (int k = 0; k < 3; k++) {
        mb_cancel_reset();
        mb_cancel_hold(1);
        cr_assert_eq(raise(sigs[k]), 0);
        cr_expect_not(mb_cancel_requested(), "signal %d delivered while held", sigs[k]);
        mb_cancel_hold(0);
        cr_expect(mb_cancel_requested(), "signal %d lost", sigs[k]);
        cr_expect_eq(mb_cancel_signal(), sigs[k]);
    }
    mb_cancel_reset();
}

/* Only ".NAME.tmp.PID" of a dead PID is removed. */
Test(hardening, stale_temporaries)
{
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    cr_assert_gt(child, 0);
    waitpid(child, NULL, 0);
    char a[160], b[160], c[160], d[160];
    snprintf(a, sizeof a, "%s/.runs.csv.tmp.%ld", tmp, (long)child);
    snprintf(b, sizeof b, "%s/.runs.csv.tmp.%ld", tmp, (long)getpid());
    snprintf(c, sizeof c, "%s/runs.csv.tmp.%ld", tmp, (long)child);
    snprintf(d, sizeof d, "%s/.runs.csv.tmp.x%ld", tmp, (long)child);
    write_text(a, "");
    write_text(b, "");
    write_text(c, "");
    write_text(d, "");
    cr_expect_eq(mb_report_clean_stale(tmp), 1);
    cr_expect_neq(access(a, F_OK), 0);
    cr_expect_eq(access(b, F_OK), 0, "our own temporary is not stale");
    cr_expect_eq(access(c, F_OK), 0, "no leading dot: not ours");
    cr_expect_eq(access(d, F_OK), 0, "not a PID: not ours");
}

/* Every input is a regular file read within the cap of its kind (doc/limits.md): a FIFO is
 * refused without blocking, a directory and a device without reading, a file one byte over
 * its cap with the cap named; a file at its cap is read whole, as a buffer and as a
 * seekable stream. */
Test(hardening, input_files_regular_and_bounded, .timeout = 10)
{
    char fifo[128], big[128];
    snprintf(fifo, sizeof fifo, "%s/f.adapter", tmp);
    snprintf(big, sizeof big, "%s/big.adapter", tmp);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    char *buf = (char *)1;
    size_t len = 1;
    cr_expect_eq(mb_input_read_all(fifo, MB_INPUT_DESCRIPTOR, &buf, &len), MB_EINVAL);
    cr_expect_null(buf);
    cr_expect(strstr(mb_last_error(), "f.adapter: not a regular file (FIFO): an adapter "
                     "descriptor must be a regular file") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_input_open(tmp, MB_INPUT_CASE));
    cr_expect(strstr(mb_last_error(), ": not a regular file (directory): a case file must be "
                     "a regular file") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_input_open("/dev/zero", MB_INPUT_TRAJECTORY));
    cr_expect(strstr(mb_last_error(), "/dev/zero: not a regular file (character device)")
              != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_input_read_all(big, MB_INPUT_DESCRIPTOR, &buf, &len), MB_EIO,
                 "a missing file");
    /* 1 MiB, the descriptor cap of doc/limits.md, and one byte more */
    const long cap = 1048576;
    cr_assert_eq(mb_input_cap(MB_INPUT_DESCRIPTOR), (size_t)cap);
    FILE *f = fopen(big, "w");
    cr_assert_not_null(f);
    for (long k = 0; k < cap; k++)
        fputc(k % 61 == 60 ? '\n' : 'a' + (int)(k % 26), f);
    cr_assert_eq(fclose(f), 0);
    cr_expect_eq(mb_input_read_all(big, MB_INPUT_DESCRIPTOR, &buf, &len), MB_SUCCESS,
                 "%s", mb_last_error());
    cr_expect_eq(len, (size_t)cap);
    cr_expect_eq(buf[0], 'a');
    cr_expect_eq(buf[cap - 1], 'a' + (int)((cap - 1) % 26));
    cr_expect_eq(buf[cap], '\0');
    free(buf);
    f = mb_input_open(big, MB_INPUT_DESCRIPTOR);
    cr_assert_not_null(f, "%s", mb_last_error());
    cr_expect_eq(fseek(f, -1, SEEK_END), 0);
    cr_expect_eq(ftell(f), cap - 1);
    cr_expect_eq(getc(f), 'a' + (int)((cap - 1) % 26));
    cr_expect_eq(getc(f), EOF);
    rewind(f);
    char line[80];
    cr_expect_not_null(fgets(line, sizeof line, f));
    cr_expect_eq(strlen(line), 61u);
    cr_expect_eq(fclose(f), 0);
    f = fopen(big, "a");
    cr_assert_not_null(f);
    fputc('z', f);
    cr_assert_eq(fclose(f), 0);
    cr_expect_eq(mb_input_read_all(big, MB_INPUT_DESCRIPTOR, &buf, &len), MB_EINVAL);
    cr_expect(strstr(mb_last_error(), "big.adapter: larger than 1048576 bytes (the cap for an "
                     "adapter descriptor, doc/limits.md)") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_input_open(big, MB_INPUT_DESCRIPTOR));
}

Test(hardening, numbers_and_precisions)
{
    char *end;
    errno = 0;
    double v = strtod("4.9e-324", &end);
    cr_expect(mb_strtod_in_range(v), "the smallest subnormal is a number");
    cr_expect_eq(v, 4.9406564584124654e-324);
    errno = 0;
    v = strtod("1e-400", &end);
    cr_expect_not(mb_strtod_in_range(v), "an underflow to zero is refused");
    errno = 0;
    v = strtod("1e400", &end);
    cr_expect_not(mb_strtod_in_range(v), "an overflow is refused");
    long bits = -1;
    cr_expect_eq(mb_precision_parse("double", &bits), MB_SUCCESS);
    cr_expect_eq(bits, 0);
    cr_expect_eq(mb_precision_parse("mpfr:16", &bits), MB_SUCCESS);
    cr_expect_eq(bits, 16);
    cr_expect_eq(mb_precision_parse("mpfr:100000", &bits), MB_SUCCESS);
    cr_expect_eq(mb_precision_parse("mpfr:15", &bits), MB_EINVAL);
    cr_expect_eq(mb_precision_parse("mpfr:100001", &bits), MB_EINVAL);
    cr_expect_eq(mb_precision_parse("mpfr:1x", &bits), MB_EINVAL);
    cr_expect_eq(mb_precision_parse("quad", &bits), MB_EINVAL);
}

Test(hardening, memory_sizes)
{
    double b = 0.0;
    cr_expect_eq(mb_memory_parse_size("8G", &b), MB_SUCCESS);
    cr_expect_eq(b, 8.0 * 1073741824.0);
    cr_expect_eq(mb_memory_parse_size("1.5M", &b), MB_SUCCESS);
    cr_expect_eq(b, 1.5 * 1048576.0);
    cr_expect_eq(mb_memory_parse_size("512", &b), MB_SUCCESS);
    cr_expect_eq(b, 512.0);
    cr_expect_eq(mb_memory_parse_size("-1G", &b), MB_EINVAL);
    cr_expect_eq(mb_memory_parse_size("8Q", &b), MB_EINVAL);
    const char *source = NULL;
    cr_expect_eq(mb_memory_available(&b, &source), MB_SUCCESS);
    cr_expect_gt(b, 0.0);
    cr_expect_not_null(source);
}

/* The estimate of the 5e6-node spring chain with its default (MPFR) reference is far
 * above any one machine: the tableau alone is 5e6 x 13 x 101 x 80 B = 525 GB. */
/* A cap on the address space lowers the memory available to it (run in a child, so the
 * limit does not stay on the test process). */
#if defined(__SANITIZE_ADDRESS__)
#define MB_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MB_UNDER_ASAN 1
#endif
#endif

Test(hardening, address_space_limit_lowers_the_memory_available)
{
#ifdef MB_UNDER_ASAN
    cr_skip_test("AddressSanitizer reserves terabytes of address space: no RLIMIT_AS test");
#endif
    pid_t child = fork();
    if (child == 0) {
        struct rlimit rl = { 1536L << 20, 1536L << 20 };
        double b = 0.0;
        const char *source = "";
        int ok = setrlimit(RLIMIT_AS, &rl) == 0 && mb_memory_available(&b, &source) == MB_SUCCESS
                 && b <= 1536.0 * 1048576.0 && strstr(source, "ulimit -v") != NULL;
        _exit(ok ? 0 : 1);
    }
    int st = -1;
    cr_assert_eq(waitpid(child, &st, 0), child);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

Test(hardening, estimate_of_a_huge_chain)
{
    char path[160];
    snprintf(path, sizeof path, "%s/chain.case", tmp);
    write_text(path, "[case]\nname = chain\nproblem = spring-chain\nt_end = 0.01\n"
                     "[problem]\nn = 1000\n[run]\nintegrators = explicit-euler\ndt = 0.001\n");
    mb_case *c = NULL;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    c->nodes = 5000000;             /* the estimate is linear in the node count */
    mb_memory_estimate e;
    mb_memory_estimate_run(c, 0, 0, &e);
    cr_expect_gt(e.reference, 5.25e11);
    cr_expect_eq(e.total, e.state + e.reference + e.twin + e.growth + e.statistics + e.kept);
    mb_case_free(c);
}
