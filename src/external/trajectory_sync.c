/* trajectory_sync.c -- on-step velocities from the mid-step ones of an adapter that
 * declares velocities = mid-step (doc/external.md, section 4), as the built-in leap-frog
 * synchronizes (seed 000, Woo's on-step estimate):
 *     v(t)  = v(t - h/2) + (h/2) f(x(t), v(t - h/2)) / m
 *     spherical:   w(t) = w(t - h/2) + (h/2) T / I
 *     aspherical:  L(t) = L(t - h/2) + (h/2) T,  w(t) = R I^-1 R^T L(t)
 * with L(t - h/2) = R I R^T w(t - h/2) taken with the rotation R of q(t) (the trajectory
 * holds no orientation at t - h/2).  Blocked degrees of freedom get no increment. */
#include "mb_external.h"
#include "mb_forces.h"
#include "mb_status.h"
#include "mb_vec.h"

static void sync_translation(mb_nodes *s, size_t i, double h)
{
    for (int a = 0; a < 3; a++)
        if (!(s->blocked[i] & (1u << a)))
            s->v[3 * i + a] += 0.5 * h * s->f[3 * i + a] * s->inv_mass[i];
}

static void sync_rotation(mb_nodes *s, size_t i, double h)
{
    const double *q = &s->q[4 * i], *I = &s->inertia[3 * i];
    double *w = &s->omega[3 * i], *T = &s->torque[3 * i], L[3], wb[3], lb[3];
    for (int a = 0; a < 3; a++)
        if (s->blocked[i] & (8u << a))
            T[a] = 0.0;
    mb_q_rotate_inv(wb, q, w);
    for (int a = 0; a < 3; a++)
        lb[a] = I[a] * wb[a];
    mb_q_rotate(L, q, lb);
    for (int a = 0; a < 3; a++)
        L[a] += 0.5 * h * T[a];
    mb_q_rotate_inv(lb, q, L);
    for (int a = 0; a < 3; a++)
        wb[a] = I[a] > 0.0 ? lb[a] / I[a] : 0.0;
    mb_q_rotate(w, q, wb);
    for (int a = 0; a < 3; a++)
        s->angmom[3 * i + a] = L[a];
}

int mb_trajectory_synchronize(const mb_forces *F, mb_nodes *s, double t, double h, int rotation)
{
    int st = mb_forces_eval(F, s, t);
    if (st != MB_SUCCESS)
        return st;
    for (size_t i = 0; i < s->n; i++) {
        sync_translation(s, i, h);
        if (rotation)
            sync_rotation(s, i, h);
    }
    return MB_SUCCESS;
}
