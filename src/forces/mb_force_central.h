/* mb_force_central.h -- inverse-square attraction to the origin (force_central.c):
 *   f_i = -mu m_i x_i / |x_i|^3,  potential -mu m_i / |x_i|,  with its Jacobian.
 * A node at the origin makes eval fail with MB_EDIVERGED. */
#ifndef MB_FORCE_CENTRAL_H
#define MB_FORCE_CENTRAL_H

#include "mb_forces.h"

extern const mb_force_type *const mb_force_central;
/* NULL (with an error recorded) unless mu is finite and > 0. */
void *mb_central_new(double mu);

#endif
