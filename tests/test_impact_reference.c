/* test_impact_reference.c -- the event-located impact reference (mb_impact_reference.h)
 * against closed forms derived independently of it:
 *   - normal impact, clamped linear spring-dashpot: restitution, force time and overlap
 *     duration (Schwager & Poeschel 2007, mb_closed_contact.h), sphere-plane and two equal
 *     spheres (m* = m/2);
 *   - undamped Hertz between two spheres: duration (4/5) B(2/5, 1/2) d_max / v, e = 1;
 *   - oblique impact in gross sliding, undamped linear normal law, rigid arms: the impulse
 *     solution (doc/dem.md): v_x' = v_x - mu (1 + e) V, w' = w + R mu (1 + e) m V / I;
 *   - the stick regime of the linear-linear law (Thornton, Cummins & Cleary 2011, Powder
 *     Technol. 210, the linear model's sticking oscillation; derived in doc/dem.md):
 *     u_t(t) = u0 cos(W t), |T| = k_t u0 sin(W t) / W, W^2 = k_t (1/m + R^2/I), and the
 *     stick -> slip time as the first root of mu k_n (V/w_n) sin(w_n t) = |T(t)|;
 *   - two spheres in an oblique, spinning, frictional impact: total momentum and angular
 *     momentum about the origin conserved (forces equal and opposite at one point).
 * Tolerances: the reference runs rk8pd at tol = 1e-13 (relative, absolute in units of each
 * state number's scale) over about 100 steps of the contact, and locates events to 4 ulp
 * of t; its velocities and event times then agree with the closed forms to about 1e-12
 * relative (measured: at most 1.6e-13).  The tests ask for 1e-10 relative: three orders
 * above what is seen, far below any modelling fault (the mutants of
 * tests/mutants/catalogue move these quantities by 1e-3 or more). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "mb_closed_contact.h"
#include "mb_impact_reference.h"
#include "mb_status.h"

#define TOL 1e-13
#define REL 1e-10

static mb_impact_params sphere_plane_linear(double kn, double cn, double kt, double mu)
{
    mb_impact_params p = { .plane = 1, .mass = { 0.2, 0 }, .radius = { 0.01, 0 },
                           .normal = MB_IMPACT_NORMAL_LINEAR, .kn = kn, .cn = cn,
                           .tangential = MB_IMPACT_TANGENTIAL_LINEAR, .kt = kt, .mu = mu };
    p.inertia[0] = 0.4 * p.mass[0] * p.radius[0] * p.radius[0];
    return p;
}

/* sphere above the plane, touching at time gap / V */
static mb_impact_state falling(const mb_impact_params *p, double vx, double V, double w,
                               double gap)
{
    mb_impact_state s = { .t = 0.0 };
    s.x[0][0] = 0.0;
    s.x[0][1] = p->radius[0] + gap;
    s.v[0][0] = vx;
    s.v[0][1] = -V;
    s.w[0] = w;
    return s;
}

static double event_time(const mb_impact_events *ev, int kind)
{
    for (size_t k = 0; k < ev->count; k++)
        if (ev->kind[k] == kind)
            return ev->t[k];
    return NAN;
}

static void near(double got, double want, double rel, const char *what)
{
    cr_expect(fabs(got - want) <= rel * fabs(want), "%s: %.17g, want %.17g (rel %.3g)", what,
              got, want, fabs(got - want) / fabs(want));
}

Test(impact_reference, normal_linear_dashpot_sphere_plane)
{
    double kn = 1e5, zeta = 0.2, m = 0.2, V = 1.5;
    double cn = 2.0 * zeta * sqrt(m * kn);
    mb_impact_params p = sphere_plane_linear(kn, cn, 0.8 * kn, 0.3);
    mb_impact_state s0 = falling(&p, 0.0, V, 0.0, 1e-4), s;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference(&p, &s0, 0.01, TOL, &s, &ev), 0);
    double t0 = event_time(&ev, MB_IMPACT_CONTACT_START);
    near(t0, 1e-4 / V, REL, "contact start");
    near(s.v[0][1], V * mb_closed_linear_clamped_restitution(zeta), REL, "rebound speed");
    near(event_time(&ev, MB_IMPACT_FORCE_END) - t0,
         mb_closed_linear_clamped_force_time(kn, m, zeta), REL, "force time");
    near(event_time(&ev, MB_IMPACT_OVERLAP_END) - t0,
         mb_closed_linear_clamped_duration(kn, m, zeta), REL, "overlap duration");
    cr_expect_eq(s.v[0][0], 0.0, "a normal impact has no tangential velocity");
    cr_expect_eq(s.w[0], 0.0, "a normal impact has no spin");
}

