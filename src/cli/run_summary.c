/* run_summary.c -- the terminal summary and CI log of `motionbench run` (run_summary.h). */
#include "run_summary.h"
#include "cli.h"
#include "mb_metrics.h"
#include "mb_number_text.h"
#include "mb_status.h"
#include "mb_text.h"

#include <math.h>
#include <string.h>

static const char *const quantities[4] = { "position", "velocity", "orientation",
                                           "angular_velocity" };

/* "dt=0.01 " or "" for an order over the dt list */
static void dt_label(const mb_case *c, long j, char *buf, size_t size)
{
    if (j >= 0)
        snprintf(buf, size, " dt=%.6g", c->dt[j]);
    else
        buf[0] = '\0';
}

static void value_text(const mb_metric_value *m, char *buf, size_t size)
{
    if (m == NULL)
        snprintf(buf, size, "no value");
    else if (m->word)
        snprintf(buf, size, "%s", m->word);
    else
        snprintf(buf, size, "%.6g", m->value);
}

/* index of an integrator spec in the case's [run] list (n_integrators when absent) */
static size_t integrator_index(const mb_case *c, const char *integrator)
{
    size_t a = 0;
    while (a < c->n_integrators && strcmp(c->integrators[a], integrator) != 0)
        a++;
    return a;
}

/* Why a value is missing: the runs of that integrator that did not finish. */
static void missing_reason(const mb_case_result *r, const mb_expectation *e, long j,
                           char *buf, size_t size)
{
    const mb_case *c = r->c;
    size_t a = integrator_index(c, e->integrator);
    buf[0] = '\0';
    for (size_t k = 0; k < c->n_dt && a < c->n_integrators; k++) {
        const mb_run_result *u = &r->runs[a * c->n_dt + k];
        if ((j >= 0 && (size_t)j != k) || u->status == MB_RUN_OK)
            continue;
        char detail[160 + sizeof MB_TEXT_CUT_MARK];   /* its first 160 bytes */
        mb_text_format(buf, size, "; the run at dt=%.6g %s: %s", c->dt[k],
                       mb_run_status_name(u->status),
                       mb_text_clip(detail, sizeof detail, mb_run_status_value(u).detail));
        return;
    }
    if (mb_metric_is_aggregate(e->metric))
        snprintf(buf, size, "; no order fitted (fewer than 2 usable points, or every error "
                 "below the round-off floor)");
    else
        snprintf(buf, size, "; the run does not produce this metric");
}

/* For an order expectation: "; flags F; pairwise 2.01 (dt 0.01 -> 0.005), ..." -- the
 * fit's warnings and the orders between consecutive used steps, which show a ladder
 * that is not yet asymptotic or is saturated.  Empty for other metrics. */
static void order_evidence(const mb_case_result *r, const mb_expectation *e, char *buf,
                           size_t size)
{
    buf[0] = '\0';
    size_t a = integrator_index(r->c, e->integrator);
    if (strncmp(e->metric, "order.", 6) != 0 || strchr(e->metric + 6, '.') != NULL
        || a >= r->c->n_integrators)
        return;
    char name[80];
    size_t len = 0;
    snprintf(name, sizeof name, "%s.flags", e->metric);
    const mb_metric_value *fl = mb_case_find_aggregate(r, a, name);
    if (fl && fl->word && strcmp(fl->word, "none") != 0)
        len += (size_t)snprintf(buf + len, size - len, "; flags %s", fl->word);
    snprintf(name, sizeof name, "%s.pairwise", e->metric);
    int first = 1;
    for (size_t k = 0; k < r->n_agg[a] && len < size; k++) {
        const mb_metric_value *pw = &r->agg[a][k];
        if (strcmp(pw->name, name) != 0)
            continue;
        len += (size_t)snprintf(buf + len, size - len, "%s%.3g (%s)", first ? "; pairwise " : ", ",
                                pw->value, pw->detail);
        first = 0;
    }
    if (first && len < size)
        snprintf(buf + len, size - len, "; no pairwise order (fewer than 2 usable points)");
}

/* "FAILED integrator dt=...: expectation: value V" with the reason when missing, the
 * detail of a word, and for orders the flags and pairwise orders */
static void verdict_line(const mb_case_result *r, const mb_expectation *e, long j,
                         const mb_metric_value *m, mb_verdict v, char *buf, size_t size)
{
    char dt[48], val[64], why[240] = "", evidence[400] = "";
    char detail[200 + sizeof MB_TEXT_CUT_MARK];       /* a detail's first 200 bytes */
    dt_label(r->c, j, dt, sizeof dt);
    value_text(m, val, sizeof val);
    if (v == MB_VERDICT_MISSING)
        missing_reason(r, e, j, why, sizeof why);
    else if (m && m->word && m->detail[0])
        mb_text_format(why, sizeof why, " (%s)", mb_text_clip(detail, sizeof detail, m->detail));
    if (v != MB_VERDICT_PASS && j < 0)
        order_evidence(r, e, evidence, sizeof evidence);
    mb_text_format(buf, size, "%s%s: expected %s, got %s%s%s", e->integrator, dt, e->text, val,
                   why, evidence);
}

