/* closed_collision.c -- closed forms of binary normal collisions (equations and
 * derivations in mb_closed_contact.h).  The Beta function comes from GSL. */
#include "mb_closed_contact.h"

#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_gamma.h>
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
