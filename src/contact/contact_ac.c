/* contact_ac.c -- projected Alart-Curnier fixed-point iteration for one frictional
 * contact block (see mb_contact_ac.h). */
#include "mb_contact_ac.h"

#include <math.h>

int mb_contact_ac_solve(const double W[9], const double B[3], double mu, int maxit, double tol,
                        double R[3])
{
    double g = 0.0;
    for (int r = 0; r < 3; r++)
        g = fmax(g, fabs(W[3 * r]) + fabs(W[3 * r + 1]) + fabs(W[3 * r + 2]));
    if (!(g > 0.0))
        return -1;
    double rho = 1.0 / g;
    for (int it = 1; it <= maxit; it++) {
        double U[3], N[3];
        for (int r = 0; r < 3; r++)
            U[r] = B[r] + W[3 * r] * R[0] + W[3 * r + 1] * R[1] + W[3 * r + 2] * R[2];
        N[2] = fmax(0.0, R[2] - rho * U[2]);
        N[0] = R[0] - rho * U[0];
        N[1] = R[1] - rho * U[1];
        double t = hypot(N[0], N[1]), rad = mu * N[2];
        if (t > rad) {
            N[0] = t > 0.0 ? N[0] * rad / t : 0.0;
            N[1] = t > 0.0 ? N[1] * rad / t : 0.0;
        }
        double ch = hypot(hypot(N[0] - R[0], N[1] - R[1]), N[2] - R[2]);
        double sz = hypot(hypot(N[0], N[1]), N[2]);
        R[0] = N[0];
        R[1] = N[1];
        R[2] = N[2];
        if (ch <= tol * sz)
            return it;
    }
    return -1;
}