static void print_failure(void *ctx, const mb_case_result *r, const mb_expectation *e, long j,
                          const mb_metric_value *m, mb_verdict v)
{
    if (v == MB_VERDICT_PASS || v == MB_VERDICT_SKIPPED)   /* skipped: counted apart */
        return;
    char line[1200];
    verdict_line(r, e, j, m, v, line, sizeof line);
    fprintf((FILE *)ctx, "  %s %s: %s\n", v == MB_VERDICT_FAIL ? "FAILED " : "MISSING", r->c->name,
            line);
}

static void count_failure(void *ctx, const mb_case_result *r, const mb_expectation *e, long j,
                          const mb_metric_value *m, mb_verdict v)
{
    (void)r, (void)e, (void)j, (void)m;
    *(size_t *)ctx += v == MB_VERDICT_FAIL || v == MB_VERDICT_MISSING;
}

/* the value an expectation of this integrator names, at the finest dt */
static const mb_metric_value *named_value(const mb_case_result *r, size_t a, const char *metric)
{
    const mb_case *c = r->c;
    if (mb_metric_is_aggregate(metric))
        return mb_case_find_aggregate(r, a, metric);
    return mb_run_find_metric(&r->runs[a * c->n_dt + c->n_dt - 1], metric);
}

static void print_orders(FILE *out, const mb_case_result *r, size_t a)
{
    for (int q = 0; q < 4; q++) {
        char name[64];
        snprintf(name, sizeof name, "order.%s", quantities[q]);
        const mb_metric_value *o = mb_case_find_aggregate(r, a, name);
        if (o == NULL)
            continue;
        snprintf(name, sizeof name, "order.%s.stderr", quantities[q]);
        const mb_metric_value *se = mb_case_find_aggregate(r, a, name);
        if (se && isfinite(se->value))
            fprintf(out, "  %s %.3f +- %.2g", quantities[q], o->value, se->value);
        else
            fprintf(out, "  %s %.3f", quantities[q], o->value);
        snprintf(name, sizeof name, "order.%s.flags", quantities[q]);
        const mb_metric_value *fl = mb_case_find_aggregate(r, a, name);
        if (fl && fl->word && strcmp(fl->word, "none") != 0)
            fprintf(out, " [%s]", fl->word);
    }
}

static void print_expected_values(FILE *out, const mb_case_result *r, size_t a)
{
    const mb_case *c = r->c;
    for (size_t k = 0; k < c->n_expect; k++) {
        const mb_expectation *e = &c->expect[k];
        if (strcmp(e->integrator, c->integrators[a]) != 0 || e->dt_index >= 0
            || !strcmp(e->metric, "status"))
            continue;
        int seen = 0;   /* each metric once */
        for (size_t p = 0; p < k && !seen; p++)
            seen = !strcmp(c->expect[p].integrator, e->integrator)
                   && !strcmp(c->expect[p].metric, e->metric) && c->expect[p].dt_index < 0;
        if (seen)
            continue;
        char val[64];
        value_text(named_value(r, a, e->metric), val, sizeof val);
        fprintf(out, "  %s %s", e->metric, val);
    }
}

/* 1 when an [expect] entry of integrator a names this status for run j (all steps or
 * this one): a negative control, whose run is meant to stop early. */
static int status_expected(const mb_case *c, size_t a, size_t j, mb_run_status status)
{
    const char *word = mb_run_status_name(status);
    for (size_t k = 0; k < c->n_expect; k++) {
        const mb_expectation *e = &c->expect[k];
        if (e->op == MB_EXPECT_WORD && !strcmp(e->metric, "status")
            && !strcmp(e->integrator, c->integrators[a])
            && (e->dt_index < 0 || (size_t)e->dt_index == j) && !strcmp(e->word, word))
            return 1;
    }
    return 0;
}

/* " (1 diverged, expected; 1 skipped)": what became of the runs that did not finish */
static void print_unfinished(FILE *out, const mb_case_result *r, size_t a)
{
    const mb_case *c = r->c;
    size_t count[MB_RUN_SKIPPED + 1][2] = { { 0 } };
    for (size_t j = 0; j < c->n_dt; j++) {
        mb_run_status s = r->runs[a * c->n_dt + j].status;
        if (s != MB_RUN_OK)
            count[s][status_expected(c, a, j, s)]++;
    }
    const char *sep = " (";
    for (int s = MB_RUN_DIVERGED; s <= MB_RUN_SKIPPED; s++)
        for (int expected = 1; expected >= 0; expected--)
            if (count[s][expected]) {
                fprintf(out, "%s%zu %s%s", sep, count[s][expected],
                        mb_run_status_name((mb_run_status)s), expected ? ", expected" : "");
                sep = "; ";
            }
    if (sep[0] == ';')
        fputc(')', out);
}

