/* jacobian.c -- block Jacobian, instantiated for double and MPFR. */
#include "mb_jacobian.h"
#include "mb_status.h"

#include <stdlib.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "jacobian_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "jacobian_source.c"
#include "templates_off.h"
#undef BASE_MPFR
