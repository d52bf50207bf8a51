/* linsolve_blocktri.c -- direct O(n) solve of a block-tridiagonal A = M - h C - h^2 K
 * (a chain: every node couples only to its neighbours in the numbering), 3x3 blocks.
 *
 * Block LU without pivoting between blocks (the block Thomas algorithm; Golub & Van Loan,
 * Matrix Computations, 4th ed., sec. 4.5.1), with partial pivoting inside each 3x3 block.
 * With D_i = A(i,i), L_i = A(i,i-1), U_i = A(i,i+1):
 *     S_0 = D_0,   S_i = D_i - L_i X_{i-1},   X_i = S_i^-1 U_i,
 *     z_0 = S_0^-1 b_0,   z_i = S_i^-1 (b_i - L_i z_{i-1}),
 *     x_{n-1} = z_{n-1},   x_i = z_i - X_i x_{i+1}.
 * S_i^-1 is applied through the 3x3 LU factors, never formed, so a diagonal S_i solves
 * exactly as a division.
 *
 * Acceptance (else MB_ESINGULAR, and the caller falls back to a pivoting solver): block
 * LU without pivoting is backward stable when the pivot blocks stay well conditioned and
 * do not grow -- for block diagonally dominant matrices the growth ||S_i|| / ||D_i|| is
 * at most 2 (Demmel, Higham & Schreiber, "Stability of block LU factorization", Numer.
 * Linear Algebra Appl. 2, 1995).  Each S_i must have
 *     rcond_1(S_i) = 1 / (||S_i||_1 ||S_i^-1||_1) >= MB_BLOCKTRI_RCOND_MIN   and
 *     ||S_i||_1 <= MB_BLOCKTRI_GROWTH_MAX ||D_i||_1,
 * and x must come out finite.
 *
 * Assembly follows mb_band_assemble entry by entry (mass, then -h C and -h^2 K of each
 * block in list order, fixed rows last), so both paths hold the very same matrix. */
#include "mb_linsolve.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mb_blocktri_free(mb_blocktri *T)
{
    if (T == NULL)
        return;
    free(T->D);
    free(T->L);
    free(T->U);
    free(T->X);
    free(T->z);
    free(T);
}

