/* checks.c -- every verdict of a case, in report order (DESIGN 7, mb_runner.h).
 *
 * Each [expect] entry is judged on the value it names: an order once per integrator,
 * any other metric once per run (or on the one run its "@DT" selects); a run that lacks
 * the metric gives the verdict "missing".  Then every run whose status no [expect]
 * entry mentions is judged against the implied expectation "status = ok": a run that
 * diverged or failed where the case did not say it would is a failure, not a silence.
 * The CSV report, the terminal summary and the CI formats all read the verdicts here. */
#include "mb_external.h"
#include "mb_metrics.h"
#include "mb_runner.h"
#include "mb_text.h"

#include <stdio.h>
#include <string.h>

const char *const mb_implied_status_text = "status = ok (implied: no status expectation)";

static size_t integrator_index(const mb_case *c, const char *spec)
{
    for (size_t a = 0; a < c->n_integrators; a++)
        if (strcmp(c->integrators[a], spec) == 0)
            return a;
    return 0;   /* the case file guarantees the spec is listed */
}

mb_metric_value mb_run_status_value(const mb_run_result *u)
{
    mb_metric_value m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "status");
    m.word = mb_run_status_name(u->status);
    if (u->diverged_step)
        mb_text_format(m.detail, sizeof m.detail, "step %ld, t = %.17g: %s", u->diverged_step,
                       u->diverged_time, u->message);
    else if (u->status != MB_RUN_OK)
        mb_text_format(m.detail, sizeof m.detail, "%s", u->message);
    return m;
}

mb_metric_value mb_run_steps_value(const mb_run_result *u)
{
    mb_metric_value m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "steps");
    m.value = (double)u->steps;
    return m;
}

const mb_metric_value *mb_run_find_metric(const mb_run_result *u, const char *name)
{
    for (size_t m = 0; m < u->n_metrics; m++)
        if (strcmp(u->metrics[m].name, name) == 0)
            return &u->metrics[m];
    return NULL;
}

const mb_metric_value *mb_case_find_aggregate(const mb_case_result *r, size_t a,
                                              const char *name)
{
    for (size_t m = 0; m < r->n_agg[a]; m++)
        if (strcmp(r->agg[a][m].name, name) == 0)
            return &r->agg[a][m];
    return NULL;
}

/* a value of a skipped run is not there to judge, except the status word itself */
static mb_verdict verdict(const mb_expectation *e, const mb_metric_value *m, int skipped)
{
    return skipped && strcmp(e->metric, "status") != 0 ? MB_VERDICT_SKIPPED
                                                        : mb_expectation_holds(e, m);
}

static void visit_expectation(const mb_case_result *r, const mb_expectation *e,
                              mb_check_visitor fn, void *ctx)
{
    const mb_case *c = r->c;
    size_t a = integrator_index(c, e->integrator);
    if (mb_metric_is_aggregate(e->metric)) {
        const mb_metric_value *m = mb_case_find_aggregate(r, a, e->metric);
        /* a pairwise row asked @DT: the row keyed by that (finer) dt */
        for (size_t k = 0; e->dt_index >= 0 && k < r->n_agg[a]; k++)
            if (strcmp(r->agg[a][k].name, e->metric) == 0
                && r->agg[a][k].at_dt == c->dt[e->dt_index])
                m = &r->agg[a][k];
        int skipped = 0;
        for (size_t j = 0; j < c->n_dt; j++)
            skipped |= r->runs[a * c->n_dt + j].status == MB_RUN_SKIPPED;
        fn(ctx, r, e, -1, m, verdict(e, m, skipped));
        return;
    }
    for (size_t j = 0; j < c->n_dt; j++) {
        if (e->dt_index >= 0 && (size_t)e->dt_index != j)
            continue;
        const mb_run_result *u = &r->runs[a * c->n_dt + j];
        mb_metric_value st = mb_run_status_value(u), steps = mb_run_steps_value(u);
        const mb_metric_value *m;
        if (strcmp(e->metric, "status") == 0)
            m = &st;
        else if (strcmp(e->metric, "steps") == 0)
            m = &steps;
        else
            m = mb_run_find_metric(u, e->metric);
        fn(ctx, r, e, (long)j, m, verdict(e, m, u->status == MB_RUN_SKIPPED));
    }
}

/* 1 when some [expect] entry judges the status of run (a, j) */
static int status_expected(const mb_case *c, size_t a, size_t j)
{
    for (size_t k = 0; k < c->n_expect; k++) {
        const mb_expectation *e = &c->expect[k];
        if (strcmp(e->metric, "status") == 0 && strcmp(e->integrator, c->integrators[a]) == 0
            && (e->dt_index < 0 || (size_t)e->dt_index == j))
            return 1;
    }
    return 0;
}

static void visit_implied_status(const mb_case_result *r, mb_check_visitor fn, void *ctx)
{
    const mb_case *c = r->c;
    for (size_t a = 0; a < c->n_integrators; a++)
        for (size_t j = 0; j < c->n_dt && !mb_external_is_spec(c->integrators[a]); j++) {
            const mb_run_result *u = &r->runs[a * c->n_dt + j];
            if (u->status == MB_RUN_OK || status_expected(c, a, j))
                continue;
            mb_expectation e;
            memset(&e, 0, sizeof e);
            e.integrator = c->integrators[a];
            e.metric = (char *)"status";
            e.op = MB_EXPECT_WORD;
            strcpy(e.word, "ok");
            e.text = (char *)mb_implied_status_text;
            e.dt_index = (long)j;
            mb_metric_value st = mb_run_status_value(u);
            fn(ctx, r, &e, (long)j, &st, mb_expectation_holds(&e, &st));
        }
}

void mb_case_visit_checks(const mb_case_result *r, mb_check_visitor fn, void *ctx)
{
    for (size_t k = 0; k < r->c->n_expect; k++)
        visit_expectation(r, &r->c->expect[k], fn, ctx);
    visit_implied_status(r, fn, ctx);
}
