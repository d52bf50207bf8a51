/* bench_blocktri.c -- block Thomas sweep for block-tridiagonal systems (bench_blocktri.h).
 * With A(i,i) = D_i, A(i,i-1) = L_i, A(i,i+1) = U_i (3x3; Golub & Van Loan, Matrix
 * Computations, 4th ed., sec. 4.5.1):
 *   S_0 = D_0,  S_i = D_i - L_i X_{i-1},  X_i = S_i^-1 U_i,
 *   z_0 = S_0^-1 b_0,  z_i = S_i^-1 (b_i - L_i z_{i-1}),
 *   v_{n-1} = z_{n-1},  v_i = z_i - X_i v_{i+1}
 * (block LU without pivoting; stable for the block diagonally dominant matrices
 * M - h C - h^2 K of chains at the benchmark's step sizes).  The right-hand side rides
 * as a fourth column: the rows of [D_i | b_i] (the rebuild's storage) and of
 * [X_i | z_i] are four numbers, two pairs (bench_pair.h), and the forward sweep is two
 * products of pairs only,
 *   [S_i | r_i] = [D_i | b_i] - L_i [X_{i-1} | z_{i-1}],
 *   [X_i | z_i] = S_i^-1 [U_i | r_i] = (cof(S_i)^T [U_i | r_i]) (1/det S_i),
 * [X_{i-1} | z_{i-1}] carried in registers from one node to the next (stored for the
 * backward pass, not read back).  S_i^-1 by cofactors, one division a node: the rows of
 * cof(S) are the cross products of S's rows, r1 x r2, r2 x r0, r0 x r1, det S = r0 .
 * (r1 x r2), and 1/det is applied after the products, so that they run while the
 * division does and the chain of dependent nodes waits for one multiplication after it.
 * The backward pass takes row a of [X_i | z_i] times (-v_{i+1}, 1) and forms the step's
 * x+ = x + h v+ node by node, as v+ comes.  A singular pivot (det S_i = 0, or NaN) is
 * found once, at the end: 1/det is then infinite or NaN, so is every entry of
 * [X_i | z_i] (0 inf is NaN), and so every component of v_i, v_{i-1}, ..., v_0 (each
 * row of X_{j-1} v_j multiplies every component of v_j): v_0 not finite.  Every product sums ((t_0 + t_1) + t_2) in
 * the lanes (the build contracts no multiply and add).  The small helpers are inlined
 * and their 3-trip loops unrolled (mb_compiler.h), so that the rows stay in registers. */
#include "bench_blocktri.h"
#include "bench_pair.h"
#include "mb_compiler.h"

#include <math.h>
#include <stdlib.h>

void bench_thomas_free(bench_thomas *T)
{
    if (T == NULL)
        return;
    free(T->Xz);
    free(T);
}

bench_thomas *bench_thomas_alloc(size_t n)
{
    bench_thomas *T = calloc(1, sizeof *T);
    if (T == NULL)
        return NULL;
    T->n = n;
    T->Xz = aligned_alloc(16, 12 * (n ? n : 1) * sizeof(double));
    if (T->Xz == NULL) {
        bench_thomas_free(T);
        return NULL;
    }
    return T;
}

/* Three rows of four numbers in registers: row a's columns 0, 1 in c01[a], 2, 3 in c23[a] */
typedef struct sweep_rows {
    bench_pair c01[3], c23[3];
} sweep_rows;

/* [S_i | r_i] = [D_i | b_i] - L_i P, entry by entry Db_ac - ((L_a0 P_0c + L_a1 P_1c) +
 * L_a2 P_2c), with P = [X_{i-1} | z_{i-1}] */
static MB_ALWAYS_INLINE sweep_rows sweep_sub_mul(const double *Db, const double *L,
                                                 const sweep_rows *P)
{
    sweep_rows s;
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        const bench_pair la = bench_pair_load(&L[3 * a]);
        const bench_pair l0 = bench_pair_lo2(la), l1 = bench_pair_hi2(la),
                         l2 = bench_pair_all(L[3 * a + 2]);
        s.c01[a] = bench_pair_load_aligned(&Db[4 * a])
                   - ((l0 * P->c01[0] + l1 * P->c01[1]) + l2 * P->c01[2]);
        s.c23[a] = bench_pair_load_aligned(&Db[4 * a + 2])
                   - ((l0 * P->c23[0] + l1 * P->c23[1]) + l2 * P->c23[2]);
    }
    return s;
}

/* c = a x b of rows a = (a01, a23[0]) and b = (b01, b23[0]): (c0, c1) returned, c2 in *c2;
 * c0 = a1 b2 - a2 b1, c1 = a2 b0 - a0 b2, c2 = a0 b1 - a1 b0 */
static MB_ALWAYS_INLINE bench_pair cross_rows(bench_pair a01, bench_pair a23, bench_pair b01,
                                              bench_pair b23, double *c2)
{
    const bench_pair a12 = __builtin_shufflevector(a01, a23, 1, 2),
                     a20 = __builtin_shufflevector(a23, a01, 0, 2),
                     b20 = __builtin_shufflevector(b23, b01, 0, 2),
                     b12 = __builtin_shufflevector(b01, b23, 1, 2);
    const bench_pair t = a01 * __builtin_shufflevector(b01, b01, 1, 0);  /* a0 b1, a1 b0 */
    *c2 = t[0] - t[1];
    return a12 * b20 - a20 * b12;
}

