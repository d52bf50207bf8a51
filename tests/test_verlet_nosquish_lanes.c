/* test_verlet_nosquish_lanes.c -- verlet-nosquish runs the rotations of several bodies side
 * by side (verlet_nosquish_lanes_source.c); no body's result may depend on that.
 *
 * Bodies without a coupling force are independent, so a body of an n-body system must
 * end, bit for bit, where the same body ends alone (a one-body system: one lane of its
 * block and one padding lane).  n runs over 1 .. 2 B + 1 (B = 16 bodies per block):
 * blocks partly filled (odd counts padded), exactly full, full plus a remainder.  The
 * lane-wise kernels perform the operations of the per-body quaternion algebra
 * (quat_source.c): in double, q, omega and L of 19 bodies after 30 steps must equal, bit
 * for bit, those operations written out in this file (a regrouped sum in a kernel shows);
 * that a lone body still follows the scheme is checked against an independent derivation
 * in test_verlet_nosquish.c.  The bodies differ in
 * moments, spin, orientation and velocity; some spin so fast that their sub-rotation
 * angles exceed pi/4 (their sines and cosines are libm's, their neighbours' fdlibm's
 * kernels': the choice must be made lane by lane); some cannot rotate (a zero principal moment,
 * so they leave the block's sequence), some have blocked components, and a torque fixed
 * in each body's frame acts (a per-body load: the torque kicks and the omega estimate for
 * the loads are exercised, the bodies stay independent).  In double and in the MPFR twin
 * (at 80 bits).  Any dependence on the lane, on the neighbours or on the padding would
 * show as a differing bit.
 *
 * NaN/Inf detection is folded into the kernels that write the new state: a NaN put into x,
 * v, omega, q or angmom of a body that rotates, and of one that does not, must make the
 * step fail (MB_EDIVERGED) and leave the store as it was.  No force acts there, so the
 * force field's own check of its loads cannot be what catches it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_force_torque.h"
#include "mb_nodes.h"
#include "mb_stepper.h"
#include "mb_system.h"
#include "mb_vec.h"

#define LANES 16                /* VNS_BLOCK of verlet_nosquish_lanes_source.c */
#define STEPS 6
#define H 0.0137

/* body k of the family, written into node i of nd */
static void body(mb_nodes *nd, size_t i, int k)
{
    double I[3] = { 1.0 + 0.1 * (k % 5), 2.0 + 0.07 * k, 3.1 - 0.03 * k };
    if (k % 6 == 4)
        I[0] = 0.0;                                 /* cannot rotate */
    mb_nodes_set_inertia(nd, i, I);
    double th[3] = { 0.3 * k, -0.11 * k, 0.05 + 0.07 * k };
    mb_q_from_rotvec(&nd->q[4 * i], th);
    double w[3] = { 0.9 - 0.05 * k, 0.35 + 0.02 * k, -0.6 + 0.01 * k };
    if (k % 5 == 3)     /* a fast spinner: sub-rotation angles above pi/4 at step H */
        for (int c = 0; c < 3; c++)
            w[c] *= 300.0;
    double x[3] = { (double)k, -1.0, 0.5 * k }, v[3] = { 0.1, -0.2 * k, 0.3 };
    memcpy(&nd->omega[3 * i], w, sizeof w);
    memcpy(&nd->x[3 * i], x, sizeof x);
    memcpy(&nd->v[3 * i], v, sizeof v);
    nd->blocked[i] = k % 7 == 2 ? MB_BLOCK_RX : k % 7 == 5 ? (MB_BLOCK_Y | MB_BLOCK_RZ) : 0;
}

/* bodies first..first+n-1 of the family, under a body-frame torque if `torque` */
static mb_system *family(int first, size_t n, int torque)
{
    mb_system *sys = mb_system_alloc(n);
    cr_assert_not_null(sys);
    for (size_t i = 0; i < n; i++)
        body(sys->nodes, i, first + (int)i);
    mb_nodes_touch(sys->nodes);
    if (!torque)
        return sys;
    const double Tb[3] = { 0.3, -0.2, 0.5 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_body_torque, mb_body_torque_new(Tb)),
                 MB_SUCCESS, "%s", mb_last_error());
    return sys;
}

static void run(mb_system *sys)
{
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int k = 0; k < STEPS; k++)
        cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_free(st);
}

