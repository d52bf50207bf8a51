/* linsolve_blocktri.c -- direct O(n) solve of a block-tridiagonal A = M - h C - h^2 K
 * (a chain: every node couples only to its neighbours in the numbering), 3x3 blocks.
 *
 * Block LU without pivoting between blocks (the block Thomas algorithm; Golub & Van Loan,
 * Matrix Computations, 4th ed., sec. 4.5.1).  With D_i = A(i,i), L_i = A(i,i-1),
 * U_i = A(i,i+1):
 *     S_0 = D_0,   S_i = D_i - L_i X_{i-1},   X_i = S_i^-1 U_i,
 *     z_0 = S_0^-1 b_0,   z_i = S_i^-1 (b_i - L_i z_{i-1}),
 *     x_{n-1} = z_{n-1},   x_i = z_i - X_i x_{i+1}.
 * mb_blocktri_solve_axpy also forms y+_i = y_i + x_i h as each x_i comes in the backward
 * pass (the drift x+ = x + h v+ of implicit Euler, without a pass of its own).
 * S_i^-1 is formed by cofactors (Cramer's rule) from T_i = S_i / ||S_i||_1, whose entries
 * are at most 1, so no product overflows whatever the scale of the masses:
 *     S_i^-1 = adj(T_i) / (det(T_i) ||S_i||_1),
 * two divisions per node and no pivoting (a small diagonal is no pivot here).  It is
 * applied as the products first, then their scaling: X_i = (adj(T_i) U_i) (r / det T_i),
 * z_i = (adj(T_i) r_i) (r / det T_i) (r = 1 / ||S_i||_1, or 1 where T_i = S_i is safe),
 * so that the products run while the division does.  Those products can overflow where
 * S_i^-1 U_i and S_i^-1 r_i do not (a right-hand side near DBL_MAX); a sweep so refused
 * is run again with the inverse scaled first, G = adj(T_i) (r / det T_i), X_i = G U_i,
 * z_i = G r_i, and only its refusal stands.  Its error is
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
#include "block3_rows.h"
#include "mb_compiler.h"
#include "mb_linsolve.h"
#include "mb_status.h"

#include <float.h>
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

/* A fraction num / den */
struct blocktri_frac {
    double num, den;
};

/* The worst pivot blocks so far as fractions, so that no division is made per node:
 * rcond = rc.num / rc.den (smallest), growth = gr.num / gr.den (largest). */
struct blocktri_worst {
    struct blocktri_frac rc, gr;
};

/* A new worst fraction num / den: rare past the first nodes, so kept out of the sweep's
 * loop (a branch around the call where the update would otherwise run on every node);
 * returned by value, so that no pointer to the caller's fractions leaves the loop */
static MB_COLD struct blocktri_frac blocktri_worst_new(double num, double den)
{
    return (struct blocktri_frac){ num, den };
}

/* isnormal(a) && isnormal(m) for a = |det| and m a 1-norm (>= +0, never NaN: a largest
 * from +0 that passes over NaN sums): the smaller and the larger of the two within
 * [DBL_MIN, DBL_MAX]; a NaN a is both (m < a and m > a are false), and fails. */
static MB_ALWAYS_INLINE int both_normal(double a, double m)
{
    double lo = m < a ? m : a, hi = m > a ? m : a;
    return lo >= DBL_MIN && hi <= DBL_MAX;
}

/* An adjugate, its determinant and 1-norm */
struct blocktri_adj {
    block3_rows g;
    double det, norm;
};

/* The adjugate of S scaled by r (T = r S): the rarely taken second try of
 * blocktri_pivot, out of the sweep's loop; by value, so that S and G keep no address */
static MB_COLD struct blocktri_adj adjugate_rescaled(block3_rows S, double r)
{
    struct blocktri_adj a;
    block3_rows_scale(&S, r);
    a.det = block3_rows_adjugate(&S, &a.g);
    a.norm = block3_rows_norm1(&a.g);
    return a;
}

/* The adjugate G of T_i and the factor *scale = r / det T_i of S_i^-1 = G (r / det T_i),
 * checked (see the acceptance above); the worst blocks updated.  The adjugate is formed
 * from S_i itself (T_i = S_i, r = 1) unless its determinant or the norm of the adjugate
 * is zero, subnormal or not finite there, then from S_i / ||S_i||_1.  S_i and its
 * adjugate stay in registers (block3_rows.h). */
