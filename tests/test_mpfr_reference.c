/* test_mpfr_reference.c -- the MPFR Gragg-Bulirsch-Stoer reference.
 *
 * (1) Against a closed form evaluated in MPFR at 600 bits (harmonic oscillator): the actual
 *     error must be below the reported estimate, and the estimate far below double
 *     precision (< 1e-60 at 256 bits, < 1e-25 at 113 bits).
 * (2) Honesty on nonlinear problems without an MPFR closed form (Kepler, asymmetric top):
 *     the 256-bit estimate must bound the difference to the 512-bit run (whose own error
 *     is ~1e-140, negligible).
 * (3) Against closed forms in double (Kepler, asymmetric top, spin-up): agreement within
 *     the closed forms' own accuracy -- a few ulps of the state scale (1e-15 relative for
 *     Kepler's Brent+Newton solve, 1e-13 for the top's orientation quadrature).
 * (4) Negative controls: a discontinuous force has no h^2 expansion; the engine must refuse
 *     (MB_EMAXITER) instead of returning a number.  A 3 ms bounce on a stiff wall inside a
 *     2 s run (through a slab 1 mm deep, reached after 1 ms) is stepped over by the
 *     extrapolation (free flight converges perfectly): with the rk8pd consistency check
 *     switched off the engine returns the wrong state with a tiny estimate, with the
 *     check (default) it refuses -- rk8pd starts with small steps and resolves the
 *     bounce.  (An event that rk8pd steps over as well goes undetected: non-smooth
 *     problems need their closed forms.)  Error paths of the arguments. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_closed.h"
#include "mb_mpfr_reference.h"
#include "mb_problem.h"
#include "mb_reference.h"
#include "mb_status.h"
#include "mb_vec.h"

#include "ref_test_types.h"

/* |x_ref - x_exact| with x_exact = x0 cos wt + v0/w sin wt at 600 bits */
static double harmonic_actual_error(const mb_nodes_mpfr *out, double t)
{
    mpfr_t w, a, b, x;
    mpfr_inits2(600, w, a, b, x, (mpfr_ptr)0);
    mpfr_set_d(w, 7.31, MPFR_RNDN);
    mpfr_div_d(w, w, 2.385, MPFR_RNDN);
    mpfr_sqrt(w, w, MPFR_RNDN);
    mpfr_mul_d(a, w, t, MPFR_RNDN);
    mpfr_cos(b, a, MPFR_RNDN);
    mpfr_mul_d(x, b, 0.413, MPFR_RNDN);
    mpfr_sin(b, a, MPFR_RNDN);
    mpfr_mul_d(b, b, -1.27, MPFR_RNDN);
    mpfr_div(b, b, w, MPFR_RNDN);
    mpfr_add(x, x, b, MPFR_RNDN);
    mpfr_sub(x, x, &out->x[0], MPFR_RNDN);
    double e = fabs(mpfr_get_d(x, MPFR_RNDN));
    mpfr_clears(w, a, b, x, (mpfr_ptr)0);
    return e;
}

Test(mpfr_reference, harmonic_error_estimate_bounds_actual_error)
{
    const mb_problem_type *pt;
    mb_options *p = rt_harmonic_params(&pt);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    const long bits[2] = { 113, 256 };
    const double ceiling[2] = { 1e-25, 1e-60 };
    double times[2] = { 3.7, 10.0 };
    for (int b = 0; b < 2; b++) {
        mb_nodes_mpfr *outs[2] = { mb_nodes_mpfr_alloc(1, bits[b]), mb_nodes_mpfr_alloc(1, bits[b]) };
        mb_mpfr_reference_opts o = { bits[b], 0, 0, 0.0, 0 };
        mb_mpfr_reference_stats st;
        double err[2];
        cr_assert_eq(mb_mpfr_reference(sys, 2, times, outs, err, &o, &st), MB_SUCCESS, "%s", mb_last_error());
        for (int k = 0; k < 2; k++) {
            double actual = harmonic_actual_error(outs[k], times[k]);
            cr_expect(actual <= err[k], "%ld bits t %g: actual %g > estimate %g", bits[b], times[k],
                      actual, err[k]);
            cr_expect(err[k] < ceiling[b], "%ld bits: estimate %g", bits[b], err[k]);
        }
        cr_expect(st.macro_steps > 0 && st.rhs_evals > st.macro_steps);
        mb_nodes_mpfr_free(outs[0]);
        mb_nodes_mpfr_free(outs[1]);
    }
    mb_system_free(sys);
    mb_options_free(p);
}

