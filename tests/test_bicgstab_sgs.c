/* test_bicgstab_sgs.c -- symmetric Gauss-Seidel on the sparse block storage
 * (linsolve_sgs.c) and BiCGSTAB preconditioned by it in Eisenstat's form
 * (linsolve_bicgstab_sgs.c, implicit-euler's precond=sgs).
 *
 * Expected values from the dense matrix of the block list (csr_test_fixture.h: another
 * path, which never shares a block) and algebra written here: forward and back
 * substitution on the dense lower and upper triangles, the dense product, and GSL's dense
 * LU for the solution.  The sparse sweeps sum each node's block terms in another order
 * than the dense rows, so they agree to rounding: each entry of a sweep is at most 27
 * products of a row (9 blocks of 3) and the diagonal, and the sweep divides by a diagonal
 * at least 20 times each off-diagonal entry (the mass dominates: m = 0.0031 against
 * h^2 k = 0.0097 summed over 8 springs, off-diagonal <= 1.7e-4 per block entry at
 * h = 0.013), so rounding errors do not grow along the sweep; 1e-13 of max |z| is about
 * 450 u, room for the 28-term sums.  The controls fail by 10^-3 and more: the Jacobi
 * step D^-1 r in place of the forward sweep, and D^-1 A D^-1 x in place of the
 * preconditioned operator. */
#include <criterion/criterion.h>
#include <float.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csr_test_fixture.h"
#include "mb_stepper.h"

#define SWEEP_TOL 1e-13

/* max |a - b| / max |b| */
static double rel_diff(const double *a, const double *b, size_t n)
{
    double d = 0.0, m = 0.0;
    for (size_t k = 0; k < n; k++) {
        d = fmax(d, fabs(a[k] - b[k]));
        m = fmax(m, fabs(b[k]));
    }
    return d / m;
}

/* z = (D + L)^-1 r on the dense A: forward substitution over the columns left of the
 * diagonal (upper = 0), or z = (D + U)^-1 r, back substitution (upper = 1) */
static void dense_sweep(const double *A, size_t n, const double *r, double *z, int upper)
{
    for (size_t q = 0; q < n; q++) {
        size_t i = upper ? n - 1 - q : q;
        double s = r[i];
        for (size_t j = upper ? i + 1 : 0; j < (upper ? n : i); j++)
            s -= A[i * n + j] * z[j];
        z[i] = s / A[i * n + i];
    }
}

/* a right-hand side with every entry of its own size */
static void some_vector(double *x, size_t n)
{
    for (size_t k = 0; k < n; k++)
        x[k] = sin(0.37 * (double)k + 0.2) + 0.1 * cos(3.1 * (double)k);
}

/* entries of six decades, signs mixed: 10^(k mod 7 - 3) (1 + sin(1.7 k + 0.3)) */
static double ragged_entry(size_t k)
{
    return pow(10.0, (double)(k % 7) - 3.0) * (1.0 + sin(1.7 * (double)k + 0.3))
           * (k % 3 == 1 ? -1.0 : 1.0);
}

static double *dinv_of(const double *A, size_t n)
{
    double *d = malloc(n * sizeof *d);
    cr_assert(d);
    for (size_t k = 0; k < n; k++)
        d[k] = 1.0 / A[k * n + k];
    return d;
}

/* The sweeps' node records of C (the code under test's, mb_csr_sgs_nodes), lower then
 * upper */
static mb_sgs_node *records_of(const mb_csr *C)
{
    mb_sgs_node *f = malloc(2 * C->n_nodes * sizeof *f);
    double *dinv = malloc(3 * C->n_nodes * sizeof *dinv);
    cr_assert(f && dinv);
    cr_assert_eq(mb_csr_sgs_nodes(C, dinv, f, f + C->n_nodes), MB_SUCCESS);
    free(dinv);
    return f;
}

/* The inverse of node block G's lower (upper) triangle, 3 x 3 row-major, by substitution
 * on the unit vectors; with absolute values (g_abs) the same substitution on |G| and
 * 1 / |G_aa| gives each entry's sum of absolute terms, the scale of its rounding. */
static void triangle_inverse(const double G[9], int upper, int g_abs, double T[9])
{
    double g[9];
    for (int q = 0; q < 9; q++)
        g[q] = g_abs ? fabs(G[q]) : G[q];
    for (int e = 0; e < 3; e++)
        for (int k = 0; k < 3; k++) {
            int a = upper ? 2 - k : k;              /* rows in the order of substitution */
            double v = a == e ? 1.0 : 0.0;
            for (int c = 0; c < 3; c++)
                if (upper ? c > a : c < a)
                    v += (g_abs ? 1.0 : -1.0) * g[3 * a + c] * T[3 * c + e];
            T[3 * a + e] = v / g[4 * a];
        }
}

/* The node records against the inverses of each node's diagonal triangles formed here
 * by substitution on the dense matrix's diagonal blocks: 1 / G_aa and G_aa bit for bit,
 * t10 t20 t21 (lower) and t01 t02 t12 (upper) within 16 u of their sums of absolute terms
 * (each side rounds at most 5 times per entry: a product, a sum, a product and a
 * division or its reciprocal's product, so each is within 5 u of that sum); control: the
 * inverse of the whole 3 x 3 block (GSL's LU), which the triangle's is not, is farther
 * than that on every node whose block has an upper triangle (not the pinned corners'). */
