/* case_expectations.c -- the [expect] and [check] sections of a case file (DESIGN 7,
 * doc/cases.md): each key names an integrator listed in [run] and a metric that some run
 * of the case produces; the values follow case_expect.c's grammar. */
#include "case_load.h"
#include "mb_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_metric(case_loader *P, const mb_ini_entry *e, const char *metric)
{
    /* every metric, those problems observe included, is declared in metrics.def */
    if (mb_metric_known(metric))
        return MB_SUCCESS;
    if (mb_metric_renamed(metric))
        return case_fail(P, e->line, "metric '%s' is now called '%s' (doc/metrics.md, Renamed "
                         "metrics)", metric, mb_metric_renamed(metric));
    return case_unknown_name(P, e->line, "metric", metric, "", mb_metric_names());
}

/* "KEY@DT": the index of DT among the time steps (as written or as snapped), else -1 */
static int split_dt(case_loader *P, const mb_ini_entry *e, char *key, long *index)
{
    *index = -1;
    char *at = strchr(key, '@');
    if (at == NULL)
        return MB_SUCCESS;
    *at = '\0';
    char *end;
    errno = 0;
    double dt = strtod(at + 1, &end);
    if (end == at + 1 || *end != '\0' || !(dt > 0.0) || !isfinite(dt))
        return case_fail(P, e->line, "%s: write INTEGRATOR.METRIC@DT with DT one of the time steps",
                         e->key);
    /* steps are at most 1e10 (add_dt): compare in double, a tiny dt overflows a long */
    double steps = nearbyint(P->c->t_end / dt);
    for (size_t j = 0; j < P->c->n_dt; j++)
        if (fabs(P->c->dt[j] - dt) <= 1e-9 * dt || (double)P->c->steps[j] == steps) {
            *index = (long)j;
            return MB_SUCCESS;
        }
    return case_fail(P, e->line, "%s: dt = %s is not one of the time steps of [run]", e->key,
                     at + 1);
}

/* An expectation on a metric that no run of this case can produce is a mistake in the
 * case file, found before anything runs (it would only show as "missing" afterwards). */
static int check_metric_produced(case_loader *P, const mb_ini_entry *e, const char *key,
                                 const char *metric)
{
    const mb_case *c = P->c;
    int order = strncmp(metric, "order.", 6) == 0;
    int growth = strncmp(metric, "error.growth_exponent", 21) == 0;
    int twin = !strcmp(metric, "roundoff.max_abs") || !strcmp(metric, "truncation.max_abs");
    int damping_ref = !strcmp(metric, "damping.ratio_error")
                      || !strcmp(metric, "damping.period_error");
    if (order && c->n_dt < 2)
        return case_fail(P, e->line, "%s: orders need at least 2 time steps (dt lists %zu)", key,
                         c->n_dt);
    if ((order || twin || damping_ref || strncmp(metric, "error.", 6) == 0)
        && !c->has_reference)
        return case_fail(P, e->line, "%s: needs a reference (the case has reference = none)", key);
    if (strncmp(metric, "damping.", 8) == 0 && c->damping_node < 0)
        return case_fail(P, e->line, "%s: needs damping_signal in [run]", key);
    if (damping_ref && (c->problem->exact == NULL || c->reference.kind == MB_REF_ODE
                        || c->reference.kind == MB_REF_MPFR))
        return case_fail(P, e->line, "%s: needs a closed-form reference (reference = analytic or "
                         "auto on a problem with one)", key);
    if ((!strcmp(metric, "restitution") || !strcmp(metric, "restitution_error")
         || !strcmp(metric, "contact.duration")) && c->problem->observe_end == NULL)
        return case_fail(P, e->line, "%s: problem '%s' observes nothing (restitution and "
                         "contact.duration come from contact problems)", key, c->problem->name);
    int stats = !strncmp(metric, "energy.fluctuation", 18)
                || !strncmp(metric, "energy.drift_per_particle", 25)
                || !strncmp(metric, "momentum.", 9);
    if (stats && !c->statistics)
        return case_fail(P, e->line, "%s: needs statistics_from = T in [run] (the statistical "
                         "window)", key);
    if (!strncmp(metric, "energy.fluctuation_order", 24) && c->n_dt < 2)
        return case_fail(P, e->line, "%s: the fluctuation order needs at least 2 time steps "
                         "(dt lists %zu)", key, c->n_dt);
    if (!strncmp(metric, "reversibility.", 14) && !c->reversibility)
        return case_fail(P, e->line, "%s: needs reversibility = on in [run]", key);
    if (growth && !c->error_growth)
        return case_fail(P, e->line, "%s: needs error_growth = on in [run]", key);
    if (strncmp(metric, "mass.", 5) == 0 && !c->mass_properties)
        return case_fail(P, e->line, "%s: needs mass_properties = on in [run]", key);
    if (twin && c->precision_bits <= 0)
        return case_fail(P, e->line, "%s: needs precision = mpfr:BITS in [run] (the MPFR twin "
                         "splits round-off from truncation)", key);
    return MB_SUCCESS;
}

