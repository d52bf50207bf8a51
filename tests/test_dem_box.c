/* test_dem_box.c -- a sphere against a static box under the DEM laws (doc/scenes.md,
 * "Contact"; mb_contact_add_box): the box is a wall whose plane follows the sphere through
 * the box point closest to its centre, so on a face the contact is the plane's.  Checks:
 *   - sliding into rolling on the box's top face: the same trajectory as on the plane
 *     through that face, bit for bit (the same arithmetic on the same numbers), and the
 *     rolling onset of the closed form (doc/dem.md, "Sliding into rolling");
 *   - Hertz-Mindlin with rolling resistance: on the face as on the plane, bit for bit;
 *   - a normal impact on a face: the same rebound as on the plane, bit for bit, and the
 *     clamped linear law's restitution (mb_closed_contact.h);
 *   - an oblique impact on a box edge: the normal runs from the edge to the centre;
 *   - the negative control of the onset: friction at the centre (every torque of the
 *     sphere cancelled) rolls only when it stops, far outside the tolerance. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mb_closed_contact.h"
#include "mb_contact.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "mb_test_scene_text.h"
#include "problem_run.h"   /* friction_at_centre: the negative control's fault */

/* The sliding sphere: m = 1 kg, r = 0.1 m, v0 = 2 m/s along x without spin, touching the
 * surface z = 0 (no overlap: a frictional contact may not start mid-contact), Cundall-Strack
 * with kn = 1e7 N/m, zeta = 0.3, kt/kn = 2/7, zeta_t = 0.3, mu = 0.3, g = 9.81. */
#define BALL "[body ball]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 0, 0, 0.1\n" \
             "velocity = 2, 0, 0\n"
#define GRAVITY "[force gravity]\ntype = gravity\ng = 0, 0, -9.81\n"
#define SLIDE_LAW "[contact]\nlaw = linear\nkn = 1e7\nzeta = 0.3\nfriction = 0.3\n" \
                  "kt_ratio = 0.2857142857142857\nzeta_t = 0.3\n"
/* a static box whose top face is z = 0, and the plane z = 0 */
#define TABLE "[obstacle table]\ntype = box\nhalf_extents = 5, 5, 0.5\nposition = 0, 0, -0.5\n"
#define FLOOR "[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 1\n"

static mb_system *build(const char *text)
{
    mb_system *sys = NULL;
    int st = mb_test_scene_text(text, &sys);
    cr_assert_eq(st, MB_SUCCESS, "%s", mb_last_error());
    return sys;
}

/* The trajectory of node 0 sampled on step: x, v, omega per step (n + 1 rows of 9). */
static double *run(const char *text, const char *scheme, double h, long n, int at_centre)
{
    mb_system *sys = build(text);
    if (at_centre)
        cr_assert_eq(mb_forces_add(sys->forces, &friction_at_centre,
                                   (void *)&friction_at_centre), MB_SUCCESS);
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    mb_nodes *on = mb_nodes_alloc(sys->nodes->n, 53);
    double *out = malloc((size_t)(n + 1) * 9 * sizeof *out);
    cr_assert_not_null(out);
    for (long k = 0; k <= n; k++) {
        if (k > 0)
            cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_on_step(st, sys, on), MB_SUCCESS);
        memcpy(&out[9 * k], on->x, 3 * sizeof(double));
        memcpy(&out[9 * k + 3], on->v, 3 * sizeof(double));
        memcpy(&out[9 * k + 6], on->omega, 3 * sizeof(double));
    }
    mb_nodes_free(on);
    mb_stepper_free(st);
    mb_system_free(sys);
    return out;
}

/* ---- sliding into rolling ---- */

#define H 5e-5
#define STEPS 8000                    /* to t = 0.4 s, past the onset at 0.194 s */

