/* velocity_verlet_defect.c -- velocity-verlet-defect, a negative control of velocity
 * Verlet (velocity_verlet.c), with two mistakes of a force cache:
 *   defect=stale-force    the cache is not refreshed with a(t+h): each first half kick
 *                         uses a(t-h), which makes the scheme first order;
 *   defect=no-invalidate  the cache is trusted for a system the scheme did not step.
 * The production template (velocity_verlet_source.c) is instantiated here unchanged and
 * its step wrapped (velocity_verlet_defect_source.c), so velocity Verlet's own code holds
 * no trace of the mistakes. */
#include "mb_stepper.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>

enum { VV_DEFECT_STALE_FORCE = 1, VV_DEFECT_NO_INVALIDATE = 2 };

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

#define BASE_DOUBLE
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "translation_stage_source.c"
#include "velocity_verlet_source.c"
#include "velocity_verlet_defect_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "translation_stage_source.c"
#include "velocity_verlet_source.c"
#include "velocity_verlet_defect_source.c"
#include "templates_off.h"
#undef BASE_MPFR

const mb_stepper_type mb_stepper_velocity_verlet_defect = {
    .name = "velocity-verlet-defect",
    .summary = "NEGATIVE CONTROL: velocity Verlet whose force cache is not refreshed "
               "(defect=stale-force) or never invalidated (defect=no-invalidate)",
    .reference = "negative control of velocity-verlet",
    .order = 1,
    .flags = MB_STEPPER_NEGATIVE,
    .options = vv_defect_options,
    .alloc = vvdefect_alloc,
    .step = vvdefect_step,
    .free = vvdefect_free,
    .alloc_mpfr = vvdefect_mpfr_alloc,
    .step_mpfr = vvdefect_mpfr_step,
    .free_mpfr = vvdefect_mpfr_free,
};
