/* implicit_euler_newton.c -- full nonlinear backward Euler (DESIGN 4.1):
 *   x+ = x + h v+,   M v+ = M v + h f(x+, v+),
 * solved for v+ by Newton's method on R(w) = M (w - v) - h f(x + h w, w), whose exact
 * Jacobian is dR/dw = M - h C(w) - h^2 K(w) (K = df/dx, C = df/dv at the trial state).
 * Starts from w = v; stops when max|dw| <= tol max(1, max|w|); MB_EMAXITER (state
 * untouched) after max_iter iterations.  Iterations are reported by the stats hook.
 * For forces linear in (x, v) one iteration gives the exact solution, so the scheme
 * coincides with implicit-euler there (up to the second, confirming iteration). */
#include "mb_implicit.h"
#include "mb_stepper.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "scheme_util_source.c"
#include "implicit_euler_newton_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "scheme_util_source.c"
#include "implicit_euler_newton_source.c"
#include "templates_off.h"
#undef BASE_MPFR

static const mb_option_spec nbe_options[] = {
    { "tol", MB_OPT_DOUBLE, "1e-12", 1e-30, 1e-1, NULL,
      "Newton stops when max|dv| <= tol max(1, max|v+|)" },
    { "max_iter", MB_OPT_INT, "20", 1, 1000, NULL, "Newton iterations before MB_EMAXITER" },
    MB_IMPLICIT_SOLVER_OPTIONS,
    MB_OPTION_END
};

const mb_stepper_type mb_stepper_implicit_euler_newton = {
    .name = "implicit-euler-newton",
    .summary = "Newton on M (v+ - v) = h f(x + h v+, v+);  x+ = x + h v+",
    .reference = "seed 004 (implicit Euler, nonlinear); Hairer & Wanner, Solving ODEs II, IV.8",
    .order = 1,
    .flags = MB_STEPPER_IMPLICIT,
    .options = nbe_options,
    .alloc = nbe_alloc,
    .step = nbe_step,
    .stats = nbe_stats,
    .free = nbe_free,
    .alloc_mpfr = nbe_mpfr_alloc,
    .step_mpfr = nbe_mpfr_step,
    .free_mpfr = nbe_mpfr_free,
};