Test(sgs, node_records_invert_the_diagonal_triangles)
{
    mb_system *sys = cloth("6", "5");
    size_t n = 3 * sys->nodes->n, nn = sys->nodes->n;
    double *b = malloc(n * sizeof *b);
    mb_csr *C = shared_storage(sys, b);
    double *A = dense_of(sys);
    mb_sgs_node *lo = records_of(C), *up = lo + C->n_nodes;
    const int at[2][3][2] = { { { 1, 0 }, { 2, 0 }, { 2, 1 } },     /* t10 t20 t21 */
                              { { 0, 1 }, { 0, 2 }, { 1, 2 } } };   /* t01 t02 t12 */
    size_t far = 0, coupled = 0;
    for (size_t i = 0; i < nn; i++) {
        double G[9], T[9], E[9], W[9];
        for (int q = 0; q < 9; q++)
            G[q] = A[(3 * i + (size_t)(q / 3)) * n + 3 * i + (size_t)(q % 3)];
        for (int upper = 0; upper < 2; upper++) {
            const mb_sgs_node *r = upper ? &up[i] : &lo[i];
            triangle_inverse(G, upper, 0, T);
            triangle_inverse(G, upper, 1, E);
            for (int a = 0; a < 3; a++) {
                double d = 1.0 / G[4 * a];
                cr_expect(memcmp(&r->d[a], &d, sizeof d) == 0, "node %zu: d%d %.17g, 1/G %.17g",
                          i, a, r->d[a], d);
                cr_expect(memcmp(&r->g[a], &G[4 * a], sizeof d) == 0, "node %zu: g%d", i, a);
                int ab = 3 * at[upper][a][0] + at[upper][a][1];
                cr_expect(fabs(r->t[a] - T[ab]) <= 16.0 * DBL_EPSILON / 2 * E[ab],
                          "node %zu, %s t[%d]: %.17g, substitution %.17g", i,
                          upper ? "upper" : "lower", a, r->t[a], T[ab]);
            }
        }
        gsl_matrix_view gv = gsl_matrix_view_array(G, 3, 3);   /* control: G^-1 */
        gsl_matrix *Ginv = gsl_matrix_alloc(3, 3);
        gsl_permutation *perm = gsl_permutation_alloc(3);
        int sgn;
        cr_assert(Ginv && perm);
        gsl_linalg_LU_decomp(&gv.matrix, perm, &sgn);
        gsl_linalg_LU_invert(&gv.matrix, perm, Ginv);
        for (int q = 0; q < 9; q++)
            W[q] = gsl_matrix_get(Ginv, (size_t)(q / 3), (size_t)(q % 3));
        for (int q = 0; q < 9; q++)         /* G holds its LU factors now: read it again */
            G[q] = A[(3 * i + (size_t)(q / 3)) * n + 3 * i + (size_t)(q % 3)];
        triangle_inverse(G, 0, 1, E);
        if (G[1] != 0.0 || G[2] != 0.0 || G[5] != 0.0) {  /* not a fixed row's block */
            coupled++;
            far += fabs(lo[i].t[0] - W[3]) > 16.0 * DBL_EPSILON / 2 * E[3];
        }
        gsl_matrix_free(Ginv);
        gsl_permutation_free(perm);
    }
    cr_expect(coupled > 0 && far == coupled, "control: the whole block's inverse passes for "
              "the triangle's on %zu of %zu nodes", coupled - far, coupled);
    free(A); free(b); free(lo);
    mb_csr_free(C);
    mb_system_free(sys);
}

/* The two sweeps against forward and back substitution on the dense triangles; control:
 * the Jacobi step D^-1 r, which ignores the triangles, is far from both. */
Test(sgs, sweeps_are_the_dense_triangular_solves)
{
    mb_system *sys = cloth("7", "5");
    size_t n = 3 * sys->nodes->n;
    double *b = malloc(n * sizeof *b), *r = malloc(n * sizeof *r);
    double *z = malloc(n * sizeof *z), *e = malloc(n * sizeof *e);
    mb_csr *C = shared_storage(sys, b);
    double *A = dense_of(sys), *dinv = dinv_of(A, n);
    mb_sgs_node *lo = records_of(C), *up = lo + C->n_nodes;
    cr_assert_gt(C->n_shared, 0, "the cloth shares spring blocks");
    some_vector(r, n);
    for (int upper = 0; upper < 2; upper++) {
        dense_sweep(A, n, r, e, upper);
        if (upper)
            mb_csr_sgs_upper(C, up, r, z);
        else
            mb_csr_sgs_lower(C, lo, r, z);
        double d = rel_diff(z, e, n);
        cr_expect(d <= SWEEP_TOL, "%s sweep: %g of max |z| from substitution",
                  upper ? "backward" : "forward", d);
        memcpy(z, r, n * sizeof *z);                /* in place: z = r on entry */
        if (upper)
            mb_csr_sgs_upper(C, up, z, z);
        else
            mb_csr_sgs_lower(C, lo, z, z);
        cr_expect(rel_diff(z, e, n) <= SWEEP_TOL, "%s sweep in place", upper ? "backward"
                  : "forward");
        for (size_t k = 0; k < n; k++)              /* control: Jacobi */
            z[k] = r[k] * dinv[k];
        cr_expect(rel_diff(z, e, n) > 1e-3, "control: the Jacobi step passes for a sweep");
    }
    free(A); free(dinv); free(b); free(r); free(z); free(e); free(lo);
    mb_csr_free(C);
    mb_system_free(sys);
}

