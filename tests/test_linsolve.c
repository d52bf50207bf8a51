/* test_linsolve.c -- the linear algebra of the implicit schemes.
 *
 * References: GSL's Householder solver (gsl_linalg_HH_solve, an algorithm none of the
 * solvers under test uses) and matrices written out by hand.  For the n x n test matrices
 * here (condition numbers below 100) backward-stable solvers agree to n kappa u ~ 1e-13
 * relative; Krylov solvers stop at rtol = 1e-13, so agree to kappa rtol ~ 1e-11. */
#include <criterion/criterion.h>
#include <float.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

#include "mb_linsolve.h"
#include "mb_problem.h"
#include "mb_status.h"

#define N 7

/* a nonsymmetric, diagonally dominant-ish awkward matrix */
static double entry(size_t r, size_t c)
{
    return (r == c ? 3.7 + 0.3 * (double)r : 0.0) + sin(1.3 * (double)(r * N + c) + 0.7);
}

static void reference_solve(const double *A, const double *b, double *x, size_t n)
{
    gsl_matrix *M = gsl_matrix_alloc(n, n);
    gsl_vector *bv = gsl_vector_alloc(n), *xv = gsl_vector_alloc(n);
    memcpy(M->data, A, n * n * sizeof(double));
    memcpy(bv->data, b, n * sizeof(double));
    gsl_linalg_HH_solve(M, bv, xv);
    memcpy(x, xv->data, n * sizeof(double));
    gsl_matrix_free(M);
    gsl_vector_free(bv);
    gsl_vector_free(xv);
}

Test(linsolve, gauss_double_and_mpfr_against_householder)
{
    double A[N * N], b[N], xref[N];
    for (size_t r = 0; r < N; r++) {
        b[r] = cos(0.9 * (double)r) - 0.31;
        for (size_t c = 0; c < N; c++)
            A[r * N + c] = entry(r, c);
    }
    reference_solve(A, b, xref, N);
    double Ad[N * N], bd[N], x[N], tmp[3];
    size_t piv[N];
    memcpy(Ad, A, sizeof A);
    memcpy(bd, b, sizeof b);
    cr_assert_eq(mb_gauss_solve(Ad, N, bd, x, piv, tmp), MB_SUCCESS);
    for (size_t r = 0; r < N; r++)
        cr_expect(fabs(x[r] - xref[r]) <= 1e-13 * (fabs(xref[r]) + 1.0), "double x[%zu]", r);
    /* MPFR at 113 bits: agrees with the double reference to the reference's own error */
    __mpfr_struct Am[N * N], bm[N], xm[N], tm[3];
    for (size_t k = 0; k < N * N; k++) { mpfr_init2(&Am[k], 113); mpfr_set_d(&Am[k], A[k], MPFR_RNDN); }
    for (size_t k = 0; k < N; k++) {
        mpfr_init2(&bm[k], 113); mpfr_set_d(&bm[k], b[k], MPFR_RNDN); mpfr_init2(&xm[k], 113);
    }
    for (int k = 0; k < 3; k++)
        mpfr_init2(&tm[k], 113);
    cr_assert_eq(mb_gauss_mpfr_solve(Am, N, bm, xm, piv, tm), MB_SUCCESS);
    for (size_t r = 0; r < N; r++)
        cr_expect(fabs(mpfr_get_d(&xm[r], MPFR_RNDN) - xref[r]) <= 1e-13 * (fabs(xref[r]) + 1.0),
                  "mpfr x[%zu]", r);
    for (size_t k = 0; k < N * N; k++) mpfr_clear(&Am[k]);
    for (size_t k = 0; k < N; k++) { mpfr_clear(&bm[k]); mpfr_clear(&xm[k]); }
    for (int k = 0; k < 3; k++) mpfr_clear(&tm[k]);
}

/* Singular (two equal rows) is reported; the same matrix with one entry changed by 1e-3
 * (well conditioned enough) is solved -- the control that the test is not "always
 * singular". */