Test(impact_reference, normal_linear_dashpot_two_spheres)
{
    double kn = 1e5, zeta = 0.1, m = 0.2, V = 2.0, R = 0.01;
    double meff = 0.5 * m, cn = 2.0 * zeta * sqrt(meff * kn);
    mb_impact_params p = { .mass = { m, m }, .radius = { R, R }, .inertia = { 0.4 * m * R * R, 0.4 * m * R * R },
                           .normal = MB_IMPACT_NORMAL_LINEAR, .kn = kn, .cn = cn,
                           .tangential = MB_IMPACT_TANGENTIAL_LINEAR, .kt = kn, .mu = 0.5 };
    mb_impact_state s0 = { .t = 0.0 }, s;
    s0.x[0][0] = -R - 1e-4; s0.v[0][0] = 0.5 * V;
    s0.x[1][0] = R + 1e-4;  s0.v[1][0] = -0.5 * V;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference(&p, &s0, 0.01, TOL, &s, &ev), 0);
    double e = mb_closed_linear_clamped_restitution(zeta), t0 = event_time(&ev, MB_IMPACT_CONTACT_START);
    near(s.v[1][0] - s.v[0][0], e * V, REL, "separation speed");
    near(event_time(&ev, MB_IMPACT_FORCE_END) - t0,
         mb_closed_linear_clamped_force_time(kn, meff, zeta), REL, "force time");
    near(event_time(&ev, MB_IMPACT_OVERLAP_END) - t0,
         mb_closed_linear_clamped_duration(kn, meff, zeta), REL, "overlap duration");
}

Test(impact_reference, hertz_two_spheres_duration)
{
    /* Chung & Ooi's test 1 material: E = 4.8e10 Pa, nu = 0.2, R = 0.01 m, rho = 2800 */
    double E = 4.8e10, nu = 0.2, R = 0.01, rho = 2800.0, V = 10.0;
    double m = 4.0 / 3.0 * M_PI * R * R * R * rho, estar = E / (2.0 * (1.0 - nu * nu));
    double gstar = E / (4.0 * (1.0 + nu) * (2.0 - nu));
    mb_impact_params p = { .mass = { m, m }, .radius = { R, R }, .inertia = { 0.4 * m * R * R, 0.4 * m * R * R },
                           .normal = MB_IMPACT_NORMAL_HERTZ, .estar = estar, .gstar = gstar,
                           .tangential = MB_IMPACT_TANGENTIAL_MINDLIN, .mu = 0.35 };
    mb_impact_state s0 = { .t = 0.0 }, s;
    s0.x[0][0] = -R - 1e-6; s0.v[0][0] = 0.5 * V;
    s0.x[1][0] = R + 1e-6;  s0.v[1][0] = -0.5 * V;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference(&p, &s0, 2e-4, TOL, &s, &ev), 0);
    double tc = mb_closed_hertz_duration(0.5 * m, 0.5 * R, estar, V);
    near(event_time(&ev, MB_IMPACT_FORCE_END) - event_time(&ev, MB_IMPACT_CONTACT_START), tc, REL,
         "Hertz duration");
    near(s.v[1][0] - s.v[0][0], V, REL, "elastic rebound");
}

/* gross sliding: u_x0 = 10 mu V > 7 mu V (e = 1, solid sphere), and the spring slides at
 * once: k_t u_x0 = (2/7) 10 mu k_n V > mu k_n V */
Test(impact_reference, oblique_gross_sliding_impulse_solution)
{
    double kn = 1e5, mu = 0.3, V = 1.0, m = 0.2, R = 0.01;
    mb_impact_params p = sphere_plane_linear(kn, 0.0, 2.0 / 7.0 * kn, mu);
    p.rigid_arms = 1;
    double vx = 10.0 * mu * V, I = p.inertia[0];
    mb_impact_state s0 = falling(&p, vx, V, 0.0, 1e-5), s;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference(&p, &s0, 0.01, TOL, &s, &ev), 0);
    for (size_t k = 0; k < ev.count; k++)
        cr_expect(ev.kind[k] != MB_IMPACT_STICK_TO_SLIP && ev.kind[k] != MB_IMPACT_SLIP_TO_STICK,
                  "gross sliding never sticks (event %d at %g)", ev.kind[k], ev.t[k]);
    near(s.v[0][1], V, REL, "normal rebound (e = 1)");
    near(s.v[0][0], vx - 2.0 * mu * V, REL, "tangential velocity");
    near(s.w[0], R * mu * 2.0 * m * V / I, REL, "spin");
    near(atan2(s.v[0][0], s.v[0][1]), atan2(vx - 2.0 * mu * V, V), REL, "rebound angle");
}

