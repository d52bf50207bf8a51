/* test_metrics.c -- every metric on inputs with a known answer, and a deliberately wrong
 * input that it must flag (negative controls, DESIGN 9). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_energy.h"
#include "mb_metrics.h"
#include "mb_problem.h"
#include "mb_runner.h"
#include "mb_stepper.h"

static mb_energy energy_of(double total)
{
    mb_energy e = { .kinetic_trans = total, .total = total };
    return e;
}

/* The drift of a linear drift r(t) = a t is a (exactly, up to round-off).  For a bounded
 * oscillation r = b sin t over T = 10 periods the least-squares slope is
 * b int (t - T/2) sin t dt / int (t - T/2)^2 dt = b (-T) / (T^3/12) = -12 b / T^2
 * (~3e-6 here), well inside the bound 3 b / T used below. */
Test(energy, drift_rate_linear_and_bounded)
{
    const double E0 = 2.385, a = 3.7e-4, b = 1e-3, T = 20 * M_PI;
    mb_energy e = energy_of(E0);
    mb_energy_track lin, osc;
    mb_energy_track_begin(&lin, &e);
    mb_energy_track_begin(&osc, &e);
    for (int n = 1; n <= 4000; n++) {
        double t = T * n / 4000.0;
        mb_energy a1 = energy_of(E0 * (1.0 + a * t)), b1 = energy_of(E0 * (1.0 + b * sin(t)));
        mb_energy_track_add(&lin, t, &a1);
        mb_energy_track_add(&osc, t, &b1);
    }
    cr_expect(fabs(mb_energy_track_drift(&lin) - a) < 1e-12,
              "linear drift %.17g", mb_energy_track_drift(&lin));
    cr_expect(fabs(lin.max_rel - a * T) < 1e-12, "max rel %.17g", lin.max_rel);
    cr_expect(fabs(mb_energy_track_drift(&osc)) < 3 * b / T, "bounded drift %.3g",
              mb_energy_track_drift(&osc));
    cr_expect(fabs(osc.max_rel - b) < 1e-6, "max rel %.17g", osc.max_rel);
    /* the drift flags the linear series and not the bounded one: a threshold of a / 2
     * separates them */
    cr_expect(mb_energy_track_drift(&lin) > a / 2 && fabs(mb_energy_track_drift(&osc)) < a / 2);
}

Test(energy, balance_residual_of_dissipation)
{
    /* E falls by the dissipated work exactly: the residual is 0 while E itself changes */
    mb_energy e0 = energy_of(1.5), e;
    mb_energy_track tr;
    mb_energy_track_begin(&tr, &e0);
    for (int n = 1; n <= 10; n++) {
        e = energy_of(1.5 - 0.1 * n);
        e.dissipated = 0.1 * n;
        mb_energy_track_add(&tr, n, &e);
    }
    cr_expect(tr.max_balance < 1e-15, "balance %.3g", tr.max_balance);
    cr_expect(fabs(tr.max_rel - 1.0 / 1.5) < 1e-15);
    cr_expect(tr.dissipative);
    /* negative control: dissipated work not booked -> residual = the energy lost */
    e.dissipated = 0.0;
    mb_energy_track_add(&tr, 11, &e);
    cr_expect(fabs(tr.max_balance - 1.0 / 1.5) < 1e-15, "%.17g", tr.max_balance);
}

/* Explicit Euler multiplies the oscillator energy by (1 + h^2 w^2) per step, so
 * r(t) = exp(lambda t) - 1 with lambda = ln(1 + h^2 w^2)/h ~ h w^2; over [0, T] its
 * least-squares slope lies between lambda and lambda (1 + lambda T) (convexity).
 * The exact solution sampled the same way has drift at round-off level. */
