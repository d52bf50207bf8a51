/* test_timestep.c -- critical time-step estimates and the DynDt adapter.
 *
 * References: the leap-frog stability limit h < 2/w of x'' = -w^2 x (the amplification
 * matrix has trace 2 - h^2 w^2, so |trace| < 2 <=> h w < 2) applied to the highest mode of
 * the system, with w_max in closed form: anchored spring w^2 = k/m; two free equal masses
 * w^2 = 2k/m; free chain of N equal masses w_max = 2 sqrt(k/m) sin((N-1) pi / (2N)).
 * The estimates are a few flops from exact data: 8 ulp. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_contact.h"
#include "mb_status.h"
#include "mb_system.h"
#include "mb_timestep.h"

#define CLOSE(a, b) (fabs((a) - (b)) <= 8.0 * DBL_EPSILON * fabs(b))

/* N equal masses in a line along x joined by zero-rest-length springs; anchored = 1 ties
 * node 0 to the origin instead of having a partner (then N must be 1). */
static mb_system *chain(size_t N, double m, double k, int anchored)
{
    mb_system *sys = mb_system_alloc(N);
    void *sp = mb_springs_new();
    for (size_t i = 0; i < N; i++) {
        mb_nodes_set_mass(sys->nodes, i, m);
        sys->nodes->x[3 * i] = 0.1 * (double)i;
    }
    if (anchored) {
        mb_spring s = { .i = 0, .anchored = 1, .k = k };
        mb_springs_add(sp, &s);
    }
    for (size_t i = 0; i + 1 < N; i++) {
        mb_spring s = { .i = i, .j = i + 1, .k = k };
        mb_springs_add(sp, &s);
    }
    mb_forces_add(sys->forces, mb_force_springs, sp);
    return sys;
}

/* Leap-frog in a test-local form on the system: growth factor of the x-amplitude over
 * 4000 steps from a push on the highest mode (alternating displacements). */
static double leapfrog_growth(mb_system *sys, double h)
{
    mb_nodes *s = sys->nodes;
    for (size_t i = 0; i < s->n; i++) {
        s->x[3 * i] = (i % 2 ? -1e-3 : 1e-3) + 0.0;
        s->v[3 * i] = 0.0;
    }
    double a0 = 1e-3, amax = 0.0;
    for (int n = 0; n < 4000; n++) {
        mb_forces_eval(sys->forces, s, 0.0);
        for (size_t i = 0; i < s->n; i++) {
            s->v[3 * i] += h * s->f[3 * i] / s->mass[i];
            s->x[3 * i] += h * s->v[3 * i];
            amax = fmax(amax, fabs(s->x[3 * i]));
        }
    }
    return amax / a0;
}

Test(timestep, anchored_oscillator_is_sqrt2_conservative)
{
    const double m = 2.385, k = 731.0;
    mb_system *sys = chain(1, m, k, 1);
    double dt;
    cr_assert_eq(mb_timestep_critical(sys->forces, sys->nodes, &dt), MB_SUCCESS);
    cr_expect(CLOSE(dt, sqrt(2.0) * sqrt(m / k)), "dt %.17g", dt);
    double limit = 2.0 / sqrt(k / m);
    cr_expect(CLOSE(dt * sqrt(2.0), limit));
    /* the true limit lies sqrt(2) above the estimate: stable at 0.98 limit, not at 1.02 */
    cr_expect(leapfrog_growth(sys, 0.98 * limit) < 100.0);
    cr_expect(leapfrog_growth(sys, 1.02 * limit) > 1e6);
    mb_system_free(sys);
}

/* Two equal free masses: the estimate is exactly the limit.  Negative control: the same
 * formula without the sqrt(2) halving (2 sqrt(m/K), the anchored-oscillator limit applied
 * to the summed stiffness) overshoots the limit by sqrt(2) and the run blows up. */