/* Node i's row of a sweep in the order linsolve_sgs.c documents, written out here on the
 * dense matrix: the nine products B_ae z_e of the column nodes before the neighbour
 * (lower: ascending, j < i - 1; upper: descending, j > i + 1) summed each from +0, then
 * s_a = r_a - ((lane a0 + lane a1) + lane a2), the neighbour's block (j = i - 1 or
 * i + 1) taken off as (B_a0 z0 + B_a1 z1) + B_a2 z2, and z = T s with T the inverse of
 * the node's triangle.  Blocks outside the pattern are zero here and add +-0 to a sum
 * started at +0, which leaves its bits; so do the zero neighbour blocks of rows without
 * one (s is never zero). */
static void ordered_row(const double *A, size_t n, size_t i, const double *r, double *z,
                        int upper)
{
    size_t nn = n / 3;
    double lane[3][3] = { { 0.0 } }, s[3];
    for (size_t q = 0; q < nn; q++) {
        size_t j = upper ? nn - 1 - q : q;
        if (upper ? j <= i + 1 : j + 1 >= i)
            continue;
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++)
                lane[a][e] += A[(3 * i + a) * n + 3 * j + e] * z[3 * j + e];
    }
    for (int a = 0; a < 3; a++)
        s[a] = r[3 * i + a] - ((lane[a][0] + lane[a][1]) + lane[a][2]);
    if (upper ? i + 1 < nn : i > 0) {
        size_t j = upper ? i + 1 : i - 1;
        for (int a = 0; a < 3; a++) {
            const double *B = &A[(3 * i + a) * n + 3 * j];
            s[a] -= (B[0] * z[3 * j] + B[1] * z[3 * j + 1]) + B[2] * z[3 * j + 2];
        }
    }
    const double *G = &A[3 * i * n + 3 * i];        /* G[a n + e]: the diagonal block */
    double d[3];
    for (int a = 0; a < 3; a++)
        d[a] = 1.0 / G[a * n + a];
    double *zi = &z[3 * i];
    if (!upper) {
        double t10 = -(G[n] * d[0]) * d[1], t21 = -(G[2 * n + 1] * d[1]) * d[2];
        double t20 = -(G[2 * n] * d[0] + G[2 * n + 1] * t10) * d[2];
        zi[0] = s[0] * d[0];
        zi[1] = s[1] * d[1] + s[0] * t10;
        zi[2] = s[2] * d[2] + (s[0] * t20 + s[1] * t21);
    } else {
        double t12 = -(G[n + 2] * d[1]) * d[2], t01 = -(G[1] * d[0]) * d[1];
        double t02 = -(G[2] * d[2] + G[1] * t12) * d[0];
        zi[2] = s[2] * d[2];
        zi[1] = s[1] * d[1] + s[2] * t12;
        zi[0] = s[0] * d[0] + (s[2] * t02 + s[1] * t01);
    }
}

/* The sweeps give the bits of the documented order (ordered_row) in both their forms:
 * four lanes (the AVX2 clone on a processor that has it, the baseline one elsewhere) and
 * eight (AVX-512F; tested where the processor has it, mb_csr_sgs_lanes), for a smooth
 * right-hand side and for one
 * whose entries span six decades (on the smooth one alone a sum in another order can
 * round alike on every row); control: the lanes summed in another order,
 * ((lane a0 + lane a2) + lane a1) on row a = 1, change bits on the ragged one. */