mb_blocktri *mb_blocktri_alloc(size_t n_nodes)
{
    mb_blocktri *T = calloc(1, sizeof *T);
    if (T == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    size_t m = n_nodes > 0 ? n_nodes : 1;
    T->n = n_nodes;
    T->D = malloc(9 * m * sizeof(double));
    T->L = malloc(9 * m * sizeof(double));
    T->U = malloc(9 * m * sizeof(double));
    T->X = malloc(9 * m * sizeof(double));
    T->z = malloc(3 * m * sizeof(double));
    if (!T->D || !T->L || !T->U || !T->X || !T->z) {
        mb_blocktri_free(T);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a block-tridiagonal matrix of %zu nodes", n_nodes);
    }
    return T;
}

int mb_blocktri_fits(const mb_jacobian *J)
{
    for (size_t b = 0; b < J->count; b++)
        if (J->row[b] > J->col[b] + 1 || J->col[b] > J->row[b] + 1)
            return 0;
    return 1;
}

/* A = M: the blocks zeroed and the masses on the diagonal (the start of every entry) */
void mb_blocktri_begin(mb_blocktri *T, const mb_nodes *s)
{
    memset(T->L, 0, 9 * T->n * sizeof(double));
    memset(T->U, 0, 9 * T->n * sizeof(double));
    for (size_t i = 0; i < T->n; i++) {            /* D in one pass */
        double m = s->mass[i], *D = &T->D[9 * i];
        D[0] = m, D[1] = 0.0, D[2] = 0.0;
        D[3] = 0.0, D[4] = m, D[5] = 0.0;
        D[6] = 0.0, D[7] = 0.0, D[8] = m;
    }
}

/* the rows of fixed degrees of freedom: d e_k^T, d = mass (1 for infinite mass) */
void mb_blocktri_fix_rows(mb_blocktri *T, const mb_nodes *s)
{
    for (size_t i = 0; i < T->n; i++)
        for (int a = 0; a < 3 && mb_linsys_node_fixed_inline(s, i); a++)
            if (mb_linsys_fixed(s, 3 * i + (size_t)a)) {
                for (int e = 0; e < 3; e++)
                    T->L[9 * i + 3 * a + e] = T->D[9 * i + 3 * a + e] = T->U[9 * i + 3 * a + e] = 0.0;
                T->D[9 * i + 4 * a] = s->inv_mass[i] == 0.0 ? 1.0 : s->mass[i];
            }
}

void mb_blocktri_assemble(mb_blocktri *T, const mb_nodes *s, const mb_jacobian *J, double h)
{
    const double h2 = h * h;
    mb_blocktri_begin(T, s);
    for (size_t b = 0; b < J->count; b++)
        mb_blocktri_add(T, J->row[b], J->col[b], &J->dfdv[9 * b], &J->dfdx[9 * b], h, h2);
    mb_blocktri_fix_rows(T, s);
}

/* the larger of m and x, m never NaN: fmax (a NaN x leaves m), without its call */
static inline double max_of(double m, double x)
{
    return x > m ? x : m;
}

/* 1-norm (largest column sum) of a row-major 3x3 block */
static double norm1_3(const double *a)
{
    double m = 0.0;
    for (int c = 0; c < 3; c++)
        m = max_of(m, fabs(a[c]) + fabs(a[3 + c]) + fabs(a[6 + c]));
    return m;
}

/* In-place LU with partial pivoting of a 3x3 block: a holds L (unit, below) and U,
 * p the row order.  0 when a pivot is zero or not finite. */
static int lu3(double *a, int p[3])
{
    p[0] = 0; p[1] = 1; p[2] = 2;
    for (int k = 0; k < 3; k++) {
        int q = k;
        for (int r = k + 1; r < 3; r++)
            if (fabs(a[3 * r + k]) > fabs(a[3 * q + k]))
                q = r;
        if (q != k) {
            for (int c = 0; c < 3; c++) {
                double t = a[3 * k + c];
                a[3 * k + c] = a[3 * q + c];
                a[3 * q + c] = t;
            }
            int t = p[k]; p[k] = p[q]; p[q] = t;
        }
        if (!(fabs(a[4 * k]) > 0.0) || !isfinite(a[4 * k]))
            return 0;
        for (int r = k + 1; r < 3; r++) {
            a[3 * r + k] /= a[4 * k];
            for (int c = k + 1; c < 3; c++)
                a[3 * r + c] -= a[3 * r + k] * a[3 * k + c];
        }
    }
    return 1;
}

/* x = S^-1 v with S's factors (lu, p); x may alias v */
static inline void lu3_solve(const double *lu, const int p[3], const double *v, double *x)
{
    double y0 = v[p[0]], y1 = v[p[1]], y2 = v[p[2]];
    y1 -= lu[3] * y0;
    y2 -= lu[6] * y0 + lu[7] * y1;
    y2 /= lu[8];
    y1 = (y1 - lu[5] * y2) / lu[4];
    y0 = (y0 - lu[1] * y1 - lu[2] * y2) / lu[0];
    x[0] = y0; x[1] = y1; x[2] = y2;
}

/* ||S^-1||_1 from S's factors: the largest column sum of S^-1 */
static double inverse_norm1(const double *lu, const int p[3])
{
    double m = 0.0;
    for (int c = 0; c < 3; c++) {
        double e[3] = { 0.0, 0.0, 0.0 };
        e[c] = 1.0;
        lu3_solve(lu, p, e, e);
        m = max_of(m, fabs(e[0]) + fabs(e[1]) + fabs(e[2]));
    }
    return m;
}

/* out = v - B w (3x3 B, row-major) */
static inline void sub_mat_vec(const double *v, const double *B, const double *w, double *out)
{
    for (int r = 0; r < 3; r++)
        out[r] = v[r] - (B[3 * r] * w[0] + B[3 * r + 1] * w[1] + B[3 * r + 2] * w[2]);
}

/* Factor S_i, check it, and form z_i and X_i; the forward step of node i. */
static int blocktri_forward(mb_blocktri *T, size_t i, const double *b)
{
    double S[9], r[3];
    const double *Di = &T->D[9 * i];
    if (i == 0) {
        memcpy(S, Di, sizeof S);
        memcpy(r, b, sizeof r);
    } else {
        const double *Li = &T->L[9 * i], *Xp = &T->X[9 * (i - 1)];
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                S[3 * a + c] = Di[3 * a + c] - (Li[3 * a] * Xp[c] + Li[3 * a + 1] * Xp[3 + c]
                                                + Li[3 * a + 2] * Xp[6 + c]);
        sub_mat_vec(&b[3 * i], Li, &T->z[3 * (i - 1)], r);
    }
    double snorm = norm1_3(S), growth = snorm / norm1_3(Di);
    int p[3];
    if (!lu3(S, p) || !(growth <= MB_BLOCKTRI_GROWTH_MAX))
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: pivot block of node %zu is singular "
                 "or has grown %g times its diagonal block", i, growth);
    double rcond = 1.0 / (snorm * inverse_norm1(S, p));
    if (!(rcond >= MB_BLOCKTRI_RCOND_MIN))
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: pivot block of node %zu has "
                 "rcond %g < %g", i, rcond, MB_BLOCKTRI_RCOND_MIN);
    T->rcond_min = rcond < T->rcond_min ? rcond : T->rcond_min;  /* both finite here */
    T->growth_max = max_of(T->growth_max, growth);
    lu3_solve(S, p, r, &T->z[3 * i]);
    if (i + 1 < T->n) {
        const double *Ui = &T->U[9 * i];
        double *Xi = &T->X[9 * i];
        for (int c = 0; c < 3; c++) {
            double col[3] = { Ui[c], Ui[3 + c], Ui[6 + c] };
            lu3_solve(S, p, col, col);
            Xi[c] = col[0]; Xi[3 + c] = col[1]; Xi[6 + c] = col[2];
        }
    }
    return MB_SUCCESS;
}

int mb_blocktri_solve(mb_blocktri *T, const double *b, double *x)
{
    T->rcond_min = INFINITY;
    T->growth_max = 0.0;
    for (size_t i = 0; i < T->n; i++) {
        int st = blocktri_forward(T, i, b);
        if (st != MB_SUCCESS)
            return st;
    }
    int finite = 1;
    for (size_t i = T->n; i-- > 0;) {
        if (i + 1 == T->n)
            memcpy(&x[3 * i], &T->z[3 * i], 3 * sizeof(double));
        else
            sub_mat_vec(&T->z[3 * i], &T->X[9 * i], &x[3 * (i + 1)], &x[3 * i]);
        finite &= isfinite(x[3 * i]) && isfinite(x[3 * i + 1]) && isfinite(x[3 * i + 2]);
    }
    if (!finite)
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: the solution is not finite");
    return MB_SUCCESS;
}
