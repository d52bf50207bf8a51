/* test_blocktri.c -- the block-tridiagonal direct solve (linsolve_blocktri.c) and its
 * place in the implicit solver (solver=auto on chains, solver=blocktri, the fallback).
 *
 * References: the band storage of GSL's banded LU for the assembly (bit for bit: both
 * assemble the same entries in the same order), and GSL's Householder solve of the dense
 * matrix (gsl_linalg_HH_solve, an algorithm none of the solvers uses) for the solution.
 * Tolerance of the solution: a backward-stable solve of A x = b has relative forward
 * error at most about n u kappa(A) (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., sec. 9.3); block LU without pivoting is backward stable with an
 * extra factor of the growth of its pivot blocks (Demmel, Higham & Schreiber 1995), at
 * most MB_BLOCKTRI_GROWTH_MAX once accepted.  Two such solves agree to
 *     |x - x_ref|_inf <= 2 n u kappa_inf(A) growth |x_ref|_inf,
 * with kappa_inf(A) computed here from the inverse (GSL LU).  A sign error or a wrong
 * block would give errors of order 1.  A chain of springs stepped by implicit-euler
 * through the springs' inline blocks pass, its first pivot block refused: A and b written
 * out from the springs' law (springs_system), exact in binary on its dyadic values. */
#include <criterion/criterion.h>
#include <float.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_implicit.h"
#include "mb_linsolve.h"
#include "mb_status.h"
#include "test_helpers.h"

static const double U = DBL_EPSILON / 2;

/* A pinned, damped chain off its straight line and moving; stiff enough at h that
 * h^2 k / m ~ 40 (kappa(A) ~ 10^2). */
static mb_system *moving_chain(size_t n)
{
    char nn[32];
    snprintf(nn, sizeof nn, "n=%zu", n);
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ nn, "D=0.02", NULL });
    for (size_t k = 3; k + 3 < 3 * n; k++) {
        sys->nodes->x[k] += 0.013 * sin(2.1 * (double)k);
        sys->nodes->v[k] = 0.37 * cos(1.7 * (double)k);
    }
    return sys;
}

static mb_jacobian *jacobian_of(mb_system *sys)
{
    mb_jacobian *J = mb_jacobian_alloc(sys->nodes->n, 53);
    cr_assert_not_null(J);
    cr_assert_eq(mb_forces_eval_jacobian(sys->forces, sys->nodes, 0.0, J), MB_SUCCESS, "%s",
                 mb_last_error());
    return J;
}

/* x_ref by Householder on the dense A (left as it is); kappa_inf(A) by GSL's LU inverse */
static double householder_kappa(const gsl_matrix *A, const double *b, double *xref)
{
    size_t n3 = A->size1;
    gsl_matrix *A2 = gsl_matrix_alloc(n3, n3), *Ai = gsl_matrix_alloc(n3, n3);
    gsl_vector *bv = gsl_vector_alloc(n3), *xv = gsl_vector_alloc(n3);
    gsl_permutation *p = gsl_permutation_alloc(n3);
    int sgn;
    gsl_matrix_memcpy(A2, A);
    memcpy(bv->data, b, n3 * sizeof(double));
    gsl_linalg_HH_solve(A2, bv, xv);
    memcpy(xref, xv->data, n3 * sizeof(double));
    double na = 0.0, ni = 0.0;
    for (size_t r = 0; r < n3; r++) {
        double sa = 0.0;
        for (size_t c = 0; c < n3; c++)
            sa += fabs(gsl_matrix_get(A, r, c));
        na = fmax(na, sa);
    }
    gsl_matrix_memcpy(A2, A);
    gsl_linalg_LU_decomp(A2, p, &sgn);
    gsl_linalg_LU_invert(A2, p, Ai);
    for (size_t r = 0; r < n3; r++) {
        double si = 0.0;
        for (size_t c = 0; c < n3; c++)
            si += fabs(gsl_matrix_get(Ai, r, c));
        ni = fmax(ni, si);
    }
    gsl_matrix_free(A2);
    gsl_matrix_free(Ai);
    gsl_vector_free(bv);
    gsl_vector_free(xv);
    gsl_permutation_free(p);
    return na * ni;
}

/* householder_kappa on the dense A assembled from the block list J */
static double dense_reference(const mb_nodes *s, const mb_jacobian *J, double h,
                              const double *b, double *xref)
{
    size_t n3 = 3 * s->n;
    gsl_matrix *A = gsl_matrix_alloc(n3, n3);
    mb_linsys_dense(s, J, h, A->data, A->tda);
    double kappa = householder_kappa(A, b, xref);
    gsl_matrix_free(A);
    return kappa;
}

static void expect_close(const double *x, const double *xref, size_t n3, double kappa,
                         double growth, const char *what)
{
    double xmax = 0.0, dmax = 0.0;
    for (size_t k = 0; k < n3; k++) {
        xmax = fmax(xmax, fabs(xref[k]));
        dmax = fmax(dmax, fabs(x[k] - xref[k]));
    }
    double tol = 2.0 * (double)n3 * U * kappa * growth * xmax;
    cr_expect(xmax > 0.0, "%s: zero solution", what);
    cr_expect(dmax <= tol, "%s: |x - x_ref| = %g > %g (kappa %g, growth %g)", what, dmax, tol,
              kappa, growth);
}

