/* test_contact.c -- the linear and Hertz normal contact models against hand computation.
 *
 * Forces are checked against the law written out by hand in double from the node
 * coordinates; the model's operations differ from the hand formula only in rounding
 * order, a few ulp of each term, so tolerances are 16 ulp of the largest term.  The
 * potential is cross-checked as -dV/d(delta) by a central difference with step
 * eta = 1e-5 delta: truncation (eta^2/6) |V'''| ~ 1e-11 relative, round-off
 * u |V| / eta ~ 1e-11 relative, so 1e-8 relative is safe and far below any wrong law. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_mpfr_extra.h"
#include "mb_contact.h"
#include "mb_energy.h"
#include "mb_status.h"
#include "mb_system.h"

#define ULP16(x) (16.0 * DBL_EPSILON * fabs(x))

/* Two spheres, awkward data, overlapping along a skew direction. */
static mb_system *two_spheres(double gap_scale)
{
    mb_system *sys = mb_system_alloc(2);
    mb_nodes *s = sys->nodes;
    mb_nodes_set_mass(s, 0, 2.385);
    mb_nodes_set_mass(s, 1, 1.731);
    s->radius[0] = 0.413;
    s->radius[1] = 0.297;
    const double x0[3] = { 0.11, -0.23, 0.057 }, dir[3] = { 0.48, 0.6, -0.64 };
    double l = (0.413 + 0.297) * gap_scale;
    for (int k = 0; k < 3; k++) {
        s->x[k] = x0[k];
        s->x[3 + k] = x0[k] + l * dir[k];
    }
    const double v0[3] = { 0.73, 0.41, -0.19 }, v1[3] = { -0.52, -0.35, 0.66 };
    for (int k = 0; k < 3; k++) {
        s->v[k] = v0[k];
        s->v[3 + k] = v1[k];
    }
    return sys;
}

/* hand: delta, rate, n */
static void hand_kin(const mb_nodes *s, double *delta, double *rate, double n[3])
{
    double d[3], l = 0.0;
    for (int k = 0; k < 3; k++) {
        d[k] = s->x[3 + k] - s->x[k];
        l += d[k] * d[k];
    }
    l = sqrt(l);
    *rate = 0.0;
    for (int k = 0; k < 3; k++) {
        n[k] = d[k] / l;
        *rate -= (s->v[3 + k] - s->v[k]) * n[k];
    }
    *delta = s->radius[0] + s->radius[1] - l;
}

Test(contact_linear, sphere_pair_force_energy_power)
{
    mb_system *sys = two_spheres(0.962);
    mb_nodes *s = sys->nodes;
    mb_contact_linear_params p = { .kn = 7310.0, .dashpot = MB_DASHPOT_COEFF, .c = 3.17 };
    void *m = mb_contact_linear_new(&p);
    cr_assert_not_null(m);
    cr_assert_eq(mb_contact_add_spheres(m, s, 0, 1), MB_SUCCESS);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_contact_linear, m), MB_SUCCESS);
    cr_assert_eq(mb_forces_eval(sys->forces, s, 0.0), MB_SUCCESS);
    double delta, rate, n[3];
    hand_kin(s, &delta, &rate, n);
    cr_assert(delta > 0.0 && rate > 0.0, "test set-up must overlap and approach");
    double F = 7310.0 * delta + 3.17 * rate;
    for (int k = 0; k < 3; k++) {
        cr_expect(fabs(s->f[k] + F * n[k]) <= ULP16(F), "f0[%d] %.17g vs %.17g", k, s->f[k], -F * n[k]);
        cr_expect(fabs(s->f[3 + k] - F * n[k]) <= ULP16(F), "f1[%d]", k);
        cr_expect_eq(s->torque[k], 0.0);
    }
    double V = 0.5 * 7310.0 * delta * delta;
    cr_expect(fabs(mb_forces_potential(sys->forces, s) - V) <= ULP16(V));
    double P = 3.17 * rate * rate;
    cr_expect(fabs(mb_forces_dissipation(sys->forces, s) - P) <= ULP16(P));
    /* the dashpot from a damping ratio: c = 2 zeta sqrt(m* kn) */
    double meff = 2.385 * 1.731 / (2.385 + 1.731);
    cr_expect(fabs(mb_contact_meff(m, 0) - meff) <= ULP16(meff));
    mb_system_free(sys);
}