static MB_ALWAYS_INLINE int blocktri_pivot(size_t i, const block3_rows *S, const double *Di,
                                           block3_rows *G, double *scale,
                                           struct blocktri_worst *w)
{
    const block3_rows D = block3_rows_load(Di);
    double snorm, dnorm, det = block3_rows_adjugate(S, G), anorm = block3_rows_norm1(G);
    block3_rows_norm1_pair(S, &D, &snorm, &dnorm);
    if (!(snorm <= MB_BLOCKTRI_GROWTH_MAX * dnorm))
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: pivot block of node %zu is singular "
                 "or has grown %g times its diagonal block", i, snorm / dnorm);
    double r = 1.0, tnorm = snorm, adet = fabs(det);
    if (!both_normal(adet, anorm)) {
        r = 1.0 / snorm;
        tnorm = 1.0;
        struct blocktri_adj a = adjugate_rescaled(*S, r);
        *G = a.g;
        det = a.det;
        adet = fabs(det);
        anorm = a.norm;
    }
    double bound = tnorm * anorm;       /* rcond = adet / bound */
    if (!(adet > 0.0 && adet >= MB_BLOCKTRI_RCOND_MIN * bound))
        MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: pivot block of node %zu has "
                 "rcond %g < %g", i, adet / bound, MB_BLOCKTRI_RCOND_MIN);
    if (adet * w->rc.den < w->rc.num * bound)
        w->rc = blocktri_worst_new(adet, bound);
    if (snorm * w->gr.den > w->gr.num * dnorm)
        w->gr = blocktri_worst_new(snorm, dnorm);
    *scale = r / det;
    return MB_SUCCESS;
}

/* The order in which a pivot block's inverse G (r / det T_i) is applied (a constant of
 * the sweep): the products by the adjugate first, then their scaling, or the adjugate
 * scaled first (the header) */
enum blocktri_order { BLOCKTRI_PRODUCTS_FIRST, BLOCKTRI_SCALED_FIRST };

/* The forward step of node i: S_i, its adjugate G and scale, z_i and X_i in the given
 * order; first: i is 0 (inlined apart from the other nodes', so that neither carries the
 * other's S_i through a join).  *X and *z hold X_{i-1} and z_{i-1} on entry (read unless
 * first) and X_i (unless i is last) and z_i on return: the next node's S_{i+1} and
 * r_{i+1} take them from registers, not from the stored copies. */
static MB_ALWAYS_INLINE int blocktri_forward(mb_blocktri *T, size_t i, const double *b,
                                             struct blocktri_worst *w, int first,
                                             enum blocktri_order order, block3_rows *X,
                                             block3_vec *z)
{
    block3_rows S, G;
    block3_vec r;
    double scale = 0.0;                 /* set by blocktri_pivot when it succeeds */
    const double *Di = &T->D[9 * i];
    if (first) {
        S = block3_rows_load(Di);
        r = block3_vec_load(b);
    } else {
        const double *Li = &T->L[9 * i];
        S = block3_rows_sub_mul(Di, Li, X);     /* S_i = D_i - L_i X_{i-1} */
        r = block3_vec_sub_mat_vec(&b[3 * i], Li, z);   /* r_i = b_i - L_i z_{i-1} */
    }
    block3_vec_store(&r, &T->z[3 * i]);        /* r_i where z_i goes, read back after the
                                                 * tests: not carried past them */
    int st = blocktri_pivot(i, &S, Di, &G, &scale, w);
    if (st != MB_SUCCESS)
        return st;
    if (order == BLOCKTRI_SCALED_FIRST) {       /* G = adj(T_i) (r / det), then x 1: exact */
        block3_rows_scale(&G, scale);
        scale = 1.0;
    }
    if (i + 1 < T->n)                                   /* X_i = S_i^-1 U_i */
        *X = block3_rows_mul_scaled(&G, &T->U[9 * i], scale, &T->X[9 * i]);
    r = block3_vec_load(&T->z[3 * i]);
    const block3_vec gr = block3_rows_mat_vec(&G, &r);
    *z = block3_vec_scale(&gr, scale);                  /* z_i = S_i^-1 r_i */
    block3_vec_store(z, &T->z[3 * i]);
    return MB_SUCCESS;
}

/* The forward sweep: the pivot blocks checked, X_i and z_i stored, rcond_min and
 * growth_max set (also when a pivot block is refused); *zlast = z_{n-1} */
static MB_ALWAYS_INLINE int blocktri_factor(mb_blocktri *T, const double *b,
                                            enum blocktri_order order, block3_vec *zlast)
{
    struct blocktri_worst w = { { 1.0, 0.0 }, { 0.0, 1.0 } };   /* rcond +Inf, growth 0 */
    int st = MB_SUCCESS;
    block3_rows X = block3_rows_load(mb_blocktri_zero);  /* X_{i-1} and z_{i-1}: set by */
    block3_vec z = block3_vec_load(mb_blocktri_zero);    /* node 0 before node 1 reads them */
    if (T->n > 0)
        st = blocktri_forward(T, 0, b, &w, 1, order, &X, &z);
    for (size_t i = 1; i < T->n && st == MB_SUCCESS; i++)
        st = blocktri_forward(T, i, b, &w, 0, order, &X, &z);
    T->rcond_min = w.rc.num / w.rc.den;
    T->growth_max = w.gr.num / w.gr.den;
    *zlast = z;
    return st;
}