Test(energy, explicit_euler_flagged_exact_not)
{
    const double m = 2.385, k = 7.31, h = 0.0173, w2 = k / m;
    const int N = 400;
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    mb_options_set(in, "mass", "2.385");
    mb_options_set(in, "k", "7.31");
    mb_options_set(in, "x0", "0.413");
    cr_assert_eq(mb_problem_prepare("harmonic", in, &pt, &p), 0);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), 0);
    mb_nodes *ex = mb_nodes_alloc(1, 53);
    mb_nodes_copy(ex, sys->nodes);
    mb_stepper *st = mb_stepper_alloc("explicit-euler", sys);
    mb_energy e0 = mb_energy_of(sys, sys->nodes);
    mb_energy_track num, exact;
    mb_energy_track_begin(&num, &e0);
    mb_energy_track_begin(&exact, &e0);
    for (int n = 1; n <= N; n++) {
        cr_assert_eq(mb_stepper_step(st, sys, h), 0);
        mb_energy e = mb_energy_of(sys, sys->nodes);
        mb_energy_track_add(&num, n * h, &e);
        pt->exact(p, n * h, ex);
        mb_energy ee = mb_energy_of(sys, ex);
        mb_energy_track_add(&exact, n * h, &ee);
    }
    double lambda = log1p(h * h * w2) / h, T = N * h;
    double dn = mb_energy_track_drift(&num), de = mb_energy_track_drift(&exact);
    cr_expect(dn >= lambda && dn <= lambda * (1 + lambda * T), "drift %.6g, lambda %.6g", dn,
              lambda);
    cr_expect(fabs(de) < 1e-13, "exact drift %.3g", de);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_nodes_free(ex);
    mb_options_free(in);
    mb_options_free(p);
}

static void damped(double zeta, double w, double dt, double T, mb_damping_track *tr)
{
    double wd = w * sqrt(1.0 - zeta * zeta);
    mb_damping_track_begin(tr);
    for (double t = 0.0; t <= T; t += dt)
        mb_damping_track_add(tr, t, 1.27 * exp(-zeta * w * t) * cos(wd * t + 0.3));
}

/* x(t + T_d) = exp(-zeta w T_d) x(t), so successive peaks give zeta exactly up to the
 * parabolic refinement of the peak (error O((w dt)^3) relative, ~1e-8 here). */
Test(damping, ratio_and_period_of_damped_cosine)
{
    const double zeta = 0.0385, w = 2.385, dt = 1e-3;
    static mb_damping_track tr;
    damped(zeta, w, dt, 40.0, &tr);
    mb_damping_result r;
    cr_assert_eq(mb_damping_result_of(&tr, &r), 0);
    double Td = 2 * M_PI / (w * sqrt(1 - zeta * zeta));
    cr_expect(r.peaks >= 14, "%zu peaks", r.peaks);
    cr_expect(fabs(r.ratio - zeta) < 1e-6, "zeta %.17g", r.ratio);
    cr_expect(fabs(r.period - Td) < 1e-6 * Td, "period %.17g vs %.17g", r.period, Td);
    cr_expect(fabs(r.amplitude_ratio - exp(-zeta * w * Td)) < 1e-6);
}

/* negative controls: an undamped cosine has zeta = 0, a growing one zeta < 0 */
Test(damping, undamped_and_growing_flagged)
{
    static mb_damping_track tr;
    mb_damping_result r;
    damped(0.0, 2.385, 1e-3, 40.0, &tr);
    cr_assert_eq(mb_damping_result_of(&tr, &r), 0);
    cr_expect(fabs(r.ratio) < 1e-6, "zeta %.3g", r.ratio);
    damped(-0.02, 2.385, 1e-3, 40.0, &tr);
    cr_assert_eq(mb_damping_result_of(&tr, &r), 0);
    cr_expect(fabs(r.ratio + 0.02) < 1e-6, "zeta %.6g", r.ratio);
    mb_damping_track_begin(&tr);
    mb_damping_track_add(&tr, 0, 1);
    mb_damping_track_add(&tr, 1, 0.5);
    cr_expect_neq(mb_damping_result_of(&tr, &r), 0);   /* no peak: no value */
    cr_expect(isnan(r.ratio));
}

