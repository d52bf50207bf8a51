/* leapfrog_dkd.c -- an outside stepper as a motionbench plugin: the drift-kick-drift
 * leap-frog (Stoermer-Verlet, position form; Hairer, Lubich & Wanner, Geometric
 * Numerical Integration, I.1.4):
 *     x(t+h/2) = x(t) + (h/2) v(t),  v(t+h) = v(t) + h a(x(t+h/2)),
 *     x(t+h)   = x(t+h/2) + (h/2) v(t+h).
 * Second order, symplectic and time-reversible for position-dependent forces.
 * Translation only; velocities are on-step, so no synchronize hook is needed.
 *
 * Build against the installed library:
 *     cc -std=c11 -shared -fPIC leapfrog_dkd.c -o leapfrog_dkd.so \
 *        $(pkg-config --cflags --libs motionbench)
 * and run: motionbench run --plugin ./leapfrog_dkd.so CASE. */
#include "dkd_stage.h"

#include <mb_plugin.h>

static int dkd_alloc(void **state, const mb_options *opts, const mb_system *sys)
{
    static const double one_stage[1] = { 1.0 };
    (void)opts;
    return dkd_composition_alloc(state, sys, "leapfrog-dkd", 1, one_stage);
}

static const mb_stepper_type leapfrog_dkd = {
    .name = "leapfrog-dkd",
    .summary = "x(t+h/2) = x + (h/2) v;  v+ = v + h a(x(t+h/2));  x+ = x(t+h/2) + (h/2) v+",
    .reference = "Hairer, Lubich & Wanner, Geometric Numerical Integration (2006), I.1.4",
    .order = 2,
    .order_rotation = 0,
    .flags = MB_STEPPER_SYMPLECTIC,
    .alloc = dkd_alloc,
    .step = dkd_composition_step,
    .free = dkd_composition_free,
};

const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;

int mb_plugin_init(mb_plugin_registrar *r)
{
    return r->register_stepper(r, &leapfrog_dkd);
}
