/* dkd_stage.h -- the drift-kick-drift stage and compositions of it, shared by the two
 * example plugins (leapfrog_dkd.c: one stage; forest_ruth.c: three).
 *
 * One stage of length c h (Hairer, Lubich & Wanner, Geometric Numerical Integration,
 * 2nd ed., I.1.4 and II.5, the Stoermer-Verlet method in its "position" form):
 *     x(t + ch/2) = x(t) + (ch/2) v(t)
 *     v(t + ch)   = v(t) + ch f(x(t + ch/2), v(t), t + ch/2) / m
 *     x(t + ch)   = x(t + ch/2) + (ch/2) v(t + ch)
 * A blocked axis (MB_BLOCK_X/Y/Z) or a node of infinite mass (inv_mass = 0) gets zero
 * acceleration.  A step of a composition runs the stages c_1 h, ..., c_s h in turn
 * (sum c_j = 1).  Static functions only: each plugin includes this file. */
#ifndef DKD_STAGE_H
#define DKD_STAGE_H

#include <math.h>
#include <mb_nodes.h>
#include <mb_status.h>
#include <mb_system.h>
#include <stdlib.h>

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

/* The state of a composition: its stage weights and the start-of-step copy of the
 * nodes that a failed step restores (the contract of step in doc/plugins.md). */
typedef struct dkd_composition {
    const char *name;     /* for messages */
    int stages;
    double c[3];
    mb_nodes *saved;
} dkd_composition;

static int dkd_composition_alloc(void **state, const mb_system *sys, const char *name,
                                 int stages, const double *c)
{
    dkd_composition *s = calloc(1, sizeof *s);
    if (s == NULL || (s->saved = mb_nodes_alloc(sys->nodes->n, 53)) == NULL) {
        free(s);
        MB_ERROR(MB_ENOMEM, "%s: out of memory", name);
    }
    s->name = name;
    s->stages = stages;
    for (int j = 0; j < stages; j++)
        s->c[j] = c[j];
    *state = s;
    return MB_SUCCESS;
}

static void dkd_composition_free(void *state)
{
    dkd_composition *s = state;
    if (s == NULL)
        return;
    mb_nodes_free(s->saved);
    free(s);
}

static int dkd_composition_step(void *state, mb_system *sys, double h)
{
    dkd_composition *s = state;
    int st = mb_nodes_copy(s->saved, sys->nodes);
    double t = sys->t;
    for (int j = 0; j < s->stages && st == MB_SUCCESS; j++) {
        st = dkd_stage(sys, t, s->c[j] * h);
        t += s->c[j] * h;
    }
    if (st == MB_SUCCESS && !dkd_finite(sys->nodes))
        st = mb_error_record(MB_EDIVERGED, __FILE__, __LINE__, "%s: NaN or Inf at t = %.17g",
                             s->name, sys->t + h);
    if (st != MB_SUCCESS) {
        mb_nodes_copy(sys->nodes, s->saved);      /* the contract: state as it was */
        return st;
    }
    sys->t += h;
    return MB_SUCCESS;
}

#endif