Test(linsolve, singular_detection_gauss_and_lu)
{
    double A[N * N], b[N], x[N], tmp[3];
    size_t piv[N];
    for (int pass = 0; pass < 2; pass++) {
        for (size_t r = 0; r < N; r++) {
            b[r] = 1.0 + (double)r;
            for (size_t c = 0; c < N; c++)
                A[r * N + c] = entry(r == 4 ? 2 : r, c);
        }
        if (pass == 1)
            A[4 * N + 4] += 1e-3 * (1 + fabs(A[4 * N + 4]));
        mb_lu *lu = mb_lu_alloc(N);
        memcpy(lu->A->data, A, sizeof A);
        int rl = mb_lu_solve(lu, b, x);
        int rg = mb_gauss_solve(A, N, b, x, piv, tmp);
        if (pass == 0) {
            cr_expect_eq(rl, MB_ESINGULAR, "LU missed a singular matrix");
            cr_expect_eq(rg, MB_ESINGULAR, "Gauss missed a singular matrix");
            cr_expect(strstr(mb_last_error(), "singular") != NULL);
        } else {
            cr_expect_eq(rl, MB_SUCCESS, "LU flagged a regular matrix: %s", mb_last_error());
            cr_expect_eq(rg, MB_SUCCESS, "Gauss flagged a regular matrix: %s", mb_last_error());
        }
        mb_lu_free(lu);
    }
}

/* CSR assembly with duplicate blocks and a fixed degree of freedom against the matrix
 * written out by hand: A = M - h C - h^2 K, blocks summed, the fixed dof's row m e_k^T. */
Test(linsolve, csr_and_dense_assembly_sum_duplicates)
{
    const double h = 0.031;
    mb_nodes *s = mb_nodes_alloc(2, 53);
    mb_nodes_set_mass(s, 0, 0.73);
    mb_nodes_set_mass(s, 1, 1.19);
    s->blocked[1] = MB_BLOCK_Y;
    mb_jacobian *J = mb_jacobian_alloc(2, 53);
    size_t rows[5] = { 0, 1, 0, 1, 0 }, cols[5] = { 0, 0, 1, 1, 0 };   /* (0,0) twice */
    for (size_t b = 0; b < 5; b++) {
        long id = mb_jacobian_add_block(J, rows[b], cols[b]);
        for (int k = 0; k < 9; k++) {
            J->dfdx[9 * id + k] = -3.1 - (double)(b * 9 + k) * 0.173;
            J->dfdv[9 * id + k] = 0.05 * cos((double)(b * 9 + k));
        }
    }
    double ref[36] = { 0 };
    for (int k = 0; k < 6; k++)
        ref[k * 6 + k] = k < 3 ? 0.73 : 1.19;
    for (size_t b = 0; b < 5; b++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                ref[(3 * rows[b] + r) * 6 + 3 * cols[b] + c] -=
                    h * J->dfdv[9 * b + 3 * r + c] + h * h * J->dfdx[9 * b + 3 * r + c];
    for (int c = 0; c < 6; c++)
        ref[4 * 6 + c] = c == 4 ? 1.19 : 0.0;                       /* node 1, axis y */
    double dense[36];
    mb_linsys_dense(s, J, h, dense, 6);
    mb_csr *csr = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern(csr, J), MB_SUCCESS);
    cr_expect(mb_csr_matches(csr, J));
    mb_csr_assemble(csr, s, J, h);
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            double e[6] = { 0 }, y[6];
            e[c] = 1.0;
            mb_csr_matvec(csr, e, y);
            double tol = 4 * DBL_EPSILON * (fabs(ref[r * 6 + c]) + 1.0);
            cr_expect(fabs(dense[r * 6 + c] - ref[r * 6 + c]) <= tol, "dense (%d,%d)", r, c);
            cr_expect(fabs(y[r] - ref[r * 6 + c]) <= tol, "csr (%d,%d) %g vs %g", r, c, y[r],
                      ref[r * 6 + c]);
        }
    /* the Jacobi preconditioner reads the diagonal at its stored position: it must be the
     * reciprocal of the reference diagonal (same tolerance as the entries, one more
     * rounding for the division) */
    mb_krylov *kr = mb_krylov_alloc(6, 1e-12, 10);
    cr_assert_eq(mb_krylov_jacobi(kr, csr), MB_SUCCESS);
    for (int r = 0; r < 6; r++) {
        double d = ref[r * 6 + r], tol = 6 * DBL_EPSILON * (fabs(1.0 / d) + 1.0);
        cr_expect(fabs(kr->dinv[r] - 1.0 / d) <= tol, "Jacobi %d: %g vs %g", r, kr->dinv[r], 1.0 / d);
    }
    mb_krylov_free(kr);
    /* a different block list no longer matches the pattern */
    mb_jacobian_add_block(J, 1, 0);
    cr_expect(!mb_csr_matches(csr, J));
    mb_csr_free(csr);
    mb_jacobian_free(J);
    mb_nodes_free(s);
}

