/* test_jacobians.c -- every force model's Jacobians df/dx and df/dv against central
 * finite differences of its force.
 *
 * Central differences with step e have truncation error e^2/6 |f'''| and round-off about
 * u |f| / e (u = 2^-53).  For springs the derivatives scale as k / l^p, so |f'''| <= 100
 * max|f'| for lengths l >= 0.5 used here; with e = 1e-5 the bound
 *   tol = 100 e^2 max|J| + 8 u max|f| / e
 * covers both with margin, while a missing term (the dashpot's x-derivative, of size
 * c |dv| / l ~ 0.1 here) is ~1e6 times larger.  Negative control: a Jacobian that drops
 * the dashpot's x-derivative (a common simplification) must fail the same check. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_status.h"
#include "mb_system.h"

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
