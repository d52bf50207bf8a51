/* test_linsys_sink.c -- the implicit Euler system assembled straight into the solver's
 * storage while the forces are evaluated (mb_forces_assemble, mb_linsys_sink.h) against
 * the assembly from a block list it replaces (mb_forces_eval_jacobian, mb_linsys_be_rhs,
 * mb_blocktri_assemble or mb_csr_assemble).
 *
 * Expected values: the block-list path itself.  The sink promises the same operations on
 * every entry in the same order, so the forces, every value of A (block-tridiagonal or
 * CSR storage) and b must be equal bit for bit (memcmp) -- no tolerance.  Systems: the
 * chain and the cloth of the benchmarks, a mixed field (springs of every kind, anchors,
 * gravity, drag, a blocked axis and a node of infinite mass) on a chain and beyond the
 * neighbours.  Negative controls: the same blocks handed over in reverse order give other
 * bits (the comparison sees the summation order), and blocks without a slot in the
 * storage are refused.  Whole steps: the implicit-euler stepper, which assembles through
 * the sink from its second step, against steps assembled from a block list.  The same
 * block on every diagonal (mb_linsys_sink_diagonal, drag) and a pair of a node with
 * itself, against their blocks assembled from a list.  Folding (drag added inside the
 * springs' pass, mb_linsys_sink_fold) against the block list; controls: a node reported
 * done before its last block gives other bits, folded blocks the CSR pattern lists in
 * another order are refused.  b formed inside the springs' pass (mb_linsys_sink_rhs_by_node)
 * on a three-node chain of dyadic values, where every operation is exact: against b
 * written out in the test; controls, b with the pair terms or the weight lost, differ.
 * A chain in node order (the springs' chain passes: forces with -F carried from spring to
 * spring, blocks written once each without their marks, linsys_sink_chain.h), its
 * variants that must leave those passes (springs listed last first, one spring's ends
 * swapped, a node on no spring) and the chain with a second set of springs after it,
 * against the block list; control: the springs listed last first give other bits than in
 * order.  A spring of zero length on such a chain fails as in the pass for any set, with
 * the same forces left. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_implicit.h"
#include "mb_linsys_sink.h"
#include "mb_status.h"
#include "mb_system.h"
#include "test_helpers.h"

#define H 0.013

/* The nodes of the small systems below: n nodes along x, each a little off the line and
 * moving, after the constants of each system.  Node i weighs mass0 + dmass i; its
 * component a (k = 3 i + a) is at
 *   x_k = spacing i [a = 0] + x_amp sin(x_freq k + x_phase),
 *   v_k = v_amp cos(v_freq k + v_phase). */
struct line_shape {
    size_t n;
    double mass0, dmass, spacing, x_amp, x_freq, x_phase, v_amp, v_freq, v_phase;
};

static mb_system *line_system(const struct line_shape *L)
{
    mb_system *sys = mb_system_alloc(L->n);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < L->n; i++) {
        mb_nodes_set_mass(s, i, L->mass0 + L->dmass * (double)i);
        for (int a = 0; a < 3; a++) {
            double k = (double)(3 * i + a);
            s->x[3 * i + a] = L->spacing * (double)i * (a == 0)
                              + L->x_amp * sin(L->x_freq * k + L->x_phase);
            s->v[3 * i + a] = L->v_amp * cos(L->v_freq * k + L->v_phase);
        }
    }
    return sys;
}

/* The first count springs of items into the set sp. */
static void add_springs(void *sp, const mb_spring *items, size_t count)
{
    for (size_t m = 0; m < count; m++)
        cr_assert_eq(mb_springs_add(sp, &items[m]), MB_SUCCESS, "%s", mb_last_error());
}

/* Eight nodes on a line joined to their neighbours by springs of every kind (one with
 * arms, between turned and spinning bodies), an anchored spring, gravity and drag; node 0
 * of infinite mass, node 5 blocked along y.  With beyond = 1 a spring 0-7 makes A leave
 * the block-tridiagonal form.  Gravity first, or last (weight_last: its weight is then
 * added in the pass that forms b, mb_linsys_sink_rhs_weighed). */
static mb_system *mixed_system_ordered(int beyond, int weight_last)
{
    const struct line_shape shape = { .n = 8, .mass0 = 0.41, .dmass = 0.37, .spacing = 0.9,
                                      .x_amp = 0.31, .x_freq = 2.3, .x_phase = 1.0,
                                      .v_amp = 0.83, .v_freq = 1.7, .v_phase = 0.4 };
    mb_system *sys = line_system(&shape);
    mb_nodes *s = sys->nodes;
    mb_nodes_set_mass(s, 0, INFINITY);
    for (size_t i = 2; i <= 3; i++) {        /* the bodies of the spring with arms */
        double *q = &s->q[4 * i], c = cos(0.2 * (double)i), sn = sin(0.2 * (double)i);
        q[0] = c, q[1] = sn * 0.6, q[2] = sn * 0.8, q[3] = 0.0;
        for (int a = 0; a < 3; a++)
            s->omega[3 * i + a] = 0.7 * cos(1.3 * (double)(3 * i + a));
    }
    s->blocked[5] = MB_BLOCK_Y;
    void *sp = mb_springs_new();
    const mb_spring items[] = {
        { .i = 0, .j = 1, .k = 31.0 },                                  /* linear */
        { .i = 1, .j = 2, .k = 17.0, .rest = 0.7 },                     /* rest length */
        { .i = 2, .j = 3, .k = 23.0, .rest = 0.8, .c = 0.37 },          /* and dashpot */
        { .i = 3, .j = 4, .k = 11.0, .c = 0.21 },                       /* dashpot, L = 0 */
        { .i = 4, .anchored = 1, .anchor = { 0.3, -0.2, 0.9 }, .k = 7.0, .rest = 0.5, .c = 0.1 },
        { .i = 4, .j = 5, .k = 13.0, .rest = 0.6, .c = 0.05 },
        { .i = 6, .j = 5, .k = 19.0, .rest = 0.9, .c = 0.08 },          /* i > j */
        { .i = 6, .j = 7, .k = 29.0, .rest = 0.85, .c = 0.02 },
        { .i = 2, .j = 3, .k = 9.0, .rest = 0.4, .c = 0.06, .has_arms = 1,       /* with arms */
          .arm_i = { 0.1, 0.0, 0.05 }, .arm_j = { -0.05, 0.1, 0.0 } },
        { .i = 0, .j = 7, .k = 5.0, .rest = 6.0, .c = 0.02 },           /* beyond neighbours */
    };
    add_springs(sp, items, sizeof items / sizeof items[0] - (beyond ? 0 : 1));
    const double g[3] = { 0.0, -9.81, 0.3 };
    if (!weight_last)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(0.13)), MB_SUCCESS);
    if (weight_last)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    return sys;
}

static mb_system *mixed_system(int beyond)
{
    return mixed_system_ordered(beyond, 0);
}

static mb_system *mixed_system_weight_last(int beyond)
{
    return mixed_system_ordered(beyond, 1);
}

/* The chain (n = 40, with drag: cloth = 0; without, its gravity the last model: 2) off
 * its straight line and moving, or the cloth (7 x 5) moving (1) */
static mb_system *bench_system(int cloth)
{
    mb_system *sys = cloth == 1 ? th_problem("cloth", (const char *const[]){ "nx=7", "ny=5", NULL })
                   : th_problem("spring-chain", (const char *const[]){ "n=40",
                                                                        cloth ? "D=0" : "D=0.03",
                                                                        NULL });
    for (size_t k = 0; k < 3 * sys->nodes->n; k++) {
        if (cloth != 1)
            sys->nodes->x[k] += 0.011 * sin(1.9 * (double)k);
        sys->nodes->v[k] = 0.3 * cos(0.8 * (double)k);
    }
    return sys;
}

/* The system from a block list: forces f, b, and A in btri (when J fits) or csr. */
struct listed {
    mb_jacobian *J;
    mb_blocktri *btri;
    mb_csr *csr;
    double *f, *b;
};

static void listed_build(struct listed *L, mb_system *sys)
{
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    double tmp[2];
    L->J = mb_jacobian_alloc(s->n, 53);
    L->f = malloc(n3 * sizeof(double));
    L->b = malloc(n3 * sizeof(double));
    L->btri = NULL;
    L->csr = NULL;
    cr_assert(L->J && L->f && L->b);
    cr_assert_eq(mb_forces_eval_jacobian(sys->forces, s, 0.25, L->J), MB_SUCCESS, "%s",
                 mb_last_error());
    memcpy(L->f, s->f, n3 * sizeof(double));
    mb_linsys_be_rhs(s, L->J, H, L->b, tmp);
    if (mb_blocktri_fits(L->J)) {
        cr_assert_not_null(L->btri = mb_blocktri_alloc(s->n));
        mb_blocktri_assemble(L->btri, s, L->J, H);
    } else {
        cr_assert_not_null(L->csr = mb_csr_alloc());
        cr_assert_eq(mb_csr_pattern(L->csr, L->J), MB_SUCCESS);
        mb_csr_assemble(L->csr, s, L->J, H);
    }
}

static void listed_free(struct listed *L)
{
    mb_jacobian_free(L->J);
    mb_blocktri_free(L->btri);
    mb_csr_free(L->csr);
    free(L->f);
    free(L->b);
}

/* Storage of the listed system's kind (the CSR with the listed pattern), the values of A
 * NaN: every value the sink leaves must be one it wrote (L_0 and U_{n-1}, which are not
 * blocks of A, keep their +0). */
static void storage_like(const struct listed *L, size_t n, mb_blocktri **T, mb_csr **C)
{
    *T = NULL;
    *C = NULL;
    if (L->btri) {
        cr_assert_not_null(*T = mb_blocktri_alloc(n));
        for (size_t k = 0; k < 9 * n; k++) {
            (*T)->D[k] = NAN;
            if (k >= 9)
                (*T)->L[k] = NAN;
            if (k + 9 < 9 * n)
                (*T)->U[k] = NAN;
        }
    } else {
        cr_assert_not_null(*C = mb_csr_alloc());
        cr_assert_eq(mb_csr_pattern(*C, L->J), MB_SUCCESS);
        for (size_t k = 0; k < 9 * (*C)->n_pool; k++)
            (*C)->pool[k] = NAN;
    }
}

