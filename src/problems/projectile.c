/* projectile.c -- a particle under uniform gravity and linear drag in the x-y plane:
 *   m v' = m g - D v,   g = (0, -g, 0).
 * Closed form with lambda = D/m and z = -lambda t:
 *   v(t) = v0 e^{z} + g t phi1(z),         phi1(z) = (e^z - 1)/z
 *   x(t) = x0 + v0 t phi1(z) + g t^2 phi2(z),  phi2(z) = (e^z - 1 - z)/z^2
 * evaluated by mb_closed_drag_projectile (closed_ballistic.c), which sums phi2 as a series
 * near z = 0 so that the drag-free limit D -> 0 (phi1 = 1, phi2 = 1/2: the parabola) is
 * reproduced without cancellation. */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_status.h"

#include <math.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "0.145", 1e-300, 1e300, NULL, "mass m (kg), > 0" },
    { "D", MB_OPT_DOUBLE, "0.0213", 0, 1e300, NULL, "linear drag coefficient D (kg/s), >= 0" },
    { "g", MB_OPT_DOUBLE, "9.81", -1e300, 1e300, NULL, "gravity along -y (m/s^2)" },
    { "x0", MB_OPT_DOUBLE, "0", -1e300, 1e300, NULL, "initial x (m)" },
    { "y0", MB_OPT_DOUBLE, "1.83", -1e300, 1e300, NULL, "initial y (m)" },
    { "vx0", MB_OPT_DOUBLE, "31.7", -1e300, 1e300, NULL, "initial x velocity (m/s)" },
    { "vy0", MB_OPT_DOUBLE, "12.9", -1e300, 1e300, NULL, "initial y velocity (m/s)" },
    MB_OPTION_END
};

/* the drag rate D/m must be finite (the ranges allow it to overflow) */
static int check_rate(const mb_options *p)
{
    double D = mb_options_double(p, "D"), m = mb_options_double(p, "mass");
    if (!isfinite(D / m))
        MB_ERROR(MB_EDOM, "problem 'projectile': the drag rate D/mass from D = %g, mass = %g is out "
                          "of the double range", D, m);
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    int st0 = check_rate(p);
    if (st0 != MB_SUCCESS)
        return st0;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_pose body;                 /* [body] type = point */
    mb_scene_pose_init(&body);
    body.mass = mb_options_double(p, "mass");
    body.x[0] = mb_options_double(p, "x0");
    body.x[1] = mb_options_double(p, "y0");
    body.v[0] = mb_options_double(p, "vx0");
    body.v[1] = mb_options_double(p, "vy0");
    mb_scene_place_body(sys->nodes, 0, &body);
    double g[3] = { 0.0, -mb_options_double(p, "g"), 0.0 };
    int st = mb_scene_add_gravity(sys, g);
    if (st == MB_SUCCESS && mb_options_double(p, "D") > 0.0)
        st = mb_scene_add_drag(sys, mb_options_double(p, "D"));
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

/* x(t), v(t) from mb_closed_drag_projectile (closed_ballistic.c) */
static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m = mb_options_double(p, "mass"), D = mb_options_double(p, "D");
    int st = check_rate(p);
    if (st != MB_SUCCESS)
        return st;
    double g[3] = { 0.0, -mb_options_double(p, "g"), 0.0 };
    double x0[3] = { mb_options_double(p, "x0"), mb_options_double(p, "y0"), 0.0 };
    double v0[3] = { mb_options_double(p, "vx0"), mb_options_double(p, "vy0"), 0.0 };
    return mb_closed_drag_projectile(D / m, g, x0, v0, t, out->x, out->v);
}

const mb_problem_type mb_problem_projectile = {
    .name = "projectile",
    .summary = "particle under gravity and linear drag m v' = m g - D v",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "v = v0 e^z + g t phi1(z), x = x0 + v0 t phi1(z) + g t^2 phi2(z), z = -Dt/m",
};