/* 1 when node i of a and node j of b hold the same bits in every integrated array */
static int same_node(const mb_nodes *a, size_t i, const mb_nodes *b, size_t j)
{
    return !memcmp(&a->x[3 * i], &b->x[3 * j], 3 * sizeof(double))
        && !memcmp(&a->v[3 * i], &b->v[3 * j], 3 * sizeof(double))
        && !memcmp(&a->q[4 * i], &b->q[4 * j], 4 * sizeof(double))
        && !memcmp(&a->omega[3 * i], &b->omega[3 * j], 3 * sizeof(double))
        && !memcmp(&a->angmom[3 * i], &b->angmom[3 * j], 3 * sizeof(double));
}

Test(verlet_nosquish_lanes, each_body_ends_where_it_ends_alone)
{
    for (size_t n = 1; n <= 2 * LANES + 1; n++) {
        mb_system *all = family(0, n, 1);
        run(all);
        for (size_t i = 0; i < n; i++) {
            mb_system *one = family((int)i, 1, 1);
            run(one);
            cr_expect(same_node(all->nodes, i, one->nodes, 0),
                      "body %zu of %zu differs from the same body alone", i, n);
            mb_system_free(one);
        }
        mb_system_free(all);
    }
}

/* body k of a family of pairs: an even k turns at a moderate rate (sub-rotation angles
 * 0.1-0.5: their sines and cosines come from fdlibm's kernels, which differ from libm's
 * in the last bit on about 1 % of such arguments), an odd k spins so fast that its
 * angles exceed pi/4 (libm's); each even body shares a pair of lanes with an odd one */
static void paired_body(mb_nodes *nd, size_t i, int k)
{
    double I[3] = { 1.0 + 0.013 * k, 2.1 + 0.007 * k, 3.3 - 0.011 * k };
    mb_nodes_set_inertia(nd, i, I);
    double th[3] = { 0.31 * k, -0.17 * k, 0.05 + 0.07 * k };
    mb_q_from_rotvec(&nd->q[4 * i], th);
    double rate = k % 2 ? 300.0 : 40.0 + 0.9 * k;
    double w[3] = { rate * (0.9 - 0.01 * k), rate * (0.35 + 0.02 * k), rate * -0.6 };
    memcpy(&nd->omega[3 * i], w, sizeof w);
}

static mb_system *paired_family(int first, size_t n)
{
    mb_system *sys = mb_system_alloc(n);
    cr_assert_not_null(sys);
    for (size_t i = 0; i < n; i++)
        paired_body(sys->nodes, i, first + (int)i);
    mb_nodes_touch(sys->nodes);
    return sys;
}

/* the choice between fdlibm's kernels and libm is made lane by lane: a body whose
 * angles are small ends, bit for bit, where it ends alone, whatever its neighbour */
