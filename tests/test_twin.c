/* test_twin.c -- same-scheme twins and the round-off / truncation split.
 *
 * (1) Bit-for-bit: at 53 bits with double's exponent range, the MPFR twin of explicit Euler
 *     reproduces the double run byte for byte over thousands of steps, on the harmonic
 *     problem and on a 3-D spring chain with rest lengths, a dashpot and gravity (sqrt and
 *     division in the force).  Negative control: a twin that divides by the mass where the
 *     double code multiplies by the inverse mass is caught by the same comparison.
 * (2) Transcendental calls: a rotation kernel using R_SIN/R_COS (libm vs correctly rounded
 *     MPFR) stays within N * 4 ulp after N steps (each step: sin, cos within 1 ulp of the
 *     correctly rounded value, a rotation does not amplify); a twin with a step perturbed
 *     by 1e-12 relative breaks that bound (negative control).
 * (3) mb_twin_run: on explicit Euler / harmonic the truncation equals the hand-derived
 *     discrete solution minus the exact one (the map (x, v/w) -> rho R(-theta) (x, v/w),
 *     rho = sqrt(1 + h^2 w^2), theta = atan(h w)); round-off is > 0 and tiny; at 53 bits it
 *     is exactly 0; a twin of a different scheme is flagged by a round-off of the size of a
 *     truncation error (negative control). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_mpfr_extra.h"
#include "mb_problem.h"
#include "mb_stepper.h"
#include "mb_twin.h"
#include "ref_test_types.h"

#define BASE_DOUBLE
#include "templates_on.h"
#include "twin_test_kernels.h"
#include "templates_off.h"
#undef BASE_DOUBLE
#define BASE_MPFR
#include "templates_on.h"
#include "twin_test_kernels.h"
#include "templates_off.h"
#undef BASE_MPFR

static const mb_stepper_type divide_euler_type = {
    .name = "divide-euler (test)", .order = 1, .flags = MB_STEPPER_NEGATIVE,
    .alloc = tk_alloc, .step = divide_euler_step, .free = tk_free,
    .alloc_mpfr = tk_mpfr_alloc, .step_mpfr = divide_euler_mpfr_step, .free_mpfr = tk_mpfr_free,
};
static const mb_stepper_type symplectic_twin_type = {
    .name = "symplectic-twin (test)", .order = 1, .flags = MB_STEPPER_NEGATIVE,
    .alloc = tk_alloc, .step = symplectic_twin_step, .free = tk_free,
    .alloc_mpfr = tk_mpfr_alloc, .step_mpfr = symplectic_twin_mpfr_step, .free_mpfr = tk_mpfr_free,
};

static mb_system *spring_chain(void)
{
    mb_system *sys = mb_system_alloc(3);
    const double g[3] = { 0.3, -0.2, -9.81 };
    const double x[9] = { 0.41, 0.13, -0.62, 1.23, -0.37, -1.1, 1.9, 0.52, -2.3 };
    const double v[9] = { 0.3, -0.7, 0.1, -0.2, 0.9, 0.4, 0.6, 0.2, -0.5 };
    const double m[3] = { 2.385, 1.31, 0.77 };
    for (int i = 0; i < 3; i++)
        mb_nodes_set_mass(sys->nodes, i, m[i]);
    memcpy(sys->nodes->x, x, sizeof x);
    memcpy(sys->nodes->v, v, sizeof v);
    void *sp = mb_springs_new();
    mb_spring s0 = { .i = 0, .anchored = 1, .anchor = { 0, 0, 0.5 }, .k = 7.31, .rest = 0.7 };
    mb_spring s1 = { .i = 0, .j = 1, .k = 5.2, .rest = 1.1, .c = 0.3 };
    mb_spring s2 = { .i = 1, .j = 2, .k = 3.9, .rest = 0.9 };
    mb_springs_add(sp, &s0);
    mb_springs_add(sp, &s1);
    mb_springs_add(sp, &s2);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g));
    return sys;
}

/* Number of doubles of x and v that differ from the 53-bit twin's, byte for byte. */
static size_t count_mismatches(const mb_nodes *d, const mb_nodes_mpfr *m)
{
    size_t bad = 0;
    for (size_t k = 0; k < 3 * d->n; k++) {
        double mx = mpfr_get_d(&m->x[k], MPFR_RNDN), mv = mpfr_get_d(&m->v[k], MPFR_RNDN);
        bad += memcmp(&mx, &d->x[k], sizeof mx) != 0;
        bad += memcmp(&mv, &d->v[k], sizeof mv) != 0;
    }
    return bad;
}