static mb_system *kepler_system(double mu, double a, double e)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, 0.731);
    double x0[3], v0[3];
    mb_closed_kepler(mu, a, e, 0.0, x0, v0);
    for (int k = 0; k < 3; k++) {
        sys->nodes->x[k] = x0[k];
        sys->nodes->v[k] = v0[k];
    }
    mb_forces_add(sys->forces, &central_type, rt_dup_doubles(&mu, 1));
    return sys;
}

static double max_diff(const __mpfr_struct *a, const __mpfr_struct *b, size_t n)
{
    mpfr_t d;
    mpfr_init2(d, 1024);
    double e = 0;
    for (size_t k = 0; k < n; k++) {
        mpfr_sub(d, &a[k], &b[k], MPFR_RNDN);
        e = fmax(e, fabs(mpfr_get_d(d, MPFR_RNDN)));
    }
    mpfr_clear(d);
    return e;
}

Test(mpfr_reference, kepler_against_closed_form_and_512_bits)
{
    /* 0.2 periods through periapsis (the hardest arc): the 512-bit run stays ~1 s; over
     * longer spans the double rounding of the initial state alone moves the orbit's phase
     * by ~1e-15 per period, which would be charged to the closed-form comparison */
    const double mu = 2.385, a = 1.37, e = 0.6, t = 0.2 * mb_closed_kepler_period(mu, a);
    mb_system *sys = kepler_system(mu, a, e);
    mb_nodes_mpfr *o256 = mb_nodes_mpfr_alloc(1, 256), *o512 = mb_nodes_mpfr_alloc(1, 512);
    mb_mpfr_reference_opts p256 = { 256, 0, 0, 0.0, 0 }, p512 = { 512, 0, 0, 0.0, 0 };
    double e256, e512, x[3], v[3];
    cr_assert_eq(mb_mpfr_reference(sys, 1, &t, &o256, &e256, &p256, NULL), MB_SUCCESS);
    cr_assert_eq(mb_mpfr_reference(sys, 1, &t, &o512, &e512, &p512, NULL), MB_SUCCESS);
    double d = fmax(max_diff(o256->x, o512->x, 3), max_diff(o256->v, o512->v, 3));
    cr_expect(d <= e256, "256 vs 512 bits differ by %g, estimate %g", d, e256);
    cr_expect(e256 < 1e-60 && e512 < 1e-130, "estimates %g %g", e256, e512);
    mb_closed_kepler(mu, a, e, t, x, v);
    for (int k = 0; k < 3; k++) {
        /* positions < 1, speeds up to 4.2: 1e-15 relative to the scale */
        cr_expect(fabs(mpfr_get_d(&o256->x[k], MPFR_RNDN) - x[k]) < 1e-15, "x%d", k);
        cr_expect(fabs(mpfr_get_d(&o256->v[k], MPFR_RNDN) - v[k]) < 1e-15 * 4.2, "v%d", k);
    }
    mb_nodes_mpfr_free(o256);
    mb_nodes_mpfr_free(o512);
    mb_system_free(sys);
}

Test(mpfr_reference, asymmetric_top_against_closed_form_and_512_bits)
{
    const double I[3] = { 3.1, 1.3, 2.385 }, wb[3] = { 0.7, 1.9, 0.35 };
    double q0[4] = { 0.9, 0.2, -0.3, 0.25 }, t = 2.3;
    mb_q_normalize(q0);
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_inertia(sys->nodes, 0, I);
    for (int k = 0; k < 4; k++)
        sys->nodes->q[k] = q0[k];
    mb_q_rotate(sys->nodes->omega, q0, wb);
    mb_nodes_mpfr *o256 = mb_nodes_mpfr_alloc(1, 256), *o512 = mb_nodes_mpfr_alloc(1, 512);
    mb_mpfr_reference_opts p256 = { 256, 0, 0, 0.0, 0 }, p512 = { 512, 0, 0, 0.0, 0 };
    double e256, e512;
    cr_assert_eq(mb_mpfr_reference(sys, 1, &t, &o256, &e256, &p256, NULL), MB_SUCCESS);
    cr_assert_eq(mb_mpfr_reference(sys, 1, &t, &o512, &e512, &p512, NULL), MB_SUCCESS);
    double d = fmax(max_diff(o256->q, o512->q, 4), max_diff(o256->angmom, o512->angmom, 3));
    cr_expect(d <= e256 && e256 < 1e-60, "256 vs 512 bits differ by %g, estimate %g", d, e256);
    mb_nodes *o = mb_nodes_alloc(1, 53);
    mb_nodes_mpfr_get_double(o, o256);
    mb_closed_rigid c;
    cr_assert_eq(mb_closed_asymtop(I, q0, wb, t, &c), MB_SUCCESS);
    cr_expect(mb_q_angle_between(o->q, c.q) < 1e-13, "angle %g", mb_q_angle_between(o->q, c.q));
    cr_expect(mb_v3_dist(o->omega, c.omega) < 1e-13, "omega %g", mb_v3_dist(o->omega, c.omega));
    mb_nodes_free(o);
    mb_nodes_mpfr_free(o256);
    mb_nodes_mpfr_free(o512);
    mb_system_free(sys);
}

