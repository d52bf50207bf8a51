/* mb_consolver.h -- block Gauss-Seidel solver of U = B + W R with C(U, R) = 0 (seed
 * 003), sweeping the diagonal blocks with a per-constraint solver:
 *   contact   (Signorini + Newton restitution + Coulomb): with the restitution velocity
 *             U~ = U + [0, 0, e min(V_n, 0)] the local problem is solved exactly by cases:
 *             separation (B~_n >= 0: R = 0), stick (U~ = 0, R in the cone) or slip
 *             (U~_n = 0, R_t = -mu R_n U_t/|U_t|, the slip direction by scan + bisection);
 *   fixed point                   U = U*  (direct 3x3 solve of W_aa R = U* - B~),
 *   fixed / velocity direction, rigid link  U_n = U*_n, R_t = 0  (scalar solve).
 * Option contact_solver = projected Alart-Curnier replaces the case analysis by the
 * iteration of mb_contact_ac.h (to 1e-15, at most 1e5 iterations per block).
 * A sweep updates B~_a = B_a + sum_b W_ab R_b then R_a.  Stops when
 * ||R_new - R_old|| <= epsilon ||R_new|| or after maxiter sweeps.
 * The merit value is max over constraints of the velocity residual: for bilateral rows
 * |U - U*| on the constrained axes, for contacts the Alart-Curnier natural map
 * m_n = R_n - max(0, R_n - rho U~_n), m_t = R_t - P_disk(mu R_n)(R_t - rho U~_t),
 * divided by rho = 1 / W_nn (velocity units). */
#ifndef MB_CONSOLVER_H
#define MB_CONSOLVER_H

#include "mb_locdyn.h"

enum { MB_CONTACT_SOLVER_EXACT = 0, MB_CONTACT_SOLVER_AC = 1 };

typedef struct mb_solver_opts {
    double epsilon;
    int maxiter;
    int contact_solver;   /* MB_CONTACT_SOLVER_EXACT (cases above) or _AC (mb_contact_ac.h) */
} mb_solver_opts;

typedef struct mb_solver_result {
    int iterations;
    int converged;
    double merit;
} mb_solver_result;

/* MB_ESINGULAR (with the constraint named) when a diagonal block cannot be solved. */
int mb_consolver_solve(mb_locdyn *L, const mb_solver_opts *o, mb_solver_result *res);
/* The per-contact solver on its own: R for U = B + W R (restitution already in B);
 * scan_only = 1 skips the fixed-point fast path of the slip case (for tests). */
int mb_contact_local_solve(const double W[9], const double B[3], double mu, int scan_only, double R[3]);
/* Merit value of the current R (see above). */
double mb_consolver_merit(const mb_locdyn *L);
/* Rank of the bilateral rows of W (every axis of a fixed point, the normal axis of the
 * other bilateral kinds; contacts are ignored, they may be redundant as a box face on a
 * plane is): *rows receives their number m, *deficiency the count of singular values
 * <= tol sigma_max (GSL SVD of the m x m block gathered from the sparse store, m^2
 * memory and m^3 work, not the whole of W).  Redundant constraints (two fixed points on
 * one bar) give a consistent singular system that block Gauss-Seidel still solves; the
 * reactions along the redundant directions are then indeterminate.  The solfec scheme
 * calls this when the bilateral set changes (once per run), not every step. */
int mb_consolver_bilateral_rank(const mb_locdyn *L, double tol, size_t *rows, size_t *deficiency);

#endif
