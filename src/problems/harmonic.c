/* harmonic.c -- the undamped linear oscillator m x'' = -k x along the x axis.
 * Closed form: x(t) = x0 cos(w t) + (v0/w) sin(w t), v(t) = -x0 w sin(w t) + v0 cos(w t),
 * w = sqrt(k/m), evaluated by mb_closed_harmonic (closed_oscillator.c).  One node tied
 * to the origin by a zero-rest-length spring. */
#include "mb_closed.h"
#include "mb_oscillator_setup.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <math.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "mass m (kg), > 0" },
    { "k", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "spring stiffness k (N/m), > 0" },
    { "x0", MB_OPT_DOUBLE, "1", -1e300, 1e300, NULL, "initial displacement (m)" },
    { "v0", MB_OPT_DOUBLE, "0", -1e300, 1e300, NULL, "initial velocity (m/s)" },
    MB_OPTION_END
};

/* w^2 = k/m must be a finite positive double (both ranges allow it to overflow) */
static int check_rate(const mb_options *p)
{
    double k = mb_options_double(p, "k"), m = mb_options_double(p, "mass"), w2 = k / m;
    if (!(isfinite(w2) && w2 > 0.0))
        MB_ERROR(MB_EDOM, "problem 'harmonic': w^2 = k/mass = %g from k = %g, mass = %g is out of "
                          "the double range", w2, k, m);
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    int st = check_rate(p);
    if (st != MB_SUCCESS)
        return st;
    return mb_oscillator_system(mb_options_double(p, "mass"), mb_options_double(p, "k"),
                                mb_options_double(p, "x0"), mb_options_double(p, "v0"), out);
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m = mb_options_double(p, "mass"), k = mb_options_double(p, "k");
    double x0 = mb_options_double(p, "x0"), v0 = mb_options_double(p, "v0");
    int st = check_rate(p);
    if (st != MB_SUCCESS)
        return st;
    for (int a = 0; a < 3; a++)
        out->x[a] = out->v[a] = 0.0;
    return mb_closed_harmonic(sqrt(k / m), x0, v0, t, &out->x[0], &out->v[0]);
}

const mb_problem_type mb_problem_harmonic = {
    .name = "harmonic",
    .summary = "undamped linear oscillator m x'' = -k x",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "x = x0 cos wt + (v0/w) sin wt, w = sqrt(k/m)",
};
