/* test_eval_jacobian.c -- the one-pass force-and-Jacobian evaluation
 * (mb_forces_eval_jacobian) against the two passes it replaces (mb_forces_eval, then
 * mb_forces_jacobian), in double and in MPFR at 53 and 113 bits.
 *
 * Expected values: the two-pass results themselves.  The one-pass path promises the same
 * operations in the same order, so forces, torques and every block must be equal bit for
 * bit (memcmp in double, equal value and sign in MPFR) -- no tolerance.  The systems
 * cover every branch of the spring model (linear L = c = 0, rest length, dashpot,
 * anchored, arms on rotated spinning bodies), models without a one-pass callback (gravity,
 * drag) mixed in, and the chain and cloth of the benchmarks. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_status.h"
#include "mb_system.h"
#include "test_helpers.h"

#define NN 6

/* Six spinning, rotated bodies joined by springs of every kind, plus gravity and drag. */
static mb_system *mixed_system(void)
{
    mb_system *sys = mb_system_alloc(NN);
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < NN; i++) {
        mb_nodes_set_mass(s, i, 0.41 + 0.37 * (double)i);
        double qn = 0.0;
        for (int a = 0; a < 3; a++) {
            s->x[3 * i + a] = 0.9 * (double)i * (a == 0) + 0.31 * sin(2.3 * (double)(3 * i + a) + 1.0);
            s->v[3 * i + a] = 0.83 * cos(1.7 * (double)(3 * i + a) + 0.4);
            s->omega[3 * i + a] = 1.1 * sin(0.7 * (double)(3 * i + a));
        }
        for (int c = 0; c < 4; c++) {
            s->q[4 * i + c] = 1.0 + 0.4 * cos(1.3 * (double)(4 * i + c));
            qn += s->q[4 * i + c] * s->q[4 * i + c];
        }
        for (int c = 0; c < 4; c++)
            s->q[4 * i + c] /= sqrt(qn);
    }
    void *sp = mb_springs_new();
    const mb_spring items[] = {
        { .i = 0, .j = 1, .k = 31.0 },                                  /* linear */
        { .i = 1, .j = 2, .k = 17.0, .rest = 0.7 },                     /* rest length */
        { .i = 2, .j = 3, .k = 23.0, .rest = 0.8, .c = 0.37 },          /* and dashpot */
        { .i = 3, .j = 4, .k = 11.0, .c = 0.21 },                       /* dashpot, L = 0 */
        { .i = 4, .anchored = 1, .anchor = { 0.3, -0.2, 0.9 }, .k = 7.0, .rest = 0.5, .c = 0.1 },
        { .i = 4, .j = 5, .k = 13.0, .rest = 0.6, .c = 0.05, .has_arms = 1,
          .arm_i = { 0.1, -0.05, 0.02 }, .arm_j = { -0.03, 0.08, 0.04 } },
        { .i = 0, .j = 5, .k = 5.0, .rest = 2.0, .c = 0.02 },           /* beyond neighbours */
    };
    for (size_t m = 0; m < sizeof items / sizeof items[0]; m++)
        cr_assert_eq(mb_springs_add(sp, &items[m]), MB_SUCCESS, "%s", mb_last_error());
    const double g[3] = { 0.0, -9.81, 0.3 };
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(0.13)), MB_SUCCESS);
    return sys;
}

static void expect_same_double(mb_system *sys, const char *what)
{
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    mb_jacobian *J1 = mb_jacobian_alloc(s->n, 53), *J2 = mb_jacobian_alloc(s->n, 53);
    double *f1 = malloc(n3 * sizeof(double)), *t1 = malloc(n3 * sizeof(double));
    cr_assert(J1 && J2 && f1 && t1);
    mb_forces_counts c0 = mb_forces_get_counts(sys->forces);
    cr_assert_eq(mb_forces_eval(sys->forces, s, 0.25), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_forces_jacobian(sys->forces, s, J1), MB_SUCCESS, "%s", mb_last_error());
    mb_forces_counts c1 = mb_forces_get_counts(sys->forces);
    memcpy(f1, s->f, n3 * sizeof(double));
    memcpy(t1, s->torque, n3 * sizeof(double));
    for (size_t k = 0; k < n3; k++)               /* stale values must be overwritten */
        s->f[k] = s->torque[k] = NAN;
    cr_assert_eq(mb_forces_eval_jacobian(sys->forces, s, 0.25, J2), MB_SUCCESS, "%s",
                 mb_last_error());
    mb_forces_counts c2 = mb_forces_get_counts(sys->forces);
    cr_expect(c2.evaluations - c1.evaluations == c1.evaluations - c0.evaluations
              && c2.jacobians - c1.jacobians == c1.jacobians - c0.jacobians,
              "%s: the one pass must count as one evaluation and one Jacobian", what);
    cr_expect(memcmp(f1, s->f, n3 * sizeof(double)) == 0, "%s: forces differ", what);
    cr_expect(memcmp(t1, s->torque, n3 * sizeof(double)) == 0, "%s: torques differ", what);
    cr_assert_eq(J1->count, J2->count, "%s: %zu blocks vs %zu", what, J1->count, J2->count);
    cr_expect(J1->count > 0, "%s: no blocks", what);
    cr_expect(memcmp(J1->row, J2->row, J1->count * sizeof(size_t)) == 0
              && memcmp(J1->col, J2->col, J1->count * sizeof(size_t)) == 0,
              "%s: block positions differ", what);
    cr_expect(memcmp(J1->dfdx, J2->dfdx, 9 * J1->count * sizeof(double)) == 0,
              "%s: df/dx differs", what);
    cr_expect(memcmp(J1->dfdv, J2->dfdv, 9 * J1->count * sizeof(double)) == 0,
              "%s: df/dv differs", what);
    free(f1);
    free(t1);
    mb_jacobian_free(J1);
    mb_jacobian_free(J2);
}