Test(errors, orientation_angle)
{
    mb_nodes *a = mb_nodes_alloc(1, 53), *b = mb_nodes_alloc(1, 53);
    /* ref: rotation of 0.7 rad about (1,2,2)/3; run: a further 0.3 rad about z */
    double h = 0.35, s = sin(h) / 3.0;
    double qa[4] = { cos(h), s, 2 * s, 2 * s }, qz[4] = { cos(0.15), 0, 0, sin(0.15) };
    for (int k = 0; k < 4; k++)
        a->q[k] = qa[k];
    /* b = qa (x) qz */
    b->q[0] = qa[0] * qz[0] - qa[3] * qz[3];
    b->q[1] = qa[1] * qz[0] + qa[2] * qz[3];
    b->q[2] = qa[2] * qz[0] - qa[1] * qz[3];
    b->q[3] = qa[3] * qz[0] + qa[0] * qz[3];
    cr_expect(fabs(mb_error_orientation(b, a) - 0.3) < 1e-15, "%.17g", mb_error_orientation(b, a));
    for (int k = 0; k < 4; k++)
        b->q[k] = -a->q[k];   /* -q is the same rotation */
    cr_expect(mb_error_orientation(b, a) < 1e-15);
    a->x[0] = 1.0; a->x[1] = 2.0; b->x[0] = 4.0; b->x[1] = 6.0;
    cr_expect_eq(mb_error_position(b, a), 5.0);
    mb_nodes_free(a);
    mb_nodes_free(b);
}

/* The error is the maximum over nodes (DESIGN 6): three nodes whose differences have
 * exact lengths (Pythagorean triples, and rotations of known angle about z) with the
 * largest one on node 1, 0, 2 and 1 for x, v, omega and q; every value is exact in double
 * except the angle (atan2 of sin/cos of 0.25: a few ulp). */
Test(errors, maximum_over_nodes)
{
    mb_nodes *a = mb_nodes_alloc(3, 53), *b = mb_nodes_alloc(3, 53);
    const double dx[3][3] = { { 3, 4, 0 }, { 0, 5, 12 }, { 1, 0, 0 } };   /* 5, 13, 1 */
    const double dv[3][3] = { { 8, 0, 15 }, { 0, 3, 4 }, { 2, 0, 0 } };   /* 17, 5, 2 */
    const double dw[3][3] = { { 0, 0, 1 }, { 6, 8, 0 }, { 0, 7, 24 } };   /* 1, 10, 25 */
    const double half_angle[3] = { 0.05, 0.1, 0.25 };                      /* 0.1, 0.2, 0.5 */
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            a->x[3 * i + k] = 0.5 * i - 1.25;
            b->x[3 * i + k] = a->x[3 * i + k] + dx[i][k];
            b->v[3 * i + k] = a->v[3 * i + k] + dv[i][k];
            b->omega[3 * i + k] = a->omega[3 * i + k] + dw[i][k];
        }
        a->q[4 * i] = 1.0;
        b->q[4 * i] = cos(half_angle[(i + 1) % 3]);
        b->q[4 * i + 3] = sin(half_angle[(i + 1) % 3]);
    }
    cr_expect_eq(mb_error_position(b, a), 13.0);
    cr_expect_eq(mb_error_velocity(b, a), 17.0);
    cr_expect_eq(mb_error_angular_velocity(b, a), 25.0);
    cr_expect(fabs(mb_error_orientation(b, a) - 0.5) < 4 * DBL_EPSILON, "%.17g",
              mb_error_orientation(b, a));
    mb_nodes_free(a);
    mb_nodes_free(b);
}

/* a particle on a circle keeps L; a velocity 1.0213 times too large is flagged */
Test(angmom, circle_conserved_scaled_flagged)
{
    mb_nodes *s = mb_nodes_alloc(1, 53);
    mb_nodes_set_mass(s, 0, 2.385);
    mb_angmom_track good, bad;
    for (int pass = 0; pass < 2; pass++) {
        mb_angmom_track *tr = pass ? &bad : &good;
        for (int n = 0; n <= 100; n++) {
            double t = 0.0731 * n, f = (pass && n > 50) ? 1.0213 : 1.0;
            s->x[0] = cos(t); s->x[1] = sin(t);
            s->v[0] = -f * sin(t); s->v[1] = f * cos(t);
            if (n == 0)
                mb_angmom_track_begin(tr, s);
            else
                mb_angmom_track_add(tr, s);
        }
    }
    cr_expect(good.max_rel < 1e-15, "%.3g", good.max_rel);
    cr_expect(fabs(bad.max_rel - 0.0213) < 1e-14, "%.17g", bad.max_rel);
    cr_expect(bad.max_angle < 1e-15);
    mb_nodes_free(s);
}

