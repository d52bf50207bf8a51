/* test_reference_problems.c -- every registered problem with a closed form, against the
 * MPFR reference integrating its force field (113 bits, estimate < 1e-25): the two come
 * from independent code (the problem's exact() and the generic first-order ODE of
 * mb_ref_rhs.h), so agreement checks both.  Tolerance 1e-14 (1 + |state|): the closed
 * forms are double evaluations (a few ulps; measured <= 8e-16), some with their own
 * quadratures (rk8pd at 1e-14 for the axial-torque top).
 *
 * Problems whose force field is not smooth (contacts) must be refused by the engine
 * (MB_EMAXITER or MB_EFAILED), never answered.  Problems flagged
 * MB_PROBLEM_SCHEME_DEPENDENT (cundall-oscillator: its damping is a scheme option, so the
 * force field's ODE is the undamped oscillator, not the problem), MB_PROBLEM_CONSTRAINED
 * (constraints only the solfec scheme enforces) or MB_PROBLEM_HISTORY (sliding-rolling: a
 * frictional law's contact history) must be refused too. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_problem.h"
#include "mb_reference.h"
#include "mb_status.h"
#include "mb_vec.h"

static double state_diff(const mb_nodes *a, const mb_nodes *b)
{
    double e = 0.0;
    for (size_t i = 0; i < a->n; i++) {
        for (int k = 0; k < 3; k++) {
            double s = 1.0 + fabs(b->x[3 * i + k]) + fabs(b->v[3 * i + k]) + fabs(b->omega[3 * i + k]);
            e = fmax(e, fabs(a->x[3 * i + k] - b->x[3 * i + k]) / s);
            e = fmax(e, fabs(a->v[3 * i + k] - b->v[3 * i + k]) / s);
            e = fmax(e, fabs(a->omega[3 * i + k] - b->omega[3 * i + k]) / s);
        }
        e = fmax(e, mb_q_angle_between(&a->q[4 * i], &b->q[4 * i]));
    }
    return e;
}

Test(reference_problems, closed_forms_agree_with_the_mpfr_reference)
{
    int compared = 0, refused = 0;
    for (const mb_problem_type *const *pp = mb_problems(); *pp; pp++) {
        const mb_problem_type *pt = *pp;
        if (pt->exact == NULL
            || (pt->flags & (MB_PROBLEM_SCHEME_DEPENDENT | MB_PROBLEM_CONSTRAINED
                             | MB_PROBLEM_HISTORY)))
            continue;
        const mb_problem_type *t2;
        mb_options *p;
        cr_assert_eq(mb_problem_prepare(pt->name, NULL, &t2, &p), MB_SUCCESS, "%s", mb_last_error());
        mb_system *sys;
        cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS, "%s: %s", pt->name, mb_last_error());
        double times[2] = { 0.137, 0.731 }, ea[2], em[2];
        mb_nodes *a[2], *m[2];
        for (int k = 0; k < 2; k++) {
            a[k] = mb_nodes_alloc(sys->nodes->n, 53);
            m[k] = mb_nodes_alloc(sys->nodes->n, 53);
            mb_nodes_copy(a[k], sys->nodes);
            mb_nodes_copy(m[k], sys->nodes);
        }
        mb_reference_request ra, rm;
        mb_reference_parse("analytic", &ra);
        mb_reference_parse("mpfr:113", &rm);
        mb_reference_kind used;
        cr_assert_eq(mb_reference_states(pt, p, &ra, 2, times, a, &used, ea), MB_SUCCESS);
        int st = mb_reference_states(pt, p, &rm, 2, times, m, &used, em);
        if (st == MB_EMAXITER || st == MB_EFAILED) {
            refused++;
            cr_log_info("%s: mpfr refused (%s)", pt->name, mb_last_error());
        } else {
            cr_expect_eq(st, MB_SUCCESS, "%s: %s", pt->name, mb_last_error());
            double worst = 0.0;
            for (int k = 0; k < 2 && st == MB_SUCCESS; k++) {
                double d = state_diff(a[k], m[k]);
                worst = fmax(worst, d);
                cr_expect(d < 1e-14 && em[k] < 1e-25, "%s t %g: closed form vs mpfr %g (estimate %g)",
                          pt->name, times[k], d, em[k]);
            }
            cr_log_info("%s: closed form vs mpfr:113 %.2e", pt->name, worst);
            compared++;
        }
        for (int k = 0; k < 2; k++) {
            mb_nodes_free(a[k]);
            mb_nodes_free(m[k]);
        }
        mb_system_free(sys);
        mb_options_free(p);
    }
    cr_expect(compared >= 1, "no problem compared");
    cr_log_info("%d problems compared, %d refused as non-smooth", compared, refused);
}

static void expect_force_field_references_refused(const char *name, const char *why);

Test(reference_problems, force_field_references_refused_where_they_do_not_apply)
{
    expect_force_field_references_refused("cundall-oscillator", "scheme option");
    expect_force_field_references_refused("pendulum-link", "constrained");
    expect_force_field_references_refused("bouncing-sphere", "constrained");
    expect_force_field_references_refused("sliding-rolling", "contact history");
}

static void expect_force_field_references_refused(const char *name, const char *why)
{
    const mb_problem_type *pt;
    mb_options *p;
    cr_assert_eq(mb_problem_prepare(name, NULL, &pt, &p), MB_SUCCESS);
    cr_assert(pt->flags
              & (MB_PROBLEM_SCHEME_DEPENDENT | MB_PROBLEM_CONSTRAINED | MB_PROBLEM_HISTORY));
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    mb_nodes *out = mb_nodes_alloc(sys->nodes->n, 53);
    mb_reference_request req;
    mb_reference_kind used;
    double err;
    const char *kinds[] = { "ode", "mpfr:113" };
    for (int k = 0; k < 2; k++) {
        mb_reference_parse(kinds[k], &req);
        cr_expect_eq(mb_reference_state(pt, p, &req, 0.5, out, &used, &err), MB_EUNSUP, "%s", kinds[k]);
        cr_expect(strstr(mb_last_error(), why) != NULL, "%s", mb_last_error());
    }
    mb_nodes_mpfr *m = NULL;
    cr_expect_eq(mb_reference_state_mpfr(pt, p, 0.5, 128, &m, &err), MB_EUNSUP, "%s: mpfr state", name);
    cr_expect_null(m);
    if (pt->exact) {
        mb_reference_parse("auto", &req);
        cr_expect_eq(mb_reference_state(pt, p, &req, 0.5, out, &used, &err), MB_SUCCESS);
        cr_expect_eq(used, MB_REF_ANALYTIC);
    } else {
        cr_expect(strstr(mb_last_error(), "no reference applies") != NULL, "%s", mb_last_error());
    }
    mb_nodes_free(out);
    mb_system_free(sys);
    mb_options_free(p);
}

/* The closed form's error estimate is honest about double evaluation: at t = 2.3 the
 * harmonic oscillator (w = 1, x0 = 1) is good to a few ulps, so the estimate is positive
 * and below 1e-14; at t = 1e300 one ulp of t is 2^944 ~ 1.5e284 rad of phase, so the
 * state is meaningless and the estimate must say so (of the order of the amplitude 1). */
