/* ref_rhs.c -- the reference engines' right-hand side, instantiated for double and MPFR
 * from ref_rhs_source.c (see mb_ref_rhs.h for the equations). */
#include "mb_ref_rhs.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "ref_rhs_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "ref_rhs_source.c"
#include "templates_off.h"
#undef BASE_MPFR
