/* bouncing_sphere.c -- a sphere dropped on the plane z = 0 with Newton restitution e
 * (solfec scheme; frictionless).  Radius r, released from rest with its lowest point
 * at height H.  Closed form: impact speed v1 = sqrt(2 g H) at t1 = sqrt(2 H / g); the
 * rebound leaves at e v1 and rises to e^2 H; bounce n leaves at e^n v1.
 * The scheme applies Newton's law to the velocity at the start of the impact step,
 * U_n(t+h) = -e U_n(t), so the measured ratio of the normal velocities across the
 * first impact step is e to rounding; the apex ratio carries an O(h) error from the
 * impact instant being resolved only to a step. */
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_solfec_problem.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "0.73", 1e-100, 1e100, NULL, "sphere mass (kg)" },
    { "radius", MB_OPT_DOUBLE, "0.15", 1e-6, 1e6, NULL, "sphere radius (m)" },
    { "height", MB_OPT_DOUBLE, "1.27", 1e-6, 1e6, NULL, "initial height of the lowest point (m)" },
    { "e", MB_OPT_DOUBLE, "0.63", 0.0, 1.0, NULL, "Newton restitution coefficient" },
    { "g", MB_OPT_DOUBLE, "9.81", 1e-6, 1e6, NULL, "gravitational acceleration (m/s^2)" },
    MB_OPTION_END
};

static double rd(const mb_options *p, const char *k) { return mb_options_double(p, k); }

/* The scene of doc/scenes.md, "Problems that are scenes": a sphere body with the
 * moments 2/5 m r^2 given as `inertia`, gravity, a plane obstacle z = 0 and one Signorini
 * law (no friction, restitution e), built by the scene path. */
static int setup(const mb_options *p, mb_system **out)
{
    double m = rd(p, "mass"), r = rd(p, "radius"), I = 0.4 * m * r * r;
    mb_scene_body ball = { .type = MB_SCENE_SPHERE, .extent = { r, r, r } };
    mb_scene_pose pose;
    mb_scene *s;
    double gv[3] = { 0, 0, -rd(p, "g") };
    mb_scene_pose_init(&pose);
    pose.mass = m;
    mb_v3_set(pose.inertia, I, I, I);
    pose.x[2] = r + rd(p, "height");
    int st = mb_scene_place_solfec_body(&ball, &pose, gv, 0.0, rd(p, "e"), out, &s);
    return st == MB_SUCCESS ? mb_scene_place_floor(out, s) : st;
}

typedef struct obs {
    const mb_system *sys;
    double e, H, r, vz_prev, ratio, apex, pen;
    int impacts;
} obs;

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    obs *o = calloc(1, sizeof *o);
    if (o == NULL)
        return MB_ENOMEM;
    o->sys = sys;
    o->e = rd(p, "e");
    o->H = rd(p, "height");
    o->r = rd(p, "radius");
    o->vz_prev = 0.0;
    *ctx = o;
    return MB_SUCCESS;
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on)
{
    obs *o = ctx;
    (void)sys;
    double vz = on->v[2], z = on->x[2] - o->r;
    o->pen = fmax(o->pen, -z);
    if (o->vz_prev < 0.0 && vz >= 0.0) {
        if (o->impacts == 0)
            o->ratio = vz / -o->vz_prev;
        o->impacts++;
    }
    if (o->impacts == 1 && z > o->apex)
        o->apex = z;
    o->vz_prev = vz;
    return MB_SUCCESS;
}

static int observe_end(void *ctx, mb_observation *out)
{
    obs *o = ctx;
    out->count = 0;
    if (o->impacts >= 1) {
        mb_observation_add(out, "bounce.restitution", o->ratio);
        mb_observation_add(out, "bounce.restitution_error", fabs(o->ratio - o->e));
        mb_observation_add(out, "bounce.apex_ratio", o->apex / o->H);
        mb_observation_add(out, "bounce.apex_ratio_exact", o->e * o->e);
    }
    mb_observation_add(out, "constraint.violation_max", o->pen);
    mb_solfec_observe_solver(o->sys, out);
    free(o);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_bouncing_sphere = {
    .name = "bouncing-sphere",
    .summary = "sphere dropped on a plane with Newton restitution e (solfec scheme only)",
    .params = params,
    .setup = setup,
    .flags = MB_PROBLEM_CONSTRAINED,
    .exact = NULL,
    .exact_doc = "none as a trajectory here; impact speed sqrt(2 g H), rebound e sqrt(2 g H), apex e^2 H",
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
};