/* Run a scheme and its 53-bit twin side by side for n steps of h; mismatches at the end
 * (and the first step where any appeared). */
static size_t run_pair_53(mb_system *sys, const mb_stepper_type *type, int n, double h,
                          int *first_bad)
{
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 53);
    void *sd, *sm;
    mb_options *o = mb_options_new();
    cr_assert_eq(type->alloc(&sd, o, sys), MB_SUCCESS);
    cr_assert_eq(type->alloc_mpfr(&sm, o, tw), MB_SUCCESS);
    *first_bad = -1;
    size_t bad = 0;
    for (int k = 0; k < n; k++) {
        cr_assert_eq(type->step(sd, sys, h), MB_SUCCESS);
        cr_assert_eq(type->step_mpfr(sm, tw, h), MB_SUCCESS);
        bad = count_mismatches(sys->nodes, tw->nodes);
        if (bad && *first_bad < 0)
            *first_bad = k;
    }
    type->free(sd);
    type->free_mpfr(sm);
    mb_options_free(o);
    mb_system_mpfr_free(tw);
    mb_mpfr_restore_range(saved);
    return bad;
}

Test(twin, explicit_euler_bit_for_bit_harmonic)
{
    const mb_problem_type *pt = mb_problem_find("harmonic");
    mb_options *p = rt_harmonic_params(NULL);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    int first;
    size_t bad = run_pair_53(sys, mb_stepper_find("explicit-euler"), 5000, 0.00173, &first);
    cr_expect_eq(bad, 0, "%zu numbers differ, first at step %d", bad, first);
    cr_expect_eq(first, -1);
    mb_system_free(sys);
    mb_options_free(p);
}

Test(twin, explicit_euler_bit_for_bit_spring_chain)
{
    mb_system *sys = spring_chain();
    int first;
    size_t bad = run_pair_53(sys, mb_stepper_find("explicit-euler"), 4000, 0.00137, &first);
    cr_expect_eq(bad, 0, "%zu numbers differ, first at step %d", bad, first);
    cr_expect(fabs(sys->nodes->x[8]) > 0.1, "the chain moved");
    mb_system_free(sys);
}

Test(twin, different_operation_order_is_caught)
{
    mb_system *sys = spring_chain();
    int first;
    size_t bad = run_pair_53(sys, &divide_euler_type, 4000, 0.00137, &first);
    cr_expect(bad > 0 && first >= 0, "f/m vs f*(1/m) went unnoticed");
    mb_system_free(sys);
}

/* Rotation by R_SIN/R_COS: double (libm) vs MPFR at 53 bits. */
static double rotation_divergence(int n, double h, double twin_h_factor)
{
    const double w[3] = { 0.713, -2.385, 1.31 };
    double q[4] = { 0.9, 0.2, -0.3, 0.25 }, nq = sqrt(0.81 + 0.04 + 0.09 + 0.0625), td[12];
    for (int k = 0; k < 4; k++)
        q[k] /= nq;
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    __mpfr_struct qm[4], tm[12];
    for (int k = 0; k < 4; k++) {
        mpfr_init2(&qm[k], 53);
        mpfr_set_d(&qm[k], q[k], MPFR_RNDN);
    }
    for (int k = 0; k < 12; k++)
        mpfr_init2(&tm[k], 53);
    double worst = 0;
    for (int s = 0; s < n; s++) {
        rot_step(q, w, h, td);
        rot_mpfr_step(qm, w, h * twin_h_factor, tm);
        for (int k = 0; k < 4; k++)
            worst = fmax(worst, fabs(q[k] - mpfr_get_d(&qm[k], MPFR_RNDN)));
    }
    for (int k = 0; k < 4; k++)
        mpfr_clear(&qm[k]);
    for (int k = 0; k < 12; k++)
        mpfr_clear(&tm[k]);
    mb_mpfr_restore_range(saved);
    return worst;
}

Test(twin, transcendental_kernel_within_ulps_per_step)
{
    const int n = 3000;
    double bound = 4.0 * n * DBL_EPSILON / 2;      /* 4 ulp of a unit number per step */
    double d = rotation_divergence(n, 0.0137, 1.0);
    cr_expect(d <= bound, "libm vs MPFR rotation: %g after %d steps (bound %g)", d, n, bound);
    double bad = rotation_divergence(n, 0.0137, 1.0 + 1e-12);
    cr_expect(bad > bound, "negative control: a 1e-12 step perturbation gave only %g", bad);
}