/* The rows of cof(S) (f[k]: columns 0 and 1 of row k, f2[k] column 2); returns det S */
static MB_ALWAYS_INLINE double sweep_cofactors(const sweep_rows *S, bench_pair f[3],
                                               double f2[3])
{
    f[0] = cross_rows(S->c01[1], S->c23[1], S->c01[2], S->c23[2], &f2[0]);
    f[1] = cross_rows(S->c01[2], S->c23[2], S->c01[0], S->c23[0], &f2[1]);
    f[2] = cross_rows(S->c01[0], S->c23[0], S->c01[1], S->c23[1], &f2[2]);
    const bench_pair t = S->c01[0] * f[0];
    return (t[0] + t[1]) + S->c23[0][0] * f2[0];
}

/* [X_i | z_i] = (cof(S)^T [U_i | r_i]) rd, row a the sum over k of cof(S)_ka times row k
 * of [U_i | r_i] (r_k: column 3 of S's row k), then times rd = 1/det S */
static MB_ALWAYS_INLINE sweep_rows sweep_solve_rows(const bench_pair f[3], const double f2[3],
                                                    const sweep_rows *S, const double *U,
                                                    double rd)
{
    bench_pair u01[3], u23[3];
    MB_UNROLL(3)
    for (int k = 0; k < 3; k++) {
        u01[k] = bench_pair_load(&U[3 * k]);
        u23[k] = (bench_pair){ U[3 * k + 2], S->c23[k][1] };
    }
    const bench_pair r = bench_pair_all(rd);
    sweep_rows x;
    MB_UNROLL(3)
    for (int a = 0; a < 3; a++) {
        bench_pair e[3];
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++)
            e[k] = a == 0 ? bench_pair_lo2(f[k]) : a == 1 ? bench_pair_hi2(f[k])
                                                          : bench_pair_all(f2[k]);
        x.c01[a] = ((e[0] * u01[0] + e[1] * u01[1]) + e[2] * u01[2]) * r;
        x.c23[a] = ((e[0] * u23[0] + e[1] * u23[1]) + e[2] * u23[2]) * r;
    }
    return x;
}

/* The backward pass: v_i = z_i - X_i v_{i+1}, row a of [X_i | z_i] times (-v_{i+1}, 1)
 * summed ((X_a0 (-v0) + X_a2 (-v2)) + (X_a1 (-v1) + z_a)), and xn_i = x_i + h v_i */
static void sweep_back(const bench_thomas *T, const double *x, double h, double *v, double *xn)
{
    bench_pair m01 = { 0.0, 0.0 }, m23 = { 0.0, 1.0 };       /* (-v_{i+1}, 1) */
    for (size_t i = T->n; i-- > 0;) {
        const double *Xz = &T->Xz[12 * i];
        bench_pair q[3];
        MB_UNROLL(3)
        for (int a = 0; a < 3; a++)
            q[a] = bench_pair_load_aligned(&Xz[4 * a]) * m01
                   + bench_pair_load_aligned(&Xz[4 * a + 2]) * m23;
        const bench_pair v01 = __builtin_shufflevector(q[0], q[1], 0, 2)
                               + __builtin_shufflevector(q[0], q[1], 1, 3);
        const double v2 = q[2][0] + q[2][1];
        bench_pair_store(&v[3 * i], v01);
        v[3 * i + 2] = v2;
        bench_pair_store(&xn[3 * i], bench_pair_load(&x[3 * i]) + h * v01);
        xn[3 * i + 2] = x[3 * i + 2] + h * v2;
        m01 = -v01;
        m23 = (bench_pair){ -v2, 1.0 };
    }
}

int bench_thomas_solve(bench_thomas *T, const double *Db, const double *L, const double *U,
                       const double *x, double h, double *v, double *xn)
{
    sweep_rows P = { { { 0.0, 0.0 }, { 0.0, 0.0 }, { 0.0, 0.0 } },
                     { { 0.0, 0.0 }, { 0.0, 0.0 }, { 0.0, 0.0 } } };   /* no node before 0 */
    for (size_t i = 0; i < T->n; i++) {
        const sweep_rows S = sweep_sub_mul(&Db[12 * i], &L[9 * i], &P);
        bench_pair f[3];
        double f2[3];
        const double det = sweep_cofactors(&S, f, f2);
        P = sweep_solve_rows(f, f2, &S, &U[9 * i], 1.0 / det);
        double *Xz = &T->Xz[12 * i];
        MB_UNROLL(3)
        for (int a = 0; a < 3; a++) {
            bench_pair_store_aligned(&Xz[4 * a], P.c01[a]);
            bench_pair_store_aligned(&Xz[4 * a + 2], P.c23[a]);
        }
    }
    sweep_back(T, x, h, v, xn);
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) ? 0 : -1;
}
