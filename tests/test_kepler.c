/* test_kepler.c -- the Kepler problem and the central force model.
 *
 * The closed form (Kepler's equation by GSL Newton) is checked against facts it does not
 * use: the energy -mu m/(2a) and the angular momentum m sqrt(mu a (1 - e^2)) (vis-viva),
 * apoapsis a (1 + e) at half a period, periodicity, and the ODE itself (x'' = -mu x/r^3 by
 * central differences).  The force model is checked against -grad V and its Jacobian
 * against finite differences of the force. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mb_force_central.h"
#include "lf_run.h"

static const double MU = 1.0, A = 1.0;

Test(kepler, closed_form_invariants)
{
    const double es[4] = { 0.0, 0.3, 0.6, 0.93 };
    for (int j = 0; j < 4; j++) {
        char spec[64];
        snprintf(spec, sizeof spec, "kepler[eccentricity=%g]", es[j]);
        lf_run *r = lf_run_new(spec, "leapfrog");
        double e = es[j], E0 = -MU / (2 * A), L0 = sqrt(MU * A * (1 - e * e));
        for (int k = 0; k <= 40; k++) {
            double t = 2 * M_PI * k / 40.0 + 0.0173 * k;
            const mb_nodes *ex = lf_run_exact(r, t);
            double rr = mb_v3_norm(ex->x), E = 0.5 * mb_v3_dot(ex->v, ex->v) - MU / rr;
            double Lz = ex->x[0] * ex->v[1] - ex->x[1] * ex->v[0];
            cr_expect(fabs(E - E0) < 1e-13, "e=%g t=%g energy %.17g vs %.17g", e, t, E, E0);
            cr_expect(fabs(Lz - L0) < 1e-13, "e=%g t=%g angular momentum %.17g vs %.17g", e, t, Lz, L0);
        }
        const mb_nodes *ex = lf_run_exact(r, M_PI);     /* half the period 2 pi sqrt(a^3/mu) */
        cr_expect(fabs(ex->x[0] + A * (1 + e)) < 1e-13 && fabs(ex->x[1]) < 1e-13, "apoapsis");
        ex = lf_run_exact(r, 6 * M_PI);
        cr_expect(fabs(ex->x[0] - A * (1 - e)) < 1e-12, "periodicity");
        lf_run_free(r);
    }
}

Test(kepler, closed_form_solves_ode)
{
    lf_run *r = lf_run_new("kepler[eccentricity=0.6]", "leapfrog");
    const double d = 1e-4;
    for (int k = 0; k < 7; k++) {
        double t = 0.3 + 0.91 * k, xp[3], xm[3], xc[3];
        memcpy(xp, lf_run_exact(r, t + d)->x, sizeof xp);
        memcpy(xm, lf_run_exact(r, t - d)->x, sizeof xm);
        memcpy(xc, lf_run_exact(r, t)->x, sizeof xc);
        double rr = mb_v3_norm(xc);
        for (int a = 0; a < 2; a++) {
            double acc = (xp[a] - 2 * xc[a] + xm[a]) / (d * d), ref = -MU * xc[a] / (rr * rr * rr);
            /* truncation d^2/12 |x''''| <~ 1e-7 at r >= 0.4; round-off 4 u/d^2 ~ 1e-8 */
            cr_expect(fabs(acc - ref) < 1e-6 * (1 + fabs(ref)), "t=%g a=%d: %.10g vs %.10g", t, a, acc, ref);
        }
    }
    lf_run_free(r);
}

Test(kepler, central_force_gradient_and_jacobian)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes *s = sys->nodes;
    mb_nodes_set_mass(s, 0, 2.385);
    double x0[3] = { 0.71, -0.43, 0.29 };
    memcpy(s->x, x0, sizeof x0);
    mb_forces_add(sys->forces, mb_force_central, mb_central_new(1.7));
    cr_assert_eq(mb_forces_eval(sys->forces, s, 0.0), MB_SUCCESS);
    double f[3];
    memcpy(f, s->f, sizeof f);
    mb_jacobian *J = mb_jacobian_alloc(1, 53);
    cr_assert_eq(mb_forces_jacobian(sys->forces, s, J), MB_SUCCESS);
    cr_assert_eq(J->count, 1u);
    const double d = 1e-6;
    for (int c = 0; c < 3; c++) {
        double fp[3], fm[3], Vp, Vm;
        s->x[c] = x0[c] + d;
        mb_forces_eval(sys->forces, s, 0.0);
        memcpy(fp, s->f, sizeof fp);
        Vp = mb_forces_potential(sys->forces, s);
        s->x[c] = x0[c] - d;
        mb_forces_eval(sys->forces, s, 0.0);
        memcpy(fm, s->f, sizeof fm);
        Vm = mb_forces_potential(sys->forces, s);
        s->x[c] = x0[c];
        /* central differences: truncation ~ d^2, round-off ~ u |V| / d ~ 1e-10 */
        cr_expect(fabs(-(Vp - Vm) / (2 * d) - f[c]) < 1e-8, "f[%d] vs -dV/dx", c);
        for (int rr = 0; rr < 3; rr++)
            cr_expect(fabs((fp[rr] - fm[rr]) / (2 * d) - J->dfdx[3 * rr + c]) < 1e-7,
                      "J[%d][%d] %.10g vs %.10g", rr, c, (fp[rr] - fm[rr]) / (2 * d), J->dfdx[3 * rr + c]);
    }
    mb_jacobian_free(J);
    /* a node at the centre is an error, not an Inf */
    memset(s->x, 0, 3 * sizeof(double));
    cr_expect_eq(mb_forces_eval(sys->forces, s, 0.0), MB_EDIVERGED);
    cr_expect(strstr(mb_last_error(), "centre") != NULL, "%s", mb_last_error());
    /* and so is its Jacobian there (1/r^3 and 1/r^5 have no value at r = 0) */
    mb_jacobian *J0 = mb_jacobian_alloc(1, 53);
    cr_expect_eq(mb_forces_jacobian(sys->forces, s, J0), MB_EDIVERGED);
    cr_expect(strstr(mb_last_error(), "centre") != NULL, "%s", mb_last_error());
    mb_jacobian_free(J0);
    cr_expect_null(mb_central_new(-1.0));
    mb_system_free(sys);
}
