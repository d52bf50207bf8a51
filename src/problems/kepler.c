/* kepler.c -- a body on a Kepler orbit about a fixed centre, force -mu m x/|x|^3.
 * Start at periapsis on the x axis, moving along +y:
 *   x(0) = (a (1 - e), 0, 0),  v(0) = (0, sqrt(mu (1 + e) / (a (1 - e))), 0).
 * Closed form: mean motion n = sqrt(mu / a^3), mean anomaly M = n t, eccentric anomaly
 * E from Kepler's equation E - e sin E = M (mb_closed_kepler, closed_kepler.c),
 *   x = a (cos E - e),            y = a sqrt(1 - e^2) sin E,
 *   vx = -a n sin E / (1 - e cos E),   vy = a n sqrt(1 - e^2) cos E / (1 - e cos E).
 * Energy -mu m / (2 a) and angular momentum m sqrt(mu a (1 - e^2)) are invariants. */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_status.h"

#include <math.h>

static const mb_option_spec params[] = {
    { "mu", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "gravitational parameter mu = G M (m^3/s^2), > 0" },
    { "a", MB_OPT_DOUBLE, "1", 1e-100, 1e100, NULL, "semi-major axis (m), > 0" },
    { "eccentricity", MB_OPT_DOUBLE, "0.6", 0, 0.95, NULL, "orbit eccentricity e in [0, 0.95]" },
    { "mass", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "mass of the orbiting body (kg)" },
    MB_OPTION_END
};

/* the mean motion sqrt(mu/a^3) and the periapsis speed must be finite positive doubles
 * (the ranges of mu and a allow them to overflow or underflow) */
static int check_rates(const mb_options *p)
{
    double mu = mb_options_double(p, "mu"), a = mb_options_double(p, "a");
    double e = mb_options_double(p, "eccentricity");
    double n = sqrt(mu / (a * a * a)), v = sqrt(mu * (1.0 + e) / (a * (1.0 - e)));
    if (!(isfinite(n) && n > 0.0 && isfinite(v) && v > 0.0))
        MB_ERROR(MB_EDOM, "problem 'kepler': mean motion sqrt(mu/a^3) = %g, periapsis speed %g from "
                          "mu = %g, a = %g are out of the double range", n, v, mu, a);
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    int st0 = check_rates(p);
    if (st0 != MB_SUCCESS)
        return st0;
    double mu = mb_options_double(p, "mu"), a = mb_options_double(p, "a");
    double e = mb_options_double(p, "eccentricity");
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_pose body;                 /* [body] type = point, started at periapsis */
    mb_scene_pose_init(&body);
    body.mass = mb_options_double(p, "mass");
    body.x[0] = a * (1.0 - e);
    body.v[1] = sqrt(mu * (1.0 + e) / (a * (1.0 - e)));
    mb_scene_place_body(sys->nodes, 0, &body);
    int st = mb_scene_add_central(sys, mu);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

/* x(t), v(t) from mb_closed_kepler (closed_kepler.c) */
static int exact(const mb_options *p, double t, mb_nodes *out)
{
    int st = check_rates(p);
    if (st != MB_SUCCESS)
        return st;
    return mb_closed_kepler(mb_options_double(p, "mu"), mb_options_double(p, "a"),
                            mb_options_double(p, "eccentricity"), t, out->x, out->v);
}

const mb_problem_type mb_problem_kepler = {
    .name = "kepler",
    .summary = "Kepler orbit about a fixed centre, started at periapsis",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "E - e sin E = n t (GSL Brent + Newton); x = a (cos E - e), y = a sqrt(1-e^2) sin E",
};