/* The arm of the law, a = r - delta/2 at the static overlap delta = m g / kn, and the
 * closed form with it (doc/dem.md, "Sliding into rolling"): while sliding, v' = -mu g and
 * w' = mu m g a / I, so the slip u = v - a w falls at mu g (1 + m a^2/I):
 *   t* = v0 / (mu g (1 + m a^2/I)),   v* = v0 - mu g t*   (= 2 v0/(7 mu g), 5 v0/7 at a = r). */
static const double M = 1.0, R = 0.1, MU = 0.3, G = 9.81, V0 = 2.0, KN = 1e7;

static double arm(void) { return R - M * G / (2.0 * KN); }

static void closed_onset(double *t, double *v)
{
    double a = arm(), I = 0.4 * M * R * R;
    *t = V0 / (MU * G * (1.0 + M * a * a / I));
    *v = V0 - MU * G * *t;
}

/* First zero of the slip u = v_x - a w_y, interpolated linearly between samples, and the
 * speed there. */
static void onset(const double *tr, long n, double h, double *t, double *v)
{
    double a = arm();
    *t = NAN;
    *v = NAN;
    for (long k = 1; k <= n; k++) {
        double u0 = tr[9 * (k - 1) + 3] - a * tr[9 * (k - 1) + 7];
        double u1 = tr[9 * k + 3] - a * tr[9 * k + 7];
        if (u0 > 0.0 && u1 <= 0.0) {
            double s = u0 / (u0 - u1);
            *t = (k - 1 + s) * h;
            *v = (1 - s) * tr[9 * (k - 1) + 3] + s * tr[9 * k + 3];
            return;
        }
    }
}

/* The tolerance of the onset (as tests/test_sliding_rolling.c): while sliding the forces
 * are constant once the normal transient has died (it decays as exp(-zeta w_n t),
 * w_n = sqrt(kn/m) = 3162 /s: e^-180 by t*), which the schemes integrate exactly, and the
 * slip is linear in t; the sample after the onset already feels the tangential spring,
 * which moves the interpolated zero by up to (w_t h)^2 h / 6, w_t^2 = k_t (1/m + a^2/I).
 * The transient (the sphere starts touching, not at the static overlap) changes the arm
 * a = r - delta/2 while it lasts: by |delta - mg/kn| <= m g/kn over ~1/(zeta w_n), a
 * relative change of the spin's impulse below (m g/kn)/r (zeta w_n t*)^-1 = 2e-7.
 * Bound (w_t h)^2 h / t* + 2e-7 relative. */
static double onset_bound(double tstar)
{
    double a = arm(), kt = KN * 2.0 / 7.0, wt = sqrt(kt * (1.0 / M + a * a / (0.4 * M * R * R)));
    return pow(wt * H, 2) * H / tstar + 2e-7;
}

static void expect_same(const double *a, const double *b, long n, const char *what)
{
    long diff = 0;
    for (long k = 0; k < 9 * (n + 1); k++)
        diff += a[k] != b[k];
    cr_expect_eq(diff, 0, "%s: %ld values differ between the box and the plane", what, diff);
}

static void slides_like_the_plane(const char *scheme)
{
    double *box = run(BALL GRAVITY SLIDE_LAW TABLE, scheme, H, STEPS, 0);
    double *plane = run(BALL GRAVITY SLIDE_LAW FLOOR, scheme, H, STEPS, 0);
    expect_same(box, plane, STEPS, scheme);
    double t, v, te, ve;
    onset(box, STEPS, H, &t, &v);
    closed_onset(&te, &ve);
    double bound = onset_bound(te);
    cr_log_info("%s: onset t %.10g (closed %.10g), v %.10g (closed %.10g), bound %.3g", scheme,
                t, te, v, ve, bound);
    cr_expect(fabs(t / te - 1.0) < bound, "%s: onset time %.10g vs %.10g", scheme, t, te);
    cr_expect(fabs(v / ve - 1.0) < bound, "%s: onset speed %.10g vs %.10g", scheme, v, ve);
    free(box);
    free(plane);
}