Test(sgs, sweeps_sum_in_the_documented_order)
{
    mb_system *sys = cloth("7", "6");
    size_t n = 3 * sys->nodes->n, nn = sys->nodes->n;
    double *b = malloc(n * sizeof *b), *r = malloc(n * sizeof *r);
    double *z = malloc(n * sizeof *z), *e = malloc(n * sizeof *e);
    mb_csr *C = shared_storage(sys, b);
    double *A = dense_of(sys), *dinv = dinv_of(A, n);
    mb_sgs_node *lo = records_of(C), *up = lo + C->n_nodes;
    int forms = 0, was = mb_csr_sgs_lanes(0);
    for (int step = 0; step < 8; step++) {
        int upper = step % 4, lanes = step < 4 ? 4 : 8;
        if (mb_csr_sgs_lanes(lanes) != lanes)
            continue;                               /* no AVX-512F here */
        forms += upper == 0;
        /* two right-hand sides: smooth, then one whose entries span six decades, where
         * the lanes' sums round differently in any other order */
        if (upper % 2 == 0)
            for (size_t k = 0; k < n; k++)
                r[k] = upper ? ragged_entry(k) : sin(0.37 * (double)k + 0.2)
                                                 + 0.1 * cos(3.1 * (double)k);
        for (size_t q = 0; q < nn; q++)
            ordered_row(A, n, upper % 2 ? nn - 1 - q : q, r, e, upper % 2);
        if (upper % 2)
            mb_csr_sgs_upper(C, up, r, z);
        else
            mb_csr_sgs_lower(C, lo, r, z);
        size_t differ = 0;
        for (size_t k = 0; k < n; k++)
            differ += memcmp(&z[k], &e[k], sizeof z[k]) != 0;
        cr_expect_eq(differ, 0, "%d lanes, %s sweep, right-hand side %d: %zu of %zu values "
                     "differ from the documented order", lanes, upper % 2 ? "backward"
                     : "forward", upper / 2, differ, n);
    }
    mb_csr_sgs_lanes(was);
    cr_expect_geq(forms, 1, "the four-lane form is always available");
    for (size_t k = 0; k < n; k++)     /* the control's forward sweep: the ragged side */
        r[k] = ragged_entry(k);
    mb_csr_sgs_lower(C, lo, r, z);
    /* control: row 1 of node 30's lanes summed (0 + 2) + 1 in the forward sweep */
    size_t i = 30, moved = 0;
    double lane[3] = { 0.0, 0.0, 0.0 }, alt;
    for (size_t j = 0; j + 1 < i; j++)
        for (int f = 0; f < 3; f++)
            lane[f] += A[(3 * i + 1) * n + 3 * j + f] * z[3 * j + f];
    alt = r[3 * i + 1] - ((lane[0] + lane[2]) + lane[1]);
    double doc = r[3 * i + 1] - ((lane[0] + lane[1]) + lane[2]);
    moved += memcmp(&alt, &doc, sizeof alt) != 0;
    for (size_t k = 0; k + 1 < nn && !moved; k++) {     /* another row when node 30 ties */
        i = k + 1;
        lane[0] = lane[1] = lane[2] = 0.0;
        for (size_t j = 0; j + 1 < i; j++)
            for (int f = 0; f < 3; f++)
                lane[f] += A[(3 * i + 1) * n + 3 * j + f] * z[3 * j + f];
        alt = r[3 * i + 1] - ((lane[0] + lane[2]) + lane[1]);
        doc = r[3 * i + 1] - ((lane[0] + lane[1]) + lane[2]);
        moved += memcmp(&alt, &doc, sizeof alt) != 0;
    }
    cr_expect_gt(moved, 0, "control: another order of the lanes gives the same bits on every row");
    free(A); free(dinv); free(b); free(r); free(z); free(e); free(lo);
    mb_csr_free(C);
    mb_system_free(sys);
}

/* The sweeps' form: eight lanes by default where the processor has AVX-512F, four
 * elsewhere (GCC's own test of the processor, __builtin_cpu_supports); a form it cannot
 * run or an unknown one is refused, the form in use kept. */
Test(sgs, sweeps_take_eight_lanes_where_the_processor_has_them)
{
    int avx512 = 0;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    avx512 = __builtin_cpu_supports("avx512f") != 0;
#endif
    cr_expect_eq(mb_csr_sgs_lanes(0), avx512 ? 8 : 4, "the default form");
    cr_expect_eq(mb_csr_sgs_lanes(4), 4);
    cr_expect_eq(mb_csr_sgs_lanes(8), avx512 ? 8 : 4);
    cr_expect_eq(mb_csr_sgs_lanes(6), avx512 ? 8 : 4, "an unknown form leaves the one in use");
}

/* The true residual in the sweeps' lanes, r = b - A x, against the dense product written
 * here, entry by entry within 32 u of its sum of absolute terms |b_a| + sum_j |A_aj x_j|
 * (each side sums at most 28 terms, so each is within 28 u of that sum), in both forms
 * (four lanes, and eight where the processor has AVX-512F) and bit for bit between them;
 * its returned norm is sqrt(r.r) with r.r summed in ascending order.  On the cloth 7 x 6
 * (42 nodes), and on free chains of 2 and 3 nodes moved off their axis (no pinned end,
 * every entry of their blocks nonzero), where the columns near both ends are read value by value (the four or
 * eight values around them would run past x).  Control: the
 * product's diagonal blocks left out, b - (L + U) x, is farther than the bound. */
