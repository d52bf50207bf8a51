/* test_friction_work.c -- the works a frictional law books at its history levels
 * (doc/dem.md, "Energy of the tangential spring"; force_contact_friction_source.c,
 * fric_book), against values derived by hand on one sphere pressed into the plane z = 0
 * by delta and sheared along x at u:
 *  - slip: the slip increment s = xi_tr - xi_c against the mean of the level's end spring
 *    forces, W_s = -(F_b + F_c)/2 . s; nothing in stick;
 *  - release: a pair that opens gives up 1/2 k_t |xi|^2 of its last level, booked with
 *    the slip;
 *  - the first level (dt = 0) books nothing, though its limit hands a tangential dashpot's
 *    force to the spring: that spring energy is part of the initial energy;
 *  - stiffness (Hertz-Mindlin): xi held while delta changes from delta_1 to delta_2 puts
 *    in W_k = 1/2 (k_t(delta_2) - k_t(delta_1)) |xi|^2, exactly the change of the spring
 *    energy that no force supplied; the linear law books none;
 *  - the level's account: V_t + W_s - W_k equals the trapezoid-rule work done on the
 *    spring by the contact point's displacements, sum (F_b + F_c)/2 . (-u_t h).
 * The dissipated power of a sliding pair holds no slip term (the slip is booked, not
 * integrated), and history_power gives the slip's rate -F_t.u_t at the held history.
 * The slip and the stiffness work are also checked on two spheres pressed together
 * (the double kernel of sphere pairs, friction_pair_double.c), their pair added by hand
 * and found through a neighbour list (the kernel's row loop, which keeps no k_t for the
 * linear law): the same hand values with the pair's effective radius R* = R/2.
 * Values differ from the hand formulas by rounding only: 64 ulp of the largest term
 * (256 where a quotient by k_t is multiplied back or several booked terms add up). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_contact.h"
#include "mb_forces.h"
#include "mb_neighbour.h"
#include "mb_status.h"

#define TOL(x) (64.0 * DBL_EPSILON * fabs(x) + DBL_MIN)

static const double R = 0.0731, M = 0.0427, KN = 2.9e4, DEL = 3.1e-4;

static mb_nodes *pressed_sphere(double u, double delta)
{
    mb_nodes *s = mb_nodes_alloc(1, 53);
    mb_nodes_set_mass(s, 0, M);
    const double I[3] = { 0.4 * M * R * R, 0.4 * M * R * R, 0.4 * M * R * R };
    mb_nodes_set_inertia(s, 0, I);
    s->radius[0] = R;
    s->x[2] = R - delta;
    s->v[0] = u;
    return s;
}

static void *on_plane(void *law, const mb_nodes *s)
{
    const double p[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    cr_assert_not_null(law, "%s", mb_last_error());
    cr_assert_eq(mb_contact_add_plane(law, s, 0, p, n), MB_SUCCESS, "%s", mb_last_error());
    return law;
}

static void *damped_law(const mb_nodes *s, double mu, double ratio, double zeta_t)
{
    const mb_contact_linear_params p = { .kn = KN, .dashpot = MB_DASHPOT_COEFF, .c = 0.0 };
    const mb_contact_friction_params fr = { .mu = mu, .kt_ratio = ratio, .zeta_t = zeta_t };
    return on_plane(mb_contact_cundall_strack_new(&p, &fr), s);
}

static void *linear_law(const mb_nodes *s, double mu, double ratio)
{
    return damped_law(s, mu, ratio, 0.0);
}

static void eval(const mb_force_type *type, void *law, mb_nodes *s, double t)
{
    memset(s->f, 0, 3 * s->n * sizeof *s->f);
    memset(s->torque, 0, 3 * s->n * sizeof *s->torque);
    cr_assert_eq(type->eval(law, s, t), MB_SUCCESS, "%s", mb_last_error());
}

static void works(const mb_force_type *type, void *law, double *d, double *e)
{
    cr_assert_not_null(type->history_work);
    type->history_work(law, d, e);
}

/* the tangential spring's energy in the state s: the potential less the normal law's */
static double spring_energy(const mb_force_type *type, void *law, const mb_nodes *s)
{
    return type->potential(law, s) - 0.5 * KN * (R - s->x[2]) * (R - s->x[2]);
}

