/* assembly_velocities.c -- Maxwell-Boltzmann velocities of zero total momentum at a
 * translational temperature (mb_assembly.h). */
#include "mb_assembly.h"
#include "mb_status.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

int mb_thermal_velocities(size_t n, const double *m, double T, unsigned long seed, double *v)
{
    if (!(isfinite(T) && T >= 0.0))
        MB_ERROR(MB_EDOM, "velocities: the temperature must be finite and >= 0 (got %g)", T);
    double mass = 0.0, p[3] = { 0.0, 0.0, 0.0 }, twice_ke = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!(isfinite(m[i]) && m[i] > 0.0))
            MB_ERROR(MB_EDOM, "velocities: mass %zu must be finite and > 0 (got %g)", i, m[i]);
        mass += m[i];
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (rng == NULL)
        MB_ERROR(MB_ENOMEM, "velocities: cannot allocate a random generator");
    gsl_rng_set(rng, seed);
    /* each component of N(0, 1/m): equipartition before the scaling */
    for (size_t k = 0; k < 3 * n; k++) {
        v[k] = gsl_ran_gaussian_ziggurat(rng, 1.0) / sqrt(m[k / 3]);
        p[k % 3] += m[k / 3] * v[k];
    }
    gsl_rng_free(rng);
    for (size_t k = 0; k < 3 * n; k++) {
        v[k] -= p[k % 3] / mass;
        twice_ke += m[k / 3] * v[k] * v[k];
    }
    double scale = n > 1 && twice_ke > 0.0 ? sqrt(T * 3.0 * (double)(n - 1) / twice_ke) : 0.0;
    for (size_t k = 0; k < 3 * n; k++)
        v[k] *= scale;
    return MB_SUCCESS;
}