Test(blocktri, assembly_equals_band_storage_bit_for_bit)
{
    const double h = 0.05;
    mb_system *sys = moving_chain(30);
    mb_jacobian *J = jacobian_of(sys);
    cr_assert(mb_blocktri_fits(J));
    size_t n3 = 3 * sys->nodes->n;
    mb_band *B = mb_band_alloc(n3, mb_band_halfwidth(J));
    mb_blocktri *T = mb_blocktri_alloc(sys->nodes->n);
    cr_assert(B && T);
    mb_band_assemble(B, sys->nodes, J, h);
    mb_blocktri_assemble(T, sys->nodes, J, h);
    size_t differ = 0, nonzero = 0;
    for (size_t r = 0; r < n3; r++)
        for (size_t c = r >= 5 ? r - 5 : 0; c < n3 && c <= r + 5; c++) {
            size_t bi = r / 3, bj = c / 3;
            if (bi > bj + 1 || bj > bi + 1)
                continue;
            double *blk = bi == bj ? T->D : bj < bi ? T->L : T->U;
            double t = blk[9 * bi + 3 * (r % 3) + c % 3];
            double band = gsl_matrix_get(B->AB, c, 2 * B->w + r - c);
            differ += memcmp(&t, &band, sizeof t) != 0;
            nonzero += t != 0.0;
        }
    cr_expect_eq(differ, 0, "%zu entries differ from the band storage", differ);
    cr_expect_gt(nonzero, 3 * n3, "the chain's blocks are missing");
    mb_band_free(B);
    mb_blocktri_free(T);
    mb_jacobian_free(J);
    mb_system_free(sys);
}

Test(blocktri, chain_against_householder)
{
    const double h = 0.05;
    mb_system *sys = moving_chain(60);
    mb_jacobian *J = jacobian_of(sys);
    size_t n3 = 3 * sys->nodes->n;
    double *b = malloc(n3 * sizeof(double)), *x = malloc(n3 * sizeof(double)),
           *xref = malloc(n3 * sizeof(double)), tmp[2];
    mb_linsys_be_rhs(sys->nodes, J, h, b, tmp);
    mb_blocktri *T = mb_blocktri_alloc(sys->nodes->n);
    mb_blocktri_assemble(T, sys->nodes, J, h);
    cr_assert_eq(mb_blocktri_solve(T, b, x), MB_SUCCESS, "%s", mb_last_error());
    double kappa = dense_reference(sys->nodes, J, h, b, xref);
    cr_expect(kappa > 10.0, "the test chain should not be trivially conditioned (%g)", kappa);
    cr_expect(T->growth_max <= MB_BLOCKTRI_GROWTH_MAX && T->rcond_min >= MB_BLOCKTRI_RCOND_MIN);
    expect_close(x, xref, n3, kappa, T->growth_max, "blocktri");
    free(b);
    free(x);
    free(xref);
    mb_blocktri_free(T);
    mb_jacobian_free(J);
    mb_system_free(sys);
}

/* the implicit solver with solver=SPEC (dense_max=1: auto above it) */
static mb_implicit_solver *solver_of(const char *kind, size_t n)
{
    static const mb_option_spec specs[] = { MB_IMPLICIT_SOLVER_OPTIONS, MB_OPTION_END };
    mb_options *o = mb_options_new();
    cr_assert_eq(mb_options_set(o, "solver", kind), MB_SUCCESS);
    cr_assert_eq(mb_options_set(o, "dense_max", "1"), MB_SUCCESS);
    cr_assert_eq(mb_options_validate(o, specs, "test"), MB_SUCCESS, "%s", mb_last_error());
    mb_implicit_solver *S = NULL;
    cr_assert_eq(mb_implicit_solver_alloc(&S, o, n), MB_SUCCESS, "%s", mb_last_error());
    mb_options_free(o);
    return S;
}

/* Four unit masses, h = 1, A = I - K with a chain of blocks given by hand:
 * A(0,0) = I - K00, A(0,1) = A(1,0)^T = -R, A(i,i) = 4 I + ..., a well-posed A whose
 * first pivot block I - K00 is chosen by the caller.  decouple_z zeroes the coupling of
 * node 0's z to node 1 (row 3 of A(0,1), column 3 of A(1,0)), so that a small pivot in z
 * cannot make the next pivot block grow: only the condition test can then refuse it. */
