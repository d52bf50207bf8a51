/* closed_granular.c -- Haff's law of a homogeneous cooling granular gas with Enskog's
 * collision rate and the Carnahan-Starling contact value (mb_closed_granular.h). */
#include "mb_closed_granular.h"

#include <math.h>

double mb_granular_chi_cs(double phi)
{
    double q = 1.0 - phi;
    return (1.0 - 0.5 * phi) / (q * q * q);
}

double mb_granular_collision_frequency(double n, double sigma, double chi, double T, double m)
{
    return 4.0 * sqrt(M_PI) * n * sigma * sigma * chi * sqrt(T / m);
}

double mb_haff_cooling_time(double n, double sigma, double chi, double e, double T0, double m)
{
    return 6.0 / ((1.0 - e * e) * mb_granular_collision_frequency(n, sigma, chi, T0, m));
}

double mb_haff_temperature(double T0, double t0, double t)
{
    double s = 1.0 + t / t0;
    return T0 / (s * s);
}

double mb_granular_sonine_a2(double e)
{
    return 16.0 * (1.0 - e) * (1.0 - 2.0 * e * e) / (81.0 - 17.0 * e + 30.0 * e * e * (1.0 - e));
}
