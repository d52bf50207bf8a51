/* test_tangential_dashpot.c -- the tangential dashpot of the Cundall-Strack law under the
 * schemes that consume contact torques (leap-frog with its spherical rotation update,
 * verlet-nosquish, and their MPFR twins), against the closed form of a sticking contact.
 *
 * Set-up (problem sliding-rolling): a solid sphere (m = 1, r = 0.1, I = 2/5 m r^2) rests on
 * the plane at its static overlap delta0 = m g/kn, so the normal force is m g from the
 * first step and the arm a = r - delta0/2 is constant; its contact point moves at
 * u0 = v0 - a w0 = 0.01 m/s and mu = 10 keeps the contact stuck (|F_t| <= 9 N < mu m g).
 * With xi the tangential spring's extension (xi' = u, xi(0) = 0) the contact point obeys
 * (m v' = F_t, I w' = -a F_t, u = v - a w, F_t = -k_t xi - gamma_t u):
 *   xi'' = -(k_t xi + gamma_t xi') / m_t,   1/m_t = 1/m + a^2/I,
 * a damped oscillator of w_t^2 = k_t/m_t and damping ratio z = gamma_t/(2 sqrt(k_t m_t)),
 * gamma_t = 2 zeta_t sqrt(m k_t) (the law's m* = m against a plane):
 *   xi'(t) = u0 e^{-z w_t t} (cos w_d t - (z w_t/w_d) sin w_d t),  w_d = w_t sqrt(1 - z^2),
 *   v(t) = v0 + (m_t/m)(xi'(t) - u0),   w(t) = w0 - (a m_t/I)(xi'(t) - u0).
 * kn = 1e7, k_t = 2/7 kn, zeta_t = 0.1: w_t = 3162 rad/s, z = 0.187; 1.5 ms (0.75 of a
 * period, the amplitude falls to 0.41).
 * Tolerance.  The schemes are first order here, because the dashpot acts on a lagged
 * velocity of the contact point: the leap-frog evaluates at x_n with v and w at t - h/2,
 * so u is off by -(h/2) u' = -(h/2) F_t/m_t; verlet-nosquish evaluates at t + h with the
 * predicted v_p (second order) but w from L(t + h/2), so u is off by the rotational share
 * alone, -(h/2)(a^2/I) F_t, the fraction f = m_t a^2/I = 0.714 of the leap-frog's lag;
 * Solfec, one force evaluation per step, applies a velocity from within the step over the
 * whole step: a lag of at most h, f <= 2.  The lag -(h/2) f F_t/m_t = (h/2) f (k_t xi +
 * gamma_t u)/m_t makes the dashpot a spring of relative stiffness -z w_t h f, which shifts
 * the frequency by -z w_t h f/2: a phase error z f (w_t h)(w_t t)/2 of the amplitude
 * A = (m_t/m) u0 after t.  Bound: twice that at t_end, plus (w_t h)^2 w_t t_end/4 (the
 * leap-frog's phase error (w h)^2 w t/24 times 6, the second-order part): at h = 2e-5, 1e-5,
 * 5e-6, 0.061, 0.029, 0.014 (leap-frog; measured 0.031, 0.015, 0.0077), 0.045, 0.021, 0.010
 * (verlet-nosquish; measured 0.022, 0.011, 0.0055: 0.72 of the leap-frog's, as f says),
 * 0.117, 0.057, 0.028 (Solfec; measured 0.043, 0.022, 0.011), v and a w alike, the 113-bit
 * twins as the double runs; and the observed order within 0.3 of 1.
 * Negative control: the finest runs against the closed form without the dashpot (z = 0)
 * are off by more than 10 times their bound: a law that drops the dashpot fails (the fault
 * fric-tangential-dashpot-dropped of tests/mutants/catalogue). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mb_options.h"
#include "mb_problem.h"
#include "mb_status.h"
#include "mb_stepper.h"

#define M 1.0
#define R 0.1
#define G 9.81
#define KN 1e7
#define ZETA_T 0.1
#define U0 0.01
#define V0 2.0
#define T_END 1.5e-3

struct stick {
    double a, I, mt, wt, z, w0;
};

static struct stick stick_params(void)
{
    struct stick s;
    s.a = R - 0.5 * M * G / KN;
    s.I = 0.4 * M * R * R;
    s.mt = 1.0 / (1.0 / M + s.a * s.a / s.I);
    const double kt = 2.0 / 7.0 * KN, gamma = 2.0 * ZETA_T * sqrt(M * kt);
    s.wt = sqrt(kt / s.mt);
    s.z = gamma / (2.0 * sqrt(kt * s.mt));
    s.w0 = (V0 - U0) / s.a;
    return s;
}

/* v(t) of the closed form with damping ratio z */
static double v_exact(const struct stick *s, double z, double t)
{
    const double wd = s->wt * sqrt(1.0 - z * z), e = exp(-z * s->wt * t);
    const double xid = U0 * e * (cos(wd * t) - z * s->wt / wd * sin(wd * t));
    return V0 + s->mt / M * (xid - U0);
}

/* Largest |v - v_exact(z)| / A over the on-step states of `scheme` (twin: its MPFR twin at
 * 113 bits) at step h; the closed form's w checked alongside (the torque's share). */