Test(timestep, two_free_masses_estimate_is_exact)
{
    const double m = 0.731, k = 23.85;
    mb_system *sys = chain(2, m, k, 0);
    double dt;
    mb_timestep_critical(sys->forces, sys->nodes, &dt);
    double limit = 2.0 / sqrt(2.0 * k / m);
    cr_expect(CLOSE(dt, limit), "dt %.17g, limit %.17g", dt, limit);
    cr_expect(leapfrog_growth(sys, 0.98 * dt) < 100.0);
    cr_expect(leapfrog_growth(sys, 1.02 * dt) > 1e6);
    double wrong = 2.0 * sqrt(m / k);
    cr_expect(leapfrog_growth(sys, wrong) > 1e6, "the wrong estimate must be unstable");
    mb_system_free(sys);
}

/* Free chain: interior nodes carry 2k, estimate sqrt(2) sqrt(m/2k) = sqrt(m/k), below the
 * limit 2/w_max by the factor sin((N-1) pi / (2N)). */
Test(timestep, chain_estimate_below_highest_mode_limit)
{
    const double m = 1.27, k = 41.3;
    const size_t N = 7;
    mb_system *sys = chain(N, m, k, 0);
    double dt;
    mb_timestep_critical(sys->forces, sys->nodes, &dt);
    cr_expect(CLOSE(dt, sqrt(m / k)));
    double wmax = 2.0 * sqrt(k / m) * sin((N - 1) * M_PI / (2.0 * N));
    cr_expect(dt < 2.0 / wmax);
    cr_expect(fabs(dt / (2.0 / wmax) - sin((N - 1) * M_PI / (2.0 * N))) <= 1e-15);
    /* blocked axes do not count: with every translation blocked there is no bound */
    for (size_t i = 0; i < N; i++)
        sys->nodes->blocked[i] = MB_BLOCK_X | MB_BLOCK_Y | MB_BLOCK_Z;
    mb_timestep_critical(sys->forces, sys->nodes, &dt);
    cr_expect(isinf(dt));
    mb_system_free(sys);
}

/* Hertz sphere on a plane z = 0: k_t = (3/2) K sqrt(delta) = 2 E* sqrt(R delta) on z only. */
Test(timestep, hertz_contact_stiffness)
{
    const double m = 0.0385, R = 0.0173, E = 7.31e8, delta = 2.3e-5;
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, m);
    sys->nodes->radius[0] = R;
    sys->nodes->x[2] = R - delta;
    mb_contact_hertz_params p = { .estar = E };
    void *c = mb_contact_hertz_new(&p);
    const double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    mb_contact_add_plane(c, sys->nodes, 0, o, n);
    mb_forces_add(sys->forces, mb_force_contact_hertz, c);
    double dt, d = R - sys->nodes->x[2];
    mb_timestep_critical(sys->forces, sys->nodes, &dt);
    double kt = 2.0 * E * sqrt(R * d);
    cr_expect(fabs(dt - sqrt(2.0 * m / kt)) <= 1e-15 * dt * 16, "dt %.17g vs %.17g", dt,
              sqrt(2.0 * m / kt));
    /* no contact -> no stiffness -> infinite estimate */
    sys->nodes->x[2] = 2.0 * R;
    mb_timestep_critical(sys->forces, sys->nodes, &dt);
    cr_expect(isinf(dt));
    mb_system_free(sys);
}