Test(friction_work, stick_books_nothing)
{
    const double u = 0.37, h = 1e-4;
    mb_nodes *s = pressed_sphere(u, DEL);
    void *law = linear_law(s, 0.5, 2.0 / 7.0);
    const mb_force_type *T = mb_force_contact_cundall_strack;
    double d, e;
    for (int n = 0; n < 4; n++)
        eval(T, law, s, n * h);
    works(T, law, &d, &e);
    cr_expect(d == 0.0 && e == 0.0, "stick booked W_s %g, W_k %g", d, e);
    T->free(law);
    mb_nodes_free(s);
}

Test(friction_work, slip_against_the_mean_of_the_end_forces)
{
    const double u = 0.37, h = 1e-2, mu = 0.3, ratio = 0.4, kt = ratio * KN;
    mb_nodes *s = pressed_sphere(u, DEL);
    void *law = linear_law(s, mu, ratio);
    const mb_force_type *T = mb_force_contact_cundall_strack;
    const double lim = mu * KN * DEL;
    double d, e;
    eval(T, law, s, 0.0);                  /* xi = 0, F_b = 0 */
    eval(T, law, s, h);                    /* trial u h, limited: xi_c = lim/kt */
    cr_assert(kt * u * h > lim, "the case must slide");
    /* level 1: s = u h - lim/kt against (0 + lim)/2 */
    double w1 = 0.5 * lim * (u * h - lim / kt);
    works(T, law, &d, &e);
    cr_expect(fabs(d - w1) <= TOL(lim * u * h), "W_s %.17g, hand %.17g", d, w1);
    /* the same time again recomputes the candidate: nothing added */
    eval(T, law, s, h);
    works(T, law, &d, &e);
    cr_expect(fabs(d - w1) <= TOL(lim * u * h), "re-evaluation booked W_s %.17g", d);
    /* level 2: s = u h against (lim + lim)/2 */
    eval(T, law, s, 2 * h);
    double w2 = w1 + lim * u * h;
    works(T, law, &d, &e);
    cr_expect(fabs(d - w2) <= 4 * TOL(w2), "W_s %.17g, hand %.17g", d, w2);
    cr_expect_eq(e, 0.0, "the linear law booked stiffness work %g", e);
    /* the account: V_t + W_s = the spring's trapezoid work (lim/2 + lim) u h */
    double V = spring_energy(T, law, s), acc = 1.5 * lim * u * h;
    cr_expect(fabs(V + d - acc) <= 4 * TOL(acc), "V_t + W_s %.17g, trapezoid work %.17g",
              V + d, acc);
    /* sliding: no slip term in the integrated power; history_power = -F_t.u_t = lim u */
    cr_expect_eq(T->dissipation(law, s), 0.0);
    double P = T->history_power(law, s);
    /* k_t (lim/k_t) u: the quotient and product round apart, 256 ulp */
    cr_expect(fabs(P - lim * u) <= 4 * TOL(lim * u), "history_power %.17g, hand %.17g", P,
              lim * u);
    T->free(law);
    mb_nodes_free(s);
}

Test(friction_work, an_opening_contact_releases_its_spring_energy)
{
    const double u = 0.37, h = 1e-4, ratio = 0.5, kt = ratio * KN;
    mb_nodes *s = pressed_sphere(u, DEL);
    void *law = linear_law(s, 0.5, ratio);
    const mb_force_type *T = mb_force_contact_cundall_strack;
    double d, e;
    eval(T, law, s, 0.0);
    eval(T, law, s, h);                    /* stick: xi = u h */
    s->x[2] = R + 1e-6;                    /* apart */
    eval(T, law, s, 2 * h);
    double want = 0.5 * kt * (u * h) * (u * h);
    works(T, law, &d, &e);
    cr_expect(fabs(d - want) <= TOL(want), "released %.17g, hand 1/2 k_t (u h)^2 %.17g", d,
              want);
    cr_expect_eq(T->potential(law, s), 0.0, "an open pair holds energy");
    T->free(law);
    mb_nodes_free(s);
}

