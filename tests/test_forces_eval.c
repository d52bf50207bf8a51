/* test_forces_eval.c -- the force field's evaluation: the first model setting the forces
 * (eval_set), torques known to be zero, and the deferred check for NaN/Inf.
 *
 * Expected values do not come from the code under test:
 *  - gravity set as the first model must give the bits of gravity summed onto a zeroed
 *    force, which the field computes when gravity is not first (here after a drag of
 *    D = 0 on nodes at rest, which adds +0 - +0 = +0): the two paths share no code.
 *    Their values are also checked against IEEE arithmetic: m g exactly for one product,
 *    +0 (not -0) where m g = -0, since +0 + -0 = +0; +0 on a node of infinite mass.
 *  - an overflowing weight (m = 1e300, g = 1e10: m g = Inf) is a non-finite force that
 *    the deferred evaluation must let through and mb_forces_check must report; the
 *    leap-frog step must then fail with the field's message and leave the state as it
 *    was (the stepper contract, mb_stepper.h), on its fast path (nothing blocked) and on
 *    its general path (every translation blocked: the step then never reads f).
 *  - springs write a torque only through an arm (the moment r x f of a force with a part
 *    across r): a field of springs without arms must report torque-free, one with an arm
 *    must not, and its torques must show the moment.
 *  - torques known +0 (mb_forces_assemble_known, implicit-euler's step on the store its
 *    last step left): the expected torques are written out (+0, a stale 7 left unread, or
 *    the torque model's T_EXT exactly); the unannounced write left unread is the control
 *    that shows the read skipped, the announced one that it is still caught. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_force_torque.h"
#include "mb_forces.h"
#include "mb_linsys_sink.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "mb_system.h"

enum { N = 4 };

static const double g_signed[3] = { 0.0, -0.0, -9.81 };

/* Nodes at rest of masses 1, 2.5, 3 and Inf, with garbage in f and torque. */
static mb_system *field_system(void)
{
    mb_system *sys = mb_system_alloc(N);
    cr_assert_not_null(sys);
    const double m[N] = { 1.0, 2.5, 3.0, INFINITY };
    for (size_t i = 0; i < N; i++) {
        mb_nodes_set_mass(sys->nodes, i, m[i]);
        for (int k = 0; k < 3; k++) {
            sys->nodes->f[3 * i + k] = NAN;
            sys->nodes->torque[3 * i + k] = k == 0 ? -0.0 : 7.0;
        }
    }
    return sys;
}

static int is_pos_zero(double a)
{
    return a == 0.0 && !signbit(a);
}

Test(forces_eval, gravity_set_first_matches_gravity_summed_onto_zero)
{
    mb_system *first = field_system(), *second = field_system();
    cr_assert_eq(mb_forces_add(first->forces, mb_force_gravity, mb_gravity_new(g_signed)), 0);
    cr_assert_eq(mb_forces_add(second->forces, mb_force_drag, mb_drag_new(0.0)), 0);
    cr_assert_eq(mb_forces_add(second->forces, mb_force_gravity, mb_gravity_new(g_signed)), 0);
    cr_assert_eq(mb_forces_eval(first->forces, first->nodes, 0.0), MB_SUCCESS);
    cr_assert_eq(mb_forces_eval(second->forces, second->nodes, 0.0), MB_SUCCESS);
    cr_assert(memcmp(first->nodes->f, second->nodes->f, 3 * N * sizeof(double)) == 0,
              "gravity set first differs from gravity summed onto a zeroed force");
    const mb_nodes *s = first->nodes;
    for (size_t i = 0; i < N - 1; i++) {
        cr_assert(is_pos_zero(s->f[3 * i]) && is_pos_zero(s->f[3 * i + 1]),
                  "node %zu: m g = +-0 must sum to +0", i);
        cr_assert_eq(s->f[3 * i + 2], s->mass[i] * -9.81);
    }
    for (int k = 0; k < 3; k++)
        cr_assert(is_pos_zero(s->f[3 * (N - 1) + k]), "infinite mass: no weight");
    mb_system_free(first);
    mb_system_free(second);
}

