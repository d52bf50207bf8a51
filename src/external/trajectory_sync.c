/* trajectory_sync.c -- on-step velocities from the mid-step ones of an adapter that
 * declares velocities = mid-step (doc/external.md, section 4): the built-in leap-frog's
 * own on-step estimate (mb_leapfrog_synchronize_nodes, seed 000, Woo's):
 *     v(t)  = v(t - h/2) + (h/2) f(x(t), v(t - h/2)) / m
 *     spherical:   w(t) = w(t - h/2) + (h/2) T / I
 *     aspherical:  L(t) = L(t - h/2) + (h/2) T,  w(t) = R I^-1 R^T L(t)
 * What is particular to a trajectory is only where L(t - h/2) comes from: the file holds
 * w(t - h/2) and no orientation at t - h/2, so L(t - h/2) = R I R^T w(t - h/2) is taken
 * with the rotation R of q(t).  Blocked degrees of freedom get no increment. */
#include "mb_external.h"
#include "mb_forces.h"
#include "mb_leapfrog.h"
#include "mb_status.h"
#include "mb_vec.h"

/* L(t - h/2) = R I R^T w(t - h/2), R = R(q(t)), of an aspherical node */
static void midstep_angmom(mb_nodes *s, size_t i)
{
    const double *q = &s->q[4 * i], *I = &s->inertia[3 * i], *w = &s->omega[3 * i];
    double wb[3], lb[3];
    mb_q_rotate_inv(wb, q, w);
    for (int a = 0; a < 3; a++)
        lb[a] = I[a] * wb[a];
    mb_q_rotate(&s->angmom[3 * i], q, lb);
}

int mb_trajectory_synchronize(const mb_forces *F, mb_nodes *s, double t, double h, int rotation)
{
    for (size_t i = 0; i < s->n; i++) {
        if (rotation && s->aspherical[i])
            midstep_angmom(s, i);
        s->vel_mid[i] = 1;
    }
    return mb_leapfrog_synchronize_nodes(F, s, t, h, rotation);
}