static void hand_chain(mb_nodes **sp, mb_jacobian **Jp, const double K00[9], int decouple_z)
{
    const size_t n = 4;
    mb_nodes *s = mb_nodes_alloc(n, 53);
    mb_jacobian *J = mb_jacobian_alloc(n, 53);
    cr_assert(s && J);
    for (size_t i = 0; i < n; i++)
        mb_nodes_set_mass(s, i, 1.0);
    const double R[9] = { 0.9, 0.2, -0.1, 0.3, 1.1, 0.25, -0.2, 0.15, 0.8 };
    long b = mb_jacobian_add_block(J, 0, 0);
    memcpy(&J->dfdx[9 * b], K00, 9 * sizeof(double));
    for (size_t i = 0; i + 1 < n; i++) {
        const int cut = decouple_z && i == 0;
        b = mb_jacobian_add_block(J, i, i + 1);
        memcpy(&J->dfdx[9 * b], R, sizeof R);
        if (cut)
            memset(&J->dfdx[9 * b + 6], 0, 3 * sizeof(double));
        b = mb_jacobian_add_block(J, i + 1, i);
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++)
                J->dfdx[9 * b + 3 * a + e] = (cut && e == 2) ? 0.0 : R[3 * e + a] + 0.05 * (a == e);
        b = mb_jacobian_add_block(J, i + 1, i + 1);
        for (int a = 0; a < 3; a++)
            J->dfdx[9 * b + 4 * a] = -3.0 - 0.1 * (double)a;
    }
    *sp = s;
    *Jp = J;
}

/* The pivot blocks' inverses come from cofactors, whose products of two entries leave
 * the double range for entries near 2^+-600 (masses of 1e180 kg or 1e-180 kg): the sweep
 * must then form them from S / ||S||_1.  A and b scaled by s = 2^+-600 (exact: a power of
 * two) have the solution of A x = b, so the scaled solves must meet the unscaled
 * tolerance against the Householder reference. */
Test(blocktri, pivot_blocks_far_from_unit_scale)
{
    const double h = 0.05, scales[2] = { 0x1p600, 0x1p-600 };
    mb_system *sys = moving_chain(20);
    mb_jacobian *J = jacobian_of(sys);
    size_t n = sys->nodes->n, n3 = 3 * n;
    double *b = malloc(n3 * sizeof(double)), *bs = malloc(n3 * sizeof(double)),
           *x = malloc(n3 * sizeof(double)), *xref = malloc(n3 * sizeof(double)), tmp[2];
    mb_linsys_be_rhs(sys->nodes, J, h, b, tmp);
    double kappa = dense_reference(sys->nodes, J, h, b, xref);
    mb_blocktri *T = mb_blocktri_alloc(n);
    for (int q = 0; q < 2; q++) {
        mb_blocktri_assemble(T, sys->nodes, J, h);
        for (size_t k = 0; k < 9 * n; k++) {
            T->D[k] *= scales[q];
            T->L[k] *= scales[q];
            T->U[k] *= scales[q];
        }
        for (size_t k = 0; k < n3; k++)
            bs[k] = b[k] * scales[q];
        cr_assert_eq(mb_blocktri_solve(T, bs, x), MB_SUCCESS, "scale 2^%+d: %s",
                     q ? -600 : 600, mb_last_error());
        expect_close(x, xref, n3, kappa, T->growth_max, q ? "scale 2^-600" : "scale 2^600");
    }
    free(b);
    free(bs);
    free(x);
    free(xref);
    mb_blocktri_free(T);
    mb_jacobian_free(J);
    mb_system_free(sys);
}

/* The block sweep refuses this first pivot block; the implicit solver falls back to the
 * banded LU and still solves A x = b; solver=banded agrees. */
static void fallback_case(const double K00[9], const char *why, int decouple_z)
{
    mb_nodes *s;
    mb_jacobian *J;
    hand_chain(&s, &J, K00, decouple_z);
    const double h = 1.0;
    double b[12], x[12], xb[12], xref[12];
    for (int k = 0; k < 12; k++)
        b[k] = sin(1.7 * k + 0.3);
    mb_blocktri *T = mb_blocktri_alloc(4);
    mb_blocktri_assemble(T, s, J, h);
    cr_expect_eq(mb_blocktri_solve(T, b, x), MB_ESINGULAR, "%s: the sweep should refuse", why);
    double kappa = dense_reference(s, J, h, b, xref);
    for (int auto_kind = 1; auto_kind >= 0; auto_kind--) {
        mb_implicit_solver *S = solver_of(auto_kind ? "auto" : "blocktri", 4);
        cr_assert_eq(mb_implicit_solver_solve(S, s, J, h, b, x), MB_SUCCESS, "%s: %s", why,
                     mb_last_error());
        cr_expect_eq(S->blocktri_fallbacks, 1, "%s: one fallback expected", why);
        expect_close(x, xref, 12, kappa, 1.0, why);
        mb_implicit_solver_free(S);
    }
    mb_implicit_solver *S = solver_of("banded", 4);
    cr_assert_eq(mb_implicit_solver_solve(S, s, J, h, b, xb), MB_SUCCESS, "%s", mb_last_error());
    cr_expect(memcmp(x, xb, sizeof x) == 0, "%s: the fallback is not the banded LU", why);
    mb_implicit_solver_free(S);
    mb_blocktri_free(T);
    mb_jacobian_free(J);
    mb_nodes_free(s);
}