Test(verlet_nosquish_lanes, a_fast_neighbour_changes_no_bit)
{
    const size_t n = 2 * LANES;
    mb_system *all = paired_family(0, n);
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", all);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int k = 0; k < 40; k++)
        cr_assert_eq(mb_stepper_step(st, all, H), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_free(st);
    for (size_t i = 0; i < n; i++) {
        mb_system *one = paired_family((int)i, 1);
        st = mb_stepper_alloc("verlet-nosquish", one);
        for (int k = 0; k < 40; k++)
            cr_assert_eq(mb_stepper_step(st, one, H), MB_SUCCESS, "%s", mb_last_error());
        mb_stepper_free(st);
        cr_expect(same_node(all->nodes, i, one->nodes, 0),
                  "body %zu (%s) differs from the same body alone", i,
                  i % 2 ? "fast" : "moderate, its neighbour fast");
        mb_system_free(one);
    }
    mb_system_free(all);
}

/* ---- the operations of a body-step, written out here (torque-free, no force) ----
 * The scheme's kernels take the operations, in their order, of the per-body quaternion
 * algebra (quat_source.c) and of Miller et al.'s sub-rotation; written out once more
 * below in plain doubles, with the sines and cosines of mb_sincos.h (checked against
 * MPFR in test_sincos.c) where |zeta| <= pi/4 and libm's elsewhere, they must give the
 * scheme's q and omega bit for bit: an operation reordered or regrouped in a kernel, or
 * a lane given another lane's value, shows as a differing bit. */
#include "mb_sincos.h"

/* out = R(q) v (sign +1) or R(q)^T v (sign -1):
 * u = +-(q1, q2, q3), r = 2 (u x v), out = (q0 r + v) + u x r */
static void ref_rotate(double out[3], const double q[4], const double v[3], int sign)
{
    double u[3], r[3], c[3];
    for (int k = 0; k < 3; k++)
        u[k] = sign > 0 ? q[k + 1] : -q[k + 1];
    for (int k = 0; k < 3; k++) {
        int a = (k + 1) % 3, b = (k + 2) % 3;
        r[k] = u[a] * v[b] - u[b] * v[a];
    }
    for (int k = 0; k < 3; k++)
        r[k] = r[k] * 2.0;
    for (int k = 0; k < 3; k++) {
        int a = (k + 1) % 3, b = (k + 2) % 3;
        c[k] = u[a] * r[b] - u[b] * r[a];
    }
    for (int k = 0; k < 3; k++)
        out[k] = (q[0] * r[k] + v[k]) + c[k];
}

/* omega = R(q) (I^-1 (R(q)^T L)) */
static void ref_omega(double w[3], const double q[4], const double L[3], const double I[3])
{
    double Lb[3], wb[3];
    ref_rotate(Lb, q, L, -1);
    for (int k = 0; k < 3; k++)
        wb[k] = Lb[k] / I[k];
    ref_rotate(w, q, wb, +1);
}

/* P_k x = x (x) e_k (k = 1..3) */
static void ref_perm(double out[4], const double x[4], int k)
{
    const double P[3][4] = { { -x[1], x[0], x[3], -x[2] }, { -x[2], -x[3], x[0], x[1] },
                             { -x[3], x[2], -x[1], x[0] } };
    memcpy(out, P[k - 1], sizeof P[0]);
}

/* free rotation about axis k for dt: zeta = (dt (p . P_k q)) / (4 I_k),
 * q <- cos zeta q + sin zeta P_k q, p likewise */
static void ref_sub_rotation(double q[4], double p[4], int k, double dt, const double I[3])
{
    double Pq[4], Pp[4];
    ref_perm(Pq, q, k);
    ref_perm(Pp, p, k);
    double dot = ((p[0] * Pq[0] + p[1] * Pq[1]) + p[2] * Pq[2]) + p[3] * Pq[3];
    double zeta = (dt * dot) / (I[k - 1] * 4.0), s, c;
    if (fabs(zeta) <= MB_SINCOS_PIO4) {
        mb_sincos_v4d z = { zeta, zeta, zeta, zeta }, vs, vc;
        mb_sincos_v4(&z, &vs, &vc);
        s = vs[0];
        c = vc[0];
    } else {
        s = sin(zeta);
        c = cos(zeta);
    }
    for (int a = 0; a < 4; a++) {
        double qa = c * q[a] + s * Pq[a], pa = c * p[a] + s * Pp[a];
        q[a] = qa;
        p[a] = pa;
    }
}

/* one step of a torque-free body: the kick L + 0 (h/2), p = 2 q (x) (0, R^T L), the
 * sub-rotations 3, 2, 1, 2, 3 for h/2, h/2, h, h/2, h/2, the kick, omega of the new q, L */
static void ref_step(double q[4], double L[3], double w[3], const double I[3], double h)
{
    const double h2 = 0.5 * h;
    for (int k = 0; k < 3; k++)
        L[k] = L[k] + 0.0 * h2;
    double v[3], p[4];
    ref_rotate(v, q, L, -1);
    p[0] = (-(q[1] * v[0]) - q[2] * v[1]) - q[3] * v[2];
    p[1] = (q[0] * v[0] + q[2] * v[2]) - q[3] * v[1];
    p[2] = (q[0] * v[1] - q[1] * v[2]) + q[3] * v[0];
    p[3] = (q[0] * v[2] + q[1] * v[1]) - q[2] * v[0];
    for (int a = 0; a < 4; a++)
        p[a] = p[a] * 2.0;
    const int axis[5] = { 3, 2, 1, 2, 3 };
    const double dt[5] = { h2, h2, h, h2, h2 };
    for (int r = 0; r < 5; r++)
        ref_sub_rotation(q, p, axis[r], dt[r], I);
    for (int k = 0; k < 3; k++)
        L[k] = L[k] + 0.0 * h2;
    ref_omega(w, q, L, I);
}

Test(verlet_nosquish_lanes, double_kernels_perform_the_written_operations)
{
    const size_t n = LANES + 3;
    const int steps = 30;
    mb_system *sys = paired_family(0, n);
    mb_nodes *nd = sys->nodes;
    double (*q)[4] = malloc(n * sizeof *q), (*L)[3] = malloc(n * sizeof *L),
           (*w)[3] = malloc(n * sizeof *w);
    cr_assert(q && L && w);
    for (size_t i = 0; i < n; i++) {       /* L = R (I (R^T omega)), as a first step does */
        double Lb[3];
        memcpy(q[i], &nd->q[4 * i], sizeof q[i]);
        ref_rotate(Lb, q[i], &nd->omega[3 * i], -1);
        for (int k = 0; k < 3; k++)
            Lb[k] = Lb[k] * nd->inertia[3 * i + k];
        ref_rotate(L[i], q[i], Lb, +1);
    }
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int s = 0; s < steps; s++) {
        cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS, "%s", mb_last_error());
        for (size_t i = 0; i < n; i++)
            ref_step(q[i], L[i], w[i], &nd->inertia[3 * i], H);
    }
    for (size_t i = 0; i < n; i++)
        cr_expect(!memcmp(q[i], &nd->q[4 * i], sizeof q[i])
                      && !memcmp(w[i], &nd->omega[3 * i], sizeof w[i])
                      && !memcmp(L[i], &nd->angmom[3 * i], sizeof L[i]),
                  "body %zu: q, omega or L differs from the written operations", i);
    mb_stepper_free(st);
    free(q); free(L); free(w);
    mb_system_free(sys);
}