/* The solution refused for an entry not finite */
static MB_COLD int blocktri_not_finite(void)
{
    MB_ERROR(MB_ESINGULAR, "block-tridiagonal solve: the solution is not finite");
}

/* The sweep in the given order: forward, then x_i = z_i - X_i x_{i+1} backward */
static MB_ALWAYS_INLINE int blocktri_solve_in(mb_blocktri *T, const double *b, double *x,
                                              enum blocktri_order order)
{
    block3_vec zlast;
    int st = blocktri_factor(T, b, order, &zlast);
    if (st != MB_SUCCESS || T->n == 0)
        return st;
    block3_vec xi = zlast;              /* x_i, carried to x_{i-1} */
    const double *Xs = T->X, *zs = T->z;
    block3_nonfinite bad = block3_nonfinite_none();
    block3_vec_store(&xi, &x[3 * (T->n - 1)]);          /* x_{n-1} = z_{n-1} */
    block3_nonfinite_add(&bad, &xi);
    for (size_t i = T->n - 1; i-- > 0;) {
        xi = block3_vec_sub_mat_vec(&zs[3 * i], &Xs[9 * i], &xi);  /* x_i = z_i - X_i x_{i+1} */
        block3_vec_store(&xi, &x[3 * i]);
        block3_nonfinite_add(&bad, &xi);
    }
    if (!(block3_nonfinite_sum(&bad) == 0.0))
        return blocktri_not_finite();
    return MB_SUCCESS;
}

/* The sweep again with the inverse scaled first, after the products-first one was refused */
static MB_COLD int blocktri_solve_scaled_first(mb_blocktri *T, const double *b, double *x)
{
    return blocktri_solve_in(T, b, x, BLOCKTRI_SCALED_FIRST);
}

int mb_blocktri_solve(mb_blocktri *T, const double *b, double *x)
{
    int st = blocktri_solve_in(T, b, x, BLOCKTRI_PRODUCTS_FIRST);
    return st == MB_SUCCESS ? st : blocktri_solve_scaled_first(T, b, x);
}

/* 1 when x[0 .. count) are all finite */
static int blocktri_all_finite(const double *x, size_t count)
{
    double bad = 0.0;
    for (size_t k = 0; k < count; k++)
        bad += x[k] - x[k];
    return bad == 0.0;
}

/* The sweep with the drift beside it, in the given order */
static MB_ALWAYS_INLINE int blocktri_solve_axpy_in(mb_blocktri *T, const double *b, double *x,
                                                   const double *y, double h, double *y_new,
                                                   double *nonfinite, enum blocktri_order order)
{
    block3_vec zlast;
    int st = blocktri_factor(T, b, order, &zlast);
    if (st != MB_SUCCESS || T->n == 0) {
        *nonfinite = 0.0;
        return st;
    }
    block3_vec xi = zlast;
    const double *Xs = T->X, *zs = T->z;
    block3_nonfinite bad = block3_nonfinite_none();
    size_t i = T->n - 1;
    for (;;) {
        block3_vec yi = block3_vec_add_scaled(&y[3 * i], &xi, h);     /* y_i + x_i h */
        block3_vec_store(&xi, &x[3 * i]);
        block3_vec_store(&yi, &y_new[3 * i]);
        block3_nonfinite_add(&bad, &yi);
        if (i-- == 0)
            break;
        xi = block3_vec_sub_mat_vec(&zs[3 * i], &Xs[9 * i], &xi);  /* x_i = z_i - X_i x_{i+1} */
    }
    *nonfinite = block3_nonfinite_sum(&bad);
    /* x_a not finite makes x_a h, so y_a + x_a h, not finite: x is finite when y+ is */
    if (!(*nonfinite == 0.0) && !blocktri_all_finite(x, 3 * T->n))
        return blocktri_not_finite();
    return MB_SUCCESS;
}

/* The sweep with the drift again with the inverse scaled first, after the products-first
 * one was refused */
static MB_COLD int blocktri_solve_axpy_scaled_first(mb_blocktri *T, const double *b,
                                                    double *x, const double *y, double h,
                                                    double *y_new, double *nonfinite)
{
    return blocktri_solve_axpy_in(T, b, x, y, h, y_new, nonfinite, BLOCKTRI_SCALED_FIRST);
}

int mb_blocktri_solve_axpy(mb_blocktri *T, const double *b, double *x, const double *y,
                           double h, double *y_new, double *nonfinite)
{
    int st = blocktri_solve_axpy_in(T, b, x, y, h, y_new, nonfinite, BLOCKTRI_PRODUCTS_FIRST);
    return st == MB_SUCCESS ? st
                            : blocktri_solve_axpy_scaled_first(T, b, x, y, h, y_new, nonfinite);
}