/* 1 when two CSR storages of one pattern hold the same values */
static int same_pool(const mb_csr *X, const mb_csr *Y)
{
    return X->n_pool == Y->n_pool
           && memcmp(X->pool, Y->pool, 9 * X->n_pool * sizeof(double)) == 0;
}

/* 1 when the storage T or C holds the very values of the listed system */
static int same_matrix(const struct listed *L, const mb_blocktri *T, const mb_csr *C)
{
    if (T) {
        size_t bytes = 9 * T->n * sizeof(double);
        return memcmp(T->D, L->btri->D, bytes) == 0 && memcmp(T->L, L->btri->L, bytes) == 0
               && memcmp(T->U, L->btri->U, bytes) == 0;
    }
    return same_pool(C, L->csr);
}

/* The sink against the block list on sys: forces, A, b and the counts of evaluations. */
static void expect_same_system(mb_system *sys, const char *what, int expect_btri)
{
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    struct listed L;
    mb_forces_counts c0 = mb_forces_get_counts(sys->forces);
    listed_build(&L, sys);
    mb_forces_counts c1 = mb_forces_get_counts(sys->forces);
    cr_assert_eq(L.btri != NULL, expect_btri, "%s: storage kind", what);
    mb_blocktri *T;
    mb_csr *C;
    storage_like(&L, s->n, &T, &C);
    mb_linsys_sink k = { 0 };
    mb_jacobian *scratch = mb_jacobian_alloc(s->n, 53);
    double *b = malloc(n3 * sizeof(double));
    cr_assert(scratch && b);
    for (size_t q = 0; q < n3; q++)
        s->f[q] = s->torque[q] = b[q] = NAN;       /* stale values must be overwritten */
    mb_linsys_sink_begin(&k, s, H, T, C, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.25, &k, scratch), MB_SUCCESS, "%s",
                 mb_last_error());
    cr_assert(mb_linsys_sink_finish(&k), "%s: the sink refused the system", what);
    mb_forces_counts c2 = mb_forces_get_counts(sys->forces);
    cr_expect(c2.evaluations - c1.evaluations == c1.evaluations - c0.evaluations
              && c2.jacobians - c1.jacobians == c1.jacobians - c0.jacobians,
              "%s: the sink's pass must count as the block list's", what);
    cr_expect_eq(k.count, L.J->count, "%s: %zu blocks received, %zu listed", what, k.count,
                 L.J->count);
    cr_expect(memcmp(L.f, s->f, n3 * sizeof(double)) == 0, "%s: forces differ", what);
    cr_expect(memcmp(L.b, b, n3 * sizeof(double)) == 0, "%s: right-hand sides differ", what);
    cr_expect(same_matrix(&L, T, C), "%s: matrices differ", what);
    mb_linsys_sink_release(&k);
    mb_jacobian_free(scratch);
    mb_blocktri_free(T);
    mb_csr_free(C);
    free(b);
    listed_free(&L);
}

Test(linsys_sink, chain_and_cloth_equal_the_block_list_bit_for_bit)
{
    mb_system *chain = bench_system(0), *cloth = bench_system(1), *undamped = bench_system(2);
    expect_same_system(chain, "chain", 1);
    expect_same_system(cloth, "cloth", 0);
    expect_same_system(undamped, "chain without drag (gravity last)", 1);
    mb_system_free(chain);
    mb_system_free(cloth);
    mb_system_free(undamped);
}

/* What ordered_chain builds: a chain in node order, the same springs listed last first,
 * spring 3-4 listed as 4-3, one node more on no spring, or the chain in node order with a
 * second set of springs after it (whose blocks reach blocks the chain's pass wrote) */
enum chain_variant {
    CHAIN_IN_ORDER, CHAIN_LAST_FIRST, CHAIN_ONE_SWAPPED, CHAIN_NODE_MORE, CHAIN_SECOND_MODEL
};

/* Nine nodes off the x axis and moving, springs m-(m + 1) of every kind a chain's springs
 * take (linear, rest length, rest length and dashpot, dashpot with L = 0), node 0 of
 * infinite mass, node 6 blocked along z, the springs first and gravity last: in order,
 * the springs' chain passes (force_springs_source.c, linsys_sink_chain.h); every other
 * variant the springs' passes for any set (with CHAIN_NODE_MORE a tenth node on no
 * spring), but CHAIN_SECOND_MODEL: the chain's passes, then a second set of springs (one
 * to an anchor on node 3, one 2-3) through the sink's pass, which reads the marks of the
 * blocks the chain's pass set. */
static mb_system *ordered_chain(enum chain_variant variant)
{
    const struct line_shape shape = { .n = variant == CHAIN_NODE_MORE ? 10 : 9, .mass0 = 0.0029,
                                      .dmass = 0.0013, .spacing = 0.7, .x_amp = 0.17,
                                      .x_freq = 1.3, .x_phase = 0.2, .v_amp = 0.61,
                                      .v_freq = 2.1, .v_phase = 0.7 };
    mb_system *sys = line_system(&shape);
    mb_nodes_set_mass(sys->nodes, 0, INFINITY);
    sys->nodes->blocked[6] = MB_BLOCK_Z;
    mb_spring items[] = {
        { .i = 0, .j = 1, .k = 31.0 },                                  /* linear */
        { .i = 1, .j = 2, .k = 17.0, .rest = 0.6 },                     /* rest length */
        { .i = 2, .j = 3, .k = 23.0, .rest = 0.8, .c = 0.37 },          /* and dashpot */
        { .i = 3, .j = 4, .k = 11.0, .c = 0.21 },                       /* dashpot, L = 0 */
        { .i = 4, .j = 5, .k = 13.0, .rest = 0.65, .c = 0.05 },
        { .i = 5, .j = 6, .k = 19.0, .rest = 0.75, .c = 0.08 },
        { .i = 6, .j = 7, .k = 29.0, .rest = 0.55, .c = 0.02 },
        { .i = 7, .j = 8, .k = 7.0, .rest = 0.7, .c = 0.11 },
    };
    const size_t count = sizeof items / sizeof items[0];
    if (variant == CHAIN_ONE_SWAPPED)
        items[3] = (mb_spring){ .i = 4, .j = 3, .k = 11.0, .c = 0.21 };
    void *sp = mb_springs_new();
    for (size_t m = 0; m < count; m++)
        add_springs(sp, &items[variant == CHAIN_LAST_FIRST ? count - 1 - m : m], 1);
    const double g[3] = { 0.1, -9.81, 0.2 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    if (variant == CHAIN_SECOND_MODEL) {
        void *more = mb_springs_new();
        const mb_spring second[] = {
            { .i = 3, .anchored = 1, .anchor = { 2.2, 0.4, -0.3 }, .k = 5.0, .rest = 0.3, .c = 0.07 },
            { .i = 2, .j = 3, .k = 3.0, .rest = 0.5, .c = 0.04 },
        };
        add_springs(more, second, 2);
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, more), MB_SUCCESS);
    }
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    return sys;
}

/* A chain in node order (the springs' chain passes) and the variants that must leave them
 * (a spring out of order, its ends swapped, a node on no spring), and the chain with a
 * second set of springs after it (which adds to blocks the chain's pass marked set) give
 * the block list's forces, A and b bit for bit.  Control: the same springs listed last first give other
 * bits of A or b than in order (each D_m's two terms, and b's, in the other order), so
 * the comparison sees a chain pass that would add them out of order. */
Test(linsys_sink, chain_in_node_order_equals_the_block_list_bit_for_bit)
{
    static const char *const what[] = { "chain in node order", "springs listed last first",
                                        "spring 3-4 listed as 4-3", "a node on no spring",
                                        "a second set of springs after the chain" };
    for (int v = CHAIN_IN_ORDER; v <= CHAIN_SECOND_MODEL; v++) {
        mb_system *sys = ordered_chain((enum chain_variant)v);
        expect_same_system(sys, what[v], 1);
        mb_system_free(sys);
    }
    mb_system *in_order = ordered_chain(CHAIN_IN_ORDER), *last_first = ordered_chain(CHAIN_LAST_FIRST);
    struct listed A, B;
    listed_build(&A, in_order);
    listed_build(&B, last_first);
    size_t bytes = 9 * in_order->nodes->n * sizeof(double);
    cr_expect(memcmp(A.btri->D, B.btri->D, bytes) != 0
                  || memcmp(A.b, B.b, 3 * in_order->nodes->n * sizeof(double)) != 0,
              "control: the springs listed last first gave the bits of the chain in order");
    listed_free(&A);
    listed_free(&B);
    mb_system_free(in_order);
    mb_system_free(last_first);
}

/* A spring of zero length (with a rest length) on a chain in node order stops the
 * springs' chain pass as it stops their pass for any set: MB_EDOM, and every force of
 * nodes 0 ... 8 as that pass leaves it -- the forces before the spring written, node 4's
 * part from spring 3-4 included, the others still stale (NaN).  That pass runs on the
 * chain with a node more on no spring (the same nodes 0 ... 8 and springs). */
Test(linsys_sink, chain_in_node_order_with_a_zero_length_spring_fails_alike)
{
    mb_system *sys[2] = { ordered_chain(CHAIN_IN_ORDER), ordered_chain(CHAIN_NODE_MORE) };
    double f[2][3 * 9];
    for (int q = 0; q < 2; q++) {
        mb_nodes *s = sys[q]->nodes;
        memcpy(&s->x[3 * 5], &s->x[3 * 4], 3 * sizeof(double));    /* nodes 4 and 5 meet */
        mb_blocktri *T = mb_blocktri_alloc(s->n);
        mb_jacobian *J = mb_jacobian_alloc(s->n, 53);
        double *b = malloc(3 * s->n * sizeof(double));
        cr_assert(T && J && b);
        for (size_t e = 0; e < 3 * s->n; e++)
            s->f[e] = NAN;
        mb_linsys_sink k = { 0 };
        mb_linsys_sink_begin(&k, s, H, T, NULL, b);
        cr_expect_eq(mb_forces_assemble(sys[q]->forces, s, 0.0, &k, J), MB_EDOM,
                     "a spring of zero length with a rest length must fail");
        memcpy(f[q], s->f, sizeof f[q]);
        mb_linsys_sink_release(&k);
        mb_jacobian_free(J);
        mb_blocktri_free(T);
        free(b);
        mb_system_free(sys[q]);
    }
    for (int e = 0; e < 3 * 9; e++)
        cr_expect(memcmp(&f[0][e], &f[1][e], sizeof(double)) == 0
                      || (isnan(f[0][e]) && isnan(f[1][e])),
                  "f[%d] = %.17g, the pass for any set %.17g", e, f[0][e], f[1][e]);
    cr_expect(!isnan(f[0][3 * 4]) && isnan(f[0][3 * 5]),
              "node 4's part from spring 3-4 written, node 5's force stale");
}

