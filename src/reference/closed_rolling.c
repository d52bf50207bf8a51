/* closed_rolling.c -- a solid sphere sliding on a plane until it rolls, then slowed by a
 * constant rolling-resistance torque (equations in mb_closed_rolling.h, derived in
 * doc/dem.md "Sliding into rolling").  Used by the sliding-rolling problem and its
 * tests. */
#include "mb_closed_rolling.h"
#include "mb_status.h"

#include <math.h>

int mb_closed_rolling_events(const mb_rolling_params *p, mb_rolling_events *e)
{
    if (!(p->m > 0 && p->I > 0 && p->a > 0 && p->g > 0 && p->mu > 0 && p->M >= 0))
        MB_ERROR(MB_EDOM, "sliding-rolling: need m, I, a, g, mu > 0 and M >= 0");
    if (!(p->v0 >= 0 && p->w0 >= 0))
        MB_ERROR(MB_EDOM, "sliding-rolling: need v0 >= 0 and w0 >= 0 (motion along +x)");
    double s0 = p->v0 - p->a * p->w0, sigma = s0 > 0 ? 1.0 : s0 < 0 ? -1.0 : 0.0;
    e->alpha = (sigma * p->mu * p->m * p->g * p->a - p->M) / p->I;
    double rate = sigma * p->mu * p->g + p->a * e->alpha;       /* -ds/dt */
    if (sigma != 0 && !(rate * sigma > 0))
        MB_ERROR(MB_EDOM, "sliding-rolling: the slip never ends (the rolling torque M = %g "
                 "exceeds the friction's moment mu m g a = %g)", p->M, p->mu * p->m * p->g * p->a);
    e->t_onset = sigma == 0 ? 0.0 : s0 / rate;
    e->v_onset = p->v0 - sigma * p->mu * p->g * e->t_onset;
    e->x_onset = p->v0 * e->t_onset - 0.5 * sigma * p->mu * p->g * e->t_onset * e->t_onset;
    e->theta_onset = p->w0 * e->t_onset + 0.5 * e->alpha * e->t_onset * e->t_onset;
    if (p->w0 + e->alpha * e->t_onset < 0 || (p->w0 == 0 && e->alpha < 0))
        MB_ERROR(MB_EDOM, "sliding-rolling: the spin would reverse while sliding (the rolling "
                 "torque's sign is then not the assumed one)");
    e->decel = p->M * p->a / (p->I + p->m * p->a * p->a);
    if (e->decel > p->mu * p->g)
        MB_ERROR(MB_EDOM, "sliding-rolling: rolling resistance needs a friction m d = %g beyond "
                 "mu m g = %g: the sphere would slide again", p->m * e->decel,
                 p->mu * p->m * p->g);
    if (e->decel > 0) {
        e->t_stop = e->t_onset + e->v_onset / e->decel;
        e->x_stop = e->x_onset + 0.5 * e->v_onset * e->v_onset / e->decel;
    } else {
        e->t_stop = e->x_stop = INFINITY;
    }
    return MB_SUCCESS;
}

int mb_closed_rolling_state(const mb_rolling_params *p, double t, double *x, double *v,
                            double *theta, double *w)
{
    mb_rolling_events e;
    int st = mb_closed_rolling_events(p, &e);
    if (st != MB_SUCCESS)
        return st;
    if (t <= e.t_onset) {
        double sigma = p->v0 > p->a * p->w0 ? 1.0 : -1.0;
        *v = p->v0 - sigma * p->mu * p->g * t;
        *x = p->v0 * t - 0.5 * sigma * p->mu * p->g * t * t;
        *w = p->w0 + e.alpha * t;
        *theta = p->w0 * t + 0.5 * e.alpha * t * t;
        return MB_SUCCESS;
    }
    double tau = fmin(t, e.t_stop) - e.t_onset;          /* rolling time, frozen at rest */
    double dx = e.v_onset * tau - 0.5 * e.decel * tau * tau;
    *x = e.x_onset + dx;
    *theta = e.theta_onset + dx / p->a;
    *v = t >= e.t_stop ? 0.0 : e.v_onset - e.decel * tau;
    *w = *v / p->a;
    return MB_SUCCESS;
}