Test(blocktri, singular_pivot_block_falls_back_to_banded_lu)
{
    const double K00[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };          /* A(0,0) = 0 */
    fallback_case(K00, "singular A(0,0)", 0);
}

Test(blocktri, ill_conditioned_pivot_block_falls_back)
{
    const double K00[9] = { -1, 0, 0, 0, -1, 0, 0, 0, 1 - 1e-9 }; /* A(0,0) = diag(2, 2, 1e-9) */
    fallback_case(K00, "rcond 5e-10", 0);
}

/* The same pivot block with node 0's z decoupled: the next pivot block does not grow, so
 * the refusal must come from the condition test rcond(S_0) = 5e-10 < 2^-26 alone. */
Test(blocktri, ill_conditioned_pivot_block_alone_falls_back)
{
    const double K00[9] = { -1, 0, 0, 0, -1, 0, 0, 0, 1 - 1e-9 }; /* A(0,0) = diag(2, 2, 1e-9) */
    fallback_case(K00, "rcond 5e-10, z decoupled", 1);
}

Test(blocktri, pivot_growth_falls_back)
{
    /* A(0,0) = 1e-3 I: well conditioned, but S_1 = A(1,1) - A(1,0) A(0,0)^-1 A(0,1) grows
     * about 10^3 times A(1,1) */
    const double K00[9] = { 1 - 1e-3, 0, 0, 0, 1 - 1e-3, 0, 0, 0, 1 - 1e-3 };
    fallback_case(K00, "growth 1e3", 0);
}

/* A spring's blocks written out from its law, f_i = [k (l - L) + c (dv . n)] n with
 * d = x_j - x_i, l = |d|, n = d / l, dv = v_j - v_i (f_j = -f_i):
 *   K = df_i/dx_j = k (1 - L/l) I + k (L/l) n n^T + (c/l) [n (P dv)^T + (dv . n) P],
 *   C = df_i/dv_j = c n n^T,   P = I - n n^T,
 * and df_i/d._i = df_j/d._j = -(K, C), df_j/d._i = (K, C).  F: f_i. */
static void spring_closed_form(const mb_spring *sp, const double *x, const double *v,
                               double K[9], double C[9], double F[3])
{
    double d[3], dv[3], n[3], pdv[3], l = 0.0, dvn = 0.0;
    for (size_t a = 0; a < 3; a++) {
        d[a] = x[3 * sp->j + a] - x[3 * sp->i + a];
        dv[a] = v[3 * sp->j + a] - v[3 * sp->i + a];
        l += d[a] * d[a];
    }
    l = sqrt(l);
    for (size_t a = 0; a < 3; a++) {
        n[a] = d[a] / l;
        dvn += dv[a] * n[a];
    }
    for (size_t a = 0; a < 3; a++)
        pdv[a] = dv[a] - dvn * n[a];
    for (size_t r = 0; r < 3; r++) {
        for (size_t c = 0; c < 3; c++) {
            double eye = r == c ? 1.0 : 0.0, P = eye - n[r] * n[c];
            K[3 * r + c] = sp->k * (1.0 - sp->rest / l) * eye
                           + sp->k * (sp->rest / l) * n[r] * n[c]
                           + sp->c / l * (n[r] * pdv[c] + dvn * P);
            C[3 * r + c] = sp->c * n[r] * n[c];
        }
        F[r] = (sp->k * (l - sp->rest) + sp->c * dvn) * n[r];
    }
}

/* The backward-Euler system of springs on the nodes s, dense (DESIGN 4.1):
 *   A = M - h C - h^2 K,   b = M v + h f - h C v,
 * each spring's four blocks at (i, i), (i, j), (j, i), (j, j) with the signs -, +, +, -
 * of spring_closed_form.  coupled = 0 leaves out the blocks between two nodes: the matrix
 * a band of half-width 2 holds (b unchanged). */
static void springs_system(const mb_nodes *s, const mb_spring *springs, size_t count,
                           double h, int coupled, gsl_matrix *A, double *b)
{
    gsl_matrix_set_zero(A);
    for (size_t k = 0; k < 3 * s->n; k++) {
        gsl_matrix_set(A, k, k, s->mass[k / 3]);
        b[k] = s->mass[k / 3] * s->v[k];
    }
    for (size_t q = 0; q < count; q++) {
        const mb_spring *sp = &springs[q];
        const size_t node[2] = { sp->i, sp->j };
        double K[9], C[9], F[3];
        spring_closed_form(sp, s->x, s->v, K, C, F);
        for (size_t a = 0; a < 3; a++) {
            b[3 * sp->i + a] += h * F[a];
            b[3 * sp->j + a] -= h * F[a];
        }
        for (int p = 0; p < 2; p++)
            for (int o = 0; o < 2; o++) {
                const size_t r = node[p], c = node[o];
                const double sign = p == o ? -1.0 : 1.0;
                for (size_t a = 0; a < 3; a++)
                    for (size_t e = 0; e < 3; e++) {
                        double G = sign * (h * C[3 * a + e] + h * h * K[3 * a + e]);
                        b[3 * r + a] -= h * sign * C[3 * a + e] * s->v[3 * c + e];
                        if (coupled || r == c)
                            *gsl_matrix_ptr(A, 3 * r + a, 3 * c + e) -= G;
                    }
            }
    }
}