/* Seven nodes whose block-tridiagonal A has blocks no term reaches: springs 0-1, 2-1, 4-5
 * and 6-5, node 3 on none (D_3, U_2, L_3, U_3 and L_4 unreached without drag), gravity;
 * drag: 0 none, 1 before the springs (its diagonal blocks are the first terms of D), 2
 * after them (folded into their pass). */
static mb_system *gapped_system(int drag)
{
    const struct line_shape shape = { .n = 7, .mass0 = 0.53, .dmass = 0.31, .spacing = 0.7,
                                      .x_amp = 0.19, .x_freq = 1.3, .x_phase = 0.0,
                                      .v_amp = 0.47, .v_freq = 1.9, .v_phase = 0.2 };
    mb_system *sys = line_system(&shape);
    void *sp = mb_springs_new();
    const mb_spring items[] = { { .i = 0, .j = 1, .k = 17.0, .rest = 0.6, .c = 0.23 },
                                { .i = 2, .j = 1, .k = 11.0, .rest = 0.5, .c = 0.13 },
                                { .i = 4, .j = 5, .k = 23.0, .rest = 0.8, .c = 0.07 },
                                { .i = 6, .j = 5, .k = 7.0, .rest = 0.4, .c = 0.29 } };
    add_springs(sp, items, sizeof items / sizeof items[0]);
    const double g[3] = { 0.2, -9.81, 0.1 };
    if (drag == 1)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(3.7)), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    if (drag == 2)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(3.7)), MB_SUCCESS);
    return sys;
}

/* In block-tridiagonal storage the first term on a block reads its start value (M's block
 * or +0) in place of the block, and blocks no term reaches get their start values at the
 * end: over storage full of NaN, the values of an assembly from M written beforehand. */
Test(linsys_sink, unreached_blocks_get_their_start_values)
{
    const char *what[3] = { "gapped, no drag", "gapped, drag first", "gapped, drag folded" };
    for (int drag = 0; drag < 3; drag++) {
        mb_system *sys = gapped_system(drag);
        expect_same_system(sys, what[drag], 1);
        mb_system_free(sys);
    }
}

/* A first term computes (+0 - P) - Q off the diagonal and (m + P) + Q, (+0 + P) + Q on it,
 * as the assembly from M does: +0 - (+0) is +0 where -P would be -0, and +0 + (-0) is +0
 * where P would be -0.  A straight chain at rest along +x and one along -x have such
 * signed zeros in h C and h^2 K (n n^T off its diagonal, no relative velocity); the
 * listed assembly must hold +0 in some entries of L and U, and the sink the same bits. */
Test(linsys_sink, first_terms_keep_the_signs_of_zero)
{
    for (int dir = -1; dir <= 1; dir += 2) {
        mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=24", "anchors=none",
                                                                            NULL });
        for (size_t i = 0; i < sys->nodes->n; i++)
            sys->nodes->x[3 * i] *= (double)dir;
        struct listed L;
        listed_build(&L, sys);
        cr_assert_not_null(L.btri);
        size_t pos_zero = 0;
        for (size_t k = 9; k < 9 * sys->nodes->n - 9; k++)
            pos_zero += (L.btri->L[k] == 0.0 && !signbit(L.btri->L[k]))
                        + (L.btri->U[k] == 0.0 && !signbit(L.btri->U[k]));
        cr_expect_gt(pos_zero, 0, "chain along %+dx: no +0 off the diagonal", dir);
        listed_free(&L);
        expect_same_system(sys, dir > 0 ? "straight chain along +x" : "straight chain along -x", 1);
        mb_system_free(sys);
    }
}

/* expect_same_system on make(0), held in block-tridiagonal storage, and make(1), whose
 * couplings beyond the neighbours put it in CSR */
static void expect_same_on_and_beyond(mb_system *(*make)(int beyond), const char *what)
{
    char label[80];
    for (int beyond = 0; beyond <= 1; beyond++) {
        mb_system *sys = make(beyond);
        snprintf(label, sizeof label, "%s, %s", what, beyond ? "CSR" : "block-tridiagonal");
        expect_same_system(sys, label, !beyond);
        mb_system_free(sys);
    }
}

Test(linsys_sink, mixed_field_equals_the_block_list_bit_for_bit)
{
    expect_same_on_and_beyond(mixed_system, "mixed");
    expect_same_on_and_beyond(mixed_system_weight_last, "mixed, gravity last");
}

/* count more nodes of sys fixed, 1, 4, 7, ... (every third), their blocked axes in turn x;
 * y and z; the rotation about x alone (a node listed as fixed with no fixed row); all */
static void block_more_nodes(mb_system *sys, size_t count)
{
    static const unsigned char axes[] = { MB_BLOCK_X, MB_BLOCK_Y | MB_BLOCK_Z, MB_BLOCK_RX,
                                          MB_BLOCK_ALL };
    for (size_t j = 0; j < count; j++) {
        cr_assert_lt(1 + 3 * j, sys->nodes->n);
        sys->nodes->blocked[1 + 3 * j] = axes[j % 4];
    }
}

/* The fixed rows of A and b are written for the nodes the pass forming b listed, up to
 * MB_LINSYS_FIXED_LIST of them, and by a scan of every node beyond: the chain (two
 * anchors of infinite mass) and the cloth (two pinned corners) with the list one short of
 * full, full, one over and well over, against the block list, which scans every node. */
Test(linsys_sink, fixed_rows_listed_or_scanned_equal_the_block_list)
{
    char label[80];
    const size_t pinned = 2;
    for (int cloth = 0; cloth <= 1; cloth++)
        for (size_t total = MB_LINSYS_FIXED_LIST - 1; total <= MB_LINSYS_FIXED_LIST + 5;
             total += total == MB_LINSYS_FIXED_LIST + 1 ? 4 : 1) {
            mb_system *sys = bench_system(cloth);
            block_more_nodes(sys, total - pinned);
            snprintf(label, sizeof label, "%s, %zu fixed nodes", cloth ? "cloth" : "chain",
                     total);
            expect_same_system(sys, label, !cloth);
            mb_system_free(sys);
        }
}

/* Negative control: the listed blocks of the mixed field handed to the sink last first
 * sum each entry in another order; the comparison must see it. */
Test(linsys_sink, reversed_order_is_detected)
{
    for (int beyond = 0; beyond <= 1; beyond++) {
        mb_system *sys = mixed_system(beyond);
        mb_nodes *s = sys->nodes;
        struct listed L;
        listed_build(&L, sys);
        mb_blocktri *T;
        mb_csr *C;
        storage_like(&L, s->n, &T, &C);
        if (C) {                        /* the pattern in the reversed order */
            mb_jacobian *R = mb_jacobian_alloc(s->n, 53);
            for (size_t q = L.J->count; q-- > 0;)
                cr_assert_geq(mb_jacobian_add_block(R, L.J->row[q], L.J->col[q]), 0);
            cr_assert_eq(mb_csr_pattern(C, R), MB_SUCCESS);
            mb_jacobian_free(R);
        }
        mb_linsys_sink k = { 0 };
        double *b = malloc(3 * s->n * sizeof(double));
        mb_linsys_sink_begin(&k, s, H, T, C, b);
        mb_linsys_sink_rhs(&k);                 /* s->f holds the listed forces */
        for (size_t q = L.J->count; q-- > 0;)
            mb_linsys_sink_block(&k, L.J->row[q], L.J->col[q], &L.J->dfdv[9 * q],
                                 &L.J->dfdx[9 * q]);
        cr_assert(mb_linsys_sink_finish(&k));
        int same_b = memcmp(b, L.b, 3 * s->n * sizeof(double)) == 0;
        int same_A = C ? same_pool(C, L.csr)
                       : same_matrix(&L, T, NULL);
        cr_expect(!same_b || !same_A, "beyond=%d: the reversed order gave the same bits", beyond);
        mb_linsys_sink_release(&k);
        mb_blocktri_free(T);
        mb_csr_free(C);
        free(b);
        listed_free(&L);
        mb_system_free(sys);
    }
}

/* Blocks without a slot are refused: a coupling beyond the neighbours in block-tridiagonal
 * storage, and a CSR pattern built for other blocks. */
Test(linsys_sink, blocks_without_a_slot_are_refused)
{
    mb_system *beyond = mixed_system(1), *chain = mixed_system(0);
    mb_nodes *s = beyond->nodes;
    mb_blocktri *T = mb_blocktri_alloc(s->n);
    mb_jacobian *J = mb_jacobian_alloc(s->n, 53);
    double *b = malloc(3 * s->n * sizeof(double));
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, s, H, T, NULL, b);
    cr_assert_eq(mb_forces_assemble(beyond->forces, s, 0.25, &k, J), MB_SUCCESS);
    cr_expect_not(mb_linsys_sink_finish(&k), "a block 0-7 has no block-tridiagonal slot");
    struct listed L;
    listed_build(&L, chain);            /* its pattern, for the other system */
    mb_csr *C = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern(C, L.J), MB_SUCCESS);
    mb_linsys_sink_begin(&k, s, H, NULL, C, b);
    cr_assert_eq(mb_forces_assemble(beyond->forces, s, 0.25, &k, J), MB_SUCCESS);
    cr_expect_not(mb_linsys_sink_finish(&k), "a pattern of other blocks must be refused");
    mb_linsys_sink_begin(&k, chain->nodes, H, NULL, C, b);
    cr_assert_eq(mb_forces_assemble(chain->forces, chain->nodes, 0.25, &k, J), MB_SUCCESS);
    cr_expect(mb_linsys_sink_finish(&k), "its own pattern must be accepted");
    mb_linsys_sink_release(&k);
    listed_free(&L);
    mb_csr_free(C);
    mb_jacobian_free(J);
    mb_blocktri_free(T);
    free(b);
    mb_system_free(beyond);
    mb_system_free(chain);
}