/* The CSR pattern names each of its blocks by its slot (mb_csr_slot_is, no copy of the
 * coordinates): a list matches only with the same blocks in the same order.  Pattern of
 * (0,0) (0,1) (1,2) (2,1) on 3 nodes; lists of the same length that move one block to
 * another column of its row, to another row, or swap two blocks must not match. */
Test(linsolve, csr_pattern_names_its_blocks)
{
    const size_t rows[4] = { 0, 0, 1, 2 }, cols[4] = { 0, 1, 2, 1 };
    const size_t other[3][4][2] = {
        { { 0, 0 }, { 0, 2 }, { 1, 2 }, { 2, 1 } },    /* (0,1) -> (0,2): same row */
        { { 0, 0 }, { 0, 1 }, { 1, 2 }, { 1, 1 } },    /* (2,1) -> (1,1): another row */
        { { 0, 0 }, { 1, 2 }, { 0, 1 }, { 2, 1 } },    /* two blocks swapped */
    };
    mb_jacobian *J = mb_jacobian_alloc(3, 53);
    for (size_t b = 0; b < 4; b++)
        cr_assert_geq(mb_jacobian_add_block(J, rows[b], cols[b]), 0);
    mb_csr *csr = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern(csr, J), MB_SUCCESS, "%s", mb_last_error());
    cr_expect(mb_csr_matches(csr, J), "the list the pattern was built from must match");
    for (size_t b = 0; b < 4; b++)
        cr_expect(mb_csr_slot_is(csr, b, rows[b], cols[b]), "block %zu", b);
    for (int q = 0; q < 3; q++) {
        mb_jacobian *K = mb_jacobian_alloc(3, 53);
        for (size_t b = 0; b < 4; b++)
            cr_assert_geq(mb_jacobian_add_block(K, other[q][b][0], other[q][b][1]), 0);
        cr_expect(!mb_csr_matches(csr, K), "changed list %d matches", q);
        mb_jacobian_free(K);
    }
    mb_csr_free(csr);
    mb_jacobian_free(J);
}

enum { MATVEC_NODES = 9 };

/* entry (a, e) of block (r, c) of the matrix of the product tests below: it depends on
 * its row, column and position, so that a swapped row, column or node shows */
static double matvec_entry(size_t r, size_t c, size_t a, size_t e)
{
    double p = (double)(27 * r + 9 * c + 3 * a + e);
    return sin(0.37 * p + 0.11 * (double)(3 * c + e)) * ((r + c + a + e) % 7 == 3 ? -1e-9 : 1.0);
}

/* 1 when the pattern of the product tests holds block (r, c) */
static int matvec_has(const mb_jacobian *J, size_t r, size_t c)
{
    for (size_t b = 0; b < J->count; b++)
        if (J->row[b] == r && J->col[b] == c)
            return 1;
    return r == c;
}

/* The CSR matrix of the two product tests below and its vector x (3 MATVEC_NODES values):
 * matvec_entry written into each column block's pool block. */
static mb_csr *matvec_case(mb_jacobian **J, double *x)
{
    const size_t extra[MATVEC_NODES][2] = { { 1, 5 }, { 0, 2 }, { 8, 8 }, { 8, 8 }, { 2, 6 },
                                            { 3, 3 }, { 0, 1 }, { 7, 7 }, { 0, 4 } };
    *J = mb_jacobian_alloc(MATVEC_NODES, 53);
    for (size_t r = 0; r < MATVEC_NODES; r++)
        for (int k = 0; k < 2; k++)
            cr_assert_geq(mb_jacobian_add_block(*J, r, extra[r][k]), 0);
    mb_csr *csr = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern(csr, *J), MB_SUCCESS, "%s", mb_last_error());
    for (size_t r = 0; r < MATVEC_NODES; r++)
        for (size_t p = csr->cstart[r]; p < csr->cstart[r + 1]; p++)
            for (size_t q = 0; q < 9; q++)
                csr->pool[9 * (size_t)csr->cref[p] + q] = matvec_entry(r, csr->ncol[p], q / 3, q % 3);
    for (size_t k = 0; k < 3 * MATVEC_NODES; k++)
        x[k] = cos(1.7 * (double)k) * (k % 4 == 1 ? 1e8 : 1.0);
    return csr;
}

/* mb_csr_matvec against the definition of the CSR product, written here: each scalar row
 * 3 r + a summed from +0 over the entries (3 c + e) of the blocks (r, c) of the pattern,
 * in ascending column, sum += matvec_entry(r, c, a, e) x_(3 c + e).  The kernel sums rows
 * of a node, or of two nodes, side by side and reads one column node and one pool block
 * per column block (mb_csr.ncol, cref); each row keeps its own order, so the bits must
 * agree.  Nine nodes (odd: a node left alone at the end) whose rows have 1, 2 or 3
 * column blocks, with neighbours of equal and of different lengths.  The GSL matrix
 * (mb_csr_spmatrix) must hold the same entries at the same scalar columns. */