Test(forces_eval, torque_free_field_reports_and_restores_zero_torque)
{
    mb_system *sys = field_system();
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g_signed)), 0);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(0.5)), 0);
    int torque_zero = -1;
    cr_assert_eq(mb_forces_eval_deferred(sys->forces, sys->nodes, 0.0, &torque_zero), MB_SUCCESS);
    cr_assert_eq(torque_zero, 1);
    for (size_t k = 0; k < 3 * N; k++)
        cr_assert(is_pos_zero(sys->nodes->torque[k]), "torque %zu not reset to +0", k);
    mb_system_free(sys);
}

Test(forces_eval, torque_model_is_not_torque_free)
{
    mb_system *sys = field_system();
    const double T[3] = { 0.0, 0.0, 2.0 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g_signed)), 0);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_torque, mb_torque_new(T)), 0);
    int torque_zero = -1;
    cr_assert_eq(mb_forces_eval_deferred(sys->forces, sys->nodes, 0.0, &torque_zero), MB_SUCCESS);
    cr_assert_eq(torque_zero, 0);
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(sys->nodes->torque[3 * i + 2], 2.0);
    mb_system_free(sys);
}

/* Springs between nodes 0-1 and 1-2 stretched off their rest lengths; with_arm: the
 * second attached by an arm off the centre of node 1, whose force then has a moment. */
static mb_system *spring_field(int with_arm)
{
    mb_system *sys = field_system();
    for (size_t i = 0; i < N; i++)
        for (int k = 0; k < 3; k++)
            sys->nodes->x[3 * i + k] = 0.3 * (double)i + (k == 1 ? 0.05 * (double)(i * i) : 0.0);
    void *springs = mb_springs_new();
    cr_assert_not_null(springs);
    mb_spring a = { .i = 0, .j = 1, .k = 7.5, .rest = 0.2, .c = 0.1 };
    mb_spring b = { .i = 1, .j = 2, .k = 3.25, .rest = 0.25, .c = 0.0,
                    .has_arms = with_arm, .arm_i = { 0.0, 0.0, with_arm ? 0.1 : 0.0 } };
    cr_assert_eq(mb_springs_add(springs, &a), MB_SUCCESS);
    cr_assert_eq(mb_springs_add(springs, &b), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, springs), 0);
    return sys;
}

/* Springs write torques only through arms: without one the field is torque-free (its
 * torques reset to +0 and never written), with one it is not, and the arm's moment
 * r x f = (0, 0, 0.1) x f, nonzero since f has x and y parts, shows in the torques. */
Test(forces_eval, springs_without_arms_are_torque_free)
{
    for (int with_arm = 0; with_arm <= 1; with_arm++) {
        mb_system *sys = spring_field(with_arm);
        int torque_zero = -1;
        cr_assert_eq(mb_forces_eval_deferred(sys->forces, sys->nodes, 0.0, &torque_zero),
                     MB_SUCCESS, "%s", mb_last_error());
        cr_expect_eq(torque_zero, !with_arm, "arms %d: torque_zero %d", with_arm, torque_zero);
        double tmax = 0.0;
        for (size_t k = 0; k < 3 * N; k++) {
            if (!with_arm)
                cr_expect(is_pos_zero(sys->nodes->torque[k]), "torque %zu not +0", k);
            tmax = fmax(tmax, fabs(sys->nodes->torque[k]));
        }
        cr_expect(with_arm ? tmax > 0.0 : tmax == 0.0, "arms %d: largest torque %g", with_arm,
                  tmax);
        mb_system_free(sys);
    }
}

