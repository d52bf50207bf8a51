/* test_jacobians.c -- every force model's Jacobians df/dx and df/dv against central
 * finite differences of its force.
 *
 * Central differences with step e have truncation error e^2/6 |f'''| and round-off about
 * u |f| / e (u = 2^-53).  For springs the derivatives scale as k / l^p, so |f'''| <= 100
 * max|f'| for lengths l >= 0.5 used here; with e = 1e-5 the bound
 *   tol = 100 e^2 max|J| + 8 u max|f| / e
 * covers both with margin, while a missing term (the dashpot's x-derivative, of size
 * c |dv| / l ~ 0.1 here) is ~1e6 times larger.  Negative control: a Jacobian that drops
 * the dashpot's x-derivative (a common simplification) must fail the same check.
 * The springs' blocks also against their textbook form at 256 bits (MPFR), to rounding:
 * the double blocks are formed in an expanded order (alpha I + beta n n^T + (c/l) n (P dv)^T),
 * so their tolerance follows from the rounding of that order. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_status.h"
#include "mb_system.h"

#include <mpfr.h>

#define NN 3
#define N3 (3 * NN)

static mb_system *system_with(const mb_force_type *type, void *params)
{
    mb_system *sys = mb_system_alloc(NN);
    for (size_t i = 0; i < NN; i++) {
        mb_nodes_set_mass(sys->nodes, i, 0.41 + 0.37 * (double)i);
        for (int a = 0; a < 3; a++) {
            sys->nodes->x[3 * i + a] = 0.9 * (double)i * (a == 0) + 0.31 * sin(2.3 * (double)(3 * i + a) + 1.0);
            sys->nodes->v[3 * i + a] = 0.83 * cos(1.7 * (double)(3 * i + a) + 0.4);
        }
    }
    cr_assert_eq(mb_forces_add(sys->forces, type, params), MB_SUCCESS);
    return sys;
}

/* dense 3n x 3n matrices from the block list (duplicates summed) */
static void dense_from_blocks(const mb_jacobian *J, double *Kx, double *Kv)
{
    memset(Kx, 0, N3 * N3 * sizeof(double));
    memset(Kv, 0, N3 * N3 * sizeof(double));
    for (size_t b = 0; b < J->count; b++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                size_t R = 3 * J->row[b] + r, C = 3 * J->col[b] + c;
                Kx[R * N3 + C] += J->dfdx[9 * b + 3 * r + c];
                Kv[R * N3 + C] += J->dfdv[9 * b + 3 * r + c];
            }
}

/* central differences of f with respect to x (which = 0) or v (which = 1) */
static void fd_jacobian(mb_system *sys, int which, double e, double *out, double *fbig)
{
    double *q = which ? sys->nodes->v : sys->nodes->x, fp[N3], fm[N3];
    *fbig = 0.0;
    for (size_t c = 0; c < N3; c++) {
        double save = q[c];
        q[c] = save + e;
        mb_forces_eval(sys->forces, sys->nodes, 0.0);
        memcpy(fp, sys->nodes->f, sizeof fp);
        q[c] = save - e;
        mb_forces_eval(sys->forces, sys->nodes, 0.0);
        memcpy(fm, sys->nodes->f, sizeof fm);
        q[c] = save;
        for (size_t r = 0; r < N3; r++) {
            out[r * N3 + c] = (fp[r] - fm[r]) / (2 * e);
            *fbig = fmax(*fbig, fmax(fabs(fp[r]), fabs(fm[r])));
        }
    }
}

/* max deviation over the tolerance; <= 1 passes */
static double fd_check(mb_system *sys, const double *Kx, const double *Kv)
{
    const double e = 1e-5, u = DBL_EPSILON / 2;
    double Fx[N3 * N3], Fv[N3 * N3], fmax_x, fmax_v, jmax = 0.0, worst = 0.0;
    fd_jacobian(sys, 0, e, Fx, &fmax_x);
    fd_jacobian(sys, 1, e, Fv, &fmax_v);
    for (size_t k = 0; k < N3 * N3; k++)
        jmax = fmax(jmax, fmax(fabs(Kx[k]), fabs(Kv[k])));
    double tol = 100 * e * e * jmax + 8 * u * fmax(fmax_x, fmax_v) / e + 1e-300;
    for (size_t k = 0; k < N3 * N3; k++) {
        worst = fmax(worst, fabs(Kx[k] - Fx[k]) / tol);
        worst = fmax(worst, fabs(Kv[k] - Fv[k]) / tol);
    }
    return worst;
}

