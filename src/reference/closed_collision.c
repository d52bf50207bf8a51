/* closed_collision.c -- closed forms of binary normal collisions (equations and
 * derivations in mb_closed_contact.h).  The Beta function comes from GSL. */
#include "mb_closed_contact.h"
#include "mb_status.h"

#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_gamma.h>
#include <float.h>
#include <math.h>

static int pos(double a) { return isfinite(a) && a > 0.0; }
static int ratio_ok(double z) { return z >= 0.0 && z < 1.0; }

double mb_closed_linear_zeta(double k, double meff, double c)
{
    if (!pos(k) || !pos(meff) || !(c >= 0.0))
        return NAN;
    return c / (2.0 * sqrt(meff * k));
}

/* e = exp(-zeta pi / sqrt(1 - zeta^2)) */
double mb_closed_linear_restitution(double zeta)
{
    if (!ratio_ok(zeta))
        return NAN;
    return exp(-zeta * M_PI / sqrt(1.0 - zeta * zeta));
}

/* t_c = pi / (w0 sqrt(1 - zeta^2)) */
double mb_closed_linear_duration(double k, double meff, double zeta)
{
    if (!pos(k) || !pos(meff) || !ratio_ok(zeta))
        return NAN;
    return M_PI / (sqrt(k / meff) * sqrt(1.0 - zeta * zeta));
}

/* w t* = pi - atan2(2 beta w, w^2 - beta^2), in units of w0 = 1 (returns w0 t*, and w/w0) */
static double clamped_phase(double zeta, double *wr)
{
    double w = sqrt(1.0 - zeta * zeta);
    *wr = w;
    return M_PI - atan2(2.0 * zeta * w, w * w - zeta * zeta);
}

double mb_closed_linear_clamped_force_time(double k, double meff, double zeta)
{
    if (!pos(k) || !pos(meff) || !ratio_ok(zeta))
        return NAN;
    double w, ph = clamped_phase(zeta, &w);
    return ph / (w * sqrt(k / meff));
}

/* e = exp(-beta t*) = exp(-zeta (w t*) / sqrt(1 - zeta^2)) */
double mb_closed_linear_clamped_restitution(double zeta)
{
    if (!ratio_ok(zeta))
        return NAN;
    double w, ph = clamped_phase(zeta, &w);
    return exp(-zeta * ph / w);
}

/* t* + sin(w t*) / w */
double mb_closed_linear_clamped_duration(double k, double meff, double zeta)
{
    if (!pos(k) || !pos(meff) || !ratio_ok(zeta))
        return NAN;
    double w, ph = clamped_phase(zeta, &w), w0 = sqrt(k / meff);
    return (ph + sin(ph)) / (w * w0);
}

/* C = (4/5) B(2/5, 1/2) (15/16)^{2/5} */
double mb_closed_hertz_constant(void)
{
    return 0.8 * gsl_sf_beta(0.4, 0.5) * pow(15.0 / 16.0, 0.4);
}

/* d_max = (15 m v^2 / (16 E sqrt(R)))^{2/5} */
double mb_closed_hertz_max_overlap(double meff, double reff, double estar, double v)
{
    if (!pos(meff) || !pos(reff) || !pos(estar) || !pos(v))
        return NAN;
    return pow(15.0 * meff * v * v / (16.0 * estar * sqrt(reff)), 0.4);
}

/* t_c = C (m^2 / (R E^2 v))^{1/5} */
double mb_closed_hertz_duration(double meff, double reff, double estar, double v)
{
    if (!pos(meff) || !pos(reff) || !pos(estar) || !pos(v))
        return NAN;
    return mb_closed_hertz_constant() * pow(meff * meff / (reff * estar * estar * v), 0.2);
}

int mb_closed_linear_overlap(double k, double meff, double zeta, int clamped, double v,
                             double tau, double *d, double *rate)
{
    if (!pos(k) || !pos(meff) || !ratio_ok(zeta) || !pos(v) || !isfinite(tau))
        MB_ERROR(MB_EDOM, "linear collision trajectory: need k, m*, v > 0, zeta in [0, 1)");
    if (tau <= 0.0) {
        *d = v * tau;
        *rate = v;
        return MB_SUCCESS;
    }
    double w0 = sqrt(k / meff), w = w0 * sqrt(1.0 - zeta * zeta), beta = zeta * w0;
    double tend = clamped ? mb_closed_linear_clamped_force_time(k, meff, zeta) : M_PI / w;
    double t = tau < tend ? tau : tend, ex = exp(-beta * t);
    double dd = v / w * ex * sin(w * t), rr = v * ex * (cos(w * t) - beta / w * sin(w * t));
    if (!clamped && tau >= tend)
        dd = 0.0;                        /* sin(pi) rounding */
    if (tau > tend)                      /* free flight at the separation speed -rr */
        dd += rr * (tau - tend);
    *d = dd;
    *rate = rr;
    return MB_SUCCESS;
}

/* F(y) = (2/5) B(y^{5/2}; 2/5, 1/2) */
static double hertz_F(double y)
{
    return 0.4 * gsl_sf_beta(0.4, 0.5) * gsl_sf_beta_inc(0.4, 0.5, pow(y, 2.5));
}

int mb_closed_hertz_overlap(double meff, double reff, double estar, double v, double tau,
                            double *d, double *rate)
{
    if (!pos(meff) || !pos(reff) || !pos(estar) || !pos(v) || !isfinite(tau))
        MB_ERROR(MB_EDOM, "Hertz collision trajectory: need m*, R*, E*, v > 0");
    if (tau <= 0.0) {
        *d = v * tau;
        *rate = v;
        return MB_SUCCESS;
    }
    double dmax = mb_closed_hertz_max_overlap(meff, reff, estar, v);
    double tc = mb_closed_hertz_duration(meff, reff, estar, v);
    if (tau >= tc) {
        *d = -v * (tau - tc);
        *rate = -v;
        return MB_SUCCESS;
    }
    double s = tau <= 0.5 * tc ? tau : tc - tau, target = s * v / dmax, lo = 0.0, hi = 1.0;
    for (int it = 0; it < 200 && hi - lo > 4.0 * DBL_EPSILON * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (hertz_F(mid) < target)
            lo = mid;
        else
            hi = mid;
    }
    double y = 0.5 * (lo + hi), sp = v * sqrt(fmax(0.0, 1.0 - pow(y, 2.5)));
    *d = y * dmax;
    *rate = tau <= 0.5 * tc ? sp : -sp;
    return MB_SUCCESS;
}
