/* test_leapfrog_rot_quads.c -- the leap-frog rotation of plain spherical nodes four at a
 * time in AVX2 (leapfrog_rot_quads.h), streamed or not, must give the very bits of the
 * spherical step (seed 002, moments I11 = I22 = I33) in IEEE double, which the test
 * computes itself, one operation per statement, in the order the scheme documents:
 *   w+ = w + (T / I11) hk,  theta = w+ h,
 *   Quaternion(theta): a = |theta|^2 summed x, y, z; for a < 1e-8 its series
 *     q0 = (1 - a/8) + a^2/384,  (q1, q2, q3) = theta ((1/2 - a/48) + a^2/3840),
 *   else q0 = cos(|theta|/2), (q1, q2, q3) = theta sin(|theta|/2) / |theta|;
 *   q+ = Quaternion(theta) (x) q (Hamilton product), divided by its norm (squares summed
 *   in component order); L+ = w+ I11; the norm deviation | |q+| - 1 |.
 *
 * The kernel is called directly (where the processor has AVX2) on node counts of every
 * remainder modulo 4, streamed on 16-byte aligned outputs and not on outputs offset by
 * one double, with hk != h; a lane whose angle's square is not below 1e-8 must take the
 * closed form with cosine and sine, and a NaN in q or an overflow of L must be reported.
 * Then whole mb_stepper_step calls, which run the kernel and the scalar code for the
 * last n mod 4 nodes (large angles among them), on a small store
 * and on one past LF_STREAM_MIN_NODES_ROTATING, whose stores stream; two steps of
 * different lengths each, and a NaN orientation refused with the state kept; a NaN or
 * infinite torque, whose scan the step leaves to the rotation, refused too. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "mb_system.h"

#include "leapfrog_rot_quads.h"
#include "leapfrog_stream.h"

#define H1 1e-4
#define H2 1.37e-4

/* ----------------------------------------------------- the step, written here ---- */

/* One node: w, T, q, I11 in; w+, q+, L+ and the norm deviation out. */
static void expected_node(const double w[3], const double T[3], const double q[4], double I11,
                          double hk, double h, double wo[3], double qo[4], double Lo[3],
                          double *dev)
{
    double th[3], u[4];
    for (int k = 0; k < 3; k++) {
        double a = T[k] / I11;
        a = a * hk;
        wo[k] = w[k] + a;
        th[k] = wo[k] * h;
    }
    double s = th[0] * th[0];
    double t = th[1] * th[1];
    s = s + t;
    t = th[2] * th[2];
    s = s + t;
    double b;
    if (s < 1e-8) {
        const double c = s * s;
        u[0] = 1.0 - s / 8.0;
        u[0] = u[0] + c / 384.0;
        b = 0.5 - s / 48.0;
        b = b + c / 3840.0;
    } else {
        const double r = sqrt(s), half = r * 0.5;
        u[0] = cos(half);
        b = sin(half) / r;
    }
    for (int k = 0; k < 3; k++)
        u[k + 1] = th[k] * b;
    double o[4];
    o[0] = u[0] * q[0];
    o[0] = o[0] - u[1] * q[1];
    o[0] = o[0] - u[2] * q[2];
    o[0] = o[0] - u[3] * q[3];
    o[1] = u[0] * q[1];
    o[1] = o[1] + u[1] * q[0];
    o[1] = o[1] + u[2] * q[3];
    o[1] = o[1] - u[3] * q[2];
    o[2] = u[0] * q[2];
    o[2] = o[2] - u[1] * q[3];
    o[2] = o[2] + u[2] * q[0];
    o[2] = o[2] + u[3] * q[1];
    o[3] = u[0] * q[3];
    o[3] = o[3] + u[1] * q[2];
    o[3] = o[3] - u[2] * q[1];
    o[3] = o[3] + u[3] * q[0];
    double n2 = o[0] * o[0];
    for (int k = 1; k < 4; k++)
        n2 = n2 + o[k] * o[k];
    const double norm = sqrt(n2);
    *dev = fabs(norm - 1.0);
    for (int k = 0; k < 4; k++)
        qo[k] = o[k] / norm;
    for (int k = 0; k < 3; k++)
        Lo[k] = wo[k] * I11;
}

