/* test_locdyn.c -- the local dynamics block store U = B + W R (seed 003).
 * Oracle: the dense product W = h H A^-1 H^T formed with GSL's dgemm from the global
 * H (block rows [.. H_ia .. -H_ja ..]) of seed eq. Hglob; the operator H itself is
 * checked against the point velocity v + w x (Lambda A) written with global vectors.
 * Tolerances: the sparse and dense products sum the same ~6 terms per entry in other
 * orders, so they agree to a few ulp of the entries' scale (1e-13 relative). */
#include <criterion/criterion.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_consolver.h"
#include "mb_locdyn.h"
#include "mb_status.h"
#include "mb_vec.h"

#define NB 4

static double Lambda[9 * NB], X[3 * NB], Jinv[3 * NB], Minv[NB], Q[4 * NB];
static mb_body_view view;

static void bodies(void)
{
    srand(2385);
    for (size_t k = 0; k < NB; k++) {
        double th[3];
        for (int d = 0; d < 3; d++) {
            th[d] = 2.0 * rand() / RAND_MAX - 1.0;
            X[3 * k + d] = 3.0 * rand() / RAND_MAX - 1.5;
            Jinv[3 * k + d] = 1.0 / (0.7 + 1.9 * rand() / RAND_MAX);
        }
        Minv[k] = 1.0 / (1.3 + 2.1 * rand() / RAND_MAX);
        mb_q_from_rotvec(&Q[4 * k], th);
        mb_q_to_mat(&Lambda[9 * k], &Q[4 * k]);
    }
    view = (mb_body_view){ NB, Lambda, X, Jinv, Minv };
}

static mb_con con(int kind, size_t i, size_t j, double nx, double ny, double nz, double a)
{
    mb_con c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.i = i;
    c.j = j;
    double n[3] = { nx, ny, nz };
    mb_v3_scale(n, 1.0 / mb_v3_norm(n), n);
    mb_con_frame_from_normal(n, c.E);
    mb_v3_set(c.Ai, a, -0.4 * a, 0.3);
    mb_v3_set(c.Aj, -0.2, a, 0.55 * a);
    return c;
}

/* dense oracle h H A^-1 H^T of the store's constraints in store order */
static void oracle(const mb_locdyn *L, double h, double *Wd)
{
    size_t m = 3 * L->count, n = 6 * NB;
    gsl_matrix *H = gsl_matrix_calloc(m, n), *HA = gsl_matrix_calloc(m, n);
    gsl_matrix_view W = gsl_matrix_view_array(Wd, m, m);
    for (size_t a = 0; a < L->count; a++) {
        const mb_con *c = &L->dia[a]->con;
        size_t ends[2] = { c->i, c->j };
        for (int e = 0; e < 2; e++) {
            if (ends[e] == MB_CON_GROUND)
                continue;
            double Hk[18];
            mb_con_operator_H(&view, ends[e], e ? c->Aj : c->Ai, c->E, Hk);
            for (int r = 0; r < 3; r++)
                for (int d = 0; d < 6; d++)
                    gsl_matrix_set(H, 3 * a + r, 6 * ends[e] + d,
                                   gsl_matrix_get(H, 3 * a + r, 6 * ends[e] + d) + (e ? -1 : 1) * Hk[6 * r + d]);
        }
    }
    for (size_t r = 0; r < m; r++)
        for (size_t k = 0; k < NB; k++)
            for (int d = 0; d < 6; d++)
                gsl_matrix_set(HA, r, 6 * k + d, gsl_matrix_get(H, r, 6 * k + d) * (d < 3 ? Jinv[3 * k + d] : Minv[k]));
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, h, HA, H, 0.0, &W.matrix);
    gsl_matrix_free(H);
    gsl_matrix_free(HA);
}

static double compare(const mb_locdyn *L, double h)
{
    size_t m = 3 * L->count;
    double *Ws = malloc(m * m * sizeof(double)), *Wd = malloc(m * m * sizeof(double)), mx = 0, err = 0;
    mb_locdyn_dense(L, Ws);
    oracle(L, h, Wd);
    for (size_t k = 0; k < m * m; k++) {
        mx = fmax(mx, fabs(Wd[k]));
        err = fmax(err, fabs(Ws[k] - Wd[k]));
    }
    free(Ws);
    free(Wd);
    return err / mx;
}

