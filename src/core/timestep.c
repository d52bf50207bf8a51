/* timestep.c -- critical time-step estimates (P-wave, summed contact/spring stiffness)
 * and the DynDt adapter; equations and the meaning of sqrt(2) in mb_timestep.h. */
#include "mb_timestep.h"
#include "mb_status.h"

#include <gsl/gsl_math.h>
#include <math.h>
#include <stdlib.h>

static int pwave(const mb_nodes *s, double young, double rho, double *dt)
{
    if (!(isfinite(young) && young > 0.0))
        MB_ERROR(MB_EDOM, "P-wave time step: Young's modulus E must be finite and > 0 (got %g)",
                 young);
    double best = INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        double r = s->radius[i], m = s->mass[i];
        if (!(r > 0.0 && isfinite(r)) || !(m > 0.0 && isfinite(m)))
            continue;
        double rh = rho > 0.0 ? rho : m / (4.0 / 3.0 * M_PI * r * r * r);
        double d = r / sqrt(young / rh);     /* dt = r / sqrt(E / rho) */
        if (d < best)
            best = d;
    }
    if (!isfinite(best))
        MB_ERROR(MB_EINVAL, "P-wave time step: no node has a finite radius > 0 and finite mass");
    *dt = best;
    return MB_SUCCESS;
}

int mb_timestep_pwave(const mb_nodes *s, double young, double *dt)
{
    return pwave(s, young, 0.0, dt);
}

int mb_timestep_pwave_density(const mb_nodes *s, double young, double rho, double *dt)
{
    if (!(isfinite(rho) && rho > 0.0))
        MB_ERROR(MB_EDOM, "P-wave time step: density rho must be finite and > 0 (got %g)", rho);
    return pwave(s, young, rho, dt);
}

/* dt_cr = sqrt(2) min sqrt(m_i / k_ia) */
double mb_timestep_critical_from_stiffness(const mb_nodes *s, const double *k)
{
    double best = INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        if (s->inv_mass[i] == 0.0)
            continue;
        for (int a = 0; a < 3; a++) {
            if ((s->blocked[i] & (MB_BLOCK_X << a)) || !(k[3 * i + a] > 0.0))
                continue;
            double d = sqrt(s->mass[i] / k[3 * i + a]);
            if (d < best)
                best = d;
        }
    }
    return M_SQRT2 * best;
}

int mb_timestep_critical(const mb_forces *F, const mb_nodes *s, double *dt)
{
    double *k = malloc((3 * s->n + 1) * sizeof *k);
    if (k == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the stiffness scratch");
    mb_forces_stiffness(F, s, k);
    *dt = mb_timestep_critical_from_stiffness(s, k);
    free(k);
    return MB_SUCCESS;
}

mb_dyndt *mb_dyndt_alloc(size_t n_nodes, double dt0, double safety, double max_rel_inc)
{
    if (!(isfinite(dt0) && dt0 > 0.0))
        MB_ERROR_NULL(MB_EDOM, "DynDt: initial dt must be finite and > 0 (got %g)", dt0);
    if (!(safety > 0.0 && safety <= 1.0))
        MB_ERROR_NULL(MB_EDOM, "DynDt: safety must be in (0, 1] (got %g)", safety);
    if (!(isfinite(max_rel_inc) && max_rel_inc >= 0.0))
        MB_ERROR_NULL(MB_EDOM, "DynDt: max_rel_inc must be finite and >= 0 (got %g)", max_rel_inc);
    mb_dyndt *d = calloc(1, sizeof *d);
    if (d)
        d->k = malloc((3 * n_nodes + 1) * sizeof *d->k);
    if (d == NULL || d->k == NULL) {
        mb_dyndt_free(d);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate DynDt");
    }
    d->dt = dt0;
    d->safety = safety;
    d->max_rel_inc = max_rel_inc;
    d->last_critical = INFINITY;
    d->n = n_nodes;
    return d;
}

void mb_dyndt_free(mb_dyndt *d)
{
    if (d) {
        free(d->k);
        free(d);
    }
}

/* shrink at once to the bound, grow by at most the factor (1 + max_rel_inc) */
double mb_dyndt_next(double dt, double critical, double safety, double max_rel_inc)
{
    if (!isfinite(critical))
        return dt;
    double bound = safety * critical;
    if (bound < dt)
        return bound;
    double grown = dt * (1.0 + max_rel_inc);
    return grown < bound ? grown : bound;
}

int mb_dyndt_update(mb_dyndt *d, const mb_forces *F, const mb_nodes *s)
{
    if (s->n != d->n)
        MB_ERROR(MB_EINVAL, "DynDt built for %zu nodes, system has %zu", d->n, s->n);
    mb_forces_stiffness(F, s, d->k);
    d->last_critical = mb_timestep_critical_from_stiffness(s, d->k);
    d->dt = mb_dyndt_next(d->dt, d->last_critical, d->safety, d->max_rel_inc);
    return MB_SUCCESS;
}