Test(linsolve, csr_matvec_sums_each_row_in_order)
{
    mb_jacobian *J;
    double x[3 * MATVEC_NODES], y[3 * MATVEC_NODES];
    mb_csr *csr = matvec_case(&J, x);
    mb_csr_matvec(csr, x, y);
    for (size_t k = 0; k < 3 * MATVEC_NODES; k++) {
        size_t r = k / 3, a = k % 3;
        double sum = 0.0;
        for (size_t c = 0; c < MATVEC_NODES; c++)
            for (size_t e = 0; e < 3 && matvec_has(J, r, c); e++)
                sum += matvec_entry(r, c, a, e) * x[3 * c + e];
        cr_expect(memcmp(&sum, &y[k], sizeof sum) == 0, "row %zu: %.17g, not %.17g", k, y[k], sum);
    }
    const gsl_spmatrix *A = mb_csr_spmatrix(csr);
    cr_assert_not_null(A);
    size_t nz = 0;
    for (size_t k = 0; k < 3 * MATVEC_NODES; k++)
        for (int p = A->p[k]; p < A->p[k + 1]; p++, nz++) {
            size_t c = (size_t)A->i[p] / 3, e = (size_t)A->i[p] % 3;
            cr_expect(matvec_has(J, k / 3, c) && A->data[p] == matvec_entry(k / 3, c, k % 3, e),
                      "GSL entry (%zu, %d)", k, A->i[p]);
            cr_expect(p == A->p[k] || A->i[p] > A->i[p - 1], "row %zu: columns not ascending", k);
        }
    size_t blocks = 0;
    for (size_t r = 0; r < MATVEC_NODES; r++)
        for (size_t c = 0; c < MATVEC_NODES; c++)
            blocks += (size_t)matvec_has(J, r, c);
    cr_expect_eq(nz, 9 * blocks, "the GSL matrix holds %zu entries, not %zu", nz, 9 * blocks);
    mb_csr_free(csr);
    mb_jacobian_free(J);
}

/* mb_csr_matvec_dots: the product of mb_csr_matvec and, taken on the way, w.y and y.y,
 * which must be the sums written here in ascending index order (the order of
 * mb_krylov_dot, so the fused Krylov iterations keep their bits).  w has entries of
 * magnitudes 1 and 1e8 and of both signs, so that a sum taken in another order, over
 * another range, or of another vector rounds differently. */
Test(linsolve, csr_matvec_dots_sum_in_index_order)
{
    mb_jacobian *J;
    double x[3 * MATVEC_NODES], y[3 * MATVEC_NODES], z[3 * MATVEC_NODES], w[3 * MATVEC_NODES];
    mb_csr *csr = matvec_case(&J, x);
    for (size_t k = 0; k < 3 * MATVEC_NODES; k++)
        w[k] = sin(2.3 * (double)k + 0.5) * (k % 3 == 2 ? 1e8 : 1.0);
    mb_csr_matvec(csr, x, y);
    double yw = 0.0, yy = 0.0, fw = NAN, fy = NAN, gw = NAN;
    for (size_t k = 0; k < 3 * MATVEC_NODES; k++) {
        yw += w[k] * y[k];
        yy += y[k] * y[k];
    }
    mb_csr_matvec_dots(csr, x, z, w, &fw, &fy);
    cr_expect(memcmp(y, z, sizeof y) == 0, "the product differs from mb_csr_matvec");
    cr_expect(memcmp(&yw, &fw, sizeof yw) == 0, "w.y %.17g, not %.17g", fw, yw);
    cr_expect(memcmp(&yy, &fy, sizeof yy) == 0, "y.y %.17g, not %.17g", fy, yy);
    cr_expect(memcmp(&yw, &(double){ mb_krylov_dot(w, y, 3 * MATVEC_NODES) }, sizeof yw) == 0,
              "mb_krylov_dot sums in another order");
    memset(z, 0, sizeof z);
    mb_csr_matvec_dots(csr, x, z, w, &gw, NULL);
    cr_expect(memcmp(y, z, sizeof y) == 0, "the product (w.y alone) differs from mb_csr_matvec");
    cr_expect(memcmp(&yw, &gw, sizeof yw) == 0, "w.y alone %.17g, not %.17g", gw, yw);
    mb_csr_free(csr);
    mb_jacobian_free(J);
}

