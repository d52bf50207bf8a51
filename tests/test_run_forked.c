/* test_run_forked.c -- one run in a forked child (mb_run_forked.h): the message from the
 * child to the parent and its validation, and the verdicts on a child that crashes, exits,
 * hangs, sends a result that does not match what was asked, or is cancelled.
 *
 * The expected result of a forked run is the same run in this process (cases/free-fall.case,
 * leap-frog, with its series): a result that crosses the pipe must arrive bit for bit, and
 * the steps, times and sizes every corrupted message is checked against are those of the
 * case as loaded (130 steps of 0.01), not figures of the code under test. */
#include "mb_cancel.h"
#include "mb_case.h"
#include "mb_run_forked.h"
#include "mb_runner.h"
#include "mb_status.h"

#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LEAPFROG 2          /* cases/free-fall.case: explicit-euler, symplectic-euler, leapfrog */

static mb_case *load_free_fall(void)
{
    char path[4096];
    const char *s = getenv("MB_SRCDIR");
    snprintf(path, sizeof path, "%s/cases/free-fall.case", s ? s : MB_SRCDIR);
    mb_case *c = NULL;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(c->steps[0], 130);
    return c;
}

/* the run of the case in this process, with its series */
static void in_process(const mb_case *c, size_t i, size_t j, int keep, mb_run_result *r)
{
    mb_run_one(c, i, j, keep, r);
}

/* equal as reported: every field but the series pointer and its capacity, and the run's
 * own timings (both results start from zeroed memory: padding compares equal) */
static void expect_same_result(const mb_run_result *a, const mb_run_result *b)
{
    mb_run_result x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    x.series = y.series = NULL;
    x.cap_series = y.cap_series = 0;
    x.wall = y.wall = x.cpu = y.cpu = 0.0;
    cr_expect_eq(memcmp(&x, &y, sizeof x), 0, "the results differ");
    cr_assert_eq(a->n_series, b->n_series);
    cr_expect_eq(memcmp(a->series, b->series, a->n_series * sizeof *a->series), 0,
                 "the series differ");
}

Test(run_forked, result_crosses_the_pipe_bit_for_bit)
{
    mb_case *c = load_free_fall();
    mb_run_result here, there;
    in_process(c, LEAPFROG, 0, 1, &here);
    cr_assert_eq(here.status, MB_RUN_OK, "%s", here.message);
    cr_assert_gt(here.n_series, 100, "the series should be long enough to fill a pipe's "
                 "buffer partly: %zu", here.n_series);
    mb_run_forked(c, LEAPFROG, 0, 1, in_process, &there);
    cr_assert_eq(there.status, MB_RUN_OK, "%s", there.message);
    expect_same_result(&here, &there);
    free(here.series);
    free(there.series);
    mb_case_free(c);
}

/* A run that stops early crosses the pipe as it is: explicit Euler at h w = 1 on the
 * oscillator of cases/harmonic-explicit-euler-blowup.case, which the case expects to
 * diverge (its energy grows by (1 + h^2 w^2) = 2 a step). */
