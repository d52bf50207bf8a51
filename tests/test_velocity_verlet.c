/* test_velocity_verlet.c -- velocity Verlet (Swope et al. 1982) against hand-derived
 * values and closed forms, with its negative controls.
 *
 * One step (x'' = a(x) = -w^2 x + g per axis, hand-derived from the defining equations):
 *   x1 = x0 + h v0 + h^2/2 a(x0),  v1 = v0 + h/2 (a(x0) + a(x1)).
 * Order: the global error on the oscillator is C h^2 (1 + O((h w)^2)); at h w <= 0.05 the
 * fitted slope differs from 2 by < 0.01, +-0.05 is the margin.  The stale-force defect
 * starts each step from a(t - h): a local error O(h^2), order 1 (must fall below 1.5).
 * Energy on Kepler (e = 0.6): the scheme is symplectic, so E oscillates within O(h^2)
 * with no drift (Hairer, Lubich & Wanner, IX.8): the max over the last of 20 periods is
 * within 10 % of the max over the first.  RK4, not symplectic, fails the same check. */
#include <criterion/criterion.h>
#include <float.h>

#include "compare_test_util.h"
#include "mb_mpfr_extra.h"

/* a force model that counts its evaluations: f = -K_OSC x */
struct counted {
    long evals;
};

static int counted_eval(const void *params, mb_nodes *s, double t)
{
    struct counted *c = (struct counted *)params;
    (void)t;
    c->evals++;
    for (size_t j = 0; j < 3 * s->n; j++)
        s->f[j] += -K_OSC * s->x[j];
    return MB_SUCCESS;
}

static const mb_force_type counted_type = { .name = "counted-spring", .eval = counted_eval };

static mb_system *counted_oscillator(struct counted *c)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, M_OSC);
    memcpy(sys->nodes->x, osc_x0, sizeof osc_x0);
    memcpy(sys->nodes->v, osc_v0, sizeof osc_v0);
    cr_assert_eq(mb_forces_add(sys->forces, &counted_type, c), MB_SUCCESS);
    return sys;
}

Test(velocity_verlet, one_step_hand_derived)
{
    const double g[3] = { 0.37, -9.81, 1.13 }, h = 0.0173, w2 = K_OSC / M_OSC;
    mb_system *sys = th_particle(M_OSC, osc_x0, osc_v0, K_OSC, 0.0, g);
    mb_stepper *st = mb_stepper_alloc("velocity-verlet", sys);
    cr_assert_not_null(st);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    for (int a = 0; a < 3; a++) {
        double a0 = g[a] - w2 * osc_x0[a];
        double x1 = osc_x0[a] + h * osc_v0[a] + 0.5 * h * h * a0;
        double a1 = g[a] - w2 * x1;
        double v1 = osc_v0[a] + 0.5 * h * (a0 + a1);
        /* a handful of roundings on terms of size <= |x| + |v h| + |a| h^2: 8 u of 1 */
        cr_expect(fabs(sys->nodes->x[a] - x1) <= 8 * DBL_EPSILON, "x[%d] %.17g vs %.17g", a,
                  sys->nodes->x[a], x1);
        cr_expect(fabs(sys->nodes->v[a] - v1) <= 8 * DBL_EPSILON * 10, "v[%d] %.17g vs %.17g", a,
                  sys->nodes->v[a], v1);
        /* negative control: a(x0) in both half kicks (the stale force) differs by
         * h/2 (a1 - a0) = h^2/2 w^2 v0 + ... ~ 1e-4, far above the tolerance */
        double v_stale = osc_v0[a] + h * a0;
        cr_expect(fabs(v_stale - v1) > 1e3 * 8 * DBL_EPSILON * 10, "stale kick not detectable");
    }
    cr_expect_eq(sys->t, h);
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(velocity_verlet, one_force_evaluation_per_step)
{
    struct counted c = { 0 };
    mb_system *sys = counted_oscillator(&c);
    mb_stepper *st = mb_stepper_alloc("velocity-verlet", sys);
    c.evals = 0;                  /* the allocation probes the torque once (stepper.c) */
    const long N = 37;
    for (long k = 0; k < N; k++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.0113), MB_SUCCESS);
    cr_expect_eq(c.evals, N + 1, "%ld evaluations for %ld steps (expected N + 1)", c.evals, N);
    mb_stepper_free(st);
    mb_system_free(sys);          /* the model has no free hook: c stays on the stack */
}

/* Run n steps, reset the system to its initial state and time (as a driver restarting a
 * run would), run n steps again: the second leg must reproduce the first bit for bit. */