Test(sgs, residual_is_b_minus_the_dense_product)
{
    const char *const chain2[] = { "n=2", "anchors=none", NULL };
    const char *const chain3[] = { "n=3", "anchors=none", NULL };
    for (int sys_k = 0; sys_k < 3; sys_k++) {
        mb_system *sys = sys_k == 0 ? cloth("7", "6")
                         : th_problem("spring-chain", sys_k == 1 ? chain2 : chain3);
        size_t n = 3 * sys->nodes->n;
        for (size_t q = 0; sys_k > 0 && q < n; q++) {  /* off the chain's axis and moving: */
            sys->nodes->x[q] += 0.13 * sin(2.1 * (double)q + 0.4);  /* full 3 x 3 blocks */
            sys->nodes->v[q] = 0.3 * cos(0.8 * (double)q);
        }
        double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
        double *r = malloc(n * sizeof *r), *r4 = malloc(n * sizeof *r4);
        double *e = malloc(n * sizeof *e), *bound = malloc(n * sizeof *bound);
        cr_assert(b && x && r && r4 && e && bound);
        mb_csr *C = shared_storage(sys, b);
        double *A = dense_of(sys);
        some_vector(x, n);
        size_t far = 0;
        for (size_t a = 0; a < n; a++) {
            double s = 0.0, abs_sum = fabs(b[a]), off = 0.0;
            for (size_t j = 0; j < n; j++) {
                s += A[a * n + j] * x[j];
                abs_sum += fabs(A[a * n + j] * x[j]);
                if (j / 3 != a / 3)
                    off += A[a * n + j] * x[j];
            }
            e[a] = b[a] - s;
            bound[a] = 32.0 * DBL_EPSILON / 2 * abs_sum;
            far += fabs((b[a] - off) - e[a]) > bound[a];
        }
        int was = mb_csr_sgs_lanes(0);
        for (int lanes = 4; lanes <= 8; lanes += 4) {
            if (mb_csr_sgs_lanes(lanes) != lanes)
                continue;                           /* no AVX-512F here */
            double norm = mb_csr_sgs_residual(C, b, x, r), rr = 0.0;
            for (size_t a = 0; a < n; a++) {
                cr_expect(fabs(r[a] - e[a]) <= bound[a], "system %d, %d lanes, row %zu: %.17g, "
                          "dense %.17g", sys_k, lanes, a, r[a], e[a]);
                rr += r[a] * r[a];
            }
            cr_expect(norm == sqrt(rr), "system %d, %d lanes: |r| %.17g, sqrt(r.r) %.17g",
                      sys_k, lanes, norm, sqrt(rr));
            if (lanes == 4)
                memcpy(r4, r, n * sizeof *r);
            else
                cr_expect(memcmp(r, r4, n * sizeof *r) == 0, "system %d: eight lanes and four "
                          "differ", sys_k);
        }
        mb_csr_sgs_lanes(was);
        cr_expect_gt(far, 0, "control: b - (L + U) x passes for the residual (system %d)", sys_k);
        free(A); free(b); free(x); free(r); free(r4); free(e); free(bound);
        mb_csr_free(C);
        mb_system_free(sys);
    }
}

/* Eisenstat's operator against its definition D (D + L)^-1 A (D + U)^-1 x formed densely,
 * with its two sums; control: D^-1 A D^-1 x (Jacobi on both sides) differs. */
Test(sgs, eisenstat_operator_is_the_split_preconditioned_matrix)
{
    mb_system *sys = cloth("6", "6");
    size_t n = 3 * sys->nodes->n;
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x), *t = malloc(n * sizeof *t);
    double *y = malloc(n * sizeof *y), *e = malloc(n * sizeof *e), *w = malloc(n * sizeof *w);
    mb_csr *C = shared_storage(sys, b);
    double *A = dense_of(sys), *dinv = dinv_of(A, n);
    mb_sgs_node *lo = records_of(C), *up = lo + C->n_nodes;
    some_vector(x, n);
    for (size_t k = 0; k < n; k++)
        w[k] = cos(1.3 * (double)k);
    dense_sweep(A, n, x, t, 1);                     /* t = (D + U)^-1 x */
    dense_product(A, n, t, y);                      /* y = A t */
    dense_sweep(A, n, y, e, 0);                     /* e = (D + L)^-1 A t */
    double ew = 0.0, ee = 0.0, yw, yy, emax = 0.0, wsum = 0.0, esum = 0.0;
    for (size_t k = 0; k < n; k++) {
        e[k] /= dinv[k];
        ew += w[k] * e[k];
        ee += e[k] * e[k];
        emax = fmax(emax, fabs(e[k]));
        wsum += fabs(w[k]);
        esum += fabs(e[k]);
    }
    mb_csr_eisenstat(C, lo, up, x, t, y, w, &yw, &yy);
    cr_expect(rel_diff(y, e, n) <= SWEEP_TOL, "operator: %g", rel_diff(y, e, n));
    /* |y - e| <= SWEEP_TOL emax entry by entry, so |y.w - e.w| <= SWEEP_TOL emax sum |w|
     * and |y.y - e.e| <= SWEEP_TOL emax (2 sum |e| + ...), doubled for the sums' own
     * rounding (n u sum |w e|, far below) */
    cr_expect(fabs(yw - ew) <= 2.0 * SWEEP_TOL * emax * wsum, "y.w %.17g, dense %.17g", yw, ew);
    cr_expect(fabs(yy - ee) <= 3.0 * SWEEP_TOL * emax * esum, "y.y %.17g, dense %.17g", yy, ee);
    for (size_t k = 0; k < n; k++)                  /* control: D^-1 A D^-1 x */
        t[k] = x[k] * dinv[k];
    dense_product(A, n, t, y);
    for (size_t k = 0; k < n; k++)
        y[k] *= dinv[k];
    cr_expect(rel_diff(y, e, n) > 1e-3, "control: Jacobi on both sides passes");
    free(A); free(dinv); free(b); free(x); free(t); free(y); free(e); free(w); free(lo);
    mb_csr_free(C);
    mb_system_free(sys);
}

