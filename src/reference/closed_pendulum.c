/* closed_pendulum.c -- the mathematical pendulum theta'' = -(g/l) sin theta released from
 * rest at theta0 (|theta0| < pi).  With w0 = sqrt(g/l), k = sin(theta0/2), m = k^2:
 *   period  T = 4 K(k) / w0 = 4 sqrt(l/g) K(sin(theta0/2))
 *   angle   sin(theta/2) = k sn(K - w0 t | m),   theta' = -2 k w0 cn(K - w0 t | m)
 * (at t = 0: sn K = 1, cn K = 0, so theta = theta0, theta' = 0).  gsl_sf_ellint_Kcomp takes
 * the modulus k, gsl_sf_elljac_e the parameter m = k^2. */
#include "mb_closed.h"
#include "mb_status.h"

#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_sf_elljac.h>
#include <math.h>

static int check(double length, double g, double theta0)
{
    if (!(length > 0.0) || !(g > 0.0) || !isfinite(length) || !isfinite(g))
        MB_ERROR(MB_EDOM, "pendulum: length and g must be finite and > 0 (got %g, %g)", length, g);
    if (!(fabs(theta0) < M_PI))
        MB_ERROR(MB_EDOM, "pendulum: |theta0| must be < pi (got %g)", theta0);
    return MB_SUCCESS;
}

int mb_closed_pendulum_period(double length, double g, double theta0, double *period)
{
    int st = check(length, g, theta0);
    if (st != MB_SUCCESS)
        return st;
    *period = 4.0 * sqrt(length / g) * gsl_sf_ellint_Kcomp(fabs(sin(0.5 * theta0)), GSL_PREC_DOUBLE);
    return MB_SUCCESS;
}

int mb_closed_pendulum(double length, double g, double theta0, double t, double *theta,
                       double *theta_dot)
{
    int st = check(length, g, theta0);
    if (st != MB_SUCCESS)
        return st;
    double k = sin(0.5 * theta0), m = k * k, w0 = sqrt(g / length);
    if (k == 0.0) {
        *theta = *theta_dot = 0.0;
        return MB_SUCCESS;
    }
    double K = gsl_sf_ellint_Kcomp(fabs(k), GSL_PREC_DOUBLE);
    double u = fmod(K - w0 * t, 4.0 * K), sn, cn, dn;
    gsl_sf_elljac_e(u, m, &sn, &cn, &dn);
    *theta = 2.0 * asin(k * sn);
    *theta_dot = -2.0 * k * w0 * cn;
    return MB_SUCCESS;
}
