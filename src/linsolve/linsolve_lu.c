/* linsolve_lu.c -- dense LU through GSL (gsl_linalg_LU_decomp / LU_solve) with a
 * singularity test.  GSL 2.7 has no LU condition estimator, so the test uses the pivots
 * of the factorisation: a zero pivot, or min|u_ii| <= n u max|u_ii| (u = 2^-53), means
 * the system cannot be solved to any accuracy and MB_ESINGULAR is returned. */
#include "mb_init.h"
#include "mb_linsolve.h"
#include "mb_status.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>

mb_lu *mb_lu_alloc(size_t n)
{
    mb_lu *lu = calloc(1, sizeof *lu);
    if (lu == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    lu->n = n;
    lu->A = gsl_matrix_alloc(n ? n : 1, n ? n : 1);
    lu->perm = gsl_permutation_alloc(n ? n : 1);
    if (!lu->A || !lu->perm) {
        mb_lu_free(lu);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a dense %zu x %zu system", n, n);
    }
    return lu;
}

void mb_lu_free(mb_lu *lu)
{
    if (lu == NULL)
        return;
    if (lu->A)
        gsl_matrix_free(lu->A);
    if (lu->perm)
        gsl_permutation_free(lu->perm);
    free(lu);
}

int mb_lu_solve(mb_lu *lu, const double *b, double *x)
{
    int signum;
    mb_init();
    int st = gsl_linalg_LU_decomp(lu->A, lu->perm, &signum);
    double umin = INFINITY, umax = 0.0;
    for (size_t k = 0; k < lu->n; k++) {
        double u = fabs(gsl_matrix_get(lu->A, k, k));
        umin = u < umin ? u : umin;
        umax = u > umax ? u : umax;
    }
    lu->rcond_estimate = umax > 0.0 ? umin / umax : 0.0;
    if (st != GSL_SUCCESS || !(umin > (double)lu->n * DBL_EPSILON / 2 * umax)) {
        MB_ERROR(MB_ESINGULAR, "singular linear system (%zu unknowns): pivot ratio "
                 "min|u_ii|/max|u_ii| = %g <= n u", lu->n, lu->rcond_estimate);
    }
    gsl_vector_const_view bv = gsl_vector_const_view_array(b, lu->n);
    gsl_vector_view xv = gsl_vector_view_array(x, lu->n);
    st = gsl_linalg_LU_solve(lu->A, lu->perm, &bv.vector, &xv.vector);
    if (st != GSL_SUCCESS)
        MB_ERROR(MB_ESINGULAR, "LU solve failed: %s", gsl_strerror(st));
    return MB_SUCCESS;
}
