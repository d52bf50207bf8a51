/* closed_contact.c -- normal impact on a linear spring-dashpot contact.
 *
 * During contact the overlap d obeys m d'' + c d' + k d = 0, d(0) = 0, d'(0) = v_in, i.e. the
 * damped oscillator with w0 = sqrt(k/m), zeta = c / (2 sqrt(k m)) < 1, w_d = w0 sqrt(1 - zeta^2):
 *   d(t) = (v_in / w_d) e^(-zeta w0 t) sin(w_d t).
 * Ending when the overlap returns to zero (the usual DEM convention):
 *   duration t_c = pi / w_d,  restitution e = -d'(t_c)/v_in = exp(-zeta pi / sqrt(1 - zeta^2)).
 * Ending when the contact force k d + c d' returns to zero (no tension; Schwager & Poeschel,
 * Phys. Rev. E 75 (2007) 051304): k d + c d' is proportional to
 *   ((1 - 2 zeta^2)/sqrt(1 - zeta^2)) sin(w_d t) + 2 zeta cos(w_d t),
 * zero first at w_d t_f = pi - atan2(2 zeta sqrt(1 - zeta^2), 1 - 2 zeta^2); e_f = -d'(t_f)/v_in. */
#include "mb_closed.h"
#include "mb_status.h"

#include <gsl/gsl_math.h>
#include <math.h>

int mb_closed_lsd_collision(double m_eff, double k, double c, mb_lsd_collision *out)
{
    int st = mb_closed_damped_params(m_eff, k, c, &out->omega0, &out->zeta);
    if (st != MB_SUCCESS)
        return st;
    double z = out->zeta;
    if (!(z < 1.0))
        MB_ERROR(MB_EDOM, "spring-dashpot contact: zeta = %g >= 1, the contact never rebounds", z);
    double sq = sqrt((1.0 - z) * (1.0 + z));
    out->omega_d = out->omega0 * sq;
    out->duration = M_PI / out->omega_d;
    out->restitution = exp(-z * M_PI / sq);
    double wt = M_PI - atan2(2.0 * z * sq, (1.0 - z) * (1.0 + z) - z * z);
    out->duration_force = wt / out->omega_d;
    /* d'/v_in = e^(-zeta w0 t) (cos w_d t - zeta / sq sin w_d t) */
    out->restitution_force = -exp(-z / sq * wt) * (cos(wt) - z / sq * sin(wt));
    return MB_SUCCESS;
}

int mb_closed_lsd_overlap(double m_eff, double k, double c, double v_in, double t,
                          double *d, double *d_dot)
{
    double w0, zeta;
    int st = mb_closed_damped_params(m_eff, k, c, &w0, &zeta);
    if (st != MB_SUCCESS)
        return st;
    return mb_closed_damped(w0, zeta, 0.0, v_in, t, d, d_dot);
}