static double check_model(const mb_force_type *type, void *params)
{
    mb_system *sys = system_with(type, params);
    mb_jacobian *J = mb_jacobian_alloc(NN, 53);
    cr_assert_eq(mb_forces_jacobian(sys->forces, sys->nodes, J), MB_SUCCESS, "%s", mb_last_error());
    double Kx[N3 * N3], Kv[N3 * N3];
    dense_from_blocks(J, Kx, Kv);
    double worst = fd_check(sys, Kx, Kv);
    fprintf(stderr, "%s: worst deviation %.3g x tolerance\n", type->name, worst);
    mb_jacobian_free(J);
    mb_system_free(sys);
    return worst;
}

static void *springs_of(double rest, double c, int anchored)
{
    void *sp = mb_springs_new();
    mb_spring a = { .i = 0, .j = 1, .k = 37.3, .rest = rest, .c = c };
    mb_spring b = { .i = 1, .j = 2, .k = 21.9, .rest = 0.77 * rest, .c = 0.6 * c };
    mb_spring d = { .i = 2, .anchored = anchored, .anchor = { -0.4, 1.3, 0.2 }, .j = 0,
                    .k = 11.3, .rest = 1.1 * rest, .c = 1.3 * c };
    mb_springs_add(sp, &a);
    mb_springs_add(sp, &b);
    mb_springs_add(sp, &d);
    return sp;
}

Test(jacobians, gravity_has_no_derivative)
{
    double worst = check_model(mb_force_gravity, mb_gravity_new((const double[]){ 0.3, -9.81, 1.7 }));
    cr_expect(worst <= 1.0, "gravity: %g x tolerance", worst);
}

Test(jacobians, drag)
{
    double worst = check_model(mb_force_drag, mb_drag_new(0.573));
    cr_expect(worst <= 1.0, "drag: %g x tolerance", worst);
}

Test(jacobians, linear_springs)
{
    double worst = check_model(mb_force_springs, springs_of(0.0, 0.0, 0));
    cr_expect(worst <= 1.0, "linear springs: %g x tolerance", worst);
}

Test(jacobians, springs_with_rest_length)
{
    double worst = check_model(mb_force_springs, springs_of(0.93, 0.0, 0));
    cr_expect(worst <= 1.0, "springs with rest length: %g x tolerance", worst);
}

Test(jacobians, springs_with_dashpots)
{
    double worst = check_model(mb_force_springs, springs_of(0.93, 0.217, 0));
    cr_expect(worst <= 1.0, "springs with dashpots: %g x tolerance", worst);
}

Test(jacobians, anchored_springs_with_dashpots)
{
    double worst = check_model(mb_force_springs, springs_of(0.93, 0.217, 1));
    cr_expect(worst <= 1.0, "anchored springs: %g x tolerance", worst);
    worst = check_model(mb_force_springs, springs_of(0.0, 0.217, 1));
    cr_expect(worst <= 1.0, "anchored zero-rest springs with dashpots: %g x tolerance", worst);
}

/* Negative control: df/dx taken from the same springs without dashpots (dropping the
 * dashpot's x-derivative), df/dv from the real ones. */
Test(jacobians, missing_dashpot_term_is_caught)
{
    mb_system *sys = system_with(mb_force_springs, springs_of(0.93, 0.217, 1));
    mb_system *nodash = system_with(mb_force_springs, springs_of(0.93, 0.0, 1));
    mb_jacobian *J = mb_jacobian_alloc(NN, 53), *J0 = mb_jacobian_alloc(NN, 53);
    mb_forces_jacobian(sys->forces, sys->nodes, J);
    mb_forces_jacobian(nodash->forces, nodash->nodes, J0);
    double Kx[N3 * N3], Kv[N3 * N3], Kx0[N3 * N3], Kv0[N3 * N3];
    dense_from_blocks(J, Kx, Kv);
    dense_from_blocks(J0, Kx0, Kv0);
    double worst = fd_check(sys, Kx0, Kv);
    fprintf(stderr, "springs without the dashpot x-derivative: %.3g x tolerance\n", worst);
    cr_expect(worst > 100.0, "the simplified Jacobian passed (%g x tolerance)", worst);
    mb_jacobian_free(J);
    mb_jacobian_free(J0);
    mb_system_free(sys);
    mb_system_free(nodash);
}