/* Four nodes on the x axis, 1/2 apart, moving; springs (0,1), (1,2), (2,3) added as the
 * springs model, whose blocks pass writes the pairs into block-tridiagonal storage inline
 * (mb_linsys_sink_pass_pair).  Spring (0,1), undamped, is compressed (L = 1 - 2^-31 > l)
 * so that its transverse stiffness k (1 - L/l) = -16 + 2^-26 leaves node 0 the pivot
 * block A(0,0) = diag(2, 2^-30, 2^-30) at h = 1/4: rcond_1 = 2^-31 < MB_BLOCKTRI_RCOND_MIN,
 * and the sweep refuses it, though A is well conditioned (node 0's y and z rows lean on
 * the coupling to node 1).  Every value is dyadic with few bits, so every operation of
 * both the assembly and springs_system is exact: both hold the same A and b. */
#define REACH_NODES 4
static const double REACH_H = 0.25;
static const mb_spring REACH_SPRINGS[3] = {
    { .i = 0, .j = 1, .k = 16.0, .rest = 1.0 - 0x1p-31, .c = 0.0 },
    { .i = 1, .j = 2, .k = 8.0, .rest = 0.75, .c = 0.5 },
    { .i = 2, .j = 3, .k = 4.0, .rest = 0.25, .c = 0.25 },
};