static int same(const double *a, const double *b, size_t count)
{
    return memcmp(a, b, count * sizeof(double)) == 0;
}

/* --------------------------------------------------------------- the inputs ---- */

/* Node i's angular velocity, torque, orientation (within 1e-5 of unit length, so that
 * the normalisation matters) and moments; |w| < 0.5, so |w h|^2 < 1e-8 for h <= H2
 * unless the node is made `fast` (|w| = 600: |theta|^2 near 6.8e-3). */
static void node_inputs(size_t i, int fast, double w[3], double T[3], double q[4], double I[3])
{
    for (int k = 0; k < 3; k++) {
        w[k] = 0.02 * (double)((long)((7 * i + 3 * (size_t)k) % 29) - 14);
        T[k] = 0.013 * (double)((long)((5 * i + 11 * (size_t)k) % 23) - 11);
        if (fast)
            w[k] = k == 1 ? 600.0 : 0.0;
    }
    for (int k = 0; k < 4; k++)
        q[k] = 0.5 + 1e-6 * (double)((i + 3 * (size_t)k) % 13) - 6e-6;
    I[0] = 0.1 + 0.003 * (double)(i % 31);
    I[1] = I[2] = I[0];
}

/* ------------------------------------------------------ the kernel by itself ---- */

struct rot_case {
    size_t n;
    double *w, *T, *q, *I;                 /* 3, 3, 4, 3 doubles a node */
    double *buf_w, *buf_q, *buf_L;        /* outputs, 64-byte aligned, one double spare */
};

static double *doubles64(size_t count)
{
    double *a = aligned_alloc(64, (count * sizeof(double) + 63) / 64 * 64);
    cr_assert_not_null(a);
    return a;
}

/* n nodes, the moments of each distinct (I22 = 7, I33 = 9: the kernel must read I11),
 * nodes listed in fast[] (ending at n) given large angles */
static struct rot_case rot_case_new(size_t n, const size_t *fast)
{
    struct rot_case k = { n, doubles64(3 * n), doubles64(3 * n), doubles64(4 * n),
                          doubles64(3 * n), doubles64(3 * n + 1), doubles64(4 * n + 1),
                          doubles64(3 * n + 1) };
    for (size_t i = 0; i < n; i++) {
        int is_fast = 0;
        for (const size_t *f = fast; f && *f < n; f++)
            is_fast |= *f == i;
        node_inputs(i, is_fast, &k.w[3 * i], &k.T[3 * i], &k.q[4 * i], &k.I[3 * i]);
        k.I[3 * i + 1] = 7.0;
        k.I[3 * i + 2] = 9.0;
    }
    return k;
}

static void rot_case_free(struct rot_case *k)
{
    free(k->w); free(k->T); free(k->q); free(k->I);
    free(k->buf_w); free(k->buf_q); free(k->buf_L);
}

/* One pass of the kernel over the step h after H1, outputs `offset` doubles past 64-byte
 * boundaries (streamed needs offset 0); returns the nodes done, with *qn (from 0) and
 * *bad (from 0). */
static size_t rot_run_h(struct rot_case *k, int stream, size_t offset, double h, double *qn,
                        int *bad)
{
    *qn = 0.0;
    *bad = 0;
    return lf_rot_quads(k->w, k->T, k->q, k->I, k->n, 0.5 * (H1 + h), h, k->buf_w + offset,
                        k->buf_q + offset, k->buf_L + offset, qn, bad, stream);
}

static size_t rot_run(struct rot_case *k, int stream, size_t offset, double *qn, int *bad)
{
    return rot_run_h(k, stream, offset, H2, qn, bad);
}

