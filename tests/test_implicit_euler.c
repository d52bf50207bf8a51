/* test_implicit_euler.c -- linearised backward Euler against hand-derived closed forms
 * and independent solves.
 *
 * Tolerances: a one-particle step performs ~10 correctly rounded operations per
 * component, so 16 u times the size of the largest term bounds its error (u = 2^-53).
 * Multi-particle references are solved here with GSL's Householder solver
 * (gsl_linalg_HH_solve), a different algorithm from the scheme's LU and Krylov solvers;
 * A = M - hC - h^2 K has condition number about 1 + 4 h^2 k/m < 10 here, so both agree
 * to ~1e-15 relative, and the Krylov path to its rtol = 1e-14 times that; 1e-12 relative
 * to max|v+| covers both. */
#include <criterion/criterion.h>
#include <float.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

#include "mb_mpfr_extra.h"
#include "test_helpers.h"

static const double U = DBL_EPSILON / 2;

/* Seed 004: (1 + hD/m + h^2 k/m) v+ = v + h g - (h/m) k x, per axis. */
static double seed_scalar(double m, double k, double D, double g, double x, double v, double h)
{
    return (v + h * g - h / m * k * x) / (1.0 + h * D / m + h * h * k / m);
}

/* Negative control, the seed's sign typo:  v+ = v - m^-1 (m g - k x+ - D v+), x+ = x + h v+
 * (solved for v+). */
static double seed_typo_sign(double m, double k, double D, double g, double x, double v, double h)
{
    return (v - g + k / m * x) / (1.0 - h * k / m - D / m);
}

/* Negative control, the seed's general matrix form without damping:
 * (M - h^2 K) v+ = M v + h f(x, v)  with f = m g - k x - D v. */
static double seed_no_damping(double m, double k, double D, double g, double x, double v, double h)
{
    double f = m * g - k * x - D * v;
    return (m * v + h * f) / (m + h * h * k);
}

static int close_to(double a, double ref, double scale) { return fabs(a - ref) <= 16 * U * scale; }

