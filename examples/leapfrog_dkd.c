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
#include <stdlib.h>

typedef struct dkd_state {
    mb_nodes *saved;      /* state at the start of the step, restored on failure */
} dkd_state;

static int dkd_alloc(void **state, const mb_options *opts, const mb_system *sys)
{
    (void)opts;
    dkd_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        MB_ERROR(MB_ENOMEM, "leapfrog-dkd: out of memory");
    s->saved = mb_nodes_alloc(sys->nodes->n, 53);
    if (s->saved == NULL) {
        free(s);
        MB_ERROR(MB_ENOMEM, "leapfrog-dkd: out of memory");
    }
    *state = s;
    return MB_SUCCESS;
}

static void dkd_free(void *state)
{
    dkd_state *s = state;
    if (s == NULL)
        return;
    mb_nodes_free(s->saved);
    free(s);
}

static int dkd_step(void *state, mb_system *sys, double h)
{
    dkd_state *s = state;
    int st = mb_nodes_copy(s->saved, sys->nodes);
    if (st == MB_SUCCESS)
        st = dkd_stage(sys, sys->t, h);
    if (st == MB_SUCCESS && !dkd_finite(sys->nodes))
        st = mb_error_record(MB_EDIVERGED, __FILE__, __LINE__,
                             "leapfrog-dkd: NaN or Inf at t = %.17g", sys->t + h);
    if (st != MB_SUCCESS) {
        mb_nodes_copy(sys->nodes, s->saved);      /* the contract: state as it was */
        return st;
    }
    sys->t += h;
    return MB_SUCCESS;
}

static const mb_stepper_type leapfrog_dkd = {
    .name = "leapfrog-dkd",
    .summary = "x(t+h/2) = x + (h/2) v;  v+ = v + h a(x(t+h/2));  x+ = x(t+h/2) + (h/2) v+",
    .reference = "Hairer, Lubich & Wanner, Geometric Numerical Integration (2006), I.1.4",
    .order = 2,
    .order_rotation = 0,
    .flags = MB_STEPPER_SYMPLECTIC,
    .alloc = dkd_alloc,
    .step = dkd_step,
    .free = dkd_free,
};

const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;

int mb_plugin_init(mb_plugin_registrar *r)
{
    return r->register_stepper(r, &leapfrog_dkd);
}
