/* implicit_solver.c -- dispatch of the implicit Euler linear systems (double) to GSL
 * dense LU, the templated Gaussian elimination, GSL's banded LU, the block Thomas sweep
 * (falling back to the banded LU), or a Krylov solver on CSR (BiCGSTAB by default, CG or
 * GMRES); the MPFR twins always use the Gaussian elimination.  See mb_implicit.h. */
#include "mb_implicit.h"
#include "mb_status.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int mb_implicit_solver_alloc(mb_implicit_solver **out, const mb_options *opts, size_t n_nodes)
{
    mb_implicit_solver *S = calloc(1, sizeof *S);
    if (S == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    const char *kind = mb_options_string(opts, "solver");
    S->n3 = 3 * n_nodes;
    if (!strcmp(kind, "dense"))
        S->kind = MB_SOLVER_DENSE;
    else if (!strcmp(kind, "gauss"))
        S->kind = MB_SOLVER_GAUSS;
    else if (!strcmp(kind, "sparse"))
        S->kind = MB_SOLVER_SPARSE;
    else if (!strcmp(kind, "banded"))
        S->kind = MB_SOLVER_BANDED;
    else if (!strcmp(kind, "blocktri"))
        S->kind = MB_SOLVER_BLOCKTRI;
    else if (n_nodes <= (size_t)mb_options_int(opts, "dense_max"))
        S->kind = MB_SOLVER_GAUSS;
    else {
        S->kind = MB_SOLVER_SPARSE;
        S->auto_chain = 1;
    }
    if ((S->kind == MB_SOLVER_DENSE || S->kind == MB_SOLVER_GAUSS)
        && S->n3 > MB_DENSE_MAX_UNKNOWNS) {
        free(S);
        MB_ERROR(MB_EDOM, "solver=%s: %zu unknowns exceed the dense limit %d "
                 "(use solver=sparse)", kind, 3 * n_nodes, MB_DENSE_MAX_UNKNOWNS);
    }
    if (S->kind == MB_SOLVER_DENSE) {
        S->lu = mb_lu_alloc(S->n3);
    } else if (S->kind == MB_SOLVER_GAUSS) {
        S->gA = malloc(S->n3 * S->n3 * sizeof(double) + 1);
        S->gb = malloc(S->n3 * sizeof(double) + 1);
        S->gpiv = malloc(S->n3 * sizeof(size_t) + 1);
    } else if (S->kind == MB_SOLVER_SPARSE) {
        const char *kry = mb_options_string(opts, "krylov");
        double rtol = mb_options_double(opts, "rtol");
        unsigned long maxit = (unsigned long)mb_options_int(opts, "lin_max_iter");
        S->krylov = !strcmp(kry, "gmres") ? MB_KRYLOV_GMRES
                  : !strcmp(kry, "cg") ? MB_KRYLOV_CG : MB_KRYLOV_BICGSTAB;
        const char *pre = mb_options_string(opts, "precond");
        S->sgs = S->krylov == MB_KRYLOV_BICGSTAB && strcmp(pre, "jacobi") != 0;
        if (!strcmp(pre, "sgs") && S->krylov != MB_KRYLOV_BICGSTAB) {
            free(S);
            MB_ERROR(MB_EINVAL, "precond=sgs: symmetric Gauss-Seidel preconditions "
                     "krylov=bicgstab only (krylov=%s uses Jacobi)", kry);
        }
        S->csr = mb_csr_alloc();
        if (S->krylov == MB_KRYLOV_GMRES) {
            size_t m = (size_t)mb_options_int(opts, "restart");
            S->gmres = mb_gmres_alloc(S->n3, m < S->n3 ? m : S->n3, rtol, maxit);
        } else {
            S->kry = mb_krylov_alloc(S->n3, rtol, maxit);
        }
    }
    if ((S->kind == MB_SOLVER_DENSE && !S->lu)
        || (S->kind == MB_SOLVER_GAUSS && (!S->gA || !S->gb || !S->gpiv))
        || (S->kind == MB_SOLVER_SPARSE && (!S->csr || (!S->gmres && !S->kry)))) {
        mb_implicit_solver_free(S);
        return mb_last_error_code() ? mb_last_error_code() : MB_ENOMEM;
    }
    *out = S;
    return MB_SUCCESS;
}

void mb_implicit_solver_free(mb_implicit_solver *S)
{
    if (S == NULL)
        return;
    mb_lu_free(S->lu);
    free(S->gA);
    free(S->gb);
    free(S->gpiv);
    mb_csr_free(S->csr);
    mb_band_free(S->band);
    mb_blocktri_free(S->btri);
    mb_gmres_free(S->gmres);
    mb_krylov_free(S->kry);
    mb_linsys_sink_release(&S->sink);
    free(S);
}

/* The banded path, its band matrix (re)allocated when the half-bandwidth w changes. */
static int implicit_band_solve(mb_implicit_solver *S, size_t w, const mb_nodes *s,
                               const mb_jacobian *J, double h, const double *b, double *x)
{
    if (S->band == NULL || S->band->w != (w < S->n3 ? w : S->n3 - 1)) {
        mb_band_free(S->band);
        S->band = mb_band_alloc(S->n3, w);
        if (S->band == NULL)
            return MB_ENOMEM;
    }
    mb_band_assemble(S->band, s, J, h);
    return mb_band_solve(S->band, b, x);
}

/* GSL's banded LU with partial pivoting on the matrix of S->btri, half-bandwidth w (the
 * band storage allocated at the first such step): where the block sweep rejected a pivot
 * block or its solution. */
static int implicit_blocktri_fallback(mb_implicit_solver *S, size_t w, const double *b,
                                      double *x)
{
    S->blocktri_fallbacks++;
    if (S->band == NULL || S->band->w != (w < S->n3 ? w : S->n3 - 1)) {
        mb_band_free(S->band);
        S->band = mb_band_alloc(S->n3, w);
        if (S->band == NULL)
            return MB_ENOMEM;
    }
    mb_band_from_blocktri(S->band, S->btri);
    return mb_band_solve(S->band, b, x);
}

/* The half-bandwidth of the system the sink assembled (its nodes couple at most reach
 * apart): that of the banded LU a refused sweep falls back to */
static size_t implicit_sink_halfwidth(const mb_implicit_solver *S)
{
    return 3 * S->sink.reach + 2;
}

/* The block Thomas sweep on the blocks already in S->btri, else its fallback. */
static int implicit_blocktri_sweep(mb_implicit_solver *S, size_t w, const double *b, double *x)
{
    S->chain_last = 1;
    int st = mb_blocktri_solve(S->btri, b, x);
    if (st != MB_ESINGULAR)
        return st;
    return implicit_blocktri_fallback(S, w, b, x);
}

/* The block Thomas sweep on A assembled from J (see implicit_blocktri_sweep). */
static int implicit_blocktri_solve(mb_implicit_solver *S, const mb_nodes *s,
                                   const mb_jacobian *J, double h, const double *b, double *x)
{
    if (S->btri == NULL && (S->btri = mb_blocktri_alloc(S->n3 / 3)) == NULL)
        return MB_ENOMEM;
    mb_blocktri_assemble(S->btri, s, J, h);
    return implicit_blocktri_sweep(S, mb_band_halfwidth(J), b, x);
}

/* The Krylov solver chosen by krylov= on the CSR matrix in S->csr. */
static int implicit_krylov_solve(mb_implicit_solver *S, const double *b, double *x)
{
    int st;
    switch (S->krylov) {
    case MB_KRYLOV_GMRES: {
        const gsl_spmatrix *A = mb_csr_spmatrix(S->csr);  /* GSL's GMRES reads a CSR */
        if (A == NULL)
            MB_ERROR(MB_ENOMEM, "GMRES: cannot allocate the CSR matrix of %zu unknowns",
                     S->n3);
        st = mb_gmres_solve(S->gmres, A, b, x);
        S->iterations_last = S->gmres->cycles_last;
        return st;
    }
    case MB_KRYLOV_CG:
        st = mb_pcg_solve(S->kry, S->csr, b, x);
        break;
    default:
        st = S->sgs ? mb_bicgstab_sgs_solve(S->kry, S->csr, b, x)
                    : mb_bicgstab_solve(S->kry, S->csr, b, x);
        break;
    }
    S->iterations_last = S->kry->iterations_last;
    return st;
}

/* The storage of a solver that assembles into its own (solver=auto above dense_max,
 * sparse, blocktri) chosen before its first assembly, or again after a step whose blocks
 * changed: a pass of the force models that only records where their blocks go
 * (mb_linsys_sink_begin_pattern), then the block-tridiagonal storage when every block
 * couples a node to itself or a neighbour (not for solver=sparse), else the CSR pattern
 * of the recorded blocks (solver=sparse and auto).  No list of blocks with their values
 * is built, so the first step holds no more memory than the next.  The pass evaluates
 * the forces once more; the counters are left as they were.  Nothing is chosen when the
 * pass runs out of memory or the storage does not apply (solver=blocktri on a system that
 * is not block-tridiagonal): the step then goes through the block list. */
static int implicit_storage_from_pattern(mb_implicit_solver *S, const mb_forces *F,
                                         mb_nodes *s, double t, double h, mb_jacobian *J,
                                         double *b)
{
    mb_forces_counts counts = *F->counts;
    mb_linsys_sink_begin_pattern(&S->sink, s, h, b);
    int st = mb_forces_assemble_known(F, s, t, &S->sink, J, S->torques_pos_zero);
    *F->counts = counts;
    size_t *row, *col, nb = S->sink.count;
    unsigned char *pair;
    int recorded = st == MB_SUCCESS && mb_linsys_sink_finish(&S->sink);
    mb_linsys_sink_take_pattern(&S->sink, &row, &col, &pair);
    if (recorded && S->sink.reach <= 1 && (S->auto_chain || S->kind == MB_SOLVER_BLOCKTRI)) {
        free(row);
        free(col);
        free(pair);
        if (S->btri == NULL && (S->btri = mb_blocktri_alloc(S->n3 / 3)) == NULL)
            return MB_ENOMEM;
        S->chain_last = 1;
        return MB_SUCCESS;
    }
    if (recorded && S->kind == MB_SOLVER_SPARSE)
        return st = mb_csr_pattern_adopt(S->csr, s->n, nb, row, col, pair, s);
    free(row);
    free(col);
    free(pair);
    return st;
}

/* 1 when the solver assembles into storage of its own and has chosen none yet */
static int implicit_storage_unchosen(const mb_implicit_solver *S)
{
    if (S->kind == MB_SOLVER_BLOCKTRI)
        return !S->chain_last;
    return S->kind == MB_SOLVER_SPARSE && !(S->auto_chain && S->chain_last)
           && !mb_csr_ready(S->csr);
}

int mb_implicit_solver_assemble(mb_implicit_solver *S, const mb_forces *F, mb_nodes *s,
                                double t, double h, mb_jacobian *J, double *b)
{
    S->assembled = MB_ASSEMBLED_NONE;
    mb_blocktri *btri = NULL;
    mb_csr *csr = NULL;
    if (implicit_storage_unchosen(S)) {
        int st = implicit_storage_from_pattern(S, F, s, t, h, J, b);
        if (st != MB_SUCCESS)
            return st;
    }
    if ((S->kind == MB_SOLVER_BLOCKTRI || S->auto_chain) && S->chain_last)
        btri = S->btri;
    else if (S->kind == MB_SOLVER_SPARSE && mb_csr_ready(S->csr))
        csr = S->csr;
    if (btri != NULL || csr != NULL) {
        mb_forces_counts counts = *F->counts;
        mb_linsys_sink_begin(&S->sink, s, h, btri, csr, b);
        int st = mb_forces_assemble_known(F, s, t, &S->sink, J, S->torques_pos_zero);
        if (st != MB_SUCCESS)
            return st;
        if (mb_linsys_sink_finish(&S->sink)) {
            S->assembled = btri != NULL ? MB_ASSEMBLED_BLOCKTRI : MB_ASSEMBLED_CSR;
            return MB_SUCCESS;
        }
        *F->counts = counts;            /* the blocks changed: this step from a block list */
    }
    int st = mb_forces_eval_jacobian(F, s, t, J);
    if (st == MB_SUCCESS) {
        double tmp[2];
        mb_linsys_be_rhs(s, J, h, b, tmp);
    }
    return st;
}

int mb_implicit_solver_wants_guess(const mb_implicit_solver *S)
{
    return S->kind == MB_SOLVER_SPARSE && S->assembled != MB_ASSEMBLED_BLOCKTRI;
}

size_t mb_implicit_solver_fixed_nodes(const mb_implicit_solver *S, const size_t **list)
{
    if (S->assembled == MB_ASSEMBLED_NONE || S->sink.nfixed > MB_LINSYS_FIXED_LIST)
        return SIZE_MAX;
    *list = S->sink.fixed;
    return S->sink.nfixed;
}

int mb_implicit_solver_solve(mb_implicit_solver *S, const mb_nodes *s, const mb_jacobian *J,
                             double h, const double *b, double *x)
{
    int assembled = S->assembled;
    S->assembled = MB_ASSEMBLED_NONE;
    S->iterations_last = 0;
    if (assembled == MB_ASSEMBLED_BLOCKTRI)
        return implicit_blocktri_sweep(S, implicit_sink_halfwidth(S), b, x);
    if (assembled == MB_ASSEMBLED_CSR)
        return implicit_krylov_solve(S, b, x);
    S->chain_last = 0;
    if (S->kind == MB_SOLVER_DENSE) {
        mb_linsys_dense(s, J, h, S->lu->A->data, S->lu->A->tda);
        return mb_lu_solve(S->lu, b, x);
    }
    if (S->kind == MB_SOLVER_GAUSS) {
        mb_linsys_dense(s, J, h, S->gA, S->n3);
        memcpy(S->gb, b, S->n3 * sizeof(double));
        return mb_gauss_solve(S->gA, S->n3, S->gb, x, S->gpiv, S->gtmp);
    }
    if (S->kind == MB_SOLVER_BANDED)
        return implicit_band_solve(S, mb_band_halfwidth(J), s, J, h, b, x);
    if (S->kind == MB_SOLVER_BLOCKTRI || S->auto_chain) {
        if (mb_blocktri_fits(J))
            return implicit_blocktri_solve(S, s, J, h, b, x);
        if (S->kind == MB_SOLVER_BLOCKTRI)
            MB_ERROR(MB_EDOM, "solver=blocktri: the system is not block-tridiagonal (a node "
                     "couples beyond its neighbours in the numbering; use solver=auto)");
    }
    if (!mb_csr_matches(S->csr, J)) {
        int st = mb_csr_pattern(S->csr, J);     /* first step, or the blocks changed */
        if (st != MB_SUCCESS)
            return st;
    }
    mb_csr_assemble(S->csr, s, J, h);
    return implicit_krylov_solve(S, b, x);
}

int mb_implicit_solver_solve_drift(mb_implicit_solver *S, const mb_nodes *s,
                                   const mb_jacobian *J, double h, const double *b, double *x,
                                   const double *y, double *y_new, int *drifted,
                                   double *nonfinite)
{
    *drifted = 0;
    *nonfinite = 0.0;
    if (S->assembled != MB_ASSEMBLED_BLOCKTRI)
        return mb_implicit_solver_solve(S, s, J, h, b, x);
    S->assembled = MB_ASSEMBLED_NONE;
    S->iterations_last = 0;
    S->chain_last = 1;
    int st = mb_blocktri_solve_axpy(S->btri, b, x, y, h, y_new, nonfinite);
    if (st != MB_ESINGULAR) {
        *drifted = st == MB_SUCCESS;
        return st;
    }
    return implicit_blocktri_fallback(S, implicit_sink_halfwidth(S), b, x);
}

int mb_implicit_solver_mpfr_alloc(mb_implicit_solver_mpfr **out, const mb_options *opts,
                                  size_t n_nodes, mpfr_prec_t prec)
{
    (void)opts;
    size_t n3 = 3 * n_nodes;
    if (n3 > MB_DENSE_MAX_UNKNOWNS / 4)
        MB_ERROR(MB_EDOM, "MPFR twin: %zu unknowns exceed the dense MPFR limit %d",
                 n3, MB_DENSE_MAX_UNKNOWNS / 4);
    mb_implicit_solver_mpfr *S = calloc(1, sizeof *S);
    if (S == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    S->n3 = n3;
    S->prec = prec;
    S->A = calloc(n3 * n3 + 1, sizeof *S->A);
    S->b = calloc(n3 + 1, sizeof *S->b);
    S->piv = calloc(n3 + 1, sizeof *S->piv);
    if (!S->A || !S->b || !S->piv) {
        free(S->A);
        free(S->b);
        free(S->piv);
        free(S);
        MB_ERROR(MB_ENOMEM, "cannot allocate a dense MPFR system of %zu unknowns", n3);
    }
    for (size_t k = 0; k < n3 * n3; k++)
        mpfr_init2(&S->A[k], prec);
    for (size_t k = 0; k < n3; k++)
        mpfr_init2(&S->b[k], prec);
    for (int k = 0; k < 3; k++)
        mpfr_init2(&S->tmp[k], prec);
    *out = S;
    return MB_SUCCESS;
}

void mb_implicit_solver_mpfr_free(mb_implicit_solver_mpfr *S)
{
    if (S == NULL)
        return;
    for (size_t k = 0; k < S->n3 * S->n3; k++)
        mpfr_clear(&S->A[k]);
    for (size_t k = 0; k < S->n3; k++)
        mpfr_clear(&S->b[k]);
    for (int k = 0; k < 3; k++)
        mpfr_clear(&S->tmp[k]);
    free(S->A);
    free(S->b);
    free(S->piv);
    free(S);
}

int mb_implicit_solver_mpfr_solve(mb_implicit_solver_mpfr *S, const mb_nodes_mpfr *s,
                                  const mb_jacobian_mpfr *J, double h,
                                  const __mpfr_struct *b, __mpfr_struct *x)
{
    mb_linsys_mpfr_dense(s, J, h, S->A, S->n3);
    for (size_t k = 0; k < S->n3; k++)
        mpfr_set(&S->b[k], &b[k], MPFR_RNDN);
    return mb_gauss_mpfr_solve(S->A, S->n3, S->b, x, S->piv, S->tmp);
}
