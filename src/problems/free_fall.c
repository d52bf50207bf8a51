/* free_fall.c -- a point mass in uniform gravity g along -z.
 * Closed form: x(t) = x0 + v0 t + 1/2 g t^2,  v(t) = v0 + g t,  g = (0, 0, -g).
 * Leap-frog with the first-step adjustment reproduces it to round-off (constant
 * acceleration: the mid-point velocity is exact), which is what makes it a test.
 * A scene special case: built by the scene path (mb_scene_place.h). */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_status.h"

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "1.7", 1e-300, 1e300, NULL, "mass m (kg), > 0" },
    { "g", MB_OPT_DOUBLE, "9.81", 0, 1e6, NULL, "gravitational acceleration along -z (m/s^2)" },
    { "z0", MB_OPT_DOUBLE, "10.3", -1e12, 1e12, NULL, "initial height (m)" },
    { "vx0", MB_OPT_DOUBLE, "0.83", -1e12, 1e12, NULL, "initial horizontal velocity (m/s)" },
    { "vz0", MB_OPT_DOUBLE, "2.385", -1e12, 1e12, NULL, "initial vertical velocity (m/s)" },
    MB_OPTION_END
};

static int setup(const mb_options *p, mb_system **out)
{
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_pose body;                 /* [body] type = point */
    mb_scene_pose_init(&body);
    body.mass = mb_options_double(p, "mass");
    body.x[2] = mb_options_double(p, "z0");
    body.v[0] = mb_options_double(p, "vx0");
    body.v[2] = mb_options_double(p, "vz0");
    mb_scene_place_body(sys->nodes, 0, &body);
    double g[3] = { 0.0, 0.0, -mb_options_double(p, "g") };
    int st = mb_scene_add_gravity(sys, g);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

/* x(t), v(t) from mb_closed_free_fall (closed_ballistic.c) */
static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double g[3] = { 0.0, 0.0, -mb_options_double(p, "g") };
    double x0[3] = { 0.0, 0.0, mb_options_double(p, "z0") };
    double v0[3] = { mb_options_double(p, "vx0"), 0.0, mb_options_double(p, "vz0") };
    return mb_closed_free_fall(g, x0, v0, t, out->x, out->v);
}

const mb_problem_type mb_problem_free_fall = {
    .name = "free-fall",
    .summary = "point mass in uniform gravity along -z",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "x = x0 + v0 t + 1/2 g t^2, v = v0 + g t",
};