static int restart_reproduces(const char *scheme)
{
    mb_system *sys = ct_oscillator();
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    const long n = 50;
    const double h = 0.0213;
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    mb_nodes *first = mb_nodes_alloc(1, 53);
    mb_nodes_copy(first, sys->nodes);
    memcpy(sys->nodes->x, osc_x0, sizeof osc_x0);
    memcpy(sys->nodes->v, osc_v0, sizeof osc_v0);
    mb_nodes_touch(sys->nodes);     /* a write outside a step, announced (mb_stepper.h) */
    sys->t = 0.0;
    for (long k = 0; k < n; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
    int same = th_same_state(first, sys->nodes);
    mb_nodes_free(first);
    mb_stepper_free(st);
    mb_system_free(sys);
    return same;
}

Test(velocity_verlet, cache_invalidated_for_a_reset_system)
{
    cr_expect(restart_reproduces("velocity-verlet"), "the force cache survived a reset");
    cr_expect(!restart_reproduces("velocity-verlet-defect[defect=no-invalidate]"),
              "negative control: a cache trusted after a reset was not flagged");
}

Test(velocity_verlet, cache_invalidated_for_another_system)
{
    /* step system A once, then hand the scheme system B at the same time t = 0 with a
     * different position: its first step must use B's force */
    mb_system *a = ct_oscillator(), *b = ct_oscillator(), *fresh = ct_oscillator();
    b->nodes->x[0] = fresh->nodes->x[0] = -0.622;
    mb_stepper *st = mb_stepper_alloc("velocity-verlet", a);
    mb_stepper *sf = mb_stepper_alloc("velocity-verlet", fresh);
    const double h = 0.0311;
    cr_assert_eq(mb_stepper_step(st, a, h), MB_SUCCESS);
    a->t = 0.0;                     /* same time as b: only the state differs */
    mb_nodes_copy(a->nodes, b->nodes);
    cr_assert_eq(mb_stepper_step(st, a, h), MB_SUCCESS);
    cr_assert_eq(mb_stepper_step(sf, fresh, h), MB_SUCCESS);
    cr_expect(th_same_state(a->nodes, fresh->nodes), "stale force used for another state");
    mb_stepper_free(st);
    mb_stepper_free(sf);
    mb_system_free(a);
    mb_system_free(b);
    mb_system_free(fresh);
}

/* A store written between steps at the same time, announced with mb_nodes_touch as the
 * contract asks (mb_stepper.h): the next step must use the force of the written state,
 * exactly as a fresh stepper started from that state does.  If the force cache ignored
 * the generation, the first half kick would use a(x) of the state the scheme left (the
 * oscillator's force depends on x). */
Test(velocity_verlet, a_touched_store_is_not_served_cached_forces)
{
    mb_system *a = ct_oscillator(), *b = ct_oscillator();
    mb_stepper *cached = mb_stepper_alloc("velocity-verlet", a);
    const double h = 0.0213;
    for (int k = 0; k < 5; k++)
        cr_assert_eq(mb_stepper_step(cached, a, h), MB_SUCCESS);
    for (int c = 0; c < 3; c++)          /* move the node outward by 10 % */
        a->nodes->x[c] *= 1.1;
    mb_nodes_touch(a->nodes);
    mb_nodes_copy(b->nodes, a->nodes);
    b->t = a->t;
    mb_stepper *fresh = mb_stepper_alloc("velocity-verlet", b);
    cr_assert_eq(mb_stepper_step(cached, a, h), MB_SUCCESS);
    cr_assert_eq(mb_stepper_step(fresh, b, h), MB_SUCCESS);
    cr_expect(th_same_state(a->nodes, b->nodes),
              "a step after a touched write used the cached force of the old state");
    mb_stepper_free(cached);
    mb_stepper_free(fresh);
    mb_system_free(a);
    mb_system_free(b);
}

Test(velocity_verlet, second_order_on_the_oscillator)
{
    /* t_end 5.3, h = 5.3/200 .. 5.3/1600: h w = 0.046 .. 0.0058 */
    double p = ct_osc_order("velocity-verlet", 5.3, 200, 4);
    cr_expect(fabs(p - 2.0) <= 0.05, "order %.4f", p);
    double pd = ct_osc_order("velocity-verlet-defect", 5.3, 200, 4);
    cr_expect(pd < 1.5, "negative control: stale-force order %.4f not flagged", pd);
}

Test(velocity_verlet, energy_bounded_on_kepler)
{
    double first, last, slope;
    /* h = 2 pi / 1000, 20 periods */
    ct_kepler_energy_run("velocity-verlet", 2.0 * M_PI / 1000, 20, &first, &last, &slope);
    cr_expect(last <= 1.1 * first, "energy error grew: first period %g, last %g", first, last);
    /* the O(h^2) oscillation: at periapsis (speed 2, r = 0.4) about 17 h^2 (the
     * leap-frog modified-energy bound of kepler-e06-long) */
    double h = 2.0 * M_PI / 1000;
    cr_expect(first <= 17 * h * h, "max energy error %g above 17 h^2 = %g", first, 17 * h * h);
    /* negative control: RK4 drifts (its error grows with t) */
    ct_kepler_energy_run("rk4", 2.0 * M_PI / 1000, 20, &first, &last, &slope);
    cr_expect(last > 1.1 * first, "negative control: rk4 energy drift not flagged (%g, %g)",
              first, last);
}

Test(velocity_verlet, mpfr53_twin_is_bit_identical)
{
    ct_expect_twin53_identical("velocity-verlet");
}

Test(velocity_verlet, nan_is_diverged_and_state_untouched)
{
    ct_expect_overflow_diverges("velocity-verlet", 0.0);
}