/* body omega on the intermediate axis (I = 1, 2, 3: axis 1) changes sign every P */
Test(rotation, flip_period_and_stable_axis)
{
    const double P = 1.37;
    mb_nodes *s = mb_nodes_alloc(1, 53);
    double I[3] = { 1.0, 2.0, 3.0 };
    mb_nodes_set_inertia(s, 0, I);
    mb_rotation_track tr, stable;
    for (int pass = 0; pass < 2; pass++) {
        mb_rotation_track *r = pass ? &stable : &tr;
        for (int n = 0; n <= 2000; n++) {
            double t = 0.005 * n;
            s->omega[0] = 0.2;
            /* pass 1 (negative control): small wobble about zero, never a flip */
            s->omega[1] = pass ? 0.05 * cos(M_PI * t / P) : cos(M_PI * t / P);
            s->omega[2] = 0.1;
            if (n == 0)
                mb_rotation_track_begin(r, s, t);
            else
                mb_rotation_track_add(r, s, t);
        }
    }
    /* zero crossings at P/2 + k P, k = 0..6 (t <= 10): linear interpolation of a cosine
     * between samples 0.005 apart errs by < (pi/P)^2 0.005^2 / 8 relative: ~1e-6 */
    cr_expect_eq(tr.flips, 7, "%zu flips", tr.flips);
    cr_expect(fabs(mb_rotation_flip_period(&tr) - P) < 1e-5, "%.17g",
              mb_rotation_flip_period(&tr));
    cr_expect_eq(stable.flips, 0);
    cr_expect(isnan(mb_rotation_flip_period(&stable)));
    cr_expect(tr.max_quat_norm_error < 1e-15);
    mb_nodes_free(s);
}

Test(names, known_and_tolerances)
{
    cr_expect(mb_metric_known("order.position.stderr"));
    cr_expect(!mb_metric_known("order.positon"));
    int rel;
    double tol;
    mb_metric_default_tolerance("order.velocity", &rel, &tol);
    cr_expect(!rel && tol == 0.01);
    mb_metric_default_tolerance("error.position", &rel, &tol);
    cr_expect(rel && tol == 1e-6);
    mb_metric_default_tolerance("status", &rel, &tol);
    cr_expect(!rel && tol == 0.0);
    /* names observed by problems are declared too, so a case file can be checked at load */
    cr_expect(mb_metric_known("contact.duration_error"));
    cr_expect(mb_metric_is_word("order.velocity.flags"));
}

/* Every renamed metric (doc/metrics.md, Renamed metrics) points to a declared metric, its
 * old name is no longer declared, and a name never renamed has no new one. */
Test(names, renames_point_to_declared_metrics)
{
    size_t n;
    const mb_metric_rename *r = mb_metric_renames(&n);
    cr_assert(n > 0);
    for (size_t k = 0; k < n; k++) {
        cr_expect(mb_metric_known(r[k].name), "%s -> %s: not declared", r[k].old_name, r[k].name);
        cr_expect(!mb_metric_known(r[k].old_name), "%s still declared", r[k].old_name);
        cr_expect_str_eq(mb_metric_renamed(r[k].old_name), r[k].name);
    }
    cr_expect_null(mb_metric_renamed("error.position"));
}

/* A result holds MB_RUN_MAX_METRICS metrics; the next one ends the run as failed with its
 * name in the message, rather than being dropped while the run stays ok. */
Test(names, one_metric_too_many_fails_the_run)
{
    mb_run_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    for (int k = 0; k < MB_RUN_MAX_METRICS; k++)
        mb_run_add_metric(r, "steps", k, NULL);
    cr_expect_eq(r->status, MB_RUN_OK, "%s", r->message);
    cr_expect_eq(r->n_metrics, MB_RUN_MAX_METRICS);
    mb_run_add_metric(r, "energy.drift_rate", 1.0, NULL);
    cr_expect_eq(r->status, MB_RUN_FAILED, "a metric beyond the capacity was dropped silently");
    cr_expect_eq(r->n_metrics, MB_RUN_MAX_METRICS);
    cr_expect(strstr(r->message, "energy.drift_rate") != NULL, "%s", r->message);
    free(r);
}

/* A run's message holds MB_RUN_MESSAGE - 1 = 1023 bytes: an undeclared metric whose name is
 * longer ends the run with the message's first 1015 bytes and the cut mark "...[cut]"
 * (mb_text.h); a name that makes the message exactly 1023 bytes is quoted whole (control). */
