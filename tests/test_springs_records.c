/* test_springs_records.c -- the springs' passes read each spring's hot record (its nodes,
 * the anchor's mark, k, L, c) and its arms' mark, copies of what mb_springs_add was given:
 * every kind of spring must act as its own record says, in each pass over the springs.
 *
 * Expected values do not come from the code under test:
 *  - the force of a spring without arms is written out here from its definition
 *    (mb_forces.h): d = x_j - x_i (the anchor instead of x_j), l = |d|, n = d / l,
 *    F = [k (l - L) + c (dv.n)] n, F = k d for L = c = 0; f_i += F, f_j -= F in list order.
 *    The test forms each value by the same IEEE operations in the same order (the library
 *    and the tests are compiled with -ffp-contract=off), so the forces must agree bit for
 *    bit: from the evaluation (mb_forces_eval) and from the one pass of forces and blocks
 *    (mb_forces_eval_jacobian).  The Jacobian holds four blocks a spring between nodes and
 *    one a spring to an anchor, the anchored linear spring's block -k I exactly.
 *  - a spring with arms: r = R(q) A with R(q) the rotation matrix of the unit quaternion q
 *    written out (not the library's q v q* form), d and dv taken between the attachment
 *    points, the torques r_i x F and -r_j x F.  The rotation's two forms round differently,
 *    so the forces and torques agree to within 64 u of their scale (each value is a few
 *    tens of roundings of terms of that scale; measured 0.36 u and 0.23 u, printed with
 *    --verbose).
 * Controls: the references with the fault each check targets -- the anchor's mark lost (node
 * 0 in place of the anchor), the dashpot lost (c = 0), the arms ignored -- differ from the
 * library's values by far more than the tolerance, so the data tell each fault apart. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_linsolve.h"
#include "mb_linsys_sink.h"
#include "mb_status.h"
#include "mb_system.h"

enum { N1 = 5, N2 = 3, NS1 = 5 };

/* the springs of the first set: every kind without arms */
static const mb_spring set1[NS1] = {
    { .i = 0, .j = 1, .k = 21.9 },                                  /* linear */
    { .i = 1, .j = 2, .k = 37.3, .rest = 0.31, .c = 0.217 },        /* rest length, dashpot */
    { .i = 3, .anchored = 1, .anchor = { 3.4, 1.3, -0.2 }, .k = 11.3, .rest = 3.1, .c = 0.13 },
    { .i = 4, .anchored = 1, .anchor = { -0.6, 0.4, 0.9 }, .k = 7.7 },  /* anchored, linear */
    { .i = 2, .j = 4, .k = 17.0, .rest = 0.45 },                    /* rest length alone */
};

/* nodes at no special places or velocities (nothing aligned, no unit lengths) */
static mb_system *records_system(size_t n)
{
    mb_system *sys = mb_system_alloc(n);
    cr_assert_not_null(sys);
    for (size_t i = 0; i < n; i++) {
        mb_nodes_set_mass(sys->nodes, i, 1.0 + 0.25 * (double)i);
        for (int a = 0; a < 3; a++) {
            sys->nodes->x[3 * i + a] = 0.37 * (double)i + 0.11 * (double)(a * a) - 0.05 * (double)(i * a);
            sys->nodes->v[3 * i + a] = 0.3 - 0.17 * (double)((i + 2 * a) % 5);
        }
    }
    return sys;
}

/* add the springs to a field of the springs model alone */
static void add_springs(mb_system *sys, const mb_spring *sp, size_t count)
{
    void *springs = mb_springs_new();
    cr_assert_not_null(springs);
    for (size_t m = 0; m < count; m++)
        cr_assert_eq(mb_springs_add(springs, &sp[m]), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, springs), 0);
}

/* Variants of the written-out reference: the faults the controls show the data catch. */
enum fault { NONE, ANCHOR_LOST, DASHPOT_LOST };

/* The force on node i of spring sp from its definition, in the library's order of
 * operations (force_springs_source.c: l^2 summed x, y, z; dv.n likewise; (l - L) k then
 * + (dv.n) c; F_a = n_a m). */