Test(contact_linear, zeta_gives_dashpot_coefficient)
{
    mb_system *sys = two_spheres(0.962);
    mb_nodes *s = sys->nodes;
    const double zeta = 0.237, kn = 7310.0;
    mb_contact_linear_params p = { .kn = kn, .dashpot = MB_DASHPOT_RATIO, .zeta = zeta };
    void *m = mb_contact_linear_new(&p);
    mb_contact_add_spheres(m, s, 0, 1);
    mb_forces_add(sys->forces, mb_force_contact_linear, m);
    mb_forces_eval(sys->forces, s, 0.0);
    double delta, rate, n[3];
    hand_kin(s, &delta, &rate, n);
    double meff = 2.385 * 1.731 / (2.385 + 1.731);
    double F = kn * delta + 2.0 * zeta * sqrt(meff * kn) * rate;
    cr_expect(fabs(s->f[3] - F * n[0]) <= ULP16(F), "%.17g vs %.17g", s->f[3], F * n[0]);
    mb_system_free(sys);
}

Test(contact_linear, no_force_when_apart)
{
    mb_system *sys = two_spheres(1.0001);
    mb_contact_linear_params p = { .kn = 7310.0, .dashpot = MB_DASHPOT_COEFF, .c = 3.17 };
    void *m = mb_contact_linear_new(&p);
    mb_contact_add_spheres(m, sys->nodes, 0, 1);
    mb_forces_add(sys->forces, mb_force_contact_linear, m);
    mb_forces_eval(sys->forces, sys->nodes, 0.0);
    for (int k = 0; k < 6; k++)
        cr_expect_eq(sys->nodes->f[k], 0.0);
    cr_expect_eq(mb_forces_potential(sys->forces, sys->nodes), 0.0);
    cr_expect_eq(mb_forces_dissipation(sys->forces, sys->nodes), 0.0);
    double k[6];
    mb_forces_stiffness(sys->forces, sys->nodes, k);
    for (int a = 0; a < 6; a++)
        cr_expect_eq(k[a], 0.0);
    mb_system_free(sys);
}

/* Separating fast with a stiff dashpot: kn delta + c delta' < 0.  Clamped: no force and the
 * whole elastic power kn delta |delta'| counts as dissipated; attractive: the textbook force.
 * Negative control: the two laws must differ here. */
Test(contact_linear, clamp_is_non_attractive)
{
    for (int attractive = 0; attractive <= 1; attractive++) {
        mb_system *sys = two_spheres(0.995);
        mb_nodes *s = sys->nodes;
        for (int k = 0; k < 6; k++)
            s->v[k] = -s->v[k];        /* now separating */
        mb_contact_linear_params p = { .kn = 731.0, .dashpot = MB_DASHPOT_COEFF, .c = 31.7,
                                       .attractive = attractive };
        void *m = mb_contact_linear_new(&p);
        mb_contact_add_spheres(m, s, 0, 1);
        mb_forces_add(sys->forces, mb_force_contact_linear, m);
        mb_forces_eval(sys->forces, s, 0.0);
        double delta, rate, n[3];
        hand_kin(s, &delta, &rate, n);
        double F = 731.0 * delta + 31.7 * rate;
        cr_assert(F < 0.0, "set-up must make the textbook force attractive (F = %g)", F);
        if (attractive) {
            cr_expect(fabs(s->f[3] - F * n[0]) <= ULP16(F));
            double P = 31.7 * rate * rate;
            cr_expect(fabs(mb_forces_dissipation(sys->forces, s) - P) <= ULP16(P));
        } else {
            for (int k = 0; k < 6; k++)
                cr_expect_eq(s->f[k], 0.0, "clamped force must vanish");
            double P = -731.0 * delta * rate;
            cr_expect(P > 0.0);
            cr_expect(fabs(mb_forces_dissipation(sys->forces, s) - P) <= ULP16(P));
        }
        mb_system_free(sys);
    }
}