/* the first root of mu k_n (V/wn) sin(wn t) - k_t (u0/W) |sin(W t)| after t = pi/W */
static double stick_end(double a, double wn, double b, double W)
{
    double lo = M_PI / W, hi = M_PI / wn;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (a * sin(wn * mid) - b * fabs(sin(W * mid)) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

Test(impact_reference, stick_regime_linear_linear)
{
    double kn = 1e5, kt = 0.8 * kn, mu = 0.3, V = 1.0, m = 0.2, R = 0.01;
    mb_impact_params p = sphere_plane_linear(kn, 0.0, kt, mu);
    p.rigid_arms = 1;
    double I = p.inertia[0], W = sqrt(kt * (1.0 / m + R * R / I)), wn = sqrt(kn / m);
    double u0 = 0.5 * mu * kn * V / kt;       /* sticks at first touch: k_t u0 < mu k_n V */
    mb_impact_state s0 = falling(&p, u0, V, 0.0, 1e-5), s;
    mb_impact_events ev;
    double t0 = 1e-5 / V, tin = 0.6 * M_PI / W;
    cr_assert_eq(mb_impact_reference(&p, &s0, t0 + tin, TOL, &s, &ev), 0);
    cr_assert_eq(ev.count, 1, "only the contact start before %g", tin);
    near(s.v[0][0] - R * s.w[0], u0 * cos(W * tin), REL * 10.0, "slip velocity while sticking");
    cr_assert_eq(mb_impact_reference(&p, &s0, 0.01, TOL, &s, &ev), 0);
    cr_assert(ev.count >= 2);
    cr_expect_eq(ev.kind[1], MB_IMPACT_STICK_TO_SLIP);
    near(ev.t[1] - ev.t[0], stick_end(mu * kn * V / wn, wn, kt * u0 / W, W), REL,
         "stick -> slip time");
}

Test(impact_reference, two_spheres_conserve_momenta)
{
    double kn = 1e5, m1 = 0.2, m2 = 0.5, R1 = 0.01, R2 = 0.02;
    mb_impact_params p = { .mass = { m1, m2 }, .radius = { R1, R2 },
                           .inertia = { 0.4 * m1 * R1 * R1, 0.4 * m2 * R2 * R2 },
                           .normal = MB_IMPACT_NORMAL_LINEAR, .kn = kn, .cn = 3.0,
                           .tangential = MB_IMPACT_TANGENTIAL_LINEAR, .kt = 0.5 * kn, .mu = 0.3 };
    mb_impact_state s0 = { .t = 0.0 }, s;
    s0.x[0][0] = -0.02; s0.x[0][1] = 0.004; s0.v[0][0] = 1.0; s0.v[0][1] = 0.3; s0.w[0] = 50.0;
    s0.x[1][0] = 0.012; s0.x[1][1] = -0.002; s0.v[1][0] = -0.5; s0.w[1] = -20.0;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference(&p, &s0, 0.05, TOL, &s, &ev), 0);
    cr_assert(ev.count >= 3, "the spheres meet (%zu events)", ev.count);
    double P0[2] = { 0, 0 }, P1[2] = { 0, 0 }, L0 = 0, L1 = 0, m[2] = { m1, m2 };
    for (int b = 0; b < 2; b++) {
        for (int k = 0; k < 2; k++) {
            P0[k] += m[b] * s0.v[b][k];
            P1[k] += m[b] * s.v[b][k];
        }
        L0 += m[b] * (s0.x[b][1] * s0.v[b][0] - s0.x[b][0] * s0.v[b][1]) + p.inertia[b] * s0.w[b];
        L1 += m[b] * (s.x[b][1] * s.v[b][0] - s.x[b][0] * s.v[b][1]) + p.inertia[b] * s.w[b];
    }
    double pscale = m1 * 1.0, lscale = m1 * 0.02 * 1.0;
    cr_expect(fabs(P1[0] - P0[0]) <= REL * pscale && fabs(P1[1] - P0[1]) <= REL * pscale,
              "momentum (%g, %g) -> (%g, %g)", P0[0], P0[1], P1[0], P1[1]);
    cr_expect(fabs(L1 - L0) <= REL * lscale, "angular momentum %.17g -> %.17g", L0, L1);
}

Test(impact_reference, refuses_bad_parameters)
{
    mb_impact_params p = sphere_plane_linear(1e5, 0.0, 1e5, -0.1);
    mb_impact_state s0 = falling(&p, 0.0, 1.0, 0.0, 1e-4), s;
    cr_expect_neq(mb_impact_reference(&p, &s0, 0.01, TOL, &s, NULL), 0, "mu < 0");
    p.mu = 0.3;
    p.kt = NAN;
    cr_expect_neq(mb_impact_reference(&p, &s0, 0.01, TOL, &s, NULL), 0, "k_t NaN");
    p.kt = 1e5;
    s0.x[0][1] = 0.5 * p.radius[0];
    cr_expect_neq(mb_impact_reference(&p, &s0, 0.01, TOL, &s, NULL), 0, "overlap at start");
}

/* ---- the MPFR version (113 bits) ----
 * Its event times are doubles, located to adjacent doubles by bisection; against closed
 * forms evaluated in double it agrees to 6.1e-15 relative at most (measured; the largest
 * is the contact start, from the rounding of the initial height R + gap), and is held to
 * 1e-14.  On the Hertz-Mindlin two-sphere impact the rk8pd version differs from it by at
 * most 1.7e-13 relative in event times and 4e-13 of the speed scale (measured), held to
 * REL. */
#define REL_MPFR 1e-14
#define BITS 113

Test(impact_reference_mpfr, normal_linear_dashpot_sphere_plane)
{
    double kn = 1e5, zeta = 0.2, m = 0.2, V = 1.5;
    mb_impact_params p = sphere_plane_linear(kn, 2.0 * zeta * sqrt(m * kn), 0.8 * kn, 0.3);
    mb_impact_state s0 = falling(&p, 0.0, V, 0.0, 1e-4), s;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference_mpfr(&p, &s0, 0.01, BITS, &s, &ev), 0);
    double t0 = event_time(&ev, MB_IMPACT_CONTACT_START);
    near(t0, 1e-4 / V, REL_MPFR, "contact start");
    near(s.v[0][1], V * mb_closed_linear_clamped_restitution(zeta), REL_MPFR, "rebound speed");
    near(event_time(&ev, MB_IMPACT_FORCE_END) - t0,
         mb_closed_linear_clamped_force_time(kn, m, zeta), REL_MPFR, "force time");
    near(event_time(&ev, MB_IMPACT_OVERLAP_END) - t0,
         mb_closed_linear_clamped_duration(kn, m, zeta), REL_MPFR, "overlap duration");
}

