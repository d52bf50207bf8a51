/* test_implicit_euler_newton.c -- Newton backward Euler on a nonlinear spring.
 *
 * The system: two particles, joined by a spring with rest length and dashpot, the second
 * also tied to an anchor by another one, moving in 3-D, so f(x, v) = [k (l - L) +
 * c (dv.n)] n is nonlinear in x and v.  Backward Euler asks for w = v+ with
 * R(w) = M (w - v) - h f(x + h w, w) = 0.  (A single particle on one anchored spring is
 * a poor test: from w = v the first Newton step lands on the root to round-off there.)
 *
 * Quadratic convergence: Newton's error obeys e_{j+1} <= C e_j^2, so lowering the
 * stopping tolerance from 1e-4 to 1e-12 (8 more digits) costs at most 2 more iterations
 * (4 -> 8 -> 16 digits); a linearly convergent iteration with rate rho needs
 * 8 / log10(1/rho) more -- about 25 for the fixed-point iteration below (rho ~ 0.5).
 * That fixed-point (Picard) iteration w <- v + h M^-1 f(x + h w, w) is the negative
 * control: it converges to the same root, but the quadratic-convergence check fails. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_linsolve.h"
#include "mb_mpfr_extra.h"
#include "test_helpers.h"

static const double MASS[2] = { 0.37, 0.59 }, H = 0.05;

static mb_system *nonlinear_spring(void)
{
    mb_system *sys = mb_system_alloc(2);
    mb_nodes_set_mass(sys->nodes, 0, MASS[0]);
    mb_nodes_set_mass(sys->nodes, 1, MASS[1]);
    const double x[6] = { 0.0, 0.0, 0.0, 1.21, 0.34, -0.057 };
    const double v[6] = { 0.3, -0.7, 0.2, -0.5, 1.9, 0.3 };
    memcpy(sys->nodes->x, x, sizeof x);
    memcpy(sys->nodes->v, v, sizeof v);
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .j = 1, .k = 57.1, .rest = 0.83, .c = 0.29 };
    mb_spring a = { .i = 1, .anchored = 1, .anchor = { 2.1, 0.9, 0.4 }, .k = 31.3, .rest = 0.77,
                    .c = 0.29 };
    mb_springs_add(sp, &s);
    mb_springs_add(sp, &a);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    return sys;
}

static unsigned long newton_iterations(double tol)
{
    mb_system *sys = nonlinear_spring();
    char spec[128];
    snprintf(spec, sizeof spec, "implicit-euler-newton[tol=%g,max_iter=50]", tol);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_stats s;
    mb_stepper_get_stats(st, &s);
    mb_stepper_free(st);
    mb_system_free(sys);
    return s.newton_iterations;
}

/* Negative control: Picard iteration with the same stopping test as the scheme. */
static unsigned long picard_iterations(double tol)
{
    mb_system *sys = nonlinear_spring();
    mb_nodes *trial = mb_nodes_alloc(2, 53);
    mb_nodes_copy(trial, sys->nodes);
    double w[6], v[6];
    memcpy(v, sys->nodes->v, sizeof v);
    memcpy(w, v, sizeof w);
    unsigned long it = 0;
    for (int done = 0; !done && it < 1000; it++) {
        for (int a = 0; a < 6; a++) {
            trial->x[a] = sys->nodes->x[a] + H * w[a];
            trial->v[a] = w[a];
        }
        mb_forces_eval(sys->forces, trial, H);
        double dmax = 0.0, wmax = 0.0;
        for (int a = 0; a < 6; a++) {
            double wn = v[a] + H / MASS[a / 3] * trial->f[a];
            dmax = fmax(dmax, fabs(wn - w[a]));
            w[a] = wn;
            wmax = fmax(wmax, fabs(w[a]));
        }
        done = dmax <= tol * fmax(1.0, wmax);
    }
    mb_nodes_free(trial);
    mb_system_free(sys);
    return it;
}

Test(implicit_euler_newton, converges_quadratically)
{
    unsigned long n4 = newton_iterations(1e-4), n8 = newton_iterations(1e-8);
    unsigned long n12 = newton_iterations(1e-12);
    fprintf(stderr, "Newton iterations for tol 1e-4, 1e-8, 1e-12: %lu, %lu, %lu\n", n4, n8, n12);
    cr_expect(n4 <= n8 && n8 <= n12, "counts not monotone: %lu %lu %lu", n4, n8, n12);
    cr_expect(n12 - n4 <= 2, "8 more digits cost %lu iterations (> 2): not quadratic", n12 - n4);
    cr_expect(n12 <= 7, "Newton needed %lu iterations", n12);
    unsigned long p4 = picard_iterations(1e-4), p12 = picard_iterations(1e-12);
    fprintf(stderr, "Picard iterations for tol 1e-4, 1e-12: %lu, %lu\n", p4, p12);
    cr_expect(p12 - p4 > 2, "negative control: the linearly convergent iteration passed");
}

