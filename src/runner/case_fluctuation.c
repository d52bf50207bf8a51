/* case_fluctuation.c -- the fluctuation order of each integrator of a case over its time
 * steps (statistics_from = T; doc/statistics.md).
 *
 * The finished runs' energy.fluctuation s_k and energy.fluctuation.stderr se_k are fitted
 * as s = A dt^p by weighted least squares in logs (mb_stat_power_fit, series_stats.c):
 *   energy.fluctuation_order           p (detail: dt range, chi^2 and its p-value)
 *   energy.fluctuation_order.stderr    its standard error (Birge-widened)
 *   energy.fluctuation_order.pairwise  one row per consecutive pair, keyed by the finer dt
 *                                      (detail: the dt pair and the standard error)
 *   energy.fluctuation_order.flags     none, or joined by '+':
 *     below-order    p + 3 stderr < the scheme's nominal order (steppers.def, or the
 *                    `order` of an outside program's descriptor; none declared: no such
 *                    flag): the fluctuation shrinks more slowly than the
 *                    scheme's truncation error (Merz & Shirts: a non-smooth potential,
 *                    imprecise constraints)
 *     non-power-law  the chi^2 of the fit has p < 0.001: the fluctuation is no single power
 *                    of dt over the ladder -- what a force that jumps at the cutoff does to
 *                    it at small dt
 * A run that did not finish, or whose fluctuation is zero or missing, is left out. */
#include "mb_external.h"
#include "mb_metrics.h"
#include "mb_runner.h"
#include "mb_status.h"
#include "mb_stepper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NON_POWER_LAW_P 1e-3   /* chi^2 p-value below which the ladder is no power law */
#define BELOW_ORDER_SE 3.0     /* standard errors below the nominal order that flag */

/* the order an outside program's descriptor declares (order = P), 0 when none */
static int declared_order(const mb_case *c, const char *spec)
{
    mb_external_spec x;
    mb_adapter *a = NULL;
    char dir[4096];
    const char *slash = c->path ? strrchr(c->path, '/') : NULL;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - c->path) : 1, slash ? c->path : ".");
    int order = 0;
    if (mb_external_spec_parse(spec, &x) == MB_SUCCESS
        && mb_adapter_find(x.name, dir, &a) == MB_SUCCESS)
        order = a->order;
    mb_adapter_free(a);
    mb_clear_error();
    return order;
}

/* the nominal translation order of a registered scheme, or the one an outside program's
 * descriptor declares; 0 when unknown */
static int nominal_order(const mb_case *c, const char *spec)
{
    if (mb_external_is_spec(spec))
        return declared_order(c, spec);
    const mb_stepper_type *type;
    mb_options *opts;
    if (mb_stepper_parse(spec, &type, &opts) != MB_SUCCESS) {
        mb_clear_error();
        return 0;
    }
    mb_options_free(opts);
    return type->order;
}

const char *mb_fluctuation_flags_word(unsigned flags)
{
    static const char *const words[4] = { "none", "below-order", "non-power-law",
                                          "below-order+non-power-law" };
    return words[flags & 3u];
}

static unsigned flags_of(const mb_power_fit *f, int nominal)
{
    unsigned below = nominal > 0 && f->order + BELOW_ORDER_SE * f->stderr_ < (double)nominal;
    unsigned non_power = f->p_value < NON_POWER_LAW_P;
    return below | non_power << 1;
}

static const mb_metric_value *find(const mb_run_result *run, const char *name)
{
    for (size_t k = 0; k < run->n_metrics; k++)
        if (strcmp(run->metrics[k].name, name) == 0)
            return &run->metrics[k];
    return NULL;
}

static mb_metric_value *emit(mb_case_result *r, size_t i, const char *name, double v,
                             const char *detail)
{
    mb_metric_value *m = realloc(r->agg[i], (r->n_agg[i] + 1) * sizeof *m);
    if (m == NULL)
        return NULL;
    r->agg[i] = m;
    m = &r->agg[i][r->n_agg[i]++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->value = v;
    snprintf(m->detail, sizeof m->detail, "%s", detail ? detail : "");
    return m;
}

static void fit_integrator(mb_case_result *r, size_t i)
{
    const mb_case *c = r->c;
    double dt[MB_ORDER_MAX_POINTS], s[MB_ORDER_MAX_POINTS], se[MB_ORDER_MAX_POINTS];
    size_t n = 0;
    for (size_t j = 0; j < c->n_dt && n < MB_ORDER_MAX_POINTS; j++) {
        const mb_run_result *run = &r->runs[i * c->n_dt + j];
        const mb_metric_value *v = find(run, "energy.fluctuation");
        const mb_metric_value *e = find(run, "energy.fluctuation.stderr");
        if (run->status != MB_RUN_OK || !v || !e || !(v->value > 0.0) || !(e->value > 0.0))
            continue;
        dt[n] = c->dt[j];
        s[n] = v->value;
        se[n] = e->value;
        n++;
    }
    /* the dt list is sorted on loading; the fit wants increasing dt */
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0 && dt[b - 1] > dt[b]; b--) {
            double t;
            t = dt[b]; dt[b] = dt[b - 1]; dt[b - 1] = t;
            t = s[b]; s[b] = s[b - 1]; s[b - 1] = t;
            t = se[b]; se[b] = se[b - 1]; se[b - 1] = t;
        }
    mb_power_fit f;
    if (n < 2 || mb_stat_power_fit(n, dt, s, se, &f) != MB_SUCCESS) {
        mb_clear_error();
        return;
    }
    char detail[200];
    snprintf(detail, sizeof detail, "dt in [%.6g, %.6g], %zu points, chi^2 %.3g, p %.3g", dt[0],
             dt[n - 1], n, f.chi2, f.p_value);
    emit(r, i, "energy.fluctuation_order", f.order, detail);
    emit(r, i, "energy.fluctuation_order.stderr", f.stderr_, NULL);
    for (size_t k = 0; k < f.n_pairwise; k++) {
        snprintf(detail, sizeof detail, "dt %.6g -> %.6g, stderr %.3g", dt[k + 1], dt[k],
                 f.pairwise_stderr[k]);
        mb_metric_value *m = emit(r, i, "energy.fluctuation_order.pairwise", f.pairwise[k],
                                  detail);
        if (m)
            m->at_dt = f.pairwise_dt[k];
    }
    mb_metric_value *m = emit(r, i, "energy.fluctuation_order.flags", NAN, NULL);
    if (m)
        m->word = mb_fluctuation_flags_word(flags_of(&f, nominal_order(c, c->integrators[i])));
}

int mb_case_fluctuation_order(mb_case_result *r)
{
    if (!r->c->statistics || r->c->n_dt < 2)
        return MB_SUCCESS;
    for (size_t i = 0; i < r->c->n_integrators; i++)
        fit_integrator(r, i);
    return MB_SUCCESS;
}
