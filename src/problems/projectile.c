/* projectile.c -- a particle under uniform gravity and linear drag in the x-y plane:
 *   m v' = m g - D v,   g = (0, -g, 0).
 * Closed form with lambda = D/m and z = -lambda t:
 *   v(t) = v0 e^{z} + g t phi1(z),         phi1(z) = (e^z - 1)/z
 *   x(t) = x0 + v0 t phi1(z) + g t^2 phi2(z),  phi2(z) = (e^z - 1 - z)/z^2
 * phi1 is expm1(z)/z; phi2 uses its Taylor series for |z| < 0.1 (truncation after the
 * z^8 term: relative error below 0.1^9/11! < 1e-16) so the drag-free limit D -> 0
 * (phi1 = 1, phi2 = 1/2: the parabola) is reproduced without cancellation. */
#include "mb_problem.h"
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
    mb_nodes_set_mass(sys->nodes, 0, mb_options_double(p, "mass"));
    sys->nodes->x[0] = mb_options_double(p, "x0");
    sys->nodes->x[1] = mb_options_double(p, "y0");
    sys->nodes->v[0] = mb_options_double(p, "vx0");
    sys->nodes->v[1] = mb_options_double(p, "vy0");
    double g[3] = { 0.0, -mb_options_double(p, "g"), 0.0 };
    int st = mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g));
    if (st == MB_SUCCESS && mb_options_double(p, "D") > 0.0)
        st = mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(mb_options_double(p, "D")));
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

static double phi1(double z) { return z == 0.0 ? 1.0 : expm1(z) / z; }

static double phi2(double z)
{
    if (fabs(z) >= 0.1)
        return (expm1(z) - z) / (z * z);
    /* sum_{j>=0} z^j / (j+2)! through z^8, Horner */
    double s = 1.0 / 3628800.0;                     /* 1/10! */
    static const double inv_fact[] = { 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720,
                                       1.0 / 5040, 1.0 / 40320, 1.0 / 362880 };
    for (int j = 7; j >= 0; j--)
        s = inv_fact[j] + z * s;
    return s;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m = mb_options_double(p, "mass"), D = mb_options_double(p, "D");
    int st = check_rate(p);
    if (st != MB_SUCCESS)
        return st;
    double g[3] = { 0.0, -mb_options_double(p, "g"), 0.0 };
    double x0[3] = { mb_options_double(p, "x0"), mb_options_double(p, "y0"), 0.0 };
    double v0[3] = { mb_options_double(p, "vx0"), mb_options_double(p, "vy0"), 0.0 };
    double z = -D / m * t, e = exp(z), p1 = phi1(z), p2 = phi2(z);
    for (int a = 0; a < 3; a++) {
        out->v[a] = v0[a] * e + g[a] * t * p1;
        out->x[a] = x0[a] + v0[a] * t * p1 + g[a] * t * t * p2;
    }
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_projectile = {
    .name = "projectile",
    .summary = "particle under gravity and linear drag m v' = m g - D v",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "v = v0 e^z + g t phi1(z), x = x0 + v0 t phi1(z) + g t^2 phi2(z), z = -Dt/m",
};
