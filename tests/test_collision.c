/* test_collision.c -- the contact laws and the collision observers against the closed
 * forms of mb_closed_contact.h, integrated by a local velocity Verlet.
 *
 * The integrator lives here only to exercise the force models and observers (the bench's
 * own schemes are tested elsewhere).  It is velocity Verlet with the end-of-step velocity
 * predicted for the dashpot, v* = v(n+1/2) + (h/2) a(n): second order for smooth forces.
 * The contact force jumps by c v at impact; the gap is chosen so the impact falls at the
 * middle of a step, where the trapezoidal velocity update integrates the jump exactly and
 * the position error is J h^2 / 8 -- still O(h^2).  The clamped law ends smoothly (the
 * force reaches 0 continuously), so its restitution and duration are O(h^2) accurate:
 * for the oscillator, VV's phase error over a contact of length pi/w is
 * pi (w h)^2 / 24 ~ 0.13 (w h)^2, the impact adds zeta (w h)^2 / 4; the tolerance
 * (w0 h)^2 covers both with margin.  The textbook (attractive) law ends with a jump
 * J = c v_out / m* at an arbitrary phase: velocity error up to J h / 2, relative
 * restitution error up to zeta w0 h, added to its tolerance. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_closed_contact.h"
#include "mb_contact.h"
#include "mb_energy.h"
#include "mb_problem.h"
#include "mb_status.h"

typedef struct {
    mb_observation obs;
    double energy_residual;     /* max |E_kin + V + W_diss - E0| / E0 */
} run_result;

static void accel(mb_system *sys, double *a)
{
    mb_forces_eval(sys->forces, sys->nodes, sys->t);
    for (size_t k = 0; k < 3 * sys->nodes->n; k++)
        a[k] = sys->nodes->f[k] * sys->nodes->inv_mass[k / 3];
}

static double energy(const mb_system *sys)
{
    return mb_energy_kinetic_trans(sys->nodes) + mb_forces_potential(sys->forces, sys->nodes);
}

/* Velocity Verlet with predicted velocity for the dashpot, N steps of h, feeding the
 * problem's observer; dissipated work by the trapezoidal rule on the power. */