Test(friction_work, mindlin_stiffness_change_under_a_held_xi)
{
    const double u = 0.05, h = 1e-5, E = 7.3e6, nu = 0.27, d1 = DEL, d2 = 1.7 * DEL;
    const double ratio = 2 * (1 - nu) / (2 - nu), Gstar = ratio * E / 4;
    mb_nodes *s = pressed_sphere(u, d1);
    const mb_contact_hertz_params p = { .estar = E, .zeta = 0.0 };
    const mb_contact_friction_params fr = { .mu = 0.6, .kt_ratio = ratio };
    void *law = on_plane(mb_contact_hertz_mindlin_new(&p, &fr), s);
    const mb_force_type *T = mb_force_contact_hertz_mindlin;
    double d, e;
    eval(T, law, s, 0.0);
    eval(T, law, s, h);                    /* stick at delta_1: xi = u h */
    works(T, law, &d, &e);
    cr_expect(d == 0.0 && e == 0.0, "a stick level at a fixed overlap booked %g, %g", d, e);
    double V1 = T->potential(law, s);
    s->v[0] = 0.0;
    s->x[2] = R - d2;                      /* pressed further, xi held */
    eval(T, law, s, 2 * h);
    double dd1 = R - (R - d1), dd2 = R - s->x[2];
    double k1 = 8 * Gstar * sqrt(R * dd1), k2 = 8 * Gstar * sqrt(R * dd2);
    double want = 0.5 * (k2 - k1) * (u * h) * (u * h);
    works(T, law, &d, &e);
    cr_expect(fabs(e - want) <= 1e-13 * want, "W_k %.17g, hand %.17g", e, want);
    cr_expect_eq(d, 0.0, "no slip, yet W_s = %g", d);
    /* the spring's energy change is that work: V_t(2) - V_t(1) = W_k */
    double K = 4.0 / 3.0 * E * sqrt(R), Vn2 = 0.4 * K * pow(dd2, 2.5);
    double dV = (T->potential(law, s) - Vn2) - (V1 - 0.4 * K * pow(dd1, 2.5));
    /* the normal energies cancel to their round-off, 64 ulp of the larger */
    cr_expect(fabs(dV - want) <= TOL(Vn2), "V_t change %.17g, W_k %.17g", dV, want);
    T->free(law);
    mb_nodes_free(s);
}

Test(friction_work, the_first_level_books_nothing)
{
    const double u = 0.37, mu = 0.3, ratio = 0.5, kt = ratio * KN, zeta_t = 0.2;
    mb_nodes *s = pressed_sphere(u, DEL);
    void *law = damped_law(s, mu, ratio, zeta_t);
    const mb_force_type *T = mb_force_contact_cundall_strack;
    const double lim = mu * KN * DEL, gamma = 2 * zeta_t * sqrt(M * kt);
    double d, e;
    cr_assert(gamma * u > lim, "the dashpot's trial must exceed the limit");
    eval(T, law, s, 0.0);                  /* xi = 0: the trial -gamma u, limited */
    double V = spring_energy(T, law, s), want = 0.5 * lim * lim / kt;
    cr_expect(fabs(V - want) <= 4 * TOL(want), "V_t %.17g, hand (mu F_n)^2/(2 k_t) %.17g", V,
              want);
    works(T, law, &d, &e);
    cr_expect(d == 0.0 && e == 0.0, "the first level booked W_s %g, W_k %g", d, e);
    T->free(law);
    mb_nodes_free(s);
}

/* ---- two spheres: the kernel of sphere pairs ---- */

/* Sphere 0 at rest at the origin, sphere 1 above it pressed in by delta (|x_1| = 2R -
 * delta along z, so n = z exactly) and moving along x at u: the slip velocity at the
 * contact point is -u x, of magnitude u. */
static mb_nodes *pressed_pair(double u, double delta)
{
    mb_nodes *s = mb_nodes_alloc(2, 53);
    const double I[3] = { 0.4 * M * R * R, 0.4 * M * R * R, 0.4 * M * R * R };
    for (size_t i = 0; i < 2; i++) {
        mb_nodes_set_mass(s, i, M);
        mb_nodes_set_inertia(s, i, I);
        s->radius[i] = R;
    }
    s->x[5] = 2 * R - delta;
    s->v[3] = u;
    return s;
}

