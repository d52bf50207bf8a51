/* broken_plugin.c -- a catalogue of broken plugins, one per value of BROKEN, each of
 * which motionbench must refuse with a clear message and exit status 2
 * (tests/test_plugins.sh):
 *   1 no mb_plugin_init                   2 no mb_plugin_api_version
 *   3 API version from the future         4 a type without step
 *   5 a malformed name ("Bad name")       6 a name that is taken ("leapfrog")
 *   7 mb_plugin_init fails without a word 8 mb_plugin_init registers nothing
 *   9 a type without alloc and free */
#include "mb_plugin.h"

#include <stddef.h>

/* external linkage: some variants leave them unused on purpose */
int nop_alloc(void **state, const mb_options *opts, const mb_system *sys);
int nop_step(void *state, mb_system *sys, double h);
void nop_free(void *state);

int nop_alloc(void **state, const mb_options *opts, const mb_system *sys)
{
    (void)opts; (void)sys;
    *state = NULL;
    return MB_SUCCESS;
}

int nop_step(void *state, mb_system *sys, double h)
{
    (void)state;
    sys->t += h;
    return MB_SUCCESS;
}

void nop_free(void *state) { (void)state; }

const mb_stepper_type broken = {
#if BROKEN == 5
    .name = "Bad name",
#elif BROKEN == 6
    .name = "leapfrog",
#else
    .name = "broken-scheme",
#endif
    .summary = "a scheme that does nothing (test of the plugin loader)",
    .order = 1,
#if BROKEN != 9
    .alloc = nop_alloc,
    .free = nop_free,
#endif
#if BROKEN != 4
    .step = nop_step,
#endif
};

#if BROKEN != 2
#if BROKEN == 3
const int mb_plugin_api_version = MB_PLUGIN_API_VERSION + 1;
#else
const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;
#endif
#endif

#if BROKEN != 1
int mb_plugin_init(mb_plugin_registrar *r)
{
#if BROKEN == 7
    (void)r;
    return MB_EFAILED;
#elif BROKEN == 8
    (void)r;
    return MB_SUCCESS;
#else
    return r->register_stepper(r, &broken);
#endif
}
#endif