Test(dem_box, leapfrog_slides_into_rolling_on_a_face_as_on_the_plane)
{
    slides_like_the_plane("leapfrog");
}

Test(dem_box, verlet_nosquish_slides_into_rolling_on_a_face_as_on_the_plane)
{
    slides_like_the_plane("verlet-nosquish");
}

/* Hertz-Mindlin (E = 1e9 Pa, nu = 0.3, Tsuji zeta = 0.3, mu = 0.3) and the rolling torque
 * (mu_r = 0.01): on the face as on the plane, bit for bit, with the verlet-nosquish. */
Test(dem_box, hertz_mindlin_with_rolling_resistance_on_a_face_as_on_the_plane)
{
#define HM_LAW "[contact]\nlaw = hertz\nyoung = 1e9\npoisson = 0.3\nzeta = 0.3\n" \
               "friction = 0.3\nzeta_t = 0.2\nrolling = 0.01\n"
    double *box = run(BALL GRAVITY HM_LAW TABLE, "verlet-nosquish", H, STEPS, 0);
    double *plane = run(BALL GRAVITY HM_LAW FLOOR, "verlet-nosquish", H, STEPS, 0);
    expect_same(box, plane, STEPS, "hertz-mindlin");
    cr_expect(box[9 * STEPS + 7] > 1.0, "the sphere spins up: w_y %g", box[9 * STEPS + 7]);
    free(box);
    free(plane);
}

/* Negative control: friction at the centre never spins the sphere; it "rolls" when it
 * stops, at v0/(mu g) = 0.680 s (beyond the run: no onset at all) instead of 0.194 s. */
Test(dem_box, control_friction_at_the_centre_fails_the_onset)
{
    double *box = run(BALL GRAVITY SLIDE_LAW TABLE, "leapfrog", H, STEPS, 1);
    double t, v, te, ve;
    onset(box, STEPS, H, &t, &v);
    closed_onset(&te, &ve);
    cr_log_info("friction at the centre: onset %g (closed %g)", t, te);
    cr_expect(!(fabs(t / te - 1.0) < onset_bound(te)), "the fault is not seen: onset %g", t);
    free(box);
}

/* ---- normal impacts ---- */

/* No gravity; the frictionless clamped linear law, kn = 1e5 N/m, zeta = 0.3, m = 1 kg:
 * w0 = 316.2 /s, contact ~ pi/w0 = 10 ms; h = 0.01/w0. */
#define IMPACT_LAW "[contact]\nlaw = linear\nkn = 1e5\nzeta = 0.3\n"
#define IMPACT_H (0.01 / sqrt(1e5))
#define IMPACT_STEPS 1000             /* 31.6 ms: 1 ms of approach, the contact, the flight */

/* The tolerance of a restitution (as tests/test_collision.c): the scheme's phase error over
 * the contact, O((w0 h)^2), and the dashpot's jump c v at impact at an arbitrary phase of
 * the step, whose impulse is off by up to c v h/2: zeta w0 h relative. */
static double restitution_bound(void)
{
    double wh = 0.01;
    return wh * wh + 0.3 * wh;
}

/* The rebound speed along the unit direction d of a sphere thrown at 1 m/s along -d, and
 * the largest speed across d, from the last sample. */
static void rebound(const double *tr, const double d[3], double *along, double *across)
{
    const double *v = &tr[9 * IMPACT_STEPS + 3];
    double a = v[0] * d[0] + v[1] * d[1] + v[2] * d[2], c2 = 0.0;
    for (int k = 0; k < 3; k++)
        c2 += (v[k] - a * d[k]) * (v[k] - a * d[k]);
    *along = a;
    *across = sqrt(c2);
}

/* A sphere 1 mm above the top face z = 0 of the box, falling at 1 m/s onto it: the same
 * rebound as on the plane z = 0, bit for bit, and the clamped law's restitution. */
