/* linsolve_blocktri.c -- direct O(n) solve of a block-tridiagonal A = M - h C - h^2 K
 * (a chain: every node couples only to its neighbours in the numbering), 3x3 blocks.
 *
 * Block LU without pivoting between blocks (the block Thomas algorithm; Golub & Van Loan,
 * Matrix Computations, 4th ed., sec. 4.5.1).  With D_i = A(i,i), L_i = A(i,i-1),
 * U_i = A(i,i+1):
 *     S_0 = D_0,   S_i = D_i - L_i X_{i-1},   X_i = S_i^-1 U_i,
 *     z_0 = S_0^-1 b_0,   z_i = S_i^-1 (b_i - L_i z_{i-1}),
 *     x_{n-1} = z_{n-1},   x_i = z_i - X_i x_{i+1}.
 * S_i^-1 is formed by cofactors (Cramer's rule) from T_i = S_i / ||S_i||_1, whose entries
 * are at most 1, so no product overflows whatever the scale of the masses:
 *     S_i^-1 = adj(T_i) / (det(T_i) ||S_i||_1),
 * two divisions per node and no pivoting (a small diagonal is no pivot here).  Its error is
 * of the order of u cond(S_i), the order of the forward error of a pivoted 3x3 LU solve;
 * the condition limit below keeps it under 2^-26 relative.
 *
 * Acceptance (else MB_ESINGULAR, and the caller falls back to a pivoting solver): block
 * LU without pivoting is backward stable when the pivot blocks stay well conditioned and
 * do not grow -- for block diagonally dominant matrices the growth ||S_i|| / ||D_i|| is
 * at most 2 (Demmel, Higham & Schreiber, "Stability of block LU factorization", Numer.
 * Linear Algebra Appl. 2, 1995).  Each S_i must have det S_i != 0,
 *     rcond_1(S_i) = 1 / (||S_i||_1 ||S_i^-1||_1) = |det T_i| / ||adj T_i||_1
 *                  >= MB_BLOCKTRI_RCOND_MIN   and
 *     ||S_i||_1 <= MB_BLOCKTRI_GROWTH_MAX ||D_i||_1,
 * both tested by products (no division; NaN fails them), and x must come out finite.
 *
 * Assembly follows mb_band_assemble entry by entry (mass, then -(h C + h^2 K) of each
 * block in list order, fixed rows last), so both paths hold the very same matrix.  An
 * assembly begun by mb_blocktri_begin_unset writes each block once: its first term reads
 * the block's start value (M's block, or +0) instead of the block, which therefore need
 * not be written beforehand -- the same operations on the same values. */
#include "block3_lanes.h"
#include "mb_compiler.h"
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
    free(T->set);
    free(T);
}

const double mb_blocktri_zero[9] = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };

