/* mass_properties.c -- mass, centroid and inertia tensor of the bodies a problem built,
 * as one composite body (the mass.* metrics, doc/metrics.md), from the state at t = 0.
 *
 * Every node of finite mass is a rigid body: mass m_i, centre x_i, principal moments
 * I~_i in its body frame, orientation q_i.  Its inertia tensor about its own centre in
 * global axes is R(q_i) diag(I~_i) R(q_i)^T; the composite's, about the centroid
 * X = sum m_i x_i / M, adds the parallel-axis (Steiner) term of each body:
 *   J = sum_i [ R_i diag(I~_i) R_i^T + m_i (|d_i|^2 1 - d_i d_i^T) ],  d_i = x_i - X
 * (the parallel-axis theorem: Goldstein, Poole, Safko, "Classical Mechanics", 3rd ed., 5.3).
 * A clump is one node holding its members' mass and inertia (mb_clump.h), so a clump is
 * measured as built.  Fixed nodes (infinite mass) are left out; M = 0 when every node is
 * fixed, and the centroid and inertia are then 0. */
#include "mb_metrics.h"
#include "mb_vec.h"

#include <string.h>

static void add_body_inertia(double J[9], const double q[4], const double I[3])
{
    double R[9];
    mb_q_to_mat(R, q);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            J[3 * a + b] += R[3 * a] * I[0] * R[3 * b] + R[3 * a + 1] * I[1] * R[3 * b + 1]
                            + R[3 * a + 2] * I[2] * R[3 * b + 2];
}

void mb_mass_properties_of(const mb_nodes *s, mb_mass_properties *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < s->n; i++) {
        if (s->inv_mass[i] == 0.0)
            continue;
        p->mass += s->mass[i];
        for (int a = 0; a < 3; a++)
            p->centroid[a] += s->mass[i] * s->x[3 * i + a];
    }
    if (!(p->mass > 0.0))
        return;
    for (int a = 0; a < 3; a++)
        p->centroid[a] /= p->mass;
    for (size_t i = 0; i < s->n; i++) {
        if (s->inv_mass[i] == 0.0)
            continue;
        double d[3];
        mb_v3_sub(d, &s->x[3 * i], p->centroid);
        add_body_inertia(p->inertia, &s->q[4 * i], &s->inertia[3 * i]);
        mb_m3_add_point_inertia(p->inertia, s->mass[i], d);
    }
}