/* The pair added by hand (neighbours 0) or found through an open neighbour list. */
static void *on_pair(void *law, const mb_nodes *s, int neighbours)
{
    cr_assert_not_null(law, "%s", mb_last_error());
    if (!neighbours) {
        cr_assert_eq(mb_contact_add_spheres(law, s, 0, 1), MB_SUCCESS, "%s", mb_last_error());
        return law;
    }
    mb_neighbour_list *nl = mb_neighbour_new(3 * R, 0.5 * R, NULL);
    cr_assert_not_null(nl, "%s", mb_last_error());
    cr_assert_eq(mb_contact_use_neighbours(law, s, nl), MB_SUCCESS, "%s", mb_last_error());
    mb_neighbour_free(nl);
    return law;
}

static void pair_slip(int neighbours)
{
    const double u = 0.37, h = 1e-2, mu = 0.3, ratio = 0.4, kt = ratio * KN;
    mb_nodes *s = pressed_pair(u, DEL);
    const mb_contact_linear_params p = { .kn = KN, .dashpot = MB_DASHPOT_COEFF, .c = 0.0 };
    const mb_contact_friction_params fr = { .mu = mu, .kt_ratio = ratio };
    void *law = on_pair(mb_contact_cundall_strack_new(&p, &fr), s, neighbours);
    const mb_force_type *T = mb_force_contact_cundall_strack;
    const double dd = 2 * R - (2 * R - DEL), lim = mu * KN * dd;
    double d, e;
    eval(T, law, s, 0.0);
    eval(T, law, s, h);                    /* trial u h, limited: xi_c = lim/kt */
    cr_assert(kt * u * h > lim, "the case must slide");
    double w1 = 0.5 * lim * (u * h - lim / kt);
    works(T, law, &d, &e);
    cr_expect(fabs(d - w1) <= TOL(lim * u * h), "W_s %.17g, hand %.17g", d, w1);
    eval(T, law, s, 2 * h);                /* s = u h against (lim + lim)/2 */
    double w2 = w1 + lim * u * h;
    works(T, law, &d, &e);
    cr_expect(fabs(d - w2) <= 4 * TOL(w2), "W_s %.17g, hand %.17g", d, w2);
    cr_expect_eq(e, 0.0, "the linear law booked stiffness work %g", e);
    /* the pair opens: the spring energy of the last level, 1/2 k_t (lim/k_t)^2, released */
    s->x[5] = 2 * R + 1e-6;
    eval(T, law, s, 3 * h);
    double w3 = w2 + 0.5 * lim * lim / kt;
    works(T, law, &d, &e);
    cr_expect(fabs(d - w3) <= 4 * TOL(w3), "W_s %.17g, hand %.17g", d, w3);
    T->free(law);
    mb_nodes_free(s);
}

Test(friction_work, sphere_pair_slip_by_hand)
{
    pair_slip(0);
}

Test(friction_work, sphere_pair_slip_by_hand_through_the_neighbour_list)
{
    pair_slip(1);
}

static void pair_mindlin(int neighbours)
{
    const double u = 0.05, h = 1e-5, E = 7.3e6, nu = 0.27, d1 = DEL, d2 = 1.7 * DEL;
    const double ratio = 2 * (1 - nu) / (2 - nu), Gstar = ratio * E / 4, Rs = R / 2;
    mb_nodes *s = pressed_pair(u, d1);
    const mb_contact_hertz_params p = { .estar = E, .zeta = 0.0 };
    const mb_contact_friction_params fr = { .mu = 0.6, .kt_ratio = ratio };
    void *law = on_pair(mb_contact_hertz_mindlin_new(&p, &fr), s, neighbours);
    const mb_force_type *T = mb_force_contact_hertz_mindlin;
    double d, e;
    eval(T, law, s, 0.0);
    eval(T, law, s, h);                    /* stick at delta_1: xi = -u h along x */
    works(T, law, &d, &e);
    cr_expect(d == 0.0 && e == 0.0, "a stick level at a fixed overlap booked %g, %g", d, e);
    s->v[3] = 0.0;
    s->x[5] = 2 * R - d2;                  /* pressed further, xi held */
    eval(T, law, s, 2 * h);
    double dd1 = 2 * R - (2 * R - d1), dd2 = 2 * R - s->x[5];
    double k1 = 8 * Gstar * sqrt(Rs * dd1), k2 = 8 * Gstar * sqrt(Rs * dd2);
    double want = 0.5 * (k2 - k1) * (u * h) * (u * h);
    works(T, law, &d, &e);
    cr_expect(fabs(e - want) <= 1e-13 * want, "W_k %.17g, hand %.17g", e, want);
    cr_expect_eq(d, 0.0, "no slip, yet W_s = %g", d);
    T->free(law);
    mb_nodes_free(s);
}