Test(implicit_euler, one_step_matches_seed_scalar_formula)
{
    const double m = 0.739, k = 13.7, D = 0.291, h = 0.0431;
    const double x[3] = { 0.317, -0.122, 0.0571 }, v[3] = { -0.443, 0.271, 0.913 };
    const double g[3] = { 0.0, -9.81, 0.0 };
    mb_system *sys = th_particle(m, x, v, k, D, g);
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    int typo_caught = 0, nodamp_caught = 0;
    for (int a = 0; a < 3; a++) {
        double ref = seed_scalar(m, k, D, g[a], x[a], v[a], h);
        double scale = fabs(v[a]) + fabs(h * g[a]) + fabs(h / m * k * x[a]) + fabs(ref);
        cr_expect(close_to(sys->nodes->v[a], ref, scale), "axis %d: v+ %.17g vs seed %.17g", a,
                  sys->nodes->v[a], ref);
        cr_expect(close_to(sys->nodes->x[a], x[a] + h * ref, fabs(x[a]) + fabs(h * ref)),
                  "axis %d: x+", a);
        typo_caught += !close_to(seed_typo_sign(m, k, D, g[a], x[a], v[a], h), ref, scale);
        nodamp_caught += !close_to(seed_no_damping(m, k, D, g[a], x[a], v[a], h), ref, scale);
    }
    cr_expect_eq(typo_caught, 3, "the sign typo passed the check on some axis");
    cr_expect_eq(nodamp_caught, 3, "the undamped matrix form passed the check on some axis");
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* implicit Euler multiplies E = 1/2 (v^2 + w^2 x^2) by exactly 1/(1 + h^2 w^2) per step;
 * negative control: explicit Euler (factor 1 + h^2 w^2) fails the same check. */
static double energy_ratio(const char *scheme, int N, double h)
{
    mb_system *sys = th_problem("harmonic", (const char *const[]){ "mass=2.385", "k=7.31",
        "x0=0.413", "v0=-1.27", NULL });
    const double w2 = 7.31 / 2.385;
    double e0 = 0.5 * (sys->nodes->v[0] * sys->nodes->v[0] + w2 * sys->nodes->x[0] * sys->nodes->x[0]);
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    for (int n = 0; n < N; n++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    double e = 0.5 * (sys->nodes->v[0] * sys->nodes->v[0] + w2 * sys->nodes->x[0] * sys->nodes->x[0]);
    mb_stepper_free(st);
    mb_system_free(sys);
    return e / e0;
}

Test(implicit_euler, energy_decay_exact_factor)
{
    const double w2 = 7.31 / 2.385, h = 0.0173;
    const int N = 2000;
    double expected = pow(1.0 + h * h * w2, -N);
    double r = energy_ratio("implicit-euler", N, h);
    cr_expect(fabs(r / expected - 1.0) <= 8.0 * N * U, "ratio %.17g vs %.17g", r, expected);
    double rx = energy_ratio("explicit-euler", N, h);
    cr_expect(fabs(rx / expected - 1.0) > 8.0 * N * U, "explicit Euler passed the check");
}

/* n independent particles, each on its own anchored spring with drag and gravity, through
 * the sparse path: every particle must follow the seed's scalar formula. */
Test(implicit_euler, n_particles_sparse_match_seed_scalar)
{
    const size_t n = 7;
    const double k = 21.3, D = 0.117, h = 0.0291, g[3] = { 0.0, -9.81, 0.0 };
    mb_system *sys = mb_system_alloc(n);
    void *sp = mb_springs_new();
    for (size_t i = 0; i < n; i++) {
        mb_nodes_set_mass(sys->nodes, i, 0.31 + 0.173 * (double)i);
        for (int a = 0; a < 3; a++) {
            sys->nodes->x[3 * i + a] = 0.1 * sin(1.3 * (double)(3 * i + a) + 0.2);
            sys->nodes->v[3 * i + a] = 0.7 * cos(0.9 * (double)(3 * i + a));
        }
        mb_spring s = { .i = i, .anchored = 1, .k = k };
        mb_springs_add(sp, &s);
    }
    mb_forces_add(sys->forces, mb_force_springs, sp);
    mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(D));
    mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g));
    double x0[3 * 7], v0[3 * 7];
    memcpy(x0, sys->nodes->x, sizeof x0);
    memcpy(v0, sys->nodes->v, sizeof v0);
    mb_stepper *st = mb_stepper_alloc("implicit-euler[solver=sparse,rtol=1e-15]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            double m = 0.31 + 0.173 * (double)i, ref = seed_scalar(m, k, D, g[a], x0[3 * i + a],
                                                                    v0[3 * i + a], h);
            cr_expect(fabs(sys->nodes->v[3 * i + a] - ref) <= 1e-13 * (fabs(ref) + 1.0),
                      "node %zu axis %d: %.17g vs %.17g", i, a, sys->nodes->v[3 * i + a], ref);
        }
    mb_stepper_stats s;
    mb_stepper_get_stats(st, &s);
    cr_expect(s.linear_iterations >= 1, "sparse solve reported no iterations");
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* Independent dense reference for a chain of linear springs (rest 0, no dashpot) with drag
 * and gravity, both ends pinned: K, C and f written out here from Hooke's law. */
static void chain_reference(const mb_nodes *s, double k, double D, double g, double h,
                            double *vref)
{
    size_t n = s->n, N = 3 * n;
    gsl_matrix *A = gsl_matrix_calloc(N, N);
    gsl_vector *b = gsl_vector_calloc(N), *x = gsl_vector_alloc(N);
    for (size_t i = 0; i < n; i++) {
        int pinned = (i == 0 || i == n - 1);
        for (int a = 0; a < 3; a++) {
            size_t r = 3 * i + a;
            if (pinned) {
                gsl_matrix_set(A, r, r, 1.0);
                gsl_vector_set(b, r, s->v[r]);
                continue;
            }
            double m = s->mass[i], f = m * (a == 1 ? -g : 0.0) - D * s->v[r];
            double diag = m + h * D + h * h * k * 2;       /* M - hC - h^2 K_ii, K_ii = -2k */
            f += k * (s->x[r + 3] - s->x[r]) + k * (s->x[r - 3] - s->x[r]);
            gsl_matrix_set(A, r, r, diag);
            gsl_matrix_set(A, r, r - 3, -h * h * k);       /* K_i,i+-1 = k */
            gsl_matrix_set(A, r, r + 3, -h * h * k);
            gsl_vector_set(b, r, (m + h * D) * s->v[r] + h * f);
        }
    }
    gsl_linalg_HH_solve(A, b, x);
    memcpy(vref, x->data, N * sizeof(double));
    gsl_matrix_free(A);
    gsl_vector_free(b);
    gsl_vector_free(x);
}

