/* test_fincham_pairs.c -- the leap-frog's double instance takes the plain aspherical nodes
 * (mid-step, no blocked rotation, no damping) two at a time through a kernel of its own
 * (lf_rot_fincham_pair, fincham_source.c); its results must be those of the general
 * template, bit for bit.
 *
 * Reference: the MPFR twin at 53 bits with double's exponent range runs the general
 * template (it has no pair kernel); Fincham's update uses only +, -, *, / and sqrt, each
 * correctly rounded to nearest in both bases, so the twin reproduces the per-node
 * operations of the double run exactly (test_fincham.c checks this on one body).  Any
 * reordered operation, any lane mixed with its neighbour, shows as a differing bit.
 * Systems of 1 .. 9 bodies over 7 steps and of 101 bodies over 60: pairs, a node paired with itself at the end, plain nodes
 * separated by a node with a blocked rotation or a spherical node (which the general path
 * takes), a torque fixed in each body's frame (the torque kicks), a step size that changes
 * (hp != h), in the three variants.
 *
 * The pair kernel's NaN/Inf detection: a NaN in q of a plain node must make the step
 * fail (MB_EDIVERGED). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_force_torque.h"
#include "mb_mpfr_extra.h"
#include "mb_nodes.h"
#include "mb_stepper.h"
#include "mb_system.h"
#include "mb_vec.h"


static const char *const variants[] = {
    "leapfrog", "leapfrog[aspherical=fincham-halfstep]", "leapfrog[aspherical=fincham-woo]"
};

/* step k of the run: the size changes, so the previous step hp differs from h */
static double step_size(int k)
{
    return k % 3 == 2 ? 0.0211 : 0.0137;
}

/* body k of the family into node i: plain, except k % 5 == 3 (rotation about x blocked)
 * and k % 7 == 5 (equal moments: spherical) */
static void body(mb_nodes *nd, size_t i, int k)
{
    double I[3] = { 1.0 + 0.1 * (k % 5), 2.0 + 0.07 * k, 3.1 - 0.03 * k };
    if (k % 7 == 5)
        I[1] = I[2] = I[0];
    mb_nodes_set_inertia(nd, i, I);
    double th[3] = { 0.3 * k + 0.2, -0.11 * k, 0.05 + 0.07 * k };
    mb_q_from_rotvec(&nd->q[4 * i], th);
    double w[3] = { 0.9 - 0.05 * k, 0.35 + 0.02 * k, -0.6 + 0.01 * k };
    double v[3] = { 0.1, -0.2 * k, 0.3 };
    memcpy(&nd->omega[3 * i], w, sizeof w);
    memcpy(&nd->v[3 * i], v, sizeof v);
    nd->blocked[i] = k % 5 == 3 ? MB_BLOCK_RX : 0;
}

static mb_system *family(size_t n, int torque)
{
    mb_system *sys = mb_system_alloc(n);
    cr_assert_not_null(sys);
    for (size_t i = 0; i < n; i++)
        body(sys->nodes, i, (int)i);
    mb_nodes_touch(sys->nodes);
    if (!torque)        /* no load reads q: only the step can find a NaN there */
        return sys;
    const double Tb[3] = { 0.3, -0.2, 0.5 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_body_torque, mb_body_torque_new(Tb)),
                 MB_SUCCESS, "%s", mb_last_error());
    return sys;
}

/* the double run and the 53-bit twin of `scheme` on n bodies agree bit for bit */
static void expect_twin_bits(const char *scheme, size_t n, int steps)
{
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    mb_system *sys = family(n, 1);
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 53);
    cr_assert_not_null(tw, "%s", mb_last_error());
    mb_stepper *st = mb_stepper_alloc(scheme, sys), *st2 = mb_stepper_alloc_twin(scheme, tw);
    cr_assert(st != NULL && st2 != NULL, "%s", mb_last_error());
    for (int k = 0; k < steps; k++) {
        cr_assert_eq(mb_stepper_step(st, sys, step_size(k)), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_step_twin(st2, tw, step_size(k)), MB_SUCCESS, "%s",
                     mb_last_error());
    }
    mb_nodes *back = mb_nodes_alloc(n, 53);
    cr_assert_eq(mb_nodes_mpfr_get_double(back, tw->nodes), MB_SUCCESS);
    const mb_nodes *nd = sys->nodes;
    for (size_t i = 0; i < n; i++) {
        cr_expect(!memcmp(&back->q[4 * i], &nd->q[4 * i], 4 * sizeof(double)),
                  "%s, %zu bodies: q of node %zu differs from the twin", scheme, n, i);
        cr_expect(!memcmp(&back->omega[3 * i], &nd->omega[3 * i], 3 * sizeof(double)),
                  "%s, %zu bodies: omega of node %zu differs from the twin", scheme, n, i);
        cr_expect(!memcmp(&back->angmom[3 * i], &nd->angmom[3 * i], 3 * sizeof(double)),
                  "%s, %zu bodies: L of node %zu differs from the twin", scheme, n, i);
    }
    mb_nodes_free(back);
    mb_stepper_free(st);
    mb_stepper_free(st2);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
    mb_mpfr_restore_range(saved);
}

Test(fincham_pairs, every_node_as_the_general_template)
{
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (size_t n = 1; n <= 9; n++)
            expect_twin_bits(variants[v], n, 7);
}

/* a reordered operation changes a rounding in only some of the cases it meets: many
 * bodies over many steps meet enough of them */
Test(fincham_pairs, many_nodes_over_many_steps_as_the_general_template)
{
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        expect_twin_bits(variants[v], 101, 60);
}

Test(fincham_pairs, a_nan_in_a_plain_pair_is_caught)
{
    for (size_t i = 0; i < 3; i++) {          /* nodes 0, 1 (a pair) and 2 (with itself) */
        mb_system *sys = family(3, 0);
        mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
        cr_assert_eq(mb_stepper_step(st, sys, 0.0137), MB_SUCCESS, "%s", mb_last_error());
        sys->nodes->q[4 * i + 2] = NAN;
        mb_nodes_touch(sys->nodes);
        int rc = mb_stepper_step(st, sys, 0.0137);
        cr_expect_eq(rc, MB_EDIVERGED, "NaN in q of node %zu: status %d", i, rc);
        mb_stepper_free(st);
        mb_system_free(sys);
    }
}
