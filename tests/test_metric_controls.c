/* test_metric_controls.c -- every metric of src/metrics/metrics.def declares its negative
 * control, and the control shows the metric flagging a wrong scheme.
 *
 * A control is a case file (the `control` field of the metric's line): it runs a wrong
 * scheme (a negative-control scheme, a scheme outside its range of validity, or a setting
 * that contradicts the closed form the case compares with) and holds the metric to a bound
 * that the wrong run must cross -- an inequality expectation (<, <=, >, >=) on the metric --
 * usually beside the right scheme held to the other side.  Here every named control must
 * exist, parse, expect an inequality on its metric, and pass all its expectations when run.
 * Where no registered scheme or setting can make a metric wrong, the control is a test
 * (FILE.c:NAME, run by make check) that makes the wrong scheme itself; it must exist and
 * name the metric.
 * A metric may say "none: why" only when it judges no scheme by itself: a count, a word,
 * a ratio compared with its own closed form, a closed form, a standard error.  Negative
 * controls of this test: a verdict metric without a control, a control that does not
 * mention its metric, and a control whose bound the run does not cross, are refused. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_case.h"
#include "mb_metrics.h"
#include "mb_problem.h"
#include "mb_runner.h"
#include "mb_scene.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "test_files.h"

/* 1 when a metric of this kind and name may declare no control */
static int may_have_none(const mb_metric_info *m)
{
    size_t n = strlen(m->name);
    int stderr_ = n > 7 && strcmp(m->name + n - 7, ".stderr") == 0;
    return m->kind == MB_METRIC_RATIO || m->kind == MB_METRIC_COUNT
           || m->kind == MB_METRIC_STATUS || stderr_;
}

static int is_inequality(mb_expect_op op)
{
    return op == MB_EXPECT_LT || op == MB_EXPECT_LE || op == MB_EXPECT_GT || op == MB_EXPECT_GE;
}

/* NULL when the declaration is acceptable without running it, else the fault */
static const char *declaration_fault(const mb_metric_info *m)
{
    if (m->control == NULL || m->control[0] == '\0')
        return "no negative control declared";
    if (strncmp(m->control, "none: ", 6) == 0)
        return may_have_none(m) ? NULL : "a verdict metric (error, order, drift) needs a control";
    size_t n = strlen(m->control);
    if ((n < 6 || strcmp(m->control + n - 5, ".case") != 0) && strstr(m->control, ".c:") == NULL)
        return "a control is a case file, a test FILE.c:NAME, or 'none: why'";
    return NULL;
}

static char *slurp(const char *path)
{
    return tf_read_file(path, NULL);
}

/* A control FILE.c:NAME: the file defines Test(suite, NAME) and names the metric (as
 * "a.b" or as the field a_b); make check runs it. */
static int test_control_exists(const mb_metric_info *m)
{
    char path[4096], field[64], test[128];
    const char *src = getenv("MB_SRCDIR"), *colon = strstr(m->control, ".c:") + 2;
    snprintf(path, sizeof path, "%s/%.*s", src ? src : MB_SRCDIR, (int)(colon - m->control),
             m->control);
    snprintf(test, sizeof test, ", %s)", colon + 1);
    snprintf(field, sizeof field, "%s", m->name);
    for (char *c = field; *c; c++)
        if (*c == '.')
            *c = '_';
    char *text = slurp(path);
    if (text == NULL) {
        cr_log_info("%s: no file %s", m->name, path);
        return 0;
    }
    const char *t = strstr(text, test);
    int found = t != NULL && (t - text) >= 5;
    while (found && t > text && t[-1] != '(' )
        t--;
    found = found && t - text >= 5 && strncmp(t - 5, "Test(", 5) == 0;
    int named = strstr(text, m->name) != NULL || strstr(text, field) != NULL;
    free(text);
    if (!found || !named)
        cr_log_info("%s: %s %s", m->name, m->control,
                     !found ? "defines no such Test" : "does not name the metric");
    return found && named;
}

/* The verdicts of one run case: failures counted, and whether an inequality expectation
 * on `metric` was met. */
