/* rotation_track.c -- rotation measures of node 0 (DESIGN 6).
 *
 *   quat.norm_error_max         max over nodes and samples of | |q| - 1 | of the stored
 *                               (on-step) orientation (the runner takes the scheme's own
 *                               pre-normalisation figure when that is larger);
 *   rotation.axis_deviation_max max_t angle(omega(t), omega(0)) of node 0, global frame;
 *   rotation.flip_period        for a body with three distinct principal moments, the
 *                               mean time between sign changes of its body angular
 *                               velocity component on the intermediate axis (the tennis-
 *                               racket flips).  A sign counts as confirmed only once the
 *                               component exceeds half the body angular speed, so noise
 *                               around zero is not a flip; the flip time is the linearly
 *                               interpolated zero crossing just before the confirmation. */
#include "mb_metrics.h"
#include "mb_vec.h"

#include <math.h>
#include <string.h>

static int intermediate_axis(const double I[3])
{
    double lo = fmin(I[0], fmin(I[1], I[2])), hi = fmax(I[0], fmax(I[1], I[2]));
    if (!(lo > 0.0) || !(hi - lo > 1e-9 * hi))
        return -1;
    for (int a = 0; a < 3; a++)
        if (I[a] > lo * (1.0 + 1e-9) && I[a] < hi * (1.0 - 1e-9))
            return a;
    return -1;
}

static double body_component(const mb_nodes *s, int axis, double *speed)
{
    double wb[3];
    mb_q_rotate_inv(wb, &s->q[0], &s->omega[0]);
    *speed = sqrt(wb[0] * wb[0] + wb[1] * wb[1] + wb[2] * wb[2]);
    return wb[axis];
}

static void track_quat_norm(mb_rotation_track *tr, const mb_nodes *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const double *q = &s->q[4 * i];
        double e = fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1.0);
        if (!(e <= tr->max_quat_norm_error))
            tr->max_quat_norm_error = e;
    }
}

void mb_rotation_track_begin(mb_rotation_track *tr, const mb_nodes *s, double t)
{
    memset(tr, 0, sizeof *tr);
    tr->mid_axis = s->n > 0 ? intermediate_axis(&s->inertia[0]) : -1;
    if (s->n > 0) {
        memcpy(tr->omega0, &s->omega[0], sizeof tr->omega0);
        tr->omega0_norm = sqrt(tr->omega0[0] * tr->omega0[0] + tr->omega0[1] * tr->omega0[1]
                               + tr->omega0[2] * tr->omega0[2]);
    }
    tr->first_flip = tr->last_flip = NAN;
    tr->last_t = t;
    if (tr->mid_axis >= 0) {
        double speed, w = body_component(s, tr->mid_axis, &speed);
        tr->prev_w = w;
        tr->sign = fabs(w) > 0.5 * speed ? (w > 0 ? 1 : -1) : 0;
    }
    track_quat_norm(tr, s);
}

static void track_flip(mb_rotation_track *tr, const mb_nodes *s, double t)
{
    double speed, w = body_component(s, tr->mid_axis, &speed);
    /* remember the latest zero crossing (linear interpolation between the samples); a
     * confirmed change of sign makes it a flip */
    if ((w > 0) != (tr->prev_w > 0) && w != tr->prev_w)
        tr->prev_cross = tr->last_t + (t - tr->last_t) * tr->prev_w / (tr->prev_w - w);
    int sign = fabs(w) > 0.5 * speed ? (w > 0 ? 1 : -1) : 0;
    if (sign != 0 && tr->sign != 0 && sign != tr->sign) {
        if (tr->flips == 0)
            tr->first_flip = tr->prev_cross;
        tr->last_flip = tr->prev_cross;
        tr->flips++;
    }
    if (sign != 0)
        tr->sign = sign;
    tr->prev_w = w;
}

void mb_rotation_track_add(mb_rotation_track *tr, const mb_nodes *s, double t)
{
    track_quat_norm(tr, s);
    if (s->n > 0 && tr->omega0_norm > 0.0) {
        double ang = mb_v3_angle(&s->omega[0], tr->omega0);
        if (!(ang <= tr->max_axis_angle))
            tr->max_axis_angle = ang;
    }
    if (tr->mid_axis >= 0)
        track_flip(tr, s, t);
    tr->last_t = t;
}

double mb_rotation_flip_period(const mb_rotation_track *tr)
{
    if (tr->flips < 2)
        return NAN;
    return (tr->last_flip - tr->first_flip) / (double)(tr->flips - 1);
}