/* The backward-Euler system (h = 0.02) of an 11-particle chain at a perturbed state. */
struct chain_case {
    mb_options *in, *p;
    mb_system *sys;
    mb_jacobian *J;
    mb_csr *csr;
    size_t n3;
};

static void chain_case_build(struct chain_case *c, int symmetric)
{
    const mb_problem_type *pt;
    c->in = mb_options_new();
    mb_options_set(c->in, "n", "11");
    if (symmetric) {
        mb_options_set(c->in, "c", "0");
        mb_options_set(c->in, "anchors", "none");
    }
    cr_assert_eq(mb_problem_prepare("spring-chain", c->in, &pt, &c->p), MB_SUCCESS);
    cr_assert_eq(pt->setup(c->p, &c->sys), MB_SUCCESS);
    for (size_t k = 0; k < 3 * c->sys->nodes->n; k++) {
        c->sys->nodes->x[k] += 0.021 * sin(1.9 * (double)k);
        c->sys->nodes->v[k] = 0.4 * cos(0.7 * (double)k);
    }
    c->n3 = 3 * c->sys->nodes->n;
    c->J = mb_jacobian_alloc(c->sys->nodes->n, 53);
    mb_forces_jacobian(c->sys->forces, c->sys->nodes, c->J);
    c->csr = mb_csr_alloc();
    mb_csr_pattern(c->csr, c->J);
    mb_csr_assemble(c->csr, c->sys->nodes, c->J, 0.02);
}

static void chain_case_free(struct chain_case *c)
{
    mb_csr_free(c->csr);
    mb_jacobian_free(c->J);
    mb_system_free(c->sys);
    mb_options_free(c->in);
    mb_options_free(c->p);
}

/* The Krylov solvers against the reference on the real system of a chain: nonsymmetric
 * (dashpots, pinned ends) for BiCGSTAB and GMRES, symmetric positive definite (no
 * dashpots, free ends) for CG. */
static void krylov_case(int symmetric)
{
    struct chain_case c;
    chain_case_build(&c, symmetric);
    mb_system *sys = c.sys;
    mb_jacobian *J = c.J;
    mb_csr *csr = c.csr;
    size_t n3 = c.n3;
    double *A = calloc(n3 * n3, sizeof *A), *b = calloc(n3, sizeof *b), *xr = calloc(n3, sizeof *xr);
    double *x = calloc(n3, sizeof *x);
    mb_linsys_dense(sys->nodes, J, 0.02, A, n3);
    for (size_t k = 0; k < n3; k++)
        b[k] = sin(0.37 * (double)k) + 0.1;
    reference_solve(A, b, xr, n3);
    double xmax = 0.0;
    for (size_t k = 0; k < n3; k++)
        xmax = fmax(xmax, fabs(xr[k]));
    mb_krylov *kr = mb_krylov_alloc(n3, 1e-13, 1000);
    mb_gmres *gm = mb_gmres_alloc(n3, 20, 1e-13, 100);
    for (int which = 0; which < 3; which++) {
        if (which == 1 && !symmetric)
            continue;
        memset(x, 0, n3 * sizeof *x);
        int rc = which == 0 ? mb_bicgstab_solve(kr, csr, b, x)
               : which == 1 ? mb_pcg_solve(kr, csr, b, x) : mb_gmres_solve(gm, mb_csr_spmatrix(csr), b, x);
        cr_expect_eq(rc, MB_SUCCESS, "solver %d: %s", which, mb_last_error());
        for (size_t k = 0; k < n3; k++)
            cr_expect(fabs(x[k] - xr[k]) <= 1e-11 * xmax, "solver %d x[%zu] %.17g vs %.17g",
                      which, k, x[k], xr[k]);
    }
    mb_krylov_free(kr);
    mb_gmres_free(gm);
    free(A); free(b); free(xr); free(x);
    chain_case_free(&c);
}

Test(linsolve, krylov_nonsymmetric_against_householder) { krylov_case(0); }
Test(linsolve, krylov_spd_against_householder) { krylov_case(1); }

/* What CG stops on is its recursively updated residual; in rounding it drifts from
 * b - A x, by about u |A| |x| per iteration.  Asked for rtol = 1e-16 (the option's
 * least), below what the true residual of the symmetric chain system can reach, the
 * recursive one still falls under it: mb_pcg_solve must then not report success unless
 * |b - A x| <= rtol |b| holds, the residual formed here from the dense matrix in long
 * double (its own rounding about 1e-19 |b|). */