static void check_euler_truncation(const mb_twin_result *r, double h)
{
    const double m = 2.385, k = 7.31, x0 = 0.413, v0 = -1.27, w = sqrt(k / m);
    /* rho^N = exp(N/2 log1p(h^2 w^2)): pow(sqrt(1 + h^2 w^2), N) would carry the rounding
     * of rho times N (5e-13 at N = 5000), log1p keeps the argument's relative accuracy */
    double l1 = log1p(h * h * w * w), th = atan(h * w);
    for (size_t c = 0; c < r->n; c++) {
        double N = (double)r->steps[c], t = r->t[c], g = exp(0.5 * N * l1);
        double xd = g * (x0 * cos(N * th) + v0 / w * sin(N * th));
        double vd = g * (-x0 * w * sin(N * th) + v0 * cos(N * th));
        double xe = x0 * cos(w * t) + v0 / w * sin(w * t), ve = -x0 * w * sin(w * t) + v0 * cos(w * t);
        double expect = fmax(fabs(xd - xe), fabs(vd - ve));
        /* both sides are double evaluations of O(1) closed forms: a few 1e-16 */
        cr_expect(fabs(r->truncation[MB_TWIN_STATE][c] - expect) < 1e-14, "step %lu: %.17g vs %.17g",
                  r->steps[c], r->truncation[MB_TWIN_STATE][c], expect);
        cr_expect(fabs(r->truncation[MB_TWIN_POSITION][c] - fabs(xd - xe)) < 1e-14);
    }
}

Test(twin, explicit_euler_split_against_hand_derived_solution)
{
    mb_options *p = rt_harmonic_params(NULL);
    const double h = 0.00173;
    mb_twin_request req = { .problem = mb_problem_find("harmonic"), .params = p,
                            .scheme = mb_stepper_find("explicit-euler"), .dt = h, .t_end = 8.65 };
    mb_reference_parse("auto", &req.reference);
    mb_twin_result r;
    cr_assert_eq(mb_twin_run(&req, &r), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(r.status, MB_SUCCESS);
    cr_expect(r.steps_requested == 5000 && r.steps_done == 5000 && r.n == 8 && r.steps[7] == 5000,
              "steps %lu/%lu, %zu checkpoints", r.steps_done, r.steps_requested, r.n);
    cr_expect(r.reference_used == MB_REF_ANALYTIC);
    check_euler_truncation(&r, h);
    /* round-off: nonzero, and below 1e-16 per step times the state scale ~1.6 */
    cr_expect(r.roundoff_max_abs > 0 && r.roundoff_max_abs < 5000 * 1.6e-16, "roundoff %g",
              r.roundoff_max_abs);
    /* global error of a first-order scheme grows ~linearly in the step count */
    cr_expect(fabs(r.truncation_growth - 1.0) < 0.1 && r.truncation_growth_points == 8,
              "truncation growth %g", r.truncation_growth);
    cr_expect(isfinite(r.roundoff_growth) && r.roundoff_growth_points >= 3);
    cr_expect(r.cpu_twin >= 0 && r.cpu_double >= 0);
    mb_twin_result_free(&r);

    /* at 53 bits the split has no round-off at all */
    req.bits = 53;
    cr_assert_eq(mb_twin_run(&req, &r), MB_SUCCESS);
    cr_expect(r.roundoff_max_abs == 0.0 && r.roundoff_growth_points == 0);
    check_euler_truncation(&r, h);
    mb_twin_result_free(&r);
    mb_options_free(p);
}

Test(twin, mpfr_reference_gives_the_same_truncation)
{
    mb_options *p = rt_harmonic_params(NULL);
    const unsigned long cps[3] = { 10, 400, 1000 };
    mb_twin_request req = { .problem = mb_problem_find("harmonic"), .params = p,
                            .scheme_spec = "explicit-euler", .dt = 0.01, .t_end = 10,
                            .n_checkpoints = 3, .checkpoints = cps };
    mb_reference_parse("mpfr", &req.reference);
    mb_twin_result r;
    cr_assert_eq(mb_twin_run(&req, &r), MB_SUCCESS, "%s", mb_last_error());
    cr_expect(r.reference_used == MB_REF_MPFR && r.n == 3 && r.steps[1] == 400);
    for (size_t c = 0; c < r.n; c++)
        cr_expect(r.reference_error[c] < 1e-60);
    check_euler_truncation(&r, 0.01);
    mb_twin_result_free(&r);
    mb_options_free(p);
}

Test(twin, twin_of_another_scheme_is_flagged)
{
    mb_options *p = rt_harmonic_params(NULL);
    mb_twin_request req = { .problem = mb_problem_find("harmonic"), .params = p,
                            .scheme = &symplectic_twin_type, .dt = 0.00173, .t_end = 8.65 };
    mb_twin_result r;
    cr_assert_eq(mb_twin_run(&req, &r), MB_SUCCESS);
    /* the "round-off" is the difference of two first-order schemes: O(h) ~ 1e-3, not 1e-13 */
    cr_expect(r.roundoff_max_abs > 1e-6, "roundoff %g", r.roundoff_max_abs);
    mb_twin_result_free(&r);
    mb_options_free(p);
}

/* Every registered scheme with a twin, on the harmonic problem: bit for bit at 53 bits
 * (no transcendental call on a non-rotating system), round-off < 1e-13 at 256 bits, and
 * the truncation halves as 2^order when dt halves (observed order within 0.1 of the
 * nominal one; negative-control schemes are exempt from the order check). */
Test(twin, every_registered_twin_on_harmonic)
{
    const mb_problem_type *pt = mb_problem_find("harmonic");
    int seen = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        if ((*t)->alloc_mpfr == NULL)
            continue;
        double tr[2];
        for (int h = 0; h < 2; h++) {
            mb_twin_request req = { .problem = pt, .scheme = *t, .dt = h ? 0.005 : 0.01, .t_end = 2.0 };
            mb_reference_parse("auto", &req.reference);
            mb_twin_result r;
            cr_assert_eq(mb_twin_run(&req, &r), MB_SUCCESS, "%s: %s", (*t)->name, mb_last_error());
            cr_expect_eq(r.status, MB_SUCCESS, "%s", (*t)->name);
            cr_expect(r.roundoff_max_abs < 1e-13, "%s: roundoff %g", (*t)->name, r.roundoff_max_abs);
            tr[h] = r.truncation_max_abs;
            mb_twin_result_free(&r);
            if (h == 0) {
                req.bits = 53;
                cr_assert_eq(mb_twin_run(&req, &r), MB_SUCCESS);
                cr_expect(r.roundoff_max_abs == 0.0, "%s: 53-bit twin differs from the double run by %g",
                          (*t)->name, r.roundoff_max_abs);
                mb_twin_result_free(&r);
            }
        }
        double order = log2(tr[0] / tr[1]);
        if (!((*t)->flags & MB_STEPPER_NEGATIVE))
            cr_expect(fabs(order - (*t)->order) < 0.1, "%s: observed order %.3f, nominal %d",
                      (*t)->name, order, (*t)->order);
        seen++;
    }
    cr_expect(seen >= 1);
}