Test(reference_problems, closed_form_estimate_reflects_double_evaluation)
{
    const mb_problem_type *pt;
    mb_options *params;
    cr_assert_eq(mb_problem_prepare("harmonic", NULL, &pt, &params), MB_SUCCESS);
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(params, &sys), MB_SUCCESS);
    mb_nodes *out = mb_nodes_alloc(sys->nodes->n, 53);
    cr_assert_eq(mb_nodes_copy(out, sys->nodes), MB_SUCCESS);
    mb_reference_request req = { .kind = MB_REF_ANALYTIC };
    mb_reference_kind used;
    double est = -1.0;
    cr_assert_eq(mb_reference_state(pt, params, &req, 2.3, out, &used, &est), MB_SUCCESS);
    cr_expect(est > 0.0 && est < 1e-14, "estimate %g at t = 2.3", est);
    cr_assert_eq(mb_reference_state(pt, params, &req, 1e300, out, &used, &est), MB_SUCCESS);
    cr_expect(est > 1e-3, "estimate %g at t = 1e300", est);
    mb_nodes_free(out);
    mb_system_free(sys);
    mb_options_free(params);
}

/* The ode or mpfr reference (kind) of problem name with the parameters "k=v" given. */
static int force_field_reference(const char *name, const char *const *pairs, const char *kind,
                                 double t)
{
    const mb_problem_type *pt;
    mb_options *given = mb_options_new(), *p;
    for (size_t k = 0; pairs[k]; k++)
        cr_assert_eq(mb_options_set_pair(given, pairs[k]), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_problem_prepare(name, given, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *out = mb_nodes_alloc(sys->nodes->n, 53);
    mb_reference_request req;
    mb_reference_kind used;
    double err;
    mb_reference_parse(kind, &req);
    int st = mb_reference_state(pt, p, &req, t, out, &used, &err);
    mb_nodes_free(out);
    mb_system_free(sys);
    mb_options_free(p);
    mb_options_free(given);
    return st;
}

/* A law frictional through a parameter keeps a history as surely as sliding-rolling's:
 * the granular problems with friction and the impacts with mu > 0 are refused the ode
 * and mpfr references, naming the history.  Control: the same problems without friction
 * are not refused for it (the tiny gas and the impact before its contact integrate). */
Test(reference_problems, frictional_parameters_refuse_force_field_references)
{
    const char *gas[] = { "spheres=8", "fraction=0.01", "friction=0.5", NULL };
    const char *column[] = { "spheres=8", "friction=0.5", NULL };
    const char *wall[] = { "mu=0.3", "tangential=0.5", NULL };
    const char *pair[] = { "mu=0.3", NULL };
    const struct { const char *name; const char *const *pairs; } c[] = {
        { "granular-gas", gas }, { "granular-column", column }, { "sphere-wall", wall },
        { "sphere-collision", pair },
    };
    const char *kinds[] = { "ode", "mpfr:113" };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
        for (int j = 0; j < 2; j++) {
            cr_expect_eq(force_field_reference(c[k].name, c[k].pairs, kinds[j], 1e-4), MB_EUNSUP,
                         "%s %s", c[k].name, kinds[j]);
            cr_expect(strstr(mb_last_error(), "contact history") != NULL, "%s %s: %s", c[k].name,
                      kinds[j], mb_last_error());
        }
    const char *gas0[] = { "spheres=8", "fraction=0.01", NULL };
    const char *wall0[] = { "tangential=0.5", NULL };
    cr_expect_eq(force_field_reference("granular-gas", gas0, "ode", 1e-4), MB_SUCCESS, "%s",
                 mb_last_error());
    cr_expect_eq(force_field_reference("sphere-wall", wall0, "ode", 1e-4), MB_SUCCESS, "%s",
                 mb_last_error());
}
