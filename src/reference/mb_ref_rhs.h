/* mb_ref_rhs.h -- the first-order ODE of a system, built generically from its force field,
 * for the reference engines (GSL odeiv2 in double, extrapolation in MPFR).
 *
 * State per node (13 numbers): y = (x[3], v[3], q[4], L[3]) with L the global angular
 * momentum.  Right-hand side (DESIGN 3):
 *   x' = v,   v' = f / m  (0 on blocked axes and for infinite mass),
 *   q' = 1/2 (0, w) (x) q,   w = R I^-1 R^T L,   L' = T  (0 on blocked rotation axes),
 * with R = R(q/|q|) in the homogeneous form (no renormalisation inside the ODE, so the
 * right-hand side stays smooth and the integrators' error expansions hold).  Forces and
 * torques come from mb_forces_eval / mb_forces_mpfr_eval on a scratch node store holding
 * x, v, q/|q|, w and L.  One templated source (ref_rhs_source.c) gives both bases. */
#ifndef MB_REF_RHS_H
#define MB_REF_RHS_H

#include "mb_forces.h"
#include "mb_nodes.h"

#define MB_REF_NY 13   /* state numbers per node */

typedef struct mb_refrhs mb_refrhs;
typedef struct mb_refrhs_mpfr mb_refrhs_mpfr;

/* Workspace for the system whose constants (masses, inertia, flags) are those of proto;
 * the force field is borrowed. */
mb_refrhs *mb_refrhs_alloc(const mb_nodes *proto, const mb_forces *forces);
mb_refrhs_mpfr *mb_refrhs_mpfr_alloc(const mb_nodes_mpfr *proto, const mb_forces *forces);
void mb_refrhs_free(mb_refrhs *w);
void mb_refrhs_mpfr_free(mb_refrhs_mpfr *w);
size_t mb_refrhs_dim(const mb_refrhs *w);
size_t mb_refrhs_mpfr_dim(const mb_refrhs_mpfr *w);

/* dy = f(t, y); status of the force evaluation. */
int mb_refrhs_eval(mb_refrhs *w, double t, const double *y, double *dy);
int mb_refrhs_mpfr_eval(mb_refrhs_mpfr *w, double t, const __mpfr_struct *y, __mpfr_struct *dy);

/* y from a store: x, v, q/|q|, L = R I R^T w (from the on-step angular velocity). */
void mb_refrhs_pack(mb_refrhs *w, const mb_nodes *s, double *y);
void mb_refrhs_mpfr_pack(mb_refrhs_mpfr *w, const mb_nodes_mpfr *s, __mpfr_struct *y);
/* A store from y: x, v, q/|q|, angmom = L, omega = R I^-1 R^T L, on-step (vel_mid = 0);
 * out must have the node count of proto; other fields are left as they are. */
void mb_refrhs_unpack(mb_refrhs *w, const double *y, mb_nodes *out);
void mb_refrhs_mpfr_unpack(mb_refrhs_mpfr *w, const __mpfr_struct *y, mb_nodes_mpfr *out);

#endif
