/* linsolve_pcg.c -- Jacobi-preconditioned conjugate gradients (Saad, Iterative Methods
 * for Sparse Linear Systems, 2nd ed., Alg. 9.1) on the CSR system of linsolve_csr.c.
 * Valid for symmetric positive definite A only: springs without dashpots, no fixed rows
 * coupling (identity rows of fixed dofs break symmetry unless their columns are empty).
 * Kept as the measured alternative to BiCGSTAB (doc/integrators.md); a non-positive curvature
 * p.Ap <= 0 is reported as MB_ESINGULAR (A is not positive definite).  The sums (p, Ap)
 * and (r, z) are taken in the passes that form Ap and z (mb_csr_matvec_dots), in the
 * order a pass of mb_krylov_dot would take them: the same iterates, two passes fewer.
 * As BiCGSTAB, a run that reaches rtol |b| by its recursively updated residual is
 * confirmed by the true residual b - A x (restarting from x if they disagree), so what
 * is returned meets |b - A x| <= rtol |b| -- also on a matrix that is not symmetric, on
 * which CG loses conjugacy (more iterations) but its residual stays b - A x up to
 * rounding, since it is updated with A itself. */
#include "mb_linsolve.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <math.h>
#include <string.h>

/* One CG run from x, with r = b - A x on entry, until the recursively updated residual
 * reaches rtol |b| or the iterations run out (or a cancellation request, mb_cancel.h);
 * the caller then confirms with the true residual.  MB_ESINGULAR when p.Ap <= 0,
 * MB_EDIVERGED when the residual is NaN or Inf. */
static int pcg_run(mb_krylov *k, const mb_csr *A, double bnorm, double *x)
{
    size_t n = k->n;
    for (size_t i = 0; i < n; i++)
        k->p[i] = k->s[i] = k->dinv[i] * k->r[i];       /* s holds z = M_J^-1 r */
    double rz = mb_krylov_dot(k->r, k->s, n);
    while (k->iterations_last < k->max_iter && !mb_cancel_requested()) {
        double pap;
        mb_csr_matvec_dots(A, k->p, k->v, k->p, &pap, NULL);    /* v = A p, (p, v) */
        if (!(pap > 0.0))
            MB_ERROR(MB_ESINGULAR, "PCG: p.Ap = %g <= 0, A is not positive definite", pap);
        double alpha = rz / pap, rn2 = 0.0, rz_new = 0.0;
        for (size_t i = 0; i < n; i++) {
            x[i] += alpha * k->p[i];
            k->r[i] -= alpha * k->v[i];
            rn2 += k->r[i] * k->r[i];
            k->s[i] = k->dinv[i] * k->r[i];             /* z = M_J^-1 r and (r, z) */
            rz_new += k->r[i] * k->s[i];
        }
        k->iterations_last++;
        k->residual_last = sqrt(rn2) / bnorm;
        if (!isfinite(rn2))
            MB_ERROR(MB_EDIVERGED, "PCG: residual is NaN or Inf");
        if (sqrt(rn2) <= k->rtol * bnorm)
            return MB_SUCCESS;
        double beta = rz_new / rz;
        rz = rz_new;
        for (size_t i = 0; i < n; i++)
            k->p[i] = k->s[i] + beta * k->p[i];
    }
    return MB_SUCCESS;
}

int mb_pcg_solve(mb_krylov *k, const mb_csr *A, const double *b, double *x)
{
    int st = mb_krylov_jacobi(k, A);
    if (st != MB_SUCCESS)
        return st;
    size_t n = k->n;
    double bnorm = sqrt(mb_krylov_dot(b, b, n));
    k->iterations_last = 0;
    if (bnorm == 0.0) {                                 /* A x = 0: x = 0 (the relative */
        memset(x, 0, n * sizeof(double));               /* test below could never pass) */
        k->residual_last = 0.0;
        return MB_SUCCESS;
    }
    for (;;) {
        double rn = mb_krylov_residual(A, b, x, k->r);
        k->residual_last = rn / bnorm;
        if (!isfinite(rn))
            MB_ERROR(MB_EDIVERGED, "PCG: residual is NaN or Inf");
        if (rn <= k->rtol * bnorm)
            return MB_SUCCESS;                          /* confirmed by the true residual */
        if (mb_cancel_requested())
            return mb_cancel_error();
        if (k->iterations_last >= k->max_iter)
            MB_ERROR(MB_EMAXITER, "PCG did not reach |b - A x| <= %g |b| in %lu iterations "
                     "(relative residual %g)", k->rtol, k->max_iter, k->residual_last);
        if ((st = pcg_run(k, A, bnorm, x)) != MB_SUCCESS)
            return st;
    }
}