mb_blocktri *mb_blocktri_alloc(size_t n_nodes)
{
    mb_blocktri *T = calloc(1, sizeof *T);
    if (T == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    size_t m = n_nodes > 0 ? n_nodes : 1;
    T->n = n_nodes;
    T->D = malloc(9 * m * sizeof(double));
    T->L = calloc(9 * m, sizeof(double));           /* L_0 and U_{n-1} stay +0 */
    T->U = calloc(9 * m, sizeof(double));
    T->X = malloc(9 * m * sizeof(double));
    T->z = malloc(3 * m * sizeof(double));
    T->set = malloc(m);
    if (!T->D || !T->L || !T->U || !T->X || !T->z || !T->set) {
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

/* the blocks of A: D_i for every node, L_i and U_i between neighbours */
static size_t blocktri_blocks(const mb_blocktri *T)
{
    return T->n > 0 ? 3 * T->n - 2 : 0;
}


/* A = M: the blocks zeroed and the masses on the diagonal (the start of every entry) */
void mb_blocktri_begin(mb_blocktri *T, const mb_nodes *s)
{
    memset(T->L, 0, 9 * T->n * sizeof(double));
    memset(T->U, 0, 9 * T->n * sizeof(double));
    for (size_t i = 0; i < T->n; i++)              /* D in one pass */
        mb_blocktri_mass_block(s->mass[i], &T->D[9 * i]);
    memset(T->set, MB_BLOCKTRI_SET_D | MB_BLOCKTRI_SET_L | MB_BLOCKTRI_SET_U, T->n);
    T->nset = blocktri_blocks(T);
    T->mass = s->mass;
}

void mb_blocktri_begin_unset(mb_blocktri *T, const mb_nodes *s)
{
    memset(T->set, 0, T->n);
    T->nset = 0;
    T->mass = s->mass;
}

double *mb_blocktri_diagonal(mb_blocktri *T, size_t r)
{
    double *D = &T->D[9 * r];
    if (!(T->set[r] & MB_BLOCKTRI_SET_D)) {
        T->set[r] |= MB_BLOCKTRI_SET_D;
        T->nset++;
        mb_blocktri_mass_block(T->mass[r], D);
    }
    return D;
}

/* the blocks of A no term reached, at their start values (none after mb_blocktri_begin) */
static void blocktri_unset_to_start(mb_blocktri *T)
{
    if (T->nset == blocktri_blocks(T))
        return;
    for (size_t i = 0; i < T->n; i++) {
        unsigned have = T->set[i];
        if (!(have & MB_BLOCKTRI_SET_D))
            mb_blocktri_mass_block(T->mass[i], &T->D[9 * i]);
        if (i > 0 && !(have & MB_BLOCKTRI_SET_L))
            memcpy(&T->L[9 * i], mb_blocktri_zero, sizeof mb_blocktri_zero);
        if (i + 1 < T->n && !(have & MB_BLOCKTRI_SET_U))
            memcpy(&T->U[9 * i], mb_blocktri_zero, sizeof mb_blocktri_zero);
    }
    memset(T->set, MB_BLOCKTRI_SET_D | MB_BLOCKTRI_SET_L | MB_BLOCKTRI_SET_U, T->n);
    T->nset = blocktri_blocks(T);
}

/* the rows of node i's fixed degrees of freedom: d e_k^T, d = mass (1 for infinite mass) */
static void blocktri_fix_node(mb_blocktri *T, const mb_nodes *s, size_t i)
{
    for (int a = 0; a < 3; a++)
        if (mb_linsys_fixed(s, 3 * i + (size_t)a)) {
            for (int e = 0; e < 3; e++)
                T->L[9 * i + 3 * a + e] = T->D[9 * i + 3 * a + e] = T->U[9 * i + 3 * a + e] = 0.0;
            T->D[9 * i + 4 * a] = s->inv_mass[i] == 0.0 ? 1.0 : s->mass[i];
        }
}

void mb_blocktri_finish(mb_blocktri *T, const mb_nodes *s)
{
    blocktri_unset_to_start(T);
    for (size_t i = 0; i < T->n; i++)
        if (mb_linsys_node_fixed_inline(s, i))
            blocktri_fix_node(T, s, i);
}

void mb_blocktri_finish_fixed(mb_blocktri *T, const mb_nodes *s, const size_t *fixed,
                              size_t nfixed)
{
    blocktri_unset_to_start(T);
    for (size_t f = 0; f < nfixed; f++)
        blocktri_fix_node(T, s, fixed[f]);
}

void mb_blocktri_assemble(mb_blocktri *T, const mb_nodes *s, const mb_jacobian *J, double h)
{
    const double h2 = h * h;
    mb_blocktri_begin(T, s);
    for (size_t b = 0; b < J->count; b++)
        mb_blocktri_add(T, J->row[b], J->col[b], &J->dfdv[9 * b], &J->dfdx[9 * b], h, h2);
    mb_blocktri_finish(T, s);
}

/* the larger of m and x, m never NaN: fmax (a NaN x leaves m), without its call */
static inline double max_of(double m, double x)
{
    return x > m ? x : m;
}

/* 1-norm (largest column sum) of a row-major 3x3 block */
static inline double norm1_3(const double *a)
{
    double m = 0.0;
    MB_UNROLL(3)
    for (int c = 0; c < 3; c++)
        m = max_of(m, fabs(a[c]) + fabs(a[3 + c]) + fabs(a[6 + c]));
    return m;
}

/* The cofactors of a row-major 3x3 block t, transposed: adj(t), so t^-1 = adj(t) / det t;
 * returns det t, expanded along the first row. */
static inline double adjugate3(const double *t, double *g)
{
    g[0] = t[4] * t[8] - t[5] * t[7];
    g[1] = t[2] * t[7] - t[1] * t[8];
    g[2] = t[1] * t[5] - t[2] * t[4];
    g[3] = t[5] * t[6] - t[3] * t[8];
    g[4] = t[0] * t[8] - t[2] * t[6];
    g[5] = t[2] * t[3] - t[0] * t[5];
    g[6] = t[3] * t[7] - t[4] * t[6];
    g[7] = t[1] * t[6] - t[0] * t[7];
    g[8] = t[0] * t[4] - t[1] * t[3];
    return t[0] * g[0] + t[1] * g[3] + t[2] * g[6];
}

/* out = v - B w (3x3 B, row-major) */
static inline void sub_mat_vec(const double *v, const double *B, const double *w, double *out)
{
    MB_UNROLL(3)
    for (int r = 0; r < 3; r++)
        out[r] = v[r] - (B[3 * r] * w[0] + B[3 * r + 1] * w[1] + B[3 * r + 2] * w[2]);
}

/* out = G v */
static inline void mat_vec(const double *G, const double *v, double *out)
{
    MB_UNROLL(3)
    for (int r = 0; r < 3; r++)
        out[r] = G[3 * r] * v[0] + G[3 * r + 1] * v[1] + G[3 * r + 2] * v[2];
}

/* The worst pivot blocks so far as fractions, so that no division is made per node:
 * rcond = rc_num / rc_den (smallest), growth = gr_num / gr_den (largest). */
struct blocktri_worst {
    double rc_num, rc_den, gr_num, gr_den;
};

/* A new worst fraction num / den: rare past the first nodes, so kept out of the sweep's
 * loop (a branch around the call where the update would otherwise run on every node) */
static MB_COLD void blocktri_worst_set(double *w_num, double *w_den, double num, double den)
{
    *w_num = num;
    *w_den = den;
}

/* The adjugate and determinant of S scaled by r (T = r S), and ||adj T||_1; r = 1 reads S
 * itself (S * 1 is S, bit for bit) */
static inline double adjugate_scaled(const double *S, double r, double *g, double *anorm)
{
    double t[9], det;
    if (r == 1.0) {
        det = adjugate3(S, g);
    } else {
        for (int k = 0; k < 9; k++)
            t[k] = S[k] * r;
        det = adjugate3(t, g);
    }
    *anorm = norm1_3(g);
    return det;
}

/* Invert S_i into G and check it (see the acceptance above); the worst blocks updated.
 * The adjugate is formed from S_i itself (T_i = S_i, r = 1) unless its determinant or
 * the norm of the adjugate is zero, subnormal or not finite there, then from
 * S_i / ||S_i||_1. */
static int blocktri_pivot(size_t i, const double *S, const double *Di, double *G,
                          struct blocktri_worst *w)
{
    double snorm = norm1_3(S), dnorm = norm1_3(Di);
    if (!(snorm <= MB_BLOCKTRI_GROWTH_MAX * dnorm))
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: pivot block of node %zu is singular "
                 "or has grown %g times its diagonal block", i, snorm / dnorm);
    double r = 1.0, tnorm = snorm, anorm, det = adjugate_scaled(S, r, G, &anorm);
    if (!isnormal(det) || !isnormal(anorm)) {
        r = 1.0 / snorm;
        tnorm = 1.0;
        det = adjugate_scaled(S, r, G, &anorm);
    }
    double adet = fabs(det), bound = tnorm * anorm;     /* rcond = adet / bound */
    if (!(adet > 0.0 && adet >= MB_BLOCKTRI_RCOND_MIN * bound))
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: pivot block of node %zu has "
                 "rcond %g < %g", i, adet / bound, MB_BLOCKTRI_RCOND_MIN);
    if (adet * w->rc_den < w->rc_num * bound)
        blocktri_worst_set(&w->rc_num, &w->rc_den, adet, bound);
    if (snorm * w->gr_den > w->gr_num * dnorm)
        blocktri_worst_set(&w->gr_num, &w->gr_den, snorm, dnorm);
    double f = r / det;
    MB_UNROLL(9)
    for (int k = 0; k < 9; k++)
        G[k] *= f;
    return MB_SUCCESS;
}

/* The forward step of node i: S_i, its inverse G, z_i and X_i. */
static int blocktri_forward(mb_blocktri *T, size_t i, const double *b,
                            struct blocktri_worst *w)
{
    double S[9], r[3], G[9] = { 0 };      /* G: written by blocktri_pivot (set here to
                                         * spare the compiler a false warning) */
    const double *Di = &T->D[9 * i];
    if (i == 0) {
        memcpy(S, Di, sizeof S);
        memcpy(r, b, sizeof r);
    } else {
        const double *Li = &T->L[9 * i], *Xp = &T->X[9 * (i - 1)];
        block3_sub_mul(Di, Li, Xp, S);          /* S_i = D_i - L_i X_{i-1} */
        sub_mat_vec(&b[3 * i], Li, &T->z[3 * (i - 1)], r);
    }
    int st = blocktri_pivot(i, S, Di, G, w);
    if (st != MB_SUCCESS)
        return st;
    mat_vec(G, r, &T->z[3 * i]);
    if (i + 1 < T->n)
        block3_mul(G, &T->U[9 * i], &T->X[9 * i]);     /* X_i = S_i^-1 U_i */
    return MB_SUCCESS;
}

int mb_blocktri_solve(mb_blocktri *T, const double *b, double *x)
{
    struct blocktri_worst w = { 1.0, 0.0, 0.0, 1.0 };   /* rcond +Inf, growth 0 */
    int st = MB_SUCCESS;
    for (size_t i = 0; i < T->n && st == MB_SUCCESS; i++)
        st = blocktri_forward(T, i, b, &w);
    T->rcond_min = w.rc_num / w.rc_den;
    T->growth_max = w.gr_num / w.gr_den;
    if (st != MB_SUCCESS)
        return st;
    double nonfinite = 0.0;     /* y - y: +0 for a finite y, NaN otherwise; no branch */
    for (size_t i = T->n; i-- > 0;) {
        double *xi = &x[3 * i];
        if (i + 1 == T->n)
            memcpy(xi, &T->z[3 * i], 3 * sizeof(double));
        else
            sub_mat_vec(&T->z[3 * i], &T->X[9 * i], &x[3 * (i + 1)], xi);
        nonfinite += ((xi[0] - xi[0]) + (xi[1] - xi[1])) + (xi[2] - xi[2]);
    }
    if (!(nonfinite == 0.0))
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: the solution is not finite");
    return MB_SUCCESS;
}