static size_t sharing_pairs(const mb_locdyn *L)
{
    size_t n = 0;
    for (size_t a = 0; a < L->count; a++)
        for (size_t b = 0; b < L->count; b++) {
            const mb_con *x = &L->dia[a]->con, *y = &L->dia[b]->con;
            if (a == b)
                continue;
            int s = (x->i == y->i || x->i == y->j) || (x->j != MB_CON_GROUND && (x->j == y->i || x->j == y->j));
            n += s;
        }
    return n;
}

Test(locdyn, operator_H_is_point_velocity)
{
    bodies();
    mb_con c = con(MB_CON_CONTACT, 2, 0, 0.3, -0.8, 0.5, 0.61);
    double u[6 * NB];
    for (size_t k = 0; k < 6 * NB; k++)
        u[k] = sin(1.7 * k + 0.3);
    double U[3];
    mb_con_local_velocity(&view, &c, u, U);
    /* independent: U = E [(v_i + w_i x a_i) - (v_j + w_j x a_j)], w = Lambda Omega, a = Lambda A */
    double vp[2][3];
    size_t ends[2] = { 2, 0 };
    const double *A[2] = { c.Ai, c.Aj };
    for (int e = 0; e < 2; e++) {
        double w[3], a[3], wa[3];
        mb_q_rotate(w, &Q[4 * ends[e]], &u[6 * ends[e]]);
        mb_q_rotate(a, &Q[4 * ends[e]], A[e]);
        mb_v3_cross(wa, w, a);
        mb_v3_add(vp[e], &u[6 * ends[e] + 3], wa);
    }
    double rel[3], Ue[3];
    mb_v3_sub(rel, vp[0], vp[1]);
    mb_m3_mul_v(Ue, c.E, rel);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(U[k], Ue[k], 1e-13, "U[%d] = %.17g, point velocity %.17g", k, U[k], Ue[k]);
}

Test(locdyn, sparse_W_matches_dense_gsl_oracle_with_insert_and_remove)
{
    bodies();
    double h = 0.0173, u[6 * NB];
    for (size_t k = 0; k < 6 * NB; k++)
        u[k] = cos(0.9 * k);
    mb_locdyn *L = mb_locdyn_alloc();
    mb_con cs[] = {
        con(MB_CON_FIXPNT, 0, 1, 0.1, 0.2, 1.0, 0.4),
        con(MB_CON_CONTACT, 2, 0, 1.0, -0.3, 0.2, -0.7),
        con(MB_CON_RIGLNK, 1, MB_CON_GROUND, -0.5, 0.9, 0.1, 0.25),
        con(MB_CON_FIXDIR, 3, 2, 0.3, 0.3, -1.0, 0.9),
        con(MB_CON_VELODIR, 0, MB_CON_GROUND, 0.0, 1.0, 0.4, -0.35),
        con(MB_CON_FIXPNT, 1, 0, 0.7, 0.1, 0.1, 0.15),   /* shares both bodies with row 0 */
    };
    mb_diab *d[6];
    for (int k = 0; k < 6; k++)
        cr_assert_not_null(d[k] = mb_locdyn_insert(L, &cs[k]));
    mb_locdyn_update(L, &view, u, h);
    cr_assert_eq(mb_locdyn_offdiag_count(L), sharing_pairs(L));
    double e = compare(L, h);
    cr_log_info("sparse vs dense W: max rel. difference %.3g", e);
    cr_assert_leq(e, 1e-13);
    /* B = H u~ for the same free velocity */
    for (size_t a = 0; a < L->count; a++) {
        double U[3];
        mb_con_local_velocity(&view, &L->dia[a]->con, u, U);
        for (int k = 0; k < 3; k++)
            cr_assert_float_eq(L->dia[a]->B[k], U[k], 1e-14);
    }
    /* remove two rows from the middle, then insert a new one */
    mb_locdyn_remove(L, d[1]);
    mb_locdyn_remove(L, d[4]);
    cr_assert_eq(L->count, 4);
    mb_con extra = con(MB_CON_CONTACT, 3, 1, 0.2, 0.2, 0.9, 0.5);
    cr_assert_not_null(mb_locdyn_insert(L, &extra));
    mb_locdyn_update(L, &view, u, h);
    cr_assert_eq(mb_locdyn_offdiag_count(L), sharing_pairs(L));
    e = compare(L, h);
    cr_assert_leq(e, 1e-13, "after remove/insert: %.3g", e);
    mb_locdyn_free(L);
}