Test(mpfr_reference, spinup_under_constant_torque)
{
    /* torque along the body's principal axis e1, rotated into the global frame */
    const double I[3] = { 2.385, 1.3, 3.1 }, e1[3] = { 1, 0, 0 }, tau = 0.713, w0 = -0.4, t = 4.3;
    double q0[4] = { 0.9, 0.2, -0.3, 0.25 }, n[3], T[3];
    mb_q_normalize(q0);
    mb_q_rotate(n, q0, e1);
    mb_v3_scale(T, tau, n);
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_inertia(sys->nodes, 0, I);
    for (int k = 0; k < 4; k++)
        sys->nodes->q[k] = q0[k];
    mb_v3_scale(sys->nodes->omega, w0, n);
    mb_forces_add(sys->forces, &ctorque_type, rt_dup_doubles(T, 3));
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(1, 256);
    double err;
    cr_assert_eq(mb_mpfr_reference(sys, 1, &t, &m, &err, NULL, NULL), MB_SUCCESS);
    mb_nodes *o = mb_nodes_alloc(1, 53);
    mb_nodes_mpfr_get_double(o, m);
    mb_closed_rigid c;
    mb_closed_spinup(I[0], tau, w0, n, q0, t, &c);
    cr_expect(mb_q_angle_between(o->q, c.q) < 1e-14 && mb_v3_dist(o->omega, c.omega) < 1e-14,
              "angle %g omega %g", mb_q_angle_between(o->q, c.q), mb_v3_dist(o->omega, c.omega));
    cr_expect(err < 1e-60);
    mb_nodes_free(o);
    mb_nodes_mpfr_free(m);
    mb_system_free(sys);
}

Test(mpfr_reference, discontinuous_force_is_refused)
{
    const double k = 2.385;
    mb_system *sys = mb_system_alloc(1);
    sys->nodes->x[0] = 0.413;
    mb_forces_add(sys->forces, &signf_type, rt_dup_doubles(&k, 1));
    double t = 2.0, err;
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(1, 128);
    mb_mpfr_reference_opts o = { 128, 0, 0, 0.0, 0 };
    cr_expect_eq(mb_mpfr_reference(sys, 1, &t, &m, &err, &o, NULL), MB_EMAXITER);
    cr_expect(strstr(mb_last_error(), "does not converge") != NULL, "%s", mb_last_error());
    mb_nodes_mpfr_free(m);
    mb_system_free(sys);
}

Test(mpfr_reference, short_event_is_caught_by_the_consistency_check)
{
    /* k = 2.385e7, m = 1: contact 0.64 ms, penetration 0.2 mm < depth 1 mm: a bounce */
    const double wall[3] = { 2.385e7, 0.5, 1e-3 };
    mb_system *sys = mb_system_alloc(1);
    sys->nodes->x[0] = 0.501;        /* contact at t = 1 ms, like the sphere-collision set-up */
    sys->nodes->v[0] = -1.0;
    mb_forces_add(sys->forces, &wall_type, rt_dup_doubles(wall, 3));
    double t = 2.0, err;
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(1, 128);
    mb_mpfr_reference_opts unchecked = { 128, 0, 0, 0.0, 1 }, checked = { 128, 0, 0, 0.0, 0 };
    mb_mpfr_reference_stats st;
    int s0 = mb_mpfr_reference(sys, 1, &t, &m, &err, &unchecked, &st);
    /* stepped over: free flight to x = -1.499 (the true bounce ends near x = 2.5) */
    cr_expect(s0 == MB_SUCCESS && fabs(mpfr_get_d(&m->x[0], MPFR_RNDN) + 1.499) < 1e-20 && err < 1e-30,
              "unchecked run: status %d x %g (expected the silent free-flight answer)", s0,
              mpfr_get_d(&m->x[0], MPFR_RNDN));
    int s1 = mb_mpfr_reference(sys, 1, &t, &m, &err, &checked, &st);
    cr_expect_eq(s1, MB_EFAILED, "the check must refuse");
    cr_expect(strstr(mb_last_error(), "not smooth") != NULL, "%s", mb_last_error());
    mb_nodes_mpfr_free(m);
    mb_system_free(sys);
}