/* A sink handed one block fewer than its CSR pattern holds (every block in its slot,
 * the last one missing) leaves that slot at the mass matrix's value, not the system's:
 * finish must refuse it (mb_linsys_sink.h), so that the step is assembled from the block
 * list.  Control: the same blocks with the last one given are accepted. */
Test(linsys_sink, one_block_short_of_the_pattern_is_refused)
{
    mb_system *sys = mixed_system(1);
    mb_nodes *s = sys->nodes;
    struct listed L;
    listed_build(&L, sys);
    cr_assert_not_null(L.csr, "the mixed system beyond the neighbours is held in CSR");
    cr_assert_gt(L.J->count, 1);
    mb_blocktri *T;
    mb_csr *C;
    storage_like(&L, s->n, &T, &C);
    double *b = malloc(3 * s->n * sizeof(double));
    cr_assert_not_null(b);
    for (size_t all = 0; all <= 1; all++) {
        mb_linsys_sink k = { 0 };
        mb_linsys_sink_begin(&k, s, H, T, C, b);
        mb_linsys_sink_rhs(&k);                 /* s->f holds the listed forces */
        size_t given = all ? L.J->count : L.J->count - 1;
        for (size_t q = 0; q < given; q++)
            mb_linsys_sink_block(&k, L.J->row[q], L.J->col[q], &L.J->dfdv[9 * q],
                                 &L.J->dfdx[9 * q]);
        if (all)
            cr_expect(mb_linsys_sink_finish(&k), "control: the whole pattern must be accepted");
        else
            cr_expect_not(mb_linsys_sink_finish(&k), "a sink %zu blocks short of its pattern of "
                          "%zu must be refused", L.J->count - given, L.J->count);
        mb_linsys_sink_release(&k);
    }
    free(b);
    mb_blocktri_free(T);
    mb_csr_free(C);
    listed_free(&L);
    mb_system_free(sys);
}

/* Append block (r, c) with df/dv = C, df/dx = K to J */
static void put_block(mb_jacobian *J, size_t r, size_t c, const double C[9], const double K[9])
{
    long q = mb_jacobian_add_block(J, r, c);
    cr_assert_geq(q, 0);
    memcpy(&J->dfdv[9 * q], C, 9 * sizeof(double));
    memcpy(&J->dfdx[9 * q], K, 9 * sizeof(double));
}

/* nX = -X, entry by entry */
static void negated(const double X[9], double nX[9])
{
    for (int q = 0; q < 9; q++)
        nX[q] = -X[q];
}

/* Append the four blocks of a pair, as a spring lists them: -(K, C) at (i, i), (K, C) at
 * (i, j) and (j, i), -(K, C) at (j, j) (mb_linsys_sink_pair's order), marked as a pair
 * when i != j */
static void put_pair(mb_jacobian *J, size_t i, size_t j, const double C[9], const double K[9])
{
    double nC[9], nK[9];
    size_t first = J->count;
    negated(C, nC);
    negated(K, nK);
    put_block(J, i, i, nC, nK);
    put_block(J, i, j, C, K);
    put_block(J, j, i, C, K);
    put_block(J, j, j, nC, nK);
    if (i != j)
        mb_jacobian_mark_pair(J, first);
}

/* A system in storage of either kind: block-tridiagonal, or CSR with the pattern of J */
struct stored {
    mb_blocktri *T;
    mb_csr *M;
    double b[24];
};

static void stored_alloc(struct stored *S, const mb_nodes *s, const mb_jacobian *J, int csr)
{
    cr_assert_eq(3 * s->n, sizeof S->b / sizeof S->b[0], "b holds the mixed system's 8 nodes");
    S->T = NULL;
    S->M = NULL;
    if (csr) {
        cr_assert_not_null(S->M = mb_csr_alloc());
        cr_assert_eq(mb_csr_pattern(S->M, J), MB_SUCCESS);
    } else {
        cr_assert_not_null(S->T = mb_blocktri_alloc(s->n));
    }
}

/* The reference: the blocks of J assembled from the list (mb_blocktri_assemble or
 * mb_csr_assemble, mb_linsys_be_rhs), as the implicit step did before the sink */
static void stored_from_list(struct stored *S, const mb_nodes *s, const mb_jacobian *J)
{
    double tmp[2];
    if (S->M)
        mb_csr_assemble(S->M, s, J, H);
    else
        mb_blocktri_assemble(S->T, s, J, H);
    mb_linsys_be_rhs(s, J, H, S->b, tmp);
}

static int stored_equal(const struct stored *X, const struct stored *Y, size_t n)
{
    if (memcmp(X->b, Y->b, sizeof X->b) != 0)
        return 0;
    if (X->M)
        return same_pool(X->M, Y->M);
    size_t bytes = 9 * n * sizeof(double);
    return memcmp(X->T->D, Y->T->D, bytes) == 0 && memcmp(X->T->L, Y->T->L, bytes) == 0
           && memcmp(X->T->U, Y->T->U, bytes) == 0;
}

static void stored_free(struct stored *S)
{
    mb_blocktri_free(S->T);
    mb_csr_free(S->M);
}

/* sunk (storage of the kind csr, the pattern of J) against the blocks of J assembled from
 * a list, and the negative control: the blocks of J2 (J changed) must give other bits */
static void expect_list_not_control(const struct stored *sunk, const mb_nodes *s,
                                    const mb_jacobian *J, const mb_jacobian *J2, int csr,
                                    const char *what)
{
    struct stored listed, control;
    stored_alloc(&listed, s, J, csr);
    stored_alloc(&control, s, J, csr);
    stored_from_list(&listed, s, J);
    stored_from_list(&control, s, J2);
    cr_expect(stored_equal(sunk, &listed, s->n), "%s, csr=%d: the sink differs from the list",
              what, csr);
    cr_expect(!stored_equal(&control, &listed, s->n), "%s, csr=%d: the control gave the same "
              "bits", what, csr);
    stored_free(&listed);
    stored_free(&control);
}

/* The same block on every diagonal (a field such as drag), after a spring-like pair, from
 * mb_linsys_sink_diagonal against the same blocks assembled from a list.  The call
 * subtracts the whole block G = h C + h^2 K, two entries a lane; the block has entries
 * +0, -0 and subnormals, so that an entry dropped or mixed up with its lane neighbour is
 * seen.  Negative control: the list with the subnormal of C doubled gives other bits. */
Test(linsys_sink, diagonal_blocks_equal_the_block_list)
{
    static const double Cp[9] = { 0.3, -0.1, 0.2, 0.05, 0.7, -0.4, 0.1, 0.2, 0.9 };
    static const double Kp[9] = { -5.0, 1.0, 0.5, 2.0, -4.0, 0.25, 0.0, 1.5, -3.0 };
    const double C[9] = { -0.13, 0.0, -0.0, 0x1p-1060, -0.13, 0.0, 0.0, -0.0, 0.21 };
    const double K[9] = { 0.0, -0.0, 3.5, 0.0, 0.0, -0.0, 0x1p-1040, 0.0, -2.0 };
    double C2[9];
    memcpy(C2, C, sizeof C2);
    C2[3] = 0x1p-1059;
    mb_system *sys = mixed_system(0);
    const mb_nodes *s = sys->nodes;
    mb_jacobian *J = mb_jacobian_alloc(s->n, 53), *J2 = mb_jacobian_alloc(s->n, 53);
    put_pair(J, 0, 1, Cp, Kp);
    for (int q = 0; q < 4; q++)
        put_block(J2, J->row[q], J->col[q], &J->dfdv[9 * q], &J->dfdx[9 * q]);
    for (size_t r = 0; r < s->n; r++) {
        put_block(J, r, r, C, K);
        put_block(J2, r, r, C2, K);
    }
    for (int csr = 0; csr <= 1; csr++) {
        struct stored sunk;
        stored_alloc(&sunk, s, J, csr);
        mb_linsys_sink k = { 0 };
        mb_linsys_sink_begin(&k, s, H, sunk.T, sunk.M, sunk.b);
        mb_linsys_sink_rhs(&k);
        mb_linsys_sink_pair(&k, 0, 1, Cp, Kp);
        mb_linsys_sink_diagonal(&k, C, K);
        cr_assert(mb_linsys_sink_finish(&k));
        expect_list_not_control(&sunk, s, J, J2, csr, "diagonal");
        mb_linsys_sink_release(&k);
        stored_free(&sunk);
    }
    mb_jacobian_free(J);
    mb_jacobian_free(J2);
    mb_system_free(sys);
}

/* A pair of a node with itself adds its four blocks -(K, C), (K, C), (K, C), -(K, C) to one
 * slot: against those blocks assembled from a list.  Negative control: the list in
 * another order gives other bits (each block subtracts G = h C + h^2 K, +-G on the slot's
 * diagonal: the blocks are strong against the node's mass, 1.52, so that the order of the
 * four roundings shows). */
Test(linsys_sink, pair_of_one_node_equals_the_block_list)
{
    const double C[9] = { 31.0, -12.0, 20.0, 5.0, 70.0, -40.0, 10.0, 23.0, 90.0 };
    const double K[9] = { -510.0, 130.0, 50.0, 200.0, -470.0, 25.0, 60.0, 150.0, -330.0 };
    double nC[9], nK[9];
    negated(C, nC);
    negated(K, nK);
    mb_system *sys = mixed_system(0);
    const mb_nodes *s = sys->nodes;
    mb_jacobian *J = mb_jacobian_alloc(s->n, 53), *J2 = mb_jacobian_alloc(s->n, 53);
    put_pair(J, 3, 3, C, K);
    put_block(J2, 3, 3, C, K);
    put_block(J2, 3, 3, C, K);
    put_block(J2, 3, 3, nC, nK);
    put_block(J2, 3, 3, nC, nK);
    struct stored sunk;
    stored_alloc(&sunk, s, J, 0);
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, s, H, sunk.T, NULL, sunk.b);
    mb_linsys_sink_rhs(&k);
    mb_linsys_sink_pair(&k, 3, 3, C, K);
    cr_assert(mb_linsys_sink_finish(&k));
    expect_list_not_control(&sunk, s, J, J2, 0, "pair of one node");
    mb_linsys_sink_release(&k);
    stored_free(&sunk);
    mb_jacobian_free(J);
    mb_jacobian_free(J2);
    mb_system_free(sys);
}

