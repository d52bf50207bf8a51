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
 * Its negative control, velocity-verlet-defect, lives in velocity_verlet_defect.c. */
#include "mb_stepper.h"
#include "mb_status.h"

#include <stdlib.h>

#define BASE_DOUBLE
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "translation_stage_source.c"
#include "velocity_verlet_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "translation_stage_source.c"
#include "velocity_verlet_source.c"
#include "templates_off.h"
#undef BASE_MPFR

const mb_stepper_type mb_stepper_velocity_verlet = {
    .name = "velocity-verlet",
    .summary = "v(t+h/2) = v + (h/2) a(t);  x+ = x + h v(t+h/2);  v+ = v(t+h/2) + (h/2) a(t+h)",
    .reference = "Swope, Andersen, Berens & Wilson, J. Chem. Phys. 76 (1982) 637",
    .order = 2,
    .flags = MB_STEPPER_SYMPLECTIC,
    .options = NULL,
    .alloc = vverlet_alloc,
    .step = vverlet_step,
    .free = vverlet_free,
    .alloc_mpfr = vverlet_mpfr_alloc,
    .step_mpfr = vverlet_mpfr_step,
    .free_mpfr = vverlet_mpfr_free,
};