Test(mpfr_reference, bad_arguments)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(1, 128), *m2 = mb_nodes_mpfr_alloc(2, 128);
    double t = 1.0, back[2] = { 2.0, 1.0 }, err;
    mb_mpfr_reference_opts low = { 40, 0, 0, 0.0, 0 };
    cr_expect_eq(mb_mpfr_reference(sys, 1, &t, &m, &err, &low, NULL), MB_EDOM);
    mb_nodes_mpfr *two[2] = { m, m };
    cr_expect_eq(mb_mpfr_reference(sys, 2, back, two, NULL, NULL, NULL), MB_EDOM);
    cr_expect_eq(mb_mpfr_reference(sys, 1, &t, &m2, &err, NULL, NULL), MB_EINVAL);
    mb_nodes_mpfr_free(m);
    mb_nodes_mpfr_free(m2);
    mb_system_free(sys);
}

Test(mpfr_reference, reference_kinds_through_the_problem)
{
    const mb_problem_type *pt;
    mb_options *p = rt_harmonic_params(&pt);
    mb_reference_request req;
    cr_assert_eq(mb_reference_parse("mpfr:192", &req), MB_SUCCESS);
    cr_expect(req.kind == MB_REF_MPFR && req.mpfr_bits == 192);
    cr_expect_eq(mb_reference_parse("mpfr:64", &req), MB_EINVAL);
    cr_expect_eq(mb_reference_parse("exactly", &req), MB_EINVAL);
    mb_nodes *a = mb_nodes_alloc(1, 53), *b = mb_nodes_alloc(1, 53), *c = mb_nodes_alloc(1, 53);
    mb_reference_kind used;
    double ea, eb, ec, t = 5.3;
    mb_reference_parse("auto", &req);
    cr_assert_eq(mb_reference_state(pt, p, &req, t, a, &used, &ea), MB_SUCCESS);
    /* the closed form's estimate: its change over one ulp of t plus one ulp (a few 1e-16
     * here), checked against the mpfr value below */
    cr_expect(used == MB_REF_ANALYTIC && ea > 0.0 && ea < 1e-14, "%g", ea);
    mb_reference_parse("mpfr", &req);
    cr_assert_eq(mb_reference_state(pt, p, &req, t, b, &used, &eb), MB_SUCCESS);
    cr_expect(used == MB_REF_MPFR && eb < 1e-60);
    mb_reference_parse("ode", &req);
    cr_assert_eq(mb_reference_state(pt, p, &req, t, c, &used, &ec), MB_SUCCESS);
    cr_expect(used == MB_REF_ODE && ec < 1e-10);
    /* the closed form (double: x0 cos + v0/w sin, terms ~0.5, a few roundings) and the
     * mpfr reference (correctly rounded) agree to a few ulps of the scale 1 */
    cr_expect(fabs(a->x[0] - b->x[0]) < 1e-15 && fabs(a->v[0] - b->v[0]) < 2e-15, "%g %g",
              a->x[0] - b->x[0], a->v[0] - b->v[0]);
    cr_expect(fabs(c->x[0] - b->x[0]) <= ec);
    cr_expect(fabs(a->x[0] - b->x[0]) <= ea && fabs(a->v[0] - b->v[0]) <= ea,
              "closed form off by %g, %g; estimate %g", a->x[0] - b->x[0], a->v[0] - b->v[0], ea);
    /* several times in one integration: the same numbers as separate runs to the estimate */
    double ts[2] = { 1.1, t }, es[2];
    mb_nodes *pair[2] = { mb_nodes_alloc(1, 53), mb_nodes_alloc(1, 53) };
    mb_reference_parse("mpfr:128", &req);
    cr_assert_eq(mb_reference_states(pt, p, &req, 2, ts, pair, &used, es), MB_SUCCESS);
    cr_expect(fabs(pair[1]->x[0] - b->x[0]) <= es[1] + 1e-16 && es[0] < 1e-25 && es[1] < 1e-25);
    mb_nodes_free(pair[0]);
    mb_nodes_free(pair[1]);
    mb_nodes_mpfr *m;
    cr_assert_eq(mb_reference_state_mpfr(pt, p, t, 320, &m, &eb), MB_SUCCESS);
    cr_expect(m->prec == 320 && eb < 1e-80);
    mb_nodes_mpfr_free(m);
    mb_nodes_free(a);
    mb_nodes_free(b);
    mb_nodes_free(c);
    mb_options_free(p);
}