static void chain_against_dense(const char *spec)
{
    const double k = 97.1, D = 0.0713, g = 9.81, h = 0.0173;
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=9", "mass=0.0613",
        "k=97.1", "rest=0", "c=0", "D=0.0713", "anchors=both", NULL });
    for (size_t i = 1; i + 1 < sys->nodes->n; i++)
        for (int a = 0; a < 3; a++) {
            sys->nodes->x[3 * i + a] += 0.013 * sin(2.1 * (double)(3 * i + a));
            sys->nodes->v[3 * i + a] = 0.37 * cos(1.7 * (double)(3 * i + a));
        }
    double vref[27];
    chain_reference(sys->nodes, k, D, g, h, vref);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    double vmax = 0.0;
    for (size_t r = 0; r < 27; r++)
        vmax = fmax(vmax, fabs(vref[r]));
    for (size_t r = 0; r < 27; r++)
        cr_expect(fabs(sys->nodes->v[r] - vref[r]) <= 1e-12 * vmax, "%s: dof %zu %.17g vs %.17g",
                  spec, r, sys->nodes->v[r], vref[r]);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(implicit_euler, chain_dense_lu_against_independent_solve)
{
    chain_against_dense("implicit-euler[solver=dense]");
}

Test(implicit_euler, chain_sparse_krylov_against_independent_solve)
{
    chain_against_dense("implicit-euler[solver=sparse,rtol=1e-14]");
    chain_against_dense("implicit-euler[solver=sparse,krylov=cg,rtol=1e-14]");
    chain_against_dense("implicit-euler[solver=sparse,krylov=gmres,rtol=1e-14]");
}

/* GSL's banded LU (solver=banded), the block Thomas sweep (solver=blocktri), and
 * solver=auto above dense_max on a chain, which must take that sweep: exact solves, so no
 * Krylov iteration is counted. */
Test(implicit_euler, chain_banded_and_blocktri_against_independent_solve)
{
    chain_against_dense("implicit-euler[solver=banded]");
    chain_against_dense("implicit-euler[solver=blocktri]");
    chain_against_dense("implicit-euler[dense_max=4]");
}

static unsigned long linear_iterations_of_one_step(const char *problem, const char *const *set,
                                                   const char *spec)
{
    mb_system *sys = th_problem(problem, set);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_stats stats;
    mb_stepper_get_stats(st, &stats);
    mb_stepper_free(st);
    mb_system_free(sys);
    return stats.linear_iterations;
}

Test(implicit_euler, auto_solver_is_direct_on_chains_only)
{
    const char *const chain[] = { "n=40", NULL }, *const cloth[] = { "nx=8", "ny=6", NULL };
    cr_expect_eq(linear_iterations_of_one_step("spring-chain", chain, "implicit-euler"), 0,
                 "a 40-node chain under solver=auto should take the block-tridiagonal direct solve");
    cr_expect_gt(linear_iterations_of_one_step("spring-chain", chain,
                                               "implicit-euler[solver=sparse]"), 0);
    cr_expect_gt(linear_iterations_of_one_step("cloth", cloth, "implicit-euler"), 0,
                 "a cloth (wide band) under solver=auto should stay on the Krylov solver");
}

/* Seed 004's two particles: (M - h^2 K) v+ = M v + h f with K = k [[-I, I], [I, -I]],
 * solved per axis in closed form; the seed's force-expansion typo
 * f0+ = k (x1 - x1) + h (v1+ - v0+) is the negative control. */
