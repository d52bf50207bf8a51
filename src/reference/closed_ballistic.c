/* closed_ballistic.c -- free fall and the projectile with linear drag.
 *
 * Free fall:  x = x0 + v0 t + g t^2 / 2,  v = v0 + g t.
 * Linear drag m v' = m g - D v, gamma = D/m:
 *   v = v0 e^(-gamma t) + g t phi1(-gamma t)
 *   x = x0 + v0 t phi1(-gamma t) + g t^2 phi2(-gamma t)
 * with phi1(z) = (e^z - 1)/z = expm1(z)/z and phi2(z) = (e^z - 1 - z)/z^2.  This is the
 * textbook v = v_inf + (v0 - v_inf) e^(-gamma t), v_inf = g/gamma, rewritten so that it
 * has no cancellation for weak drag and reduces to free fall at gamma = 0
 * (phi1(0) = 1, phi2(0) = 1/2).  phi2 is summed as a series for |z| < 1/2. */
#include "mb_closed.h"
#include "mb_status.h"

#include <math.h>

int mb_closed_free_fall(const double g[3], const double x0[3], const double v0[3], double t,
                        double x[3], double v[3])
{
    for (int k = 0; k < 3; k++) {
        x[k] = x0[k] + v0[k] * t + 0.5 * g[k] * t * t;
        v[k] = v0[k] + g[k] * t;
    }
    return MB_SUCCESS;
}

static double phi1(double z) { return z == 0.0 ? 1.0 : expm1(z) / z; }

/* (e^z - 1 - z)/z^2 = sum z^k / (k+2)!; for |z| < 1/2 thirty terms give < 1e-40. */
static double phi2(double z)
{
    if (fabs(z) < 0.5) {
        double term = 0.5, sum = 0.5;
        for (int k = 1; k < 30; k++) {
            term *= z / (k + 2.0);
            sum += term;
        }
        return sum;
    }
    return (expm1(z) - z) / (z * z);
}

int mb_closed_drag_projectile(double gamma, const double g[3], const double x0[3],
                              const double v0[3], double t, double x[3], double v[3])
{
    if (!(gamma >= 0.0) || !isfinite(gamma))
        MB_ERROR(MB_EDOM, "drag projectile: gamma = D/m must be finite and >= 0 (got %g)", gamma);
    double z = -gamma * t, p1 = phi1(z), p2 = phi2(z), e = exp(z);
    for (int k = 0; k < 3; k++) {
        v[k] = v0[k] * e + g[k] * t * p1;
        x[k] = x0[k] + v0[k] * t * p1 + g[k] * t * t * p2;
    }
    return MB_SUCCESS;
}