/* |R(v+)| after a converged step, from the library's force field on a copy of the state. */
static double residual_after_step(const char *spec, double *scale)
{
    mb_system *sys = nonlinear_spring();
    double v0[6];
    memcpy(v0, sys->nodes->v, sizeof v0);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS, "%s", mb_last_error());
    mb_forces_eval(sys->forces, sys->nodes, H);
    double r = 0.0;
    *scale = 0.0;
    for (int a = 0; a < 6; a++) {
        double ra = MASS[a / 3] * (sys->nodes->v[a] - v0[a]) - H * sys->nodes->f[a];
        r = fmax(r, fabs(ra));
        *scale = fmax(*scale, fmax(fabs(MASS[a / 3] * v0[a]), fabs(H * sys->nodes->f[a])));
    }
    mb_stepper_free(st);
    mb_system_free(sys);
    return r;
}

/* The converged step satisfies the nonlinear backward-Euler equations to tol (1e-13
 * here, times the size of the terms, plus round-off); the once-linearised scheme does not
 * (negative control: its residual is O(h^2 |x+ - x|^2 f'') ~ 1e-3 here). */
Test(implicit_euler_newton, satisfies_backward_euler_equations)
{
    double scale, scale_lin;
    double r = residual_after_step("implicit-euler-newton[tol=1e-13]", &scale);
    double r_lin = residual_after_step("implicit-euler", &scale_lin);
    cr_expect(r <= 1e-12 * scale, "Newton residual %g (scale %g)", r, scale);
    cr_expect(r_lin > 1e3 * 1e-12 * scale_lin, "linearised residual %g unexpectedly small", r_lin);
}

/* For forces linear in (x, v) the first Newton iterate is the linearised step, so both
 * schemes agree to the Newton tolerance. */
Test(implicit_euler_newton, equals_implicit_euler_on_linear_forces)
{
    const char *pairs[] = { "c=0.83", NULL };
    mb_system *a = th_problem("damped", pairs), *b = th_problem("damped", pairs);
    mb_stepper *sa = mb_stepper_alloc("implicit-euler", a);
    mb_stepper *sb = mb_stepper_alloc("implicit-euler-newton[tol=1e-14]", b);
    for (int n = 0; n < 200; n++) {
        cr_assert_eq(mb_stepper_step(sa, a, 0.0377), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step(sb, b, 0.0377), MB_SUCCESS);
    }
    cr_expect(fabs(a->nodes->x[0] - b->nodes->x[0]) <= 1e-13, "x %.17g vs %.17g",
              a->nodes->x[0], b->nodes->x[0]);
    cr_expect(fabs(a->nodes->v[0] - b->nodes->v[0]) <= 1e-13);
    mb_stepper_stats s;
    mb_stepper_get_stats(sb, &s);
    cr_expect(s.max_newton_iterations <= 2, "linear problem took %lu iterations", s.max_newton_iterations);
    mb_stepper_free(sa);
    mb_stepper_free(sb);
    mb_system_free(a);
    mb_system_free(b);
}