static void pair_solve(double m0, double m1, double k, double h, double x0, double x1,
                       double v0, double v1, int typo, double *w0, double *w1)
{
    /* [a b; c d] [w0; w1] = [r0; r1] */
    double a, b, c, d, r0, r1;
    if (!typo) {
        a = m0 + h * h * k; b = -h * h * k; c = -h * h * k; d = m1 + h * h * k;
        r0 = m0 * v0 + h * k * (x1 - x0);
        r1 = m1 * v1 - h * k * (x1 - x0);
    } else {                                   /* f0+ = 0 + h (w1 - w0), f1+ = -f0+ */
        a = m0 + h * h; b = -h * h; c = -h * h; d = m1 + h * h;
        r0 = m0 * v0;
        r1 = m1 * v1;
    }
    double det = a * d - b * c;
    *w0 = (r0 * d - b * r1) / det;
    *w1 = (a * r1 - c * r0) / det;
}

Test(implicit_euler, spring_pair_matches_seed_matrix_form)
{
    const double m0 = 1.37, m1 = 0.583, k = 41.9, h = 0.0527;
    mb_system *sys = th_problem("spring-pair", (const char *const[]){ "m0=1.37", "m1=0.583",
        "k=41.9", "d=0.413", "u0=0.217", "u1=-0.771", NULL });
    sys->nodes->v[1] = 0.339;
    sys->nodes->x[4] = -0.0771;
    double x[6], v[6];
    memcpy(x, sys->nodes->x, sizeof x);
    memcpy(v, sys->nodes->v, sizeof v);
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    int caught = 0;
    for (int a = 0; a < 3; a++) {
        double w0, w1, t0, t1;
        pair_solve(m0, m1, k, h, x[a], x[3 + a], v[a], v[3 + a], 0, &w0, &w1);
        pair_solve(m0, m1, k, h, x[a], x[3 + a], v[a], v[3 + a], 1, &t0, &t1);
        double scale = fabs(v[a]) + fabs(v[3 + a]) + fabs(h * k * (x[3 + a] - x[a])) + 1e-300;
        cr_expect(fabs(sys->nodes->v[a] - w0) <= 64 * U * scale, "axis %d v0+", a);
        cr_expect(fabs(sys->nodes->v[3 + a] - w1) <= 64 * U * scale, "axis %d v1+", a);
        caught += fabs(t0 - w0) > 64 * U * scale || fabs(t1 - w1) > 64 * U * scale;
    }
    cr_expect(caught >= 2, "the force-expansion typo passed the check on %d of 3 axes", 3 - caught);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* The dense LU and the sparse Krylov path solve the same system on a cloth with rest
 * lengths, dashpots (nonsymmetric K), drag and pinned corners.  Backward Euler is
 * contractive, so per-step differences of ~rtol kappa |v| do not amplify: 1e-10
 * relative after 25 steps. */
Test(implicit_euler, dense_and_sparse_agree_on_cloth)
{
    const char *pairs[] = { "nx=6", "ny=5", NULL };
    mb_system *a = th_problem("cloth", pairs), *b = th_problem("cloth", pairs);
    mb_stepper *sa = mb_stepper_alloc("implicit-euler[solver=dense]", a);
    mb_stepper *sb = mb_stepper_alloc("implicit-euler[solver=sparse,rtol=1e-13]", b);
    cr_assert(sa && sb, "%s", mb_last_error());
    for (int n = 0; n < 25; n++) {
        cr_assert_eq(mb_stepper_step(sa, a, 1.0 / 120), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_step(sb, b, 1.0 / 120), MB_SUCCESS, "%s", mb_last_error());
    }
    double vmax = 0.0, dmax = 0.0;
    for (size_t r = 0; r < 3 * a->nodes->n; r++) {
        vmax = fmax(vmax, fabs(a->nodes->v[r]));
        dmax = fmax(dmax, fabs(a->nodes->v[r] - b->nodes->v[r]));
    }
    cr_expect(vmax > 0.1, "the cloth did not move (vmax %g)", vmax);
    cr_expect(dmax <= 1e-10 * vmax, "dense vs sparse differ by %g (vmax %g)", dmax, vmax);
    mb_stepper_free(sa);
    mb_stepper_free(sb);
    mb_system_free(a);
    mb_system_free(b);
}

/* A spring of rest length L = 1 compressed to l = 1/2: its transverse stiffness
 * k (1 - L/l) = -k, so with m = k = h = 1 the transverse entries of M - h^2 K vanish. */
static void singular_case(const char *spec, double speed)
{
    double x[3] = { 0.5, 0.0, 0.0 }, v[3] = { 0.25 * speed, -0.125 * speed, 0.0 };
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, 1.0);
    memcpy(sys->nodes->x, x, sizeof x);
    memcpy(sys->nodes->v, v, sizeof v);
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .anchored = 1, .k = 1.0, .rest = 1.0 };
    mb_springs_add(sp, &s);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_not_null(st);
    int rc = mb_stepper_step(st, sys, 1.0);
    cr_expect_eq(rc, MB_ESINGULAR, "%s: got %d (%s)", spec, rc, mb_last_error());
    cr_expect(strstr(mb_last_error(), "singular") != NULL, "message: %s", mb_last_error());
    cr_expect(memcmp(sys->nodes->x, x, sizeof x) == 0 && memcmp(sys->nodes->v, v, sizeof v) == 0,
              "%s: state changed by a failed step", spec);
    cr_expect_eq(sys->t, 0.0);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(implicit_euler, singular_system_is_reported_state_untouched)
{
    singular_case("implicit-euler[solver=dense]", 1.0);
    singular_case("implicit-euler[solver=sparse]", 1.0);
    singular_case("implicit-euler[solver=banded]", 1.0);
    /* Newton's first trial state is x + h v: at rest it is the singular configuration */
    singular_case("implicit-euler-newton[solver=dense]", 0.0);
}

