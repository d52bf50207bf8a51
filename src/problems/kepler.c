/* kepler.c -- a body on a Kepler orbit about a fixed centre, force -mu m x/|x|^3.
 * Start at periapsis on the x axis, moving along +y:
 *   x(0) = (a (1 - e), 0, 0),  v(0) = (0, sqrt(mu (1 + e) / (a (1 - e))), 0).
 * Closed form: mean motion n = sqrt(mu / a^3), mean anomaly M = n t, eccentric anomaly
 * E from Kepler's equation E - e sin E = M (GSL Newton root solver, gsl_root_fdfsolver),
 *   x = a (cos E - e),            y = a sqrt(1 - e^2) sin E,
 *   vx = -a n sin E / (1 - e cos E),   vy = a n sqrt(1 - e^2) cos E / (1 - e cos E).
 * Energy -mu m / (2 a) and angular momentum m sqrt(mu a (1 - e^2)) are invariants. */
#include "mb_force_central.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_roots.h>
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
    mb_nodes_set_mass(sys->nodes, 0, mb_options_double(p, "mass"));
    sys->nodes->x[0] = a * (1.0 - e);
    sys->nodes->v[1] = sqrt(mu * (1.0 + e) / (a * (1.0 - e)));
    int st = mb_forces_add(sys->forces, mb_force_central, mb_central_new(mu));
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

struct kepler_eq { double e, M; };

/* f(E) = E - e sin E - M, f'(E) = 1 - e cos E */
static double kep_f(double E, void *vp)
{
    const struct kepler_eq *k = vp;
    return E - k->e * sin(E) - k->M;
}

static double kep_df(double E, void *vp)
{
    const struct kepler_eq *k = vp;
    return 1.0 - k->e * cos(E);
}

static void kep_fdf(double E, void *vp, double *f, double *df)
{
    *f = kep_f(E, vp);
    *df = kep_df(E, vp);
}

/* Eccentric anomaly for mean anomaly M in [0, 2 pi).  Newton from E = pi for e > 0.8
 * (where M as a start can overshoot) and from M otherwise; f is monotone (f' >= 1 - e)
 * so the root is unique.  Stops when the Newton correction is below 4 ulp of 2 pi. */
static int kepler_eccentric_anomaly(double e, double M, double *E_out)
{
    struct kepler_eq k = { e, M };
    gsl_function_fdf F = { kep_f, kep_df, kep_fdf, &k };
    gsl_root_fdfsolver *s = gsl_root_fdfsolver_alloc(gsl_root_fdfsolver_newton);
    if (s == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    double E = e > 0.8 ? M_PI : M, E0;
    gsl_root_fdfsolver_set(s, &F, E);
    int status = GSL_CONTINUE;
    for (int iter = 0; iter < 100 && status == GSL_CONTINUE; iter++) {
        if (gsl_root_fdfsolver_iterate(s) != GSL_SUCCESS)
            break;
        E0 = E;
        E = gsl_root_fdfsolver_root(s);
        status = gsl_root_test_delta(E, E0, 8.0 * M_PI * GSL_DBL_EPSILON, 0.0);
    }
    gsl_root_fdfsolver_free(s);
    if (status != GSL_SUCCESS)
        MB_ERROR(MB_EMAXITER, "Kepler's equation did not converge (e = %g, M = %g)", e, M);
    *E_out = E;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double mu = mb_options_double(p, "mu"), a = mb_options_double(p, "a");
    double e = mb_options_double(p, "eccentricity");
    int st = check_rates(p);
    if (st != MB_SUCCESS)
        return st;
    double n = sqrt(mu / (a * a * a)), M = fmod(n * t, 2.0 * M_PI), E = 0.0;
    if (!isfinite(M))
        MB_ERROR(MB_EDOM, "kepler: mean anomaly n t = %g at t = %g is out of the double range", n * t, t);
    if (M < 0.0)
        M += 2.0 * M_PI;
    st = kepler_eccentric_anomaly(e, M, &E);
    if (st != MB_SUCCESS)
        return st;
    double c = cos(E), s = sin(E), b = sqrt(1.0 - e * e), d = 1.0 - e * c;
    out->x[0] = a * (c - e);
    out->x[1] = a * b * s;
    out->x[2] = 0.0;
    out->v[0] = -a * n * s / d;
    out->v[1] = a * n * b * c / d;
    out->v[2] = 0.0;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_kepler = {
    .name = "kepler",
    .summary = "Kepler orbit about a fixed centre, started at periapsis",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "E - e sin E = n t (GSL Newton); x = a (cos E - e), y = a sqrt(1-e^2) sin E",
};
