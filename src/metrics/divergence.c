/* divergence.c -- when a run has diverged (DESIGN 6): the one home of the rule, for the
 * built-in schemes, their MPFR twins and the replay of a trajectory returned by an outside
 * program or given to `score`.
 *
 * A run is diverged, never ok, when one of these holds:
 *  1. a state value (x, v, q, omega) is NaN or Inf;
 *  2. a position or velocity component is absurd: beyond MB_DIVERGENCE_FACTOR times the
 *     scale of the problem, derived from its state at t = 0 and its time span T:
 *         L = max |x0| + T max |v0| + T^2/2 max |a|,   V = max |v0| + T max |a|,
 *     |x| > 1e6 L or |v| > 1e6 V, with a = f/m of the unblocked degrees of freedom at
 *     t = 0 and at t = T (the largest component of either; forces that grow in time
 *     count), maxima over every node and component.  A value that far out of the range
 *     the problem can reach in T is an overflow in the making (x = 1e308), not an
 *     error to be measured; L = 0 (everything at rest at the origin, no force) or V = 0
 *     gives no bound and only rule 1 applies;
 *  3. the energy moves by more than MB_DIVERGENCE_FACTOR times its scale, less the work
 *     external loads did (|E - E0 - W_ext|: a driven system's gain is no blow-up;
 *     mb_energy_blown_up, energy_track.c);
 *  4. a measure of the run's accuracy overflowed: an error.*, energy.* or angmom.*
 *     metric is NaN or Inf.
 * The factor 1e6 is the one energy has always used for rule 3. */
#include "array_scan.h"
#include "mb_metrics.h"
#include "mb_forces.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const AXIS = "xyz";

/* max |f/m| over the unblocked translational degrees of freedom of s */
static double max_acceleration(const mb_nodes *s)
{
    double a = 0.0;
    for (size_t i = 0; i < s->n; i++)
        for (int k = 0; k < 3; k++)
            if (!(s->blocked[i] & (1u << k)))
                a = fmax(a, fabs(s->f[3 * i + k]) * s->inv_mass[i]);
    return a;
}

int mb_divergence_bound_of(const mb_system *sys, mb_nodes *scratch, double t_end,
                           mb_divergence_bound *b)
{
    const mb_nodes *s0 = sys->nodes;
    mb_nodes *s = scratch ? scratch : mb_nodes_alloc(s0->n, 53);
    if (s == NULL)
        return MB_ENOMEM;
    double a = 0.0;
    int st = mb_nodes_copy(s, s0);
    /* a force field that cannot be evaluated there adds nothing: the run reports it */
    for (int k = 0; k < 2 && st == MB_SUCCESS; k++)
        if (mb_forces_eval(sys->forces, s, k ? t_end : 0.0) == MB_SUCCESS)
            a = fmax(a, max_acceleration(s));
    if (s != scratch)
        mb_nodes_free(s);
    double x0 = mb_max_abs(s0->x, 3 * s0->n), v0 = mb_max_abs(s0->v, 3 * s0->n);
    double L = x0 + t_end * v0 + 0.5 * t_end * t_end * a, V = v0 + t_end * a;
    b->length = L;
    b->speed = V;
    b->position = L > 0.0 && isfinite(L) ? MB_DIVERGENCE_FACTOR * L : INFINITY;
    b->velocity = V > 0.0 && isfinite(V) ? MB_DIVERGENCE_FACTOR * V : INFINITY;
    return st;
}

static int not_finite(const double *v, size_t n, size_t per, const char *names, char *why,
                      size_t size)
{
    for (size_t k = 0; k < n * per; k++)
        if (!isfinite(v[k])) {
            snprintf(why, size, "node %zu: %s%c = %g is not finite", k / per,
                     per == 4 ? "q" : names, per == 4 ? "wxyz"[k % 4] : AXIS[k % 3], v[k]);
            return 1;
        }
    return 0;
}

static int beyond(const double *v, size_t n, double bound, double scale, const char *name,
                  const char *what, char *why, size_t size)
{
    for (size_t k = 0; k < 3 * n; k++)
        if (fabs(v[k]) > bound) {
            snprintf(why, size, "node %zu: %s%c = %.6g is beyond the divergence bound %.3g "
                     "(%g times the problem's %s scale %.3g)", k / 3, name, AXIS[k % 3], v[k],
                     bound, MB_DIVERGENCE_FACTOR, what, scale);
            return 1;
        }
    return 0;
}

int mb_divergence_state(const mb_divergence_bound *b, const mb_nodes *s, char *why, size_t size)
{
    return not_finite(s->x, s->n, 3, "", why, size) || not_finite(s->v, s->n, 3, "v", why, size)
           || not_finite(s->q, s->n, 4, "", why, size)
           || not_finite(s->omega, s->n, 3, "w", why, size)
           || beyond(s->x, s->n, b->position, b->length, "", "length", why, size)
           || beyond(s->v, s->n, b->velocity, b->speed, "v", "speed", why, size);
}

int mb_divergence_metric(const char *name, double value)
{
    static const char *const guarded[] = { "error.", "energy.", "angmom." };
    for (size_t k = 0; k < sizeof guarded / sizeof *guarded; k++)
        if (strncmp(name, guarded[k], strlen(guarded[k])) == 0)
            return !isfinite(value);
    return 0;
}