/* The textbook blocks of spring sp (mb_force_models.h: force_springs_source.c's comment),
 *   K = k (1 - L/l) I + k (L/l) n n^T + (c/l) [ n (P dv)^T + (dv.n) P ],   Dv = c n n^T,
 * P = I - n n^T, evaluated at 256 bits (MPFR) from the double positions and velocities of
 * s, then rounded to double; dn_p = 0 drops the (dv.n) P term (the negative control).
 * *scale: k (1 + L/l) + 3 (c/l) |dv|, a bound on the terms an entry of K is made of. */
static void spring_exact(const mb_spring *sp, const mb_nodes *s, int dn_p, double K[9],
                         double Dv[9], double *scale)
{
    mpfr_t d[3], dv[3], n[3], l, a, t, e;
    for (int k = 0; k < 3; k++)
        mpfr_inits2(256, d[k], dv[k], n[k], (mpfr_ptr)0);
    mpfr_inits2(256, l, a, t, e, (mpfr_ptr)0);
    mpfr_set_zero(l, 1);
    for (int k = 0; k < 3; k++) {
        double xj = sp->anchored ? sp->anchor[k] : s->x[3 * sp->j + k];
        double vj = sp->anchored ? 0.0 : s->v[3 * sp->j + k];
        mpfr_set_d(d[k], xj, MPFR_RNDN);
        mpfr_sub_d(d[k], d[k], s->x[3 * sp->i + k], MPFR_RNDN);
        mpfr_set_d(dv[k], vj, MPFR_RNDN);
        mpfr_sub_d(dv[k], dv[k], s->v[3 * sp->i + k], MPFR_RNDN);
        mpfr_fma(l, d[k], d[k], l, MPFR_RNDN);
    }
    mpfr_sqrt(l, l, MPFR_RNDN);
    mpfr_set_zero(a, 1);
    for (int k = 0; k < 3; k++) {
        mpfr_div(n[k], d[k], l, MPFR_RNDN);
        mpfr_fma(a, dv[k], n[k], a, MPFR_RNDN);            /* a = dv . n */
    }
    double ld = mpfr_get_d(l, MPFR_RNDN), dvmax = 0.0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double delta = r == c ? 1.0 : 0.0;
            mpfr_mul(t, n[r], n[c], MPFR_RNDN);             /* n_r n_c */
            Dv[3 * r + c] = sp->c * mpfr_get_d(t, MPFR_RNDN);
            /* elastic: k (1 - L/l) delta + k (L/l) n_r n_c = k delta + k (L/l)(n_r n_c - delta) */
            mpfr_sub_d(e, t, delta, MPFR_RNDN);
            mpfr_mul_d(e, e, sp->k * sp->rest, MPFR_RNDN);
            mpfr_div(e, e, l, MPFR_RNDN);
            mpfr_add_d(e, e, sp->k * delta, MPFR_RNDN);
            /* dashpot: (c/l) [ n_r (dv_c - a n_c) + a (delta - n_r n_c) ] */
            mpfr_d_sub(t, delta, t, MPFR_RNDN);
            mpfr_mul(t, t, a, MPFR_RNDN);
            if (!dn_p)
                mpfr_set_zero(t, 1);
            mpfr_t p;
            mpfr_init2(p, 256);
            mpfr_mul(p, a, n[c], MPFR_RNDN);
            mpfr_sub(p, dv[c], p, MPFR_RNDN);
            mpfr_fma(t, n[r], p, t, MPFR_RNDN);
            mpfr_clear(p);
            mpfr_mul_d(t, t, sp->c, MPFR_RNDN);
            mpfr_div(t, t, l, MPFR_RNDN);
            mpfr_add(e, e, t, MPFR_RNDN);
            K[3 * r + c] = mpfr_get_d(e, MPFR_RNDN);
        }
    for (int k = 0; k < 3; k++)
        dvmax = fmax(dvmax, fabs(mpfr_get_d(dv[k], MPFR_RNDN)));
    *scale = sp->k * (1.0 + sp->rest / ld) + 3.0 * sp->c / ld * (sqrt(3.0) * dvmax);
    for (int k = 0; k < 3; k++)
        mpfr_clears(d[k], dv[k], n[k], (mpfr_ptr)0);
    mpfr_clears(l, a, t, e, (mpfr_ptr)0);
}

