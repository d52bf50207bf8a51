/* mb_timestep.h -- critical time-step estimates and a DynDt-style adapter (DESIGN 4.2).
 *
 * P-wave estimate (Woo's PWaveTimeStep):  dt_p = min_i r_i / sqrt(E / rho_i),
 *   rho_i = m_i / ((4/3) pi r_i^3) unless a density is given.
 * Spring/contact estimate (Woo's DynDt):  dt_cr = sqrt(2) min_{i,a} sqrt(m_i / K_ia),
 *   K_ia = sum of the stiffnesses every force model puts on node i along axis a
 *   (mb_forces_stiffness).
 * What the sqrt(2) means.  Leap-frog (and velocity Verlet) on x'' = -w^2 x is stable for
 * h < 2/w.  Each model reports for node i and axis a the absolute row sum K_ia of its 3x3
 * block on that axis (for a spring or contact along the unit n, k |n_a| sum_b |n_b|, not
 * the diagonal k n_a^2, which lets the estimate of an oblique pair exceed the limit by up to sqrt(3));
 * the coupling block of a pair has the same row sum, so row (i, a) of M^-1 K sums to at
 * most 2 K_ia / m_i and by Gershgorin w_max^2 <= max 2 K_ia / m_i:
 *   sqrt(2) sqrt(m/K_ia) = 2 / sqrt(2 K_ia/m) <= 2 / w_max,
 * the estimate never exceeds the true limit.  It is exact for two equal free masses joined
 * by one axis-aligned spring (w^2 = 2k/m) and for the highest mode of a long uniform chain
 * (w_max -> 2 sqrt(k/m), K_ii = 2k); for a single node tied to an anchor (w^2 = k/m) it is
 * conservative by a factor sqrt(2).
 * DynDt adapter: every update computes the bound b = safety * dt_cr; dt becomes b at once
 * when b < dt, else min(b, dt (1 + max_rel_inc)).  No stiffness (dt_cr = +Inf) leaves dt
 * unchanged. */
#ifndef MB_TIMESTEP_H
#define MB_TIMESTEP_H

#include "mb_forces.h"

#define MB_DT_SAFETY_DEFAULT 0.9
#define MB_DT_MAX_REL_INC_DEFAULT 1e-4

/* P-wave estimate over nodes with radius > 0 and finite mass; MB_EDOM on E <= 0,
 * MB_EINVAL when no node qualifies. */
int mb_timestep_pwave(const mb_nodes *s, double young, double *dt);
/* Same with one density rho for every node. */
int mb_timestep_pwave_density(const mb_nodes *s, double young, double rho, double *dt);

/* sqrt(2) min sqrt(m_i / k[3 i + a]) over finite-mass nodes, unblocked axes and k > 0;
 * +Inf when there is none.  k is the 3n array of mb_forces_stiffness. */
double mb_timestep_critical_from_stiffness(const mb_nodes *s, const double *k);
/* Evaluate the models' stiffness (allocates a 3n scratch) and estimate. */
int mb_timestep_critical(const mb_forces *F, const mb_nodes *s, double *dt);

typedef struct mb_dyndt {
    double dt;            /* current step */
    double safety;        /* (0, 1], default 0.9 */
    double max_rel_inc;   /* >= 0, default 1e-4 */
    double last_critical; /* dt_cr of the last update (+Inf: no stiffness) */
    size_t n;
    double *k;            /* 3n scratch */
} mb_dyndt;

/* NULL (error recorded, naming the parameter) on bad input. */
mb_dyndt *mb_dyndt_alloc(size_t n_nodes, double dt0, double safety, double max_rel_inc);
void mb_dyndt_free(mb_dyndt *d);
/* Recompute the bound from the current state and adapt d->dt (no allocation). */
int mb_dyndt_update(mb_dyndt *d, const mb_forces *F, const mb_nodes *s);
/* The adaptation rule alone, for a given critical step. */
double mb_dyndt_next(double dt, double critical, double safety, double max_rel_inc);

#endif