Test(linsolve, pcg_success_means_the_true_residual)
{
    struct chain_case c;
    chain_case_build(&c, 1);
    size_t n3 = c.n3;
    double *A = calloc(n3 * n3, sizeof *A), *b = calloc(n3, sizeof *b), *x = calloc(n3, sizeof *x);
    mb_linsys_dense(c.sys->nodes, c.J, 0.02, A, n3);
    for (size_t k = 0; k < n3; k++)
        b[k] = sin(0.37 * (double)k) + 0.1;
    mb_krylov *kr = mb_krylov_alloc(n3, 1e-16, 200);
    int rc = mb_pcg_solve(kr, c.csr, b, x);
    long double rr = 0.0L, bb = 0.0L;
    for (size_t r = 0; r < n3; r++) {
        long double s = b[r];
        for (size_t q = 0; q < n3; q++)
            s -= (long double)A[r * n3 + q] * x[q];
        rr += s * s;
        bb += (long double)b[r] * b[r];
    }
    double rel = (double)sqrtl(rr / bb);
    cr_expect(rc != MB_SUCCESS || rel <= 1e-16, "success reported with |b - A x| / |b| = %g", rel);
    cr_expect(rc == MB_SUCCESS || rc == MB_EMAXITER, "status %d: %s", rc, mb_last_error());
    mb_krylov_free(kr);
    free(A); free(b); free(x);
    chain_case_free(&c);
}

/* Jacobi-preconditioned BiCGSTAB written out as the textbook iteration (Saad, Alg. 7.7,
 * right preconditioning), each sum a pass of its own in ascending index order; the
 * iterations it took, or 0 when it did not converge in 1000. */
static unsigned long plain_bicgstab(const mb_csr *A, const double *b, double *x, size_t n,
                                    double rtol)
{
    double *w = calloc(9 * n, sizeof *w);
    double *dinv = w, *r = w + n, *rhat = w + 2 * n, *p = w + 3 * n, *v = w + 4 * n;
    double *s = w + 5 * n, *t = w + 6 * n, *ph = w + 7 * n, *sh = w + 8 * n;
    for (size_t k = 0; k < n; k++)
        dinv[k] = 1.0 / mb_csr_diagonal(A, k / 3, (int)(k % 3));
    mb_csr_matvec(A, x, r);
    double bb = 0.0;
    for (size_t k = 0; k < n; k++) {
        r[k] = b[k] - r[k];
        rhat[k] = r[k];
        bb += b[k] * b[k];
    }
    double bnorm = sqrt(bb), rho_old = 1.0, alpha = 1.0, omega = 1.0;
    unsigned long it = 0;
    while (++it <= 1000) {
        double rho = 0.0, rv = 0.0, ss = 0.0, tt = 0.0, ts = 0.0, rr = 0.0;
        for (size_t k = 0; k < n; k++)
            rho += rhat[k] * r[k];
        double beta = (rho / rho_old) * (alpha / omega);
        for (size_t k = 0; k < n; k++) {
            p[k] = r[k] + beta * (p[k] - omega * v[k]);
            ph[k] = dinv[k] * p[k];
        }
        mb_csr_matvec(A, ph, v);
        for (size_t k = 0; k < n; k++)
            rv += rhat[k] * v[k];
        alpha = rho / rv;
        for (size_t k = 0; k < n; k++) {
            s[k] = r[k] - alpha * v[k];
            ss += s[k] * s[k];
        }
        if (sqrt(ss) <= rtol * bnorm) {
            for (size_t k = 0; k < n; k++)
                x[k] += alpha * ph[k];
            break;
        }
        for (size_t k = 0; k < n; k++)
            sh[k] = dinv[k] * s[k];
        mb_csr_matvec(A, sh, t);
        for (size_t k = 0; k < n; k++)
            tt += t[k] * t[k];
        for (size_t k = 0; k < n; k++)
            ts += t[k] * s[k];
        omega = ts / tt;
        for (size_t k = 0; k < n; k++) {
            x[k] += alpha * ph[k] + omega * sh[k];
            r[k] = s[k] - omega * t[k];
            rr += r[k] * r[k];
        }
        if (sqrt(rr) <= rtol * bnorm)
            break;
        rho_old = rho;
    }
    free(w);
    return it <= 1000 ? it : 0;
}

/* mb_bicgstab_solve takes its sums inside the passes that read their vectors (the
 * products, the updates of s and r); taken in the same order, they leave the iterates of
 * the textbook iteration above unchanged: the same iterations and the same bits of x, on
 * the nonsymmetric chain system, from a zero and from a nonzero initial guess. */
