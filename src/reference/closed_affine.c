/* closed_affine.c -- affine (homogeneous linear) flow x' = L x, the motion of a material
 * point in a uniformly deforming space with constant velocity gradient L:
 *   x(t) = exp(L t) x0,   v(t) = L x(t).
 * The matrix exponential is GSL's gsl_linalg_exponential_ss (scaling and squaring with
 * a Taylor series; present in GSL >= 1.x, declared in gsl_linalg.h though not in the
 * manual), in GSL_PREC_DOUBLE mode. */
#include "mb_init.h"
#include "mb_closed.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>

int mb_closed_affine_flow(const double L[9], double t, const double x0[3], double x[3],
                          double v[3])
{
    double Lt[9], E[9];
    for (int k = 0; k < 9; k++) {
        if (!isfinite(L[k]))
            MB_ERROR(MB_EDOM, "affine flow: velocity gradient entry %d is not finite", k);
        Lt[k] = L[k] * t;
    }
    gsl_matrix_view A = gsl_matrix_view_array(Lt, 3, 3);
    gsl_matrix_view eA = gsl_matrix_view_array(E, 3, 3);
    mb_init();
    int st = gsl_linalg_exponential_ss(&A.matrix, &eA.matrix, GSL_PREC_DOUBLE);
    if (st != GSL_SUCCESS)
        MB_ERROR(MB_EFAILED, "affine flow: matrix exponential failed (%s)", gsl_strerror(st));
    double xt[3];
    for (int r = 0; r < 3; r++)
        xt[r] = E[3 * r] * x0[0] + E[3 * r + 1] * x0[1] + E[3 * r + 2] * x0[2];
    for (int r = 0; r < 3; r++) {
        v[r] = L[3 * r] * xt[0] + L[3 * r + 1] * xt[1] + L[3 * r + 2] * xt[2];
        x[r] = xt[r];
    }
    return MB_SUCCESS;
}
