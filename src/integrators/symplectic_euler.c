/* symplectic_euler.c -- symplectic (semi-implicit) Euler for particles, seed 004:
 *   v(k+1) = v(k) + h M^-1 f(x(k), v(k)),   x(k+1) = x(k) + h v(k+1).
 * First order, symplectic for conservative position-dependent forces.  On the oscillator
 * x'' = -w^2 x it conserves exactly the modified energy
 *   E_h = 1/2 (v^2 + w^2 x^2) - 1/2 h w^2 x v
 * (the map has determinant 1 and this quadratic form is its invariant; see
 * tests/test_symplectic_euler.c for the derivation). */
#include "mb_stepper.h"
#include "mb_status.h"

#include <stdlib.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "scheme_util_source.c"
#include "euler_common_source.c"
#include "symplectic_euler_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "scheme_util_source.c"
#include "euler_common_source.c"
#include "symplectic_euler_source.c"
#include "templates_off.h"
#undef BASE_MPFR

const mb_stepper_type mb_stepper_symplectic_euler = {
    .name = "symplectic-euler",
    .summary = "v+ = v + h M^-1 f(x, v);  x+ = x + h v+",
    .reference = "seed 004 (symplectic Euler); Hairer, Lubich & Wanner, Geometric Numerical Integration, I.1.2",
    .order = 1,
    .flags = MB_STEPPER_SYMPLECTIC,
    .options = NULL,
    .alloc = euler_alloc,
    .step = seuler_step,
    .free = euler_free,
    .alloc_mpfr = euler_mpfr_alloc,
    .step_mpfr = seuler_mpfr_step,
    .free_mpfr = euler_mpfr_free,
};