/* The solve: to |b - A x| <= rtol |b| by the dense product written here, and to GSL's
 * dense LU solution within kappa_1(A) n rtol (|x - x*| / |x*| <= kappa_2 |r| / |b| and
 * kappa_2 <= n kappa_1), kappa_1 from the dense inverse; in fewer iterations than the
 * Jacobi-preconditioned BiCGSTAB on the same system (a third of them on the cloth,
 * doc/performance.md), here at most half. */
Test(sgs, bicgstab_sgs_solves_the_cloth_system)
{
    mb_system *sys = cloth("10", "8");
    size_t n = 3 * sys->nodes->n;
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    mb_csr *C = shared_storage(sys, b);
    double *A = dense_of(sys);
    gsl_matrix_view Av = gsl_matrix_view_array(A, n, n);
    gsl_matrix *LU = gsl_matrix_alloc(n, n), *Ainv = gsl_matrix_alloc(n, n);
    gsl_permutation *perm = gsl_permutation_alloc(n);
    gsl_vector *xs = gsl_vector_alloc(n);
    gsl_vector_const_view bv = gsl_vector_const_view_array(b, n);
    int sign;
    gsl_matrix_memcpy(LU, &Av.matrix);
    gsl_linalg_LU_decomp(LU, perm, &sign);
    gsl_linalg_LU_solve(LU, perm, &bv.vector, xs);
    gsl_linalg_LU_invert(LU, perm, Ainv);
    double norm_a = 0.0, norm_inv = 0.0;            /* 1-norms: largest column sums */
    for (size_t c = 0; c < n; c++) {
        double sa = 0.0, si = 0.0;
        for (size_t r = 0; r < n; r++) {
            sa += fabs(A[r * n + c]);
            si += fabs(gsl_matrix_get(Ainv, r, c));
        }
        norm_a = fmax(norm_a, sa);
        norm_inv = fmax(norm_inv, si);
    }
    const double rtol = 1e-12;
    unsigned long iters[2];
    for (int sgs = 1; sgs >= 0; sgs--) {
        mb_krylov *k = mb_krylov_alloc(n, rtol, 1000);
        memcpy(x, sys->nodes->v, n * sizeof *x);   /* the step's guess v */
        int st = sgs ? mb_bicgstab_sgs_solve(k, C, b, x) : mb_bicgstab_solve(k, C, b, x);
        cr_assert_eq(st, MB_SUCCESS, "%s", mb_last_error());
        iters[sgs] = k->iterations_last;
        mb_krylov_free(k);
    }
    mb_krylov *k = mb_krylov_alloc(n, rtol, 1000);
    memcpy(x, sys->nodes->v, n * sizeof *x);
    cr_assert_eq(mb_bicgstab_sgs_solve(k, C, b, x), MB_SUCCESS, "%s", mb_last_error());
    dense_product(A, n, x, y);
    double rn = 0.0, bn = 0.0;
    for (size_t q = 0; q < n; q++) {
        rn += (b[q] - y[q]) * (b[q] - y[q]);
        bn += b[q] * b[q];
    }
    cr_expect(sqrt(rn) <= rtol * sqrt(bn), "|b - A x| = %g |b|", sqrt(rn / bn));
    double kappa = norm_a * norm_inv;
    cr_expect(rel_diff(x, xs->data, n) <= kappa * (double)n * rtol, "x against LU: %g, kappa_1 %g",
              rel_diff(x, xs->data, n), kappa);
    cr_expect(2 * iters[1] <= iters[0], "SGS %lu iterations, Jacobi %lu", iters[1], iters[0]);
    mb_krylov_free(k);
    gsl_matrix_free(LU); gsl_matrix_free(Ainv); gsl_permutation_free(perm); gsl_vector_free(xs);
    free(A); free(b); free(x); free(y);
    mb_csr_free(C);
    mb_system_free(sys);
}

/* A sum of a[k] b[k] in four lanes as the SGS solve takes its iteration's sums (lane l
 * over k = 4 j + l, then ((l0 + l1) + (l2 + l3)) + the tail from 4 floor(n / 4) on), or
 * (lanes 0) in one chain in ascending order */
static double lane_dot(const double *a, const double *b, size_t n, int lanes)
{
    double l[4] = { 0.0, 0.0, 0.0, 0.0 }, tail = 0.0, chain = 0.0;
    size_t m = n / 4 * 4;
    for (size_t k = 0; k < n; k++) {
        chain += a[k] * b[k];
        if (k < m)
            l[k % 4] += a[k] * b[k];
        else
            tail += a[k] * b[k];
    }
    return lanes ? ((l[0] + l[1]) + (l[2] + l[3])) + tail : chain;
}