/* Folding (mb_linsys_sink_fold): six nodes; springs A (1-2, 2-3), drag, gravity, drag,
 * springs B (3-4, 1-2 again; with beyond = 1 also 1-4, off the chain), drag.  The first two
 * drags fold into the pass of A past gravity, the third into B's; nodes 0 and 5 have no
 * spring and get their drag after the pass, node 3 is done in A and again in B.  The drags
 * are strong against the masses, so that a block added out of order changes the bits. */
static mb_system *fold_system(int beyond)
{
    const struct line_shape shape = { .n = 6, .mass0 = 0.37, .dmass = 0.29, .spacing = 0.8,
                                      .x_amp = 0.23, .x_freq = 1.7, .x_phase = 0.0,
                                      .v_amp = 0.61, .v_freq = 2.1, .v_phase = 0.3 };
    mb_system *sys = line_system(&shape);
    void *A = mb_springs_new(), *B = mb_springs_new();
    const mb_spring in_a[] = { { .i = 1, .j = 2, .k = 21.0, .rest = 0.7, .c = 0.31 },
                               { .i = 3, .j = 2, .k = 14.0, .rest = 0.9, .c = 0.17 } };
    const mb_spring in_b[] = { { .i = 3, .j = 4, .k = 9.0, .rest = 0.6, .c = 0.11 },
                               { .i = 1, .j = 2, .k = 5.0, .rest = 0.5, .c = 0.07 },
                               { .i = 1, .j = 4, .k = 3.0, .rest = 2.0, .c = 0.05 } };
    add_springs(A, in_a, 2);
    add_springs(B, in_b, beyond ? 3 : 2);
    const double g[3] = { 0.1, -9.81, 0.0 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, A), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(13.1)), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(7.1)), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, B), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(5.3)), MB_SUCCESS);
    return sys;
}

Test(linsys_sink, folded_fields_equal_the_block_list_bit_for_bit)
{
    expect_same_on_and_beyond(fold_system, "folded");
}

/* The folded blocks of a node are added when the node is reported done: after the pair
 * on it, as the list has them; the control reports node 1 before its pair and must give
 * other bits (the comparison sees when the fold adds them: the folded block is large
 * against the masses, so that the pair's small entries round otherwise when added after
 * it).  Nodes 1 and 2 of the mixed field are free (node 0 has its rows fixed at the end). */
Test(linsys_sink, folded_blocks_come_when_the_node_is_done)
{
    static const double Cp[9] = { 0.3, -0.1, 0.2, 0.05, 0.7, -0.4, 0.1, 0.2, 0.9 };
    static const double Kp[9] = { -5.0, 1.0, 0.5, 2.0, -4.0, 0.25, 0.3, 1.5, -3.0 };
    static const double C[9] = { -137.1, 0.0, 0.0, 0.0, -172.3, 0.0, 0.0, 0.0, -211.9 };
    static const double K[9] = { -371.0, 0.0, 0.0, 0.0, -413.0, 0.0, 0.0, 0.0, -293.0 };
    mb_system *sys = mixed_system(0);
    const mb_nodes *s = sys->nodes;
    mb_jacobian *J = mb_jacobian_alloc(s->n, 53);
    put_pair(J, 1, 2, Cp, Kp);
    for (size_t r = 0; r < s->n; r++)
        put_block(J, r, r, C, K);
    for (int csr = 0; csr <= 1; csr++) {
        struct stored listed;
        stored_alloc(&listed, s, J, csr);
        stored_from_list(&listed, s, J);
        for (int early = 0; early <= 1; early++) {
            struct stored sunk;
            stored_alloc(&sunk, s, J, csr);
            mb_linsys_sink k = { 0 };
            mb_linsys_sink_begin(&k, s, H, sunk.T, sunk.M, sunk.b);
            mb_linsys_sink_rhs(&k);
            cr_assert(mb_linsys_sink_fold(&k, C, K));
            if (early)
                mb_linsys_sink_node_done(&k, 1);
            mb_linsys_sink_pair(&k, 1, 2, Cp, Kp);
            mb_linsys_sink_node_done(&k, 2);
            mb_linsys_sink_node_done(&k, 1);
            mb_linsys_sink_fold_end(&k);
            cr_assert(mb_linsys_sink_finish(&k), "csr=%d early=%d: refused", csr, early);
            cr_expect_eq(k.count, J->count, "csr=%d early=%d: %zu blocks received", csr, early,
                         k.count);
            if (early)
                cr_expect(!stored_equal(&sunk, &listed, s->n),
                          "csr=%d: control, node 1 done before its pair, gave the same bits", csr);
            else
                cr_expect(stored_equal(&sunk, &listed, s->n),
                          "csr=%d: the folded blocks differ from the list", csr);
            mb_linsys_sink_release(&k);
            stored_free(&sunk);
        }
        stored_free(&listed);
    }
    mb_jacobian_free(J);
    mb_system_free(sys);
}

/* A CSR pattern whose last field's diagonal blocks come in another node order has the
 * right slots but not at the right places of the list: the folded blocks are refused, as
 * mb_linsys_sink_diagonal refuses them. */
Test(linsys_sink, folded_blocks_out_of_pattern_order_are_refused)
{
    mb_system *sys = fold_system(1);
    mb_nodes *s = sys->nodes;
    struct listed L;
    listed_build(&L, sys);
    cr_assert_not_null(L.csr);
    mb_jacobian *R = mb_jacobian_alloc(s->n, 53), *scratch = mb_jacobian_alloc(s->n, 53);
    size_t last = L.J->count - s->n;    /* the last drag's blocks, (r, r) for r = 0..n-1 */
    for (size_t q = 0; q < last; q++)
        cr_assert_geq(mb_jacobian_add_block(R, L.J->row[q], L.J->col[q]), 0);
    for (size_t r = s->n; r-- > 0;)
        cr_assert_geq(mb_jacobian_add_block(R, r, r), 0);
    mb_csr *C = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern(C, R), MB_SUCCESS);
    double *b = malloc(3 * s->n * sizeof(double));
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, s, H, NULL, C, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.25, &k, scratch), MB_SUCCESS);
    cr_expect_not(mb_linsys_sink_finish(&k), "diagonal blocks out of the pattern's order");
    mb_linsys_sink_begin(&k, s, H, NULL, L.csr, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.25, &k, scratch), MB_SUCCESS);
    cr_expect(mb_linsys_sink_finish(&k), "control: the system's own pattern must be accepted");
    mb_linsys_sink_release(&k);
    mb_csr_free(C);
    mb_jacobian_free(R);
    mb_jacobian_free(scratch);
    free(b);
    listed_free(&L);
    mb_system_free(sys);
}

/* One linearised backward-Euler step (the scheme of implicit_euler.c) assembled from a
 * block list (the solver never sees mb_implicit_solver_assemble), or with sink = 1
 * through mb_implicit_solver_assemble; *assembled: where that put A (0: nowhere). */
static void one_step(mb_implicit_solver *S, mb_system *sys, mb_jacobian *J, double h, int sink,
                     int *assembled)
{
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    double *b = malloc(n3 * sizeof(double)), *v = malloc(n3 * sizeof(double)), tmp[2];
    if (sink) {
        cr_assert_eq(mb_implicit_solver_assemble(S, sys->forces, s, sys->t, h, J, b),
                     MB_SUCCESS, "%s", mb_last_error());
        *assembled = S->assembled;
    } else {
        cr_assert_eq(mb_forces_eval_jacobian(sys->forces, s, sys->t, J), MB_SUCCESS);
        mb_linsys_be_rhs(s, J, h, b, tmp);
    }
    memcpy(v, s->v, n3 * sizeof(double));
    cr_assert_eq(mb_implicit_solver_solve(S, s, J, h, b, v), MB_SUCCESS, "%s", mb_last_error());
    for (size_t k = 0; k < n3; k++) {
        if (mb_linsys_node_fixed(s, k / 3) && mb_linsys_fixed(s, k))
            v[k] = s->v[k];
        s->x[k] = s->x[k] + v[k] * h;
    }
    memcpy(s->v, v, n3 * sizeof(double));
    mb_nodes_touch(s);
    sys->t += h;
    free(b);
    free(v);
}

/* The stepper and steps through mb_implicit_solver_assemble (the sink from the first
 * step on, whose storage a pattern pass chose: block-tridiagonal on the chain, CSR on the
 * cloth) against block-list steps; the sink's steps never fill the block list, the first
 * included (every model of these fields keeps its blocks' data or is a folded diagonal).
 * On the cloth a node whose springs' blocks the CSR storage shares is blocked before the
 * fourth step: that step is refused by the storage and assembled from the block list,
 * the later ones go to the storage again (its pattern rebuilt from the list). */
