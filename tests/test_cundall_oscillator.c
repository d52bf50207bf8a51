/* test_cundall_oscillator.c -- the closed form of the Cundall-damped spring oscillator
 * (src/problems/cundall_oscillator.c) checked against what it claims, without a scheme:
 * continuity of x and v at every quarter-cycle switch, turning points every
 * pi/w- + pi/w+ with amplitude ratio (1 - lambda)/(1 + lambda), and the piecewise ODE
 * m x'' = -k (1 -+ lambda) x by central differences.  lambda = 0 must reduce it to the
 * undamped harmonic closed form. */
#include <criterion/criterion.h>
#include <math.h>

#include "lf_run.h"

static const double M = 2.385, K = 7.31, X0 = 0.413, LAMBDA = 0.2;

Test(cundall_oscillator, turning_points_and_ratio)
{
    lf_run *r = lf_run_new("cundall-oscillator[lambda=0.2]", "leapfrog[damping=0.2]");
    double wm = sqrt(K * (1 - LAMBDA) / M), wp = sqrt(K * (1 + LAMBDA) / M);
    double period = M_PI / wm + M_PI / wp, ratio = (1 - LAMBDA) / (1 + LAMBDA);
    for (int c = 1; c <= 4; c++) {
        const mb_nodes *ex = lf_run_exact(r, c * period);
        cr_expect(fabs(ex->x[0] - X0 * pow(ratio, c)) < 1e-14, "cycle %d amplitude %.17g vs %.17g",
                  c, ex->x[0], X0 * pow(ratio, c));
        cr_expect(fabs(ex->v[0]) < 1e-13, "cycle %d velocity %.3g at the turning point", c, ex->v[0]);
    }
    /* continuity across the switches (quarter boundaries) */
    double tq = M_PI / (2 * wm);
    double eps = 1e-9;
    const mb_nodes *a = lf_run_exact(r, tq - eps);
    double xa = a->x[0], va = a->v[0];
    const mb_nodes *b = lf_run_exact(r, tq + eps);
    cr_expect(fabs(b->x[0] - xa) < 1e-8 && fabs(b->v[0] - va) < 1e-8, "discontinuous at the switch");
    lf_run_free(r);
}

Test(cundall_oscillator, piecewise_ode)
{
    lf_run *r = lf_run_new("cundall-oscillator[lambda=0.2]", "leapfrog[damping=0.2]");
    const double d = 1e-4;
    for (int k = 0; k < 20; k++) {
        double t = 0.113 + 0.37 * k, xp, xm, xc, vc;
        xp = lf_run_exact(r, t + d)->x[0];
        xm = lf_run_exact(r, t - d)->x[0];
        const mb_nodes *c = lf_run_exact(r, t);
        xc = c->x[0];
        vc = c->v[0];
        double acc = (xp - 2 * xc + xm) / (d * d);
        double F = -K * xc, sg = (F * vc > 0) - (F * vc < 0);
        double ref = F * (1 - LAMBDA * sg) / M;
        cr_expect(fabs(acc - ref) < 1e-6, "t=%g: x'' %.10g vs %.10g", t, acc, ref);
    }
    lf_run_free(r);
}

Test(cundall_oscillator, undamped_limit_is_harmonic)
{
    lf_run *r = lf_run_new("cundall-oscillator[lambda=0]", "leapfrog");
    double w = sqrt(K / M);
    for (int k = 0; k < 10; k++) {
        double t = 0.77 * k;
        const mb_nodes *ex = lf_run_exact(r, t);
        cr_expect(fabs(ex->x[0] - X0 * cos(w * t)) < 1e-14, "t=%g", t);
    }
    cr_expect_neq(r->pt->exact(r->params, -1.0, r->ref), MB_SUCCESS);
    lf_run_free(r);
}

/* Long horizons: the closed form walked quarter cycles one by one, subtracting the
 * quarter durations from t, so its phase error grew with every cycle (7.6e-12 of x0
 * against x0 cos(w t) at t = 1e3 with lambda = 0) and its cost with t (7.6 s at
 * t = 1e9; t = 1e12 never finished).  With whole cycles skipped at once the phase error
 * is that of w t itself: at t = 1e3, w t ~ 1.75e3 carries ~2.3e-13 rounding, so 1e-12 x0;
 * at t = 1e12 the energy (1/2 k x^2 + 1/2 m v^2 = 1/2 k x0^2 for lambda = 0) is checked
 * (1e-12 relative), and the run must end within the timeout. */
Test(cundall_oscillator, long_horizon_is_exact_and_fast, .timeout = 5.0)
{
    lf_run *r = lf_run_new("cundall-oscillator[lambda=0]", "leapfrog");
    double w = sqrt(K / M);
    for (int k = 1; k <= 4; k++) {
        double t = 997.3 * k;
        const mb_nodes *ex = lf_run_exact(r, t);
        cr_expect(fabs(ex->x[0] - X0 * cos(w * t)) < 1e-12 * X0, "t=%g: %.17g vs %.17g", t,
                  ex->x[0], X0 * cos(w * t));
        cr_expect(fabs(ex->v[0] + X0 * w * sin(w * t)) < 1e-12 * X0 * w, "t=%g: v", t);
    }
    const mb_nodes *ex = lf_run_exact(r, 1e12);
    double E = 0.5 * K * ex->x[0] * ex->x[0] + 0.5 * M * ex->v[0] * ex->v[0], E0 = 0.5 * K * X0 * X0;
    cr_expect(fabs(E / E0 - 1.0) < 1e-12, "energy at t = 1e12: %.17g vs %.17g", E, E0);
    lf_run_free(r);
    /* damped: after c whole cycles the amplitude is x0 ((1 - lambda)/(1 + lambda))^c */
    lf_run *d = lf_run_new("cundall-oscillator[lambda=0.2]", "leapfrog[damping=0.2]");
    double wm = sqrt(K * (1 - LAMBDA) / M), wp = sqrt(K * (1 + LAMBDA) / M);
    double period = M_PI / wm + M_PI / wp, ratio = (1 - LAMBDA) / (1 + LAMBDA);
    for (int c = 10; c <= 40; c += 15) {
        const mb_nodes *e = lf_run_exact(d, c * period);
        cr_expect(fabs(e->x[0] / (X0 * pow(ratio, c)) - 1.0) < 1e-12, "cycle %d: %.17g vs %.17g", c,
                  e->x[0], X0 * pow(ratio, c));
    }
    lf_run_free(d);
}
