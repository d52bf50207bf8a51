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
 * They are evaluated by mb_closed_damped (closed_oscillator.c: a series near critical
 * damping, two real exponentials when over-damped, so no cosh * e^{-gamma t} overflow).
 * The regime is chosen by the parameters alone:
 * c < 2 sqrt(k m) under-, c = 2 sqrt(k m) critically, c > 2 sqrt(k m) over-damped. */
#include "mb_closed.h"
#include "mb_oscillator_setup.h"
#include "mb_problem.h"
#include "mb_scene_place.h"
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

/* The oscillator plus linear drag -c v (the dashpot of m x'' + c x' + k x = 0): a scene's
 * point on a spring to the origin with [force] type = drag, built by the scene path. */
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
        st = mb_scene_add_drag(sys, mb_options_double(p, "c"));
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

/* x(t), v(t) from mb_closed_damped (closed_oscillator.c), which stays finite in every
 * regime: strongly over-damped motion is the sum of two decaying exponentials there. */
static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m = mb_options_double(p, "mass"), k = mb_options_double(p, "k");
    double c = mb_options_double(p, "c"), omega0, zeta;
    int st = check_rates(p);
    if (st == MB_SUCCESS)
        st = mb_closed_damped_params(m, k, c, &omega0, &zeta);
    if (st != MB_SUCCESS)
        return st;
    for (int a = 0; a < 3; a++)
        out->x[a] = out->v[a] = 0.0;
    return mb_closed_damped(omega0, zeta, mb_options_double(p, "x0"), mb_options_double(p, "v0"),
                            t, &out->x[0], &out->v[0]);
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
