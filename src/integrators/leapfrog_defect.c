/* leapfrog_defect.c -- leapfrog-defect, a negative control of the leap-frog scheme
 * (leapfrog.c) reproducing three known mistakes:
 *   defect=local-frame-angmom  the initial angular momentum I R^T w (body components)
 *                              is taken as global, as in Woo's initialisation code;
 *   defect=spherical-rotation  seed 002's spherical update (I11) is applied to
 *                              aspherical nodes;
 *   defect=seed-spin-sign      the seed's sign of the medium spin omega_L in a deforming
 *                              cell (gives -w for v = w x x).
 * The production template (leapfrog_source.c) is instantiated here with the control's
 * rule points (LF_* macros, see the template's header), so the scheme's own code holds
 * no trace of the mistakes. */
#include "leapfrog_common.h"

enum { LFD_LOCAL_ANGMOM = 1, LFD_SPHERICAL = 2, LFD_SPIN_SIGN = 3 };

#define LF_NAME "leapfrog-defect"
#define LF_MEDIUM_SPIN(cfg) ((cfg)->control == LFD_SPIN_SIGN ? mb_cell_spin_seed : mb_cell_spin)
#define LF_INITIAL_ANGMOM(cfg, r, L, q, I, w)                                          \
    ((cfg)->control == LFD_LOCAL_ANGMOM ? FUNCTION(lfd, body_angmom)(&(r)->q, L, q, I, w) \
                                        : FUNCTION(lf, angmom_of)(r, L, q, I, w))
#define LF_FINCHAM_NODE(cfg, s, i, all_blocked)                                        \
    ((s)->aspherical[i] && !(all_blocked) && (cfg)->control != LFD_SPHERICAL)

static const mb_option_spec lf_defect_options[] = {
    { "adj_vel0", MB_OPT_BOOL, "on", 1, 0, NULL, "as for leapfrog" },
    { "damping", MB_OPT_DOUBLE, "0", 0.0, 0.999, NULL, "as for leapfrog" },
    { "aspherical", MB_OPT_CHOICE, "fincham", 1, 0, "fincham|fincham-halfstep|fincham-woo",
      "as for leapfrog" },
    { "cell", MB_OPT_BOOL, "on", 1, 0, NULL, "as for leapfrog" },
    { "defect", MB_OPT_CHOICE, "local-frame-angmom", 1, 0,
      "local-frame-angmom|spherical-rotation|seed-spin-sign",
      "the deliberate mistake: initial L = I R^T w taken as global (Woo's code), the "
      "spherical update with I11 applied to aspherical nodes, or the seed's sign of the "
      "medium spin omega_L (gives -w for v = w x x)" },
    MB_OPTION_END
};


static int lfd_defect_of(const mb_options *opts)
{
    const char *d = mb_options_string(opts, "defect");
    return !strcmp(d, "spherical-rotation") ? LFD_SPHERICAL
         : !strcmp(d, "seed-spin-sign") ? LFD_SPIN_SIGN : LFD_LOCAL_ANGMOM;
}

#define BASE_DOUBLE
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "quat_source.c"
#include "leapfrog_defect_source.c"
#include "leapfrog_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "mb_scheme_util.h"
#include "quat_source.c"
#include "leapfrog_defect_source.c"
#include "leapfrog_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* The scheme's state with the chosen mistake in its configuration (struct lf_common is
 * the first member of the state of both bases). */
static int lfd_alloc(void **out, const mb_options *opts, const mb_system *sys)
{
    int st = lf_alloc(out, opts, sys);
    if (st == MB_SUCCESS)
        ((struct lf_common *)*out)->cfg.control = lfd_defect_of(opts);
    return st;
}

static int lfd_mpfr_alloc(void **out, const mb_options *opts, const mb_system_mpfr *sys)
{
    int st = lf_mpfr_alloc(out, opts, sys);
    if (st == MB_SUCCESS)
        ((struct lf_common *)*out)->cfg.control = lfd_defect_of(opts);
    return st;
}

const mb_stepper_type mb_stepper_leapfrog_defect = {
    .name = "leapfrog-defect",
    .summary = "NEGATIVE CONTROL: leapfrog with local-frame initial angular momentum "
               "(defect=local-frame-angmom), spherical rotation of aspherical nodes "
               "(defect=spherical-rotation) or the seed's medium-spin sign in a deforming "
               "cell (defect=seed-spin-sign)",
    .reference = "the initialisation in Woo's Leapfrog code; misuse of seed 002's spherical update",
    .order = 2,
    .flags = MB_STEPPER_HALFSTEP | MB_STEPPER_ROTATION | MB_STEPPER_NEGATIVE | MB_STEPPER_CELL,
    .options = lf_defect_options,
    .alloc = lfd_alloc,
    .step = lf_step,
    .synchronize = lf_synchronize,
    .stats = lf_stats,
    .free = lf_free,
    .alloc_mpfr = lfd_mpfr_alloc,
    .step_mpfr = lf_mpfr_step,
    .synchronize_mpfr = lf_mpfr_synchronize,
    .free_mpfr = lf_mpfr_free,
};
