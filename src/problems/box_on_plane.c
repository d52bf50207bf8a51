/* box_on_plane.c -- a box sliding on the plane z = 0 with Coulomb friction mu under
 * gravity g until it stops (solfec scheme; four vertex contacts).
 * Closed form (rigid box, no tipping as long as mu c < a): deceleration mu g, so
 *   x(t) = v0 t - mu g t^2 / 2,  v(t) = v0 - mu g t  for t <= t_s = v0 / (mu g),
 *   stopping distance d = v0^2 / (2 mu g), then at rest.
 * The scheme integrates the constant deceleration exactly (trapezoidal positions), and
 * the step in which the box sticks ends at most mu g h^2 / 2 short of d.
 * The bottom face starts 1e-9 below the plane so that its four contacts are active
 * from the first step (contacts with gap <= 0 at the mid-step configuration). */
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_solfec_problem.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "2.385", 1e-100, 1e100, NULL, "box mass (kg)" },
    { "a", MB_OPT_DOUBLE, "0.3", 1e-6, 1e6, NULL, "half-extent along the sliding direction x (m)" },
    { "b", MB_OPT_DOUBLE, "0.2", 1e-6, 1e6, NULL, "half-extent along y (m)" },
    { "c", MB_OPT_DOUBLE, "0.1", 1e-6, 1e6, NULL, "half-height (m)" },
    { "mu", MB_OPT_DOUBLE, "0.35", 1e-6, 1e3, NULL, "Coulomb friction coefficient" },
    { "g", MB_OPT_DOUBLE, "9.81", 1e-6, 1e6, NULL, "gravitational acceleration (m/s^2)" },
    { "v0", MB_OPT_DOUBLE, "1.7", 1e-9, 1e6, NULL, "initial sliding velocity along x (m/s), > 0" },
    MB_OPTION_END
};

static double rd(const mb_options *p, const char *k) { return mb_options_double(p, k); }

/* The scene of doc/scenes.md, "Problems that are scenes": a box body with the moments
 * m/3 (b^2 + c^2, a^2 + c^2, a^2 + b^2) given as `inertia`, gravity, a plane obstacle
 * z = 0 and one Signorini law (friction mu, no restitution), built by the scene path. */
static int setup(const mb_options *p, mb_system **out)
{
    double m = rd(p, "mass"), a = rd(p, "a"), b = rd(p, "b"), c = rd(p, "c"), mu = rd(p, "mu");
    if (!(mu * c < a))
        MB_ERROR(MB_EDOM, "problem 'box-on-plane': mu c = %g >= a = %g, the box would tip over",
                 mu * c, a);
    mb_scene_body box = { .type = MB_SCENE_BOX, .extent = { a, b, c } };
    mb_scene_pose pose;
    mb_scene *s;
    double gv[3] = { 0, 0, -rd(p, "g") };
    mb_scene_pose_init(&pose);
    pose.mass = m;
    mb_v3_set(pose.inertia, m * (b * b + c * c) / 3.0, m * (a * a + c * c) / 3.0, m * (a * a + b * b) / 3.0);
    pose.x[2] = c - 1e-9;
    pose.v[0] = rd(p, "v0");
    int st = mb_scene_place_solfec_body(&box, &pose, gv, mu, 0.0, out, &s);
    return st == MB_SUCCESS ? mb_scene_place_floor(out, s) : st;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double v0 = rd(p, "v0"), dec = rd(p, "mu") * rd(p, "g"), ts = v0 / dec, tt = t < ts ? t : ts;
    for (int k = 0; k < 3; k++)
        out->x[k] = out->v[k] = out->omega[k] = out->angmom[k] = 0.0;
    out->x[0] = v0 * tt - 0.5 * dec * tt * tt;
    out->x[2] = rd(p, "c") - 1e-9;
    out->v[0] = v0 - dec * tt;
    mb_q_identity(out->q);
    return MB_SUCCESS;
}

typedef struct obs {
    const mb_system *sys;      /* the observed system (its scene holds the solver figures) */
    double d_exact, t_exact, stop_x, stop_t, pen_max;
    int stopped;
} obs;

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    obs *o = calloc(1, sizeof *o);
    if (o == NULL)
        return MB_ENOMEM;
    double v0 = rd(p, "v0"), dec = rd(p, "mu") * rd(p, "g");
    o->d_exact = v0 * v0 / (2.0 * dec);
    o->t_exact = v0 / dec;
    o->sys = sys;
    *ctx = o;
    return MB_SUCCESS;
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on)
{
    obs *o = ctx;
    const mb_scene *s = mb_scene_of(sys->forces);
    /* deepest vertex below the plane */
    for (int v = 0; v < 8; v++) {
        double A[3] = { (v & 1) ? s->extent[0] : -s->extent[0], (v & 2) ? s->extent[1] : -s->extent[1],
                        (v & 4) ? s->extent[2] : -s->extent[2] }, a[3];
        mb_q_rotate(a, on->q, A);
        double z = on->x[2] + a[2];
        if (-z > o->pen_max)
            o->pen_max = -z;
    }
    if (!o->stopped && sys->t > 0.0 && on->v[0] <= 1e-12) {
        o->stopped = 1;
        o->stop_x = on->x[0];
        o->stop_t = sys->t;
    }
    return MB_SUCCESS;
}

static int observe_end(void *ctx, mb_observation *out)
{
    obs *o = ctx;
    out->count = 0;
    if (o->stopped) {
        mb_observation_add(out, "contact.stopping_distance", o->stop_x);
        mb_observation_add(out, "contact.stopping_distance_exact", o->d_exact);
        mb_observation_add(out, "contact.stopping_distance_error", fabs(o->stop_x - o->d_exact) / o->d_exact);
        mb_observation_add(out, "contact.stop_time", o->stop_t);
        mb_observation_add(out, "contact.stop_time_exact", o->t_exact);
    }
    mb_observation_add(out, "constraint.violation_max", o->pen_max);
    mb_solfec_observe_solver(o->sys, out);
    free(o);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_box_on_plane = {
    .name = "box-on-plane",
    .summary = "box sliding to rest on a plane with Coulomb friction (solfec scheme only)",
    .params = params,
    .setup = setup,
    .flags = MB_PROBLEM_CONSTRAINED,
    .exact = exact,
    .exact_doc = "x = v0 t - mu g t^2/2 until t_s = v0/(mu g), then at rest at d = v0^2/(2 mu g)",
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
};