Test(run_forked, diverged_run_crosses_the_pipe)
{
    char path[4096];
    const char *src = getenv("MB_SRCDIR");
    snprintf(path, sizeof path, "%s/cases/harmonic-explicit-euler-blowup.case",
             src ? src : MB_SRCDIR);
    mb_case *c = NULL;
    cr_assert_eq(mb_case_load(path, &c), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(c->dt[0], 1.0);
    mb_run_result here, there;
    in_process(c, 0, 0, 1, &here);
    cr_assert_eq(here.status, MB_RUN_DIVERGED, "%s", here.message);
    cr_assert_lt(here.steps_done, here.steps);
    mb_run_forked(c, 0, 0, 1, in_process, &there);
    cr_assert_eq(there.status, MB_RUN_DIVERGED, "%s", there.message);
    expect_same_result(&here, &there);
    free(here.series);
    free(there.series);
    mb_case_free(c);
}

/* ---- decoding: one corruption at a time of a good message ---- */

typedef struct fixture {
    mb_case *c;
    mb_run_result r;
    mb_run_asked ask;
} fixture;

static void fixture_make(fixture *F)
{
    F->c = load_free_fall();
    in_process(F->c, LEAPFROG, 0, 1, &F->r);
    cr_assert_eq(F->r.status, MB_RUN_OK);
    F->ask = (mb_run_asked){ F->c->steps[0], F->c->dt[0], 1 };
}

static void fixture_free(fixture *F)
{
    free(F->r.series);
    mb_case_free(F->c);
}

/* decode r as sent; 1 when accepted, else why holds the reason */
static int decode(const mb_run_result *r, const mb_run_asked *ask, char *why, size_t size)
{
    unsigned char *buf = NULL;
    size_t n = mb_run_result_encode(r, &buf);
    cr_assert_gt(n, 0);
    mb_run_result out;
    int st = mb_run_result_decode(buf, n, ask, &out, why, size);
    free(buf);
    free(out.series);
    free(out.probes);
    return st == MB_SUCCESS;
}

static void expect_refused(const mb_run_result *r, const mb_run_asked *ask, const char *words)
{
    char why[200] = "";
    cr_expect(!decode(r, ask, why, sizeof why), "accepted, should be refused for: %s", words);
    cr_expect(strstr(why, words) != NULL, "reason '%s' does not say '%s'", why, words);
}

Test(run_forked, good_message_accepted)
{
    fixture F;
    fixture_make(&F);
    char why[200] = "";
    cr_expect(decode(&F.r, &F.ask, why, sizeof why), "%s", why);
    fixture_free(&F);
}

Test(run_forked, wrong_sizes_refused)
{
    fixture F;
    fixture_make(&F);
    unsigned char *buf = NULL;
    size_t n = mb_run_result_encode(&F.r, &buf);
    mb_run_result out;
    char why[200];
    cr_expect_neq(mb_run_result_decode(buf, n - 1, &F.ask, &out, why, sizeof why), MB_SUCCESS,
                  "a message one byte short");
    cr_expect(strstr(why, "bytes for") != NULL, "%s", why);
    cr_expect_neq(mb_run_result_decode(buf, 10, &F.ask, &out, why, sizeof why), MB_SUCCESS,
                  "a message shorter than the header");
    unsigned char *longer = malloc(n + 1);
    memcpy(longer, buf, n);
    longer[n] = 0;
    cr_expect_neq(mb_run_result_decode(longer, n + 1, &F.ask, &out, why, sizeof why),
                  MB_SUCCESS, "a message one byte long");
    buf[0] ^= 0x20;
    cr_expect_neq(mb_run_result_decode(buf, n, &F.ask, &out, why, sizeof why), MB_SUCCESS,
                  "a message with another magic");
    cr_expect(strstr(why, "not a result of this program") != NULL, "%s", why);
    free(longer);
    free(buf);
    fixture_free(&F);
}

Test(run_forked, result_other_than_asked_refused)
{
    fixture F;
    fixture_make(&F);
    mb_run_result r = F.r;
    r.steps = 129;
    expect_refused(&r, &F.ask, "129 steps, 130 were asked");
    r = F.r;
    r.steps_done = 129;            /* an ok run did every step */
    expect_refused(&r, &F.ask, "129 steps done of 130");
    r = F.r;
    r.steps_done = 131;
    expect_refused(&r, &F.ask, "131 steps done of 130");
    r = F.r;
    r.t_final = nextafter(r.t_final, 2.0);    /* one ulp: not 130 * 0.01 */
    expect_refused(&r, &F.ask, "final time");
    mb_run_asked other = F.ask;
    other.h = 0.02;                /* the same result for another step */
    expect_refused(&F.r, &other, "final time");
    r = F.r;
    r.status = MB_RUN_DIVERGED;
    r.diverged_step = 131;
    r.steps_done = 130;
    expect_refused(&r, &F.ask, "stopped at step 131");
    fixture_free(&F);
}

Test(run_forked, malformed_fields_refused)
{
    fixture F;
    fixture_make(&F);
    mb_run_result r = F.r;
    r.status = (mb_run_status)7;
    expect_refused(&r, &F.ask, "status 7");
    r = F.r;
    r.status = MB_RUN_SKIPPED;     /* only an outside program declines */
    expect_refused(&r, &F.ask, "not a status of a run");
    r = F.r;
    memset(r.message, 'x', sizeof r.message);
    expect_refused(&r, &F.ask, "message is not terminated");
    r = F.r;
    r.reference_used = (mb_reference_kind)9;
    expect_refused(&r, &F.ask, "reference kind 9");
    r = F.r;
    r.translates = 2;
    expect_refused(&r, &F.ask, "translates/rotates");
    r = F.r;
    r.wall = NAN;
    expect_refused(&r, &F.ask, "wall or CPU time");
    fixture_free(&F);
}

Test(run_forked, metrics_checked)
{
    fixture F;
    fixture_make(&F);
    cr_assert_gt(F.r.n_metrics, 0);
    mb_run_result r = F.r;
    r.n_metrics = MB_RUN_MAX_METRICS + 1;
    expect_refused(&r, &F.ask, "metrics, at most");
    r = F.r;
    snprintf(r.metrics[0].name, sizeof r.metrics[0].name, "energy.made_up");
    expect_refused(&r, &F.ask, "'energy.made_up' is not declared");
    r = F.r;
    memset(r.metrics[0].detail, 'y', sizeof r.metrics[0].detail);
    expect_refused(&r, &F.ask, "not terminated");
    r = F.r;
    r.metrics[0].word = "ok";      /* a pointer of the child's address space */
    expect_refused(&r, &F.ask, "not a per-run value");
    fixture_free(&F);
}

Test(run_forked, series_checked)
{
    fixture F;
    fixture_make(&F);
    mb_run_result r = F.r;
    size_t n = r.n_series;
    mb_series_sample *s = malloc(n * sizeof *s);
    r.series = s;
    memcpy(s, F.r.series, n * sizeof *s);
    s[1].t += 0.5 * F.ask.h;        /* between two steps */
    expect_refused(&r, &F.ask, "series sample 1");
    memcpy(s, F.r.series, n * sizeof *s);
    s[2].t = s[1].t;                /* not after the previous sample */
    expect_refused(&r, &F.ask, "series sample 2");
    memcpy(s, F.r.series, n * sizeof *s);
    s[n - 1].t = F.r.t_final + F.ask.h;    /* after the run's end */
    expect_refused(&r, &F.ask, "not a time of the run");
    memcpy(s, F.r.series, n * sizeof *s);
    s[0].t = NAN;
    expect_refused(&r, &F.ask, "series sample 0");
    memcpy(s, F.r.series, n * sizeof *s);
    mb_run_asked no_series = F.ask;
    no_series.keep_series = 0;
    expect_refused(&r, &no_series, "none were asked");
    r.series_held = 1;
    expect_refused(&r, &F.ask, "malformed");
    free(s);
    fixture_free(&F);
}

/* ---- the child's end ---- */

static void segfaults(const mb_case *c, size_t i, size_t j, int keep, mb_run_result *r)
{
    (void)c; (void)i; (void)j; (void)keep; (void)r;
    volatile int *volatile nowhere = NULL;
    *nowhere = 1;
}

static void exits_zero(const mb_case *c, size_t i, size_t j, int keep, mb_run_result *r)
{
    (void)c; (void)i; (void)j; (void)keep; (void)r;
    exit(0);
}

static void exits_five(const mb_case *c, size_t i, size_t j, int keep, mb_run_result *r)
{
    (void)c; (void)i; (void)j; (void)keep; (void)r;
    exit(5);
}

static void hangs(const mb_case *c, size_t i, size_t j, int keep, mb_run_result *r)
{
    (void)c; (void)i; (void)j; (void)keep; (void)r;
    for (;;)
        pause();
}

/* a run that claims one step fewer than asked, with status ok */
static void short_of_steps(const mb_case *c, size_t i, size_t j, int keep, mb_run_result *r)
{
    mb_run_one(c, i, j, keep, r);
    r->steps_done--;
}

static void expect_failed(mb_run_body *body, const char *message)
{
    mb_case *c = load_free_fall();
    mb_run_result r;
    mb_run_forked(c, LEAPFROG, 0, 0, body, &r);
    cr_expect_eq(r.status, MB_RUN_FAILED, "status %s", mb_run_status_name(r.status));
    cr_expect(strstr(r.message, message) != NULL, "message '%s', expected '%s'", r.message,
              message);
    cr_expect_eq(r.steps, 130, "the steps asked are reported");
    cr_expect_eq(r.n_metrics, 0);
    cr_expect(isnan(r.err[0]), "no error without a result");
    mb_case_free(c);
}

Test(run_forked, crash_is_a_failed_run)
{
    expect_failed(segfaults, "plug-in killed by signal 11 (Segmentation fault)");
}

Test(run_forked, exit_is_a_failed_run)
{
    expect_failed(exits_zero, "plug-in called exit(0)");
    expect_failed(exits_five, "plug-in called exit(5)");
}

Test(run_forked, result_not_asked_is_a_failed_run)
{
    expect_failed(short_of_steps, "plug-in result: 129 steps done of 130");
}

/* .timeout: a child that is never killed would hang the test; Criterion fails it instead */
Test(run_forked, time_limit, .timeout = 30)
{
    mb_case *c = load_free_fall();
    c->external_timeout = 0.3;
    mb_run_result r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mb_run_forked(c, LEAPFROG, 0, 0, hangs, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    cr_expect_eq(r.status, MB_RUN_FAILED);
    cr_expect(strstr(r.message, "time limit of 0.3 s exceeded") != NULL, "%s", r.message);
    /* the limit, plus one polling period (50 ms) and the kill, on a loaded machine */
    cr_expect(took >= 0.3 && took < 2.0, "took %g s", took);
    cr_expect(r.wall >= 0.3, "the wall time of a killed run is the parent's: %g", r.wall);
    mb_case_free(c);
}

static void *cancel_later(void *arg)
{
    (void)arg;
    struct timespec pause = { 0, 200 * 1000000L };
    nanosleep(&pause, NULL);
    mb_cancel_request(SIGTERM);
    return NULL;
}

Test(run_forked, cancellation_kills_the_child, .timeout = 30)
{
    mb_case *c = load_free_fall();
    pthread_t t;
    pthread_create(&t, NULL, cancel_later, NULL);
    mb_run_result r;
    mb_run_forked(c, LEAPFROG, 0, 0, hangs, &r);   /* default limit: 600 s */
    pthread_join(t, NULL);
    mb_cancel_reset();
    cr_expect_eq(r.status, MB_RUN_INTERRUPTED, "status %s: %s", mb_run_status_name(r.status),
                 r.message);
    cr_expect_lt(r.wall, 5.0, "the cancellation took %g s", r.wall);
    mb_case_free(c);
}

/* Probes ([run] probe) cross the pipe value for value; more probes, or probes of another
 * node count, than the case asks are refused. */
Test(run_forked, probes_round_trip_and_shape_checked)
{
    fixture F;
    fixture_make(&F);
    double values[2 * MB_PROBE_VALUES];
    for (int k = 0; k < 2 * MB_PROBE_VALUES; k++)
        values[k] = 0.1 * k - 2.385;
    mb_run_result r = F.r;
    r.probe_nodes = 1;
    r.n_probes_kept = 2;
    r.probes = values;
    mb_run_asked ask = F.ask;
    ask.n_probes = 2;
    ask.nodes = 1;
    unsigned char *buf = NULL;
    size_t n = mb_run_result_encode(&r, &buf);
    mb_run_result out;
    char why[200] = "";
    cr_assert_eq(mb_run_result_decode(buf, n, &ask, &out, why, sizeof why), MB_SUCCESS, "%s", why);
    cr_expect_eq(out.n_probes_kept, 2);
    cr_expect_eq(out.probe_nodes, 1);
    cr_expect(out.probes != NULL && memcmp(out.probes, values, sizeof values) == 0,
              "the probe values changed on the way");
    free(out.series);
    free(out.probes);
    free(buf);
    mb_run_asked fewer = ask;
    fewer.n_probes = 1;
    expect_refused(&r, &fewer, "probe values");
    mb_run_asked wider = ask;
    wider.nodes = 2;
    expect_refused(&r, &wider, "nodes were asked");
    fixture_free(&F);
}
