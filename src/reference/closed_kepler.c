/* closed_kepler.c -- Kepler orbits in closed form.
 *
 * r'' = -mu r / |r|^3, bound orbit with semi-major axis a and eccentricity 0 <= e < 1,
 * periapsis on +x at t = 0, motion towards +y.  Mean motion n = sqrt(mu / a^3), period
 * 2 pi / n, mean anomaly M = n t (reduced to [-pi, pi)), Kepler's equation
 *   E - e sin E = M
 * solved by GSL's Brent bracketing solver on [M - e, M + e] (f changes sign there:
 * f(M - e) = -e (1 + sin(M - e)) <= 0 <= e (1 - sin(M + e)) = f(M + e)), then polished
 * by two Newton steps E -= f / (1 - e cos E).  With b = a sqrt(1 - e^2):
 *   x = a (cos E - e),  y = b sin E,
 *   x' = -a n sin E / (1 - e cos E),  y' = b n cos E / (1 - e cos E).
 * Invariants: energy -mu / (2 a), angular momentum sqrt(mu a (1 - e^2)). */
#include "mb_init.h"
#include "mb_closed.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_roots.h>
#include <math.h>

struct kepler_eq { double M, e; };

static double kepler_f(double E, void *params)
{
    const struct kepler_eq *k = params;
    return E - k->e * sin(E) - k->M;
}

int mb_closed_kepler_anomaly(double mean_anomaly, double e, double *E)
{
    if (!(e >= 0.0 && e < 1.0))
        MB_ERROR(MB_EDOM, "Kepler's equation: eccentricity must be in [0, 1) (got %g)", e);
    if (!isfinite(mean_anomaly))
        MB_ERROR(MB_EDOM, "Kepler's equation: mean anomaly must be finite");
    /* reduce to [-pi, pi); E shifts by the same multiple of 2 pi */
    double turns = floor((mean_anomaly + M_PI) / (2.0 * M_PI));
    double M = mean_anomaly - turns * 2.0 * M_PI;
    if (e == 0.0 || M == 0.0) {
        *E = M + turns * 2.0 * M_PI;
        return MB_SUCCESS;
    }
    struct kepler_eq k = { M, e };
    gsl_function f = { kepler_f, &k };
    mb_init();
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (s == NULL)
        MB_ERROR(MB_ENOMEM, "Kepler's equation: out of memory");
    int st = gsl_root_fsolver_set(s, &f, M - e, M + e);
    double root = M;
    for (int iter = 0; st == GSL_SUCCESS && iter < 200; iter++) {
        st = gsl_root_fsolver_iterate(s);
        root = gsl_root_fsolver_root(s);
        double lo = gsl_root_fsolver_x_lower(s), hi = gsl_root_fsolver_x_upper(s);
        if (gsl_root_test_interval(lo, hi, 0.0, 4.0 * GSL_DBL_EPSILON) == GSL_SUCCESS)
            break;
    }
    gsl_root_fsolver_free(s);
    if (st != GSL_SUCCESS)
        MB_ERROR(MB_EFAILED, "Kepler's equation: root solver failed (%s)", gsl_strerror(st));
    for (int it = 0; it < 2; it++)
        root -= kepler_f(root, &k) / (1.0 - e * cos(root));
    *E = root + turns * 2.0 * M_PI;
    return MB_SUCCESS;
}

double mb_closed_kepler_period(double mu, double a) { return 2.0 * M_PI * sqrt(a * a * a / mu); }

int mb_closed_kepler(double mu, double a, double e, double t, double x[3], double v[3])
{
    if (!(mu > 0.0) || !(a > 0.0) || !isfinite(mu) || !isfinite(a))
        MB_ERROR(MB_EDOM, "Kepler orbit: mu and a must be finite and > 0 (got %g, %g)", mu, a);
    double n = sqrt(mu / (a * a * a)), E;
    int st = mb_closed_kepler_anomaly(n * t, e, &E);
    if (st != MB_SUCCESS)
        return st;
    double b = a * sqrt((1.0 - e) * (1.0 + e)), c = cos(E), s = sin(E);
    double den = 1.0 - e * c;
    x[0] = a * (c - e);
    x[1] = b * s;
    x[2] = 0.0;
    v[0] = -a * n * s / den;
    v[1] = b * n * c / den;
    v[2] = 0.0;
    return MB_SUCCESS;
}