/* node i of the MPFR twin, as a printed exact value of each integrated component */
static void twin_node_text(const mb_nodes_mpfr *nd, size_t i, char *out, size_t size)
{
    size_t len = 0;
    const mpfr_ptr arrays[5] = { nd->x + 3 * i, nd->v + 3 * i, nd->q + 4 * i, nd->omega + 3 * i,
                                 nd->angmom + 3 * i };
    const int dims[5] = { 3, 3, 4, 3, 3 };
    for (int a = 0; a < 5; a++)
        for (int c = 0; c < dims[a]; c++)
            len += (size_t)mpfr_snprintf(out + len, size - len, "%Ra ", &arrays[a][c]);
    cr_assert_lt(len, size);
}

static mb_system_mpfr *twin_run(mb_system *sys)
{
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 80);
    cr_assert_not_null(tw, "%s", mb_last_error());
    mb_stepper *st = mb_stepper_alloc_twin("verlet-nosquish", tw);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int k = 0; k < STEPS; k++)
        cr_assert_eq(mb_stepper_step_twin(st, tw, H), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_free(st);
    return tw;
}

Test(verlet_nosquish_lanes, each_twin_body_ends_where_it_ends_alone)
{
    const size_t n = LANES + 3;
    static char ta[4096], tb[4096];
    mb_system *all = family(0, n, 1);
    mb_system_mpfr *tw_all = twin_run(all);
    for (size_t i = 0; i < n; i++) {
        mb_system *one = family((int)i, 1, 1);
        mb_system_mpfr *tw_one = twin_run(one);
        twin_node_text(tw_all->nodes, i, ta, sizeof ta);
        twin_node_text(tw_one->nodes, 0, tb, sizeof tb);
        cr_expect_str_eq(ta, tb, "twin body %zu of %zu differs from the same body alone", i, n);
        mb_system_mpfr_free(tw_one);
        mb_system_free(one);
    }
    mb_system_mpfr_free(tw_all);
    mb_system_free(all);
}

/* a NaN in component c of array `which` of node i: the step fails, the store is kept */
static void expect_caught(const char *which, size_t i)
{
    const size_t n = LANES + 3;
    mb_system *sys = family(0, n, 0);
    mb_stepper *st = mb_stepper_alloc("verlet-nosquish", sys);
    cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *nd = sys->nodes;
    double *target = !strcmp(which, "x") ? &nd->x[3 * i + 1]
                   : !strcmp(which, "v") ? &nd->v[3 * i + 1]
                   : !strcmp(which, "omega") ? &nd->omega[3 * i + 1]
                   : !strcmp(which, "angmom") ? &nd->angmom[3 * i + 1] : &nd->q[4 * i + 2];
    *target = NAN;
    mb_nodes_touch(nd);
    mb_nodes *before = mb_nodes_alloc(n, 53);
    mb_nodes_copy(before, nd);
    double t = sys->t;
    int rc = mb_stepper_step(st, sys, H);
    cr_expect_eq(rc, MB_EDIVERGED, "NaN in %s of node %zu: status %d", which, i, rc);
    cr_expect(!memcmp(before->x, nd->x, 3 * n * sizeof(double))
              && !memcmp(before->q, nd->q, 4 * n * sizeof(double)) && sys->t == t,
              "a failed step changed the store (NaN in %s of node %zu)", which, i);
    mb_nodes_free(before);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(verlet_nosquish_lanes, a_nan_anywhere_in_the_new_state_is_caught)
{
    /* node 9 rotates (the block's remainder), node 4 does not (k % 6 == 4); angmom is
     * read only for a body that does not rotate (one that does recovers it from omega
     * when the store was touched) */
    const char *rotating[] = { "x", "v", "omega", "q" };
    for (int a = 0; a < 4; a++)
        expect_caught(rotating[a], 9);
    const char *fixed[] = { "x", "v", "omega", "q", "angmom" };
    for (int a = 0; a < 5; a++)
        expect_caught(fixed[a], 4);
}