static void expect_same_steps(int cloth)
{
    mb_system *a = bench_system(cloth), *r = bench_system(cloth), *k = bench_system(cloth);
    mb_stepper *stp = mb_stepper_alloc("implicit-euler", a);
    cr_assert_not_null(stp, "%s", mb_last_error());
    mb_options *o = mb_options_new();     /* the defaults of implicit-euler */
    const mb_option_spec specs[] = { MB_IMPLICIT_SOLVER_OPTIONS, MB_OPTION_END };
    cr_assert_eq(mb_options_validate(o, specs, "implicit-euler"), MB_SUCCESS, "%s", mb_last_error());
    mb_implicit_solver *S, *Sk;
    cr_assert_eq(mb_implicit_solver_alloc(&S, o, r->nodes->n), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_implicit_solver_alloc(&Sk, o, k->nodes->n), MB_SUCCESS, "%s", mb_last_error());
    mb_jacobian *J = mb_jacobian_alloc(r->nodes->n, 53), *Jk = mb_jacobian_alloc(k->nodes->n, 53);
    const char *what = cloth ? "cloth" : "chain";
    for (int step = 0; step < 6; step++) {
        int assembled = -1;
        if (cloth && step == 3)         /* a node whose blocks the sink's storage shares */
            a->nodes->blocked[7] = r->nodes->blocked[7] = k->nodes->blocked[7] = MB_BLOCK_X;
        cr_assert_eq(mb_stepper_step(stp, a, H), MB_SUCCESS, "%s", mb_last_error());
        one_step(S, r, J, H, 0, &assembled);
        one_step(Sk, k, Jk, H, 1, &assembled);
        if (cloth && step == 2)
            cr_expect_gt(Sk->csr->n_shared, 0, "cloth: the sink's storage shares no block");
        int where = !cloth ? MB_ASSEMBLED_BLOCKTRI
                  : step == 3 ? MB_ASSEMBLED_NONE : MB_ASSEMBLED_CSR;
        cr_expect_eq(assembled, where, "%s: step %d assembled in %d", what, step + 1, assembled);
        cr_expect(Jk->count == 0 || where == MB_ASSEMBLED_NONE,
                  "%s: step %d filled the block list (%zu blocks)", what, step + 1, Jk->count);
        cr_expect(th_same_state(a->nodes, r->nodes), "%s: stepper, step %d differs", what, step + 1);
        cr_expect(th_same_state(k->nodes, r->nodes), "%s: sink, step %d differs", what, step + 1);
    }
    mb_jacobian_free(J);
    mb_jacobian_free(Jk);
    mb_implicit_solver_free(S);
    mb_implicit_solver_free(Sk);
    mb_options_free(o);
    mb_stepper_free(stp);
    mb_system_free(a);
    mb_system_free(r);
    mb_system_free(k);
}

Test(linsys_sink, implicit_euler_steps_equal_block_list_steps)
{
    expect_same_steps(0);
    expect_same_steps(1);
}

/* The fallback of a refused block sweep factors the band matrix copied from the blocks
 * (mb_band_from_blocktri), as the banded LU would assemble it from the list: the same
 * entries bit for bit, with neighbours (half-bandwidth 5) and with diagonal blocks only
 * (half-bandwidth 2: three particles, each on an anchored spring, with drag). */
Test(linsys_sink, band_from_blocks_equals_band_from_list)
{
    mb_system *chain = mixed_system(0), *apart = mb_system_alloc(3);
    void *sp = mb_springs_new();
    for (size_t i = 0; i < 3; i++) {
        mb_nodes_set_mass(apart->nodes, i, 0.5 + (double)i);
        apart->nodes->x[3 * i] = 0.3 * (double)i + 0.1;
        apart->nodes->v[3 * i + 1] = 0.2 - 0.1 * (double)i;
        mb_spring s = { .i = i, .anchored = 1, .k = 3.0 + (double)i, .rest = 0.05, .c = 0.2 };
        cr_assert_eq(mb_springs_add(sp, &s), MB_SUCCESS);
    }
    cr_assert_eq(mb_forces_add(apart->forces, mb_force_springs, sp), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(apart->forces, mb_force_drag, mb_drag_new(0.1)), MB_SUCCESS);
    mb_system *systems[2] = { chain, apart };
    for (int q = 0; q < 2; q++) {
        struct listed L;
        listed_build(&L, systems[q]);
        cr_assert_not_null(L.btri);
        size_t n3 = 3 * systems[q]->nodes->n, w = mb_band_halfwidth(L.J);
        cr_expect_eq(w, q == 0 ? 5u : 2u);
        mb_band *from_list = mb_band_alloc(n3, w), *from_blocks = mb_band_alloc(n3, w);
        cr_assert(from_list && from_blocks);
        mb_band_assemble(from_list, systems[q]->nodes, L.J, H);
        mb_band_from_blocktri(from_blocks, L.btri);
        size_t bytes = from_list->AB->size1 * from_list->AB->tda * sizeof(double);
        cr_expect(memcmp(from_list->AB->data, from_blocks->AB->data, bytes) == 0,
                  "half-bandwidth %zu: the band matrices differ", w);
        mb_band_free(from_list);
        mb_band_free(from_blocks);
        listed_free(&L);
    }
    mb_system_free(chain);
    mb_system_free(apart);
}

/* the 3x3 block at (r0, c0) of a dense row-major matrix with leading dimension lda */
static void dense_block(const double *A, size_t lda, size_t r0, size_t c0, double out[9])
{
    for (size_t a = 0; a < 3; a++)
        for (size_t e = 0; e < 3; e++)
            out[3 * a + e] = A[(r0 + a) * lda + c0 + e];
}

static void expect_bits(const double *got, const double want[9], const char *what)
{
    for (int q = 0; q < 9; q++)
        cr_expect(memcmp(&got[q], &want[q], sizeof want[q]) == 0,
                  "%s: entry %d is %.17g, not %.17g", what, q, got[q], want[q]);
}

/* Each block subtracts its sum G = h C + h^2 K from A (mb_linsys_block_g, Baraff & Witkin
 * eq. 6: A = M - h C - h^2 K): A(0, 0) = M - (h C + h^2 K) written out here in IEEE double,
 * and the same bits from the sink, the block list into block-tridiagonal, CSR and band
 * storage, the dense assembly and its MPFR instance at 53 bits.  Within rounding of the
 * exact M - h C - h^2 K (256-bit MPFR, written out here): two products and two sums, each
 * rounded once, |A - exact| <= 4 u (m + |h C| + |h^2 K|).  Negative control: the data are
 * chosen so that the former order (m - h c) - h^2 k gives other bits on the diagonal (2
 * entries), so the comparison tells the two orders apart. */
Test(linsys_sink, block_subtracts_its_sum_h_c_plus_h2_k)
{
    const double C[9] = { 0.31, -0.12, 0.2, 0.05, 0.7, -0.4, 0.1, 0.23, 0.9 };
    const double K[9] = { -5.1, 1.3, 0.5, 2.0, -4.7, 0.25, 0.6, 1.5, -3.3 };
    const double m = 0.41, h = H, h2 = H * H, u = 0x1p-53;
    mb_system *sys = mb_system_alloc(2);
    mb_nodes_set_mass(sys->nodes, 0, m);
    mb_nodes_set_mass(sys->nodes, 1, 0.78);
    const mb_nodes *s = sys->nodes;
    mb_jacobian *J = mb_jacobian_alloc(2, 53);
    put_block(J, 0, 0, C, K);
    double want[9], got[9];
    int former = 0;
    mpfr_t x, t;
    mpfr_inits2(256, x, t, (mpfr_ptr)0);
    for (int q = 0; q < 9; q++) {
        double a0 = q % 4 == 0 ? m : 0.0;
        want[q] = a0 - (h * C[q] + h2 * K[q]);
        double old = (a0 - h * C[q]) - h2 * K[q];
        former += memcmp(&old, &want[q], sizeof old) != 0;
        mpfr_set_d(x, a0, MPFR_RNDN);               /* exact: m - h c - h^2 k */
        mpfr_set_d(t, h, MPFR_RNDN);
        mpfr_mul_d(t, t, C[q], MPFR_RNDN);
        mpfr_sub(x, x, t, MPFR_RNDN);
        mpfr_set_d(t, h, MPFR_RNDN);
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_mul_d(t, t, K[q], MPFR_RNDN);
        mpfr_sub(x, x, t, MPFR_RNDN);
        mpfr_sub_d(x, x, want[q], MPFR_RNDN);
        double err = fabs(mpfr_get_d(x, MPFR_RNDN));
        double bound = 4 * u * (a0 + fabs(h * C[q]) + fabs(h2 * K[q]));
        cr_expect(err <= bound, "entry %d: %.3g from M - h C - h^2 K (bound %.3g)", q, err,
                  bound);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);
    cr_assert_eq(former, 2, "the former order gave other bits on %d entries, not 2", former);

    mb_blocktri *T = mb_blocktri_alloc(2), *Ts = mb_blocktri_alloc(2);
    mb_blocktri_assemble(T, s, J, h);
    expect_bits(T->D, want, "block-tridiagonal from the list");
    double b[6];
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, s, h, Ts, NULL, b);
    cr_assert(mb_linsys_sink_rhs(&k));
    mb_linsys_sink_block(&k, 0, 0, C, K);
    cr_assert(mb_linsys_sink_finish(&k));
    expect_bits(Ts->D, want, "the sink");
    mb_linsys_sink_release(&k);
    mb_csr *M = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern(M, J), MB_SUCCESS);
    mb_csr_assemble(M, s, J, h);
    expect_bits(&M->pool[9 * (size_t)M->dblk[0]], want, "CSR");
    mb_band *B = mb_band_alloc(6, mb_band_halfwidth(J));
    mb_band_assemble(B, s, J, h);
    for (size_t a = 0; a < 3; a++)
        for (size_t e = 0; e < 3; e++)
            got[3 * a + e] = gsl_matrix_get(B->AB, e, 2 * B->w + a - e);
    expect_bits(got, want, "band");
    double A[36];
    mb_linsys_dense(s, J, h, A, 6);
    dense_block(A, 6, 0, 0, got);
    expect_bits(got, want, "dense");

    mb_nodes_mpfr *sm = mb_nodes_mpfr_alloc(2, 53);
    cr_assert_eq(mb_nodes_mpfr_set_from_double(sm, s), MB_SUCCESS);
    mb_jacobian_mpfr *Jm = mb_jacobian_mpfr_alloc(2, 53);
    long q0 = mb_jacobian_mpfr_add_block(Jm, 0, 0);
    cr_assert_geq(q0, 0);
    for (int q = 0; q < 9; q++) {
        mpfr_set_d(&Jm->dfdv[9 * q0 + q], C[q], MPFR_RNDN);
        mpfr_set_d(&Jm->dfdx[9 * q0 + q], K[q], MPFR_RNDN);
    }
    mpfr_t Am[36];
    for (int q = 0; q < 36; q++)
        mpfr_init2(Am[q], 53);
    mb_linsys_mpfr_dense(sm, Jm, h, Am[0], 6);
    for (size_t a = 0; a < 3; a++)
        for (size_t e = 0; e < 3; e++)
            got[3 * a + e] = mpfr_get_d(Am[6 * a + e], MPFR_RNDN);
    expect_bits(got, want, "dense, MPFR at 53 bits");
    for (int q = 0; q < 36; q++)
        mpfr_clear(Am[q]);
    mb_jacobian_mpfr_free(Jm);
    mb_nodes_mpfr_free(sm);
    mb_band_free(B);
    mb_csr_free(M);
    mb_blocktri_free(Ts);
    mb_blocktri_free(T);
    mb_jacobian_free(J);
    mb_system_free(sys);
}