static void written_force(const mb_spring *sp, const mb_nodes *s, enum fault fault, double F[3])
{
    const double *xi = &s->x[3 * sp->i], *vi = &s->v[3 * sp->i];
    int anchored = sp->anchored && fault != ANCHOR_LOST;
    size_t j = sp->anchored ? 0 : sp->j;            /* node 0: what a lost mark would read */
    double c = fault == DASHPOT_LOST ? 0.0 : sp->c;
    double d[3], dv[3];
    for (int a = 0; a < 3; a++) {
        d[a] = anchored ? sp->anchor[a] - xi[a] : s->x[3 * j + a] - xi[a];
        dv[a] = anchored ? -vi[a] : s->v[3 * j + a] - vi[a];
    }
    if (sp->rest == 0.0 && c == 0.0) {
        for (int a = 0; a < 3; a++)
            F[a] = d[a] * sp->k;
        return;
    }
    double l = d[0] * d[0];
    l = l + d[1] * d[1];
    l = l + d[2] * d[2];
    l = sqrt(l);
    double n[3] = { d[0] / l, d[1] / l, d[2] / l };
    double m = (l - sp->rest) * sp->k;
    if (c != 0.0) {
        double dvn = dv[0] * n[0];
        dvn = dvn + dv[1] * n[1];
        dvn = dvn + dv[2] * n[2];
        m = m + dvn * c;
    }
    for (int a = 0; a < 3; a++)
        F[a] = n[a] * m;
}

/* f of the set from the written-out forces, summed in list order onto +0 */
static void written_forces(const mb_spring *sp, size_t count, const mb_nodes *s,
                           enum fault fault, double *f)
{
    memset(f, 0, 3 * s->n * sizeof *f);
    for (size_t m = 0; m < count; m++) {
        double F[3];
        written_force(&sp[m], s, fault, F);
        int anchored = sp[m].anchored && fault != ANCHOR_LOST;
        size_t j = sp[m].anchored ? 0 : sp[m].j;
        for (int a = 0; a < 3; a++) {
            f[3 * sp[m].i + a] = f[3 * sp[m].i + a] + F[a];
            if (!anchored)
                f[3 * j + a] = f[3 * j + a] - F[a];
        }
    }
}

/* number of values of a and b that differ in their bits */
static size_t bits_differ(const double *a, const double *b, size_t count)
{
    size_t differ = 0;
    for (size_t k = 0; k < count; k++)
        differ += memcmp(&a[k], &b[k], sizeof a[k]) != 0;
    return differ;
}

