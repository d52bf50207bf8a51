/* linsolve_gauss.c -- dense Gaussian elimination with partial pivoting, instantiated
 * for double and MPFR.  The MPFR instance is the dense solver of the implicit twins. */
#include "mb_linsolve.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <math.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "linsolve_gauss_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "linsolve_gauss_source.c"
#include "templates_off.h"
#undef BASE_MPFR
