/* mb_leapfrog.h -- the translational leap-frog kernels (double instance), exported for
 * benchmarks.  The scheme itself is used through the registry (mb_stepper.h) as
 * "leapfrog[adj_vel0=on|off,damping=LAMBDA,aspherical=fincham|fincham-halfstep|fincham-woo,
 * cell=on|off]" (cell: integrate in the system's deforming cell, mb_cell.h).
 *
 * Both kernels read s->x, s->v, s->f, s->inv_mass and write x(t+h), v(t+h/2) into the
 * caller's arrays (3 n doubles each), leaving s untouched:
 *   v(t+h/2) = v(t-h/2) + (F/m) h,   x(t+h) = x(t) + v(t+h/2) h.
 * translate: every node mid-step, none blocked, no damping (the hot path).
 * translate_general: blocked DOFs, first-step adjustment (adj_vel0) and Cundall damping;
 * *dissipated (may be NULL) receives the work removed by damping.
 * Return MB_SUCCESS, or MB_EDIVERGED when a result is NaN or Inf. */
#ifndef MB_LEAPFROG_H
#define MB_LEAPFROG_H

#include "mb_forces.h"
#include "mb_nodes.h"

int mb_leapfrog_translate(const mb_nodes *s, double *x_out, double *v_out, double h);
int mb_leapfrog_translate_general(const mb_nodes *s, double *x_out, double *v_out, double h,
                                  double damping, int adj_vel0, double *dissipated);

/* The leap-frog's on-step estimate at t (seed 000, Woo's), outside a deforming cell, of
 * every node of `on` whose velocities are mid-step (vel_mid set): forces F evaluated at
 * t on the mid-step velocities, then
 *   v(t) = v(t-h/2) + (h/2) f / m,
 *   spherical:  w(t) = w(t-h/2) + (h/2) T / I11,
 *   aspherical: L(t) = L(t-h/2) + (h/2) T (L in angmom),  w(t) = R I^-1 R^T L(t),
 * nothing on blocked DOFs; those nodes become on-step.  rotation 0: translation only.
 * The scheme's own synchronize and the trajectories of outside programs that declare
 * mid-step velocities (src/external/trajectory_sync.c) share it.  Returns the status of
 * the force evaluation. */
int mb_leapfrog_synchronize_nodes(const mb_forces *F, mb_nodes *on, double t, double h,
                                  int rotation);

#endif