static mb_system *refused_chain(void)
{
    static const double mass[REACH_NODES] = { 1.0, 1.5, 1.25, 0.75 };
    static const double v[3 * REACH_NODES] = { 0.25, -0.125, 0.375, -0.5, 0.25, 0.125,
                                               0.75, -0.375, -0.25, -0.125, 0.5, 0.625 };
    mb_system *sys = mb_system_alloc(REACH_NODES);
    cr_assert_not_null(sys);
    void *sp = mb_springs_new();
    for (size_t i = 0; i < REACH_NODES; i++) {
        mb_nodes_set_mass(sys->nodes, i, mass[i]);
        sys->nodes->x[3 * i] = 0.5 * (double)i;
    }
    memcpy(sys->nodes->v, v, sizeof v);
    for (size_t q = 0; q < 3; q++)
        cr_assert_eq(mb_springs_add(sp, &REACH_SPRINGS[q]), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    return sys;
}

/* 1 when the block-tridiagonal storage T holds the blocks of the dense A bit for bit */
static int storage_holds(const mb_blocktri *T, const gsl_matrix *A)
{
    for (size_t r = 0; r < A->size1; r++)
        for (size_t c = 0; c < A->size2; c++) {
            size_t i = r / 3, j = c / 3, q = 3 * (r % 3) + c % 3;
            double want = gsl_matrix_get(A, r, c);
            double got = i == j ? T->D[9 * i + q] : j == i + 1 ? T->U[9 * i + q]
                       : i == j + 1 ? T->L[9 * i + q] : 0.0;
            if (memcmp(&got, &want, sizeof got) != 0)
                return 0;
        }
    return 1;
}

/* The step of a chain assembled through the springs' inline pass whose pivot block the
 * sweep refuses: the fallback's banded LU, its half-bandwidth 3 reach + 2 from the largest
 * |i - j| the pass received (5 here), must solve the whole A.  Reference: Householder on
 * springs_system's A and b; tolerance that of two backward-stable solves of one exactly
 * held system, 2 n u kappa_inf(A) |x|_inf (expect_close, growth 1).  First through the
 * implicit solver, where the storage, b and the fallback are seen, then whole steps of
 * implicit-euler (solver=blocktri, and solver=auto above dense_max), whose x+ must be
 * x + v+ h from the fallback's v+, bit for bit (the sweep formed no drift).  Control: the band
 * of a reach lost (half-width 2: the coupling blocks dropped) solves to a v+ the same
 * check refuses. */
Test(blocktri, inline_pass_refused_pivot_falls_back_on_its_reach)
{
    const size_t n3 = 3 * REACH_NODES;
    mb_system *sys = refused_chain();
    gsl_matrix *A = gsl_matrix_alloc(n3, n3);
    double b[3 * REACH_NODES], vref[3 * REACH_NODES], vcut[3 * REACH_NODES],
           bs[3 * REACH_NODES], x[3 * REACH_NODES];
    springs_system(sys->nodes, REACH_SPRINGS, 3, REACH_H, 1, A, b);
    double kappa = householder_kappa(A, b, vref);
    cr_expect(kappa < 1e3, "A should be well conditioned (kappa %g)", kappa);
    cr_assert_eq(gsl_matrix_get(A, 1, 1), 0x1p-30, "A(0,0) must carry 2^-30 in y (%a)",
                 gsl_matrix_get(A, 1, 1));

    mb_implicit_solver *S = solver_of("blocktri", REACH_NODES);
    mb_jacobian *J = mb_jacobian_alloc(REACH_NODES, 53);
    cr_assert_eq(mb_implicit_solver_assemble(S, sys->forces, sys->nodes, 0.0, REACH_H, J, bs),
                 MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(S->assembled, MB_ASSEMBLED_BLOCKTRI, "not assembled into the block storage");
    cr_expect(storage_holds(S->btri, A), "the storage differs from the closed-form A");
    cr_expect(memcmp(b, bs, sizeof b) == 0, "b differs from the closed form");
    memcpy(x, sys->nodes->v, sizeof x);
    cr_assert_eq(mb_implicit_solver_solve(S, sys->nodes, J, REACH_H, bs, x), MB_SUCCESS, "%s",
                 mb_last_error());
    cr_expect_eq(S->blocktri_fallbacks, 1, "the sweep should refuse the pivot block");
    expect_close(x, vref, n3, kappa, 1.0, "implicit solver");
    mb_jacobian_free(J);
    mb_implicit_solver_free(S);

    const char *specs[2] = { "implicit-euler[solver=blocktri]", "implicit-euler[dense_max=2]" };
    for (int q = 0; q < 2; q++) {
        mb_system *run = refused_chain();
        mb_stepper *st = mb_stepper_alloc(specs[q], run);
        cr_assert_not_null(st, "%s", mb_last_error());
        double x0[3 * REACH_NODES];
        memcpy(x0, run->nodes->x, sizeof x0);
        cr_assert_eq(mb_stepper_step(st, run, REACH_H), MB_SUCCESS, "%s: %s", specs[q],
                     mb_last_error());
        expect_close(run->nodes->v, vref, n3, kappa, 1.0, specs[q]);
        for (size_t k = 0; k < n3; k++)     /* x+ = x + v+ h from the fallback's v+ */
            cr_expect(run->nodes->x[k] == x0[k] + run->nodes->v[k] * REACH_H,
                      "%s: x+ of value %zu", specs[q], k);
        mb_stepper_free(st);
        mb_system_free(run);
    }

    springs_system(sys->nodes, REACH_SPRINGS, 3, REACH_H, 0, A, b);
    householder_kappa(A, b, vcut);
    double vmax = 0.0, dmax = 0.0;
    for (size_t k = 0; k < n3; k++) {
        vmax = fmax(vmax, fabs(vref[k]));
        dmax = fmax(dmax, fabs(vcut[k] - vref[k]));
    }
    cr_expect(dmax > 2.0 * (double)n3 * U * kappa * vmax,
              "control: the band of a lost reach passes the check (|dv| %g)", dmax);
    gsl_matrix_free(A);
    mb_system_free(sys);
}

/* A step whose sweep is refused (the chain above) with node 3 blocked along x: the banded
 * LU solves, and the step's end (the fixed nodes as the assembly listed them) must keep
 * v_x = 0.1 bit for bit and give x_x = x + v_x h.  m_3 = 3/4 and (m v) / m is not v for
 * v = 0.1 (checked here), so a solve of the fixed row m v+ = m v does not return v by the
 * way.  Control: unblocked, v_x changes. */
Test(blocktri, a_refused_sweep_keeps_a_blocked_axis)
{
    volatile double m3 = 0.75, v3 = 0.1;
    cr_assert((m3 * v3) / m3 != v3, "the premise: (m v) / m is v");
    for (int blocked = 1; blocked >= 0; blocked--) {
        mb_system *run = refused_chain();
        mb_nodes *s = run->nodes;
        s->v[9] = 0.1;
        s->blocked[3] = blocked ? 1u : 0u;
        mb_nodes_touch(s);
        const double x0 = s->x[9];
        mb_stepper *st = mb_stepper_alloc("implicit-euler[solver=blocktri]", run);
        cr_assert_not_null(st, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_step(st, run, REACH_H), MB_SUCCESS, "%s", mb_last_error());
        if (blocked)
            cr_expect(s->v[9] == 0.1 && s->x[9] == x0 + 0.1 * REACH_H,
                      "blocked: v_x %.17g, x_x %.17g (%.17g)", s->v[9], s->x[9],
                      x0 + 0.1 * REACH_H);
        else
            cr_expect(s->v[9] != 0.1, "control: the unblocked v_x kept its value");
        mb_stepper_free(st);
        mb_system_free(run);
    }
}

/* Just inside both limits: no fallback, and the solution is right. */
Test(blocktri, accepted_pivot_blocks_do_not_fall_back)
{
    const double K00[9] = { -1, 0, 0, 0, -1, 0, 0, 0, 0.5 };      /* A(0,0) = diag(2, 2, 0.5) */
    mb_nodes *s;
    mb_jacobian *J;
    hand_chain(&s, &J, K00, 0);
    double b[12], x[12], xref[12];
    for (int k = 0; k < 12; k++)
        b[k] = cos(0.9 * k);
    mb_implicit_solver *S = solver_of("auto", 4);
    cr_assert_eq(mb_implicit_solver_solve(S, s, J, 1.0, b, x), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(S->blocktri_fallbacks, 0);
    cr_assert_not_null(S->btri, "solver=auto did not take the block sweep on a chain");
    double kappa = dense_reference(s, J, 1.0, b, xref);
    expect_close(x, xref, 12, kappa, S->btri->growth_max, "accepted");
    mb_implicit_solver_free(S);
    mb_jacobian_free(J);
    mb_nodes_free(s);
}

/* x_ref by GSL's dense LU with partial pivoting on the same A */
static void dense_lu_solution(const mb_nodes *s, const mb_jacobian *J, double h,
                              const double *b, double *xref)
{
    size_t n3 = 3 * s->n;
    gsl_matrix *A = gsl_matrix_alloc(n3, n3);
    gsl_vector *bv = gsl_vector_alloc(n3), *xv = gsl_vector_alloc(n3);
    gsl_permutation *p = gsl_permutation_alloc(n3);
    int sgn;
    mb_linsys_dense(s, J, h, A->data, A->tda);
    memcpy(bv->data, b, n3 * sizeof(double));
    gsl_linalg_LU_decomp(A, p, &sgn);
    gsl_linalg_LU_solve(A, p, bv, xv);
    memcpy(xref, xv->data, n3 * sizeof(double));
    gsl_matrix_free(A);
    gsl_vector_free(bv);
    gsl_vector_free(xv);
    gsl_permutation_free(p);
}

/* A pivot block that an LU without row exchanges would ruin: A(0,0) = [e 1 0; 1 e 0;
 * 0 0 2] with e = 2^-40 (K00 = I - A(0,0), each entry exact), a permutation-like block
 * with rcond_1 about 1/2 -- well conditioned -- but whose diagonal is tiny (the multiplier
 * 1/e = 2^40 would wipe out the second row: u / e ~ 1e-4 relative error).  The cofactor
 * inverse takes no pivot; the sweep must agree with GSL's dense LU to the bound of
 * expect_close (about 1e-14 here). */
Test(blocktri, tiny_diagonal_pivot_block_is_pivoted)
{
    const double e = 0x1p-40;
    const double K00[9] = { 1 - e, -1, 0, -1, 1 - e, 0, 0, 0, -1 };
    mb_nodes *s;
    mb_jacobian *J;
    hand_chain(&s, &J, K00, 0);
    double b[12], x[12], xref[12];
    for (int k = 0; k < 12; k++)
        b[k] = sin(0.7 * k + 0.2);
    mb_blocktri *T = mb_blocktri_alloc(4);
    mb_blocktri_assemble(T, s, J, 1.0);
    cr_assert_eq(T->D[0], e, "A(0,0) must carry the tiny diagonal exactly");
    cr_assert_eq(mb_blocktri_solve(T, b, x), MB_SUCCESS, "%s", mb_last_error());
    cr_expect(T->rcond_min >= 0.1, "the pivot blocks are well conditioned (rcond %g)",
              T->rcond_min);
    double kappa = dense_reference(s, J, 1.0, b, xref);
    dense_lu_solution(s, J, 1.0, b, xref);
    expect_close(x, xref, 12, kappa, T->growth_max, "tiny diagonal, dense LU");
    mb_blocktri_free(T);
    mb_jacobian_free(J);
    mb_nodes_free(s);
}

Test(blocktri, solver_blocktri_refuses_a_cloth)
{
    mb_system *sys = th_problem("cloth", (const char *const[]){ "nx=5", "ny=4", NULL });
    mb_stepper *st = mb_stepper_alloc("implicit-euler[solver=blocktri]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_expect_eq(mb_stepper_step(st, sys, 0.01), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "block-tridiagonal") != NULL, "%s", mb_last_error());
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* A solution that leaves the double range is refused, whatever node it appears at: two
 * unit-mass nodes, no coupling (A = I, pivot blocks I, rcond 1, no growth), b = 1 except
 * one entry: +Inf, -Inf or NaN gives that x; 1e308 / 0.5 overflows from A = 0.5 I. */
Test(blocktri, a_solution_not_finite_is_refused)
{
    const double bad[3] = { INFINITY, -INFINITY, NAN };
    for (int m = 0; m < 4; m++)
        for (size_t k = 0; k < 6; k++) {
            mb_nodes *s = mb_nodes_alloc(2, 53);
            mb_jacobian *J = mb_jacobian_alloc(2, 53);
            cr_assert(s && J);
            double mass = m < 3 ? 1.0 : 0.5, b[6] = { 1, 1, 1, 1, 1, 1 }, x[6];
            mb_nodes_set_mass(s, 0, mass);
            mb_nodes_set_mass(s, 1, mass);
            b[k] = m < 3 ? bad[m] : 1e308;
            mb_blocktri *T = mb_blocktri_alloc(2);
            mb_blocktri_assemble(T, s, J, 0.01);
            cr_expect_eq(mb_blocktri_solve(T, b, x), MB_ESINGULAR, "b[%zu] = %g", k, b[k]);
            b[k] = 1.0;
            cr_expect_eq(mb_blocktri_solve(T, b, x), MB_SUCCESS, "the finite control");
            mb_blocktri_free(T);
            mb_jacobian_free(J);
            mb_nodes_free(s);
        }
}

/* The fixed nodes an assembly lists (mb_implicit_solver_fixed_nodes), by the chain's
 * set-up: anchors=both pins nodes 0 and n - 1.  Listed by an assembly straight into the
 * block sweep's storage (solver=auto on a chain, the storage chosen by the first
 * assembly's pattern pass) and only until its solve; every assembly of solver=banded
 * (from the block list) lists none. */
Test(blocktri, the_fixed_nodes_listed_by_the_assembly)
{
    const size_t n = 40;
    const double h = 1.0 / 120.0;
    mb_system *sys = moving_chain(n);
    mb_jacobian *J = mb_jacobian_alloc(n, 53);
    double *b = malloc(3 * n * sizeof(double)), *x = calloc(3 * n, sizeof(double));
    cr_assert(J && b && x);
    const size_t *list = NULL;
    mb_implicit_solver *S = solver_of("auto", n);
    for (int step = 0; step < 2; step++) {
        cr_assert_eq(mb_implicit_solver_assemble(S, sys->forces, sys->nodes, 0.0, h, J, b),
                     MB_SUCCESS);
        cr_assert_eq(mb_implicit_solver_fixed_nodes(S, &list), 2, "assembly %d", step);
        cr_expect(list[0] == 0 && list[1] == n - 1, "listed %zu, %zu", list[0], list[1]);
        cr_assert_eq(mb_implicit_solver_solve(S, sys->nodes, J, h, b, x), MB_SUCCESS);
        cr_expect_eq(mb_implicit_solver_fixed_nodes(S, &list), SIZE_MAX, "after the solve");
    }
    mb_implicit_solver_free(S);
    S = solver_of("banded", n);
    for (int step = 0; step < 2; step++) {
        cr_assert_eq(mb_implicit_solver_assemble(S, sys->forces, sys->nodes, 0.0, h, J, b),
                     MB_SUCCESS);
        cr_expect_eq(mb_implicit_solver_fixed_nodes(S, &list), SIZE_MAX, "banded");
        cr_assert_eq(mb_implicit_solver_solve(S, sys->nodes, J, h, b, x), MB_SUCCESS);
    }
    mb_implicit_solver_free(S);
    free(b);
    free(x);
    mb_jacobian_free(J);
    mb_system_free(sys);
}

/* The worst pivot blocks reported (rcond_min, growth_max), hand-derived.  Three nodes,
 * every block diagonal: D_0 = I, U_0 = I, L_1 = -I/2, D_1 = diag(4, 2, 1), D_2 = I, the
 * other blocks 0.  Then S_0 = I, X_0 = I, S_1 = D_1 - L_1 X_0 = diag(4.5, 2.5, 1.5),
 * S_2 = D_2 = I.  For a diagonal S, rcond_1 = min|s| / max|s| and the growth is
 * ||S||_1 / ||D||_1 = max|s| / max|d|: nodes 0 and 2 give rcond 1 and growth 1, node 1
 * rcond 1.5 / 4.5 = 1/3 and growth 4.5 / 4 = 9/8.  Every intermediate value here (the
 * entries, det S_1 = 16.875, ||adj S_1||_1 = 11.25, their products) is exact in binary,
 * so the reports are 1/3 correctly rounded (one division) and 9/8 exactly: equality.  The
 * worst is in the middle, so it must be taken from a later node and kept past one. */
Test(blocktri, worst_pivot_blocks_reported_from_the_middle_node)
{
    mb_blocktri *T = mb_blocktri_alloc(3);
    cr_assert_not_null(T);
    const double d1[3] = { 4.0, 2.0, 1.0 };
    memset(T->D, 0, 27 * sizeof(double));
    for (int a = 0; a < 3; a++) {
        T->D[4 * a] = 1.0;
        T->D[9 + 4 * a] = d1[a];
        T->D[18 + 4 * a] = 1.0;
        T->U[4 * a] = 1.0;
        T->L[9 + 4 * a] = -0.5;
    }
    /* x = (1,1,1, 1,1,1, 1,2,3): b_0 = x_0 + x_1, b_1 = -x_0/2 + D_1 x_1, b_2 = x_2 */
    const double b[9] = { 2, 2, 2, 3.5, 1.5, 0.5, 1, 2, 3 };
    double x[9];
    cr_assert_eq(mb_blocktri_solve(T, b, x), MB_SUCCESS, "%s", mb_last_error());
    cr_expect(T->rcond_min == 1.0 / 3.0, "rcond_min %.17g, expected 1/3", T->rcond_min);
    cr_expect(T->growth_max == 1.125, "growth_max %.17g, expected 9/8", T->growth_max);
    mb_blocktri_free(T);
}
