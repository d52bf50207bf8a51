/* mb_jacobian.h -- force Jacobians df/dx and df/dv as a list of 3x3 node blocks.
 *
 * Force models append their blocks; the implicit schemes assemble them into a dense
 * GSL matrix, a sparse gsl_spmatrix, or an MPFR dense matrix for the twins. */
#ifndef MB_JACOBIAN_H
#define MB_JACOBIAN_H

#include <stddef.h>
#include <mpfr.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "mb_jacobian_struct.h"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "mb_jacobian_struct.h"
#include "templates_off.h"
#undef BASE_MPFR

#endif
