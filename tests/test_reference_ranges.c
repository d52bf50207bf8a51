/* test_reference_ranges.c -- every closed form over its documented parameter range, in one
 * process over the problem registry (the path of `motionbench reference --method analytic`:
 * parameters validated by mb_problem_prepare, the memory estimate, the problem built, its
 * closed form evaluated by mb_reference_state).
 *
 * For every registered problem with a closed form, and for every numeric parameter with a
 * documented range [lo, hi], the closed form is evaluated with that parameter at lo, at hi
 * and at two interior points (the others at their defaults), at t = 1.37 and 15; plus all
 * parameters at their defaults at t = 0, 1.37 and 15.  Each evaluation must either succeed
 * with a finite state (x, v, q, omega, L of every node) and a finite error estimate, or be
 * refused with a message (the command's exit 2); a non-finite number or a silent refusal
 * fails.  The defaults must succeed.
 *
 * One value is also checked against an independent formula: the strongly over-damped
 * oscillator (m = 1, k = 1, c = 100, x0 = 0.71, v0 = -0.4, t = 15), where the form
 * e^{-gt} cosh(...) overflows.  With r1,2 = -g +- sqrt(g^2 - k/m), g = c/2m,
 *   x(t) = [(v0 - r2 x0) e^{r1 t} - (v0 - r1 x0) e^{r2 t}] / (r1 - r2).
 * r1 = -g + sqrt(g^2 - 1) loses log10(g / r1) = 3.7 digits to cancellation in double, so
 * 1e-9 relative bounds the error of this evaluation with margin. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mb_memory.h"
#include "mb_problem.h"
#include "mb_reference.h"
#include "mb_status.h"

static int evaluations;

static int state_finite(const mb_nodes *s)
{
    for (size_t j = 0; j < 3 * s->n; j++)
        if (!isfinite(s->x[j]) || !isfinite(s->v[j]) || !isfinite(s->omega[j])
            || !isfinite(s->angmom[j]))
            return 0;
    for (size_t j = 0; j < 4 * s->n; j++)
        if (!isfinite(s->q[j]))
            return 0;
    return 1;
}

/* the command's memory estimate of the analytic reference for `nodes` nodes */
static int fits_in_memory(const mb_problem_type *pt, size_t nodes)
{
    mb_memory_estimate e;
    mb_memory_estimate_reference(nodes, MB_REF_ANALYTIC, 0, &e);
    return mb_memory_check(&e, 0.0, pt->name);
}

/* The problem with parameter `name` = value (name NULL: all defaults) built and its
 * closed form evaluated at t into out (allocated); returns the status. */
static int closed_form_at(const mb_problem_type *pt, const char *name, double value, double t,
                          mb_nodes **out, double *estimate)
{
    mb_options *set = mb_options_new(), *params = NULL;
    char text[64];
    snprintf(text, sizeof text, "%.17g", value);
    if (name)
        mb_options_set(set, name, text);
    const mb_problem_type *type;
    mb_system *sys = NULL;
    mb_reference_request req;
    mb_reference_kind used;
    mb_reference_parse("analytic", &req);
    int st = mb_problem_prepare(pt->name, set, &type, &params);
    if (st == MB_SUCCESS && pt->nodes)
        st = fits_in_memory(pt, pt->nodes(params));
    if (st == MB_SUCCESS)
        st = pt->setup(params, &sys);
    if (st == MB_SUCCESS && !pt->nodes)
        st = fits_in_memory(pt, sys->nodes->n);
    if (st == MB_SUCCESS) {
        *out = mb_nodes_alloc(sys->nodes->n, 53);
        mb_nodes_copy(*out, sys->nodes);
        st = mb_reference_state(pt, params, &req, t, *out, &used, estimate);
    }
    mb_system_free(sys);
    mb_options_free(params);
    mb_options_free(set);
    return st;
}

/* One evaluation: finite, or refused with a message.  Returns 1 when it succeeded. */
static int evaluate(const mb_problem_type *pt, const char *name, double value, double t)
{
    evaluations++;
    mb_clear_error();
    mb_nodes *out = NULL;
    double estimate = NAN;
    int st = closed_form_at(pt, name, value, t, &out, &estimate);
    if (st == MB_SUCCESS)
        cr_expect(state_finite(out) && isfinite(estimate), "%s %s=%.17g t=%g: success with a "
                  "non-finite number (estimate %g)", pt->name, name ? name : "defaults", value,
                  t, estimate);
    else
        cr_expect(mb_last_error()[0] != '\0', "%s %s=%.17g t=%g: refused (status %d) without "
                  "a message", pt->name, name ? name : "defaults", value, t, st);
    mb_nodes_free(out);
    return st == MB_SUCCESS;
}