typedef struct tally {
    const char *metric;
    int failed, bound_met;
} tally;

static void count_verdict(void *ctx, const mb_case_result *r, const mb_expectation *e, long j,
                          const mb_metric_value *m, mb_verdict v)
{
    tally *t = ctx;
    (void)r; (void)j; (void)m;
    if (v != MB_VERDICT_PASS) {
        cr_log_info("%s: %s: %s", r->c->path, e->text, mb_verdict_name(v));
        t->failed++;
    } else if (strcmp(e->metric, t->metric) == 0 && is_inequality(e->op)) {
        t->bound_met = 1;
    }
}

/* The control cases run so far, each once: metrics that share a control read its one run
 * (the process's lifetime; Criterion runs every test in a process of its own). */
#define CONTROL_RUNS_MAX 64
static struct control_run {
    char path[4096];
    mb_case *c;
    mb_case_result *r;
} control_runs[CONTROL_RUNS_MAX];
static size_t n_control_runs;

/* The run of the case at path, made now or earlier; NULL when the case does not load */
static const mb_case_result *control_run(const char *path, const char *metric)
{
    for (size_t k = 0; k < n_control_runs; k++)
        if (strcmp(control_runs[k].path, path) == 0)
            return control_runs[k].r;
    cr_assert_lt(n_control_runs, CONTROL_RUNS_MAX, "more control cases than CONTROL_RUNS_MAX");
    struct control_run *run = &control_runs[n_control_runs];
    if (mb_case_load(path, &run->c) != MB_SUCCESS) {
        cr_log_info("%s: %s", metric, mb_last_error());
        return NULL;
    }
    mb_runner_options opt = { .jobs = 1, .repeat = 1 };
    cr_assert_eq(mb_runner_run(&run->c, 1, &opt, &run->r), MB_SUCCESS, "%s", mb_last_error());
    snprintf(run->path, sizeof run->path, "%s", path);
    n_control_runs++;
    return run->r;
}

static void control_runs_free(void)
{
    for (size_t k = 0; k < n_control_runs; k++) {
        mb_case_result_free(control_runs[k].r, 1);
        mb_case_free(control_runs[k].c);
    }
    n_control_runs = 0;
}

/* The control of m holds: a test control exists (make check runs it); a case control is
 * loaded and run, expects an inequality on m, and every expectation of it passes. */
static int control_holds(const mb_metric_info *m)
{
    if (strstr(m->control, ".c:") != NULL)
        return test_control_exists(m);
    char path[4096];
    const char *src = getenv("MB_SRCDIR");
    snprintf(path, sizeof path, "%s/%s", src ? src : MB_SRCDIR, m->control);
    const mb_case_result *r = control_run(path, m->name);
    if (r == NULL)
        return 0;
    tally t = { .metric = m->name };
    mb_case_visit_checks(r, count_verdict, &t);
    if (!t.bound_met)
        cr_log_info("%s: %s holds it to no bound that passed", m->name, m->control);
    return t.failed == 0 && t.bound_met;
}

Test(metric_controls, every_metric_declares_a_control_that_holds, .fini = control_runs_free)
{
    size_t n;
    const mb_metric_info *table = mb_metric_infos(&n);
    int ran = 0;
    for (size_t k = 0; k < n; k++) {
        const mb_metric_info *m = &table[k];
        const char *fault = declaration_fault(m);
        cr_expect(fault == NULL, "%s: %s", m->name, fault);
        if (fault != NULL || strncmp(m->control, "none: ", 6) == 0)
            continue;
        cr_expect(control_holds(m), "%s: its control %s does not show it flagging a wrong "
                  "scheme", m->name, m->control);
        ran++;
    }
    cr_expect(ran >= 20, "only %d controls ran", ran);
}

/* negative controls of the declarations: a verdict metric without a control or with
 * "none" is refused; a count may say none */