Test(contact_linear, plane_force_and_stiffness)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes *s = sys->nodes;
    mb_nodes_set_mass(s, 0, 0.731);
    s->radius[0] = 0.0385;
    const double p[3] = { 0.1, 0.2, -0.3 }, nn[3] = { 0.0, 3.0, 4.0 };   /* |n| = 5 */
    const double n[3] = { 0.0, 0.6, 0.8 };
    double g = 0.0371;                        /* distance of the centre to the plane */
    for (int k = 0; k < 3; k++) {
        s->x[k] = p[k] + g * n[k] + (k == 0 ? 0.913 : 0.0);
        s->v[k] = -0.27 * n[k] + (k == 0 ? 0.5 : 0.0);
    }
    mb_contact_linear_params lp = { .kn = 2.385e4, .dashpot = MB_DASHPOT_COEFF, .c = 1.27 };
    void *m = mb_contact_linear_new(&lp);
    cr_assert_eq(mb_contact_add_plane(m, s, 0, p, nn), MB_SUCCESS);
    mb_forces_add(sys->forces, mb_force_contact_linear, m);
    mb_forces_eval(sys->forces, s, 0.0);
    double delta = 0.0385 - g, F = 2.385e4 * delta + 1.27 * 0.27;
    /* delta from the node position carries round-off of |x| ~ 1: 4 u / delta relative */
    double tol = 2.385e4 * 8.0 * DBL_EPSILON + ULP16(F);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(s->f[k] - F * n[k]) <= tol, "f[%d] %.17g vs %.17g", k, s->f[k], F * n[k]);
    double kk[3];
    mb_forces_stiffness(sys->forces, s, kk);
    /* per-axis stiffness: row sum of k n n^T, k |n_a| (|n_0| + |n_1| + |n_2|) (mb_timestep.h) */
    double n1 = fabs(n[0]) + fabs(n[1]) + fabs(n[2]);
    for (int a = 0; a < 3; a++)
        cr_expect(fabs(kk[a] - 2.385e4 * fabs(n[a]) * n1) <= ULP16(2.385e4));
    mb_system_free(sys);
}

Test(contact_hertz, sphere_pair_force_energy_power)
{
    mb_system *sys = two_spheres(0.991);
    mb_nodes *s = sys->nodes;
    const double E = 7.31e7, zeta = 0.173;
    mb_contact_hertz_params p = { .estar = E, .zeta = zeta };
    void *m = mb_contact_hertz_new(&p);
    mb_contact_add_spheres(m, s, 0, 1);
    mb_forces_add(sys->forces, mb_force_contact_hertz, m);
    mb_forces_eval(sys->forces, s, 0.0);
    double delta, rate, n[3];
    hand_kin(s, &delta, &rate, n);
    double R = 0.413 * 0.297 / (0.413 + 0.297), meff = 2.385 * 1.731 / (2.385 + 1.731);
    double K = 4.0 / 3.0 * E * sqrt(R);
    double Fe = K * pow(delta, 1.5), C = 2.0 * zeta * sqrt(1.5 * K * meff);
    double F = Fe + C * pow(delta, 0.25) * rate;
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(s->f[3 + k] - F * n[k]) <= ULP16(F), "f1[%d] %.17g vs %.17g", k,
                  s->f[3 + k], F * n[k]);
    double V = 0.4 * K * pow(delta, 2.5);
    cr_expect(fabs(mb_forces_potential(sys->forces, s) - V) <= ULP16(V));
    double P = (F - Fe) * rate;
    cr_expect(fabs(mb_forces_dissipation(sys->forces, s) - P) <= ULP16(P));
    double kk[6];
    mb_forces_stiffness(sys->forces, s, kk);
    double kt = 1.5 * K * sqrt(delta);
    double n1 = fabs(n[0]) + fabs(n[1]) + fabs(n[2]);    /* row sum of kt n n^T */
    for (int a = 0; a < 3; a++) {
        cr_expect(fabs(kk[a] - kt * fabs(n[a]) * n1) <= ULP16(kt));
        cr_expect(fabs(kk[3 + a] - kt * fabs(n[a]) * n1) <= ULP16(kt));
    }
    mb_system_free(sys);
}

