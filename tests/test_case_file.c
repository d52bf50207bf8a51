/* test_case_file.c -- case files: the catalogue of malformed files in tests/data/bad
 * (each NAME.case with the exact message NAME.expected it must produce), and what a
 * well-formed file turns into. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_case.h"
#include "mb_status.h"

static void read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    cr_assert_not_null(fgets(buf, (int)size, f));
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

Test(case_file, bad_catalogue)
{
    cr_assert_eq(chdir(MB_SRCDIR "/tests/data/bad"), 0);
    DIR *d = opendir(".");
    cr_assert_not_null(d);
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".case") != 0)
            continue;
        char expected_path[512], expected[1024];
        snprintf(expected_path, sizeof expected_path, "%.*s.expected", (int)(n - 5), e->d_name);
        read_line(expected_path, expected, sizeof expected);
        mb_case *c = (mb_case *)0x1;
        int st = mb_case_load(e->d_name, &c);
        cr_expect_neq(st, MB_SUCCESS, "%s was accepted", e->d_name);
        cr_expect_null(c, "%s: no case on error", e->d_name);
        cr_expect_str_eq(mb_last_error(), expected, "%s:\n  got      %s\n  expected %s",
                         e->d_name, mb_last_error(), expected);
        count++;
    }
    closedir(d);
    cr_expect_geq(count, 30, "only %d malformed case files", count);
}

Test(case_file, missing_file)
{
    mb_case *c;
    cr_expect_eq(mb_case_load("/nonexistent/x.case", &c), MB_EIO);
    cr_expect(strstr(mb_last_error(), "/nonexistent/x.case: cannot open") != NULL, "%s",
              mb_last_error());
}

static const char *write_tmp(const char *text)
{
    static char path[] = "/tmp/mb-case-XXXXXX";
    strcpy(path, "/tmp/mb-case-XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

Test(case_file, well_formed)
{
    const char *path = write_tmp(
        "; a comment\n"
        "[expect]\n"
        "explicit-euler.order.position = 1 +- 0.1\n"
        "explicit-euler.status = ok\n"
        "explicit-euler.energy.drift_rate = >= 0\n"
        "[case]\n"
        "name = good-one\n"
        "problem = harmonic\n"
        "t_end = 2.385\n"
        "reference = analytic\n"
        "[problem]\n"
        "k = 7.31\n"
        "[run]\n"
        "integrators = explicit-euler\n"
        "dt_range = 0.1 : 0.011 : 3   ; geometric, snapped to t_end / N\n"
        "precision = mpfr:113\n"
        "sample_every = 7\n"
        "damping_signal = 0:x\n"
        "[check]\n"
        "order.position = abs 0.05\n"
        "explicit-euler.error.position = rel 1e-3\n");
    mb_case *c;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    unlink(path);
    cr_expect_str_eq(c->name, "good-one");
    cr_expect_str_eq(c->problem->name, "harmonic");
    cr_expect_eq(c->t_end, 2.385);
    cr_expect_eq(c->reference.kind, MB_REF_ANALYTIC);
    cr_expect(c->has_reference);
    cr_expect_eq(c->n_integrators, 1);
    cr_expect_str_eq(c->integrators[0], "explicit-euler");
    /* dt = 0.1, 0.1 (0.11)^(1/2) = 0.033166, 0.011: t_end/dt = 23.85, 71.91, 216.8,
     * so N = 24, 72, 217 steps and dt = t_end / N exactly as computed in double */
    cr_assert_eq(c->n_dt, 3);
    long N[3] = { 24, 72, 217 };
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(c->steps[k], N[k], "steps[%d] = %ld", k, c->steps[k]);
        cr_expect_eq(c->dt[k], 2.385 / (double)N[k]);
    }
    cr_expect_eq(c->precision_bits, 113);
    cr_expect_eq(c->sample_every, 7);
    cr_expect_eq(c->damping_node, 0);
    cr_expect_eq(c->damping_axis, 0);
    cr_assert_eq(c->n_expect, 3);
    cr_expect_str_eq(c->expect[0].metric, "order.position");
    cr_expect_eq(c->expect[0].op, MB_EXPECT_APPROX);
    cr_expect_eq(c->expect[0].value, 1.0);
    cr_expect_eq(c->expect[0].tol, 0.1);
    cr_expect_eq(c->expect[0].line, 3);
    cr_expect_eq(c->expect[1].op, MB_EXPECT_WORD);
    cr_expect_str_eq(c->expect[1].word, "ok");
    cr_expect_eq(c->expect[2].op, MB_EXPECT_GE);
    cr_assert_eq(c->n_check, 2);
    cr_expect_null(c->check[0].integrator);
    cr_expect_eq(c->check[0].tolerance.relative, 0);
    cr_expect_eq(c->check[0].tolerance.tol, 0.05);
    cr_expect_str_eq(c->check[1].integrator, "explicit-euler");
    cr_expect_eq(c->check[1].tolerance.relative, 1);
    mb_case_free(c);
}

Test(case_file, continuation_lines_join_lists)
{
    const char *path = write_tmp(
        "[case]\nname = cont\nproblem = harmonic\nt_end = 1\n"
        "[run]\nintegrators = explicit-euler\n"
        "dt = 0.1,\n"
        "     0.05\n");
    mb_case *c;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    unlink(path);
    cr_expect_eq(c->n_dt, 2);
    cr_expect_eq(c->steps[1], 20);
    mb_case_free(c);
}

/* inih reads lines into a fixed buffer: a long comment is fine, a long entry is an error
 * naming its line */
Test(case_file, long_lines)
{
    char text[2048];
    char pad[600];
    memset(pad, 'a', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    snprintf(text, sizeof text, "[case]\nname = long\nproblem = harmonic\nt_end = 1\n; %s\n"
             "[run]\nintegrators = explicit-euler\ndt = 0.1\n", pad);
    const char *path = write_tmp(text);
    mb_case *c;
    cr_expect_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    mb_case_free(c);
    unlink(path);
    snprintf(text, sizeof text, "[case]\nname = long\nproblem = harmonic\nt_end = 1\n"
             "description = %s\n[run]\nintegrators = explicit-euler\ndt = 0.1\n", pad);
    path = write_tmp(text);
    cr_expect_neq(mb_case_load(path, &c), MB_SUCCESS);
    /* the true length: "description = " and the 599 characters of pad */
    cr_expect(strstr(mb_last_error(), ":5: line of 613 characters is longer than the limit of "
                     "198") != NULL, "%s", mb_last_error());
    unlink(path);
}