/* Negative control: the sign rule s_ab flipped must be caught by the oracle. */
Test(locdyn, oracle_flags_a_wrong_offdiagonal_sign)
{
    bodies();
    mb_locdyn *L = mb_locdyn_alloc();
    mb_con a = con(MB_CON_FIXPNT, 0, 1, 0.1, 0.2, 1.0, 0.4), b = con(MB_CON_CONTACT, 2, 0, 1.0, -0.3, 0.2, -0.7);
    mb_locdyn_insert(L, &a);
    mb_locdyn_insert(L, &b);
    double u[6 * NB] = { 0 };
    mb_locdyn_update(L, &view, u, 0.01);
    cr_assert_leq(compare(L, 0.01), 1e-13);
    for (int k = 0; k < 9; k++)
        L->dia[0]->adj[0].W[k] = -L->dia[0]->adj[0].W[k];
    cr_assert_gt(compare(L, 0.01), 0.1);
    mb_locdyn_free(L);
}

Test(locdyn, redundant_bilateral_constraints_are_ranked_from_the_sparse_store)
{
    bodies();
    mb_locdyn *L = mb_locdyn_alloc();
    mb_con a = con(MB_CON_FIXPNT, 0, MB_CON_GROUND, 0, 0, 1, 0.4);
    double u[6 * NB] = { 0 };
    mb_locdyn_insert(L, &a);
    mb_con b = con(MB_CON_FIXDIR, 0, MB_CON_GROUND, 0.3, 0.5, 0.2, 0.4);  /* same point */
    mb_locdyn_insert(L, &b);
    mb_locdyn_update(L, &view, u, 0.01);
    size_t rows, deficiency;
    cr_assert_eq(mb_consolver_bilateral_rank(L, 1e-10, &rows, &deficiency), MB_SUCCESS);
    cr_assert_eq(rows, 4);           /* three axes of the fixed point, one direction */
    cr_assert_eq(deficiency, 1);     /* the direction repeats a combination of the three */
    /* control: the direction constraint at another point is independent */
    mb_locdyn_remove(L, L->dia[1]);
    b = con(MB_CON_FIXDIR, 0, MB_CON_GROUND, 0.3, 0.5, 0.2, -0.9);
    mb_locdyn_insert(L, &b);
    mb_locdyn_update(L, &view, u, 0.01);
    cr_assert_eq(mb_consolver_bilateral_rank(L, 1e-10, &rows, &deficiency), MB_SUCCESS);
    cr_assert_eq(rows, 4);
    cr_assert_eq(deficiency, 0);
    mb_locdyn_free(L);
}

Test(locdyn, zero_diagonal_block_is_an_error_not_a_crash)
{
    bodies();
    Minv[3] = 0.0;
    Jinv[9] = Jinv[10] = Jinv[11] = 0.0;     /* body 3 immovable */
    mb_locdyn *L = mb_locdyn_alloc();
    mb_con a = con(MB_CON_FIXPNT, 3, MB_CON_GROUND, 0, 0, 1, 0.4);
    double u[6 * NB] = { 0 };
    mb_locdyn_insert(L, &a);
    mb_locdyn_update(L, &view, u, 0.01);
    mb_solver_opts o = { 1e-12, 100, MB_CONTACT_SOLVER_EXACT };
    mb_solver_result r;
    cr_assert_eq(mb_consolver_solve(L, &o, &r), MB_ESINGULAR);
    cr_assert_not_null(strstr(mb_last_error(), "singular diagonal block"), "%s", mb_last_error());
    mb_locdyn_free(L);
}