/* -dV/d(delta) by central differences equals the elastic force, for both laws. */
static double pot_at(const mb_forces *F, mb_nodes *s, double shift)
{
    double save = s->x[3];
    s->x[3] += shift;
    double v = mb_forces_potential(F, s);
    s->x[3] = save;
    return v;
}

Test(contact, potential_is_elastic_force_integral)
{
    for (int model = 0; model < 2; model++) {
        mb_system *sys = two_spheres(0.97);
        mb_nodes *s = sys->nodes;
        for (int k = 0; k < 6; k++)
            s->v[k] = 0.0;
        void *m;
        if (model == 0) {
            mb_contact_linear_params p = { .kn = 7310.0 };
            m = mb_contact_linear_new(&p);
            mb_forces_add(sys->forces, mb_force_contact_linear, m);
        } else {
            mb_contact_hertz_params p = { .estar = 7.31e7 };
            m = mb_contact_hertz_new(&p);
            mb_forces_add(sys->forces, mb_force_contact_hertz, m);
        }
        mb_contact_add_spheres(m, s, 0, 1);
        mb_forces_eval(sys->forces, s, 0.0);
        double delta, rate, n[3];
        hand_kin(s, &delta, &rate, n);
        double eta = 1e-5 * delta;
        /* shifting x_1 along x by eta changes |d| by n_x eta: dV/dx_1 = -V'(delta) n_x */
        double dVdx = (pot_at(sys->forces, s, eta) - pot_at(sys->forces, s, -eta)) / (2 * eta);
        cr_expect(fabs(-dVdx - s->f[3]) <= 1e-8 * fabs(s->f[3]), "model %d: -dV/dx %.12g, f %.12g",
                  model, -dVdx, s->f[3]);
        mb_system_free(sys);
    }
}

/* The 53-bit MPFR instance with double's exponent range gives the double forces bit for bit. */
Test(contact, mpfr_twin_bitwise)
{
    for (int model = 0; model < 2; model++) {
        mb_system *sys = two_spheres(0.993);
        void *m;
        if (model == 0) {
            mb_contact_linear_params p = { .kn = 7310.0, .dashpot = MB_DASHPOT_RATIO, .zeta = 0.3 };
            m = mb_contact_linear_new(&p);
            mb_forces_add(sys->forces, mb_force_contact_linear, m);
        } else {
            mb_contact_hertz_params p = { .estar = 7.31e7, .zeta = 0.2 };
            m = mb_contact_hertz_new(&p);
            mb_forces_add(sys->forces, mb_force_contact_hertz, m);
        }
        mb_contact_add_spheres(m, sys->nodes, 0, 1);
        /* plane 0.4/|n| = 0.390 < r_0 = 0.413 below node 0 */
        const double pp[3] = { 0.11, -0.23, 0.057 - 0.4 }, nn[3] = { 0.1, 0.2, 1.0 };
        mb_contact_add_plane(m, sys->nodes, 0, pp, nn);
        mb_mpfr_range saved = mb_mpfr_use_double_range();
        mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 53);
        cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS);
        cr_assert_eq(mb_forces_mpfr_eval(sys->forces, tw->nodes, 0.0), MB_SUCCESS);
        int nonzero = 0;
        for (int k = 0; k < 6; k++) {
            double a = sys->nodes->f[k], b = mpfr_get_d(&tw->nodes->f[k], MPFR_RNDN);
            cr_expect(a == b, "model %d f[%d]: double %a, mpfr %a", model, k, a, b);
            nonzero += a != 0.0;
        }
        cr_expect(nonzero >= 4);
        mb_system_mpfr_free(tw);
        mb_mpfr_restore_range(saved);
        mb_system_free(sys);
    }
}