Test(dem_box, normal_impact_on_a_face_rebounds_as_on_the_plane)
{
#define DROP "[body ball]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 0.3, -0.2, 0.101\n" \
             "velocity = 0, 0, -1\n"
    double *box = run(DROP IMPACT_LAW TABLE, "leapfrog", IMPACT_H, IMPACT_STEPS, 0);
    double *plane = run(DROP IMPACT_LAW FLOOR, "leapfrog", IMPACT_H, IMPACT_STEPS, 0);
    expect_same(box, plane, IMPACT_STEPS, "normal impact");
    const double up[3] = { 0, 0, 1 };
    double e, across, ecl = mb_closed_linear_clamped_restitution(0.3);
    rebound(box, up, &e, &across);
    cr_log_info("face: e %.10f (closed %.10f), bound %.3g", e, ecl, restitution_bound());
    cr_expect(fabs(e / ecl - 1.0) < restitution_bound(), "e %.10f vs %.10f", e, ecl);
    cr_expect_eq(across, 0.0, "a normal impact on a face leaves no speed across");
    free(box);
    free(plane);
}

/* A sphere thrown at the edge x = z = 0.5 of the cube of half-extent 0.5 at the origin,
 * along the diagonal d = (1, 0, 1)/sqrt 2 of the edge's normal cone: the normal runs from
 * the edge to the centre, along d, so the sphere comes back along d with the restitution
 * of a face (a fixed point of contact: the same one-dimensional law along d, m* = m).
 * The rebound across d is round-off (1e-12 m/s); the restitution has the face's bound. */
Test(dem_box, impact_on_an_edge_rebounds_along_the_normal_from_the_edge)
{
    const double s = 0.101 / sqrt(2.0);
    char text[1024];
    snprintf(text, sizeof text,
             "[body ball]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = %.17g, 0.1, %.17g\n"
             "velocity = %.17g, 0, %.17g\n" IMPACT_LAW
             "[obstacle cube]\ntype = box\nhalf_extents = 0.5, 0.5, 0.5\n",
             0.5 + s, 0.5 + s, -1.0 / sqrt(2.0), -1.0 / sqrt(2.0));
    double *box = run(text, "leapfrog", IMPACT_H, IMPACT_STEPS, 0);
    const double d[3] = { 1.0 / sqrt(2.0), 0.0, 1.0 / sqrt(2.0) };
    double e, across, ecl = mb_closed_linear_clamped_restitution(0.3);
    rebound(box, d, &e, &across);
    cr_log_info("edge: e %.10f (closed %.10f), across %.3g", e, ecl, across);
    cr_expect(fabs(e / ecl - 1.0) < restitution_bound(), "e %.10f vs %.10f", e, ecl);
    cr_expect(across < 1e-12, "speed across the edge normal %g", across);
    free(box);
}

/* A frictional law refuses a sphere that overlaps a box at t = 0 (its history would be
 * unknown), as it refuses one in a plane; a moving box is refused by every DEM law. */
Test(dem_box, overlap_at_the_start_and_moving_boxes_are_refused)
{
    mb_system *sys = NULL;
    cr_expect_eq(mb_test_scene_text("[body ball]\ntype = sphere\nradius = 0.1\nmass = 1\n"
                                    "position = 0, 0, 0.09\n" SLIDE_LAW TABLE, &sys), MB_EINVAL);
    cr_expect_null(sys);
    cr_expect_not_null(strstr(mb_last_error(), "'ball' overlaps 'table' at t = 0"), "%s",
                       mb_last_error());
    cr_expect_eq(mb_test_scene_text(BALL IMPACT_LAW "[body crate]\ntype = box\n"
                                    "half_extents = 1, 1, 1\nmass = 1\nposition = 0, 0, -3\n", &sys),
                 MB_EINVAL);
    cr_expect_not_null(strstr(mb_last_error(), "'crate' is a moving box"), "%s", mb_last_error());
}
