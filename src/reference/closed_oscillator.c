/* closed_oscillator.c -- undamped and damped linear oscillators in closed form.
 *
 * Harmonic:  x'' = -w^2 x,  x = x0 cos wt + (v0/w) sin wt.
 * Damped:    x'' + 2 a x' + w0^2 x = 0,  a = zeta w0,  D = w0^2 - a^2 = w0^2 (1-zeta)(1+zeta).
 * With C(t), S(t) the solutions of y'' = -D y with (C, C') = (1, 0), (S, S') = (0, 1):
 *   x = e^(-a t) [x0 C + (v0 + a x0) S],   v = e^(-a t) [v0 C - (a v0 + w0^2 x0) S]
 * (check: C' = -D S, S' = C, a^2 + D = w0^2).  C and S are entire in z = D t^2:
 *   C = sum (-z)^k / (2k)!,  S = t sum (-z)^k / (2k+1)!,
 * so the three regimes are one formula.  For |z| <= 1 the series is summed (this is the
 * critical neighbourhood: no sin(w_d t)/w_d with w_d -> 0, no 1 - zeta^2 cancellation);
 * otherwise cos/sin (under-damped) or, over-damped, the two real exponentials
 *   e^(-a t) C = (e^(-s t) + e^(-(a+b) t)) / 2,  e^(-a t) S = e^(-s t) (1 - e^(-2 b t)) / (2 b),
 * b = sqrt(-D), s = a - b = w0^2 / (a + b) (no cancellation, no overflow for large t). */
#include "mb_closed.h"
#include "mb_status.h"

#include <math.h>

int mb_closed_harmonic(double omega, double x0, double v0, double t, double *x, double *v)
{
    if (!(omega > 0.0) || !isfinite(omega))
        MB_ERROR(MB_EDOM, "harmonic oscillator: omega must be finite and > 0 (got %g)", omega);
    double c = cos(omega * t), s = sin(omega * t);
    *x = x0 * c + v0 / omega * s;
    *v = -x0 * omega * s + v0 * c;
    return MB_SUCCESS;
}

int mb_closed_damped_params(double m, double k, double c, double *omega0, double *zeta)
{
    if (!(m > 0.0) || !(k > 0.0) || !(c >= 0.0) || !isfinite(m) || !isfinite(k) || !isfinite(c))
        MB_ERROR(MB_EDOM, "damped oscillator: need m > 0, k > 0, c >= 0 (got %g, %g, %g)", m, k, c);
    /* zeta = (c / 2m) / w0: k m itself may overflow where k/m and c/m do not */
    *omega0 = sqrt(k / m);
    *zeta = c / (2.0 * m) / *omega0;
    return MB_SUCCESS;
}

/* C and S by their series in z = D t^2 (|z| <= 1: terms fall like 1/(2k)!, 24 terms
 * leave < 1e-40 relative). */
static void cs_series(double D, double t, double *C, double *S)
{
    double z = D * t * t, tc = 1.0, ts = 1.0, sc = 1.0, ss = 1.0;
    for (int k = 1; k <= 24; k++) {
        tc *= -z / ((2.0 * k - 1.0) * (2.0 * k));
        ts *= -z / ((2.0 * k) * (2.0 * k + 1.0));
        sc += tc;
        ss += ts;
    }
    *C = sc;
    *S = t * ss;
}

int mb_closed_damped(double omega0, double zeta, double x0, double v0, double t,
                     double *x, double *v)
{
    if (!(omega0 > 0.0) || !isfinite(omega0) || !(zeta >= 0.0) || !isfinite(zeta))
        MB_ERROR(MB_EDOM, "damped oscillator: need finite omega0 > 0 and zeta >= 0 (got %g, %g)",
                 omega0, zeta);
    double a = zeta * omega0, w2 = omega0 * omega0;
    double D = w2 * (1.0 - zeta) * (1.0 + zeta);
    double eC, eS; /* e^(-a t) C and e^(-a t) S */
    if (fabs(D) * t * t <= 1.0) {
        double C, S;
        cs_series(D, t, &C, &S);
        double e = exp(-a * t);
        eC = e * C;
        eS = e * S;
    } else if (D > 0.0) {
        double wd = sqrt(D), e = exp(-a * t);
        eC = e * cos(wd * t);
        eS = e * sin(wd * t) / wd;
    } else {
        double b = sqrt(-D), s = w2 / (a + b);
        double slow = exp(-s * t), fast = exp(-(a + b) * t);
        eC = 0.5 * (slow + fast);
        eS = -slow * expm1(-2.0 * b * t) / (2.0 * b);
    }
    *x = x0 * eC + (v0 + a * x0) * eS;
    *v = v0 * eC - (a * v0 + w2 * x0) * eS;
    return MB_SUCCESS;
}
