/* mb_energy.h -- energy bookkeeping (DESIGN 3).
 *
 *   kinetic     = sum 1/2 m |v|^2 + 1/2 w.(R I R^T) w        (global frame)
 *   potential   = sum of the force models' potentials
 *   balance residual = E_kin + E_pot + W_dissipated - W_external - E_0
 *   content     = kinetic + sum over force models of the magnitude of the potential
 *                 (>= |total|; mb_forces_potential_magnitude)
 * Kinetic energy is evaluated from on-step velocities (for half-step schemes the caller
 * passes the synchronized store). */
#ifndef MB_ENERGY_H
#define MB_ENERGY_H

#include "mb_system.h"

typedef struct mb_energy {
    double kinetic_trans, kinetic_rot, potential, dissipated, external;
    double total;        /* kinetic + potential */
    double content;      /* kinetic + sum of each potential's magnitude: the energy the
                          * system holds whatever the signs, the scale of its errors */
} mb_energy;

double mb_energy_kinetic_trans(const mb_nodes *s);
double mb_energy_kinetic_rot(const mb_nodes *s);
/* Energy of sys with kinetic terms from on_step (may be sys->nodes). */
mb_energy mb_energy_of(const mb_system *sys, const mb_nodes *on_step);
/* E_kin + E_pot + W_diss - W_ext - E0 */
double mb_energy_balance(const mb_energy *e, double e0);

#endif