Test(implicit_euler, nan_is_diverged_and_state_untouched)
{
    double x[3] = { 1e300, 0, 0 }, v[3] = { 0, 0, 0 };
    mb_system *sys = th_particle(1.0, x, v, 1e300, 0.0, NULL);   /* k x overflows */
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    int rc = mb_stepper_step(st, sys, 0.01);
    cr_expect_eq(rc, MB_EDIVERGED, "got %d: %s", rc, mb_last_error());
    cr_expect(sys->nodes->x[0] == 1e300 && sys->nodes->v[0] == 0.0 && sys->t == 0.0);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* Damped oscillator (decoupled, diagonal system): the MPFR-53 twin's Gaussian elimination
 * performs exactly the divisions GSL's LU does, so it reproduces the double run with
 * solver=dense bit for bit.  (On coupled systems only solver=gauss is reproduced; see
 * tests/test_cli_simulate.c.) */
Test(implicit_euler, mpfr53_twin_bit_identical_on_decoupled_system)
{
    mb_system *sys = th_problem("damped", (const char *const[]){ NULL });
    mb_nodes_free(th_expect_twin53_identical(sys, "implicit-euler[solver=dense]", "implicit-euler",
                                             0.0123, 500));
}

/* Coupled chain: the 200-bit twin is the double run's reference; they agree to the
 * double run's round-off (a few hundred u over 50 well-conditioned steps: 1e-13). */
Test(implicit_euler, mpfr200_twin_agrees_on_coupled_chain)
{
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=6", "D=0.05", NULL });
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 200);
    mb_stepper *st = mb_stepper_alloc("implicit-euler[solver=dense]", sys);
    mb_stepper *sw = mb_stepper_alloc_twin("implicit-euler", tw);
    cr_assert(st && sw, "%s", mb_last_error());
    for (int n = 0; n < 50; n++) {
        cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step_twin(sw, tw, 0.01), MB_SUCCESS);
    }
    mb_nodes *back = mb_nodes_alloc(sys->nodes->n, 53);
    mb_nodes_mpfr_get_double(back, tw->nodes);
    double d = 0.0, vmax = 0.0;
    for (size_t r = 0; r < 3 * back->n; r++) {
        d = fmax(d, fabs(back->v[r] - sys->nodes->v[r]));
        vmax = fmax(vmax, fabs(back->v[r]));
    }
    cr_expect(vmax > 0.01 && d <= 1e-13 * vmax, "twin differs by %g (vmax %g)", d, vmax);
    mb_nodes_free(back);
    mb_stepper_free(st);
    mb_stepper_free(sw);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
}