/* A pair's four terms of b formed together (mb_linsys_be_rhs_pair_d; Baraff & Witkin eq. 6,
 * b = (M - h C) v + h f with the pair's C = [-C C; C -C]): t = h C (v_j - v_i),
 * t_a = ((C_a0 w_0 + C_a1 w_1) + C_a2 w_2) h, w = v_j - v_i, b_i = (m_i v_i + f_i h) - t,
 * b_j = (m_j v_j + f_j h) + t, written out here in IEEE double; the same bits from the
 * sink, from the block list (mb_linsys_be_rhs on the marked pair) and from its MPFR
 * instance at 53 bits.  Within rounding of the exact (M - h C) v + h f (256-bit MPFR,
 * written out here): w's three differences, the products and sums of t, and the two sums
 * of b, each rounded once, |b - exact| <= 8 u (m |v| + h |f| + h |C| (|v_i| + |v_j|)) per
 * row.  Negative control: the former order (four terms off b, each from C v of one node)
 * gives other bits on these data. */
Test(linsys_sink, pair_terms_from_the_relative_velocity)
{
    const double C[9] = { 0.31, -0.12, 0.2, 0.05, 0.7, -0.4, 0.1, 0.23, 0.9 };
    const double K[9] = { -5.1, 1.3, 0.5, 2.0, -4.7, 0.25, 0.6, 1.5, -3.3 };
    const double mass[2] = { 0.41, 0.78 }, h = H, u = 0x1p-53;
    const double v[6] = { 0.613, -1.27, 0.0441, 0.587, -1.31, 0.0917 };
    const double f[6] = { 2.3, -0.71, 9.1, -1.9, 0.33, -8.7 };
    mb_system *sys = mb_system_alloc(2);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < 2; i++)
        mb_nodes_set_mass(s, i, mass[i]);
    memcpy(s->v, v, sizeof v);
    memcpy(s->f, f, sizeof f);
    double want[6], former[6];
    for (int k = 0; k < 6; k++)
        want[k] = former[k] = mass[k / 3] * v[k] + f[k] * h;
    const double w[3] = { v[3] - v[0], v[4] - v[1], v[5] - v[2] };
    int differs = 0;
    for (int a = 0; a < 3; a++) {
        const double *c = &C[3 * a];
        double t = ((c[0] * w[0] + c[1] * w[1]) + c[2] * w[2]) * h;
        want[a] = want[a] - t;
        want[3 + a] = want[3 + a] + t;
        former[a] -= ((-(c[0] * v[0]) + -(c[1] * v[1])) + -(c[2] * v[2])) * h;
        former[a] -= ((c[0] * v[3] + c[1] * v[4]) + c[2] * v[5]) * h;
        former[3 + a] -= ((c[0] * v[0] + c[1] * v[1]) + c[2] * v[2]) * h;
        former[3 + a] -= ((-(c[0] * v[3]) + -(c[1] * v[4])) + -(c[2] * v[5])) * h;
    }
    for (int k = 0; k < 6; k++)
        differs += memcmp(&former[k], &want[k], sizeof want[k]) != 0;
    cr_assert_geq(differs, 1, "the former order gave the same bits: no control");

    mpfr_t x, t;                                    /* exact, and the rounding bound */
    mpfr_inits2(256, x, t, (mpfr_ptr)0);
    for (int k = 0; k < 6; k++) {
        int r = k / 3, a = k % 3;
        double sign = r == 0 ? -1.0 : 1.0, bound = mass[r] * fabs(v[k]) + h * fabs(f[k]);
        mpfr_set_d(x, mass[r], MPFR_RNDN);
        mpfr_mul_d(x, x, v[k], MPFR_RNDN);
        mpfr_set_d(t, f[k], MPFR_RNDN);
        mpfr_mul_d(t, t, h, MPFR_RNDN);
        mpfr_add(x, x, t, MPFR_RNDN);
        for (int e = 0; e < 3; e++) {               /* - h (sign C) v_i - h (-sign C) v_j */
            mpfr_set_d(t, v[3 + e], MPFR_RNDN);
            mpfr_sub_d(t, t, v[e], MPFR_RNDN);
            mpfr_mul_d(t, t, C[3 * a + e], MPFR_RNDN);
            mpfr_mul_d(t, t, h, MPFR_RNDN);
            mpfr_mul_d(t, t, sign, MPFR_RNDN);
            mpfr_add(x, x, t, MPFR_RNDN);
            bound += h * fabs(C[3 * a + e]) * (fabs(v[e]) + fabs(v[3 + e]));
        }
        mpfr_sub_d(x, x, want[k], MPFR_RNDN);
        double err = fabs(mpfr_get_d(x, MPFR_RNDN));
        cr_expect(err <= 8 * u * bound, "b_%d: %.3g from (M - h C) v + h f (bound %.3g)", k,
                  err, 8 * u * bound);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);

    mb_blocktri *T = mb_blocktri_alloc(2);         /* the sink */
    double b[6], tmp[2];
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, s, h, T, NULL, b);
    cr_assert(mb_linsys_sink_rhs(&k));
    mb_linsys_sink_pair(&k, 0, 1, C, K);
    cr_assert(mb_linsys_sink_finish(&k));
    for (int q = 0; q < 6; q++)
        cr_expect(memcmp(&b[q], &want[q], sizeof b[q]) == 0, "the sink: b_%d is %.17g, not "
                  "%.17g", q, b[q], want[q]);
    mb_linsys_sink_release(&k);
    mb_jacobian *J = mb_jacobian_alloc(2, 53);     /* the block list */
    put_pair(J, 0, 1, C, K);
    mb_linsys_be_rhs(s, J, h, b, tmp);
    for (int q = 0; q < 6; q++)
        cr_expect(memcmp(&b[q], &want[q], sizeof b[q]) == 0, "the list: b_%d is %.17g, not "
                  "%.17g", q, b[q], want[q]);

    mb_nodes_mpfr *sm = mb_nodes_mpfr_alloc(2, 53);    /* the MPFR instance at 53 bits */
    cr_assert_eq(mb_nodes_mpfr_set_from_double(sm, s), MB_SUCCESS);
    for (int q = 0; q < 6; q++)
        mpfr_set_d(&sm->f[q], f[q], MPFR_RNDN);
    mb_jacobian_mpfr *Jm = mb_jacobian_mpfr_alloc(2, 53);
    for (size_t q = 0; q < 4; q++) {
        long bq = mb_jacobian_mpfr_append_block(Jm, J->row[q], J->col[q]);
        cr_assert_geq(bq, 0);
        for (int e = 0; e < 9; e++) {
            mpfr_set_d(&Jm->dfdv[9 * bq + e], J->dfdv[9 * q + e], MPFR_RNDN);
            mpfr_set_d(&Jm->dfdx[9 * bq + e], J->dfdx[9 * q + e], MPFR_RNDN);
        }
    }
    mb_jacobian_mpfr_mark_pair(Jm, 0);
    mpfr_t bm[6], tm[2];
    for (int q = 0; q < 6; q++)
        mpfr_init2(bm[q], 53);
    mpfr_inits2(53, tm[0], tm[1], (mpfr_ptr)0);
    mb_linsys_mpfr_be_rhs(sm, Jm, h, bm[0], tm[0]);
    for (int q = 0; q < 6; q++) {
        double got = mpfr_get_d(bm[q], MPFR_RNDN);
        cr_expect(memcmp(&got, &want[q], sizeof got) == 0, "MPFR at 53 bits: b_%d is %.17g, "
                  "not %.17g", q, got, want[q]);
        mpfr_clear(bm[q]);
    }
    mpfr_clears(tm[0], tm[1], (mpfr_ptr)0);
    mb_jacobian_mpfr_free(Jm);
    mb_nodes_mpfr_free(sm);
    mb_jacobian_free(J);
    mb_blocktri_free(T);
    mb_system_free(sys);
}

/* The CSR storage's blocks written out (Baraff & Witkin eq. 6, A = M - h C - h^2 K, a
 * pair's blocks -(K, C) on the diagonal and (K, C) off it): two nodes, two pairs (0, 1)
 * with (C1, K1) and (C2, K2), then a diagonal field (C3, K3) on every node, each block's
 * G = h C + h^2 K in IEEE double, the entries written out here:
 *   A(i, i) = ((M_ii + G1) + G2) - G3,   A(0, 1) = A(1, 0) = ((+0 - G1) - G2)
 * (M_ii = m_i on the diagonal, +0 off it), into the storage's two forms: a pool block of
 * its own for each of (0, 1) and (1, 0), and one pool block the two share (the pairs'
 * marks), which gets the operations of one of them, once.  The entries hold +0, -0 and a
 * subnormal of G, so that a lane mixed up with its neighbour or an entry dropped shows.
 * No tolerance: memcmp.  Negative controls, each on these data: the two pairs' G summed
 * first (M + (G1 + G2)), and the shared block given both mirrors' operations, differ in
 * their bits from the written-out values on at least one entry. */
static void csr_two_pairs_expected(const double *m, double G[3][9], double want[4][9],
                                   double sum_first[4][9], double twice[9])
{
    for (int q = 0; q < 9; q++) {
        for (int i = 0; i < 2; i++) {
            double a0 = q % 4 == 0 ? m[i] : 0.0;
            want[3 * i][q] = ((a0 + G[0][q]) + G[1][q]) - G[2][q];
            sum_first[3 * i][q] = (a0 + (G[0][q] + G[1][q])) - G[2][q];
        }
        want[1][q] = want[2][q] = (0.0 - G[0][q]) - G[1][q];
        sum_first[1][q] = sum_first[2][q] = 0.0 - (G[0][q] + G[1][q]);
        twice[q] = (((0.0 - G[0][q]) - G[0][q]) - G[1][q]) - G[1][q];
    }
}