Test(twin, bad_requests)
{
    mb_options *p = rt_harmonic_params(NULL);
    mb_twin_request req = { .problem = mb_problem_find("harmonic"), .params = p,
                            .scheme = mb_stepper_find("explicit-euler"), .dt = 0.01, .t_end = 1 };
    mb_twin_result r;
    req.dt = -1;
    cr_expect_eq(mb_twin_run(&req, &r), MB_EDOM);
    mb_twin_result_free(&r);
    req.dt = 0.01;
    req.bits = 20;
    cr_expect_eq(mb_twin_run(&req, &r), MB_EDOM);
    mb_twin_result_free(&r);
    req.bits = 0;
    const unsigned long cps[2] = { 50, 500 };
    req.checkpoints = cps;
    req.n_checkpoints = 2;
    cr_expect_eq(mb_twin_run(&req, &r), MB_EINVAL, "checkpoint beyond the run");
    mb_twin_result_free(&r);
    req.scheme = NULL;
    req.scheme_spec = "explicit-eulr";
    cr_expect_eq(mb_twin_run(&req, &r), MB_ENOTFOUND, "unknown spec");
    cr_expect(strstr(mb_last_error(), "did you mean 'explicit-euler'") != NULL, "%s", mb_last_error());
    mb_twin_result_free(&r);
    req.scheme_spec = "explicit-euler";
    cr_expect_eq(mb_twin_run(&req, &r), MB_EINVAL, "spec resolved, checkpoints still bad");
    mb_twin_result_free(&r);
    mb_stepper_type notwin = divide_euler_type;
    notwin.alloc_mpfr = NULL;
    req.checkpoints = NULL;
    req.scheme = &notwin;
    cr_expect_eq(mb_twin_run(&req, &r), MB_EUNSUP);
    mb_twin_result_free(&r);
    mb_options_free(p);
}
