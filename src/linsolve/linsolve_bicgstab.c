/* linsolve_bicgstab.c -- BiCGSTAB (van der Vorst, SIAM J. Sci. Stat. Comput. 13, 1992;
 * Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., Alg. 7.7) with right
 * Jacobi preconditioning, on the CSR system of linsolve_csr.c.
 *
 * Chosen as the default sparse solver of the implicit schemes because A = M - hC - h^2 K
 * is nonsymmetric as soon as a dashpot's x-derivative (c/l)[n (P dv)^T + (dv.n) P]
 * enters K, and because fixed degrees of freedom get identity rows; BiCGSTAB needs two
 * matrix-vector products and eight vectors of work per iteration -- O(nnz) -- where
 * GSL's GMRES(m) pays O(m^2 n) per restart cycle in Householder updates (measured in
 * doc/integrators.md).  Stops when the recursively updated residual reaches rtol |b|, then
 * confirms with the true residual b - A x (restarting from it if they disagree). */
#include "mb_linsolve.h"
#include "mb_cancel.h"
#include "mb_status.h"

#include <math.h>
#include <string.h>

/* One BiCGSTAB run from x; returns 1 converged (recursive residual), 0 not yet (or a
 * cancellation request, mb_cancel.h: the caller then stops), -1 breakdown.
 * Every sum of the iteration is taken in a pass that reads its vectors anyway: (rhat, v)
 * and (t, t), (t, s) inside the products (mb_csr_matvec_dots), the next rho = (rhat, r)
 * in the update of r, shat = D^-1 s in the pass that forms s.  Each is summed in
 * ascending index order as a pass of mb_krylov_dot of its own would sum it, so the
 * iterates are those of the unfused iteration bit for bit, with five passes over the
 * vectors fewer per iteration (25 instead of 30 reads and writes of n numbers). */
static int bicgstab_run(mb_krylov *k, const mb_csr *A, double bnorm, double *x,
                        unsigned long *it)
{
    size_t n = k->n;
    double rho_old = 1.0, alpha = 1.0, omega = 1.0;
    memcpy(k->rhat, k->r, n * sizeof(double));
    memset(k->p, 0, n * sizeof(double));
    memset(k->v, 0, n * sizeof(double));
    double rho = mb_krylov_dot(k->rhat, k->r, n);
    while (*it < k->max_iter && !mb_cancel_requested()) {
        if (rho == 0.0 || omega == 0.0)
            return -1;
        double beta = (rho / rho_old) * (alpha / omega);
        for (size_t i = 0; i < n; i++) {                 /* p = r + beta (p - omega v) */
            k->p[i] = k->r[i] + beta * (k->p[i] - omega * k->v[i]);
            k->phat[i] = k->dinv[i] * k->p[i];
        }
        double rv;
        mb_csr_matvec_dots(A, k->phat, k->v, k->rhat, &rv, NULL);    /* v = A phat */
        if (rv == 0.0)
            return -1;
        alpha = rho / rv;
        double snorm2 = 0.0;
        for (size_t i = 0; i < n; i++) {                 /* s = r - alpha v */
            k->s[i] = k->r[i] - alpha * k->v[i];
            snorm2 += k->s[i] * k->s[i];
            k->shat[i] = k->dinv[i] * k->s[i];
        }
        (*it)++;
        if (sqrt(snorm2) <= k->rtol * bnorm) {
            for (size_t i = 0; i < n; i++)
                x[i] += alpha * k->phat[i];
            return 1;
        }
        double ts, tt;
        mb_csr_matvec_dots(A, k->shat, k->t, k->s, &ts, &tt);      /* t = A shat */
        omega = tt > 0.0 ? ts / tt : 0.0;
        double rnorm2 = 0.0, rho_next = 0.0;
        for (size_t i = 0; i < n; i++) {
            x[i] += alpha * k->phat[i] + omega * k->shat[i];
            k->r[i] = k->s[i] - omega * k->t[i];
            rnorm2 += k->r[i] * k->r[i];
            rho_next += k->rhat[i] * k->r[i];
        }
        if (!isfinite(rnorm2))
            return -1;
        if (sqrt(rnorm2) <= k->rtol * bnorm)
            return 1;
        rho_old = rho;
        rho = rho_next;
    }
    return 0;
}

int mb_bicgstab_solve(mb_krylov *k, const mb_csr *A, const double *b, double *x)
{
    int st = mb_krylov_jacobi(k, A);
    if (st != MB_SUCCESS)
        return st;
    double bnorm = sqrt(mb_krylov_dot(b, b, k->n));
    unsigned long it = 0;
    k->iterations_last = 0;
    if (bnorm == 0.0) {                                 /* A x = 0: x = 0 */
        memset(x, 0, k->n * sizeof(double));
        k->residual_last = 0.0;
        return MB_SUCCESS;
    }
    int breakdowns = 0;
    for (;;) {
        double rn = mb_krylov_residual(A, b, x, k->r);
        k->residual_last = rn / bnorm;
        k->iterations_last = it;
        if (!isfinite(rn))
            MB_ERROR(MB_EDIVERGED, "BiCGSTAB: residual is NaN or Inf");
        if (rn <= k->rtol * bnorm)
            return MB_SUCCESS;                          /* confirmed by the true residual */
        if (mb_cancel_requested())
            return mb_cancel_error();
        if (it >= k->max_iter)
            MB_ERROR(MB_EMAXITER, "BiCGSTAB did not reach |b - A x| <= %g |b| in %lu iterations "
                     "(relative residual %g): the system may be singular or indefinite",
                     k->rtol, k->max_iter, k->residual_last);
        int rc = bicgstab_run(k, A, bnorm, x, &it);
        if (rc < 0 && ++breakdowns > 3)
            MB_ERROR(MB_ESINGULAR, "BiCGSTAB broke down %d times (rho or (rhat, v) = 0, relative "
                     "residual %g): the system is singular or too ill-conditioned",
                     breakdowns, k->residual_last);
    }
}