Test(friction_work, sphere_pair_mindlin_stiffness_by_hand)
{
    pair_mindlin(0);
}

Test(friction_work, sphere_pair_mindlin_stiffness_by_hand_through_the_neighbour_list)
{
    pair_mindlin(1);
}

/* Hertz-Mindlin, k_t = 8 G* sqrt(R* delta), R* = R/2, a level that slides after the overlap
 * changed: stick at delta_1 (xi = u h), the pair pressed to delta_2 with xi held, then a
 * level at delta_3 sliding at U.  Its slip is booked against the mean of the end forces
 * k_2 xi_b (the base's stiffness, not the candidate's k_3) and the limit
 * mu F_n(delta_3) = k_3 xi_c, and its stiffness work is 1/2 (k_3 - k_2) xi_b xi_c, on top
 * of the level before's 1/2 (k_2 - k_1) xi_b^2.  The other levels of this file keep
 * k_b = k_c wherever a pair slides; this one tells them apart. */
Test(friction_work, sphere_pair_mindlin_slides_after_the_overlap_changed)
{
    const double u = 0.05, h = 1e-5, E = 7.3e6, nu = 0.27, mu = 0.05, U = 40.0;
    const double d1 = DEL, d2 = 1.7 * DEL, d3 = 1.9 * DEL, Rs = R / 2;
    const double ratio = 2 * (1 - nu) / (2 - nu), Gstar = ratio * E / 4;
    mb_nodes *s = pressed_pair(u, d1);
    const mb_contact_hertz_params p = { .estar = E, .zeta = 0.0 };
    const mb_contact_friction_params fr = { .mu = mu, .kt_ratio = ratio };
    void *law = on_pair(mb_contact_hertz_mindlin_new(&p, &fr), s, 0);
    const mb_force_type *T = mb_force_contact_hertz_mindlin;
    double d, e;
    eval(T, law, s, 0.0);
    eval(T, law, s, h);                    /* stick at delta_1: |xi| = u h */
    s->v[3] = 0.0;
    s->x[5] = 2 * R - d2;                  /* pressed further, xi held */
    eval(T, law, s, 2 * h);
    s->v[3] = U;
    s->x[5] = 2 * R - d3;
    eval(T, law, s, 3 * h);                /* trial |xi| + U h against the limit */
    double dd1 = 2 * R - (2 * R - d1), dd2 = 2 * R - (2 * R - d2), dd3 = 2 * R - s->x[5];
    double k1 = 8 * Gstar * sqrt(Rs * dd1), k2 = 8 * Gstar * sqrt(Rs * dd2);
    double k3 = 8 * Gstar * sqrt(Rs * dd3), xi = u * h, tr = xi + U * h;
    double lim = mu * 4.0 / 3.0 * E * sqrt(Rs) * pow(dd3, 1.5), xc = lim / k3;
    cr_assert(k3 * tr > lim, "the level must slide");
    double ws = 0.5 * (tr - xc) * (k2 * xi + lim);
    double wk = 0.5 * (k2 - k1) * xi * xi + 0.5 * (k3 - k2) * xi * xc;
    works(T, law, &d, &e);
    /* the kernel and the hand formulas round apart by some ulp of each factor (sqrt, pow,
     * the quotient lim/k3 multiplied back); the slip tr - xc loses no digit (tr / (tr - xc)
     * is about 1.06 here): 1e-12 relative is far above that and far below a fault's O(1)
     * (k_3 xi_b for k_2 xi_b changes W_s by 1.1e-3) */
    cr_expect(fabs(d - ws) <= 1e-12 * ws, "W_s %.17g, hand %.17g", d, ws);
    cr_expect(fabs(e - wk) <= 1e-12 * wk, "W_k %.17g, hand %.17g", e, wk);
    T->free(law);
    mb_nodes_free(s);
}
