/* angmom_track.c -- angular momentum invariants (DESIGN 6).
 *   L = sum_i m_i x_i x v_i + R_i I_i R_i^T omega_i      (global frame, about the origin)
 *   angmom.max_rel_error   = max_t |L(t) - L0| / |L0|
 *   angmom.direction_error = max_t angle(L(t), L0)       (rad, atan2(|a x b|, a.b)) */
#include "mb_metrics.h"
#include "mb_vec.h"

#include <math.h>
#include <string.h>

void mb_angmom_total(const mb_nodes *s, double L[3])
{
    L[0] = L[1] = L[2] = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        const double *x = &s->x[3 * i], *v = &s->v[3 * i];
        if (s->inv_mass[i] > 0.0) {
            double m = s->mass[i];
            L[0] += m * (x[1] * v[2] - x[2] * v[1]);
            L[1] += m * (x[2] * v[0] - x[0] * v[2]);
            L[2] += m * (x[0] * v[1] - x[1] * v[0]);
        }
        /* spin: R I R^T omega = R (I (R^T omega)) */
        const double *I = &s->inertia[3 * i];
        if (!(I[0] > 0.0 || I[1] > 0.0 || I[2] > 0.0) || !isfinite(I[0] + I[1] + I[2]))
            continue;
        double wb[3], lb[3], lg[3];
        mb_q_rotate_inv(wb, &s->q[4 * i], &s->omega[3 * i]);
        for (int a = 0; a < 3; a++)
            lb[a] = I[a] * wb[a];
        mb_q_rotate(lg, &s->q[4 * i], lb);
        for (int a = 0; a < 3; a++)
            L[a] += lg[a];
    }
}

void mb_angmom_track_begin(mb_angmom_track *tr, const mb_nodes *s)
{
    memset(tr, 0, sizeof *tr);
    mb_angmom_total(s, tr->L0);
    tr->norm0 = sqrt(tr->L0[0] * tr->L0[0] + tr->L0[1] * tr->L0[1] + tr->L0[2] * tr->L0[2]);
}

void mb_angmom_track_add(mb_angmom_track *tr, const mb_nodes *s)
{
    if (!(tr->norm0 > 0.0))
        return;
    double L[3];
    mb_angmom_total(s, L);
    double d[3] = { L[0] - tr->L0[0], L[1] - tr->L0[1], L[2] - tr->L0[2] };
    double rel = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / tr->norm0;
    double ang = mb_v3_angle(L, tr->L0);
    tr->rel = rel;
    tr->angle = ang;
    if (!(rel <= tr->max_rel))
        tr->max_rel = rel;
    if (!(ang <= tr->max_angle))
        tr->max_angle = ang;
}