/* The SGS solve written out (van der Vorst's BiCGSTAB on M1^-1 A M2^-1 d = M1^-1 (b - A x)
 * from d = 0, the recursive test against rtol |M1^-1 b|, x += M2^-1 d, the true residual's
 * confirmation) from the library's pieces, each tested above against a dense reference
 * (the records, the sweeps, Eisenstat's operator and its sums, the lanes' residual), with
 * the iteration's sums s.s, r.r and rhat.r taken by lane_dot; returns the iterations, -1
 * when it does not converge in 200. */
static long written_out_solve(const mb_csr *C, const double *b, double *x, size_t n,
                              double rtol, int lanes)
{
    size_t nn = C->n_nodes;
    mb_sgs_node *lo = malloc(2 * nn * sizeof *lo), *up = lo + nn;
    double *dinv = malloc(n * sizeof *dinv), *w[8];
    for (int q = 0; q < 8; q++)
        w[q] = calloc(n, sizeof(double));
    double *r = w[0], *rh = w[1], *p = w[2], *v = w[3], *sv = w[4], *t = w[5], *d = w[6],
           *sc = w[7];
    cr_assert(lo && dinv && w[7]);
    cr_assert_eq(mb_csr_sgs_nodes(C, dinv, lo, up), MB_SUCCESS);
    double bnorm = sqrt(mb_krylov_dot(b, b, n));
    mb_csr_sgs_lower(C, lo, b, sv);                 /* |M1^-1 b| = |D (D + L)^-1 b| */
    for (size_t k = 0; k < n; k++)
        sv[k] /= dinv[k];
    double bhat = sqrt(mb_krylov_dot(sv, sv, n));
    long it = 0;
    for (;;) {
        if (mb_csr_sgs_residual(C, b, x, t) <= rtol * bnorm)
            break;
        if (it >= 200) {
            it = -1;
            break;
        }
        mb_csr_sgs_lower(C, lo, t, r);              /* rhat = M1^-1 (b - A x) */
        for (size_t k = 0; k < n; k++)
            r[k] /= dinv[k];
        memcpy(rh, r, n * sizeof *r);
        memset(p, 0, n * sizeof *p);
        memset(v, 0, n * sizeof *v);
        memset(d, 0, n * sizeof *d);
        double rho = mb_krylov_dot(rh, r, n), rho_old = 1.0, alpha = 1.0, omega = 1.0;
        while (it < 200) {
            double beta = (rho / rho_old) * (alpha / omega), rv, ts, tt;
            for (size_t k = 0; k < n; k++)
                p[k] = r[k] + beta * (p[k] - omega * v[k]);
            mb_csr_eisenstat(C, lo, up, p, sc, v, rh, &rv, NULL);
            alpha = rho / rv;
            for (size_t k = 0; k < n; k++)
                sv[k] = r[k] - alpha * v[k];
            it++;
            if (sqrt(lane_dot(sv, sv, n, lanes)) <= rtol * bhat) {
                for (size_t k = 0; k < n; k++)
                    d[k] += alpha * p[k];
                break;
            }
            mb_csr_eisenstat(C, lo, up, sv, sc, t, sv, &ts, &tt);
            omega = ts / tt;
            for (size_t k = 0; k < n; k++) {
                d[k] += alpha * p[k] + omega * sv[k];
                r[k] = sv[k] - omega * t[k];
            }
            double rr = lane_dot(r, r, n, lanes), rho_next = lane_dot(rh, r, n, lanes);
            if (sqrt(rr) <= rtol * bhat)
                break;
            rho_old = rho;
            rho = rho_next;
        }
        mb_csr_sgs_upper(C, up, d, sc);             /* x += M2^-1 d */
        for (size_t k = 0; k < n; k++)
            x[k] += sc[k];
    }
    for (int q = 0; q < 8; q++)
        free(w[q]);
    free(lo); free(dinv);
    return it;
}

/* The solve takes the iterations and gives the bits of x of the iteration written out
 * here with its sums in four lanes, on the cloth 10 x 8 from the step's guess v and from
 * 0; control: the same iteration with the sums in one chain (the previous version's
 * order) gives other bits of x. */
