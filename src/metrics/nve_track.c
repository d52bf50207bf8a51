/* nve_track.c -- the statistical invariants of a many-body run (doc/statistics.md).
 *
 * Fed the on-step samples of a run, it keeps, for the samples with t >= t_from (the
 * window: a lattice that melts, an initial transient, is left out), the time and the
 * unexplained energy change per particle
 *   e(t) = (E(t) - E0 - W_ext(t)) / n
 * (the quantity of energy_track.c, divided by the n particles of finite mass), and over every
 * sample the linear momentum error
 *   momentum.max_rel_error = max_t |P(t) - P(0)| / sum_i m_i |v_i(0)|,   P = sum_i m_i v_i
 * (the scale is the momentum the particles carry, since the total is zero in a fluid at
 * rest; pair forces obey Newton's third law pair by pair, so P moves by round-off only).
 * At the end (mb_nve_track_result):
 *   energy.fluctuation         sigma of e over the window, with its standard error
 *   energy.drift_per_particle  least-squares slope of e against t, with its standard
 *                              error (series_stats.c gives both errors their inefficiency).
 * Angular momentum is not asked here: a periodic box conserves none (the runner leaves
 * angmom.* out for periodic systems). */
#include "mb_metrics.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void momentum_of(const mb_nodes *s, double P[3], double *scale)
{
    P[0] = P[1] = P[2] = 0.0;
    double sc = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        if (!(s->inv_mass[i] > 0.0))
            continue;
        const double *v = &s->v[3 * i];
        for (int k = 0; k < 3; k++)
            P[k] += s->mass[i] * v[k];
        sc += s->mass[i] * sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    if (scale)
        *scale = sc;
}

void mb_nve_track_begin(mb_nve_track *tr, const mb_nodes *s, double t_from)
{
    memset(tr, 0, sizeof *tr);
    tr->t_from = t_from;
    for (size_t i = 0; i < s->n; i++)
        tr->particles += s->inv_mass[i] > 0.0;
    momentum_of(s, tr->P0, &tr->p_scale);
}

int mb_nve_track_add(mb_nve_track *tr, double t, const mb_nodes *s, double unexplained)
{
    double P[3];
    momentum_of(s, P, NULL);
    double d = sqrt((P[0] - tr->P0[0]) * (P[0] - tr->P0[0]) + (P[1] - tr->P0[1]) * (P[1] - tr->P0[1])
                    + (P[2] - tr->P0[2]) * (P[2] - tr->P0[2]));
    double rel = tr->p_scale > 0.0 ? d / tr->p_scale : d;
    if (!(rel <= tr->momentum_max))
        tr->momentum_max = rel;
    if (t < tr->t_from)
        return MB_SUCCESS;
    if (tr->n == tr->cap) {
        size_t c = tr->cap ? 2 * tr->cap : 256;
        double *nt = realloc(tr->t, c * sizeof *nt);
        if (nt == NULL)
            MB_ERROR(MB_ENOMEM, "statistics: no memory for %zu samples", c);
        tr->t = nt;
        double *ne = realloc(tr->e, c * sizeof *ne);
        if (ne == NULL)
            MB_ERROR(MB_ENOMEM, "statistics: no memory for %zu samples", c);
        tr->e = ne;
        tr->cap = c;
    }
    tr->t[tr->n] = t;
    tr->e[tr->n] = unexplained / (double)(tr->particles ? tr->particles : 1);
    tr->n++;
    return MB_SUCCESS;
}

int mb_nve_track_result(const mb_nve_track *tr, mb_stat_value *fluctuation, mb_stat_value *drift)
{
    int s = mb_stat_fluctuation(tr->n, tr->e, fluctuation);
    if (s == MB_SUCCESS)
        s = mb_stat_drift(tr->n, tr->t, tr->e, drift);
    return s;
}

void mb_nve_track_free(mb_nve_track *tr)
{
    free(tr->t);
    free(tr->e);
    tr->t = tr->e = NULL;
    tr->n = tr->cap = 0;
}
