/* velocity_verlet.c -- velocity Verlet for particles (translation only):
 *   W. C. Swope, H. C. Andersen, P. H. Berens and K. R. Wilson, "A computer simulation
 *   method for the calculation of equilibrium constants for the formation of physical
 *   clusters of molecules: Application to small water clusters", J. Chem. Phys. 76 (1982)
 *   637.
 *   v(t+h/2) = v(t) + (h/2) a(t),  x(t+h) = x(t) + h v(t+h/2),
 *   v(t+h)   = v(t+h/2) + (h/2) a(t+h).
 * Second order, symplectic and time-reversible for position-dependent forces; positions
 * equal leap-frog's, velocities are on-step.  One force evaluation per step: the
 * acceleration at t+h is cached and reused at the start of the next step when the
 * system is still the one the scheme left (same system and force field, same t, x, v;
 * otherwise it is re-evaluated).
 * Rotations are not integrated.  One template (velocity_verlet_source.c) instantiated in
 * double and MPFR.
 *
 * velocity-verlet-defect is a negative control: defect=stale-force does not refresh the
 * cache with a(t+h) (each first half kick uses a(t-h): first order), defect=no-invalidate
 * trusts the cache for a system it did not step. */
#include "mb_stepper.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>

enum { VV_DEFECT_NONE = 0, VV_DEFECT_STALE_FORCE = 1, VV_DEFECT_NO_INVALIDATE = 2 };

#define BASE_DOUBLE
#include "templates_on.h"
#include "scheme_util_source.c"
#include "translation_stage_source.c"
#include "velocity_verlet_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "scheme_util_source.c"
#include "translation_stage_source.c"
#include "velocity_verlet_source.c"
#include "templates_off.h"
#undef BASE_MPFR

static const mb_option_spec vv_defect_options[] = {
    { "defect", MB_OPT_CHOICE, "stale-force", 1, 0, "stale-force|no-invalidate",
      "the deliberate mistake: the force cache is not refreshed (a(t-h) in the first "
      "half kick), or it is trusted for a system the scheme did not step" },
    MB_OPTION_END
};

static int vv_defect_of(const mb_options *opts)
{
    return strcmp(mb_options_string(opts, "defect"), "no-invalidate") == 0
         ? VV_DEFECT_NO_INVALIDATE : VV_DEFECT_STALE_FORCE;
}

static int vv_alloc(void **out, const mb_options *opts, const mb_system *sys)
{
    (void)opts;
    return vverlet_alloc_with(out, sys, VV_DEFECT_NONE);
}

static int vv_mpfr_alloc(void **out, const mb_options *opts, const mb_system_mpfr *sys)
{
    (void)opts;
    return vverlet_mpfr_alloc_with(out, sys, VV_DEFECT_NONE);
}

static int vv_alloc_defect(void **out, const mb_options *opts, const mb_system *sys)
{
    return vverlet_alloc_with(out, sys, vv_defect_of(opts));
}

static int vv_mpfr_alloc_defect(void **out, const mb_options *opts, const mb_system_mpfr *sys)
{
    return vverlet_mpfr_alloc_with(out, sys, vv_defect_of(opts));
}

const mb_stepper_type mb_stepper_velocity_verlet = {
    .name = "velocity-verlet",
    .summary = "v(t+h/2) = v + (h/2) a(t);  x+ = x + h v(t+h/2);  v+ = v(t+h/2) + (h/2) a(t+h)",
    .reference = "Swope, Andersen, Berens & Wilson, J. Chem. Phys. 76 (1982) 637",
    .order = 2,
    .flags = MB_STEPPER_SYMPLECTIC,
    .options = NULL,
    .alloc = vv_alloc,
    .step = vverlet_step,
    .free = vverlet_free,
    .alloc_mpfr = vv_mpfr_alloc,
    .step_mpfr = vverlet_mpfr_step,
    .free_mpfr = vverlet_mpfr_free,
};

const mb_stepper_type mb_stepper_velocity_verlet_defect = {
    .name = "velocity-verlet-defect",
    .summary = "NEGATIVE CONTROL: velocity Verlet whose force cache is not refreshed "
               "(defect=stale-force) or never invalidated (defect=no-invalidate)",
    .reference = "negative control of velocity-verlet",
    .order = 1,
    .flags = MB_STEPPER_NEGATIVE,
    .options = vv_defect_options,
    .alloc = vv_alloc_defect,
    .step = vverlet_step,
    .free = vverlet_free,
    .alloc_mpfr = vv_mpfr_alloc_defect,
    .step_mpfr = vverlet_mpfr_step,
    .free_mpfr = vverlet_mpfr_free,
};