Test(metric_controls, declaration_controls)
{
    mb_metric_info missing = { .name = "error.thing", .kind = MB_METRIC_ERROR, .control = "" };
    mb_metric_info none = { .name = "order.thing", .kind = MB_METRIC_ORDER,
                            .control = "none: it is fine" };
    mb_metric_info count = { .name = "thing.count", .kind = MB_METRIC_COUNT,
                             .control = "none: a count" };
    mb_metric_info not_case = { .name = "error.thing", .kind = MB_METRIC_ERROR,
                                .control = "tests/test_metrics.c" };
    mb_metric_info no_test = { .name = "bounce.restitution_error", .kind = MB_METRIC_ERROR,
                               .control = "tests/test_metric_controls.c:no_such_test" };
    cr_expect_not(test_control_exists(&no_test), "a control test that does not exist passed");
    cr_expect_not_null(declaration_fault(&missing));
    cr_expect_not_null(declaration_fault(&none));
    cr_expect_null(declaration_fault(&count));
    cr_expect_not_null(declaration_fault(&not_case));
}

/* negative controls of the run: a control case of another metric (it holds this one to
 * no bound) and a control whose bound the run does not cross are refused */
Test(metric_controls, run_controls, .fini = control_runs_free)
{
    const mb_metric_info *pos = mb_metric_lookup("error.position");
    cr_assert_not_null(pos);
    mb_metric_info other = *pos;
    other.name = "error.orientation";
    cr_expect_not(control_holds(&other), "a control of error.position passed for %s",
                  other.name);
    mb_metric_info wrong = *pos;
    wrong.control = "tests/data/controls/bound-not-crossed.case";
    cr_expect_not(control_holds(&wrong), "a bound the wrong scheme does not cross passed");
}

/* ---- controls written here ---- */

/* bounce.restitution_error of bouncing-sphere: solfec applies the Newton law exactly, so no
 * registered scheme or setting can make it differ; the wrong scheme is made here -- the
 * built system's impact law given e = 0.5 where the problem (and its closed form) says
 * 0.63 -- and bounce.restitution_error must report |0.5 - 0.63| = 0.13 (to the 8 ulp of e that
 * the right law reaches, test_solfec_problems.c), the right law below 1e-12. */
static double bounce_restitution_error_of(double e_used)
{
    const mb_problem_type *pt;
    mb_options *params;
    mb_system *sys;
    cr_assert_eq(mb_problem_prepare("bouncing-sphere", NULL, &pt, &params), MB_SUCCESS);
    cr_assert_eq(pt->setup(params, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_scene *scene = (mb_scene *)mb_scene_of(sys->forces);
    cr_assert_not_null(scene);
    scene->e = e_used;                        /* the law of every pair of materials */
    for (size_t k = 0; k < scene->nmaterials * scene->nmaterials; k++)
        scene->pair_e[k] = e_used;
    mb_stepper *st = mb_stepper_alloc("solfec", sys);
    mb_nodes *on = mb_nodes_alloc(sys->nodes->n, 53);
    cr_assert(st != NULL && on != NULL, "%s", mb_last_error());
    void *ctx;
    cr_assert_eq(pt->observe_begin(&ctx, params, sys), MB_SUCCESS);
    for (int k = 0; k < 1500; k++) {          /* 1.5 s: the drop and the first rebound */
        cr_assert_eq(mb_stepper_step(st, sys, 1e-3), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_on_step(st, sys, on), MB_SUCCESS);
        cr_assert_eq(pt->observe_step(ctx, sys, on), MB_SUCCESS);
    }
    mb_observation obs;
    cr_assert_eq(pt->observe_end(ctx, &obs), MB_SUCCESS);
    double err = NAN;
    for (size_t k = 0; k < obs.count; k++)
        if (strcmp(obs.items[k].name, "bounce.restitution_error") == 0)
            err = obs.items[k].value;
    mb_nodes_free(on);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(params);
    return err;
}

Test(metric_controls, bounce_restitution_error_flags_a_wrong_impact_law)
{
    double right = bounce_restitution_error_of(0.63), wrong = bounce_restitution_error_of(0.5);
    cr_expect(right < 1e-12, "the right law: bounce.restitution_error %g", right);
    cr_expect(fabs(wrong - 0.13) < 1e-12, "the wrong law: bounce.restitution_error %g, not 0.13", wrong);
}
