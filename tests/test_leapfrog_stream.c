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
 * small ones (ordinary stores; their last nodes, the last of infinite mass, in the
 * scalar loop after a kernel of two or four nodes); a NaN velocity on that path is still
 * MB_EDIVERGED.
 *
 * The kernels themselves, the SSE2 ones and the AVX2 ones the step runs instead on a
 * processor that has AVX2, are called directly at the end (whatever the processor
 * choosing for the step), streamed and not, against the same equations. */
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

/* Streamed, the AVX2 kernel starts at the node from which x_out and v_out are 32-byte
 * aligned (lf_quads_start), the scalar loop doing the nodes before it: outputs starting
 * 0, 1, 2 and 3 doubles past a 32-byte boundary start it at nodes 0, 1, 2 and 3 (a node
 * is 24 bytes); outputs of different alignments leave the pass to the SSE2 kernel. */
Test(leapfrog_stream, kernel_is_eq28_bit_for_bit_from_every_alignment)
{
    mb_system *sys = large_store();
    double *a = aligned_alloc(64, (3 * NODES + 8) * sizeof(double) / 64 * 64 + 64);
    double *b = aligned_alloc(64, (3 * NODES + 8) * sizeof(double) / 64 * 64 + 64);
    cr_assert(a && b);
    for (size_t k = 0; k < 4; k++) {
        cr_assert_eq(mb_leapfrog_translate(sys->nodes, a + k, b + k, H), MB_SUCCESS);
        expect_eq28(sys->nodes, a + k, b + k);
        memset(a, 0, 3 * NODES * sizeof(double));
    }
    cr_assert_eq(mb_leapfrog_translate(sys->nodes, a + 1, b + 2, H), MB_SUCCESS);
    expect_eq28(sys->nodes, a + 1, b + 2);
    free(a);
    free(b);
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

/* the scalar loop finishes two or three nodes after the four-node kernel */
Test(leapfrog_stream, uniform_field_one_pass_is_eq28_every_remainder)
{
    expect_uniform_step(1002);
    expect_uniform_step(1003);
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

/* ------------------------------------------------------ the kernels themselves ---- */

/* The step runs one kernel family, chosen by the processor: four nodes at a time with
 * AVX2 (leapfrog_quads.h), else two at a time with SSE2 (leapfrog_stream.h).  Both are
 * called here directly, whatever the processor of the test (the AVX2 ones only where it
 * has AVX2), streamed and not, storing f and not, on node counts of every remainder
 * modulo 4, with a kick length hk different from h and a g with a -0 component (whose
 * force +0 + m (-0) is +0, not -0), against eq. (28) and f = +0 + m g (+0 where 1/m = 0)
 * computed here one IEEE operation per statement.  A kernel returns the number of nodes
 * it did (the rest is the scalar loop's, tested through the step above). */
#include "leapfrog_quads.h"
#include "leapfrog_stream.h"

#define KERNEL_HK (0.5 * (H + H2))

static const double kernel_g[3] = { 0.25, -0.0, -9.81 };

struct kernel_case {
    size_t n;
    double *x, *v, *m, *im, *f, *x_out, *v_out;   /* 64-byte aligned */
};

static double *kernel_array(size_t count)
{
    double *a = aligned_alloc(64, (count * sizeof(double) + 63) / 64 * 64);
    cr_assert_not_null(a);
    return a;
}

/* n nodes; nodes 5, 10, 15 and 20 (every position in a group of four) of infinite mass */
static struct kernel_case kernel_case_new(size_t n)
{
    struct kernel_case k = { n, kernel_array(3 * n), kernel_array(3 * n), kernel_array(n),
                             kernel_array(n), kernel_array(3 * n), kernel_array(3 * n),
                             kernel_array(3 * n) };
    for (size_t i = 0; i < n; i++) {
        const int fixed = i == 5 || i == 10 || i == 15 || i == 20;
        k.m[i] = fixed ? INFINITY : 1.0 + 1e-3 * (double)(i % 97);
        k.im[i] = fixed ? 0.0 : 1.0 / k.m[i];
        for (size_t j = 3 * i; j < 3 * i + 3; j++) {
            k.x[j] = 1e-3 * (double)(j % 1013) - 0.4;
            k.v[j] = 1e-2 * (double)(j % 71) - 0.3;
            k.f[j] = 0.7 * (double)((j % 13) + 1) - 4.0;
        }
    }
    return k;
}

static void kernel_case_free(struct kernel_case *k)
{
    free(k->x); free(k->v); free(k->m); free(k->im); free(k->f); free(k->x_out); free(k->v_out);
}

/* the force of the uniform field on component j, +0 + m g or +0 (1/m = 0) */
static double uniform_force(const struct kernel_case *k, size_t j)
{
    const size_t i = j / 3;
    const double mg = k->im[i] != 0.0 ? k->m[i] * kernel_g[j % 3] : 0.0;
    return 0.0 + mg;
}

/* Components of the first `done` nodes that differ from eq. (28) with hk = KERNEL_HK and
 * the drift over H2, from f (uniform: from uniform_force; then f itself must hold that
 * force when stored, f_stored). */
static size_t kernel_wrong(const struct kernel_case *k, size_t done, int uniform, int f_stored)
{
    size_t wrong = 0;
    for (size_t j = 0; j < 3 * done; j++) {
        const double fe = uniform ? uniform_force(k, j) : k->f[j];
        double a = fe * k->im[j / 3];
        a = a * KERNEL_HK;
        const double ve = k->v[j] + a;
        const double dx = ve * H2;
        const double xe = k->x[j] + dx;
        wrong += memcmp(&xe, &k->x_out[j], sizeof xe) != 0 || memcmp(&ve, &k->v_out[j], sizeof ve) != 0
                 || (f_stored && memcmp(&fe, &k->f[j], sizeof fe) != 0);
    }
    return wrong;
}

enum kernel_kind { KERNEL_PAIRS, KERNEL_QUADS };
static const char *const kernel_names[] = { "SSE2 pairs", "AVX2 quads" };

/* One pass of a kernel: kind, uniform field or forces given, streamed, f stored (uniform
 * only: else f holds the field's force already, written here first).  Returns the
 * number of nodes done; *bad as the kernel set it. */
static size_t kernel_run(struct kernel_case *k, enum kernel_kind kind, int uniform, int stream,
                         int store_f, int *bad)
{
    if (uniform && !store_f)
        for (size_t j = 0; j < 3 * k->n; j++)
            k->f[j] = uniform_force(k, j);
    else if (uniform)
        for (size_t j = 0; j < 3 * k->n; j++)
            k->f[j] = NAN;                                  /* stale: must be overwritten */
    *bad = 0;
#ifdef LF_HAVE_QUADS
    if (kind == KERNEL_QUADS)
        return uniform ? lf_uniform_quads(k->x, k->v, k->m, k->im, kernel_g, k->n, k->f, k->x_out,
                                          k->v_out, KERNEL_HK, H2, bad, stream, store_f)
                       : lf_translate_quads(k->x, k->v, k->f, k->im, k->n, k->x_out, k->v_out,
                                            KERNEL_HK, H2, bad, stream);
#endif
    if (uniform)
        return lf_uniform_pairs_run(k->x, k->v, k->m, k->im, kernel_g, k->n, k->f, k->x_out,
                                    k->v_out, KERNEL_HK, H2, bad, stream, store_f);
    return stream ? lf_translate_pairs(k->x, k->v, k->f, k->im, k->n, k->x_out, k->v_out,
                                       KERNEL_HK, H2, bad, 1)
                  : lf_translate_pairs(k->x, k->v, k->f, k->im, k->n, k->x_out, k->v_out,
                                       KERNEL_HK, H2, bad, 0);
}

static int kernel_available(enum kernel_kind kind)
{
#ifdef LF_HAVE_QUADS
    return kind == KERNEL_PAIRS || lf_have_avx2();
#else
    return kind == KERNEL_PAIRS;
#endif
}

static void expect_kernel_bits(enum kernel_kind kind)
{
    const size_t width = kind == KERNEL_QUADS ? 4 : 2;
    for (size_t n = 1021; n <= 1024; n++) {
        struct kernel_case k = kernel_case_new(n);
        for (int variant = 0; variant < 6; variant++) {
            const int uniform = variant >= 2, stream = variant & 1;
            const int store_f = uniform && variant >= 4;
            int bad;
            const size_t done = kernel_run(&k, kind, uniform, stream, store_f, &bad);
            cr_expect_eq(done, n - n % width, "%s: %zu of %zu nodes done", kernel_names[kind],
                         done, n);
            cr_expect_eq(bad, 0, "%s: finite results reported as NaN/Inf", kernel_names[kind]);
            const size_t wrong = kernel_wrong(&k, done, uniform, store_f);
            cr_expect_eq(wrong, 0,
                         "%s, %zu nodes, %s, %s, f %s: %zu components differ from eq. (28)",
                         kernel_names[kind], n, uniform ? "uniform field" : "forces given",
                         stream ? "streamed" : "ordinary stores",
                         store_f ? "stored" : "not stored", wrong);
        }
        kernel_case_free(&k);
    }
}

Test(leapfrog_stream, sse2_pair_kernels_are_eq28_bit_for_bit)
{
    expect_kernel_bits(KERNEL_PAIRS);
}

Test(leapfrog_stream, avx2_quad_kernels_are_eq28_bit_for_bit)
{
    if (!kernel_available(KERNEL_QUADS))
        cr_skip_test("the processor has no AVX2");
    expect_kernel_bits(KERNEL_QUADS);
}

/* A NaN in x, in v, or a force of +-Inf, at each position of a group of four nodes and
 * in each component, is reported by every kernel, streamed or not, whichever vector of
 * the group holds it. */
static void expect_kernel_nan(enum kernel_kind kind)
{
    const size_t n = 64;
    struct kernel_case k = kernel_case_new(n);
    for (size_t j = 3 * 32; j < 3 * 36; j++)
        for (int what = 0; what < 3; what++)
            for (int stream = 0; stream < 2; stream++) {
                double *field = what == 0 ? k.x : what == 1 ? k.v : k.f;
                const double kept = field[j];
                field[j] = what == 2 ? -INFINITY : NAN;
                int bad;
                kernel_run(&k, kind, 0, stream, 0, &bad);
                cr_expect_eq(bad, 1, "%s: a %s in %s[%zu] (%s) not reported", kernel_names[kind],
                             what == 2 ? "-Inf" : "NaN", what == 0 ? "x" : what == 1 ? "v" : "f",
                             j, stream ? "streamed" : "ordinary stores");
                field[j] = kept;
            }
    for (size_t j = 3 * 32; j < 3 * 36; j++)
        for (int stream = 0; stream < 2; stream++) {
            const double kept = k.v[j];
            k.v[j] = NAN;
            int bad;
            kernel_run(&k, kind, 1, stream, 1, &bad);
            cr_expect_eq(bad, 1, "%s, uniform field: a NaN in v[%zu] (%s) not reported",
                         kernel_names[kind], j, stream ? "streamed" : "ordinary stores");
            k.v[j] = kept;
        }
    kernel_case_free(&k);
}

Test(leapfrog_stream, sse2_pair_kernels_report_nan)
{
    expect_kernel_nan(KERNEL_PAIRS);
}

Test(leapfrog_stream, avx2_quad_kernels_report_nan)
{
    if (!kernel_available(KERNEL_QUADS))
        cr_skip_test("the processor has no AVX2");
    expect_kernel_nan(KERNEL_QUADS);
}
