/* forest_ruth.c -- an outside stepper as a motionbench plugin: the fourth-order
 * symplectic composition of Forest & Ruth and of Yoshida,
 *     E. Forest and R. D. Ruth, "Fourth-order symplectic integration", Physica D 43
 *     (1990) 105-117;
 *     H. Yoshida, "Construction of higher order symplectic integrators", Phys. Lett. A
 *     150 (1990) 262-268, eq. (4.14) (the "triple jump"):
 *     Phi_h = S(w1 h) o S(w0 h) o S(w1 h),  w1 = 1 / (2 - 2^(1/3)),
 *                                           w0 = -2^(1/3) / (2 - 2^(1/3)),
 * with S the drift-kick-drift leap-frog (second order, symmetric).  2 w1 + w0 = 1
 * (consistency) and 2 w1^3 + w0^3 = 0 (the h^3 error terms of the symmetric stages
 * cancel), so the composition is symmetric and of order 4.  Symplectic: the energy error
 * stays bounded, O(h^4), with no drift.  Translation only; on-step velocities.
 *
 * Build against the installed library:
 *     cc -std=c11 -shared -fPIC forest_ruth.c -o forest_ruth.so \
 *        $(pkg-config --cflags --libs motionbench) -lm */
#include "dkd_stage.h"

#include <math.h>
#include <mb_plugin.h>

static int fr_alloc(void **state, const mb_options *opts, const mb_system *sys)
{
    (void)opts;
    const double cbrt2 = cbrt(2.0);
    const double w1 = 1.0 / (2.0 - cbrt2), w0 = -cbrt2 / (2.0 - cbrt2);
    const double c[3] = { w1, w0, w1 };
    return dkd_composition_alloc(state, sys, "forest-ruth", 3, c);
}

static const mb_stepper_type forest_ruth = {
    .name = "forest-ruth",
    .summary = "S(w1 h) S(w0 h) S(w1 h), S = drift-kick-drift, w1 = 1/(2 - 2^(1/3)), "
               "w0 = -2^(1/3)/(2 - 2^(1/3))",
    .reference = "Forest & Ruth, Physica D 43 (1990) 105; Yoshida, Phys. Lett. A 150 (1990) 262",
    .order = 4,
    .order_rotation = 0,
    .flags = MB_STEPPER_SYMPLECTIC,
    .alloc = fr_alloc,
    .step = dkd_composition_step,
    .free = dkd_composition_free,
};

const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;

int mb_plugin_init(mb_plugin_registrar *r)
{
    return r->register_stepper(r, &forest_ruth);
}
