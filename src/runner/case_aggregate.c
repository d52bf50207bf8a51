/* case_aggregate.c -- metrics over the dt list of each integrator of a case: the observed
 * orders of convergence (DESIGN 6, src/metrics/order_fit.c).
 *
 * For each quantity q in position, velocity (on-step, synchronized), orientation and
 * angular velocity that the problem has, the errors of the finished runs are fitted:
 *   order.q           slope (detail: the dt range used)
 *   order.q.stderr    its standard error (>= 3 points)
 *   order.q.points    points used
 *   order.q.excluded  points excluded (detail: how many for each reason)
 *   order.q.pairwise  one row per consecutive pair of used points, keyed by the finer dt
 *                     of the pair (detail: the dt pair)
 *   order.q.flags     "none" or the warnings on the fit (excluded, non-monotone,
 *                     short-range; src/metrics/order_fit.c)
 * A quantity whose errors are all below the floor gets no rows.  The round-off floor of
 * the run with N steps is mb_roundoff_floor(S, N, d): S the scale of q in the reference
 * (max norm of the reference position, velocity, ... over nodes and runs; 1 rad for
 * orientations), d the size of the state.
 * Cases with statistics_from also get the fluctuation order (case_fluctuation.c). */
#include "mb_metrics.h"
#include "mb_runner.h"
#include "mb_status.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const quantities[4] = { "position", "velocity", "orientation",
                                           "angular_velocity" };

static mb_metric_value *push(mb_case_result *r, size_t i, size_t *cap)
{
    if (r->n_agg[i] == *cap) {
        size_t c2 = *cap ? 2 * *cap : 16;
        mb_metric_value *m = realloc(r->agg[i], c2 * sizeof *m);
        if (m == NULL)
            return NULL;
        r->agg[i] = m;
        *cap = c2;
    }
    mb_metric_value *m = &r->agg[i][r->n_agg[i]++];
    memset(m, 0, sizeof *m);
    return m;
}

static mb_metric_value *emit(mb_case_result *r, size_t i, size_t *cap, const char *q,
                             const char *suffix, double v, const char *detail)
{
    char name[64];
    snprintf(name, sizeof name, "order.%s%s", q, suffix);
    /* only metrics declared in src/metrics/metrics.def can be produced */
    assert(mb_metric_known(name));
    mb_metric_value *m = mb_metric_known(name) ? push(r, i, cap) : NULL;
    if (m == NULL)
        return NULL;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->value = v;
    snprintf(m->detail, sizeof m->detail, "%s", detail ? detail : "");
    return m;
}

static void emit_flags(mb_case_result *r, size_t i, size_t *cap, const char *q,
                       const mb_order_fit *f)
{
    mb_metric_value *m = emit(r, i, cap, q, ".flags", NAN, NULL);
    if (m)
        m->word = mb_order_flags_word(f->flags);
}

static void fit_quantity(mb_case_result *r, size_t i, size_t *cap, int q)
{
    const mb_case *c = r->c;
    double dt[MB_ORDER_MAX_POINTS], err[MB_ORDER_MAX_POINTS], scale = 0.0;
    double floor[MB_ORDER_MAX_POINTS], floor_lo = INFINITY, floor_hi = 0.0;
    int valid[MB_ORDER_MAX_POINTS], present = 0;
    size_t state_size = 0;
    for (size_t j = 0; j < c->n_dt; j++) {
        const mb_run_result *run = &r->runs[i * c->n_dt + j];
        dt[j] = c->dt[j];
        err[j] = run->err[q];
        valid[j] = run->status == MB_RUN_OK;
        if (valid[j]) {
            present |= q < 2 ? run->translates : run->rotates;
            if (run->scale[q] > scale)
                scale = run->scale[q];
            if (run->state_size > state_size)
                state_size = run->state_size;
        }
    }
    if (!present)
        return;
    for (size_t j = 0; j < c->n_dt; j++) {
        floor[j] = mb_roundoff_floor(scale, c->steps[j], state_size);
        floor_lo = fmin(floor_lo, floor[j]);
        floor_hi = fmax(floor_hi, floor[j]);
    }
    mb_order_fit f;
    if (mb_order_fit_compute_floors(c->n_dt, dt, err, valid, floor, &f) != MB_SUCCESS)
        return;
    /* every error at round-off: the problem does not exercise this quantity (a rigid body
     * at rest in translation, a scheme exact on the problem): no order to report */
    if (f.excluded_roundoff == f.n)
        return;
    char detail[160] = "";
    double lo = 0, hi = 0;
    for (size_t k = 0; k < f.n; k++)
        if (f.why[k] == MB_ORDER_USED) {
            if (lo == 0) lo = f.dt[k];
            hi = f.dt[k];
        }
    if (f.points >= 2)
        snprintf(detail, sizeof detail, "dt in [%.6g, %.6g]", lo, hi);
    else
        snprintf(detail, sizeof detail, "fewer than 2 usable points");
    emit(r, i, cap, quantities[q], "", f.order, detail);
    emit(r, i, cap, quantities[q], ".stderr", f.stderr_, f.points < 3 ? "needs 3 points" : NULL);
    emit(r, i, cap, quantities[q], ".points", (double)f.points, NULL);
    snprintf(detail, sizeof detail, "not finished %zu; below round-off floor %.3g..%.3g: %zu; "
             "saturated %zu", f.excluded_invalid, floor_lo, floor_hi, f.excluded_roundoff,
             f.excluded_saturated);
    emit(r, i, cap, quantities[q], ".excluded",
         (double)(f.excluded_invalid + f.excluded_roundoff + f.excluded_saturated), detail);
    for (size_t k = 0; k < f.n_pairwise; k++) {
        snprintf(detail, sizeof detail, "dt %.6g -> %.6g", f.pairwise_dt[k][1],
                 f.pairwise_dt[k][0]);
        mb_metric_value *m = emit(r, i, cap, quantities[q], ".pairwise", f.pairwise[k], detail);
        if (m)
            m->at_dt = f.pairwise_dt[k][0];
    }
    emit_flags(r, i, cap, quantities[q], &f);
}

int mb_case_aggregate(mb_case_result *r)
{
    const mb_case *c = r->c;
    if (c->n_dt >= 2 && c->has_reference)
        for (size_t i = 0; i < c->n_integrators; i++) {
            size_t cap = 0;
            for (int q = 0; q < 4; q++)
                fit_quantity(r, i, &cap, q);
        }
    /* statistics_from: the fluctuation order, with or without a reference */
    return mb_case_fluctuation_order(r);
}