/* Units do not matter: scaling every mass and stiffness by 1e-15 (same frequencies)
 * leaves the motion unchanged, and the pinned ends' rows (scaled by their mass) do not
 * make the GSL LU's pivot-ratio test see a singular matrix.  The velocities agree to the
 * round-off of a well-conditioned solve, 1e-13 relative after 20 steps. */
Test(implicit_euler, scale_invariance_of_the_singularity_test)
{
    mb_system *a = th_problem("spring-chain", (const char *const[]){ "n=9", NULL });
    mb_system *b = th_problem("spring-chain", (const char *const[]){ "n=9", "mass=4.73e-17",
        "k=8.12e-13", "c=1.3e-17", NULL });
    mb_stepper *sa = mb_stepper_alloc("implicit-euler[solver=dense]", a);
    mb_stepper *sb = mb_stepper_alloc("implicit-euler[solver=dense]", b);
    for (int n = 0; n < 20; n++) {
        cr_assert_eq(mb_stepper_step(sa, a, 0.01), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_step(sb, b, 0.01), MB_SUCCESS, "%s", mb_last_error());
    }
    double d = 0.0, vmax = 0.0;
    for (size_t r = 0; r < 27; r++) {
        d = fmax(d, fabs(a->nodes->v[r] - b->nodes->v[r]));
        vmax = fmax(vmax, fabs(a->nodes->v[r]));
    }
    cr_expect(vmax > 0.01 && d <= 1e-13 * vmax, "scaled run differs by %g (vmax %g)", d, vmax);
    mb_stepper_free(sa);
    mb_stepper_free(sb);
    mb_system_free(a);
    mb_system_free(b);
}

/* Linear cost, the algorithmic half: assembly is one pass over the blocks by
 * construction, so a step costs O(n) exactly when the Krylov iteration count does not
 * grow with n.  With the default chain (h^2 k/m ~ 1.2 at h = 1/120) the spectrum of A
 * lies in [m, m + 4 h^2 k] whatever n, so the counts at n = 200 and 20000 must agree
 * within 2.  Control: with springs 10^4 times stiffer A is dominated by h^2 K, whose
 * condition number grows like n^2, and the same check must fail. */
static unsigned long krylov_iterations(const char *n, const char *k)
{
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ n, k, NULL });
    mb_stepper *st = mb_stepper_alloc("implicit-euler[solver=sparse,lin_max_iter=100000]", sys);
    cr_assert_eq(mb_stepper_step(st, sys, 1.0 / 120), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_stats s;
    mb_stepper_get_stats(st, &s);
    mb_stepper_free(st);
    mb_system_free(sys);
    return s.linear_iterations;
}

Test(implicit_euler, krylov_iterations_independent_of_size)
{
    unsigned long a = krylov_iterations("n=200", "k=812"), b = krylov_iterations("n=20000", "k=812");
    fprintf(stderr, "BiCGSTAB iterations, chain n = 200 / 20000: %lu / %lu\n", a, b);
    cr_expect(b <= a + 2 && a <= b + 2, "iterations %lu at n = 200, %lu at n = 20000", a, b);
    unsigned long sa = krylov_iterations("n=200", "k=8.12e6"), sb = krylov_iterations("n=2000", "k=8.12e6");
    fprintf(stderr, "stiff control, n = 200 / 2000: %lu / %lu\n", sa, sb);
    cr_expect(sb > sa + 2, "the stiff control passed: %lu vs %lu", sa, sb);
}

