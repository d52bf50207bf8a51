/* test_verlet_nosquish_lanes.c -- verlet-nosquish runs the rotations of several bodies side
 * by side (verlet_nosquish_lanes_source.c); no body's result may depend on that.
 *
 * Bodies without a coupling force are independent, so a body of an n-body system must
 * end, bit for bit, where the same body ends alone (a one-body system: one lane of its
 * block and one padding lane).  n runs over 1 .. 2 B + 1 (B = 16 bodies per block):
 * blocks partly filled (odd counts padded), exactly full, full plus a remainder.  The
 * lane-wise kernels perform the operations of the per-body quaternion algebra
 * (quat_source.c); that a lone body still follows the scheme is checked against an
 * independent derivation in test_verlet_nosquish.c.  The bodies differ in
 * moments, spin, orientation and velocity; some cannot rotate (a zero principal moment,
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