static int same_mpfr(mpfr_srcptr a, mpfr_srcptr b)
{
    return mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b);
}

static void expect_same_mpfr(const mb_system *sys, mpfr_prec_t prec, const char *what)
{
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, prec);
    cr_assert_not_null(tw, "%s", mb_last_error());
    mb_nodes_mpfr *s = tw->nodes;
    size_t n3 = 3 * s->n;
    mb_jacobian_mpfr *J1 = mb_jacobian_mpfr_alloc(s->n, prec), *J2 = mb_jacobian_mpfr_alloc(s->n, prec);
    mpfr_ptr f1 = malloc(2 * n3 * sizeof *f1);
    cr_assert(J1 && J2 && f1);
    for (size_t k = 0; k < 2 * n3; k++)
        mpfr_init2(&f1[k], prec);
    cr_assert_eq(mb_forces_mpfr_eval(tw->forces, s, 0.25), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_forces_mpfr_jacobian(tw->forces, s, J1), MB_SUCCESS, "%s", mb_last_error());
    for (size_t k = 0; k < n3; k++) {
        mpfr_set(&f1[k], &s->f[k], MPFR_RNDN);
        mpfr_set(&f1[n3 + k], &s->torque[k], MPFR_RNDN);
        mpfr_set_nan(&s->f[k]);
        mpfr_set_nan(&s->torque[k]);
    }
    cr_assert_eq(mb_forces_mpfr_eval_jacobian(tw->forces, s, 0.25, J2), MB_SUCCESS, "%s",
                 mb_last_error());
    int same = 1;
    for (size_t k = 0; k < n3; k++)
        same &= same_mpfr(&f1[k], &s->f[k]) && same_mpfr(&f1[n3 + k], &s->torque[k]);
    cr_expect(same, "%s at %ld bits: forces or torques differ", what, (long)prec);
    cr_assert_eq(J1->count, J2->count);
    same = memcmp(J1->row, J2->row, J1->count * sizeof(size_t)) == 0
           && memcmp(J1->col, J2->col, J1->count * sizeof(size_t)) == 0;
    for (size_t k = 0; k < 9 * J1->count; k++)
        same &= same_mpfr(&J1->dfdx[k], &J2->dfdx[k]) && same_mpfr(&J1->dfdv[k], &J2->dfdv[k]);
    cr_expect(same, "%s at %ld bits: blocks differ", what, (long)prec);
    for (size_t k = 0; k < 2 * n3; k++)
        mpfr_clear(&f1[k]);
    free(f1);
    mb_jacobian_mpfr_free(J1);
    mb_jacobian_mpfr_free(J2);
    mb_system_mpfr_free(tw);
}

Test(eval_jacobian, every_spring_kind_matches_two_passes_bit_for_bit)
{
    mb_system *sys = mixed_system();
    expect_same_double(sys, "mixed");
    expect_same_mpfr(sys, 53, "mixed");
    expect_same_mpfr(sys, 113, "mixed");
    mb_system_free(sys);
}

Test(eval_jacobian, chain_and_cloth_match_two_passes_bit_for_bit)
{
    mb_system *chain = th_problem("spring-chain", (const char *const[]){ "n=40", "D=0.03", NULL });
    mb_system *cloth = th_problem("cloth", (const char *const[]){ "nx=7", "ny=5", NULL });
    for (size_t k = 0; k < 3 * chain->nodes->n; k++) {   /* off the straight line, moving */
        chain->nodes->x[k] += 0.011 * sin(1.9 * (double)k);
        chain->nodes->v[k] = 0.3 * cos(0.8 * (double)k);
    }
    for (size_t k = 0; k < 3 * cloth->nodes->n; k++)
        cloth->nodes->v[k] = 0.2 * sin(1.1 * (double)k);
    expect_same_double(chain, "chain");
    expect_same_double(cloth, "cloth");
    expect_same_mpfr(chain, 53, "chain");
    mb_system_free(chain);
    mb_system_free(cloth);
}

/* A zero-length spring with a rest length has no direction: the one pass reports it as
 * the two passes do. */
Test(eval_jacobian, zero_length_spring_is_reported)
{
    const double x[3] = { 0.0, 0.0, 0.0 }, v[3] = { 0.1, 0.0, 0.0 };
    mb_system *sys = th_particle(1.0, x, v, 0.0, 0.0, NULL);
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .anchored = 1, .k = 1.0, .rest = 1.0 };
    mb_springs_add(sp, &s);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    mb_jacobian *J = mb_jacobian_alloc(1, 53);
    cr_expect_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_EDOM);
    cr_expect_eq(mb_forces_eval_jacobian(sys->forces, sys->nodes, 0.0, J), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "zero length") != NULL, "%s", mb_last_error());
    mb_jacobian_free(J);
    mb_system_free(sys);
}
