/* linsys_assemble.c -- the backward-Euler system A = M - h C - h^2 K and its right-hand
 * sides, instantiated for double and MPFR (see mb_linsolve.h, DESIGN 4.1). */
#include "mb_linsolve.h"
#include "mb_status.h"

#define BASE_DOUBLE
#include "templates_on.h"
#include "linsys_assemble_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "linsys_assemble_source.c"
#include "templates_off.h"
#undef BASE_MPFR