/* Nodes of [0, done) whose outputs differ from expected_node; *dev_max their largest
 * norm deviation. */
static size_t rot_wrong(const struct rot_case *k, size_t done, size_t offset, double *dev_max)
{
    size_t wrong = 0;
    *dev_max = 0.0;
    for (size_t i = 0; i < done; i++) {
        double wo[3], qo[4], Lo[3], dev;
        expected_node(&k->w[3 * i], &k->T[3 * i], &k->q[4 * i], k->I[3 * i], 0.5 * (H1 + H2),
                      H2, wo, qo, Lo, &dev);
        wrong += !same(wo, k->buf_w + offset + 3 * i, 3) || !same(qo, k->buf_q + offset + 4 * i, 4)
                 || !same(Lo, k->buf_L + offset + 3 * i, 3);
        if (dev > *dev_max)
            *dev_max = dev;
    }
    return wrong;
}

static void skip_without_avx2(void)
{
    if (!lf_have_avx2())
        cr_skip_test("the processor has no AVX2");
}

Test(leapfrog_rot_quads, kernel_is_the_spherical_step_bit_for_bit)
{
    skip_without_avx2();
    for (size_t n = 1021; n <= 1024; n++) {
        struct rot_case k = rot_case_new(n, NULL);
        for (int variant = 0; variant < 3; variant++) {
            const int stream = variant == 0;
            const size_t offset = variant == 2 ? 1 : 0;
            double qn, dev_max;
            int bad;
            const size_t done = rot_run(&k, stream, offset, &qn, &bad);
            cr_expect_eq(done, n - n % 4, "%zu of %zu nodes done", done, n);
            cr_expect_eq(bad, 0, "finite results reported as NaN/Inf");
            const size_t wrong = rot_wrong(&k, done, offset, &dev_max);
            cr_expect_eq(wrong, 0, "%zu nodes, %s, offset %zu: %zu nodes differ", n,
                         stream ? "streamed" : "ordinary stores", offset, wrong);
            cr_expect(dev_max > 0.0 && same(&qn, &dev_max, 1),
                      "norm deviation %.17g, expected %.17g", qn, dev_max);
        }
        rot_case_free(&k);
    }
}

/* A large angle at each position of the group of nodes 8 .. 11, and four in the group
 * 20 .. 23: those lanes take the closed form with cosine and sine, the others the
 * series, every node's bits those of the step written here. */
Test(leapfrog_rot_quads, kernel_takes_large_angles_by_cosine_and_sine)
{
    skip_without_avx2();
    for (size_t p = 8; p < 12; p++) {
        const size_t fast[] = { p, 20, 21, 22, 23, 64 };
        struct rot_case k = rot_case_new(64, fast);
        for (int stream = 0; stream < 2; stream++) {
            double qn, dev_max;
            int bad;
            const size_t done = rot_run(&k, stream, 0, &qn, &bad);
            cr_expect_eq(done, 64, "large angle at node %zu: %zu nodes done, expected 64", p,
                         done);
            cr_expect_eq(rot_wrong(&k, done, 0, &dev_max), 0, "large angle at node %zu (%s)",
                         p, stream ? "streamed" : "ordinary stores");
            cr_expect_eq(bad, 0);
        }
        rot_case_free(&k);
    }
}

/* A NaN in any component of q at each position of a group, and L = w+ I11 overflowing
 * (I11 = 1e308, w+ near 3, over a step of 1e-10 that keeps the angle small), are
 * reported, streamed or not; the NaN orientation makes the norm deviation NaN. */