static void print_case_table(FILE *out, const mb_case_result *r)
{
    const mb_case *c = r->c;
    int width = 10;
    for (size_t a = 0; a < c->n_integrators; a++)
        if ((int)strlen(c->integrators[a]) > width)
            width = (int)strlen(c->integrators[a]);
    fprintf(out, "%s (%s, %zu dt%s)\n", c->name, c->problem->name, c->n_dt,
            c->n_dt == 1 ? "" : "s");
    for (size_t a = 0; a < c->n_integrators; a++) {
        size_t ok = 0;
        for (size_t j = 0; j < c->n_dt; j++)
            ok += r->runs[a * c->n_dt + j].status == MB_RUN_OK;
        fprintf(out, "  %-*s  %zu/%zu ok", width, c->integrators[a], ok, c->n_dt);
        print_unfinished(out, r, a);
        if (r->n_agg[a] > 0)
            print_orders(out, r, a);
        else
            print_expected_values(out, r, a);
        fputc('\n', out);
    }
}

static const char legend[] =
    "\nn/N ok: runs of the integrator that reached t_end, of the case's N time steps; runs\n"
    "that stopped early are counted by status, 'expected' when the case expects it (a negative\n"
    "control).  Orders: observed order +- standard error over the dt list; [flags] when points\n"
    "were left out (excluded: run not finished, below the round-off floor or saturated), the\n"
    "pairwise orders both rise and fall (non-monotone) or the used points span less than half\n"
    "of the decades of dt asked for (short-range); see doc/runner.md.\n";

void mb_run_summary_print(FILE *out, const mb_case_result *r, size_t n, int quiet)
{
    if (!quiet) {
        for (size_t i = 0; i < n; i++)
            print_case_table(out, &r[i]);
        if (n > 0)
            fputs(legend, out);
    }
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        mb_case_visit_checks(&r[i], count_failure, &bad);
    if (bad)
        fprintf(out, "%s%zu expectation%s not met:\n", quiet ? "" : "\n", bad,
                bad == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
        mb_case_visit_checks(&r[i], print_failure, out);
}

void mb_run_summary_unfinished(FILE *err, const mb_case_result *r, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < r[i].c->n_integrators * r[i].c->n_dt; k++)
            total += r[i].runs[k].status != MB_RUN_OK;
    if (total == 0)
        return;
    fprintf(err, "motionbench: %zu run%s did not reach t_end:\n", total, total == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        const mb_case *c = r[i].c;
        for (size_t a = 0; a < c->n_integrators; a++)
            for (size_t j = 0; j < c->n_dt; j++) {
                const mb_run_result *u = &r[i].runs[a * c->n_dt + j];
                if (u->status == MB_RUN_OK)
                    continue;
                mb_metric_value st = mb_run_status_value(u);
                char dt[40];
                mb_number_text(dt, sizeof dt, c->dt[j]);
                fprintf(err, "  %s %s dt=%s: %s%s: %s\n", c->name, c->integrators[a], dt,
                        mb_run_status_name(u->status),
                        status_expected(c, a, j, u->status) ? " (expected)" : "",
                        st.detail[0] ? st.detail : "no reason recorded");
            }
    }
}

typedef struct ci_adder { mb_ci_log *L; int status; } ci_adder;

static void add_test(void *ctx, const mb_case_result *r, const mb_expectation *e, long j,
                     const mb_metric_value *m, mb_verdict v)
{
    ci_adder *w = ctx;
    char name[400], dt[48], line[700];
    dt_label(r->c, j, dt, sizeof dt);
    snprintf(name, sizeof name, "%s%s: %s", e->integrator, dt, e->text);
    if (v == MB_VERDICT_FAIL || v == MB_VERDICT_MISSING)
        verdict_line(r, e, j, m, v, line, sizeof line);
    if (v == MB_VERDICT_SKIPPED)
        snprintf(line, sizeof line, "the run was skipped (an outside program declined)");
    if (w->status == MB_SUCCESS)
        w->status = mb_ci_add(w->L, r->c->name, name, v == MB_VERDICT_PASS ? NULL : line,
                              v == MB_VERDICT_SKIPPED);
}

int mb_run_summary_ci(mb_ci_log *L, const mb_case_result *r, size_t n)
{
    ci_adder w = { L, MB_SUCCESS };
    for (size_t i = 0; i < n; i++)
        mb_case_visit_checks(&r[i], add_test, &w);
    return w.status;
}

void mb_run_summary_outside(FILE *err, const mb_report_summary *sum, const char *dir)
{
    if (sum->skipped || sum->external_failed)
        fprintf(err, "motionbench: outside programs: %zu run%s failed, %zu check%s skipped "
                "(reasons in %s/runs.csv)\n", sum->external_failed,
                sum->external_failed == 1 ? "" : "s", sum->skipped, sum->skipped == 1 ? "" : "s",
                dir);
}

int mb_run_summary_exit_code(const mb_report_summary *sum)
{
    return sum->failed || sum->missing || sum->external_failed ? MB_EXIT_FAIL : MB_EXIT_OK;
}