/* Blocked axes have zero acceleration, exactly: on a 40-particle chain (solver=auto: the
 * block sweep, whose assembly lists the fixed nodes when there are at most
 * MB_LINSYS_FIXED_LIST of them and scans every node beyond), nodes blocked along x and
 * moving along x keep v_x bit for bit, and x_x follows x += v_x h step by step (the
 * closed form of zero acceleration, in the step's own operation).  3 blocked nodes take
 * the list (past the first step the sweep forms x+ and the step settles the listed nodes
 * after it), 11 the scan; with solver=sparse (BiCGSTAB on the CSR matrix), 3 blocked nodes
 * take the list with x+ formed by the step's own pass.  The first four velocities are
 * such that (m v) / m is not v (m = 0.0473), so that the sweep's solution of the fixed
 * rows' m v+ = m v is not v by the way (BiCGSTAB, started from v, keeps it on those rows;
 * test_blocktri.c, a_refused_sweep_keeps_a_blocked_axis, holds the listed nodes of a step
 * the banded LU solved); node 0, one of them, starts at x_x = 0, so that its first x+ is
 * v h itself and an x+ formed from another v+ shows. */
static void blocked_axes_keep_their_velocity(size_t nblocked, const char *spec)
{
    const double h = 1.0 / 120.0;
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=40", "anchors=none",
                                                                        NULL });
    mb_nodes *s = sys->nodes;
    size_t node[11];
    double vx[11], xx[11];
    cr_assert(nblocked <= 11);
    for (size_t q = 0; q < nblocked; q++) {
        node[q] = 3 * q;
        s->blocked[node[q]] = 1u;                     /* x */
        s->v[3 * node[q]] = vx[q] = 0.181 + 0.001 * (double)q;
        xx[q] = s->x[3 * node[q]];
    }
    mb_nodes_touch(s);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int step = 1; step <= 6; step++) {
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
        for (size_t q = 0; q < nblocked; q++) {
            xx[q] = xx[q] + vx[q] * h;
            size_t k = 3 * node[q];
            cr_expect(s->v[k] == vx[q] && s->x[k] == xx[q], "%s, %zu blocked, step %d, node "
                      "%zu: v_x %.17g (%.17g), x_x %.17g (%.17g)", spec, nblocked, step,
                      node[q], s->v[k], vx[q], s->x[k], xx[q]);
        }
    }
    double vy = 0.0;
    for (size_t i = 0; i < s->n; i++)
        vy = fmax(vy, fabs(s->v[3 * i + 1]));
    cr_expect(vy > 0.05, "the chain falls (max |v_y| %g)", vy);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(implicit_euler, blocked_axes_keep_their_velocity_exactly)
{
    blocked_axes_keep_their_velocity(3, "implicit-euler");
    blocked_axes_keep_their_velocity(11, "implicit-euler");
    blocked_axes_keep_their_velocity(3, "implicit-euler[solver=sparse]");
}

/* x+ beyond the double range is a divergence, the state untouched: a free particle of
 * unit mass (no force: A = M, v+ = v exactly) at x = 1.7e308 moving at 1e308 m/s, h = 1
 * (x+ = +Inf); the control at h = 0.01 stays finite (x+ = 1.71e308). */