Test(impact_reference_mpfr, oblique_gross_sliding_impulse_solution)
{
    double kn = 1e5, mu = 0.3, V = 1.0, m = 0.2, R = 0.01;
    mb_impact_params p = sphere_plane_linear(kn, 0.0, 2.0 / 7.0 * kn, mu);
    p.rigid_arms = 1;
    double vx = 10.0 * mu * V;
    mb_impact_state s0 = falling(&p, vx, V, 0.0, 1e-5), s;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference_mpfr(&p, &s0, 0.01, BITS, &s, &ev), 0);
    near(s.v[0][1], V, REL_MPFR, "normal rebound (e = 1)");
    near(s.v[0][0], vx - 2.0 * mu * V, REL_MPFR, "tangential velocity");
    near(s.w[0], R * mu * 2.0 * m * V / p.inertia[0], REL_MPFR, "spin");
}

Test(impact_reference_mpfr, stick_to_slip_time)
{
    double kn = 1e5, kt = 0.8 * kn, mu = 0.3, V = 1.0, m = 0.2, R = 0.01;
    mb_impact_params p = sphere_plane_linear(kn, 0.0, kt, mu);
    p.rigid_arms = 1;
    double W = sqrt(kt * (1.0 / m + R * R / p.inertia[0])), wn = sqrt(kn / m);
    double u0 = 0.5 * mu * kn * V / kt;
    mb_impact_state s0 = falling(&p, u0, V, 0.0, 1e-5), s;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference_mpfr(&p, &s0, 0.01, BITS, &s, &ev), 0);
    cr_assert(ev.count >= 2);
    cr_expect_eq(ev.kind[1], MB_IMPACT_STICK_TO_SLIP);
    near(ev.t[1] - ev.t[0], stick_end(mu * kn * V / wn, wn, kt * u0 / W, W), REL_MPFR,
         "stick -> slip time");
}