/* entries of x and y (9 each) that differ in their bits */
static int bits_differ(const double *x, const double *y)
{
    int d = 0;
    for (int q = 0; q < 9; q++)
        d += memcmp(&x[q], &y[q], sizeof x[q]) != 0;
    return d;
}

Test(linsys_sink, csr_pair_and_diagonal_blocks_written_out)
{
    const double C1[9] = { 0.31, -0.12, 0.0, -0.0, 0.7, 0x1p-1060, 0.1, 0.23, 0.9 };
    const double K1[9] = { -5.1, 1.3, 0.0, -0.0, -4.7, 0.0, 0.6, 1.5, -3.3 };
    const double C2[9] = { 2.9, 0.5, -0.0, 0.0, -1.7, 0.0, 0.37, -0.8, 3.1 };
    const double K2[9] = { 1.7e2, -61.0, -0.0, 0.0, 2.3e2, 0.0, -9.5, 44.0, 1.9e2 };
    const double C3[9] = { -0.13, 0.0, -0.0, 0x1p-1059, -0.13, 0.0, 0.0, -0.0, 0.21 };
    const double K3[9] = { 0.0, -0.0, 3.5, 0.0, 0.0, -0.0, 0x1p-1040, 0.0, -2.0 };
    const double *Cs[3] = { C1, C2, C3 }, *Ks[3] = { K1, K2, K3 };
    const double m[2] = { 0.41, 0.78 }, h = H, h2 = H * H;
    double G[3][9], want[4][9], sum_first[4][9], twice[9];
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 9; q++)
            G[p][q] = h * Cs[p][q] + h2 * Ks[p][q];
    csr_two_pairs_expected(m, G, want, sum_first, twice);
    int controls = 0;
    for (int blk = 0; blk < 4; blk++)
        controls += bits_differ(sum_first[blk], want[blk]) > 0;
    cr_assert_geq(controls, 1, "the pairs' G summed first gave the same bits: no control");
    cr_assert_geq(bits_differ(twice, want[1]), 1, "both mirrors' operations gave the same "
                  "bits: no control");

    mb_system *sys = mb_system_alloc(2);
    for (size_t i = 0; i < 2; i++)
        mb_nodes_set_mass(sys->nodes, i, m[i]);
    const mb_nodes *s = sys->nodes;
    static const size_t brow[10] = { 0, 0, 1, 1, 0, 0, 1, 1, 0, 1 };
    static const size_t bcol[10] = { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1 };
    static const unsigned char bpair[10] = { 0, 1, 1, 0, 0, 1, 1, 0, 0, 0 };
    for (int shared = 0; shared <= 1; shared++) {
        size_t *row = malloc(sizeof brow), *col = malloc(sizeof bcol);
        unsigned char *pair = shared ? malloc(sizeof bpair) : NULL;
        cr_assert(row && col && (pair || !shared));
        memcpy(row, brow, sizeof brow);
        memcpy(col, bcol, sizeof bcol);
        if (pair)
            memcpy(pair, bpair, sizeof bpair);
        mb_csr *M = mb_csr_alloc();
        cr_assert_eq(mb_csr_pattern_adopt(M, 2, 10, row, col, pair, s), MB_SUCCESS);
        cr_assert_eq(M->n_shared, (size_t)shared, "pool blocks shared: %zu", M->n_shared);
        double b[6];
        mb_linsys_sink k = { 0 };
        mb_linsys_sink_begin(&k, s, h, NULL, M, b);
        cr_assert(mb_linsys_sink_rhs(&k));
        mb_linsys_sink_pair(&k, 0, 1, C1, K1);
        mb_linsys_sink_pair(&k, 0, 1, C2, K2);
        mb_linsys_sink_diagonal(&k, C3, K3);
        cr_assert(mb_linsys_sink_finish(&k), "shared %d: the sink refused the blocks", shared);
        static const size_t ij[4][2] = { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 } };
        for (int blk = 0; blk < 4; blk++) {
            size_t p = mb_csr_position(M, ij[blk][0], ij[blk][1]);
            cr_assert_neq(p, SIZE_MAX);
            char what[64];
            snprintf(what, sizeof what, "shared %d, block (%zu, %zu)", shared, ij[blk][0],
                     ij[blk][1]);
            expect_bits(&M->pool[9 * (size_t)M->cref[p]], want[blk], what);
        }
        mb_linsys_sink_release(&k);
        mb_csr_free(M);
    }
    mb_system_free(sys);
}

/* Three nodes on the x axis, 2 apart, joined by two springs of rest length 1 with
 * dashpots, gravity last: the springs' pass forms b (mb_linsys_sink_rhs_by_node) in
 * block-tridiagonal storage.  Every value is a dyadic number of few bits, so every
 * operation below is exact and b is known whatever the order (Baraff & Witkin eq. 6):
 *   l = 2, n = (1, 0, 0), f_spring on i = (k (l - L) + c (v_j - v_i).n) n, on j its
 *   negative; spring 0-1: k = 4, c = 2, (v_1 - v_0).n = -0.75: 4 - 1.5 = 2.5;
 *   spring 1-2: k = 8, c = 0.5, (v_2 - v_1).n = 1.25: 8 + 0.625 = 8.625;
 *   f = (2.5, 0, 0), (6.125, 0, 0), (-8.625, 0, 0), plus m g = m (0, -8, 0.5);
 *   b = m v + h f (h = 0.25), then the pair terms t = h c ((v_j - v_i).n) n
 *   (-0.375 and 0.15625 along x) off b_i and onto b_j. */
static mb_system *dyadic_chain(void)
{
    static const double v[9] = { 0.5, 0.25, -0.5, -0.25, 1.0, 0.75, 1.0, -0.5, 0.25 };
    static const double m[3] = { 2.0, 2.0, 4.0 };
    mb_system *sys = mb_system_alloc(3);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < 3; i++) {
        mb_nodes_set_mass(s, i, m[i]);
        for (int a = 0; a < 3; a++) {
            s->x[3 * i + a] = a == 0 ? 2.0 * (double)i : 0.0;
            s->v[3 * i + a] = v[3 * i + a];
        }
    }
    void *sp = mb_springs_new();
    const mb_spring items[] = { { .i = 0, .j = 1, .k = 4.0, .rest = 1.0, .c = 2.0 },
                                { .i = 1, .j = 2, .k = 8.0, .rest = 1.0, .c = 0.5 } };
    add_springs(sp, items, 2);
    const double g[3] = { 0.0, -8.0, 0.5 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    return sys;
}

/* The chain's assembly in block-tridiagonal storage with b stale (NaN): status, b */
static int dyadic_assemble(mb_system *sys, double b[9])
{
    mb_nodes *s = sys->nodes;
    mb_blocktri *T = mb_blocktri_alloc(3);
    mb_jacobian *J = mb_jacobian_alloc(3, 53);
    cr_assert(T && J);
    for (int q = 0; q < 9; q++)
        s->f[q] = b[q] = NAN;
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, s, 0.25, T, NULL, b);
    int st = mb_forces_assemble(sys->forces, s, 0.0, &k, J);
    if (st == MB_SUCCESS)
        cr_assert(mb_linsys_sink_finish(&k));
    mb_linsys_sink_release(&k);
    mb_jacobian_free(J);
    mb_blocktri_free(T);
    return st;
}

/* b formed inside the springs' pass equals the values written out above, bit for bit;
 * the controls, b with the pair terms lost (b formed over them) and b without the weight,
 * differ from it.  A force NaN is still reported (the finiteness check moved into the
 * pass), and only block-tridiagonal storage takes the route. */
Test(linsys_sink, b_formed_in_the_springs_pass_equals_written_values)
{
    static const double want[9] = { 2.0, -3.5, -0.75, 0.5, -2.0, 1.75, 2.0, -10.0, 1.5 };
    static const double terms_lost[9] = { 1.625, -3.5, -0.75, 1.03125, -2.0, 1.75,
                                          1.84375, -10.0, 1.5 };
    static const double weight_lost[9] = { 2.0, 0.5, -1.0, 0.5, 2.0, 1.5, 2.0, -2.0, 1.0 };
    mb_system *sys = dyadic_chain();
    double b[9];
    cr_assert_eq(dyadic_assemble(sys, b), MB_SUCCESS, "%s", mb_last_error());
    for (int q = 0; q < 9; q++)
        cr_expect(b[q] == want[q] && !signbit(b[q]) == !signbit(want[q]),
                  "b[%d] = %.17g, want %.17g", q, b[q], want[q]);
    cr_expect(memcmp(b, terms_lost, sizeof b) != 0, "control: the pair terms lost gave b");
    cr_expect(memcmp(b, weight_lost, sizeof b) != 0, "control: the weight lost gave b");
    sys->nodes->v[4] = NAN;                     /* the dashpot's force on nodes 0..2: NaN */
    cr_expect_eq(dyadic_assemble(sys, b), MB_EDIVERGED, "a NaN force must stop the step");
    mb_system_free(sys);

    mb_linsys_sink k = { 0 };
    mb_blocktri *T = mb_blocktri_alloc(3);
    mb_csr *C = mb_csr_alloc();
    cr_assert(T && C);
    sys = dyadic_chain();
    mb_linsys_sink_begin(&k, sys->nodes, 0.25, T, NULL, b);
    cr_expect_eq(mb_linsys_sink_rhs_by_node(&k, NULL), 1, "block-tridiagonal: b by node");
    mb_linsys_sink_begin_pattern(&k, sys->nodes, 0.25, b);
    cr_expect_eq(mb_linsys_sink_rhs_by_node(&k, NULL), 0, "the pattern pass: b a pass");
    k.recording = 0;
    k.btri = NULL;
    k.csr = C;
    cr_expect_eq(mb_linsys_sink_rhs_by_node(&k, NULL), 0, "CSR: b a pass of its own");
    mb_linsys_sink_release(&k);
    mb_csr_free(C);
    mb_blocktri_free(T);
    mb_system_free(sys);
}