Test(linsolve, bicgstab_iterates_as_the_textbook_iteration)
{
    struct chain_case c;
    chain_case_build(&c, 0);
    size_t n3 = c.n3;
    double *b = calloc(n3, sizeof *b), *x = calloc(n3, sizeof *x), *xp = calloc(n3, sizeof *xp);
    for (size_t k = 0; k < n3; k++)
        b[k] = sin(0.37 * (double)k) + 0.1;
    mb_krylov *kr = mb_krylov_alloc(n3, 1e-13, 1000);
    for (int guess = 0; guess < 2; guess++) {
        for (size_t k = 0; k < n3; k++)
            x[k] = xp[k] = guess ? 0.3 * cos(1.1 * (double)k) : 0.0;
        unsigned long it = plain_bicgstab(c.csr, b, xp, n3, 1e-13);
        cr_assert_gt(it, 3, "the textbook iteration took %lu iterations", it);
        cr_assert_eq(mb_bicgstab_solve(kr, c.csr, b, x), MB_SUCCESS, "%s", mb_last_error());
        cr_expect_eq(kr->iterations_last, it, "guess %d: %lu iterations, not %lu", guess,
                     kr->iterations_last, it);
        for (size_t k = 0; k < n3; k++)
            cr_expect(memcmp(&x[k], &xp[k], sizeof x[k]) == 0, "guess %d x[%zu] %.17g, not %.17g",
                      guess, k, x[k], xp[k]);
    }
    mb_krylov_free(kr);
    free(b); free(x); free(xp);
    chain_case_free(&c);
}

/* BiCGSTAB reports non-convergence (not a wrong answer) when given too few iterations. */
Test(linsolve, bicgstab_maxiter_is_reported)
{
    const size_t n = 40;
    mb_jacobian *J = mb_jacobian_alloc(n / 3 + 1, 53);
    mb_nodes *s = mb_nodes_alloc(n / 3 + 1, 53);
    for (size_t i = 0; i + 1 < s->n; i++) {          /* a stiff chain Laplacian */
        long b = mb_jacobian_add_block(J, i, i + 1), c = mb_jacobian_add_block(J, i + 1, i);
        long d = mb_jacobian_add_block(J, i, i), e = mb_jacobian_add_block(J, i + 1, i + 1);
        for (int a = 0; a < 3; a++) {
            J->dfdx[9 * b + 4 * a] = J->dfdx[9 * c + 4 * a] = 1e4;
            J->dfdx[9 * d + 4 * a] = J->dfdx[9 * e + 4 * a] = -1e4;
        }
    }
    mb_csr *csr = mb_csr_alloc();
    mb_csr_pattern(csr, J);
    mb_csr_assemble(csr, s, J, 1.0);
    size_t n3 = 3 * s->n;
    double b[60], x[60] = { 0 };
    for (size_t k = 0; k < n3; k++)
        b[k] = 1.0 + sin((double)k);
    mb_krylov *kr = mb_krylov_alloc(n3, 1e-14, 2);
    cr_expect_eq(mb_bicgstab_solve(kr, csr, b, x), MB_EMAXITER, "%s", mb_last_error());
    mb_krylov_free(kr);
    mb_csr_free(csr);
    mb_jacobian_free(J);
    mb_nodes_free(s);
}

/* A x = 0 with a nonsingular A has the unique solution x = 0, whatever the initial guess
 * (the implicit schemes pass v as the guess).  The relative test |r| <= rtol |b| has
 * rtol |b| = 0 here, so a solver must treat b = 0 itself: every solver has to return
 * MB_SUCCESS and x = 0 exactly.  SPD chain Laplacian (masses 1.385, h = 0.0731). */