/* the two versions agree on an oblique, spinning, frictional two-sphere impact with Hertz
 * and Mindlin (no closed form): within the rk8pd version's REL */
Test(impact_reference_mpfr, agrees_with_rk8pd_two_spheres_hertz_mindlin)
{
    double E = 7e10, nu = 0.33, R1 = 0.0025, R2 = 0.004, rho = 2700.0;
    double m1 = 4.0 / 3.0 * M_PI * R1 * R1 * R1 * rho, m2 = 4.0 / 3.0 * M_PI * R2 * R2 * R2 * rho;
    mb_impact_params p = { .mass = { m1, m2 }, .radius = { R1, R2 },
                           .inertia = { 0.4 * m1 * R1 * R1, 0.4 * m2 * R2 * R2 },
                           .normal = MB_IMPACT_NORMAL_HERTZ, .estar = E / (2.0 * (1.0 - nu * nu)),
                           .gstar = E / (4.0 * (1.0 + nu) * (2.0 - nu)),
                           .tangential = MB_IMPACT_TANGENTIAL_MINDLIN, .mu = 0.1 };
    mb_impact_state s0 = { .t = 0.0 }, a, b;
    double dz = 0.002;                        /* line of centres 18 degrees off x at touch */
    s0.x[0][0] = -sqrt((R1 + R2) * (R1 + R2) - dz * dz) - 1e-5;
    s0.x[0][1] = dz; s0.v[0][0] = 3.0; s0.v[0][1] = -0.5; s0.w[0] = 400.0;
    mb_impact_events ea, eb;
    cr_assert_eq(mb_impact_reference(&p, &s0, 3e-5, TOL, &a, &ea), 0);
    cr_assert_eq(mb_impact_reference_mpfr(&p, &s0, 3e-5, BITS, &b, &eb), 0);
    cr_assert_eq(ea.count, eb.count, "events: %zu and %zu", ea.count, eb.count);
    cr_assert(ea.count >= 2, "the spheres meet");
    for (size_t k = 0; k < ea.count; k++) {
        cr_expect_eq(ea.kind[k], eb.kind[k]);
        near(ea.t[k], eb.t[k], REL, "event time");
    }
    double vs = 3.0, ws = vs / R1;
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 2; k++)
            cr_expect(fabs(a.v[i][k] - b.v[i][k]) <= REL * vs, "v[%d][%d] %.17g %.17g", i, k,
                      a.v[i][k], b.v[i][k]);
        cr_expect(fabs(a.w[i] - b.w[i]) <= REL * ws, "w[%d] %.17g %.17g", i, a.w[i], b.w[i]);
    }
}

/* Chung & Ooi's test 4 at 10 deg (cases/dem-impact/chung-ooi-4-oblique-10deg.case): an
 * alumina sphere on a rigid plane, Hertz with the tangential law `form`, arms R - delta/2;
 * with the total form it slides from first touch, sticks, and slides again */
static mb_impact_params alumina_on_plane(int form)
{
    double R = 0.0025, E = 3.8e11, nu = 0.23, m = 4000.0 * 4.0 / 3.0 * M_PI * R * R * R;
    double estar = E / (1.0 - nu * nu), ratio = 2.0 * (1.0 - nu) / (2.0 - nu);
    mb_impact_params p = { .plane = 1, .mass = { m, 0 }, .radius = { R, 0 },
                           .inertia = { 0.4 * m * R * R, 0 }, .normal = MB_IMPACT_NORMAL_HERTZ,
                           .estar = estar, .gstar = ratio * estar / 4.0, .tangential = form,
                           .mu = 0.092 };
    return p;
}

/* One MPFR run of the total Mindlin form at BITS bits (the costliest computation of this
 * file) serves two comparisons:
 *  - the two versions of the total form agree, event by event, within the rk8pd version's
 *    REL (its error at tol 1e-13 is about 1e-12 relative, header);
 *  - at BITS (113) and 160 bits the total form gives the same doubles to within the event
 *    location's rounding: every event time is a double located to adjacent doubles, and
 *    the state moves by |dv/dt| ulp(t) through it (the accelerations jump at no event of
 *    an undamped Hertz contact: F_n = 0 at touch and lift-off, T continuous at stick <->
 *    slip), so the final state agrees to a few ulp of its scale; asked: 64 ulp. */
