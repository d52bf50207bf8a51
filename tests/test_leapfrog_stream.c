/* test_leapfrog_stream.c -- the leap-frog fast path on stores too large for the caches
 * writes its outputs with non-temporal stores, two nodes at a time (leapfrog_stream.h);
 * its results must be the very bits of seed 002 eq. (28) in IEEE double:
 *   a = f im,  a = a h,  v+ = v + a,  x+ = x + v+ h      (constant step: hk = h),
 * which the test computes itself, one scalar operation per statement.
 *
 * The store has 2^19 + 1 nodes: past the streaming threshold, with an odd node that the
 * scalar loop finishes.  Outputs are compared bit for bit on 16-byte aligned arrays
 * (streamed) and on arrays offset by one double (ordinary stores), and through a whole
 * mb_stepper_step, and a step of another length after a first (hp != h).  A NaN
 * velocity in the streamed part, and one in the odd node, must be reported as
 * MB_EDIVERGED.
 *
 * A field that is gravity alone takes the one-pass path (lf_translate_uniform): the
 * step computes f = +0 + m g itself, node by node, and streams it with x and v.  Its f
 * must be the bits of that sum (+0 on a node of infinite mass, which then drifts at
 * constant v), and x, v those of eq. (28) from it, on the large store (streamed) and on
 * a small one (ordinary stores; its last node, of infinite mass, in the scalar loop); a
 * NaN velocity on that path is still MB_EDIVERGED. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_leapfrog.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "mb_system.h"

#define NODES (((size_t)1 << 19) + 1)
#define H 1e-3

static const double gravity_g[3] = { 0.25, -1.5, -9.81 };

static mb_system *large_store(void)
{
    mb_system *sys = mb_system_alloc(NODES);
    cr_assert_not_null(sys);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(gravity_g)), 0);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < NODES; i++) {
        mb_nodes_set_mass(s, i, 1.0 + 1e-3 * (double)(i % 97));
        for (int k = 0; k < 3; k++) {
            const size_t j = 3 * i + (size_t)k;
            s->x[j] = 1e-3 * (double)(j % 1013) - 0.4;
            s->v[j] = 1e-2 * (double)(j % 71) - 0.3;
            s->f[j] = 0.7 * (double)((j % 13) + 1) - 4.0;
        }
    }
    return sys;
}

/* n doubles on a 16-byte boundary: C11 aligned_alloc wants a size that is a multiple of
 * the alignment (3 NODES doubles is not: 3 NODES is odd), so the size is rounded up */
static double *aligned_doubles(size_t n)
{
    const size_t align = 16, bytes = n * sizeof(double);
    return aligned_alloc(align, (bytes + align - 1) / align * align);
}

/* seed 002 eq. (28) for one component, one IEEE operation per statement */
static void kick_drift(double x, double v, double f, double im, double *x_out, double *v_out)
{
    double a = f * im;
    a = a * H;
    const double vp = v + a;
    const double dx = vp * H;
    *v_out = vp;
    *x_out = x + dx;
}

static void expect_eq28(const mb_nodes *s, const double *x_out, const double *v_out)
{
    size_t wrong = 0, first = 0;
    for (size_t j = 0; j < 3 * NODES; j++) {
        double xe, ve;
        kick_drift(s->x[j], s->v[j], s->f[j], s->inv_mass[j / 3], &xe, &ve);
        if (memcmp(&xe, &x_out[j], sizeof xe) != 0 || memcmp(&ve, &v_out[j], sizeof ve) != 0)
            if (wrong++ == 0)
                first = j;
    }
    cr_expect_eq(wrong, 0, "%zu components differ from eq. (28), the first at %zu", wrong, first);
}

Test(leapfrog_stream, kernel_is_eq28_bit_for_bit_aligned_and_not)
{
    mb_system *sys = large_store();
    double *buf = aligned_doubles(6 * NODES + 2);
    cr_assert_not_null(buf);
    /* 3 NODES + 1 is even: x_out and v_out are 16-byte aligned (streamed), and both
     * are not when offset by one double (ordinary stores) */
    double *x_out = buf, *v_out = buf + 3 * NODES + 1;
    cr_assert_eq(mb_leapfrog_translate(sys->nodes, x_out, v_out, H), MB_SUCCESS);
    expect_eq28(sys->nodes, x_out, v_out);
    cr_assert_eq(mb_leapfrog_translate(sys->nodes, x_out + 1, v_out + 1, H), MB_SUCCESS);
    expect_eq28(sys->nodes, x_out + 1, v_out + 1);
    double *a = aligned_doubles(3 * NODES);
    double *b = aligned_doubles(3 * NODES);
    cr_assert(a && b);
    cr_assert_eq(mb_leapfrog_translate(sys->nodes, a, b, H), MB_SUCCESS);
    expect_eq28(sys->nodes, a, b);
    free(a);
    free(b);
    free(buf);
    mb_system_free(sys);
}