/* One free node of mass 1e300 under g = 1e10: its weight overflows to Inf. */
static mb_system *overflow_system(unsigned char blocked)
{
    mb_system *sys = mb_system_alloc(1);
    cr_assert_not_null(sys);
    const double g[3] = { 0.0, 0.0, 1e10 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), 0);
    mb_nodes_set_mass(sys->nodes, 0, 1e300);
    sys->nodes->x[0] = 1.5;
    sys->nodes->v[1] = -0.25;
    sys->nodes->blocked[0] = blocked;
    return sys;
}

Test(forces_eval, deferred_evaluation_leaves_the_force_check_to_the_caller)
{
    mb_system *sys = overflow_system(0);
    int torque_zero;
    cr_assert_eq(mb_forces_eval_deferred(sys->forces, sys->nodes, 0.0, &torque_zero), MB_SUCCESS);
    cr_assert(isinf(sys->nodes->f[2]));
    cr_assert_eq(mb_forces_check(sys->nodes, 0.0), MB_EDIVERGED);
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_EDIVERGED);
    mb_system_free(sys);
}

/* The implicit assembly straight into storage (mb_forces_assemble through a sink) checks
 * the forces as it forms b = M v + h f: the infinite weight must stop it with the field's
 * message, not reach the solve. */
Test(forces_eval, implicit_assembly_reports_an_infinite_force)
{
    mb_system *sys = overflow_system(0);
    mb_blocktri *T = mb_blocktri_alloc(1);
    mb_jacobian *J = mb_jacobian_alloc(1, 53);
    double b[3];
    cr_assert(T && J);
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, sys->nodes, 0.01, T, NULL, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, sys->nodes, 0.0, &k, J), MB_EDIVERGED);
    cr_assert(strstr(mb_last_error(), "force or torque is NaN or Inf at t = 0") != NULL,
              "message: %s", mb_last_error());
    mb_linsys_sink_release(&k);
    mb_jacobian_free(J);
    mb_blocktri_free(T);
    mb_system_free(sys);
}

static void leapfrog_fails_on_infinite_force(unsigned char blocked)
{
    mb_system *sys = overflow_system(blocked);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st);
    double x[3], v[3];
    memcpy(x, sys->nodes->x, sizeof x);
    memcpy(v, sys->nodes->v, sizeof v);
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_EDIVERGED);
    cr_assert(strstr(mb_last_error(), "force or torque is NaN or Inf at t = 0") != NULL,
              "message: %s", mb_last_error());
    cr_assert(memcmp(x, sys->nodes->x, sizeof x) == 0 && memcmp(v, sys->nodes->v, sizeof v) == 0,
              "the state moved");
    cr_assert_eq(sys->t, 0.0);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(forces_eval, leapfrog_fast_path_reports_an_infinite_force)
{
    leapfrog_fails_on_infinite_force(0);
}

Test(forces_eval, leapfrog_general_path_reports_an_infinite_force_it_never_reads)
{
    leapfrog_fails_on_infinite_force(MB_BLOCK_X | MB_BLOCK_Y | MB_BLOCK_Z);
}

/* The leap-frog step of a field that is gravity alone reads no torque while the store is
 * the one its last step left still (same generation): that step left every torque +0.
 * A torque written since, with the store touched as writers must (mb_nodes_touch), is
 * reset to +0 by the next step; and without gravity's one-pass path (a drag of D = 0
 * beside it) the same holds. */
static void leapfrog_restores_touched_torques(int with_drag)
{
    mb_system *sys = field_system();
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g_signed)), 0);
    if (with_drag)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(0.0)), 0);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int k = 0; k < 2; k++)               /* the first step, then one on the fast path */
        cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    for (size_t k = 0; k < 3 * N; k++)
        sys->nodes->torque[k] = 7.0;
    mb_nodes_touch(sys->nodes);
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    for (size_t k = 0; k < 3 * N; k++)
        cr_expect(is_pos_zero(sys->nodes->torque[k]), "torque %zu is %g after a touched write",
                  k, sys->nodes->torque[k]);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(forces_eval, leapfrog_uniform_field_resets_torques_written_since_its_last_step)
{
    leapfrog_restores_touched_torques(0);
}

