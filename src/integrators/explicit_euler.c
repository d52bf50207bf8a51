/* explicit_euler.c -- explicit (forward) Euler for particles, seed 004:
 *   v(k+1) = v(k) + h M^-1 f(x(k), v(k)),   x(k+1) = x(k) + h v(k).
 * First order; multiplies the oscillator energy 1/2 (v^2 + w^2 x^2) by (1 + h^2 w^2)
 * every step, so it is unconditionally unstable on undamped oscillators. */
#include "mb_stepper.h"
#include "mb_status.h"

#include <stdlib.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "scheme_util_source.c"
#include "euler_common_source.c"
#include "explicit_euler_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "scheme_util_source.c"
#include "euler_common_source.c"
#include "explicit_euler_source.c"
#include "templates_off.h"
#undef BASE_MPFR

const mb_stepper_type mb_stepper_explicit_euler = {
    .name = "explicit-euler",
    .summary = "v+ = v + h M^-1 f(x, v);  x+ = x + h v",
    .reference = "seed 004 (explicit Euler); Hairer, Lubich & Wanner, Geometric Numerical Integration, I.1",
    .order = 1,
    .flags = 0,
    .options = NULL,
    .alloc = euler_alloc,
    .step = xeuler_step,
    .free = euler_free,
    .alloc_mpfr = euler_mpfr_alloc,
    .step_mpfr = xeuler_mpfr_step,
    .free_mpfr = euler_mpfr_free,
};