/* The springs' dense K and Dv from their textbook blocks (spring_exact), as the model's
 * list puts them: -(K, Dv) at (i, i), (K, Dv) at (i, j) and (j, i), -(K, Dv) at (j, j);
 * *scale the largest of the springs' scales */
static void springs_exact(const void *springs, const mb_nodes *s, int dn_p, double *Kx,
                          double *Kv, double *scale)
{
    const mb_spring *sp = mb_springs_items(springs);
    memset(Kx, 0, N3 * N3 * sizeof(double));
    memset(Kv, 0, N3 * N3 * sizeof(double));
    *scale = 0.0;
    for (size_t m = 0; m < mb_springs_count(springs); m++) {
        double K[9], D[9], sc;
        spring_exact(&sp[m], s, dn_p, K, D, &sc);
        *scale = fmax(*scale, sc);
        size_t node[2] = { sp[m].i, sp[m].j };
        for (int bi = 0; bi < 2; bi++)
            for (int bj = 0; bj < 2; bj++) {
                if (sp[m].anchored && (bi || bj))
                    continue;
                double sign = bi == bj ? -1.0 : 1.0;
                for (int r = 0; r < 3; r++)
                    for (int c = 0; c < 3; c++) {
                        size_t R = 3 * node[bi] + r, C = 3 * node[bj] + c;
                        Kx[R * N3 + C] += sign * K[3 * r + c];
                        Kv[R * N3 + C] += sign * D[3 * r + c];
                    }
            }
    }
}

/* The springs' blocks (force_springs_source.c: K formed as alpha I + beta n n^T + (c/l) n
 * (P dv)^T, c/l once) against the textbook form at 256 bits (springs_exact).  Tolerance:
 * the double blocks take n from a square root and a division (3 u relative), and each
 * entry of K from at most 8 further rounded operations on terms bounded by the spring's
 * scale S = k (1 + L/l) + 3 (c/l) |dv|; an entry of the dense matrix sums at most 3
 * blocks: tol = 3 * 32 u S (Dv: 3 * 8 u c).  Springs with and without rest length, with
 * and without dashpots, anchored.  Negative control: the textbook form without its
 * (dv.n) P term, of size (c/l)|dv.n| ~ 0.1 here, must fail by far. */
Test(jacobians, springs_blocks_equal_the_textbook_form_to_rounding)
{
    const double u = DBL_EPSILON / 2;
    const double rests[] = { 0.93, 0.0, 0.93 }, cs[] = { 0.217, 0.217, 0.0 };
    for (int q = 0; q < 3; q++) {
        void *springs = springs_of(rests[q], cs[q], q != 2);
        mb_system *sys = system_with(mb_force_springs, springs);
        mb_jacobian *J = mb_jacobian_alloc(NN, 53);
        cr_assert_eq(mb_forces_jacobian(sys->forces, sys->nodes, J), MB_SUCCESS, "%s",
                     mb_last_error());
        double Kx[N3 * N3], Kv[N3 * N3], Ex[N3 * N3], Ev[N3 * N3], scale, worst = 0.0;
        double ctrl = 0.0, cmax = fmax(cs[q], 1.3 * cs[q]);
        dense_from_blocks(J, Kx, Kv);
        springs_exact(springs, sys->nodes, 1, Ex, Ev, &scale);
        double tol = 3 * 32 * u * scale, tolv = 3 * 8 * u * cmax + 1e-300;
        for (size_t k = 0; k < N3 * N3; k++) {
            worst = fmax(worst, fabs(Kx[k] - Ex[k]) / tol);
            worst = fmax(worst, fabs(Kv[k] - Ev[k]) / tolv);
        }
        fprintf(stderr, "springs (L %g, c %g): worst %.3g x tolerance\n", rests[q], cs[q],
                worst);
        cr_expect(worst <= 1.0, "springs (L %g, c %g): %g x tolerance", rests[q], cs[q], worst);
        if (cs[q] != 0.0) {
            springs_exact(springs, sys->nodes, 0, Ex, Ev, &scale);
            for (size_t k = 0; k < N3 * N3; k++)
                ctrl = fmax(ctrl, fabs(Kx[k] - Ex[k]) / tol);
            cr_expect(ctrl > 1e6, "control (no (dv.n) P term) passed: %g x tolerance", ctrl);
        }
        mb_jacobian_free(J);
        mb_system_free(sys);
    }
}
