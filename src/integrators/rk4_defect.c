/* rk4_defect.c -- rk4-defect, a negative control of rk4 (rk4.c): RK4's stages with the
 * weights b = (1/8, 3/8, 3/8, 1/8) of Kutta's 3/8 rule.  They satisfy sum b = 1 and
 * sum b c = 1/2 but sum b c^2 = 5/16 != 1/3, so the method is only second order; the
 * bench must see order 2 where rk4 shows 4.  The generic explicit Runge-Kutta template
 * (explicit_rk_source.c) is instantiated here with this tableau, so rk4's own code holds
 * no trace of the mistake. */
#include "mb_stepper.h"
#include "mb_status.h"
#include "mb_rk_tableau.h"

#include <stdlib.h>

const struct rk_tableau mb_rk4_defect_tableau = {
    .name = "rk4-defect",
    .stages = 4,
    .a = { { { 0, 1 } },
           { { 1, 2 } },
           { { 0, 1 }, { 1, 2 } },
           { { 0, 1 }, { 0, 1 }, { 1, 1 } } },
    .b = { { 1, 8 }, { 3, 8 }, { 3, 8 }, { 1, 8 } },
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

static int rk4_defect_alloc(void **out, const mb_options *opts, const mb_system *sys)
{
    (void)opts;
    return erk_alloc_with(out, sys, &mb_rk4_defect_tableau);
}

static int rk4_defect_mpfr_alloc(void **out, const mb_options *opts, const mb_system_mpfr *sys)
{
    (void)opts;
    return erk_mpfr_alloc_with(out, sys, &mb_rk4_defect_tableau);
}

const mb_stepper_type mb_stepper_rk4_defect = {
    .name = "rk4-defect",
    .summary = "NEGATIVE CONTROL: RK4's stages with the 3/8-rule weights 1/8 3/8 3/8 1/8 (order 2)",
    .reference = "negative control of rk4",
    .order = 2,
    .flags = MB_STEPPER_NEGATIVE,
    .options = NULL,
    .alloc = rk4_defect_alloc,
    .step = erk_step,
    .free = erk_free,
    .alloc_mpfr = rk4_defect_mpfr_alloc,
    .step_mpfr = erk_mpfr_step,
    .free_mpfr = erk_mpfr_free,
};