Test(forces_eval, leapfrog_two_model_field_resets_torques_written_since_its_last_step)
{
    leapfrog_restores_touched_torques(1);
}

/* f after a leap-frog step of a field that is one uniform acceleration g: the weight
 * +0 + m g on the nodes of finite mass and +0 on the node of infinite mass, bit for bit
 * as IEEE arithmetic gives it here.  The step keeps f instead of storing it again while
 * the store is as its last step left it and g has not changed; each of these tests
 * changes one of the two. */
static void expect_weight(const mb_nodes *s, const double g[3], const char *after)
{
    for (size_t i = 0; i < N; i++)
        for (int k = 0; k < 3; k++) {
            const double want = isfinite(s->mass[i]) ? 0.0 + s->mass[i] * g[k] : 0.0;
            cr_expect(memcmp(&want, &s->f[3 * i + k], sizeof want) == 0,
                      "f[%zu][%d] is %.17g, not %.17g, after %s", i, k, s->f[3 * i + k],
                      want, after);
        }
}

Test(forces_eval, leapfrog_uniform_field_rewrites_forces_and_masses_written_since_its_last_step)
{
    mb_system *sys = field_system();
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g_signed)), 0);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int k = 0; k < 3; k++) {     /* the first step, then two on the one-pass path */
        cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
        expect_weight(sys->nodes, g_signed, "a step");
    }
    for (size_t k = 0; k < 3 * N; k++)
        sys->nodes->f[k] = 7.0;
    mb_nodes_touch(sys->nodes);
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    expect_weight(sys->nodes, g_signed, "forces written since the last step");
    mb_nodes_set_mass(sys->nodes, 1, 4.0);         /* a setter touches the store */
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    expect_weight(sys->nodes, g_signed, "a mass set since the last step");
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* A uniform acceleration that changes with time, g(t) = (0, -0, -9.81 - t): gravity's
 * type with its uniform_acceleration replaced (the one-pass path calls nothing else). */
static void g_of_time(const void *params, double t, double g[3])
{
    (void)params;
    g[0] = 0.0;
    g[1] = -0.0;
    g[2] = -9.81 - t;
}

Test(forces_eval, leapfrog_uniform_field_whose_g_changes_rewrites_forces_every_step)
{
    static mb_force_type changing;
    changing = *mb_force_gravity;
    changing.uniform_acceleration = g_of_time;
    mb_system *sys = field_system();
    cr_assert_eq(mb_forces_add(sys->forces, &changing, mb_gravity_new(g_signed)), 0);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    for (int k = 0; k < 3; k++) {     /* steps on the one-pass path */
        double g[3];
        g_of_time(NULL, sys->t, g);
        cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
        expect_weight(sys->nodes, g, "a step whose g differs from the last step's");
    }
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* A chain of three unit masses joined by two linear springs (k = 4, rest length 0),
 * stretched and moving; with_torque: a constant torque T_EXT = (0.5, -0.25, 2) on every
 * node beside the springs (a model that writes torques). */
static const double T_EXT[3] = { 0.5, -0.25, 2.0 };

static mb_system *chain_field(int with_torque)
{
    mb_system *sys = mb_system_alloc(3);
    cr_assert_not_null(sys);
    for (size_t i = 0; i < 3; i++) {
        mb_nodes_set_mass(sys->nodes, i, 1.0);
        for (int k = 0; k < 3; k++) {
            sys->nodes->x[3 * i + k] = 0.4 * (double)i + (k == 2 ? 0.1 * (double)i : 0.0);
            sys->nodes->v[3 * i + k] = k == 1 ? 0.3 - 0.2 * (double)i : 0.0;
            sys->nodes->torque[3 * i + k] = 7.0;
        }
    }
    void *springs = mb_springs_new();
    cr_assert_not_null(springs);
    for (size_t i = 0; i < 2; i++) {
        mb_spring sp = { .i = i, .j = i + 1, .k = 4.0 };
        cr_assert_eq(mb_springs_add(springs, &sp), MB_SUCCESS);
    }
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, springs), 0);
    if (with_torque)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_torque, mb_torque_new(T_EXT)), 0);
    return sys;
}

