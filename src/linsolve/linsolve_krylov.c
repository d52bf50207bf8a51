/* linsolve_krylov.c -- what the Krylov solvers share: the preallocated workspace (no
 * allocation per solve), the Jacobi preconditioner M_J = diag(A), dot product and the
 * true residual r = b - A x. */
#include "mb_linsolve.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

mb_krylov *mb_krylov_alloc(size_t n, double rtol, unsigned long max_iter)
{
    mb_krylov *k = calloc(1, sizeof *k);
    if (k == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    k->n = n;
    k->rtol = rtol;
    k->max_iter = max_iter;
    double **vec[] = { &k->dinv, &k->r, &k->rhat, &k->p, &k->v, &k->s, &k->t, &k->phat, &k->shat };
    for (size_t j = 0; j < sizeof vec / sizeof vec[0]; j++)
        if ((*vec[j] = calloc(n ? n : 1, sizeof(double))) == NULL) {
            mb_krylov_free(k);
            MB_ERROR_NULL(MB_ENOMEM, "cannot allocate Krylov vectors for %zu unknowns", n);
        }
    return k;
}

void mb_krylov_free(mb_krylov *k)
{
    if (k == NULL)
        return;
    free(k->dinv); free(k->r); free(k->rhat); free(k->p); free(k->v);
    free(k->s); free(k->t); free(k->phat); free(k->shat); free(k->sgs);
    free(k);
}

/* The diagonal of scalar row r = 3 i + a is entry (a, a) of node i's diagonal block in
 * the pool (mb_csr_diagonal, linsolve_csr_blocks.c). */
int mb_krylov_jacobi(mb_krylov *k, const mb_csr *A)
{
    for (size_t r = 0; r < k->n; r++) {
        size_t node = r / 3, a = r % 3;
        double d = mb_csr_diagonal(A, node, (int)a);
        if (d == 0.0 || !isfinite(d))
            MB_ERROR(MB_ESINGULAR, "Jacobi preconditioner: diagonal entry %zu of A is %g", r, d);
        k->dinv[r] = 1.0 / d;
    }
    return MB_SUCCESS;
}

double mb_krylov_dot(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

double mb_krylov_residual(const mb_csr *A, const double *b, const double *x, double *r)
{
    mb_csr_matvec(A, x, r);
    double s = 0.0;
    for (size_t i = 0; i < 3 * A->n_nodes; i++) {
        r[i] = b[i] - r[i];
        s += r[i] * r[i];
    }
    return sqrt(s);
}