Test(contact, bad_input_is_reported)
{
    mb_contact_linear_params p = { .kn = -1.0 };
    cr_expect_null(mb_contact_linear_new(&p));
    cr_expect(strstr(mb_last_error(), "kn") != NULL, "%s", mb_last_error());
    mb_contact_linear_params q = { .kn = 1.0, .dashpot = MB_DASHPOT_RATIO, .zeta = 1.0 };
    cr_expect_null(mb_contact_linear_new(&q));
    cr_expect(strstr(mb_last_error(), "zeta") != NULL, "%s", mb_last_error());
    mb_contact_hertz_params h = { .estar = 0.0 };
    cr_expect_null(mb_contact_hertz_new(&h));
    cr_expect(strstr(mb_last_error(), "E*") != NULL, "%s", mb_last_error());

    mb_system *sys = two_spheres(0.9);
    mb_contact_linear_params ok = { .kn = 1.0 };
    void *m = mb_contact_linear_new(&ok);
    cr_expect_eq(mb_contact_add_spheres(m, sys->nodes, 0, 7), MB_EINVAL);
    cr_expect_eq(mb_contact_add_spheres(m, sys->nodes, 1, 1), MB_EINVAL);
    sys->nodes->radius[1] = 0.0;
    cr_expect_eq(mb_contact_add_spheres(m, sys->nodes, 0, 1), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "radius") != NULL, "%s", mb_last_error());
    const double pt[3] = { 0, 0, 0 }, zero[3] = { 0, 0, 0 };
    cr_expect_eq(mb_contact_add_plane(m, sys->nodes, 0, pt, zero), MB_EDOM);
    cr_expect_eq(mb_contact_count(m), 0);
    /* coincident centres inside a contact: a defined error, no NaN */
    sys->nodes->radius[1] = 0.297;
    cr_assert_eq(mb_contact_add_spheres(m, sys->nodes, 0, 1), MB_SUCCESS);
    for (int k = 0; k < 3; k++)
        sys->nodes->x[3 + k] = sys->nodes->x[k];
    mb_forces_add(sys->forces, mb_force_contact_linear, m);
    cr_expect_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_EDOM);
    mb_system_free(sys);
}

/* ---- Jacobians against central differences of the force ----
 * Step eta = 1e-7: truncation eta^2 |f'''| / 6 with |f'''| <~ |J| / delta^2 (delta ~ 0.02)
 * gives ~1e-11 |J|; round-off u |f| / eta ~ 1e-11 |J|; tolerance 1e-7 max|J|.  Negative
 * control: the geometric-stiffness term (F/l) P (present for sphere pairs) is far above the
 * tolerance, so a Jacobian without it would fail. */
static void dense(const mb_jacobian *J, double *Kx, double *Kv, size_t n)
{
    memset(Kx, 0, 9 * n * n * sizeof *Kx);
    memset(Kv, 0, 9 * n * n * sizeof *Kv);
    for (size_t b = 0; b < J->count; b++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                size_t R = 3 * J->row[b] + r, C = 3 * J->col[b] + c;
                Kx[R * 3 * n + C] += J->dfdx[9 * b + 3 * r + c];
                Kv[R * 3 * n + C] += J->dfdv[9 * b + 3 * r + c];
            }
}

static double fd_entry(mb_system *sys, double *var, size_t out, double eta)
{
    double save = *var, fp, fm;
    *var = save + eta;
    mb_forces_eval(sys->forces, sys->nodes, 0.0);
    fp = sys->nodes->f[out];
    *var = save - eta;
    mb_forces_eval(sys->forces, sys->nodes, 0.0);
    fm = sys->nodes->f[out];
    *var = save;
    return (fp - fm) / (2.0 * eta);
}