Test(springs_records, every_kind_of_spring_acts_as_its_record_says_in_each_pass)
{
    mb_system *sys = records_system(N1);
    add_springs(sys, set1, NS1);
    mb_nodes *s = sys->nodes;
    double want[3 * N1], fault[3 * N1];
    written_forces(set1, NS1, s, NONE, want);

    cr_assert_eq(mb_forces_eval(sys->forces, s, 0.0), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(bits_differ(s->f, want, 3 * N1), 0, "evaluation: forces differ from the written-out ones");

    mb_jacobian *J = mb_jacobian_alloc(N1, 53);
    cr_assert_not_null(J);
    memset(s->f, 0xff, 3 * N1 * sizeof *s->f);     /* NaN: the pass must write every force */
    cr_assert_eq(mb_forces_eval_jacobian(sys->forces, s, 0.0, J), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(bits_differ(s->f, want, 3 * N1), 0, "forces and blocks: forces differ");
    cr_expect_eq(J->count, 4 * 3 + 2, "blocks: %zu, want 4 for each of 3 springs between nodes "
                 "and 1 for each of 2 to an anchor", J->count);
    int found = 0;                                  /* the anchored linear spring: -k I */
    for (size_t b = 0; b < J->count; b++) {
        if (J->row[b] != 4 || J->col[b] != 4)
            continue;
        double want_block[9];
        for (int q = 0; q < 9; q++)
            want_block[q] = q % 4 == 0 ? -set1[3].k : -0.0;
        if (bits_differ(&J->dfdx[9 * b], want_block, 9) == 0)
            found = 1;
    }
    cr_expect(found, "no block (4, 4) equal to -k I of the spring to an anchor");

    /* controls: the same data under each fault give other forces */
    written_forces(set1, NS1, s, ANCHOR_LOST, fault);
    cr_expect_gt(bits_differ(s->f, fault, 3 * N1), 0, "control: a lost anchor's mark not seen");
    written_forces(set1, NS1, s, DASHPOT_LOST, fault);
    cr_expect_gt(bits_differ(s->f, fault, 3 * N1), 0, "control: a lost dashpot not seen");
    mb_jacobian_free(J);
    mb_system_free(sys);
}

/* r = R(q) A, R the rotation matrix of the unit quaternion q = (w, x, y, z) */
static void rotation_matrix_apply(const double *q, const double A[3], double r[3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double R[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) };
    for (int a = 0; a < 3; a++)
        r[a] = R[3 * a] * A[0] + R[3 * a + 1] * A[1] + R[3 * a + 2] * A[2];
}

static void cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The force on node i and the arms r_i, r_j of a spring between nodes with arms (or with
 * the arms ignored): d and dv between the attachment points, F = [k (l - L) + c dv.n] n. */
static void written_arm_force(const mb_spring *sp, const mb_nodes *s, int use_arms, double F[3],
                              double ri[3], double rj[3])
{
    double d[3], dv[3], wri[3], wrj[3];
    rotation_matrix_apply(&s->q[4 * sp->i], sp->arm_i, ri);
    rotation_matrix_apply(&s->q[4 * sp->j], sp->arm_j, rj);
    cross(&s->omega[3 * sp->i], ri, wri);
    cross(&s->omega[3 * sp->j], rj, wrj);
    for (int a = 0; a < 3; a++) {
        double u = use_arms ? 1.0 : 0.0;
        d[a] = (s->x[3 * sp->j + a] + u * rj[a]) - (s->x[3 * sp->i + a] + u * ri[a]);
        dv[a] = (s->v[3 * sp->j + a] + u * wrj[a]) - (s->v[3 * sp->i + a] + u * wri[a]);
    }
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), dvn = 0.0;
    for (int a = 0; a < 3; a++)
        dvn += dv[a] * d[a] / l;
    double m = sp->k * (l - sp->rest) + sp->c * dvn;
    for (int a = 0; a < 3; a++)
        F[a] = m * d[a] / l;
}

/* largest |a_k - b_k| over count values */
static double largest_gap(const double *a, const double *b, size_t count)
{
    double g = 0.0;
    for (size_t k = 0; k < count; k++)
        g = fmax(g, fabs(a[k] - b[k]));
    return g;
}

/* Only the second spring has arms: the pass must read its arms' mark (and not the
 * first's) and take its geometry between the attachment points, its torques r x F. */
Test(springs_records, the_arms_of_the_springs_that_have_them_and_no_others)
{
    mb_system *sys = records_system(N2);
    mb_nodes *s = sys->nodes;
    const double q[N2][4] = { { 1, 0, 0, 0 }, { 0.8, 0.36, -0.48, 0.0 }, { 0.6, 0.0, 0.48, 0.64 } };
    for (size_t i = 0; i < N2; i++) {
        memcpy(&s->q[4 * i], q[i], sizeof q[i]);
        for (int a = 0; a < 3; a++)
            s->omega[3 * i + a] = 0.7 - 0.45 * (double)((i + a) % 3);
    }
    const mb_spring sp[2] = {
        { .i = 0, .j = 1, .k = 9.1, .rest = 0.2, .c = 0.3 },
        { .i = 1, .j = 2, .k = 17.0, .rest = 0.3, .c = 0.09, .has_arms = 1,
          .arm_i = { 0.12, -0.05, 0.07 }, .arm_j = { -0.03, 0.08, 0.11 } },
    };
    add_springs(sys, sp, 2);
    cr_assert_eq(mb_forces_eval(sys->forces, s, 0.0), MB_SUCCESS, "%s", mb_last_error());

    double F0[3], F1[3], ri[3], rj[3], f[3 * N2] = { 0 }, tq[3 * N2] = { 0 }, t[3];
    written_force(&sp[0], s, NONE, F0);             /* no arms: as in the first test */
    written_arm_force(&sp[1], s, 1, F1, ri, rj);
    for (int a = 0; a < 3; a++) {
        f[a] += F0[a];
        f[3 + a] += F1[a] - F0[a];
        f[6 + a] -= F1[a];
    }
    cross(ri, F1, t);
    for (int a = 0; a < 3; a++)
        tq[3 + a] = t[a];
    cross(rj, F1, t);
    for (int a = 0; a < 3; a++)
        tq[6 + a] = -t[a];
    double fscale = fmax(fabs(F0[0]) + fabs(F0[1]) + fabs(F0[2]), fabs(F1[0]) + fabs(F1[1]) + fabs(F1[2]));
    double tscale = fscale * 0.2;                   /* |r| < 0.2 */
    double ftol = 64 * DBL_EPSILON * fscale, ttol = 64 * DBL_EPSILON * tscale;
    double fgap = largest_gap(s->f, f, 3 * N2), tgap = largest_gap(s->torque, tq, 3 * N2);
    cr_log_info("arms: forces within %.2f u, torques within %.2f u of their scales",
                fgap / (DBL_EPSILON * fscale), tgap / (DBL_EPSILON * tscale));
    cr_expect_leq(fgap, ftol, "forces %g from the written-out ones (tolerance %g)", fgap, ftol);
    cr_expect_leq(tgap, ttol, "torques %g from r x F (tolerance %g)", tgap, ttol);
    for (int a = 0; a < 3; a++)
        cr_expect_eq(s->torque[a], 0.0, "node 0 (no arm) has torque %g", s->torque[a]);

    /* control: the arms ignored give forces far outside the tolerance */
    double G1[3];
    written_arm_force(&sp[1], s, 0, G1, ri, rj);
    double cgap = largest_gap(F1, G1, 3);
    cr_expect_gt(cgap, 1e6 * ftol, "control: arms ignored differ by only %g", cgap);
    mb_system_free(sys);
}

/* The implicit assembly lets the field's first model set the forces (eval_keep_set: f is
 * not zeroed first): on stale values (NaN) it must write +0 + F on each spring's first
 * node i, +0 - F on its first node j, then add as before, and +0 on a node no spring has.
 * One linear spring with d = (0.37, -0, +0) (x_1 - x_0 per axis, -0 - +0 = -0): the
 * written-out sums are f_0 = (+0 + 0.37 k, +0 + -0, +0 + +0) = (0.37 k, +0, +0) and
 * f_1 = (-0.37 k, +0 - -0, +0 - +0) = (-0.37 k, +0, +0); node 2 has no spring.  Controls:
 * F written as it is on node 0 (f_0y = -0) and -F on node 1 (f_1z = -0) give other bits. */
Test(springs_records, the_assembly_sets_each_force_from_plus_zero)
{
    mb_system *sys = mb_system_alloc(3);
    cr_assert_not_null(sys);
    mb_nodes *s = sys->nodes;
    const double x[9] = { 0.0, 0.0, 0.5, 0.37, -0.0, 0.5, 1.0, 2.0, 3.0 };
    for (size_t i = 0; i < 3; i++)
        mb_nodes_set_mass(s, i, 1.5);
    memcpy(s->x, x, sizeof x);
    memset(s->v, 0, 9 * sizeof *s->v);
    const mb_spring sp = { .i = 0, .j = 1, .k = 21.9 };
    add_springs(sys, &sp, 1);
    mb_blocktri *T = mb_blocktri_alloc(3);
    mb_jacobian *J = mb_jacobian_alloc(3, 53);
    double b[9];
    cr_assert(T && J);
    for (size_t q = 0; q < 9; q++)
        s->f[q] = s->torque[q] = NAN;           /* stale values must be overwritten */
    mb_linsys_sink k = { 0 };
    mb_linsys_sink_begin(&k, s, 0.01, T, NULL, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.0, &k, J), MB_SUCCESS, "%s", mb_last_error());
    cr_assert(mb_linsys_sink_finish(&k));
    double F = 0.37 * sp.k;
    const double want[9] = { 0.0 + F, 0.0 + -0.0, 0.0 + 0.0, 0.0 - F, 0.0 - -0.0, 0.0 - 0.0,
                             0.0, 0.0, 0.0 };
    cr_expect_eq(bits_differ(s->f, want, 9), 0, "forces: (%g %g %g) (%g %g %g) (%g %g %g)",
                 s->f[0], s->f[1], s->f[2], s->f[3], s->f[4], s->f[5], s->f[6], s->f[7], s->f[8]);
    const double as_is[9] = { F, -0.0, 0.0, -F, 0.0, -0.0, 0.0, 0.0, 0.0 };   /* control */
    cr_expect_gt(bits_differ(s->f, as_is, 9), 0, "control: F and -F written as they are not seen");
    mb_linsys_sink_release(&k);
    mb_jacobian_free(J);
    mb_blocktri_free(T);
    mb_system_free(sys);
}
