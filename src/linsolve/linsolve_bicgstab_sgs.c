/* linsolve_bicgstab_sgs.c -- BiCGSTAB (van der Vorst 1992; Saad, Alg. 7.7) preconditioned
 * by symmetric Gauss-Seidel split between the two sides, in Eisenstat's form
 * (linsolve_sgs.c): the iteration runs on
 *   A^ d = r^,   A^ = M1^-1 A M2^-1,  M1 = (D + L) D^-1,  M2 = D + U,  r^ = M1^-1 (b - A x),
 * and x + M2^-1 d solves A x = b.  Each of its two operator applications costs about one
 * product with A, as a Jacobi iteration's products do, and on the cloth's systems it
 * takes a third of the Jacobi iterations (doc/performance-history.md, "Symmetric
 * Gauss-Seidel").
 *
 * Stops when the recursive residual |r^| reaches rtol |M1^-1 b|, then confirms with the
 * true residual |b - A x| <= rtol |b| (mb_csr_sgs_residual: each row's blocks in the
 * sweeps' lanes), as mb_bicgstab_solve does, and restarts from it when the two disagree.
 * The iteration's sums s.s, r.r and rhat.r are taken in four lanes (lanes_total), where
 * one chain of additions over every unknown bounded the passes at small sizes
 * (doc/performance-history.md, "The cloth's small sizes"). */
#include "mb_linsolve.h"
#include "mb_cancel.h"
#include "mb_compiler.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The iteration's updates four unknowns at a time (GCC's vector extension: AVX2 or pairs
 * of SSE2 operations, MB_CLONES_AVX2), each unknown by the operations the scalar form takes;
 * their sums in four lanes (lanes_total), the scaling's (unscale) one unknown at a time
 * in ascending order. */
typedef double bs_v4 __attribute__((vector_size(4 * sizeof(double))));


#define LD4(p) ({ bs_v4 v_; memcpy(&v_, (p), sizeof v_); v_; })
#define ST4(p, v) do { bs_v4 w_ = (v); memcpy((p), &w_, sizeof w_); } while (0)

/* A sum taken in four lanes, lane l over the unknowns 4 j + l (j = 0, 1, ...), and the
 * unknowns past the last multiple of four in tail: ((l0 + l1) + (l2 + l3)) + tail */
static inline __attribute__((always_inline)) double lanes_total(bs_v4 acc, double tail)
{
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + tail;
}

/* p = r + beta (p - omega v) */
MB_CLONES_AVX2 static void update_p(double *restrict p, const double *restrict r,
                               const double *restrict v, double beta, double omega, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        ST4(p + i, LD4(r + i) + beta * (LD4(p + i) - omega * LD4(v + i)));
    for (; i < n; i++)
        p[i] = r[i] + beta * (p[i] - omega * v[i]);
}

/* s = r - alpha v; returns s.s summed in four lanes (lanes_total) */
MB_CLONES_AVX2 static double update_s(double *restrict s, const double *restrict r,
                                 const double *restrict v, double alpha, size_t n)
{
    bs_v4 acc = { 0.0, 0.0, 0.0, 0.0 };
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        bs_v4 sv = LD4(r + i) - alpha * LD4(v + i);
        ST4(s + i, sv);
        acc += sv * sv;
    }
    double tail = 0.0;
    for (; i < n; i++) {
        s[i] = r[i] - alpha * v[i];
        tail += s[i] * s[i];
    }
    return lanes_total(acc, tail);
}

/* d += alpha p + omega s; r = s - omega t; *rr = r.r and *hr = rhat.r, each summed in
 * four lanes (lanes_total) */
MB_CLONES_AVX2 static void update_r(double *restrict d, double *restrict r, const double *restrict p,
                               const double *restrict s, const double *restrict t,
                               const double *restrict rhat, double alpha, double omega,
                               size_t n, double *rr, double *hr)
{
    bs_v4 a = { 0.0, 0.0, 0.0, 0.0 }, b = { 0.0, 0.0, 0.0, 0.0 };
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        ST4(d + i, LD4(d + i) + (alpha * LD4(p + i) + omega * LD4(s + i)));
        bs_v4 rv = LD4(s + i) - omega * LD4(t + i);
        ST4(r + i, rv);
        a += rv * rv;
        b += LD4(rhat + i) * rv;
    }
    double ta = 0.0, tb = 0.0;
    for (; i < n; i++) {
        d[i] += alpha * p[i] + omega * s[i];
        r[i] = s[i] - omega * t[i];
        ta += r[i] * r[i];
        tb += rhat[i] * r[i];
    }
    *rr = lanes_total(a, ta);
    *hr = lanes_total(b, tb);
}

/* y = y / dinv (= D y); returns y.y summed in ascending order */
MB_CLONES_AVX2 static double unscale(double *restrict y, const double *restrict dinv, size_t n)
{
    double sum = 0.0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        bs_v4 yv = LD4(y + i) / LD4(dinv + i), q = yv * yv;
        ST4(y + i, yv);
        for (int l = 0; l < 4; l++)
            sum += q[l];
    }
    for (; i < n; i++) {
        y[i] /= dinv[i];
        sum += y[i] * y[i];
    }
    return sum;
}