Test(contact, jacobian_matches_finite_differences)
{
    for (int model = 0; model < 2; model++) {
        mb_system *sys = two_spheres(0.97);
        void *m;
        if (model == 0) {
            mb_contact_linear_params p = { .kn = 7310.0, .dashpot = MB_DASHPOT_COEFF, .c = 3.17 };
            m = mb_contact_linear_new(&p);
            mb_forces_add(sys->forces, mb_force_contact_linear, m);
        } else {
            mb_contact_hertz_params p = { .estar = 7.31e5, .zeta = 0.23 };
            m = mb_contact_hertz_new(&p);
            mb_forces_add(sys->forces, mb_force_contact_hertz, m);
        }
        mb_contact_add_spheres(m, sys->nodes, 0, 1);
        const double pp[3] = { 0.11, -0.23, 0.057 - 0.4 }, nn[3] = { 0.1, 0.2, 1.0 };
        mb_contact_add_plane(m, sys->nodes, 0, pp, nn);
        mb_jacobian *J = mb_jacobian_alloc(2, 53);
        cr_assert_eq(mb_forces_jacobian(sys->forces, sys->nodes, J), MB_SUCCESS);
        cr_expect_eq(J->count, 5);
        double Kx[36], Kv[36], big = 0.0;
        dense(J, Kx, Kv, 2);
        for (int k = 0; k < 36; k++)
            big = fmax(big, fmax(fabs(Kx[k]), fabs(Kv[k])));
        double err = 0.0;
        for (size_t c = 0; c < 6; c++)
            for (size_t r = 0; r < 6; r++) {
                double ex = fd_entry(sys, &sys->nodes->x[c], r, 1e-7);
                double ev = fd_entry(sys, &sys->nodes->v[c], r, 1e-7);
                err = fmax(err, fmax(fabs(ex - Kx[6 * r + c]), fabs(ev - Kv[6 * r + c])));
            }
        cr_expect(err <= 1e-7 * big, "model %d: |J - FD| = %.3g, max |J| = %.3g", model, err, big);
        cr_log_info("model %d: |J - FD| / max|J| = %.3g\n", model, err / big);
        /* geometric term F/l of the pair, by hand */
        double delta, rate, n[3];
        hand_kin(sys->nodes, &delta, &rate, n);
        mb_forces_eval(sys->forces, sys->nodes, 0.0);
        double l = 0.413 + 0.297 - delta;
        double F = fabs(sys->nodes->f[3] / n[0]);
        cr_expect(F / l > 1e4 * 1e-7 * big, "geometric term %.3g too small to test", F / l);
        mb_jacobian_free(J);
        mb_system_free(sys);
    }
}

Test(contact, jacobian_mpfr_twin_bitwise)
{
    mb_system *sys = two_spheres(0.97);
    mb_contact_hertz_params p = { .estar = 7.31e5, .zeta = 0.23 };
    void *m = mb_contact_hertz_new(&p);
    mb_forces_add(sys->forces, mb_force_contact_hertz, m);
    mb_contact_add_spheres(m, sys->nodes, 0, 1);
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 53);
    mb_jacobian *J = mb_jacobian_alloc(2, 53);
    mb_jacobian_mpfr *Jm = mb_jacobian_mpfr_alloc(2, 53);
    cr_assert_eq(mb_forces_jacobian(sys->forces, sys->nodes, J), MB_SUCCESS);
    cr_assert_eq(mb_forces_mpfr_jacobian(sys->forces, tw->nodes, Jm), MB_SUCCESS);
    cr_assert_eq(J->count, Jm->count);
    for (size_t k = 0; k < 9 * J->count; k++) {
        cr_expect(J->dfdx[k] == mpfr_get_d(&Jm->dfdx[k], MPFR_RNDN), "dfdx[%zu]", k);
        cr_expect(J->dfdv[k] == mpfr_get_d(&Jm->dfdv[k], MPFR_RNDN), "dfdv[%zu]", k);
    }
    mb_jacobian_free(J);
    mb_jacobian_mpfr_free(Jm);
    mb_system_mpfr_free(tw);
    mb_mpfr_restore_range(saved);
    mb_system_free(sys);
}

/* A fixed obstacle (infinite mass) as partner: m* is the free sphere's mass, so
 * c = 2 zeta sqrt(m kn); two infinite masses are refused. */
Test(contact, infinite_mass_partner)
{
    mb_system *sys = two_spheres(0.98);
    mb_nodes_set_mass(sys->nodes, 1, INFINITY);
    mb_contact_linear_params p = { .kn = 7310.0, .dashpot = MB_DASHPOT_RATIO, .zeta = 0.237 };
    void *m = mb_contact_linear_new(&p);
    cr_assert_eq(mb_contact_add_spheres(m, sys->nodes, 0, 1), MB_SUCCESS);
    cr_expect_eq(mb_contact_meff(m, 0), 2.385);
    mb_nodes_set_mass(sys->nodes, 0, INFINITY);
    cr_expect_eq(mb_contact_add_spheres(m, sys->nodes, 0, 1), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "infinite") != NULL, "%s", mb_last_error());
    mb_forces_add(sys->forces, mb_force_contact_linear, m);
    mb_system_free(sys);
}