Test(timestep, pwave_closed_form)
{
    const double E = 7.31e9, rho = 2385.0, r0 = 0.0123, r1 = 0.0097;
    mb_nodes *s = mb_nodes_alloc(3, 53);
    s->radius[0] = r0;
    s->radius[1] = r1;
    mb_nodes_set_mass(s, 0, rho * 4.0 / 3.0 * M_PI * r0 * r0 * r0);
    mb_nodes_set_mass(s, 1, rho * 4.0 / 3.0 * M_PI * r1 * r1 * r1);
    mb_nodes_set_mass(s, 2, 5.0);   /* radius 0: skipped */
    double dt;
    cr_assert_eq(mb_timestep_pwave(s, E, &dt), MB_SUCCESS);
    cr_expect(fabs(dt - r1 * sqrt(rho / E)) <= 8 * DBL_EPSILON * dt, "%.17g vs %.17g", dt,
              r1 * sqrt(rho / E));
    cr_assert_eq(mb_timestep_pwave_density(s, E, 2.0 * rho, &dt), MB_SUCCESS);
    cr_expect(fabs(dt - r1 * sqrt(2.0 * rho / E)) <= 8 * DBL_EPSILON * dt);
    cr_expect_eq(mb_timestep_pwave(s, -1.0, &dt), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "Young") != NULL);
    s->radius[0] = s->radius[1] = 0.0;
    cr_expect_eq(mb_timestep_pwave(s, E, &dt), MB_EINVAL);
    mb_nodes_free(s);
}

/* DynDt properties over a varying stiffness: dt <= safety * dt_cr after every update,
 * growth per update <= max_rel_inc, and a drop of the bound is followed at once. */
static int dyndt_properties_hold(double (*next)(double, double, double, double),
                                 const double *crit, int n, double dt0, double safety,
                                 double inc)
{
    double dt = dt0;
    for (int i = 0; i < n; i++) {
        double nd = next(dt, crit[i], safety, inc);
        if (nd > safety * crit[i] * (1.0 + 1e-15))
            return 0;
        if (nd > dt * (1.0 + inc) * (1.0 + 1e-15))
            return 0;
        if (safety * crit[i] < dt && nd != safety * crit[i])
            return 0;
        dt = nd;
    }
    return 1;
}

/* Negative control: an adapter that jumps straight to the bound. */
static double jump_to_bound(double dt, double crit, double safety, double inc)
{
    (void)dt; (void)inc;
    return safety * crit;
}

Test(dyndt, growth_capped_shrink_immediate)
{
    double crit[400];
    for (int i = 0; i < 400; i++)     /* bound oscillating between 0.9e-3 and 1.9e-3 */
        crit[i] = 1e-3 * (1.4 + 0.5 * sin(0.05 * i));
    cr_expect(dyndt_properties_hold(mb_dyndt_next, crit, 400, 5e-3, 0.9, 1e-4));
    cr_expect(dyndt_properties_hold(mb_dyndt_next, crit, 400, 1e-4, 0.9, 2e-3));
    cr_expect(!dyndt_properties_hold(jump_to_bound, crit, 400, 1e-4, 0.9, 1e-4));
    /* exact factors by hand */
    cr_expect_eq(mb_dyndt_next(1e-3, 1.0, 0.9, 1e-4), 1e-3 * (1.0 + 1e-4));
    cr_expect_eq(mb_dyndt_next(1e-3, 1e-3, 0.9, 1e-4), 0.9 * 1e-3);
    cr_expect_eq(mb_dyndt_next(1e-3, INFINITY, 0.9, 1e-4), 1e-3);
}

/* The adapter object on a real contact: Hertz stiffness grows as the sphere sinks. */
Test(dyndt, follows_hertz_contact)
{
    const double m = 0.0385, R = 0.0173, E = 7.31e8;
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, m);
    sys->nodes->radius[0] = R;
    mb_contact_hertz_params p = { .estar = E };
    void *c = mb_contact_hertz_new(&p);
    const double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    mb_contact_add_plane(c, sys->nodes, 0, o, n);
    mb_forces_add(sys->forces, mb_force_contact_hertz, c);
    mb_dyndt *d = mb_dyndt_alloc(1, 1.0, MB_DT_SAFETY_DEFAULT, MB_DT_MAX_REL_INC_DEFAULT);
    cr_assert_not_null(d);
    double prev = d->dt;
    for (int i = 0; i < 200; i++) {
        double delta = 1e-5 * (1.0 + 0.9 * sin(0.1 * i));
        sys->nodes->x[2] = R - delta;
        cr_assert_eq(mb_dyndt_update(d, sys->forces, sys->nodes), MB_SUCCESS);
        cr_expect(d->dt <= 0.9 * d->last_critical * (1 + 1e-15));
        cr_expect(d->dt <= prev * (1.0 + 1e-4) * (1 + 1e-15));
        prev = d->dt;
    }
    mb_dyndt_free(d);
    cr_expect_null(mb_dyndt_alloc(1, 1.0, 1.5, 1e-4));
    cr_expect(strstr(mb_last_error(), "safety") != NULL);
    cr_expect_null(mb_dyndt_alloc(1, -1.0, 0.9, 1e-4));
    cr_expect_null(mb_dyndt_alloc(1, 1.0, 0.9, -1e-4));
    mb_system_free(sys);
}

