/* energy_track.c -- energy metrics along a run (DESIGN 3 and 6).
 *
 * With E = E_kin + E_pot, E0 its initial value, W_ext(t) the work external loads (constant
 * forces and torques, expression forces) have done since t = 0 and S the scale of
 * relative errors, the metrics judge the change of energy the physics does not explain:
 *   d(t) = E(t) - E0 - W_ext(t)
 * (W_ext = 0 on a system without external loads, where d = E - E0).  W_ext is exact for
 * constant global forces and Gregory's O(h^6) rule on the power of the others (the
 * runner, src/runner/run_one.c; doc/metrics.md).
 *   S = C0, the energy content at t = 0: kinetic plus the magnitude of each potential
 *   term (mb_energy.h; gravity counts sum m |g| |x|), never the signed total E0, which
 *   can vanish by cancellation (a pendulum released horizontally has E0 = 6e-16 J of
 *   round-off; a parabolic Kepler orbit has E0 = 0 exactly) while the system holds
 *   energy; when C0 is at round-off level against the content after the first step (a
 *   system released from rest at zero potential), S = C1 after the first step; 1 J when
 *   all vanish.
 *   energy.max_rel_error    = max_t |d(t)| / S
 *   energy.drift_rate       = least-squares slope of r(t) = d(t) / S against t
 *                             (gsl_fit_linear over the samples), in 1/s
 *   energy.balance_residual = max_t |d(t) + W_diss(t)| / S
 * The divergence test (|d| > factor S) uses the same d and S: a driven system whose
 * energy grows by the work done on it has not blown up.
 * The slope is accumulated as running sums so no sample array is kept; it is then the
 * same closed form gsl_fit_linear evaluates (computed here from centred sums). */
#include "mb_metrics.h"

#include <math.h>
#include <string.h>

/* the content of e; at least E_kin + |E_pot| (for energies filled in by hand) */
static double content_of(const mb_energy *e)
{
    double c = e->kinetic_trans + e->kinetic_rot + fabs(e->potential);
    return e->content > c ? e->content : c;
}

void mb_energy_track_begin(mb_energy_track *tr, const mb_energy *e0)
{
    memset(tr, 0, sizeof *tr);
    tr->e0 = e0->total;
    tr->scale = content_of(e0);
    tr->scale_at_start = tr->scale;
    if (!(tr->scale > 0.0))
        tr->scale = 1.0;
    mb_energy_track_add(tr, 0.0, e0);
}

/* d = E - E0 - W_ext */
static double unexplained_change(const mb_energy_track *tr, const mb_energy *e)
{
    return e->total - tr->e0 - e->external;
}

static double max_abs(double m, double v)
{
    v = fabs(v);
    return (v > m || isnan(v)) ? v : m;
}

void mb_energy_track_add(mb_energy_track *tr, double t, const mb_energy *e)
{
    double r = unexplained_change(tr, e) / tr->scale;
    double b = (e->total + e->dissipated - e->external - tr->e0) / tr->scale;
    tr->max_rel = max_abs(tr->max_rel, r);
    tr->max_balance = max_abs(tr->max_balance, b);
    tr->last_rel = r;
    if (e->dissipated != 0.0 || e->external != 0.0)
        tr->dissipative = 1;
    tr->n++;
    tr->st += t;
    tr->sy += r;
    tr->stt += t * t;
    tr->sty += t * r;
}

void mb_energy_track_first_step(mb_energy_track *tr, const mb_energy *e1)
{
    double s1 = content_of(e1);
    /* only the t = 0 sample (r = 0) has been taken: rescaling changes no sum */
    if (tr->n <= 1 && tr->scale_at_start < 1e-12 * s1)
        tr->scale = s1;
}

double mb_energy_track_drift(const mb_energy_track *tr)
{
    if (tr->n < 2)
        return NAN;
    double n = (double)tr->n, mt = tr->st / n, my = tr->sy / n;
    double sxx = tr->stt - n * mt * mt, sxy = tr->sty - n * mt * my;
    if (!(sxx > 0.0))
        return NAN;
    return sxy / sxx;
}

int mb_energy_blown_up(const mb_energy_track *tr, const mb_energy *e, double factor)
{
    double d = fabs(unexplained_change(tr, e));
    return !(d <= factor * tr->scale);
}
