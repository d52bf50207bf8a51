/* rk4.c -- the classical fourth-order Runge-Kutta method on the translational system
 * x' = v, v' = M^-1 f(x, v, t) (rotations are not integrated):
 *   W. Kutta, "Beitrag zur naeherungsweisen Integration totaler Differentialgleichungen",
 *   Z. Math. Phys. 46 (1901) 435-453; tableau as in Hairer, Norsett & Wanner, Solving
 *   Ordinary Differential Equations I, II.1, Table 1.2 (left):
 *       0   |
 *      1/2  | 1/2
 *      1/2  |  0   1/2
 *       1   |  0    0    1
 *      -----+--------------------
 *           | 1/6  1/3  1/3  1/6
 * Four force evaluations per step, not symplectic: the energy of an oscillator decays
 * by O(h^6) per period ((hw)^6/72 per step on x'' = -w^2 x).  The tableau below is the
 * only place the coefficients live; the template (explicit_rk_source.c) is instantiated
 * in double and MPFR.
 * Its negative control, rk4-defect, lives in rk4_defect.c. */
#include "mb_stepper.h"
#include "mb_status.h"
#include "mb_rk_tableau.h"

#include <stdlib.h>

const struct rk_tableau mb_rk4_tableau = {
    .name = "rk4",
    .stages = 4,
    .a = { { { 0, 1 } },
           { { 1, 2 } },
           { { 0, 1 }, { 1, 2 } },
           { { 0, 1 }, { 0, 1 }, { 1, 1 } } },
    .b = { { 1, 6 }, { 1, 3 }, { 1, 3 }, { 1, 6 } },
    .c = { { 0, 1 }, { 1, 2 }, { 1, 2 }, { 1, 1 } },
};

#define BASE_DOUBLE
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "translation_stage_source.c"
#include "explicit_rk_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "translation_stage_source.c"
#include "explicit_rk_source.c"
#include "templates_off.h"
#undef BASE_MPFR

static int rk4_alloc(void **out, const mb_options *opts, const mb_system *sys)
{
    (void)opts;
    return erk_alloc_with(out, sys, &mb_rk4_tableau);
}

static int rk4_mpfr_alloc(void **out, const mb_options *opts, const mb_system_mpfr *sys)
{
    (void)opts;
    return erk_mpfr_alloc_with(out, sys, &mb_rk4_tableau);
}

const mb_stepper_type mb_stepper_rk4 = {
    .name = "rk4",
    .summary = "classical Runge-Kutta on (x, v): k1..k4 at 0, h/2, h/2, h; weights 1/6 1/3 1/3 1/6",
    .reference = "Kutta, Z. Math. Phys. 46 (1901) 435; Hairer, Norsett & Wanner, Solving ODEs I, Table II.1.2",
    .order = 4,
    .flags = 0,
    .options = NULL,
    .alloc = rk4_alloc,
    .step = erk_step,
    .free = erk_free,
    .alloc_mpfr = rk4_mpfr_alloc,
    .step_mpfr = erk_mpfr_step,
    .free_mpfr = erk_mpfr_free,
};
