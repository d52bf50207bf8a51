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
#include <stdlib.h>

typedef struct fr_state {
    mb_nodes *saved;      /* state at the start of the step, restored on failure */
    double w[3];          /* stage weights w1, w0, w1 */
} fr_state;

static int fr_alloc(void **state, const mb_options *opts, const mb_system *sys)
{
    (void)opts;
    fr_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        MB_ERROR(MB_ENOMEM, "forest-ruth: out of memory");
    s->saved = mb_nodes_alloc(sys->nodes->n, 53);
    if (s->saved == NULL) {
        free(s);
        MB_ERROR(MB_ENOMEM, "forest-ruth: out of memory");
    }
    const double cbrt2 = cbrt(2.0);
    s->w[0] = 1.0 / (2.0 - cbrt2);          /* w1 */
    s->w[1] = -cbrt2 / (2.0 - cbrt2);       /* w0 */
    s->w[2] = s->w[0];
    *state = s;
    return MB_SUCCESS;
}

static void fr_free(void *state)
{
    fr_state *s = state;
    if (s == NULL)
        return;
    mb_nodes_free(s->saved);
    free(s);
}

static int fr_step(void *state, mb_system *sys, double h)
{
    fr_state *s = state;
    int st = mb_nodes_copy(s->saved, sys->nodes);
    double t = sys->t;
    for (int k = 0; k < 3 && st == MB_SUCCESS; k++) {
        st = dkd_stage(sys, t, s->w[k] * h);
        t += s->w[k] * h;
    }
    if (st == MB_SUCCESS && !dkd_finite(sys->nodes))
        st = mb_error_record(MB_EDIVERGED, __FILE__, __LINE__,
                             "forest-ruth: NaN or Inf at t = %.17g", sys->t + h);
    if (st != MB_SUCCESS) {
        mb_nodes_copy(sys->nodes, s->saved);      /* the contract: state as it was */
        return st;
    }
    sys->t += h;
    return MB_SUCCESS;
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
    .step = fr_step,
    .free = fr_free,
};

const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;

int mb_plugin_init(mb_plugin_registrar *r)
{
    return r->register_stepper(r, &forest_ruth);
}