/* r^ = M1^-1 r = D (D + L)^-1 r into out; returns |out| */
static double left_solve(const mb_csr *A, const mb_sgs_node *lower, const double *dinv,
                         const double *r, double *out, size_t n)
{
    mb_csr_sgs_lower(A, lower, r, out);
    return sqrt(unscale(out, dinv, n));
}

/* One BiCGSTAB run on A^ d = r^ from d = 0 (d in k->phat, r^ in k->r); returns 1
 * converged (recursive residual), 0 not yet (or a cancellation request), -1 breakdown.
 * k->shat is the operator's scratch. */
static int sgs_run(mb_krylov *k, const mb_csr *A, double bhat, unsigned long *it)
{
    size_t n = k->n;
    const mb_sgs_node *lower = k->sgs, *upper = k->sgs + A->n_nodes;
    double *d = k->phat, rho_old = 1.0, alpha = 1.0, omega = 1.0;
    memcpy(k->rhat, k->r, n * sizeof(double));
    memset(k->p, 0, n * sizeof(double));
    memset(k->v, 0, n * sizeof(double));
    memset(d, 0, n * sizeof(double));
    double rho = mb_krylov_dot(k->rhat, k->r, n);
    while (*it < k->max_iter && !mb_cancel_requested()) {
        if (rho == 0.0 || omega == 0.0)
            return -1;
        double beta = (rho / rho_old) * (alpha / omega);
        update_p(k->p, k->r, k->v, beta, omega, n);
        double rv;
        mb_csr_eisenstat(A, lower, upper, k->p, k->shat, k->v, k->rhat, &rv, NULL);  /* v = A^ p */
        if (rv == 0.0)
            return -1;
        alpha = rho / rv;
        double snorm2 = update_s(k->s, k->r, k->v, alpha, n);
        (*it)++;
        if (sqrt(snorm2) <= k->rtol * bhat) {
            for (size_t i = 0; i < n; i++)
                d[i] += alpha * k->p[i];
            return 1;
        }
        double ts, tt;
        mb_csr_eisenstat(A, lower, upper, k->s, k->shat, k->t, k->s, &ts, &tt);   /* t = A^ s */
        omega = tt > 0.0 ? ts / tt : 0.0;
        double rnorm2, rho_next;
        update_r(d, k->r, k->p, k->s, k->t, k->rhat, alpha, omega, n, &rnorm2, &rho_next);
        if (!isfinite(rnorm2))
            return -1;
        if (sqrt(rnorm2) <= k->rtol * bhat)
            return 1;
        rho_old = rho;
        rho = rho_next;
    }
    return 0;
}

int mb_bicgstab_sgs_solve(mb_krylov *k, const mb_csr *A, const double *b, double *x)
{
    if (k->sgs == NULL && (k->sgs = malloc(2 * (A->n_nodes ? A->n_nodes : 1)
                                           * sizeof *k->sgs)) == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the Gauss-Seidel sweeps' records of %zu nodes",
                 A->n_nodes);
    const mb_sgs_node *lower = k->sgs, *upper = k->sgs + A->n_nodes;
    int st = mb_csr_sgs_nodes(A, k->dinv, k->sgs, k->sgs + A->n_nodes); /* 1 / D, checked */
    if (st != MB_SUCCESS)
        return st;
    size_t n = k->n;
    double bnorm = sqrt(mb_krylov_dot(b, b, n));
    unsigned long it = 0;
    k->iterations_last = 0;
    if (bnorm == 0.0) {                                 /* A x = 0: x = 0 */
        memset(x, 0, n * sizeof(double));
        k->residual_last = 0.0;
        return MB_SUCCESS;
    }
    double bhat = left_solve(A, lower, k->dinv, b, k->s, n);  /* |M1^-1 b| */
    int breakdowns = 0;
    for (;;) {
        double rn = mb_csr_sgs_residual(A, b, x, k->t);
        k->residual_last = rn / bnorm;
        k->iterations_last = it;
        if (!isfinite(rn) || !isfinite(bhat))
            MB_ERROR(MB_EDIVERGED, "BiCGSTAB (SGS): residual is NaN or Inf");
        if (rn <= k->rtol * bnorm)
            return MB_SUCCESS;                          /* confirmed by the true residual */
        if (mb_cancel_requested())
            return mb_cancel_error();
        if (it >= k->max_iter)
            MB_ERROR(MB_EMAXITER, "BiCGSTAB (SGS) did not reach |b - A x| <= %g |b| in %lu "
                     "iterations (relative residual %g): the system may be singular or "
                     "indefinite", k->rtol, k->max_iter, k->residual_last);
        left_solve(A, lower, k->dinv, k->t, k->r, n);          /* r^ = M1^-1 (b - A x) */
        int rc = sgs_run(k, A, bhat, &it);
        mb_csr_sgs_upper(A, upper, k->phat, k->shat); /* x += M2^-1 d */
        for (size_t i = 0; i < n; i++)
            x[i] += k->shat[i];
        if (rc < 0 && ++breakdowns > 3)
            MB_ERROR(MB_ESINGULAR, "BiCGSTAB (SGS) broke down %d times (rho or (rhat, v) = 0, "
                     "relative residual %g): the system is singular or too ill-conditioned",
                     breakdowns, k->residual_last);
    }
}
