/* mb_force_torque.h -- constant external torques (force_torque.c).
 *
 * mb_force_torque: torque T on every node, fixed in the global frame.
 * mb_force_body_torque: torque T~ fixed in each node's body frame, global R(q) T~.
 * Either on every node or on one node only (a scene's per-body [force] type = torque).
 * Neither has a potential; both report the external power T . w (w on-step), so the
 * energy balance E_kin + E_pot + W_diss - W_ext - E_0 includes their work. */
#ifndef MB_FORCE_TORQUE_H
#define MB_FORCE_TORQUE_H

#include "mb_forces.h"

extern const mb_force_type *const mb_force_torque;
/* NULL (with an error recorded) if a component is not finite. */
void *mb_torque_new(const double T[3]);

extern const mb_force_type *const mb_force_body_torque;
void *mb_body_torque_new(const double Tbody[3]);

/* The same models on node `node` only (its eval fails with MB_EINVAL when the system has
 * no such node). */
void *mb_torque_node_new(size_t node, const double T[3]);
void *mb_body_torque_node_new(size_t node, const double Tbody[3]);

#endif
