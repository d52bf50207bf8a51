/* reversibility.c -- time reversibility of a scheme on a case (doc/statistics.md).
 *
 * A symmetric scheme (velocity Verlet, the leap-frog) is time reversible: from the state
 * reached after N steps, with every velocity (and angular velocity and momentum)
 * reversed, N more steps return to the start exactly in exact arithmetic (Hairer, Lubich
 * & Wanner, Geometric Numerical Integration, 2nd ed., V.1).  In floating point the return
 * misses by the round-off of the 2N steps amplified by the flow, which in a chaotic system
 * grows like exp(lambda T) with the round trip's length T: that distance against T is the
 * measure.  A scheme that is not symmetric (symplectic Euler, explicit Euler) misses by its
 * truncation error, O(h^p) T, from the first round trip on.
 *
 * For T = t_end/8, t_end/4, t_end/2 and t_end (round trips of N/8, N/4, N/2 and N steps;
 * those with no step are left out): set the problem up, N_T steps forward, take the on-step
 * state, set the problem up again with that state and reversed velocities, a fresh scheme
 * (a half-step scheme starts from on-step velocities as at t = 0), N_T steps, and
 *   d(T) = max over nodes |x(back) - x(0)|.
 *   reversibility.distance = d(t_end); the detail lists d(T) for each T.
 *
 * An outside program (external:NAME) goes through the protocol as it is (doc/external.md,
 * "Reversibility"): each leg is one run of the adapter -- the forward leg from the
 * problem's initial state, the backward leg from the reversed state, written into
 * run.json's nodes as any initial state is -- asking for the rows at t = 0 and n h only;
 * the state of the last row (mid-step velocities made on-step as for a replay) ends the
 * leg.  Row 0 must be the state sent, so an adapter that rebuilds the start from the
 * problem's parameters instead of the nodes is refused, not measured. */
#include "mb_external.h"
#include "mb_runner.h"
#include "mb_stepper.h"
#include "mb_status.h"
#include "mb_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROUND_TRIPS 4    /* t_end / 8, / 4, / 2, t_end */

/* n steps of h from the state of sys; the on-step state into on */
static int run_steps(const mb_case *c, const char *spec, mb_system *sys, long n, double h,
                     mb_nodes *on)
{
    (void)c;
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    if (st == NULL)
        return mb_last_error_code();
    int s = MB_SUCCESS;
    for (long k = 0; k < n && s == MB_SUCCESS; k++)
        s = mb_stepper_step(st, sys, h);
    if (s == MB_SUCCESS)
        s = mb_stepper_on_step(st, sys, on);
    mb_stepper_free(st);
    return s;
}

/* The same leg by an outside program: one run of its adapter from the state of sys, rows
 * at t = 0 and t = n h; the last row's state into on. */
static int external_leg(const mb_case *c, const char *spec, mb_system *sys, long n, double h,
                        mb_nodes *on)
{
    int rotation = mb_external_rotation(sys, on);
    mb_external_run x = { c->name, c->path, spec, c->problem, c->params, sys, rotation, h,
                          (double)n * h, c->external_timeout, n, n };
    mb_trajectory tr;
    int mid_step = 0;
    char reason[MB_EXTERNAL_REASON + 256];
    mb_process_status ps = mb_external_execute_one(&x, &tr, &mid_step, reason, sizeof reason);
    if (ps != MB_PROCESS_OK)
        MB_ERROR(MB_EFAILED, "%s%s", ps == MB_PROCESS_SKIPPED ? "skipped: " : "", reason);
    int s = mb_nodes_copy(on, sys->nodes);
    if (s == MB_SUCCESS) {
        mb_trajectory_set_state(&tr, tr.n_rows - 1, on);
        if (mid_step)
            s = mb_trajectory_synchronize(sys->forces, on, x.t_end, h, rotation);
    }
    mb_trajectory_free(&tr);
    return s;
}

typedef int (*leg_fn)(const mb_case *c, const char *spec, mb_system *sys, long n, double h,
                      mb_nodes *on);

static void reverse_velocities(mb_nodes *s)
{
    for (size_t k = 0; k < 3 * s->n; k++) {
        s->v[k] = -s->v[k];
        s->omega[k] = -s->omega[k];
        s->angmom[k] = -s->angmom[k];
    }
    mb_nodes_touch(s);
}

static double max_distance(const mb_nodes *a, const mb_nodes *b)
{
    double d = 0.0;
    for (size_t i = 0; i < a->n; i++) {
        double dx = a->x[3 * i] - b->x[3 * i], dy = a->x[3 * i + 1] - b->x[3 * i + 1];
        double dz = a->x[3 * i + 2] - b->x[3 * i + 2];
        double r = sqrt(dx * dx + dy * dy + dz * dz);
        if (!(r <= d))
            d = r;
    }
    return d;
}

/* One round trip of n steps each way: *dist = max |x(back) - x(0)|. */
static int round_trip(const mb_case *c, const char *spec, long n, double h, double *dist)
{
    leg_fn leg = mb_external_is_spec(spec) ? external_leg : run_steps;
    mb_system *go = NULL, *back = NULL;
    mb_nodes *on = NULL;
    int s = c->problem->setup(c->params, &go);
    if (s == MB_SUCCESS && (on = mb_nodes_alloc(go->nodes->n, 53)) == NULL)
        s = MB_ENOMEM;
    if (s == MB_SUCCESS)
        s = leg(c, spec, go, n, h, on);
    if (s == MB_SUCCESS)
        s = c->problem->setup(c->params, &back);
    if (s == MB_SUCCESS)
        s = mb_nodes_copy(back->nodes, on);
    if (s == MB_SUCCESS) {
        reverse_velocities(back->nodes);
        s = leg(c, spec, back, n, h, on);
    }
    mb_system_free(go);
    if (s == MB_SUCCESS) {
        mb_system *start = NULL;
        s = c->problem->setup(c->params, &start);
        if (s == MB_SUCCESS)
            *dist = max_distance(on, start->nodes);
        mb_system_free(start);
    }
    mb_system_free(back);
    mb_nodes_free(on);
    return s;
}

void mb_reversibility_metrics(const mb_case *c, const char *spec, double h, long steps,
                              mb_run_result *r)
{
    char detail[256];
    size_t used = (size_t)snprintf(detail, sizeof detail, "round trip T: distance");
    double d = NAN;
    const char *sep = " ";
    for (int k = ROUND_TRIPS - 1; k >= 0; k--) {
        long n = steps >> k;
        if (n == 0)
            continue;
        if (round_trip(c, spec, n, h, &d) != MB_SUCCESS) {
            mb_text_format(r->message, sizeof r->message, "reversibility: %s", mb_last_error());
            return;
        }
        if (used < sizeof detail)
            used += (size_t)snprintf(detail + used, sizeof detail - used, "%s%.6g: %.3g",
                                     sep, (double)n * h, d);
        sep = "; ";
    }
    mb_run_add_metric(r, "reversibility.distance", d, detail);
}
