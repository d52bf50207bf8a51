/* mb_contact_ac.h -- projected Alart-Curnier iteration for one frictional contact block
 * (Alart & Curnier 1991; the per-contact solver of Solfec's Gauss-Seidel option):
 *     U~ = B + W R,
 *     R_n <- max(0, R_n - rho U~_n),
 *     R_t <- P_disk(mu R_n)(R_t - rho U~_t),
 * with rho = 1 / (max row sum of |W|) <= 1 / lambda_max(W), a contraction for the
 * frictionless part.  Its fixed points are exactly the solutions of the contact law
 * (complementarity, stick inside the disk, slip opposite to U_t on its boundary). */
#ifndef MB_CONTACT_AC_H
#define MB_CONTACT_AC_H

/* R holds the starting guess on entry and the result on exit.  Returns the number of
 * iterations (stop: |R_new - R_old| <= tol |R_new|), or -1 after maxit. */
int mb_contact_ac_solve(const double W[9], const double B[3], double mu, int maxit, double tol,
                        double R[3]);

#endif
