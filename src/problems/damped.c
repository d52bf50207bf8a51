/* damped.c -- the damped linear oscillator m x'' = -k x - c x' along the x axis.
 *
 * One node tied to the origin by a zero-rest-length spring k, with linear drag c
 * (f = -c v on every axis; the node moves along x only).  With gamma = c/(2m),
 * w0^2 = k/m and q = w0^2 - gamma^2 (> 0 under-, = 0 critically, < 0 over-damped):
 *   x(t) = e^{-gamma t} [ x0 C(t) + (v0 + gamma x0) S(t) ]
 *   v(t) = e^{-gamma t} [ v0 C(t) - (gamma v0 + w0^2 x0) S(t) ]
 * with S(t) = sin(sqrt(q) t)/sqrt(q), C = cos(sqrt(q) t)        (q > 0)
 *      S(t) = sinh(sqrt(-q) t)/sqrt(-q), C = cosh(sqrt(-q) t)   (q < 0)
 *      S(t) = t, C = 1                                          (q = 0).
 * S is evaluated as t sin(y)/y (or t sinh(y)/y), y = sqrt|q| t, which is accurate
 * uniformly through the critical point (no division by a small frequency), so one
 * formula serves all three regimes.  The regime is chosen by the parameters alone:
 * c < 2 sqrt(k m) under-, c = 2 sqrt(k m) critically, c > 2 sqrt(k m) over-damped. */
#include "mb_oscillator_setup.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <math.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "1.37", 1e-300, 1e300, NULL, "mass m (kg), > 0" },
    { "k", MB_OPT_DOUBLE, "5.9", 1e-300, 1e300, NULL, "spring stiffness k (N/m), > 0" },
    { "c", MB_OPT_DOUBLE, "0.83", 0, 1e300, NULL,
      "damping coefficient c (N s/m), >= 0; critical at c = 2 sqrt(k m) (5.686 by default)" },
    { "x0", MB_OPT_DOUBLE, "0.71", -1e300, 1e300, NULL, "initial displacement (m)" },
    { "v0", MB_OPT_DOUBLE, "-0.4", -1e300, 1e300, NULL, "initial velocity (m/s)" },
    MB_OPTION_END
};

/* gamma = c/(2m), w0^2 = k/m and q = w0^2 - gamma^2 must be finite (w0^2 > 0): the
 * parameter ranges allow them to overflow */
static int check_rates(const mb_options *p)
{
    double m = mb_options_double(p, "mass"), k = mb_options_double(p, "k");
    double c = mb_options_double(p, "c"), g = c / (2.0 * m), w02 = k / m;
    if (!(isfinite(w02) && w02 > 0.0 && isfinite(g) && isfinite(w02 - g * g)))
        MB_ERROR(MB_EDOM, "problem 'damped': k/mass = %g, c/(2 mass) = %g from k = %g, c = %g, "
                          "mass = %g are out of the double range", w02, g, k, c, m);
    return MB_SUCCESS;
}

/* The oscillator plus linear drag -c v (the dashpot of m x'' + c x' + k x = 0). */
static int setup(const mb_options *p, mb_system **out)
{
    int st = check_rates(p);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys;
    st = mb_oscillator_system(mb_options_double(p, "mass"), mb_options_double(p, "k"),
                              mb_options_double(p, "x0"), mb_options_double(p, "v0"), &sys);
    if (st != MB_SUCCESS)
        return st;
    if (mb_options_double(p, "c") > 0.0)
        st = mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(mb_options_double(p, "c")));
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

/* sin(y)/y or sinh(y)/y, with the limit 1 at y = 0 */
static double sinc_like(double y, int hyperbolic)
{
    if (y == 0.0)
        return 1.0;
    return (hyperbolic ? sinh(y) : sin(y)) / y;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m = mb_options_double(p, "mass"), k = mb_options_double(p, "k");
    double c = mb_options_double(p, "c");
    double x0 = mb_options_double(p, "x0"), v0 = mb_options_double(p, "v0");
    int st = check_rates(p);
    if (st != MB_SUCCESS)
        return st;
    double gamma = c / (2.0 * m), w02 = k / m, q = w02 - gamma * gamma;
    int hyper = q < 0.0;
    double y = sqrt(fabs(q)) * t;
    double S = t * sinc_like(y, hyper), C = hyper ? cosh(y) : cos(y), e = exp(-gamma * t);
    for (int a = 0; a < 3; a++)
        out->x[a] = out->v[a] = 0.0;
    out->x[0] = e * (x0 * C + (v0 + gamma * x0) * S);
    out->v[0] = e * (v0 * C - (gamma * v0 + w02 * x0) * S);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_damped = {
    .name = "damped",
    .summary = "damped linear oscillator m x'' = -k x - c x' (under/critical/over by c)",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "x = e^{-gt}[x0 C + (v0 + g x0) S], g = c/2m, S = sin(sqrt(q)t)/sqrt(q) "
                 "(sinh, or t, for q = k/m - g^2 < 0, = 0), C = S'",
};