Test(leapfrog_stream, whole_step_is_eq28_bit_for_bit)
{
    mb_system *sys = large_store(), *before = large_store();
    mb_stepper *st = mb_stepper_alloc("leapfrog[adj_vel0=off]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS);
    /* the step's forces are gravity, m g: give the reference store the same f */
    cr_assert_eq(mb_forces_eval(before->forces, before->nodes, 0.0), MB_SUCCESS);
    expect_eq28(before->nodes, sys->nodes->x, sys->nodes->v);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_system_free(before);
}

/* A variable step, seed 002 eq. (28) with hp != h: after a step of H the kick of a step
 * of H2 spans the two half steps around t, hk = (H + H2)/2, and the drift takes H2:
 *   a = f im,  a = a hk,  v+ = v + a,  x+ = x + v+ H2,
 * computed here one scalar operation per statement and compared bit for bit with the
 * second streamed step (hk = h only for constant steps: a kernel that kicks with h, or
 * drifts with hk, passes every constant-step test and fails this one by about 15%). */
#define H2 7e-4

Test(leapfrog_stream, variable_step_is_eq28_bit_for_bit)
{
    mb_system *sys = large_store(), *before = large_store();
    mb_stepper *st = mb_stepper_alloc("leapfrog[adj_vel0=off]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS);
    mb_nodes *s1 = before->nodes;
    cr_assert_eq(mb_nodes_copy(s1, sys->nodes), MB_SUCCESS);
    cr_assert_eq(mb_stepper_step(st, sys, H2), MB_SUCCESS);
    cr_assert_eq(mb_forces_eval(before->forces, s1, H), MB_SUCCESS);   /* f = m g */
    const double hk = 0.5 * (H + H2);
    size_t wrong = 0, first = 0;
    for (size_t j = 0; j < 3 * NODES; j++) {
        double a = s1->f[j] * s1->inv_mass[j / 3];
        a = a * hk;
        const double ve = s1->v[j] + a;
        const double dx = ve * H2;
        const double xe = s1->x[j] + dx;
        if (memcmp(&xe, &sys->nodes->x[j], sizeof xe) != 0
            || memcmp(&ve, &sys->nodes->v[j], sizeof ve) != 0)
            if (wrong++ == 0)
                first = j;
    }
    cr_expect_eq(wrong, 0, "%zu components differ from eq. (28) with hp != h, the first at %zu",
                 wrong, first);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_system_free(before);
}

static void nan_is_reported(size_t node)
{
    mb_system *sys = large_store();
    sys->nodes->v[3 * node + 1] = NAN;
    double *a = aligned_doubles(3 * NODES);
    double *b = aligned_doubles(3 * NODES);
    cr_assert(a && b);
    cr_expect_eq(mb_leapfrog_translate(sys->nodes, a, b, H), MB_EDIVERGED,
                 "a NaN velocity of node %zu was not reported", node);
    free(a);
    free(b);
    mb_system_free(sys);
}

Test(leapfrog_stream, nan_in_the_streamed_part_is_reported)
{
    nan_is_reported(12345);
}

Test(leapfrog_stream, nan_in_the_odd_node_is_reported)
{
    nan_is_reported(NODES - 1);
}

/* ------------------------------------------------- one-pass uniform field ---- */

/* Nodes 7 and NODES - 1 (streamed part and odd node) of infinite mass. */
static mb_system *store_with_fixed_nodes(size_t n)
{
    mb_system *sys = mb_system_alloc(n);
    cr_assert_not_null(sys);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(gravity_g)), 0);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < n; i++) {
        mb_nodes_set_mass(s, i, (i == 7 || i == n - 1) ? INFINITY : 1.0 + 1e-3 * (double)(i % 97));
        for (int k = 0; k < 3; k++) {
            const size_t j = 3 * i + (size_t)k;
            s->x[j] = 1e-3 * (double)(j % 1013) - 0.4;
            s->v[j] = 1e-2 * (double)(j % 71) - 0.3;
            s->f[j] = NAN;                  /* stale: the step must overwrite every f */
        }
    }
    return sys;
}

/* One step of the one-pass path against f = +0 + m g (or +0 where 1/m = 0) and eq. (28),
 * one IEEE operation per statement. */
static void expect_uniform_step(size_t n)
{
    mb_system *sys = store_with_fixed_nodes(n), *before = store_with_fixed_nodes(n);
    mb_stepper *st = mb_stepper_alloc("leapfrog[adj_vel0=off]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS, "%s", mb_last_error());
    const mb_nodes *s0 = before->nodes, *s1 = sys->nodes;
    size_t wrong_f = 0, wrong_xv = 0;
    for (size_t j = 0; j < 3 * n; j++) {
        const size_t i = j / 3;
        const double mg = s0->inv_mass[i] != 0.0 ? s0->mass[i] * gravity_g[j % 3] : 0.0;
        const double fe = 0.0 + mg;
        double xe, ve;
        kick_drift(s0->x[j], s0->v[j], fe, s0->inv_mass[i], &xe, &ve);
        wrong_f += memcmp(&fe, &s1->f[j], sizeof fe) != 0;
        wrong_xv += memcmp(&xe, &s1->x[j], sizeof xe) != 0 || memcmp(&ve, &s1->v[j], sizeof ve) != 0;
    }
    cr_expect_eq(wrong_f, 0, "%zu forces of %zu nodes differ from +0 + m g", wrong_f, n);
    cr_expect_eq(wrong_xv, 0, "%zu components of %zu nodes differ from eq. (28)", wrong_xv, n);
    cr_expect(signbit(s1->f[3 * 7 + 2]) == 0 && s1->f[3 * 7 + 2] == 0.0,
              "a node of infinite mass must have f = +0");
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_system_free(before);
}

Test(leapfrog_stream, uniform_field_one_pass_is_eq28_streamed)
{
    expect_uniform_step(NODES);
}

Test(leapfrog_stream, uniform_field_one_pass_is_eq28_small_store)
{
    expect_uniform_step(1001);
}

Test(leapfrog_stream, uniform_field_one_pass_reports_nan)
{
    mb_system *sys = store_with_fixed_nodes(NODES);
    sys->nodes->v[3 * 12345 + 1] = NAN;
    mb_stepper *st = mb_stepper_alloc("leapfrog[adj_vel0=off]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_expect_eq(mb_stepper_step(st, sys, H), MB_EDIVERGED);
    mb_stepper_free(st);
    mb_system_free(sys);
}