/* The torques after an assembly into block-tridiagonal storage told (torques_pos_zero)
 * that every torque is +0, while each holds a stale 7 that was not announced.  A
 * torque-free field then does not read them (the 7 stays: no write, the check skipped as
 * the caller asked); a field with a torque model still zeroes them before its model
 * writes T_EXT, so they are T_EXT exactly, not 7 + T_EXT. */
static void assemble_told_zero(int with_torque, const char *what)
{
    mb_system *sys = chain_field(with_torque);
    mb_blocktri *T = mb_blocktri_alloc(3);
    mb_jacobian *J = mb_jacobian_alloc(3, 53);
    double b[9];
    cr_assert(T && J);
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, sys->nodes, 0.01, T, NULL, b);
    cr_assert_eq(mb_forces_torque_free(sys->forces), !with_torque);
    cr_assert_eq(mb_forces_assemble_known(sys->forces, sys->nodes, 0.0, &k, J, 1), MB_SUCCESS,
                 "%s", mb_last_error());
    for (size_t q = 0; q < 9; q++) {
        const double want = with_torque ? T_EXT[q % 3] : 7.0;
        cr_expect(memcmp(&want, &sys->nodes->torque[q], sizeof want) == 0,
                  "%s: torque %zu is %.17g, not %.17g", what, q, sys->nodes->torque[q], want);
    }
    mb_linsys_sink_release(&k);
    mb_jacobian_free(J);
    mb_blocktri_free(T);
    mb_system_free(sys);
}

Test(forces_eval, assembly_told_torques_are_zero_reads_none_of_a_torque_free_field)
{
    assemble_told_zero(0, "springs alone");
}

Test(forces_eval, assembly_told_torques_are_zero_still_zeroes_a_torque_model_s)
{
    assemble_told_zero(1, "springs and a torque");
}

/* implicit-euler's step into block-tridiagonal storage reads no torque of a torque-free
 * field while the store is the one its last step left (same generation): that step left
 * them +0.  A torque written since and announced (mb_nodes_touch) is reset to +0 by the
 * next step.  Control: the same write not announced is not seen -- the torques keep the
 * 7 -- which shows that the step read none (and that the announcement is what the test
 * rests on). */
static void ieuler_steps_with_torques_written(int announce)
{
    mb_system *sys = chain_field(0);
    mb_stepper *st = mb_stepper_alloc("implicit-euler[solver=blocktri]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int n = 0; n < 2; n++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    for (size_t q = 0; q < 9; q++)
        sys->nodes->torque[q] = 7.0;
    if (announce)
        mb_nodes_touch(sys->nodes);
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    for (size_t q = 0; q < 9; q++) {
        const double want = announce ? 0.0 : 7.0;
        cr_expect(memcmp(&want, &sys->nodes->torque[q], sizeof want) == 0,
                  "torque %zu is %.17g, not %.17g (write announced: %d)", q,
                  sys->nodes->torque[q], want, announce);
    }
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(forces_eval, implicit_euler_resets_torques_written_and_announced_since_its_last_step)
{
    ieuler_steps_with_torques_written(1);
}

Test(forces_eval, implicit_euler_reads_no_torque_of_the_store_its_last_step_left)
{
    ieuler_steps_with_torques_written(0);
}

/* A field with a model that writes torques never reaches that step: implicit-euler
 * integrates translation only and is refused such a system when it is set up. */
Test(forces_eval, implicit_euler_is_refused_a_field_with_a_torque_model)
{
    mb_system *sys = chain_field(1);
    cr_assert_null(mb_stepper_alloc("implicit-euler[solver=blocktri]", sys));
    cr_expect(strstr(mb_last_error(), "integrates translation only") != NULL, "%s",
              mb_last_error());
    mb_system_free(sys);
}
