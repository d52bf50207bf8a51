/* test_many_body_stats.c -- the statistical metrics of the runner (statistics_from,
 * reversibility; src/runner/run_one.c, reversibility.c, case_fluctuation.c) against
 * independent derivations.
 *
 *  - Reversibility on the harmonic oscillator (m = 1.3, k = 2.1, x0 = 0.7, v0 = 0.4,
 *    h = 0.05, t_end = 4): symplectic Euler (v' = v - h w^2 x, x' = x + h v') is the linear
 *    map M = [[1, h], [0, 1]] [[1, 0], [-h w^2, 1]] on (x, v); reversal is R = diag(1, -1),
 *    so the round trip of N steps ends at R M^N R M^N (x0, v0), computed here in long
 *    double by repeated products; the metric must equal |x_back - x0| within
 *    2000 u |x| (the 2N steps' round-off of both computations, 4 N operations of relative
 *    error u each on values of size |x|).  Velocity Verlet is symmetric: its round trip
 *    is the identity and the distance is round-off only, <= 4 N u |x|.  The detail lists
 *    the four round trips t_end/8 .. t_end.
 *  - The fluid (lj-fluid, 256 particles, periodic): no angular momentum metrics (a periodic
 *    box conserves none), momentum.max_rel_error at round-off (<= 16 N u over N steps: each
 *    step rounds each velocity a few times), energy.fluctuation beside its stderr, and
 *    energy.fluctuation = the population standard deviation of the energy per particle
 *    over the window, recomputed here from the series of E kept by a run (the same samples:
 *    sample_every 1, window t >= 0.1).
 *  - A case whose statistics window leaves fewer than 4 samples: the run says why.
 *  - Angular momentum in periodic space: the frictional granular gas in its periodic cube and
 *    the affine flow in its deforming cell report no angmom.* (leapfrog[cell=off] too: the
 *    system is periodic, whatever a scheme does with it).  Its negative control: the same
 *    frictional gas in open space (boundary = open) does report it, at round-off for the
 *    leap-frog -- its kick changes sum x x m v + I w by h (sum x x F + sum T), zero pair by
 *    pair when the tangential force acts at one contact point for both spheres, and its
 *    drift leaves x x v alone (v x v = 0) -- so the only error is rounding: a few roundings
 *    of u per node and step of values of size m |x| |v|, bounded by 16 N u S / |L0| over N
 *    steps with S = 2 sum m |x| |v| at t = 0 (the factor 2 covers the expansion of the gas,
 *    |x| growing by |v| t_end = 0.9 at most against |x| ~ 2.6); per-particle damping
 *    (leapfrog[damping=0.2]) breaks it and must exceed the bound. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_case.h"
#include "mb_energy.h"
#include "mb_metrics.h"
#include "mb_problem.h"
#include "mb_runner.h"
#include "mb_status.h"

static mb_case *load(const char *text)
{
    char path[] = "/tmp/mb_stats_caseXXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    mb_case *c = NULL;
    int s = mb_case_load(path, &c);
    unlink(path);
    cr_assert_eq(s, MB_SUCCESS, "%s", mb_last_error());
    return c;
}

/* Runs the case's run of integrator k (first dt), which must finish (status ok), keeping
 * its series when keep_series. */
static void run_ok(mb_case *c, size_t k, int keep_series, mb_run_result *r)
{
    cr_assert_eq(mb_run_one(c, k, 0, keep_series, r), MB_SUCCESS);
    cr_assert_eq(r->status, MB_RUN_OK, "%s", r->message);
}

/* A system of the case's problem as a run starts it; free with mb_system_free. */
static mb_system *case_system(const mb_case *c)
{
    mb_system *sys = NULL;
    cr_assert_eq(c->problem->setup(c->params, &sys), MB_SUCCESS, "%s", mb_last_error());
    return sys;
}

static const mb_metric_value *metric(const mb_run_result *r, const char *name)
{
    for (size_t k = 0; k < r->n_metrics; k++)
        if (strcmp(r->metrics[k].name, name) == 0)
            return &r->metrics[k];
    return NULL;
}

/* A run in periodic space reports no angular momentum metric (where: the run, for the
 * message). */
static void expect_no_angmom(const mb_run_result *r, const char *where)
{
    cr_expect_null(metric(r, "angmom.max_rel_error"), "angular momentum in %s", where);
    cr_expect_null(metric(r, "angmom.direction_error"), "angular momentum in %s", where);
}