Test(implicit_euler_newton, max_iter_reached_leaves_state_untouched)
{
    mb_system *sys = nonlinear_spring();
    double x[6], v[6];
    memcpy(x, sys->nodes->x, sizeof x);
    memcpy(v, sys->nodes->v, sizeof v);
    mb_stepper *st = mb_stepper_alloc("implicit-euler-newton[tol=1e-15,max_iter=2]", sys);
    int rc = mb_stepper_step(st, sys, H);
    cr_expect_eq(rc, MB_EMAXITER, "got %d: %s", rc, mb_last_error());
    cr_expect(strstr(mb_last_error(), "max_iter") != NULL, "message: %s", mb_last_error());
    cr_expect(memcmp(sys->nodes->x, x, sizeof x) == 0 && memcmp(sys->nodes->v, v, sizeof v) == 0);
    cr_expect_eq(sys->t, 0.0);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(implicit_euler_newton, mpfr53_twin_bit_identical_on_decoupled_system)
{
    mb_system *sys = th_problem("harmonic", (const char *const[]){ "k=3.17", "v0=0.41", NULL });
    mb_nodes_free(th_expect_twin53_identical(sys, "implicit-euler-newton[solver=dense]",
                                             "implicit-euler-newton", 0.031, 200));
}

/* One step on f = m g - k x - D v against the seed's scalar formula
 * (1 + hD/m + h^2 k/m) v+ = v + h g - (h/m) k x: Newton converges to it (linear forces),
 * to the round-off of a few operations (16 u of the largest term). */
Test(implicit_euler_newton, one_step_matches_seed_scalar_formula)
{
    const double m = 0.739, k = 13.7, D = 0.291, h = 0.0431;
    const double x[3] = { 0.317, -0.122, 0.0571 }, v[3] = { -0.443, 0.271, 0.913 };
    const double g[3] = { 0.0, -9.81, 0.0 };
    mb_system *sys = th_particle(m, x, v, k, D, g);
    mb_stepper *st = mb_stepper_alloc("implicit-euler-newton[tol=1e-15]", sys);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    for (int a = 0; a < 3; a++) {
        double ref = (v[a] + h * g[a] - h / m * k * x[a]) / (1.0 + h * D / m + h * h * k / m);
        double scale = fabs(v[a]) + fabs(h * g[a]) + fabs(h / m * k * x[a]) + fabs(ref);
        cr_expect(fabs(sys->nodes->v[a] - ref) <= 16 * DBL_EPSILON / 2 * scale,
                  "axis %d: %.17g vs %.17g", a, sys->nodes->v[a], ref);
    }
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* Largest |R_k(v+)| / scale_k of the last step, R_k = m (v+_k - v_k) - h f_k(x+, v+) over
 * the free degrees of freedom (mb_linsys_fixed: pinned ones keep v), from the library's
 * force field evaluated on a copy of the state after the step.  scale_k is the largest
 * term, |m v_k|, |h f_k|, or the size of the rounding in h f_k: a spring's force is off by
 * a few u of its stiffness times the coordinates' size X (its length is computed from
 * them), so h X times the stiffness on the row (mb_forces_stiffness's row sum). */
static double residual_of_last_step(const mb_system *sys, const double *v0, double h)
{
    const mb_nodes *s = sys->nodes;
    mb_nodes *after = mb_nodes_alloc(s->n, 53);
    double *stiff = malloc(3 * s->n * sizeof *stiff);
    cr_assert(after != NULL && stiff != NULL);
    cr_assert_eq(mb_nodes_copy(after, s), MB_SUCCESS);
    cr_assert_eq(mb_forces_eval(sys->forces, after, sys->t), MB_SUCCESS, "%s", mb_last_error());
    mb_forces_stiffness(sys->forces, s, stiff);
    double X = 0.0, worst = 0.0;
    for (size_t k = 0; k < 3 * s->n; k++)
        X = fmax(X, fabs(s->x[k]));
    for (size_t k = 0; k < 3 * s->n; k++) {
        if (mb_linsys_fixed(s, k))
            continue;
        const double m = s->mass[k / 3];
        const double r = fabs(m * (s->v[k] - v0[k]) - h * after->f[k]);
        const double scale = fmax(fmax(fabs(m * v0[k]), fabs(h * after->f[k])), h * X * stiff[k]);
        worst = fmax(worst, r / scale);
    }
    free(stiff);
    mb_nodes_free(after);
    return worst;
}

/* Three steps of spec on a problem, each checked as satisfies_backward_euler_equations
 * checks the two-particle step; returns the largest residual relative to its scale. */
static double worst_relative_residual(const char *problem, const char *const *pairs,
                                      const char *spec, double h)
{
    mb_system *sys = th_problem(problem, pairs);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    double *v0 = malloc(3 * sys->nodes->n * sizeof *v0), worst = 0.0;
    cr_assert_not_null(v0);
    for (int n = 0; n < 3; n++) {
        memcpy(v0, sys->nodes->v, 3 * sys->nodes->n * sizeof *v0);
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
        worst = fmax(worst, residual_of_last_step(sys, v0, h));
    }
    free(v0);
    mb_stepper_free(st);
    mb_system_free(sys);
    return worst;
}

/* Above 16 nodes the Newton matrix goes straight into the solver's own storage: the
 * block sweep's on a chain of 40, the CSR matrix of the Krylov solver on a 7 x 7 cloth.
 * The converged steps satisfy the nonlinear backward-Euler equations as the two-particle
 * one does (tol 1e-13, the same bound 1e-12 of the largest term, which here counts the
 * rounding of the spring forces; the Krylov solves stop at rtol 1e-12 of a right-hand
 * side that is itself the small residual of the iterate before).  Negative control: the
 * once-linearised scheme on the same systems. */
Test(implicit_euler_newton, satisfies_backward_euler_equations_in_the_solvers_storage)
{
    const char *chain[] = { "n=40", NULL }, *cloth[] = { "nx=7", "ny=7", NULL };
    const double h = 0.02;
    double r_chain = worst_relative_residual("spring-chain", chain,
                                             "implicit-euler-newton[tol=1e-13]", h);
    double r_cloth = worst_relative_residual("cloth", cloth,
                                             "implicit-euler-newton[tol=1e-13]", h);
    double l_chain = worst_relative_residual("spring-chain", chain, "implicit-euler", h);
    double l_cloth = worst_relative_residual("cloth", cloth, "implicit-euler", h);
    fprintf(stderr, "relative residuals: chain %g (linearised %g), cloth %g (linearised %g)\n",
            r_chain, l_chain, r_cloth, l_cloth);
    cr_expect(r_chain <= 1e-12, "chain: Newton residual %g of the largest term", r_chain);
    cr_expect(r_cloth <= 1e-12, "cloth: Newton residual %g of the largest term", r_cloth);
    cr_expect(l_chain > 1e-12 && l_cloth > 1e-12,
              "negative control: linearised residuals %g, %g unexpectedly small", l_chain, l_cloth);
}
