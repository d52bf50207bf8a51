/* energy.c -- kinetic and potential energy, and the energy balance (DESIGN 3). */
#include "mb_energy.h"
#include "mb_vec.h"

double mb_energy_kinetic_trans(const mb_nodes *s)
{
    double e = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->inv_mass[i] == 0.0)
            continue;
        const double *v = &s->v[3 * i];
        e += 0.5 * s->mass[i] * mb_v3_dot(v, v);
    }
    return e;
}

/* 1/2 w.(R I R^T) w = 1/2 w~.(I w~) with w~ = R^T w the body angular velocity */
double mb_energy_kinetic_rot(const mb_nodes *s)
{
    double e = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        double wb[3];
        mb_q_rotate_inv(wb, &s->q[4 * i], &s->omega[3 * i]);
        const double *I = &s->inertia[3 * i];
        e += 0.5 * (I[0] * wb[0] * wb[0] + I[1] * wb[1] * wb[1] + I[2] * wb[2] * wb[2]);
    }
    return e;
}

mb_energy mb_energy_of(const mb_system *sys, const mb_nodes *on_step)
{
    mb_energy e;
    e.kinetic_trans = mb_energy_kinetic_trans(on_step);
    e.kinetic_rot = mb_energy_kinetic_rot(on_step);
    e.potential = mb_forces_potential(sys->forces, on_step);
    double hd, he;     /* the works history-dependent laws booked themselves */
    mb_forces_history_work(sys->forces, &hd, &he);
    e.dissipated = sys->work.dissipated + sys->dissipated_by_scheme + hd;
    e.external = sys->work.external + he;
    e.total = e.kinetic_trans + e.kinetic_rot + e.potential;
    e.content = e.kinetic_trans + e.kinetic_rot + mb_forces_potential_magnitude(sys->forces, on_step);
    return e;
}

double mb_energy_balance(const mb_energy *e, double e0)
{
    return e->total + e->dissipated - e->external - e0;
}
