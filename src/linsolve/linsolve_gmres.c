/* linsolve_gmres.c -- GSL's restarted GMRES(m) (gsl_splinalg_itersolve_gmres, Saad &
 * Schultz 1986) on the CSR system of linsolve_csr.c.  One gsl_splinalg_itersolve_iterate
 * call is one restart cycle of at most m Krylov iterations; cycles are repeated until
 * |b - A x| <= rtol |b|.  All workspace is allocated here, none per solve. */
#include "mb_init.h"
#include "mb_linsolve.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

mb_gmres *mb_gmres_alloc(size_t n, size_t restart, double rtol, unsigned long max_cycles)
{
    mb_gmres *g = calloc(1, sizeof *g);
    if (g == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    g->n = n;
    g->restart = restart;
    g->rtol = rtol;
    g->max_cycles = max_cycles;
    g->w = gsl_splinalg_itersolve_alloc(gsl_splinalg_itersolve_gmres, n, restart);
    g->b = gsl_vector_alloc(n);
    g->x = gsl_vector_alloc(n);
    if (!g->w || !g->b || !g->x) {
        mb_gmres_free(g);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate GMRES(%zu) for %zu unknowns", restart, n);
    }
    return g;
}

void mb_gmres_free(mb_gmres *g)
{
    if (g == NULL)
        return;
    if (g->w)
        gsl_splinalg_itersolve_free(g->w);
    if (g->b)
        gsl_vector_free(g->b);
    if (g->x)
        gsl_vector_free(g->x);
    free(g);
}

int mb_gmres_solve(mb_gmres *g, const gsl_spmatrix *A, const double *b, double *x)
{
    memcpy(g->b->data, b, g->n * sizeof(double));
    memcpy(g->x->data, x, g->n * sizeof(double));
    mb_init();
    int st = GSL_CONTINUE;
    g->cycles_last = 0;
    while (st == GSL_CONTINUE && g->cycles_last < g->max_cycles) {
        if (mb_cancel_requested()) {
            return mb_cancel_error();
        }
        st = gsl_splinalg_itersolve_iterate(A, g->b, g->rtol, g->x, g->w);
        g->cycles_last++;
    }
    g->residual_last = gsl_splinalg_itersolve_normr(g->w);
    if (!isfinite(g->residual_last))
        MB_ERROR(MB_EDIVERGED, "GMRES produced NaN or Inf");
    if (st != GSL_SUCCESS)
        MB_ERROR(MB_EMAXITER, "GMRES(%zu) did not reach |b - A x| <= %g |b| in %lu cycles "
                 "(residual %g): the system may be singular or badly conditioned",
                 g->restart, g->rtol, g->max_cycles, g->residual_last);
    memcpy(x, g->x->data, g->n * sizeof(double));
    return MB_SUCCESS;
}