Test(leapfrog_rot_quads, kernel_reports_nan_and_inf)
{
    skip_without_avx2();
    struct rot_case k = rot_case_new(64, NULL);
    for (size_t j = 4 * 32; j < 4 * 36; j++)
        for (int stream = 0; stream < 2; stream++) {
            const double kept = k.q[j];
            k.q[j] = NAN;
            double qn;
            int bad;
            rot_run(&k, stream, 0, &qn, &bad);
            cr_expect_eq(bad, 1, "a NaN in q[%zu] (%s) not reported", j,
                         stream ? "streamed" : "ordinary stores");
            cr_expect(isnan(qn), "a NaN in q[%zu]: norm deviation %g", j, qn);
            k.q[j] = kept;
        }
    for (size_t i = 32; i < 36; i++)
        for (int stream = 0; stream < 2; stream++) {
            const double kept = k.I[3 * i], kept_w = k.w[3 * i];
            k.I[3 * i] = 1e308;
            k.w[3 * i] = 3.0;
            double qn;
            int bad;
            const size_t done = rot_run_h(&k, stream, 0, 1e-10, &qn, &bad);
            cr_expect_eq(done, 64);
            cr_expect_eq(bad, 1, "L of node %zu overflowing (%s) not reported", i,
                         stream ? "streamed" : "ordinary stores");
            k.I[3 * i] = kept;
            k.w[3 * i] = kept_w;
        }
    rot_case_free(&k);
}

/* ------------------------------------------------------------ through the step ---- */

/* A torque field of this test: T = the torques of node_inputs, no force; the component
 * poison_at (when below 3 n) is given poison_value instead. */
static size_t poison_at = (size_t)-1;
static double poison_value;

static int torque_eval(const void *params, mb_nodes *s, double t)
{
    (void)params;
    (void)t;
    for (size_t i = 0; i < s->n; i++) {
        double w[3], T[3], q[4], I[3];
        node_inputs(i, 0, w, T, q, I);
        for (int k = 0; k < 3; k++)
            s->torque[3 * i + (size_t)k] += T[k];
    }
    if (poison_at < 3 * s->n)
        s->torque[poison_at] = poison_value;
    return MB_SUCCESS;
}

static const mb_force_type torque_type = { .name = "test-torques", .eval = torque_eval,
                                           .free = free };

/* n spheres, mid-step (the plain path: no first-step adjustment), the nodes i with
 * i % 97 == 5 spinning fast (angles for the closed form) */
static mb_system *spheres(size_t n)
{
    mb_system *sys = mb_system_alloc(n);
    cr_assert_not_null(sys);
    cr_assert_eq(mb_forces_add(sys->forces, &torque_type, malloc(1)), MB_SUCCESS);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < n; i++) {
        double I[3];
        node_inputs(i, i % 97 == 5, &s->omega[3 * i], &s->torque[3 * i], &s->q[4 * i], I);
        mb_nodes_set_mass(s, i, 1.0);
        mb_nodes_set_inertia(s, i, I);
        for (int k = 0; k < 3; k++)
            s->v[3 * i + (size_t)k] = 0.01 * (double)k;
        s->vel_mid[i] = 1;
    }
    return sys;
}

/* A step of h after a previous step hp (hp = h on the first), compared node by node with
 * expected_node from the state before it. */
static void expect_step(mb_stepper *st, mb_system *sys, double hp, double h)
{
    mb_nodes *s = sys->nodes;
    const size_t n = s->n;
    double *w = malloc(3 * n * sizeof *w), *q = malloc(4 * n * sizeof *q);
    cr_assert(w && q);
    memcpy(w, s->omega, 3 * n * sizeof *w);
    memcpy(q, s->q, 4 * n * sizeof *q);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        double ww[3], T[3], qq[4], I[3], wo[3], qo[4], Lo[3], dev;
        node_inputs(i, 0, ww, T, qq, I);
        expected_node(&w[3 * i], T, &q[4 * i], I[0], 0.5 * (hp + h), h, wo, qo, Lo, &dev);
        if (!same(wo, &s->omega[3 * i], 3) || !same(qo, &s->q[4 * i], 4)
            || !same(Lo, &s->angmom[3 * i], 3))
            if (wrong++ == 0)
                first = i;
    }
    cr_expect_eq(wrong, 0, "%zu nodes: %zu differ from the spherical step, the first %zu", n,
                 wrong, first);
    free(w);
    free(q);
}