/* lo, hi and two interior points: geometric for positive ranges (which span decades),
 * else linear */
static void range_points(double lo, double hi, double v[4])
{
    v[0] = lo;
    v[1] = hi;
    if (lo > 0) {
        v[2] = exp(log(lo) * 0.7 + log(hi) * 0.3);
        v[3] = exp(log(lo) * 0.3 + log(hi) * 0.7);
    } else {
        v[2] = lo + 0.3 * (hi - lo);
        v[3] = lo + 0.7 * (hi - lo);
    }
}

static void evaluate_ranges(const mb_problem_type *pt)
{
    static const double range_times[] = { 1.37, 15.0 };
    for (const mb_option_spec *s = pt->params; s && s->name; s++) {
        if ((s->kind != MB_OPT_DOUBLE && s->kind != MB_OPT_INT) || s->min > s->max)
            continue;
        double v[4];
        range_points(s->min, s->max, v);
        for (int k = 0; k < 4; k++)
            for (int j = 0; j < 2; j++)
                evaluate(pt, s->name, v[k], range_times[j]);
    }
}

Test(reference_ranges, every_closed_form_finite_or_refused_over_its_ranges, .timeout = 600)
{
    static const double default_times[] = { 0.0, 1.37, 15.0 };
    int problems = 0;
    for (const mb_problem_type *const *pp = mb_problems(); *pp; pp++) {
        const mb_problem_type *pt = *pp;
        if (pt->exact == NULL)
            continue;
        problems++;
        for (int j = 0; j < 3; j++)
            cr_expect(evaluate(pt, NULL, 0.0, default_times[j]), "%s at its defaults, t = %g: %s",
                      pt->name, default_times[j], mb_last_error());
        evaluate_ranges(pt);
    }
    cr_assert_gt(problems, 0, "no problem with a closed form is registered");
    cr_log_info("%d closed-form evaluations over %d problems", evaluations, problems);
}

/* A parameter outside its range is refused with a message naming it (the negative
 * control of the refusal path: `evaluate` accepts only refusals that say why). */
Test(reference_ranges, out_of_range_parameter_is_refused_with_its_name)
{
    const mb_problem_type *pt = NULL;
    for (const mb_problem_type *const *pp = mb_problems(); *pp && !pt; pp++)
        if (strcmp((*pp)->name, "damped") == 0)
            pt = *pp;
    cr_assert_not_null(pt);
    mb_nodes *out = NULL;
    double estimate;
    mb_clear_error();
    cr_expect_neq(closed_form_at(pt, "mass", -1.0, 1.0, &out, &estimate), MB_SUCCESS);
    cr_expect(strstr(mb_last_error(), "mass") != NULL, "%s", mb_last_error());
    mb_nodes_free(out);
}

Test(reference_ranges, over_damped_oscillator_against_an_independent_formula)
{
    const mb_problem_type *pt = NULL;
    for (const mb_problem_type *const *pp = mb_problems(); *pp && !pt; pp++)
        if (strcmp((*pp)->name, "damped") == 0)
            pt = *pp;
    cr_assert_not_null(pt);
    mb_options *set = mb_options_new(), *params = NULL;
    const char *pairs[] = { "mass=1", "k=1", "c=100", "x0=0.71", "v0=-0.4" };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        cr_assert_eq(mb_options_set_pair(set, pairs[k]), MB_SUCCESS);
    const mb_problem_type *type;
    cr_assert_eq(mb_problem_prepare("damped", set, &type, &params), MB_SUCCESS, "%s",
                 mb_last_error());
    mb_system *sys;
    cr_assert_eq(pt->setup(params, &sys), MB_SUCCESS);
    mb_nodes *out = mb_nodes_alloc(sys->nodes->n, 53);
    mb_nodes_copy(out, sys->nodes);
    mb_reference_request req;
    mb_reference_kind used;
    double estimate;
    mb_reference_parse("analytic", &req);
    cr_assert_eq(mb_reference_state(pt, params, &req, 15.0, out, &used, &estimate), MB_SUCCESS);
    const double g = 50.0, r1 = -g + sqrt(g * g - 1.0), r2 = -g - sqrt(g * g - 1.0);
    const double x0 = 0.71, v0 = -0.4, t = 15.0;
    const double e = ((v0 - r2 * x0) * exp(r1 * t) - (v0 - r1 * x0) * exp(r2 * t)) / (r1 - r2);
    const double x = out->x[0];
    cr_expect(fabs((x - e) / e) < 1e-9, "over-damped x(15) = %.17g, independent formula %.17g",
              x, e);
    mb_nodes_free(out);
    mb_system_free(sys);
    mb_options_free(params);
    mb_options_free(set);
}