Test(names, long_run_message_ends_with_the_cut_mark)
{
    static const char tail[] = "' is not declared in src/metrics/metrics.def";
    static char name[2000], want[1024];
    mb_run_result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    memset(name, 'n', sizeof name - 1);
    memcpy(want, "metric '", 8);
    memset(want + 8, 'n', 1015 - 8);
    memcpy(want + 1015, "...[cut]", 9);
    mb_run_add_metric(r, name, 1.0, NULL);
    cr_expect_eq(r->status, MB_RUN_FAILED);
    cr_expect_str_eq(r->message, want);
    memset(r, 0, sizeof *r);
    name[1023 - 8 - (sizeof tail - 1)] = '\0';
    mb_run_add_metric(r, name, 1.0, NULL);
    cr_expect_eq(strlen(r->message), 1023, "%s", r->message);
    cr_expect(strstr(r->message, "...[cut]") == NULL, "a message of the capacity is marked");
    cr_expect_str_eq(r->message + 1023 - (sizeof tail - 1), tail);
    free(r);
}

/* The table itself: unique names, every row documented, counts and words exact, errors
 * one-sided, orders absolute. */
Test(names, table_is_consistent)
{
    size_t n;
    const mb_metric_info *t = mb_metric_infos(&n);
    cr_assert(n > 40);
    for (size_t k = 0; k < n; k++) {
        cr_expect(t[k].doc && t[k].doc[0] && t[k].unit && t[k].unit[0], "%s", t[k].name);
        cr_expect_eq(mb_metric_lookup(t[k].name), &t[k], "%s declared twice", t[k].name);
        if (t[k].kind == MB_METRIC_COUNT || t[k].kind == MB_METRIC_STATUS)
            cr_expect(t[k].compare == MB_COMPARE_EXACT && t[k].tol == 0.0, "%s", t[k].name);
        if (t[k].kind == MB_METRIC_ERROR)
            cr_expect(t[k].one_sided && t[k].compare == MB_COMPARE_REL, "%s", t[k].name);
        if (t[k].kind == MB_METRIC_ORDER)
            cr_expect(t[k].compare == MB_COMPARE_ABS, "%s", t[k].name);
    }
    cr_expect_null(mb_metric_lookup("error.positon"));
}

/* A system released from rest at zero potential has E0 = 0 up to round-off: the scale
 * of relative energy errors becomes the energy after the first step; a system with a
 * genuine E0 keeps it (negative control of the rule). */
Test(energy, scale_of_a_system_released_from_rest)
{
    mb_energy e0 = { .potential = 7.8e-31, .total = 7.8e-31 };
    mb_energy e1 = { .kinetic_trans = 0.0017, .potential = -0.0034, .total = -0.0017 };
    mb_energy_track tr;
    mb_energy_track_begin(&tr, &e0);
    mb_energy_track_first_step(&tr, &e1);
    cr_expect(fabs(tr.scale - 0.0051) < 1e-18, "scale %.17g", tr.scale);
    mb_energy_track_add(&tr, 0.01, &e1);
    cr_expect(fabs(tr.max_rel - (0.0017 + 7.8e-31) / 0.0051) < 1e-15, "%.17g", tr.max_rel);
    cr_expect(!mb_energy_blown_up(&tr, &e1, 1e6));
    mb_energy g0 = { .kinetic_trans = 2.385, .total = 2.385 };
    mb_energy_track_begin(&tr, &g0);
    mb_energy_track_first_step(&tr, &e1);
    cr_expect_eq(tr.scale, 2.385);
}

/* quat.norm_error_max flags a quaternion that lost its unit norm; axis deviation is the
 * angle by which omega turned (0.3 rad about z here), 0 for a fixed axis */
Test(rotation, quaternion_norm_and_axis_deviation)
{
    mb_nodes *s = mb_nodes_alloc(1, 53);
    mb_rotation_track tr;
    s->omega[0] = 2.385;
    mb_rotation_track_begin(&tr, s, 0.0);
    mb_rotation_track_add(&tr, s, 0.1);
    cr_expect(tr.max_quat_norm_error < 1e-16);
    cr_expect_eq(tr.max_axis_angle, 0.0);
    s->q[0] *= 1.001;                     /* negative control: |q| = 1.001 */
    s->omega[0] = 2.385 * cos(0.3);
    s->omega[1] = 2.385 * sin(0.3);
    mb_rotation_track_add(&tr, s, 0.2);
    cr_expect(fabs(tr.max_quat_norm_error - 0.001) < 1e-15, "%.17g", tr.max_quat_norm_error);
    cr_expect(fabs(tr.max_axis_angle - 0.3) < 1e-15, "%.17g", tr.max_axis_angle);
    mb_nodes_free(s);
}

