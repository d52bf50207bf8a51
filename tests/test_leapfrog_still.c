/* test_leapfrog_still.c -- the leap-frog step skips the rotation of a system in which no
 * node rotates (w, L, T all +0, spherical nodes); the result must be the very bits the
 * general rotation path gives.
 *
 * Expected values come from the general path itself, run on the same nodes inside a
 * system that also holds one spinning node (so the skip cannot apply there): the still
 * nodes of both systems must end with bit-identical x, v, q, w, L.  The orientations
 * cover the three cases of the skip: the identity, a unit quaternion whose squared norm
 * rounds to exactly 1, a quaternion that is not normalised (the step must still
 * normalise it, so the skip must not apply until it is) and a -0 component (which the
 * product with Quaternion(+0) turns into +0). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_stepper.h"
#include "mb_system.h"

enum { STILL = 5, STEPS = 40 };

static const double q_cases[STILL][4] = {
    { 1.0, 0.0, 0.0, 0.0 },
    { 0.6, 0.8, 0.0, 0.0 },
    { 0.5, 0.5, 0.5, 0.5 },
    { 0.7, 0.1, 0.2, 0.3 },          /* |q| != 1 */
    { 1.0, -0.0, 0.0, 0.0 },         /* a -0 component */
};

/* STILL still nodes, plus one spinning node when spinning = 1; gravity acts on all. */
static mb_system *still_system(int spinning)
{
    mb_system *sys = mb_system_alloc(STILL + (size_t)spinning);
    cr_assert_not_null(sys);
    const double g[3] = { 0.3, 0.0, -9.81 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), 0);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < STILL; i++) {
        mb_nodes_set_mass(s, i, 1.0 + 0.25 * (double)i);
        memcpy(&s->q[4 * i], q_cases[i], sizeof q_cases[i]);
        for (int k = 0; k < 3; k++) {
            s->x[3 * i + k] = 0.1 * (double)(i + k);
            s->v[3 * i + k] = 0.7 - 0.2 * (double)k;
        }
    }
    if (spinning)
        s->omega[3 * STILL + 2] = 3.0;
    return sys;
}

static int same_bits(const double *a, const double *b, size_t count)
{
    return memcmp(a, b, count * sizeof(double)) == 0;
}

static void check_against_general_path(const char *spec)
{
    mb_system *still = still_system(0), *mixed = still_system(1);
    mb_stepper *a = mb_stepper_alloc(spec, still), *b = mb_stepper_alloc(spec, mixed);
    cr_assert(a && b);
    for (int n = 0; n < STEPS; n++) {
        cr_assert_eq(mb_stepper_step(a, still, 1e-3), 0);
        cr_assert_eq(mb_stepper_step(b, mixed, 1e-3), 0);
    }
    const mb_nodes *s = still->nodes, *m = mixed->nodes;
    cr_expect(same_bits(s->x, m->x, 3 * STILL), "%s: positions differ", spec);
    cr_expect(same_bits(s->v, m->v, 3 * STILL), "%s: velocities differ", spec);
    cr_expect(same_bits(s->q, m->q, 4 * STILL), "%s: orientations differ", spec);
    cr_expect(same_bits(s->omega, m->omega, 3 * STILL), "%s: angular velocities differ", spec);
    cr_expect(same_bits(s->angmom, m->angmom, 3 * STILL), "%s: angular momenta differ", spec);
    /* the unnormalised q was normalised by the step, and the -0 became +0 */
    cr_expect(fabs(hypot(hypot(s->q[12], s->q[13]), hypot(s->q[14], s->q[15])) - 1.0) < 1e-15);
    cr_expect(!signbit(s->q[17]));
    mb_stepper_stats sa, sb;
    mb_stepper_get_stats(a, &sa);
    mb_stepper_get_stats(b, &sb);
    cr_expect(sa.quat_norm_error_max > 0.0, "the first step normalises q = (0.7, 0.1, 0.2, 0.3)");
    mb_stepper_free(a);
    mb_stepper_free(b);
    mb_system_free(still);
    mb_system_free(mixed);
}

Test(leapfrog_still, skip_gives_the_general_path_bits)
{
    check_against_general_path("leapfrog");
}

Test(leapfrog_still, skip_gives_the_general_path_bits_with_damping_and_first_step)
{
    check_against_general_path("leapfrog[damping=0.3,adj_vel0=off]");
}

/* The skip is remembered from step to step by the state generation (mb_stepper.h): a
 * still system keeps skipping, and a spin written between steps (with mb_nodes_touch, as
 * the contract asks) is integrated by the next step exactly as by a fresh stepper. */
Test(leapfrog_still, a_spin_written_between_steps_is_seen)
{
    mb_system *sys = still_system(0), *ref = still_system(0);
    mb_stepper *a = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(a);
    for (int n = 0; n < 10; n++)
        cr_assert_eq(mb_stepper_step(a, sys, 1e-3), 0);
    sys->nodes->omega[2] = 2.0;
    mb_nodes_touch(sys->nodes);
    cr_assert_eq(mb_nodes_copy(ref->nodes, sys->nodes), 0);
    ref->t = sys->t;
    mb_stepper *b = mb_stepper_alloc("leapfrog", ref);
    cr_assert_not_null(b);
    cr_assert_eq(mb_stepper_step(a, sys, 1e-3), 0);
    cr_assert_eq(mb_stepper_step(b, ref, 1e-3), 0);
    cr_expect(sys->nodes->q[3] != 0.0, "the written spin did not turn node 0");
    cr_expect(same_bits(sys->nodes->q, ref->nodes->q, 4 * STILL), "orientations differ");
    cr_expect(same_bits(sys->nodes->omega, ref->nodes->omega, 3 * STILL), "spins differ");
    mb_stepper_free(a);
    mb_stepper_free(b);
    mb_system_free(sys);
    mb_system_free(ref);
}

/* The step remembers that no node was blocked while the store is as it left it; a
 * component blocked between steps (and announced) has zero acceleration from the next
 * step on: its velocity keeps its bits under gravity, which moves the free ones. */
Test(leapfrog_still, a_component_blocked_between_steps_is_held)
{
    mb_system *sys = still_system(0);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st);
    for (int n = 0; n < 10; n++)
        cr_assert_eq(mb_stepper_step(st, sys, 1e-3), 0);
    sys->nodes->blocked[2] = MB_BLOCK_Z;
    mb_nodes_touch(sys->nodes);
    const double vz = sys->nodes->v[3 * 2 + 2], vz_free = sys->nodes->v[3 * 1 + 2];
    cr_assert_eq(mb_stepper_step(st, sys, 1e-3), 0);
    cr_expect(memcmp(&vz, &sys->nodes->v[3 * 2 + 2], sizeof vz) == 0,
              "blocked v_z moved from %.17g to %.17g", vz, sys->nodes->v[3 * 2 + 2]);
    cr_expect(sys->nodes->v[3 * 1 + 2] < vz_free, "gravity did not act on a free node");
    mb_stepper_free(st);
    mb_system_free(sys);
}
