/* mb_pair_lj.h -- Lennard-Jones pair potentials on the shared neighbour list, in the two
 * forms that differ at the cutoff (LAMMPS pair lj/cut with pair_modify shift yes, and
 * pair lj/smooth/linear):
 *
 *   V(r)    = 4 eps [(sigma/r)^12 - (sigma/r)^6]                     (Lennard-Jones 1924)
 *   lj_cut:    V_s(r)  = V(r) - V(rc)                        for r < rc, 0 beyond
 *              energy continuous, force jumps by V'(rc) at rc
 *   lj_smooth: V_sf(r) = V(r) - V(rc) - (r - rc) V'(rc)      for r < rc, 0 beyond
 *              energy and force continuous at rc (Allen & Tildesley, 2nd ed., eq. 2.143;
 *              LAMMPS lj/smooth/linear), the second derivative jumps
 *
 * The force on i of the pair (i, j), d = x_j - x_i, r = |d|, is f_i = (W'(r)/r) d and
 * f_j = -f_i, W the shifted potential; its Jacobian block df_i/dx_j is
 *   K = g I + (W''(r) - g) d d^T / r^2,   g = W'(r)/r,
 * with df_i/dx_i = df_j/dx_j = -K and df_j/dx_i = K.
 * V'(r) = -24 eps (2 s12 - s6)/r,  V''(r) = 24 eps (26 s12 - 7 s6)/r^2,  s6 = (sigma/r)^6.
 *
 * Pairs come from a neighbour list (mb_neighbour.h) that the model retains and may share
 * with other pair interactions; the list's cutoff must be >= rc.  Every force evaluation
 * updates the list by its displacement criterion.  Double precision only (no MPFR instance:
 * the neighbour list and its pair order are double-only). */
#ifndef MB_PAIR_LJ_H
#define MB_PAIR_LJ_H

#include "mb_forces.h"
#include "mb_neighbour.h"

typedef struct mb_lj_params {
    double epsilon;   /* well depth, finite > 0 */
    double sigma;     /* length scale, finite > 0 */
    double cutoff;    /* rc, finite > 0 and <= the neighbour list's cutoff */
} mb_lj_params;

extern const mb_force_type *const mb_force_lj_cut;
extern const mb_force_type *const mb_force_lj_smooth;

/* NULL (MB_EDOM recorded) on a bad parameter; the model retains nl. */
void *mb_lj_cut_new(const mb_lj_params *p, mb_neighbour_list *nl);
void *mb_lj_smooth_new(const mb_lj_params *p, mb_neighbour_list *nl);

/* The shifted pair energy W(r) and its derivative W'(r) of a model (for tests and for
 * independent checks of reports). */
void mb_lj_pair(const void *model, double r, double *W, double *dW);

#endif