/* Symplectic Euler keeps |E/E0 - 1| <= h w / (1 - h w / 2) forever (it conserves
 * E -+ (h w^2 / 2) x v exactly, and |x v| <= E / w), so the least-squares drift of r over
 * [0, T] is at most 3 A / T with that A; explicit Euler at the same step drifts at
 * >= lambda = ln(1 + h^2 w^2) / h (convex growth), far above: the metric separates them. */
Test(energy, symplectic_bounded_explicit_flagged)
{
    const double h = 0.0173, w = sqrt(7.31 / 2.385);
    const int N = 4000;
    const char *schemes[2] = { "symplectic-euler", "explicit-euler" };
    double drift[2], maxrel[2];
    for (int k = 0; k < 2; k++) {
        const mb_problem_type *pt;
        mb_options *in = mb_options_new(), *p;
        mb_options_set(in, "mass", "2.385");
        mb_options_set(in, "k", "7.31");
        mb_options_set(in, "x0", "0.413");
        cr_assert_eq(mb_problem_prepare("harmonic", in, &pt, &p), 0);
        mb_system *sys;
        cr_assert_eq(pt->setup(p, &sys), 0);
        mb_stepper *st = mb_stepper_alloc(schemes[k], sys);
        cr_assert_not_null(st, "%s", mb_last_error());
        mb_energy e0 = mb_energy_of(sys, sys->nodes);
        mb_energy_track tr;
        mb_energy_track_begin(&tr, &e0);
        for (int n = 1; n <= N; n++) {
            cr_assert_eq(mb_stepper_step(st, sys, h), 0);
            mb_energy e = mb_energy_of(sys, sys->nodes);
            mb_energy_track_add(&tr, n * h, &e);
        }
        drift[k] = mb_energy_track_drift(&tr);
        maxrel[k] = tr.max_rel;
        mb_stepper_free(st);
        mb_system_free(sys);
        mb_options_free(in);
        mb_options_free(p);
    }
    double A = h * w / (1.0 - h * w / 2.0), T = N * h, lambda = log1p(h * h * w * w) / h;
    cr_expect(maxrel[0] <= A, "symplectic max rel %.3g > %.3g", maxrel[0], A);
    cr_expect(fabs(drift[0]) <= 3.0 * A / T, "symplectic drift %.3g", drift[0]);
    cr_expect(drift[1] >= lambda, "explicit drift %.3g < %.3g", drift[1], lambda);
    cr_expect(drift[1] > 10.0 * 3.0 * A / T, "explicit drift not separated");
}

/* The scale of energy errors is the energy content, kinetic plus the magnitude of each
 * potential term, not the signed total.  A parabolic Kepler-like state with E_kin = 2.385
 * and E_pot = -2.385 has E0 = 0 exactly; its content is 4.77, so a later total of
 * 4.77e-7 is a relative error of exactly 1e-7 (both divisions exact to one rounding:
 * tolerance 4 ulp), and it is no blow-up. */
Test(energy, scale_of_a_system_with_zero_total_energy)
{
    mb_energy e0 = { .kinetic_trans = 2.385, .potential = -2.385, .total = 0.0 };
    mb_energy_track tr;
    mb_energy_track_begin(&tr, &e0);
    cr_expect_eq(tr.scale, 4.77);
    mb_energy e1 = { .kinetic_trans = 2.385, .potential = -2.385 + 4.77e-7, .total = 4.77e-7 };
    mb_energy_track_add(&tr, 1.0, &e1);
    cr_expect(fabs(tr.max_rel - 1e-7) <= 4 * 1e-7 * DBL_EPSILON, "%.17g", tr.max_rel);
    cr_expect_not(mb_energy_blown_up(&tr, &e1, 1e6));
}

/* The link pendulum from theta0 = pi/2: E0 = -m g l cos(pi/2) is round-off, while the
 * content is m |g| |x| = m g l exactly up to the rounding of l sin(pi/2) (4 ulp). */
