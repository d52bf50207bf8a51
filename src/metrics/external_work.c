/* external_work.c -- W_ext(t), the work external loads have done on a system since t = 0,
 * along a run advanced step by step (the runner, src/runner/run_one.c, and `motionbench
 * simulate`): the one home of the rule that the energy metrics subtract (doc/metrics.md,
 * energy_track.c: d(t) = E(t) - E0 - W_ext(t)).
 *
 * A model that knows its work over a step exactly (mb_forces_external_work_exact: a
 * constant global force, F.(x+ - x)) has it summed step by step; the power of every other
 * load (mb_forces_external_power_inexact) is integrated by Gregory's O(h^6) rule
 * (work_track.c) while the step stays the h given at the start.  From the first step of
 * another length on (a shortened last step, an adaptive step) that rule no longer applies:
 * the value reached is kept and the rest is integrated by the trapezoid rule,
 * W += h (P_n + P_{n+1}) / 2 (second order). */
#include "mb_metrics.h"
#include "mb_status.h"

#include <math.h>

int mb_external_work_begin(mb_external_work *w, const mb_forces *F, const mb_nodes *on,
                           double h)
{
    w->exact = w->frozen = 0.0;
    w->variable = 0;
    w->before = NULL;
    w->p_last = mb_forces_external_power_inexact(F, on, 0.0);
    mb_work_track_begin(&w->quadrature, h, w->p_last);
    if (!mb_forces_has_exact_work(F))
        return MB_SUCCESS;
    w->before = mb_nodes_alloc(on->n, 53);
    if (w->before == NULL)
        MB_ERROR(MB_ENOMEM, "cannot keep a state of %zu nodes", on->n);
    return mb_nodes_copy(w->before, on);
}

/* the quadrature part after a step of h ending with power p */
static double quadrature_step(mb_external_work *w, double p, double h)
{
    if (!w->variable && fabs(h - w->quadrature.h) > 1e-12 * w->quadrature.h) {
        w->variable = 1;
        w->frozen = mb_work_track_value(&w->quadrature);
    }
    if (w->variable)
        w->frozen += 0.5 * h * (w->p_last + p);
    else
        mb_work_track_add(&w->quadrature, p);
    w->p_last = p;
    return w->variable ? w->frozen : mb_work_track_value(&w->quadrature);
}

double mb_external_work_step(mb_external_work *w, const mb_forces *F, const mb_nodes *on,
                             double t, double h)
{
    double q = quadrature_step(w, mb_forces_external_power_inexact(F, on, t), h);
    if (w->before) {
        w->exact += mb_forces_external_work_exact(F, w->before, on, h);
        mb_nodes_copy(w->before, on);     /* same shape: cannot fail */
    }
    return w->exact + q;
}

void mb_external_work_free(mb_external_work *w)
{
    mb_nodes_free(w->before);
    w->before = NULL;
}