static run_result vv_run_to(const mb_problem_type *pt, const mb_options *p, double h, long N,
                            mb_nodes *final)
{
    run_result rr;
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    double *a = calloc(n3, sizeof *a), *vh = calloc(n3, sizeof *vh);
    void *ctx = NULL;
    if (pt->observe_begin) {
        cr_assert_eq(pt->observe_begin(&ctx, p, sys), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(pt->observe_step(ctx, sys, s), MB_SUCCESS);
    }
    accel(sys, a);
    double e0 = energy(sys), work = 0.0, pw = mb_forces_dissipation(sys->forces, s), worst = 0.0;
    for (long n = 0; n < N; n++) {
        for (size_t k = 0; k < n3; k++) {
            vh[k] = s->v[k] + 0.5 * h * a[k];
            s->x[k] += h * vh[k];
            s->v[k] = vh[k] + 0.5 * h * a[k];      /* predicted v(n+1) for the dashpot */
        }
        sys->t = (double)(n + 1) * h;
        accel(sys, a);
        for (size_t k = 0; k < n3; k++)
            s->v[k] = vh[k] + 0.5 * h * a[k];
        double pw1 = mb_forces_dissipation(sys->forces, s);
        work += 0.5 * h * (pw + pw1);
        pw = pw1;
        worst = fmax(worst, fabs(energy(sys) + work - e0));
        if (ctx)
            cr_assert_eq(pt->observe_step(ctx, sys, s), MB_SUCCESS);
    }
    rr.energy_residual = worst / e0;
    memset(&rr.obs, 0, sizeof rr.obs);
    if (ctx)
        pt->observe_end(ctx, &rr.obs);
    if (final)
        mb_nodes_copy(final, s);
    free(a);
    free(vh);
    mb_system_free(sys);
    return rr;
}

static run_result vv_run(const mb_problem_type *pt, const mb_options *p, double h, long N)
{
    return vv_run_to(pt, p, h, N, NULL);
}

static double obs(const run_result *r, const char *name)
{
    for (size_t k = 0; k < r->obs.count; k++)
        if (strcmp(r->obs.items[k].name, name) == 0)
            return r->obs.items[k].value;
    cr_assert_fail("observation '%s' missing", name);
    return NAN;
}

static mb_options *opts(const char *const *kv)
{
    mb_options *o = mb_options_new();
    for (; *kv; kv += 2)
        mb_options_set(o, kv[0], kv[1]);
    return o;
}

/* Run problem `name` with the given parameters so that the impact (gap / v) falls at the
 * middle of step N0, with w0 h = wh; returns the run and w0 (for tolerances). */
static run_result collide(const char *name, const char *const *kv, double w0, double wh,
                          double gap_over_v, double duration)
{
    const mb_problem_type *pt;
    mb_options *in = opts(kv), *p;
    cr_assert_eq(mb_problem_prepare(name, in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    double h0 = wh / w0;
    long N0 = (long)floor(gap_over_v / h0);
    double h = gap_over_v / (N0 + 0.5);
    long N = (long)ceil((gap_over_v + 1.5 * duration) / h);
    run_result r = vv_run(pt, p, h, N);
    mb_options_free(in);
    mb_options_free(p);
    return r;
}

/* sphere-collision defaults: r = 0.01, rho = 2500, v = 1, gap = 1e-3, kn = 1e5 */
static double default_meff(void) { return 0.5 * 2500.0 * 4.0 / 3.0 * M_PI * 1e-6; }

/* Clamped linear law: e and t_c of Schwager & Poeschel, O(h^2).  Negative control: the
 * textbook formulas are far off. */
Test(collision, linear_clamped_matches_closed_form)
{
    const char *kv[] = { "zeta", "0.3", NULL };
    double m = default_meff(), w0 = sqrt(1e5 / m), wh = 0.01;
    double tc = mb_closed_linear_clamped_duration(1e5, m, 0.3);
    run_result r = collide("sphere-collision", kv, w0, wh, 1e-3, tc);
    double e = obs(&r, "restitution"), d = obs(&r, "contact.duration");
    double tol = wh * wh;
    double e_cl = mb_closed_linear_clamped_restitution(0.3);
    cr_expect(fabs(e - e_cl) <= tol * e_cl, "e %.10f vs %.10f", e, e_cl);
    cr_expect(fabs(d / tc - 1.0) <= tol, "t_c %.10g vs %.10g", d, tc);
    cr_expect(fabs(obs(&r, "restitution_error")) <= tol * e_cl);
    cr_expect_eq(obs(&r, "restitution_exact"), e_cl);
    cr_expect_eq(obs(&r, "contact.count"), 1.0);
    /* negative control */
    double e_tb = mb_closed_linear_restitution(0.3);
    cr_expect(fabs(e - e_tb) > 100.0 * tol, "textbook %.6f must not match clamped %.6f", e_tb, e);
    /* clamped energy booking: E_kin + V + W_diss stays E0 to O(h^2): VV's on-step energy
     * of an oscillator swings by (w h)^2 / 4 of E, the trapezoidal work adds at most
     * (w h)^2 (the power is smooth but for the kink at t*), so 2 (w0 h)^2 */
    cr_expect(r.energy_residual <= 2.0 * tol, "energy residual %.3g", r.energy_residual);
    cr_log_info("clamped: e %.10f (closed %.10f), t_c %.10g (closed %.10g), energy %.3g\n", e,
                e_cl, d, tc, r.energy_residual);
}

/* O(h^2): halving h divides the errors by about 4 (between 3 and 5). */
Test(collision, linear_clamped_error_is_second_order)
{
    const char *kv[] = { "zeta", "0.3", NULL };
    double m = default_meff(), w0 = sqrt(1e5 / m);
    double tc = mb_closed_linear_clamped_duration(1e5, m, 0.3);
    double e_cl = mb_closed_linear_clamped_restitution(0.3), err[2], den[2], dd[2];
    for (int i = 0; i < 2; i++) {
        run_result r = collide("sphere-collision", kv, w0, i ? 0.01 : 0.02, 1e-3, tc);
        err[i] = fabs(obs(&r, "restitution") - e_cl);
        dd[i] = fabs(obs(&r, "contact.duration") - tc);
        den[i] = r.energy_residual;
    }
    cr_log_info("e errors %.3g %.3g, t_c errors %.3g %.3g, energy %.3g %.3g\n", err[0], err[1],
                dd[0], dd[1], den[0], den[1]);
    cr_expect(err[0] / err[1] > 3.0 && err[0] / err[1] < 5.0, "errors %.3g, %.3g", err[0], err[1]);
    cr_expect(den[0] / den[1] > 3.0 && den[0] / den[1] < 5.0, "energy %.3g, %.3g", den[0], den[1]);
}

/* Textbook law (clamp=false): e = exp(-zeta pi / sqrt(1 - zeta^2)), t_c = pi / w. */
Test(collision, linear_textbook_matches_closed_form)
{
    const char *kv[] = { "zeta", "0.3", "clamp", "false", NULL };
    double m = default_meff(), w0 = sqrt(1e5 / m), wh = 0.005;
    double tc = mb_closed_linear_duration(1e5, m, 0.3);
    run_result r = collide("sphere-collision", kv, w0, wh, 1e-3, tc);
    double e = obs(&r, "restitution"), d = obs(&r, "contact.duration");
    double e_tb = mb_closed_linear_restitution(0.3), tol = wh * wh + 0.3 * wh;
    cr_expect(fabs(e - e_tb) <= tol * e_tb, "e %.10f vs %.10f", e, e_tb);
    cr_expect(fabs(d / tc - 1.0) <= tol, "t_c %.10g vs %.10g", d, tc);
    cr_expect(fabs(e - mb_closed_linear_clamped_restitution(0.3)) > 20.0 * tol);
    cr_log_info("textbook: e %.10f (closed %.10f), t_c %.10g (closed %.10g)\n", e, e_tb, d, tc);
}

/* Sphere on a wall with the dashpot given as c: zeta = c / (2 sqrt(m kn)), m* = m. */
Test(collision, wall_linear_with_dashpot_coefficient)
{
    const double m = 2500.0 * 4.0 / 3.0 * M_PI * 0.0073 * 0.0073 * 0.0073, kn = 2.385e5;
    const double zeta = 0.17 / (2.0 * sqrt(m * kn));
    const char *kv[] = { "radius", "0.0073", "kn", "2.385e5", "c", "0.17", "speed", "0.73",
                         "tangential", "0.31", NULL };
    double w0 = sqrt(kn / m), wh = 0.01, tc = mb_closed_linear_clamped_duration(kn, m, zeta);
    run_result r = collide("sphere-wall", kv, w0, wh, 1e-3 / 0.73, tc);
    double e_cl = mb_closed_linear_clamped_restitution(zeta);
    cr_expect(fabs(obs(&r, "restitution") - e_cl) <= wh * wh * e_cl, "e %.10f vs %.10f",
              obs(&r, "restitution"), e_cl);
    cr_expect(fabs(obs(&r, "contact.duration_error")) <= wh * wh);
}

/* Undamped Hertz: e = 1 and t_c = 2.868 (m*^2 / (R* E*^2 v))^{1/5}, unequal spheres.
 * The force is C^1 at the onset (F ~ delta^{3/2}), so VV stays O(h^2) with the same
 * tolerance written in terms of the contact time: (pi h / t_c)^2. */
Test(collision, hertz_duration_matches_closed_form)
{
    const char *kv[] = { "model", "hertz", "zeta", "0", "radius2", "0.0073", "young", "7.31e7",
                         NULL };
    double rho = 2500.0, r1 = 0.01, r2 = 0.0073;
    double m1 = rho * 4.0 / 3.0 * M_PI * r1 * r1 * r1, m2 = rho * 4.0 / 3.0 * M_PI * r2 * r2 * r2;
    double m = m1 * m2 / (m1 + m2), R = r1 * r2 / (r1 + r2), E = 7.31e7 / (2.0 * (1.0 - 0.09));
    double tc = mb_closed_hertz_duration(m, R, E, 1.0);
    double w = M_PI / tc, wh = 0.01;
    run_result r = collide("sphere-collision", kv, w, wh, 1e-3, tc);
    cr_expect(fabs(obs(&r, "restitution") - 1.0) <= wh * wh, "e %.12f", obs(&r, "restitution"));
    cr_expect(fabs(obs(&r, "contact.duration") / tc - 1.0) <= wh * wh, "t_c %.10g vs %.10g",
              obs(&r, "contact.duration"), tc);
    cr_expect(r.energy_residual <= wh * wh);
    cr_log_info("hertz: e %.12f, t_c %.10g (closed %.10g), energy %.3g\n", obs(&r, "restitution"),
                obs(&r, "contact.duration"), tc, r.energy_residual);
}

/* The Hertz constant (4/5) B(2/5, 1/2) (15/16)^{2/5} against the literature's 2.868 and
 * against the defining integral 2 (d_max / v) Int_0^1 dx / sqrt(1 - x^{5/2}) evaluated by a
 * midpoint rule after x = 1 - s^2 (removing the endpoint singularity):
 * Int = Int_0^1 2 s ds / sqrt(1 - (1 - s^2)^{5/2}), smooth; 20000 points give ~1e-9. */
Test(collision, hertz_constant)
{
    double C = mb_closed_hertz_constant();
    cr_expect(fabs(C - 2.868) < 5e-4, "C = %.6f", C);
    const int M = 20000;
    double I = 0.0;
    for (int i = 0; i < M; i++) {
        double s = (i + 0.5) / M;
        I += 2.0 * s / sqrt(1.0 - pow(1.0 - s * s, 2.5));
    }
    I /= M;
    double Cq = 2.0 * I * pow(15.0 / 16.0, 0.4);
    cr_expect(fabs(C / Cq - 1.0) < 1e-7, "Beta form %.12f, quadrature %.12f", C, Cq);
    cr_log_info("Hertz constant: Beta form %.12f, quadrature %.12f\n", C, Cq);
}

/* ---- Tsuji dashpot: restitution independent of impact speed.  Negative control: a Hertz
 * spring with a constant dashpot (test-local force model) gives a speed-dependent e. */
struct const_dashpot { double K, c, r; };

static int cd_eval(const void *params, mb_nodes *s, double t)
{
    const struct const_dashpot *p = params;
    (void)t;
    double delta = p->r - s->x[2];
    if (delta > 0.0) {
        double F = p->K * delta * sqrt(delta) - p->c * s->v[2];
        s->f[2] += F > 0.0 ? F : 0.0;
    }
    return MB_SUCCESS;
}

static const mb_force_type const_dashpot_type = { .name = "hertz-constant-dashpot",
                                                  .eval = cd_eval, .free = free };

static double wall_restitution_custom(double v, double K, double c, double r, double m)
{
    /* contact-free bookkeeping by hand: one node, impact at mid-step */
    mb_system *sys = mb_system_alloc(1);
    mb_nodes *s = sys->nodes;
    mb_nodes_set_mass(s, 0, m);
    s->radius[0] = r;
    double gap = 1e-4, tc = mb_closed_hertz_duration(m, r, 3.0 / 4.0 * K / sqrt(r), v);
    double h = gap / v / 100.5;
    s->x[2] = r + gap;
    s->v[2] = -v;
    struct const_dashpot *p = malloc(sizeof *p);
    *p = (struct const_dashpot){ K, c, r };
    mb_forces_add(sys->forces, &const_dashpot_type, p);
    double a[3], vh;
    accel(sys, a);
    long N = (long)((gap / v + 2.0 * tc) / h);
    for (long n = 0; n < N; n++) {
        vh = s->v[2] + 0.5 * h * a[2];
        s->x[2] += h * vh;
        s->v[2] = vh + 0.5 * h * a[2];
        accel(sys, a);
        s->v[2] = vh + 0.5 * h * a[2];
    }
    double e = s->v[2] / v;
    mb_system_free(sys);
    return e;
}

Test(collision, tsuji_restitution_is_speed_independent)
{
    double e[2];
    const double speeds[2] = { 1.0, 0.173 };
    for (int i = 0; i < 2; i++) {
        char sp[32];
        snprintf(sp, sizeof sp, "%.17g", speeds[i]);
        const char *kv[] = { "model", "hertz", "zeta", "0.2", "speed", sp, NULL };
        double m = default_meff(), R = 0.005, E = 1e8 / (2.0 * 0.91);
        double tc = mb_closed_hertz_duration(m, R, E, speeds[i]);
        run_result r = collide("sphere-collision", kv, M_PI / tc, 0.01, 1e-3 / speeds[i], 2.0 * tc);
        e[i] = obs(&r, "restitution");
        cr_expect(e[i] < 0.9 && e[i] > 0.2, "e = %.6f", e[i]);
    }
    /* each e carries O((pi h / t_c)^2) = 1e-4 */
    cr_expect(fabs(e[0] - e[1]) <= 2e-4, "e(1) = %.8f, e(0.173) = %.8f", e[0], e[1]);
    /* negative control: constant dashpot */
    double m = 0.0104, r = 0.01, K = 4.0 / 3.0 * 1e8 * sqrt(r), c = 2.0;
    double e1 = wall_restitution_custom(1.0, K, c, r, m), e2 = wall_restitution_custom(0.173, K, c, r, m);
    cr_expect(fabs(e1 - e2) > 0.02, "constant dashpot: e(1) = %.6f, e(0.173) = %.6f", e1, e2);
    cr_log_info("tsuji zeta 0.2: e(1) %.8f, e(0.173) %.8f; constant dashpot: %.6f, %.6f\n", e[0],
                e[1], e1, e2);
}

/* The settled overlap is the static equilibrium m g / kn (linear) or (m g / K)^{2/3}. */
Test(collision, settle_reaches_static_overlap)
{
    for (int hertz = 0; hertz < 2; hertz++) {
        const mb_problem_type *pt;
        const char *kv[] = { "model", hertz ? "hertz" : "linear", NULL };
        mb_options *in = opts(kv), *p;
        cr_assert_eq(mb_problem_prepare("sphere-settle", in, &pt, &p), MB_SUCCESS);
        /* linear: w0 = sqrt(kn/m) = 3090/s, e-folding 1/(zeta w0) ~ 1 ms per contact */
        run_result r = vv_run(pt, p, 2e-5, 15000);
        double rel = obs(&r, "settle.overlap_error");
        cr_expect(fabs(rel) < 1e-6, "model %d: overlap %.10g vs %.10g", hertz,
                  obs(&r, "settle.overlap"), obs(&r, "settle.overlap_exact"));
        cr_expect(obs(&r, "contact.count") >= 2.0, "it must bounce");
        cr_log_info("settle model %d: overlap %.10g, closed %.10g, impacts %g\n", hertz,
                    obs(&r, "settle.overlap"), obs(&r, "settle.overlap_exact"),
                    obs(&r, "contact.count"));
        double m = 2500.0 * 4.0 / 3.0 * M_PI * 1e-6;
        double ds = hertz ? pow(m * 9.81 / (4.0 / 3.0 * 1e8 / 0.91 * 0.1), 2.0 / 3.0) : m * 9.81 / 1e5;
        cr_expect(fabs(obs(&r, "settle.overlap_exact") / ds - 1.0) < 1e-14);
        mb_options_free(in);
        mb_options_free(p);
    }
}

/* exact() against the local VV: at t = 0 it is the set-up state (to rounding); after the
 * contact (t = gap/v + 1.5 t_c) the VV positions differ from it by O(h^2): a velocity error
 * of order (w h)^2 v carried for ~t_c gives ~(w h)^2 v / w; tolerance 4 (w h)^2 v / w. */
static void exact_vs_vv(const char *name, const char *const *kv, double w, double gap_over_v,
                        double tc, double v, size_t nodes)
{
    const mb_problem_type *pt;
    mb_options *in = opts(kv), *p;
    cr_assert_eq(mb_problem_prepare(name, in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_not_null(pt->exact);
    mb_system *sys;
    pt->setup(p, &sys);
    mb_nodes *ex = mb_nodes_alloc(nodes, 53), *fin = mb_nodes_alloc(nodes, 53);
    cr_assert_eq(pt->exact(p, 0.0, ex), MB_SUCCESS, "%s", mb_last_error());
    for (size_t k = 0; k < 3 * nodes; k++) {
        cr_expect(fabs(ex->x[k] - sys->nodes->x[k]) <= 1e-17, "x0[%zu]", k);
        cr_expect(fabs(ex->v[k] - sys->nodes->v[k]) <= 1e-15, "v0[%zu]", k);
    }
    double wh = 0.01, h = gap_over_v / (floor(gap_over_v / (wh / w)) + 0.5);
    long N = (long)ceil((gap_over_v + 1.5 * tc) / h);
    vv_run_to(pt, p, h, N, fin);
    cr_assert_eq(pt->exact(p, N * h, ex), MB_SUCCESS);
    double err = 0.0, verr = 0.0;
    for (size_t k = 0; k < 3 * nodes; k++) {
        err = fmax(err, fabs(ex->x[k] - fin->x[k]));
        verr = fmax(verr, fabs(ex->v[k] - fin->v[k]));
    }
    double scale = v / w;
    cr_expect(err <= 4.0 * wh * wh * scale, "%s: position error %.3g, scale %.3g", name, err, scale);
    cr_expect(verr <= 4.0 * wh * wh * v, "%s: velocity error %.3g", name, verr);
    cr_log_info("%s exact vs VV: |dx| / (v/w) = %.3g, |dv| / v = %.3g at w h = %.2g\n", name,
                err / scale, verr / v, wh);
    mb_nodes_free(ex);
    mb_nodes_free(fin);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
}

Test(collision, exact_trajectory_linear)
{
    double m = default_meff(), w0 = sqrt(1e5 / m);
    const char *clamped[] = { "zeta", "0.3", NULL };
    exact_vs_vv("sphere-collision", clamped, w0, 1e-3, mb_closed_linear_clamped_duration(1e5, m, 0.3),
                1.0, 2);
    const char *wall[] = { "zeta", "0.2", "tangential", "0.31", NULL };
    double mw = 2.0 * m;
    exact_vs_vv("sphere-wall", wall, sqrt(1e5 / mw), 1e-3,
                mb_closed_linear_clamped_duration(1e5, mw, 0.2), 1.0, 1);
}

Test(collision, exact_trajectory_hertz)
{
    const char *kv[] = { "model", "hertz", "zeta", "0", NULL };
    double m = default_meff(), tc = mb_closed_hertz_duration(m, 0.005, 1e8 / 1.82, 1.0);
    exact_vs_vv("sphere-collision", kv, M_PI / tc, 1e-3, tc, 1.0, 2);
    /* the inverted integral hits d_max at t_c/2 and 0 at t_c */
    double d, r, dmax = mb_closed_hertz_max_overlap(m, 0.005, 1e8 / 1.82, 1.0);
    mb_closed_hertz_overlap(m, 0.005, 1e8 / 1.82, 1.0, 0.5 * tc, &d, &r);
    cr_expect(fabs(d / dmax - 1.0) <= 1e-12 && fabs(r) <= 1e-5, "d %.17g / %.17g, rate %.3g", d,
              dmax, r);
    mb_closed_hertz_overlap(m, 0.005, 1e8 / 1.82, 1.0, tc * (1.0 - 1e-12), &d, &r);
    cr_expect(fabs(d) <= 1e-9 * dmax && fabs(r + 1.0) <= 1e-4, "d %.3g rate %.17g", d, r);
    /* damped Hertz: no closed form, a defined error */
    const mb_problem_type *pt;
    mb_options *in = opts((const char *const[]){ "model", "hertz", NULL }), *p;
    mb_problem_prepare("sphere-collision", in, &pt, &p);
    mb_nodes *ex = mb_nodes_alloc(2, 53);
    cr_expect_eq(pt->exact(p, 0.0, ex), MB_EUNSUP);
    cr_expect(strstr(mb_last_error(), "ode") != NULL);
    mb_nodes_free(ex);
    mb_options_free(in);
    mb_options_free(p);
}