Test(energy, content_of_the_horizontal_pendulum)
{
    const mb_problem_type *pt = mb_problem_find("pendulum-link");
    cr_assert_not_null(pt);
    mb_options *given = mb_options_new(), *p = NULL;
    cr_assert_eq(mb_options_set(given, "theta0", "1.5707963267948966"), 0);
    cr_assert_eq(mb_problem_prepare("pendulum-link", given, &pt, &p), 0);
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), 0);
    mb_energy e = mb_energy_of(sys, sys->nodes);
    double mgl = 1.37 * 9.81 * 0.843;
    cr_expect(fabs(e.total) < 1e-14 * mgl, "E0 = %.3g is round-off", e.total);
    cr_expect(fabs(e.content - mgl) <= 4 * DBL_EPSILON * mgl, "content %.17g, m g l %.17g",
              e.content, mgl);
    mb_energy_track tr;
    mb_energy_track_begin(&tr, &e);
    cr_expect(fabs(tr.scale - mgl) <= 4 * DBL_EPSILON * mgl);
    /* a round-off change of the total after a step is no blow-up */
    mb_energy later = e;
    later.total = -e.total;
    cr_expect_not(mb_energy_blown_up(&tr, &later, 1e6));
    mb_system_free(sys);
    mb_options_free(p);
    mb_options_free(given);
}

/* ---- divergence (divergence.c) ----
 * Free fall (m = 1.7, g = 9.81 along -z, z0 = 10.3, v0 = (0.83, 0, 2.385)) over T = 2:
 * L = max|x0| + T max|v0| + T^2/2 g = 10.3 + 4.77 + 19.62 = 34.69, V = 2.385 + 19.62 =
 * 22.005; the bounds are 1e6 times these. */
Test(divergence, bounds_of_free_fall)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    cr_assert_eq(mb_problem_prepare("free-fall", in, &pt, &p), 0);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), 0);
    mb_divergence_bound b;
    cr_assert_eq(mb_divergence_bound_of(sys, NULL, 2.0, &b), 0);
    cr_expect_float_eq(b.length, 34.69, 1e-13 * 34.69);
    cr_expect_float_eq(b.speed, 22.005, 1e-13 * 22.005);
    cr_expect_float_eq(b.position, 34.69e6, 1e-13 * 34.69e6);
    char why[200];
    cr_expect_eq(mb_divergence_state(&b, sys->nodes, why, sizeof why), 0, "%s", why);
    sys->nodes->x[0] = 3.5e7;                         /* beyond 3.469e7 */
    cr_expect_eq(mb_divergence_state(&b, sys->nodes, why, sizeof why), 1);
    cr_expect(strstr(why, "node 0: x = 3.5e+07 is beyond the divergence bound 3.47e+07") != NULL,
              "%s", why);
    sys->nodes->x[0] = 3.4e7;                         /* inside */
    cr_expect_eq(mb_divergence_state(&b, sys->nodes, why, sizeof why), 0, "%s", why);
    sys->nodes->v[1] = NAN;
    cr_expect_eq(mb_divergence_state(&b, sys->nodes, why, sizeof why), 1);
    cr_expect(strstr(why, "node 0: vy = nan is not finite") != NULL, "%s", why);
    mb_system_free(sys);
    mb_options_free(p);
    mb_options_free(in);
}

/* A problem at rest at the origin with no force has no scale: only non-finite values. */
Test(divergence, no_scale_no_bound)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    mb_options_set(in, "x0", "0");
    cr_assert_eq(mb_problem_prepare("harmonic", in, &pt, &p), 0);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), 0);
    mb_divergence_bound b;
    cr_assert_eq(mb_divergence_bound_of(sys, NULL, 10.0, &b), 0);
    cr_expect(isinf(b.position) && isinf(b.velocity));
    mb_system_free(sys);
    mb_options_free(p);
    mb_options_free(in);
}

/* Accuracy metrics that overflowed make a run diverged; other NaNs (no measurable
 * damping) do not. */
Test(divergence, overflowed_metrics)
{
    cr_expect(mb_divergence_metric("error.position", INFINITY));
    cr_expect(mb_divergence_metric("energy.max_rel_error", NAN));
    cr_expect(mb_divergence_metric("angmom.max_rel_error", -INFINITY));
    cr_expect(!mb_divergence_metric("error.position", 1e300));
    cr_expect(!mb_divergence_metric("damping.ratio", NAN));
    cr_expect(!mb_divergence_metric("rotation.flip_period", INFINITY));
}