static double run_error(const char *scheme, int twin, double h, double z)
{
    const struct stick s = stick_params();
    char w0[64], kn[32];
    snprintf(w0, sizeof w0, "omega0=%.17g", s.w0);
    snprintf(kn, sizeof kn, "kn=%.17g", KN);
    const char *pairs[] = { "mass=1", "radius=0.1", "v0=2", "g=9.81", "mu=10", "mu_roll=0",
                            kn, "zeta=0.3", "kt_ratio=0.2857142857142857", "zeta_t=0.1", w0,
                            NULL };
    const mb_problem_type *pt;
    mb_options *given = mb_options_new(), *par;
    mb_system *sys;
    for (size_t k = 0; pairs[k] != NULL; k++)
        cr_assert_eq(mb_options_set_pair(given, pairs[k]), MB_SUCCESS, "%s", pairs[k]);
    cr_assert_eq(mb_problem_prepare("sliding-rolling", given, &pt, &par), MB_SUCCESS, "%s",
                 mb_last_error());
    cr_assert_eq(pt->setup(par, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_system_mpfr *tw = twin ? mb_system_mpfr_alloc_twin(sys, 113) : NULL;
    mb_nodes_mpfr *on_m = twin ? mb_nodes_mpfr_alloc(1, 113) : NULL;
    mb_stepper *st = twin ? mb_stepper_alloc_twin(scheme, tw) : mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    mb_nodes *on = mb_nodes_alloc(1, 53);
    const double A = s.mt / M * U0;
    double worst = 0.0;
    long n = lround(T_END / h);
    for (long k = 1; k <= n; k++) {
        if (twin) {
            cr_assert_eq(mb_stepper_step_twin(st, tw, h), MB_SUCCESS, "%s", mb_last_error());
            cr_assert_eq(mb_stepper_on_step_twin(st, tw, on_m), MB_SUCCESS);
            cr_assert_eq(mb_nodes_mpfr_get_double(on, on_m), MB_SUCCESS);
        } else {
            cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
            cr_assert_eq(mb_stepper_on_step(st, sys, on), MB_SUCCESS);
        }
        const double t = (double)k * h, ve = v_exact(&s, z, t);
        const double we = s.w0 - s.a * (M / s.I) * (ve - V0);     /* I w' = -a m v' */
        worst = fmax(worst, fabs(on->v[0] - ve) / A);
        worst = fmax(worst, fabs(on->omega[1] - we) * s.a / A);
    }
    mb_nodes_free(on);
    mb_stepper_free(st);
    mb_nodes_mpfr_free(on_m);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
    mb_options_free(par);
    mb_options_free(given);
    return worst;
}

/* the share of the leap-frog's velocity lag a scheme's dashpot sees (see the header) */
static double lag_fraction(const char *scheme)
{
    const struct stick s = stick_params();
    if (strcmp(scheme, "verlet-nosquish") == 0)
        return s.mt * s.a * s.a / s.I;
    return strcmp(scheme, "solfec") == 0 ? 2.0 : 1.0;
}

static double bound(const char *scheme, double h)
{
    const struct stick s = stick_params();
    const double wh = s.wt * h, wt = s.wt * T_END;
    return s.z * lag_fraction(scheme) * wh * wt + wh * wh * wt / 4.0;
}

static void check_scheme(const char *scheme, int twin)
{
    const struct stick s = stick_params();
    const double h[3] = { 2e-5, 1e-5, 5e-6 };
    double e[3];
    for (int k = 0; k < 3; k++) {
        e[k] = run_error(scheme, twin, h[k], s.z);
        cr_log_info("%s%s h = %g: max error %.3g of the amplitude (bound %.3g)", scheme,
                    twin ? " (113-bit twin)" : "", h[k], e[k], bound(scheme, h[k]));
        cr_expect(e[k] < bound(scheme, h[k]), "%s h = %g: error %g above %g", scheme, h[k],
                  e[k], bound(scheme, h[k]));
    }
    for (int k = 0; k < 2; k++) {
        const double order = log2(e[k] / e[k + 1]);
        cr_expect(fabs(order - 1.0) < 0.3, "%s: observed order %.3f between h = %g and %g",
                  scheme, order, h[k], h[k + 1]);
    }
    /* negative control: the closed form without the dashpot is far from the runs */
    const double undamped = run_error(scheme, twin, h[2], 0.0);
    cr_log_info("%s: against the undamped closed form %.3g", scheme, undamped);
    cr_expect(undamped > 10.0 * bound(scheme, h[2]), "%s: the dashpot does not show (%g)",
              scheme, undamped);
}

Test(tangential_dashpot, sticking_contact_is_stuck)
{
    const struct stick s = stick_params();
    const double ft_max = s.mt * U0 * s.wt * (1.0 + 2.0 * s.z);  /* |m_t xi''| <= this */
    cr_assert(ft_max < 10.0 * M * G, "the set-up slides: |F_t| up to %g", ft_max);
}

Test(tangential_dashpot, leapfrog) { check_scheme("leapfrog", 0); }

Test(tangential_dashpot, verlet_nosquish) { check_scheme("verlet-nosquish", 0); }

Test(tangential_dashpot, leapfrog_twin) { check_scheme("leapfrog", 1); }

Test(tangential_dashpot, verlet_nosquish_twin) { check_scheme("verlet-nosquish", 1); }

Test(tangential_dashpot, solfec) { check_scheme("solfec", 0); }