static void expect_steps(size_t n)
{
    mb_system *sys = spheres(n);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st);
    expect_step(st, sys, H1, H1);
    expect_step(st, sys, H1, H2);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(leapfrog_rot_quads, step_is_the_spherical_step_bit_for_bit)
{
    for (size_t n = 1021; n <= 1024; n++)
        expect_steps(n);
}

/* Past the threshold the step streams its outputs (translation and rotation). */
Test(leapfrog_rot_quads, streamed_step_is_the_spherical_step_bit_for_bit)
{
    expect_steps(LF_STREAM_MIN_NODES_ROTATING + 3);
}

/* A NaN orientation in the part the kernel does, on the streamed store: the step is
 * refused and leaves w, q, L as they were. */
Test(leapfrog_rot_quads, streamed_step_refuses_nan_and_keeps_the_state)
{
    const size_t n = LF_STREAM_MIN_NODES_ROTATING + 3;
    mb_system *sys = spheres(n);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st);
    mb_nodes *s = sys->nodes;
    s->q[4 * 1000 + 2] = NAN;
    double *w = malloc(3 * n * sizeof *w), *q = malloc(4 * n * sizeof *q);
    double *L = malloc(3 * n * sizeof *L);
    cr_assert(w && q && L);
    memcpy(w, s->omega, 3 * n * sizeof *w);
    memcpy(q, s->q, 4 * n * sizeof *q);
    memcpy(L, s->angmom, 3 * n * sizeof *L);
    cr_expect_eq(mb_stepper_step(st, sys, H1), MB_EDIVERGED);
    cr_expect(same(w, s->omega, 3 * n) && same(L, s->angmom, 3 * n));
    cr_expect(memcmp(q, s->q, 4 * n * sizeof *q) == 0);
    free(w);
    free(q);
    free(L);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* The step defers the scan of the torques to the rotation it computes from them
 * (mb_forces_eval_unchecked): a NaN or infinite torque on a node of the kernel's part
 * and on one of the scalar tail must still be refused with the field's message, after a
 * good step, leaving every array of the state as it was. */
Test(leapfrog_rot_quads, non_finite_torque_is_refused)
{
    const size_t n = 1023, at[] = { 3 * 1001 + 1, 3 * 1022 + 2 };
    const double bad_values[] = { NAN, INFINITY, -INFINITY };
    for (size_t a = 0; a < 2; a++)
        for (size_t b = 0; b < 3; b++) {
            mb_system *sys = spheres(n);
            mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
            cr_assert_not_null(st);
            cr_assert_eq(mb_stepper_step(st, sys, H1), MB_SUCCESS);
            mb_nodes *before = mb_nodes_alloc(n, 53);
            cr_assert_not_null(before);
            mb_nodes_copy(before, sys->nodes);
            poison_at = at[a];
            poison_value = bad_values[b];
            const int status = mb_stepper_step(st, sys, H2);
            poison_at = (size_t)-1;
            cr_expect_eq(status, MB_EDIVERGED, "torque %g at component %zu: status %d",
                         bad_values[b], at[a], status);
            cr_expect(strstr(mb_last_error(), "force or torque is NaN or Inf") != NULL, "%s",
                      mb_last_error());
            const mb_nodes *s = sys->nodes;
            cr_expect(same(before->x, s->x, 3 * n) && same(before->v, s->v, 3 * n)
                          && same(before->omega, s->omega, 3 * n)
                          && same(before->q, s->q, 4 * n)
                          && same(before->angmom, s->angmom, 3 * n),
                      "torque %g at component %zu: the state changed", bad_values[b], at[a]);
            mb_nodes_free(before);
            mb_stepper_free(st);
            mb_system_free(sys);
        }
}