Test(impact_reference_mpfr, total_mindlin_agrees_with_rk8pd_and_settles_with_the_precision)
{
    mb_impact_params p = alumina_on_plane(MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL);
    mb_impact_state s0 = falling(&p, 0.677227892901028, 3.84075023674761, 0.0, 1e-6), a, b, c;
    mb_impact_events ea, eb;
    cr_assert_eq(mb_impact_reference(&p, &s0, 1.5e-5, TOL, &a, &ea), 0);
    cr_assert_eq(mb_impact_reference_mpfr(&p, &s0, 1.5e-5, BITS, &b, &eb), 0, "%s",
                 mb_last_error());
    cr_assert_eq(ea.count, eb.count, "events: %zu and %zu", ea.count, eb.count);
    cr_assert(ea.count >= 4 && ea.kind[1] == MB_IMPACT_SLIP_TO_STICK
              && ea.kind[2] == MB_IMPACT_STICK_TO_SLIP, "slip, stick, slip");
    for (size_t k = 0; k < ea.count; k++) {
        cr_expect_eq(ea.kind[k], eb.kind[k]);
        near(ea.t[k], eb.t[k], REL, "event time");
    }
    double vs = 3.9, ws = vs / p.radius[0], u = 64 * DBL_EPSILON;
    for (int k = 0; k < 2; k++)
        cr_expect(fabs(a.v[0][k] - b.v[0][k]) <= REL * vs, "v[%d] %.17g %.17g", k, a.v[0][k],
                  b.v[0][k]);
    cr_expect(fabs(a.w[0] - b.w[0]) <= REL * ws, "w %.17g %.17g", a.w[0], b.w[0]);
    /* the same at 160 bits, to 64 ulp */
    cr_assert_eq(mb_impact_reference_mpfr(&p, &s0, 1.5e-5, 160, &c, NULL), 0);
    for (int k = 0; k < 2; k++)
        cr_expect(fabs(b.v[0][k] - c.v[0][k]) <= u * vs, "v[%d] %.17g %.17g", k, b.v[0][k],
                  c.v[0][k]);
    cr_expect(fabs(b.w[0] - c.w[0]) <= u * ws, "w %.17g %.17g", b.w[0], c.w[0]);
    /* control: the form without k_t's change (MINDLIN) rebounds with another spin (193
     * against 203 rad/s), far beyond REL */
    mb_impact_params q = alumina_on_plane(MB_IMPACT_TANGENTIAL_MINDLIN);
    cr_assert_eq(mb_impact_reference_mpfr(&q, &s0, 1.5e-5, BITS, &b, NULL), 0);
    cr_expect(fabs(a.w[0] - b.w[0]) > 1e3 * REL * ws, "the forms are not told apart");
}

/* gross sliding from touch to lift-off (6 G* |u_t| > mu E* delta' at touch, and the
 * contact point never stops): T = -mu F_n throughout, so with rigid arms the impulse
 * solution holds for the total form as for any other, e = 1 (undamped Hertz) */
Test(impact_reference_mpfr, total_mindlin_gross_sliding_impulse_solution)
{
    mb_impact_params p = alumina_on_plane(MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL);
    p.rigid_arms = 1;
    double V = 1.95, vx = 3.38, m = p.mass[0], R = p.radius[0], mu = p.mu;
    cr_assert(6.0 * p.gstar * vx > mu * p.estar * V, "must slide from first touch");
    mb_impact_state s0 = falling(&p, vx, V, 0.0, 1e-6), s;
    mb_impact_events ev;
    cr_assert_eq(mb_impact_reference_mpfr(&p, &s0, 1.5e-5, BITS, &s, &ev), 0);
    for (size_t k = 0; k < ev.count; k++)
        cr_expect(ev.kind[k] != MB_IMPACT_SLIP_TO_STICK, "it stuck at %g", ev.t[k]);
    near(s.v[0][1], V, REL_MPFR, "normal rebound (e = 1)");
    near(s.v[0][0], vx - 2.0 * mu * V, REL_MPFR, "tangential velocity");
    near(s.w[0], R * mu * 2.0 * m * V / p.inertia[0], REL_MPFR, "spin");
}
