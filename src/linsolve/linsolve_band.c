/* linsolve_band.c -- A = M - h C - h^2 K assembled into band storage and solved by GSL's
 * banded LU with partial pivoting (gsl_linalg_LU_band_decomp, after LAPACK's DGBTF2):
 * an exact direct solve in O(n w^2) for a half-bandwidth w, so O(n) on chains, whose
 * nodes couple only to their neighbours (w = 5 unknowns).
 *
 * Band storage as GSL expects it: an N x (2 lb + ub + 1) matrix AB with
 *   AB(j, lb + ub + i - j) = A(i, j)   for max(0, j - ub) <= i <= min(N - 1, j + lb)
 * (LAPACK's layout transposed); the first lb columns take the fill-in of the pivoting.
 * Here lb = ub = w.  Entries are formed in the order of mb_csr_assemble (mass, then
 * -(h C + h^2 K) of each block in list order, duplicates summed; fixed rows last), so
 * the banded and the Krylov paths factor the very same matrix. */
#include "mb_linsolve.h"
#include "mb_status.h"

#include <float.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>

size_t mb_band_halfwidth(const mb_jacobian *J)
{
    size_t d = 0;
    for (size_t b = 0; b < J->count; b++) {
        size_t r = J->row[b], c = J->col[b], e = r > c ? r - c : c - r;
        d = e > d ? e : d;
    }
    return 3 * d + 2;     /* unknowns 3r + a and 3c + e, a, e in 0..2 */
}

void mb_band_free(mb_band *B)
{
    if (B == NULL)
        return;
    gsl_matrix_free(B->AB);
    gsl_vector_uint_free(B->piv);
    free(B);
}

mb_band *mb_band_alloc(size_t n, size_t w)
{
    mb_band *B = calloc(1, sizeof *B);
    if (B == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    B->n = n;
    B->w = w < n ? w : (n > 0 ? n - 1 : 0);      /* GSL needs w < n */
    B->AB = gsl_matrix_alloc(n, 3 * B->w + 1);
    B->piv = gsl_vector_uint_alloc(n);
    if (B->AB == NULL || B->piv == NULL) {
        mb_band_free(B);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a band matrix of %zu x %zu", n, 3 * w + 1);
    }
    return B;
}

/* the stored entry A(i, j); |i - j| <= w */
static double *band_at(mb_band *B, size_t i, size_t j)
{
    return gsl_matrix_ptr(B->AB, j, 2 * B->w + i - j);
}

void mb_band_assemble(mb_band *B, const mb_nodes *s, const mb_jacobian *J, double h)
{
    const double h2 = h * h;
    gsl_matrix_set_zero(B->AB);
    for (size_t k = 0; k < B->n; k++)
        *band_at(B, k, k) = s->mass[k / 3];
    for (size_t b = 0; b < J->count; b++) {
        double G[9];
        mb_linsys_block_g(&J->dfdv[9 * b], &J->dfdx[9 * b], h, h2, G);
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++)
                *band_at(B, 3 * J->row[b] + (size_t)a, 3 * J->col[b] + (size_t)e) -= G[3 * a + e];
    }
    for (size_t k = 0; k < B->n; k++)
        if (mb_linsys_fixed(s, k)) {
            size_t j0 = k > B->w ? k - B->w : 0, j1 = k + B->w < B->n ? k + B->w : B->n - 1;
            for (size_t j = j0; j <= j1; j++)
                *band_at(B, k, j) = 0.0;
            *band_at(B, k, k) = s->inv_mass[k / 3] == 0.0 ? 1.0 : s->mass[k / 3];
        }
}

void mb_band_from_blocktri(mb_band *B, const mb_blocktri *T)
{
    gsl_matrix_set_zero(B->AB);
    for (size_t i = 0; i < T->n; i++)
        for (size_t a = 0; a < 3; a++)
            for (size_t e = 0; e < 3; e++) {
                size_t r = 3 * i + a;
                *band_at(B, r, 3 * i + e) = T->D[9 * i + 3 * a + e];
                if (B->w >= 5 && i > 0)
                    *band_at(B, r, 3 * (i - 1) + e) = T->L[9 * i + 3 * a + e];
                if (B->w >= 5 && i + 1 < T->n)
                    *band_at(B, r, 3 * (i + 1) + e) = T->U[9 * i + 3 * a + e];
            }
}

int mb_band_solve(mb_band *B, const double *b, double *x)
{
    gsl_linalg_LU_band_decomp(B->n, B->w, B->w, B->AB, B->piv);
    double umin = INFINITY, umax = 0.0;          /* U's diagonal: column 2w of AB */
    for (size_t k = 0; k < B->n; k++) {
        double u = fabs(gsl_matrix_get(B->AB, k, 2 * B->w));
        umin = u < umin ? u : umin;
        umax = u > umax ? u : umax;
    }
    if (!(umin > (double)B->n * DBL_EPSILON / 2 * umax))   /* as mb_lu_solve */
        MB_ERROR(MB_ESINGULAR, "singular linear system (%zu unknowns, banded): pivot ratio "
                 "min|u_ii|/max|u_ii| = %g <= n u", B->n, umax > 0.0 ? umin / umax : 0.0);
    gsl_vector_const_view bv = gsl_vector_const_view_array(b, B->n);
    gsl_vector_view xv = gsl_vector_view_array(x, B->n);
    gsl_linalg_LU_band_solve(B->w, B->w, B->AB, B->piv, &bv.vector, &xv.vector);
    return MB_SUCCESS;
}