Test(implicit_euler, a_position_beyond_the_double_range_is_diverged)
{
    double x[3] = { 1.7e308, 0, 0 }, v[3] = { 1e308, 0, 0 };
    mb_system *sys = th_particle(1.0, x, v, 0.0, 0.0, NULL);
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    int rc = mb_stepper_step(st, sys, 1.0);
    cr_expect_eq(rc, MB_EDIVERGED, "got %d: %s", rc, mb_last_error());
    cr_expect(sys->nodes->x[0] == 1.7e308 && sys->nodes->v[0] == 1e308 && sys->t == 0.0);
    cr_expect_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    cr_expect(sys->nodes->x[0] == 1.7e308 + 1e308 * 0.01);
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* x+ = x + v+ h, and a value of x+ beyond the double range found, in every position of the
 * drift's lanes (ieuler_drift: two values a lane, the last of an odd count alone): three
 * free particles of unit mass (no force: A = M = I and b = v, so v+ = v exactly), nine
 * values.  Without overflow every x+ must equal x + v h written out here, bit for bit;
 * then one value at a time at 1.7e308 moving at 1e308 m/s (h = 1: x+ = +Inf there, every
 * other value finite) must be a divergence that leaves the state as it was, and the control
 * step h = 0.01 (x+ = 1.71e308) must pass. */
Test(implicit_euler, every_lane_of_the_drift_computed_and_checked)
{
    for (int bad = -1; bad < 9; bad++) {
        mb_system *sys = mb_system_alloc(3);
        mb_nodes *s = sys->nodes;
        double x0[9], v0[9];
        for (size_t i = 0; i < 3; i++)
            mb_nodes_set_mass(s, i, 1.0);
        for (int q = 0; q < 9; q++) {
            s->x[q] = x0[q] = 0.3 + 0.71 * q;
            s->v[q] = v0[q] = 1.1 - 0.137 * q;
        }
        if (bad >= 0) {
            s->x[bad] = x0[bad] = 1.7e308;
            s->v[bad] = v0[bad] = 1e308;
        }
        mb_nodes_touch(s);
        mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
        cr_assert_not_null(st, "%s", mb_last_error());
        const double h = bad < 0 ? 0.37 : 1.0;
        int rc = mb_stepper_step(st, sys, h);
        if (bad < 0) {
            cr_expect_eq(rc, MB_SUCCESS, "%s", mb_last_error());
            for (int q = 0; q < 9; q++)
                cr_expect(s->v[q] == v0[q] && s->x[q] == x0[q] + v0[q] * h,
                          "value %d: x+ %.17g, x + v h %.17g", q, s->x[q], x0[q] + v0[q] * h);
        } else {
            cr_expect_eq(rc, MB_EDIVERGED, "+Inf at value %d: got %d", bad, rc);
            cr_expect(memcmp(s->x, x0, sizeof x0) == 0 && memcmp(s->v, v0, sizeof v0) == 0
                      && sys->t == 0.0, "value %d: the state changed", bad);
            cr_expect_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "control, value %d: %s",
                         bad, mb_last_error());
            cr_expect(s->x[bad] == 1.7e308 + 1e308 * 0.01);
        }
        mb_stepper_free(st);
        mb_system_free(sys);
    }
}

/* On a chain past its first step the block sweep forms x+ = x + v+ h in its backward pass
 * (mb_implicit_solver_solve_drift; the step settles the listed fixed nodes after it,
 * ieuler_settle).  A 20-particle chain, no anchors (no fixed node: the list is empty),
 * one ordinary step, then every particle translated at v_x = 1e308 m/s (the springs and
 * dashpots see no relative motion, so v+ stays near 1e308): with h = 1 every x+ is finite
 * and must equal x + v+ h written out here, bit for bit; with h = 2 (x+ beyond the double
 * range) the step must be a divergence that leaves the state as it was. */
static void chain_translated_at_1e308(double h, int expect)
{
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=20", "anchors=none",
                                                                        NULL });
    mb_nodes *s = sys->nodes;
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, 1.0 / 120.0), MB_SUCCESS, "%s", mb_last_error());
    double x0[60], v0[60], t0 = sys->t;
    for (size_t i = 0; i < 20; i++)
        s->v[3 * i] = 1e308;
    mb_nodes_touch(s);
    memcpy(x0, s->x, sizeof x0);
    memcpy(v0, s->v, sizeof v0);
    int rc = mb_stepper_step(st, sys, h);
    cr_expect_eq(rc, expect, "h = %g: got %d (%s)", h, rc, mb_last_error());
    if (expect == MB_SUCCESS) {
        for (int k = 0; k < 60; k++)
            cr_expect(s->x[k] == x0[k] + s->v[k] * h && isfinite(s->x[k]),
                      "value %d: x+ %.17g, x + v+ h %.17g", k, s->x[k], x0[k] + s->v[k] * h);
    } else {
        cr_expect(memcmp(s->x, x0, sizeof x0) == 0 && memcmp(s->v, v0, sizeof v0) == 0
                  && sys->t == t0, "h = %g: the state changed", h);
    }
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(implicit_euler, the_chain_drift_in_the_sweep_formed_and_checked)
{
    chain_translated_at_1e308(1.0, MB_SUCCESS);
    chain_translated_at_1e308(2.0, MB_EDIVERGED);
}