Test(linsolve, krylov_zero_rhs_gives_zero)
{
    const size_t nn = 5, n3 = 15;
    mb_jacobian *J = mb_jacobian_alloc(nn, 53);
    mb_nodes *s = mb_nodes_alloc(nn, 53);
    for (size_t i = 0; i < nn; i++)
        mb_nodes_set_mass(s, i, 1.385);
    for (size_t i = 0; i + 1 < nn; i++) {
        long b = mb_jacobian_add_block(J, i, i + 1), c = mb_jacobian_add_block(J, i + 1, i);
        long d = mb_jacobian_add_block(J, i, i), e = mb_jacobian_add_block(J, i + 1, i + 1);
        for (int a = 0; a < 3; a++) {
            J->dfdx[9 * b + 4 * a] = J->dfdx[9 * c + 4 * a] = 23.85;
            J->dfdx[9 * d + 4 * a] = J->dfdx[9 * e + 4 * a] = -23.85;
        }
    }
    mb_csr *csr = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern(csr, J), MB_SUCCESS);
    mb_csr_assemble(csr, s, J, 0.0731);
    double b[15] = { 0 }, x[15];
    /* 5 iterations, fewer than the 15 unknowns: none is needed for b = 0 */
    mb_krylov *kr = mb_krylov_alloc(n3, 1e-12, 5);
    mb_gmres *gm = mb_gmres_alloc(n3, 10, 1e-12, 50);
    for (int which = 0; which < 3; which++) {
        for (size_t k = 0; k < n3; k++)
            x[k] = 0.3 + cos(1.7 * (double)k);           /* nonzero initial guess */
        int rc = which == 0 ? mb_bicgstab_solve(kr, csr, b, x)
               : which == 1 ? mb_pcg_solve(kr, csr, b, x) : mb_gmres_solve(gm, mb_csr_spmatrix(csr), b, x);
        cr_expect_eq(rc, MB_SUCCESS, "solver %d: %s", which, mb_last_error());
        for (size_t k = 0; k < n3; k++)
            cr_expect_eq(x[k], 0.0, "solver %d x[%zu] = %g", which, k, x[k]);
    }
    mb_krylov_free(kr);
    mb_gmres_free(gm);
    mb_csr_free(csr);
    mb_jacobian_free(J);
    mb_nodes_free(s);
}

/* The MPFR elimination's singularity threshold n 2^(1-prec) max|A| at any precision.
 * A = [[1/10, 3/10], [3/10, 9/10]] is singular (row 2 = 3 row 1); rounded to prec bits
 * its entries are no longer exactly proportional, so the second pivot is a rounding
 * residue of order 2^-prec, which the threshold must flag -- also above 1074 bits,
 * where 2^(1-prec) underflows in double.  Control: [[1/10, 3/10], [3/10, 1/10]]
 * (det = -0.08) is solved, x checked against Cramer's rule in the double read-out (1e-15). */
static void gauss_mpfr_singular_case(mpfr_prec_t prec)
{
    __mpfr_struct A[4], b[2], x[2], tmp[3];
    size_t piv[2];
    const char *sing[4] = { "0.1", "0.3", "0.3", "0.9" }, *reg[4] = { "0.1", "0.3", "0.3", "0.1" };
    for (int k = 0; k < 4; k++)
        mpfr_init2(&A[k], prec);
    for (int k = 0; k < 2; k++) {
        mpfr_init2(&b[k], prec);
        mpfr_init2(&x[k], prec);
    }
    for (int k = 0; k < 3; k++)
        mpfr_init2(&tmp[k], prec);
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < 4; k++)
            mpfr_set_str(&A[k], pass ? reg[k] : sing[k], 10, MPFR_RNDN);
        mpfr_set_d(&b[0], 1.0, MPFR_RNDN);
        mpfr_set_d(&b[1], 2.0, MPFR_RNDN);
        int rc = mb_gauss_mpfr_solve(A, 2, b, x, piv, tmp);
        if (pass == 0) {
            cr_expect_eq(rc, MB_ESINGULAR, "prec %ld: singular matrix solved (x0 = %g)",
                         (long)prec, mpfr_get_d(&x[0], MPFR_RNDN));
        } else {
            cr_expect_eq(rc, MB_SUCCESS, "prec %ld: %s", (long)prec, mb_last_error());
            /* Cramer: x = (0.1 - 0.6, 0.2 - 0.3) / (0.01 - 0.09) = (6.25, 1.25) */
            cr_expect(fabs(mpfr_get_d(&x[0], MPFR_RNDN) - 6.25) <= 1e-15 * 6.25);
            cr_expect(fabs(mpfr_get_d(&x[1], MPFR_RNDN) - 1.25) <= 1e-15 * 1.25);
        }
    }
    for (int k = 0; k < 4; k++)
        mpfr_clear(&A[k]);
    for (int k = 0; k < 2; k++) {
        mpfr_clear(&b[k]);
        mpfr_clear(&x[k]);
    }
    for (int k = 0; k < 3; k++)
        mpfr_clear(&tmp[k]);
}

Test(linsolve, gauss_mpfr_singular_at_any_precision)
{
    const mpfr_prec_t precs[] = { 53, 113, 256, 1100, 2048 };
    for (size_t k = 0; k < sizeof precs / sizeof precs[0]; k++)
        gauss_mpfr_singular_case(precs[k]);
}
