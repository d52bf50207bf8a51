/* dkd_stage.h -- the drift-kick-drift stage shared by the two example plugins.
 *
 * One stage of length c h (Hairer, Lubich & Wanner, Geometric Numerical Integration,
 * 2nd ed., I.1.4 and II.5, the Stoermer-Verlet method in its "position" form):
 *     x(t + ch/2) = x(t) + (ch/2) v(t)
 *     v(t + ch)   = v(t) + ch f(x(t + ch/2), v(t), t + ch/2) / m
 *     x(t + ch)   = x(t + ch/2) + (ch/2) v(t + ch)
 * A blocked axis (MB_BLOCK_X/Y/Z) or a node of infinite mass (inv_mass = 0) gets zero
 * acceleration.  Static functions only: each plugin includes this file. */
#ifndef DKD_STAGE_H
#define DKD_STAGE_H

#include <math.h>
#include <mb_nodes.h>
#include <mb_status.h>
#include <mb_system.h>

static void dkd_drift(mb_nodes *s, double dt)
{
    for (size_t k = 0; k < 3 * s->n; k++)
        s->x[k] += dt * s->v[k];
}

static void dkd_kick(mb_nodes *s, double dt)
{
    static const unsigned char axis_block[3] = { MB_BLOCK_X, MB_BLOCK_Y, MB_BLOCK_Z };
    for (size_t i = 0; i < s->n; i++)
        for (int d = 0; d < 3; d++)
            if (!(s->blocked[i] & axis_block[d]))
                s->v[3 * i + d] += dt * s->f[3 * i + d] * s->inv_mass[i];
}

/* One stage of length ch from time t; MB_SUCCESS or the force field's status. */
static int dkd_stage(mb_system *sys, double t, double ch)
{
    dkd_drift(sys->nodes, 0.5 * ch);
    int st = mb_forces_eval(sys->forces, sys->nodes, t + 0.5 * ch);
    if (st != MB_SUCCESS)
        return st;
    dkd_kick(sys->nodes, ch);
    dkd_drift(sys->nodes, 0.5 * ch);
    return MB_SUCCESS;
}

/* 1 when every position and velocity is finite. */
static int dkd_finite(const mb_nodes *s)
{
    for (size_t k = 0; k < 3 * s->n; k++)
        if (!isfinite(s->x[k]) || !isfinite(s->v[k]))
            return 0;
    return 1;
}

#endif