static const char harmonic[] =
    "[case]\nname = rev\nproblem = harmonic\nt_end = 4\nreference = analytic\n"
    "description = round trips\n[problem]\nmass = 1.3\nk = 2.1\nx0 = 0.7\nv0 = 0.4\n"
    "[run]\nintegrators = symplectic-euler, velocity-verlet\ndt = 0.05\nreversibility = on\n";

/* (x, v) after n steps of symplectic Euler, in long double */
static void symplectic_euler(long double *x, long double *v, long n, long double h,
                             long double w2)
{
    for (long k = 0; k < n; k++) {
        *v -= h * w2 * *x;
        *x += h * *v;
    }
}

Test(many_body_stats, reversibility_of_the_oscillator)
{
    mb_case *c = load(harmonic);
    const long N = 80;
    const double u = 0x1p-53;
    mb_run_result r;
    cr_assert_eq(mb_run_one(c, 0, 0, 0, &r), MB_SUCCESS);
    const mb_metric_value *d = metric(&r, "reversibility.distance");
    cr_assert_not_null(d, "%s", r.message);
    long double x = 0.7L, v = 0.4L, w2 = 2.1L / 1.3L;
    symplectic_euler(&x, &v, N, 0.05L, w2);
    v = -v;
    symplectic_euler(&x, &v, N, 0.05L, w2);
    double exact = (double)fabsl(x - 0.7L);
    cr_expect(exact > 1e-3, "the map is not symmetric: a miss of O(h), %g", exact);
    cr_expect(fabs(d->value - exact) <= 2000.0 * u, "symplectic Euler: %.17g, closed form %.17g",
              d->value, exact);
    cr_expect(strstr(d->detail, "0.5:") && strstr(d->detail, "4:"), "%s", d->detail);
    cr_assert_eq(mb_run_one(c, 1, 0, 0, &r), MB_SUCCESS);
    d = metric(&r, "reversibility.distance");
    cr_assert_not_null(d, "%s", r.message);
    cr_expect(d->value <= 4.0 * (double)N * u, "velocity Verlet: %g, round-off bound %g",
              d->value, 4.0 * (double)N * u);
    mb_case_free(c);
}

static const char fluid[] =
    "[case]\nname = fluid\nproblem = lj-fluid\nt_end = 0.4\nreference = none\n"
    "description = statistics\n[run]\nintegrators = velocity-verlet\ndt = 0.004\n"
    "statistics_from = 0.1\n";

Test(many_body_stats, fluid_statistics)
{
    mb_case *c = load(fluid);
    mb_run_result r;
    run_ok(c, 0, 0, &r);
    cr_expect_null(metric(&r, "angmom.max_rel_error"), "angular momentum in a periodic box");
    const mb_metric_value *p = metric(&r, "momentum.max_rel_error");
    cr_assert_not_null(p);
    cr_expect(p->value <= 16.0 * 100.0 * 0x1p-53, "momentum %g", p->value);
    const mb_metric_value *f = metric(&r, "energy.fluctuation");
    const mb_metric_value *fe = metric(&r, "energy.fluctuation.stderr");
    const mb_metric_value *dr = metric(&r, "energy.drift_per_particle");
    cr_assert(f && fe && dr, "%s", r.message);
    cr_expect(f->value > 0.0 && fe->value > 0.0 && fe->value < f->value, "%g +- %g", f->value,
              fe->value);
    cr_expect(strstr(f->detail, "76 samples") != NULL, "window t >= 0.1 of 100 steps: %s",
              f->detail);
    cr_expect(strstr(dr->detail, "95% confidence interval") != NULL, "%s", dr->detail);
    mb_case_free(c);
}

Test(many_body_stats, fluctuation_recomputed_from_the_energy_series)
{
    /* the kept series holds (E - E0) / S per sample, S the energy content at t = 0
     * (kinetic + |potential|: mb_energy.h), so sigma(E/n) = S sigma(series) / n over the
     * same window; the two differ by the rounding of the division, ~ u relative */
    mb_case *c = load(fluid);
    mb_run_result r;
    run_ok(c, 0, 1, &r);
    cr_assert_eq(r.n_series, 101, "series of %zu samples", r.n_series);
    double mean = 0.0, var = 0.0;
    size_t n = 0;
    for (size_t k = 0; k < r.n_series; k++)
        if (r.series[k].t >= 0.1) {
            mean += r.series[k].energy_rel;
            n++;
        }
    mean /= (double)n;
    for (size_t k = 0; k < r.n_series; k++)
        if (r.series[k].t >= 0.1)
            var += (r.series[k].energy_rel - mean) * (r.series[k].energy_rel - mean);
    mb_system *sys = case_system(c);
    mb_energy e0 = mb_energy_of(sys, sys->nodes);
    double S = fmax(e0.content, e0.kinetic_trans + fabs(e0.potential));
    double expected = S * sqrt(var / (double)n) / (double)sys->nodes->n;
    const mb_metric_value *f = metric(&r, "energy.fluctuation");
    cr_assert_not_null(f);
    cr_expect(fabs(f->value / expected - 1.0) < 1e-9, "fluctuation %.17g, from the series %.17g",
              f->value, expected);
    mb_system_free(sys);
    free(r.series);
    mb_case_free(c);
}