/* Two equal free masses joined along the oblique unit vector n = (2, 3, 6)/7.  At the rest
 * length the stiffness matrix is k [n n^T, -n n^T; -n n^T, n n^T], whose only nonzero
 * mode is the stretch along n with w^2 = 2k/m, whatever the direction: the leap-frog limit
 * is 2/w = sqrt(2m/k), the same as for an axis-aligned spring.  The estimate must not
 * exceed it (8 ulp: a few flops from exact data).  Negative control: the axis projection
 * k n_a^2 (largest n_a = 6/7) gives sqrt(2) (7/6) sqrt(m/k), 1.17 times the limit. */
static void oblique_pair_check(mb_system *sys, double m, double k)
{
    double dt;
    cr_assert_eq(mb_timestep_critical(sys->forces, sys->nodes, &dt), MB_SUCCESS);
    double limit = sqrt(2.0 * m / k);
    cr_expect(dt <= limit * (1.0 + 8.0 * DBL_EPSILON), "dt %.17g exceeds the limit %.17g",
              dt, limit);
    double projected = sqrt(2.0) * (7.0 / 6.0) * sqrt(m / k);
    cr_expect(projected > 1.1 * limit, "control: the axis projection overshoots");
}

Test(timestep, oblique_spring_estimate_below_limit)
{
    const double m = 1.385, k = 57.3, L = 0.7;
    mb_system *sys = mb_system_alloc(2);
    for (size_t i = 0; i < 2; i++)
        mb_nodes_set_mass(sys->nodes, i, m);
    const double n[3] = { 2.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0 };
    for (int a = 0; a < 3; a++)
        sys->nodes->x[3 + a] = L * n[a];                 /* at rest length */
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .j = 1, .k = k, .rest = L };
    cr_assert_eq(mb_springs_add(sp, &s), MB_SUCCESS);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    oblique_pair_check(sys, m, k);
    mb_system_free(sys);
}

/* The same pair as two spheres in linear contact along n: the contact normal mode has
 * w^2 = 2 kn/m (the contact law is k delta along n). */
Test(timestep, oblique_contact_estimate_below_limit)
{
    const double m = 0.385, kn = 2.31e4, R = 0.0173, delta = 1.1e-4;
    mb_system *sys = mb_system_alloc(2);
    const double n[3] = { 2.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0 };
    for (size_t i = 0; i < 2; i++) {
        mb_nodes_set_mass(sys->nodes, i, m);
        sys->nodes->radius[i] = R;
    }
    for (int a = 0; a < 3; a++)
        sys->nodes->x[3 + a] = (2.0 * R - delta) * n[a];
    mb_contact_linear_params p = { .kn = kn };
    void *c = mb_contact_linear_new(&p);
    cr_assert_not_null(c);
    cr_assert_eq(mb_contact_add_spheres(c, sys->nodes, 0, 1), MB_SUCCESS);
    mb_forces_add(sys->forces, mb_force_contact_linear, c);
    oblique_pair_check(sys, m, kn);
    mb_system_free(sys);
}
