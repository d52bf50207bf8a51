/* mb_force_constant.h -- a constant external force on one node (force_constant.c).
 *
 * mb_force_constant: force F fixed in the global frame, f_i += F.
 * mb_force_body_force: force F~ fixed in the node's body frame, f_i += R(q_i) F~.
 * The force acts at the centre of mass (no torque).  Neither is counted as conservative:
 * both report the external power F . v (the body-frame force has no potential), so the
 * energy balance E_kin + E_pot + W_diss - W_ext - E_0 includes their work, as for an
 * expression force without a potential.  The global force's work over a step is exact,
 * F.(x+ - x) (external_work); the body-frame force's is integrated from its power by the
 * runner (doc/metrics.md).  Both have an MPFR instance (the mpfr reference
 * takes them). */
#ifndef MB_FORCE_CONSTANT_H
#define MB_FORCE_CONSTANT_H

#include "mb_forces.h"

extern const mb_force_type *const mb_force_constant;
extern const mb_force_type *const mb_force_body_force;

/* The models on node `node` (their eval fails with MB_EINVAL when the system has no such
 * node); NULL with an error recorded when a component is not finite. */
void *mb_constant_force_new(size_t node, const double F[3]);
void *mb_body_force_new(size_t node, const double Fbody[3]);

#endif