Test(sgs, bicgstab_sgs_iterates_as_written_out)
{
    mb_system *sys = cloth("10", "8");
    size_t n = 3 * sys->nodes->n;
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x), *xw = malloc(n * sizeof *xw);
    mb_csr *C = shared_storage(sys, b);
    size_t moved = 0;
    for (int guess = 0; guess < 2; guess++) {
        for (int lanes = 1; lanes >= 0; lanes--) {
            for (size_t k = 0; k < n; k++)
                xw[k] = guess ? sys->nodes->v[k] : 0.0;
            long it = written_out_solve(C, b, xw, n, 1e-12, lanes);
            cr_assert_gt(it, 3, "the written-out iteration took %ld iterations", it);
            if (!lanes) {                           /* control: the sums in one chain */
                for (size_t k = 0; k < n; k++)
                    moved += memcmp(&x[k], &xw[k], sizeof x[k]) != 0;
                continue;
            }
            mb_krylov *kr = mb_krylov_alloc(n, 1e-12, 1000);
            for (size_t k = 0; k < n; k++)
                x[k] = guess ? sys->nodes->v[k] : 0.0;
            cr_assert_eq(mb_bicgstab_sgs_solve(kr, C, b, x), MB_SUCCESS, "%s", mb_last_error());
            cr_expect_eq((long)kr->iterations_last, it, "guess %d: %lu iterations, written out "
                         "%ld", guess, kr->iterations_last, it);
            size_t differ = 0;
            for (size_t k = 0; k < n; k++)
                differ += memcmp(&x[k], &xw[k], sizeof x[k]) != 0;
            cr_expect_eq(differ, 0, "guess %d: %zu of %zu values of x differ from the written-"
                         "out iteration's", guess, differ, n);
            mb_krylov_free(kr);
        }
    }
    cr_expect_gt(moved, 0, "control: the sums in one chain give the same bits of x");
    free(b); free(x); free(xw);
    mb_csr_free(C);
    mb_system_free(sys);
}

/* A zero right-hand side gives x = 0 in no iteration; a zero diagonal is refused. */
Test(sgs, zero_rhs_and_zero_diagonal)
{
    mb_system *sys = cloth("4", "3");
    size_t n = 3 * sys->nodes->n;
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
    mb_csr *C = shared_storage(sys, b);
    mb_krylov *k = mb_krylov_alloc(n, 1e-12, 100);
    memset(b, 0, n * sizeof *b);
    some_vector(x, n);
    cr_expect_eq(mb_bicgstab_sgs_solve(k, C, b, x), MB_SUCCESS);
    for (size_t q = 0; q < n; q++)
        cr_expect(x[q] == 0.0, "x[%zu] = %g", q, x[q]);
    C->pool[9 * (size_t)C->dblk[1] + 4] = 0.0;      /* node 1's y diagonal */
    some_vector(b, n);
    cr_expect_eq(mb_bicgstab_sgs_solve(k, C, b, x), MB_ESINGULAR);
    mb_krylov_free(k);
    free(b); free(x);
    mb_csr_free(C);
    mb_system_free(sys);
}

/* Through the scheme: implicit-euler[precond=sgs] steps the cloth as precond=jacobi
 * does, to the two solves' tolerance (each |b - A x| <= 1e-12 |b|, cond(A) ~ 10 for the
 * 20 x 20 cloth at the default h: 1e-9 of max |x| over 5 steps leaves a margin of 10^2);
 * the default (precond=auto) is sgs for BiCGSTAB, bit for bit; precond=sgs with
 * krylov=cg is refused. */
Test(sgs, implicit_euler_with_sgs_steps_as_jacobi)
{
    mb_system *a = th_problem("cloth", (const char *const[]){ "nx=20", "ny=20", NULL });
    mb_system *c = th_problem("cloth", (const char *const[]){ "nx=20", "ny=20", NULL });
    mb_system *d = th_problem("cloth", (const char *const[]){ "nx=20", "ny=20", NULL });
    mb_stepper *sa = mb_stepper_alloc("implicit-euler[precond=jacobi]", a);
    mb_stepper *sc = mb_stepper_alloc("implicit-euler[precond=sgs]", c);
    mb_stepper *sd = mb_stepper_alloc("implicit-euler", d);
    cr_assert(sa && sc && sd, "%s", mb_last_error());
    for (int q = 0; q < 5; q++) {
        cr_assert_eq(mb_stepper_step(sa, a, 1.0 / 120.0), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step(sc, c, 1.0 / 120.0), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_step(sd, d, 1.0 / 120.0), MB_SUCCESS, "%s", mb_last_error());
    }
    size_t n3 = 3 * d->nodes->n;
    cr_expect(memcmp(d->nodes->v, c->nodes->v, n3 * sizeof(double)) == 0
              && memcmp(d->nodes->x, c->nodes->x, n3 * sizeof(double)) == 0,
              "the default is not precond=sgs");
    mb_stepper_free(sd);
    mb_system_free(d);
    size_t n = 3 * a->nodes->n;
    cr_expect(rel_diff(c->nodes->x, a->nodes->x, n) <= 1e-9, "x: %g",
              rel_diff(c->nodes->x, a->nodes->x, n));
    cr_expect(rel_diff(c->nodes->v, a->nodes->v, n) <= 1e-9, "v: %g",
              rel_diff(c->nodes->v, a->nodes->v, n));
    mb_stepper_stats ja, jc;
    mb_stepper_get_stats(sa, &ja);
    mb_stepper_get_stats(sc, &jc);
    cr_expect(2 * jc.linear_iterations <= ja.linear_iterations, "SGS %lu, Jacobi %lu",
              jc.linear_iterations, ja.linear_iterations);
    cr_expect_null(mb_stepper_alloc("implicit-euler[precond=sgs,krylov=cg]", a));
    cr_expect(strstr(mb_last_error(), "precond=sgs") != NULL, "%s", mb_last_error());
    mb_stepper_free(sa);
    mb_stepper_free(sc);
    mb_system_free(a);
    mb_system_free(c);
}