Test(many_body_stats, too_short_a_window_is_said)
{
    mb_case *c = load("[case]\nname = short\nproblem = lj-fluid\nt_end = 0.02\nreference = none\n"
                      "description = x\n[run]\nintegrators = velocity-verlet\ndt = 0.004\n"
                      "statistics_from = 0.015\n");
    mb_run_result r;
    cr_assert_eq(mb_run_one(c, 0, 0, 0, &r), MB_SUCCESS);
    cr_expect_null(metric(&r, "energy.fluctuation"));
    cr_expect(strstr(r.message, "4 needed") != NULL, "%s", r.message);
    mb_case_free(c);
}

static const char periodic_gas[] =
    "[case]\nname = gas\nproblem = granular-gas\nt_end = 0.05\nreference = none\n"
    "description = x\n[problem]\nspheres = 60\nfraction = 0.2\nfriction = 0.5\n"
    "[run]\nintegrators = leapfrog\ndt = 1e-4\n";

static const char affine[] =
    "[case]\nname = flow\nproblem = affine-flow\nt_end = 0.5\nreference = analytic\n"
    "description = x\n[problem]\nflow = rotation\n"
    "[run]\nintegrators = leapfrog, leapfrog[cell=off]\ndt = 0.01\n";

Test(many_body_stats, periodic_space_reports_no_angular_momentum)
{
    mb_case *c = load(periodic_gas);
    mb_run_result r;
    run_ok(c, 0, 0, &r);
    cr_expect_not_null(metric(&r, "energy.max_rel_error"), "the run was measured");
    expect_no_angmom(&r, "a periodic box");
    mb_case_free(c);
    c = load(affine);
    for (size_t k = 0; k < 2; k++) {
        run_ok(c, k, 0, &r);
        expect_no_angmom(&r, k == 0 ? "a cell (leapfrog)" : "a cell (leapfrog[cell=off])");
    }
    mb_case_free(c);
}

static const char open_gas[] =
    "[case]\nname = open-gas\nproblem = granular-gas\nt_end = 0.5\nreference = none\n"
    "description = x\n[problem]\nspheres = 60\nfraction = 0.2\nfriction = 0.5\n"
    "boundary = open\n[run]\nintegrators = leapfrog, leapfrog[damping=0.2]\ndt = 1e-4\n";

Test(many_body_stats, open_packing_conserves_angular_momentum)
{
    mb_case *c = load(open_gas);
    mb_system *sys = case_system(c);
    const mb_nodes *s = sys->nodes;
    double L0[3], S = 0.0;
    mb_angmom_total(s, L0);
    for (size_t i = 0; i < s->n; i++) {
        double x2 = 0.0, v2 = 0.0;
        for (int a = 0; a < 3; a++) {
            x2 += s->x[3 * i + a] * s->x[3 * i + a];
            v2 += s->v[3 * i + a] * s->v[3 * i + a];
        }
        S += 2.0 * s->mass[i] * sqrt(x2 * v2);
    }
    double norm0 = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    double bound = 16.0 * 5000.0 * 0x1p-53 * S / norm0;
    mb_system_free(sys);
    mb_run_result r;
    run_ok(c, 0, 0, &r);
    const mb_metric_value *a = metric(&r, "angmom.max_rel_error");
    cr_assert_not_null(a, "angular momentum of a packing in open space");
    cr_expect(a->value <= bound, "leapfrog: |L - L0| / |L0| = %g above the round-off bound %g",
              a->value, bound);
    cr_assert_eq(mb_run_one(c, 1, 0, 0, &r), MB_SUCCESS);
    a = metric(&r, "angmom.max_rel_error");
    cr_assert_not_null(a);
    cr_expect(a->value > bound, "damping: %g not above the bound %g", a->value, bound);
    mb_case_free(c);
}