static int load_expect(case_loader *P, const mb_ini_entry *e)
{
    mb_case *c = P->c;
    const char *integrator, *metric;
    char key[512];
    long dt_index;
    snprintf(key, sizeof key, "%s", e->key);
    if (split_dt(P, e, key, &dt_index))
        return P->error;
    if (mb_case_split_key(c, key, &integrator, &metric) != MB_SUCCESS)
        return case_fail_lib(P, e->line);
    if (check_metric(P, e, metric))
        return P->error;
    if (dt_index >= 0 && strcmp(metric, "energy.fluctuation_order.pairwise") != 0
        && mb_metric_is_aggregate(metric))
        return case_fail(P, e->line, "%s: orders are fitted over all time steps (drop the @DT)",
                         e->key);
    mb_expectation *x = &c->expect[c->n_expect];
    memset(x, 0, sizeof *x);
    if (mb_expect_parse_value(e->value, x) != MB_SUCCESS)
        return case_fail(P, e->line, "%s: %s", e->key, mb_last_error());
    x->dt_index = dt_index;
    int word = mb_metric_is_word(metric), status = !strcmp(metric, "status");
    if (word && status && (x->op != MB_EXPECT_WORD || !mb_expect_status_word(x->word)))
        return case_fail(P, e->line, "%s: the status is a word: ok, diverged or failed", e->key);
    if (word && !status && (x->op != MB_EXPECT_WORD || !mb_expect_flags_word(x->word)))
        return case_fail(P, e->line, "%s: order flags are none, or excluded, non-monotone, "
                         "short-range joined by '+' in that order", e->key);
    if (!word && x->op == MB_EXPECT_WORD)
        return case_fail(P, e->line, "%s: metric '%s' is a number, not '%s'", e->key, metric,
                         x->word);
    if (check_metric_produced(P, e, e->key, metric))
        return P->error;
    x->integrator = strdup(integrator);
    x->metric = strdup(metric);
    size_t len = strlen(e->key) + strlen(e->value) + 4;
    x->text = malloc(len);
    if (!x->integrator || !x->metric || !x->text)
        return case_fail(P, e->line, "out of memory");
    snprintf(x->text, len, "%s = %s", e->key, e->value);
    x->line = e->line;
    c->n_expect++;
    return MB_SUCCESS;
}

static int load_check(case_loader *P, const mb_ini_entry *e)
{
    mb_case *c = P->c;
    mb_check_override *o = &c->check[c->n_check];
    memset(o, 0, sizeof *o);
    const char *integrator = NULL, *metric = e->key;
    if (!mb_metric_known(e->key)) {
        if (mb_case_split_key(c, e->key, &integrator, &metric) != MB_SUCCESS) {
            if (strchr(e->key, '.') == NULL || strncmp(e->key, "order.", 6) == 0
                || strncmp(e->key, "error.", 6) == 0)
                return case_unknown_name(P, e->line, "metric", e->key, "", mb_metric_names());
            return case_fail_lib(P, e->line);
        }
        if (check_metric(P, e, metric))
            return P->error;
    }
    if (mb_tolerance_parse(e->value, &o->tolerance) != MB_SUCCESS)
        return case_fail(P, e->line, "%s: %s", e->key, mb_last_error());
    o->integrator = integrator ? strdup(integrator) : NULL;
    o->metric = strdup(metric);
    o->line = e->line;
    c->n_check++;
    return MB_SUCCESS;
}

/* [expect] and [check] in the order of the file (the first error is the first met). */
int case_load_expectations(case_loader *P)
{
    mb_case *c = P->c;
    const mb_ini_section *expect = mb_ini_section_find(P->doc, "expect");
    const mb_ini_section *check = mb_ini_section_find(P->doc, "check");
    size_t n_expect = expect ? expect->n : 0, n_check = check ? check->n : 0;
    c->expect = calloc(n_expect + 1, sizeof *c->expect);
    c->check = calloc(n_check + 1, sizeof *c->check);
    if (!c->expect || !c->check)
        return case_fail(P, 1, "out of memory");
    if (check && expect && check->line < expect->line) {
        for (size_t k = 0; k < n_check && !P->error; k++)
            load_check(P, &check->items[k]);
        check = NULL;
    }
    for (size_t k = 0; k < n_expect && !P->error; k++)
        load_expect(P, &expect->items[k]);
    for (size_t k = 0; k < n_check && check && !P->error; k++)
        load_check(P, &check->items[k]);
    return P->error;
}
