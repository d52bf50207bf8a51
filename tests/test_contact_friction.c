/* test_contact_friction.c -- the frictional contact laws (Cundall-Strack, Hertz-Mindlin,
 * rolling torque) against values derived by hand, and their contact history.
 *
 * A sphere of radius r pressed into the plane z = 0 by delta and sheared along x: the
 * normal force is kn delta (Hertz: K delta^{3/2}), the tangential spring after one level
 * of length h with slip velocity u is F_t = -k_t u h along x in stick, and -mu F_n along
 * x in slip with xi = mu F_n/k_t; it acts at the contact point -(r - delta/2) z, so the
 * torque is (r - delta/2) k_t u h along y.  The history's rotation is checked on a pair
 * whose line of centres turns by a known angle: xi must turn with it, magnitude kept.
 * Forces differ from the hand formulas by rounding order only: 64 ulp of the largest
 * term. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_contact.h"
#include "mb_forces.h"
#include "mb_status.h"

#define TOL(x) (64.0 * DBL_EPSILON * fabs(x) + DBL_MIN)

static const double R = 0.0731, M = 0.0427, KN = 2.9e4, DEL = 3.1e-4;

/* one sphere above the plane z = 0 pressed by DEL, moving at u along x */
static mb_nodes *pressed_sphere(double u)
{
    mb_nodes *s = mb_nodes_alloc(1, 53);
    mb_nodes_set_mass(s, 0, M);
    const double I[3] = { 0.4 * M * R * R, 0.4 * M * R * R, 0.4 * M * R * R };
    mb_nodes_set_inertia(s, 0, I);
    s->radius[0] = R;
    s->x[2] = R - DEL;
    s->v[0] = u;
    return s;
}

static void *linear_law(double mu, double ratio, double zeta_t, double mu_roll)
{
    const mb_contact_linear_params p = { .kn = KN, .dashpot = MB_DASHPOT_COEFF, .c = 0.0 };
    const mb_contact_friction_params fr = { .mu = mu, .kt_ratio = ratio, .zeta_t = zeta_t,
                                            .mu_roll = mu_roll };
    return mb_contact_cundall_strack_new(&p, &fr);
}

static void on_plane(void *law, const mb_nodes *s)
{
    const double p[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    cr_assert_eq(mb_contact_add_plane(law, s, 0, p, n), MB_SUCCESS, "%s", mb_last_error());
}

static void eval(const mb_force_type *type, void *law, mb_nodes *s, double t)
{
    memset(s->f, 0, 3 * s->n * sizeof *s->f);
    memset(s->torque, 0, 3 * s->n * sizeof *s->torque);
    cr_assert_eq(type->eval(law, s, t), MB_SUCCESS, "%s", mb_last_error());
}

Test(contact_friction, stick_spring_force_and_torque_at_the_contact_point)
{
    const double u = 0.37, h = 1e-4, ratio = 2.0 / 7.0, kt = ratio * KN;
    mb_nodes *s = pressed_sphere(u);
    void *law = linear_law(0.5, ratio, 0.0, 0.0);
    on_plane(law, s);
    eval(mb_force_contact_cundall_strack, law, s, 0.0);   /* first level: xi = 0 */
    cr_expect_eq(s->f[0], 0.0);
    eval(mb_force_contact_cundall_strack, law, s, h);     /* xi = u h */
    double dl = R - s->x[2], Ft = -kt * u * h, Fn = KN * dl, arm = R - dl / 2;
    cr_assert(fabs(Ft) < 0.5 * Fn, "the case must stick");
    cr_expect(fabs(s->f[0] - Ft) <= TOL(Ft), "F_t %.17g, hand %.17g", s->f[0], Ft);
    cr_expect(fabs(s->f[2] - Fn) <= TOL(Fn), "F_n %.17g, hand %.17g", s->f[2], Fn);
    cr_expect_eq(s->f[1], 0.0);
    /* tau = a x F_t, a = -arm z, F_t along x: tau_y = -arm Ft */
    cr_expect(fabs(s->torque[1] + arm * Ft) <= TOL(arm * Ft), "tau_y %.17g, hand %.17g",
              s->torque[1], -arm * Ft);
    cr_expect_eq(s->torque[0], 0.0);
    cr_expect_eq(s->torque[2], 0.0);
    double xi[3];
    int sliding;
    mb_contact_history(law, 0, xi, &sliding);
    cr_expect(fabs(xi[0] - u * h) <= TOL(u * h) && !sliding, "xi %.17g, hand %.17g", xi[0],
              u * h);
    /* a second evaluation at the same time adds no increment */
    eval(mb_force_contact_cundall_strack, law, s, h);
    cr_expect(fabs(s->f[0] - Ft) <= TOL(Ft), "re-evaluation moved F_t to %.17g", s->f[0]);
    /* the next level adds u h again */
    eval(mb_force_contact_cundall_strack, law, s, 2 * h);
    cr_expect(fabs(s->f[0] - 2 * Ft) <= TOL(Ft), "F_t %.17g, hand %.17g", s->f[0], 2 * Ft);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, slip_at_the_coulomb_limit)
{
    const double u = 0.37, h = 1e-2, mu = 0.3, ratio = 0.4, kt = ratio * KN;
    mb_nodes *s = pressed_sphere(u);
    void *law = linear_law(mu, ratio, 0.0, 0.0);
    on_plane(law, s);
    eval(mb_force_contact_cundall_strack, law, s, 0.0);
    eval(mb_force_contact_cundall_strack, law, s, h);
    double Fn = KN * (R - s->x[2]), lim = mu * Fn;
    cr_assert(kt * u * h > lim, "the case must slide");
    cr_expect(fabs(s->f[0] + lim) <= TOL(lim), "F_t %.17g, limit %.17g", s->f[0], -lim);
    double xi[3];
    int sliding;
    mb_contact_history(law, 0, xi, &sliding);
    cr_expect(sliding, "not marked sliding");
    cr_expect(fabs(xi[0] - lim / kt) <= TOL(lim / kt), "xi %.17g, hand mu F_n/k_t %.17g",
              xi[0], lim / kt);
    /* sliding on: the spring stays at the limit */
    eval(mb_force_contact_cundall_strack, law, s, 2 * h);
    cr_expect(fabs(s->f[0] + lim) <= TOL(lim), "F_t %.17g, limit %.17g", s->f[0], -lim);
    /* reversing the slip unloads the spring first: xi = lim/kt - u h/400 */
    s->v[0] = -u / 400;
    eval(mb_force_contact_cundall_strack, law, s, 3 * h);
    double back = -kt * (lim / kt - u * h / 400);
    cr_expect(fabs(s->f[0] - back) <= TOL(lim), "F_t %.17g, hand %.17g", s->f[0], back);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, tangential_dashpot_within_the_limit)
{
    const double u = 0.011, ratio = 0.5, zeta_t = 0.2, kt = ratio * KN;
    mb_nodes *s = pressed_sphere(u);
    void *law = linear_law(0.9, ratio, zeta_t, 0.0);
    on_plane(law, s);
    eval(mb_force_contact_cundall_strack, law, s, 0.0);
    double gamma = 2 * zeta_t * sqrt(M * kt), Ft = -gamma * u;
    cr_expect(fabs(s->f[0] - Ft) <= TOL(Ft), "F_t %.17g, hand -gamma u %.17g", s->f[0], Ft);
    double D = mb_force_contact_cundall_strack->dissipation(law, s);
    cr_expect(fabs(D - gamma * u * u) <= TOL(D), "dissipation %.17g, hand %.17g", D,
              gamma * u * u);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, hertz_mindlin_stiffness_is_8_gstar_sqrt_r_delta)
{
    const double u = 0.05, h = 1e-5, E = 7.3e6, nu = 0.27;
    const double ratio = 2 * (1 - nu) / (2 - nu), Gstar = ratio * E / 4;
    mb_nodes *s = pressed_sphere(u);
    const mb_contact_hertz_params p = { .estar = E, .zeta = 0.0 };
    const mb_contact_friction_params fr = { .mu = 0.6, .kt_ratio = ratio };
    void *law = mb_contact_hertz_mindlin_new(&p, &fr);
    cr_assert_not_null(law, "%s", mb_last_error());
    on_plane(law, s);
    eval(mb_force_contact_hertz_mindlin, law, s, 0.0);
    eval(mb_force_contact_hertz_mindlin, law, s, h);
    double kt = 8 * Gstar * sqrt(R * (R - s->x[2])), Ft = -kt * u * h;
    double dl = R - s->x[2], Fn = 4.0 / 3.0 * E * sqrt(R) * dl * sqrt(dl);
    cr_assert(fabs(Ft) < 0.6 * Fn);
    cr_expect(fabs(s->f[0] - Ft) <= 1e-14 * fabs(Ft), "F_t %.17g, hand %.17g", s->f[0], Ft);
    cr_expect(fabs(s->f[2] - Fn) <= 1e-14 * Fn, "F_n %.17g, hand %.17g", s->f[2], Fn);
    mb_force_contact_hertz_mindlin->free(law);
    mb_nodes_free(s);
}

/* Two equal spheres touching along z with xi along x; the pair then turns by theta about
 * y: n' = (sin th, 0, cos th).  Projected and rescaled, xi' = |xi| (cos th, 0, -sin th):
 * the history turns with the frame.  The force on sphere 0 is -k_t xi'. */
Test(contact_friction, history_turns_with_the_contact_frame)
{
    const double r = 0.05, m = 0.013, d = 2 * r - 1e-4, u = 0.2, h = 1e-4, th = 0.3;
    const double ratio = 0.6, kt = ratio * KN;
    mb_nodes *s = mb_nodes_alloc(2, 53);
    for (size_t i = 0; i < 2; i++) {
        mb_nodes_set_mass(s, i, m);
        s->radius[i] = r;
    }
    s->x[5] = d;
    s->v[0] = u;                           /* sphere 0 slides along x under sphere 1 */
    void *law = linear_law(0.9, ratio, 0.0, 0.0);
    cr_assert_eq(mb_contact_add_spheres(law, s, 0, 1), MB_SUCCESS);
    eval(mb_force_contact_cundall_strack, law, s, 0.0);
    eval(mb_force_contact_cundall_strack, law, s, h);   /* xi = u h x */
    s->v[0] = 0.0;
    s->x[3] = d * sin(th);
    s->x[5] = d * cos(th);
    eval(mb_force_contact_cundall_strack, law, s, 2 * h);
    double xi[3];
    int sliding;
    mb_contact_history(law, 0, xi, &sliding);
    const double want[3] = { u * h * cos(th), 0.0, -u * h * sin(th) };
    for (int k = 0; k < 3; k++) {
        cr_expect(fabs(xi[k] - want[k]) <= 1e-14 * u * h, "xi[%d] %.17g, hand %.17g", k,
                  xi[k], want[k]);
        cr_expect(fabs(s->f[k] - (-kt * want[k] + (k == 0 ? -1 : k == 2 ? -1 : 0) * KN * 1e-4
                                  * (k == 0 ? sin(th) : k == 2 ? cos(th) : 0)))
                  <= 1e-12 * KN * 1e-4, "f[%d] %.17g", k, s->f[k]);
    }
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, history_resets_when_the_contact_opens)
{
    const double u = 0.37, h = 1e-4;
    mb_nodes *s = pressed_sphere(u);
    void *law = linear_law(0.5, 0.5, 0.0, 0.0);
    on_plane(law, s);
    eval(mb_force_contact_cundall_strack, law, s, 0.0);
    eval(mb_force_contact_cundall_strack, law, s, h);
    cr_assert(s->f[0] != 0.0);
    s->x[2] = R + 1e-6;                    /* apart */
    eval(mb_force_contact_cundall_strack, law, s, 2 * h);
    double xi[3];
    int sliding;
    mb_contact_history(law, 0, xi, &sliding);
    cr_expect(xi[0] == 0.0 && xi[1] == 0.0 && xi[2] == 0.0 && !sliding, "history kept apart");
    s->x[2] = R - DEL;                     /* closes again at rest */
    s->v[0] = 0.0;
    eval(mb_force_contact_cundall_strack, law, s, 3 * h);
    cr_expect_eq(s->f[0], 0.0, "a closed-again contact starts loaded: F_t %g", s->f[0]);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, rolling_torque_opposes_the_rolling_spin)
{
    const double w = 3.1, mur = 0.02;
    mb_nodes *s = pressed_sphere(0.0);
    s->omega[1] = w;
    s->v[0] = w * (R - (R - s->x[2]) / 2); /* rolling: the contact point at rest */
    void *law = linear_law(0.5, 0.5, 0.0, mur);
    on_plane(law, s);
    eval(mb_force_contact_cundall_strack, law, s, 0.0);
    eval(mb_force_contact_cundall_strack, law, s, 1e-3);  /* a level later: xi = u_t h = 0 */
    double M = mur * R * KN * (R - s->x[2]);
    cr_expect(fabs(s->torque[1] + M) <= TOL(M), "tau_y %.17g, hand -mu_r R F_n %.17g",
              s->torque[1], -M);
    cr_expect(fabs(s->f[0]) <= 1e-12 * KN * DEL, "a rolling sphere has no F_t: %g", s->f[0]);
    double D = mb_force_contact_cundall_strack->dissipation(law, s);
    cr_expect(fabs(D - M * w) <= 1e-12 * M * w, "dissipation %.17g, hand %.17g", D, M * w);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

/* The MPFR instance at 53 bits reproduces double bit for bit over levels that stick,
 * slide and turn. */
Test(contact_friction, mpfr_53_twin_is_bit_for_bit)
{
    mb_nodes *s = mb_nodes_alloc(2, 53);
    for (size_t i = 0; i < 2; i++) {
        mb_nodes_set_mass(s, i, 0.013 + 0.007 * (double)i);
        s->radius[i] = 0.05 + 0.01 * (double)i;
        s->omega[3 * i] = 1.3 - (double)i;
        s->omega[3 * i + 2] = 0.7;
    }
    const double p[3] = { 0.01, -0.02, 0.0 }, n[3] = { 0.1, 0.2, 0.97 };
    s->x[0] = 0.003; s->x[2] = 0.0499;
    s->x[3] = 0.021; s->x[4] = 0.013; s->x[5] = 0.1498;
    s->v[0] = 0.4; s->v[4] = -0.3;
    void *law = linear_law(0.3, 0.5, 0.1, 0.03);
    cr_assert_eq(mb_contact_add_spheres(law, s, 0, 1), MB_SUCCESS);
    cr_assert_eq(mb_contact_add_plane(law, s, 0, p, n), MB_SUCCESS);
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(2, 53);
    for (int step = 0; step < 6; step++) {
        double t = 1e-2 * step;
        for (int k = 0; k < 6; k++)
            s->x[k] += 1e-5 * s->v[k];
        cr_assert_eq(mb_nodes_mpfr_set_from_double(m, s), MB_SUCCESS);
        for (int k = 0; k < 6; k++) {
            mpfr_set_zero(&m->f[k], 1);
            mpfr_set_zero(&m->torque[k], 1);
        }
        eval(mb_force_contact_cundall_strack, law, s, t);
        cr_assert_eq(mb_force_contact_cundall_strack->eval_mpfr(law, m, t), MB_SUCCESS, "%s",
                     mb_last_error());
        for (int k = 0; k < 6; k++) {
            cr_expect_eq(mpfr_get_d(&m->f[k], MPFR_RNDN), s->f[k], "step %d f[%d]", step, k);
            cr_expect_eq(mpfr_get_d(&m->torque[k], MPFR_RNDN), s->torque[k], "step %d tau[%d]",
                         step, k);
        }
    }
    int slid = 0;
    double xi[3];
    for (size_t c = 0; c < 2; c++) {
        int sl;
        mb_contact_history(law, c, xi, &sl);
        slid |= sl;
    }
    cr_expect(slid, "the sequence should reach the Coulomb limit somewhere");
    mb_nodes_mpfr_free(m);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

/* 27 spheres of radii 0.5-0.56 on a cubic lattice of spacing 1 (jittered by an LCG),
 * spinning and moving; every pair added by hand. */
static mb_nodes *spinning_cluster(void *law)
{
    mb_nodes *s = mb_nodes_alloc(27, 53);
    unsigned long seed = 2385;
    for (size_t i = 0; i < 27; i++) {
        mb_nodes_set_mass(s, i, 1.0 + 0.01 * (double)i);
        const double I[3] = { 0.1, 0.1, 0.1 };
        mb_nodes_set_inertia(s, i, I);
        s->radius[i] = 0.5 + 0.06 * (double)(i % 5) / 4.0;
        const size_t c[3] = { i % 3, (i / 3) % 3, i / 9 };
        for (int k = 0; k < 3; k++) {
            seed = (seed * 1103515245ul + 12345ul) % 2147483648ul;
            double r = (double)seed / 2147483648.0 - 0.5;
            s->x[3 * i + k] = (double)c[k] + 0.02 * r;
            s->v[3 * i + k] = 0.3 * r;
            s->omega[3 * i + k] = 2.0 * r - 0.4 * (double)k;
        }
    }
    for (size_t i = 0; i < 27; i++)
        for (size_t j = i + 1; j < 27; j++)
            cr_assert_eq(mb_contact_add_spheres(law, s, i, j), MB_SUCCESS);
    return s;
}

/* The double instance and the MPFR instance at 53 bits, stepped alike (symplectic Euler
 * in double, h = 2e-4), give the same forces and torques bit for bit over 40 levels of
 * a cluster whose pairs close, stick, slide and open: the double kernel performs the
 * template's operations in its order (friction_pair_double.c).  A different order of two
 * roundings shows within a few of these 13000 pair evaluations.  in_place: the double
 * instance updates its history in place (mb_contact_history_in_place; each level is
 * evaluated once here), the MPFR instance keeps both levels: a base read after its
 * candidate was written, or a stale one, changes the forces of the next level. */
static void cluster_twin(const mb_force_type *type, void *law, int with_step, int in_place)
{
    mb_nodes *s = spinning_cluster(law);
    cr_assert_eq(mb_contact_history_in_place(law, in_place), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes_mpfr *m = mb_nodes_mpfr_alloc(27, 53);
    double vs[81];
    __mpfr_struct vs_m[81];
    for (size_t k = 0; k < 81; k++)
        mpfr_init2(&vs_m[k], 53);
    long contacts = 0, sliding = 0;
    for (int step = 0; step < 40; step++) {
        double t = 2e-4 * step;
        cr_assert_eq(mb_nodes_mpfr_set_from_double(m, s), MB_SUCCESS);
        for (size_t k = 0; k < 81; k++) {
            mpfr_set_zero(&m->f[k], 1);
            mpfr_set_zero(&m->torque[k], 1);
            vs[k] = s->v[k] - 0.37 * 2e-4 * s->f[k] / s->mass[k / 3];   /* another velocity */
            mpfr_set_d(&vs_m[k], vs[k], MPFR_RNDN);
        }
        s->v_step = with_step ? vs : NULL;
        m->v_step = with_step ? vs_m : NULL;
        eval(type, law, s, t);
        cr_assert_eq(type->eval_mpfr(law, m, t), MB_SUCCESS, "%s", mb_last_error());
        s->v_step = NULL;
        m->v_step = NULL;
        for (size_t k = 0; k < 81; k++) {
            cr_assert_eq(mpfr_get_d(&m->f[k], MPFR_RNDN), s->f[k], "step %d f[%zu]", step, k);
            cr_assert_eq(mpfr_get_d(&m->torque[k], MPFR_RNDN), s->torque[k],
                         "step %d tau[%zu]", step, k);
        }
        for (size_t c = 0; c < mb_contact_count(law); c++) {
            double xi[3];
            int sl;
            mb_contact_history(law, c, xi, &sl);
            contacts += xi[0] != 0.0 || xi[1] != 0.0 || xi[2] != 0.0;
            sliding += sl;
        }
        for (size_t k = 0; k < 81; k++) {
            s->v[k] += 2e-4 * s->f[k] / s->mass[k / 3];
            s->omega[k] += 2e-4 * s->torque[k] / s->inertia[k];
            s->x[k] += 2e-4 * s->v[k];
        }
    }
    cr_expect_gt(contacts, 1000, "only %ld contact-levels", contacts);
    cr_expect_gt(sliding, 10, "only %ld sliding contact-levels", sliding);
    for (size_t k = 0; k < 81; k++)
        mpfr_clear(&vs_m[k]);
    mb_nodes_mpfr_free(m);
    type->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, mpfr_53_twin_is_bit_for_bit_on_a_cluster_cundall_strack)
{
    const mb_contact_linear_params p = { .kn = 3.1e4, .dashpot = MB_DASHPOT_RATIO, .zeta = 0.3 };
    const mb_contact_friction_params fr = { .mu = 0.3, .kt_ratio = 0.29, .zeta_t = 0.1,
                                            .mu_roll = 0.04 };
    cluster_twin(mb_force_contact_cundall_strack, mb_contact_cundall_strack_new(&p, &fr), 0, 0);
    /* a scheme's step velocity v_step (verlet-nosquish): the history advances by it, the
     * dashpots act on v */
    cluster_twin(mb_force_contact_cundall_strack, mb_contact_cundall_strack_new(&p, &fr), 1, 0);
    /* the double instance's history in place */
    cluster_twin(mb_force_contact_cundall_strack, mb_contact_cundall_strack_new(&p, &fr), 0, 1);
    cluster_twin(mb_force_contact_cundall_strack, mb_contact_cundall_strack_new(&p, &fr), 1, 1);
}

Test(contact_friction, mpfr_53_twin_is_bit_for_bit_on_a_cluster_hertz_mindlin)
{
    const mb_contact_hertz_params p = { .estar = 4.3e5, .zeta = 0.2 };
    const mb_contact_friction_params fr = { .mu = 0.3, .kt_ratio = 0.82, .zeta_t = 0.1,
                                            .mu_roll = 0.04 };
    cluster_twin(mb_force_contact_hertz_mindlin, mb_contact_hertz_mindlin_new(&p, &fr), 0, 0);
    cluster_twin(mb_force_contact_hertz_mindlin, mb_contact_hertz_mindlin_new(&p, &fr), 1, 0);
    cluster_twin(mb_force_contact_hertz_mindlin, mb_contact_hertz_mindlin_new(&p, &fr), 0, 1);
    cluster_twin(mb_force_contact_hertz_mindlin, mb_contact_hertz_mindlin_new(&p, &fr), 1, 1);
}

Test(contact_friction, implicit_jacobian_is_refused_with_the_reason)
{
    mb_nodes *s = pressed_sphere(0.1);
    void *law = linear_law(0.5, 0.5, 0.0, 0.0);
    on_plane(law, s);
    mb_jacobian *J = mb_jacobian_alloc(1, 53);
    cr_expect_neq(mb_force_contact_cundall_strack->jacobian(law, s, J), MB_SUCCESS);
    cr_expect(strstr(mb_last_error(), "history") != NULL, "%s", mb_last_error());
    mb_jacobian_free(J);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, time_going_back_past_the_history_is_refused)
{
    mb_nodes *s = pressed_sphere(0.1);
    void *law = linear_law(0.5, 0.5, 0.0, 0.0);
    on_plane(law, s);
    eval(mb_force_contact_cundall_strack, law, s, 1.0);
    eval(mb_force_contact_cundall_strack, law, s, 2.0);
    eval(mb_force_contact_cundall_strack, law, s, 1.5);   /* between the levels: allowed */
    cr_expect_neq(mb_force_contact_cundall_strack->eval(law, s, 0.5), MB_SUCCESS);
    cr_expect(strstr(mb_last_error(), "before its contact history") != NULL, "%s",
              mb_last_error());
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

/* An evaluation that stops at a pair of coincident centres (pair 0) leaves the pair it
 * did not reach (pair 1, sheared) with the history it had: the candidate of the last
 * level, which the next level then takes as its base. */
static void failed_evaluation_keeps_pairs_not_reached(int in_place)
{
    mb_nodes *s = mb_nodes_alloc(4, 53);
    for (size_t i = 0; i < 4; i++) {
        mb_nodes_set_mass(s, i, M);
        s->radius[i] = R;
    }
    s->x[3] = 1.5 * R;                              /* pair 0: 0-1 overlapping */
    s->x[6] = 10.0 * R;
    s->x[9] = 11.9 * R;                             /* pair 1: 2-3 overlapping */
    s->v[7] = 0.3;                                  /* sheared along y */
    void *law = linear_law(0.5, 0.5, 0.0, 0.0);
    cr_assert_eq(mb_contact_add_spheres(law, s, 0, 1), MB_SUCCESS);
    cr_assert_eq(mb_contact_add_spheres(law, s, 2, 3), MB_SUCCESS);
    cr_assert_eq(mb_contact_history_in_place(law, in_place), MB_SUCCESS);
    eval(mb_force_contact_cundall_strack, law, s, 1e-3);
    eval(mb_force_contact_cundall_strack, law, s, 2e-3);
    double before[3], after[3];
    int sl;
    mb_contact_history(law, 1, before, &sl);
    cr_assert(before[1] != 0.0, "the sheared pair should carry a history");
    s->x[3] = s->x[0];                              /* pair 0: coincident centres */
    cr_assert_eq(mb_force_contact_cundall_strack->eval(law, s, 3e-3), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "coincident") != NULL, "%s", mb_last_error());
    mb_contact_history(law, 1, after, &sl);
    for (int k = 0; k < 3; k++)
        cr_expect_eq(after[k], before[k], "xi[%d] %.17g, was %.17g", k, after[k], before[k]);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

Test(contact_friction, failed_evaluation_keeps_the_history_of_pairs_not_reached)
{
    failed_evaluation_keeps_pairs_not_reached(0);
    /* in place: the pairs not reached were not written over */
    failed_evaluation_keeps_pairs_not_reached(1);
}

/* The history in place (mb_contact_history_in_place): each new level is written over the
 * last, so an evaluation that comes back to a level so opened is refused by name -- at its
 * time or between it and the base --, also after the caller turned the mode off, until a
 * new level is opened with both kept; from then on a re-evaluation at the same time adds
 * no increment again (the stick force of the level, F_t = -k_t u h after each new level,
 * by hand as in stick_spring_force_and_torque_at_the_contact_point).  The first level,
 * xi = 0 at its base's time, may be evaluated again: nothing is written over there. */
Test(contact_friction, history_in_place_refuses_to_come_back_to_its_level)
{
    const double u = 0.37, h = 1e-4, ratio = 2.0 / 7.0, kt = ratio * KN;
    mb_nodes *s = pressed_sphere(u);
    void *law = linear_law(0.5, ratio, 0.0, 0.0);
    on_plane(law, s);
    cr_assert_eq(mb_contact_history_in_place(law, 1), MB_SUCCESS, "%s", mb_last_error());
    eval(mb_force_contact_cundall_strack, law, s, 0.0);   /* first level: xi = 0 */
    eval(mb_force_contact_cundall_strack, law, s, 0.0);   /* again: allowed */
    eval(mb_force_contact_cundall_strack, law, s, h);     /* in place: xi = u h */
    const double Ft = -kt * u * h;
    cr_expect(fabs(s->f[0] - Ft) <= TOL(Ft), "F_t %.17g, hand %.17g", s->f[0], Ft);
    const double back[] = { h, 0.5 * h };
    for (int k = 0; k < 2; k++) {
        cr_expect_eq(mb_force_contact_cundall_strack->eval(law, s, back[k]), MB_EDOM,
                     "evaluation at %g on a level opened in place not refused", back[k]);
        cr_expect(strstr(mb_last_error(), "contact-cundall-strack") != NULL
                  && strstr(mb_last_error(), "in place") != NULL, "%s", mb_last_error());
    }
    cr_assert_eq(mb_contact_history_in_place(law, 0), MB_SUCCESS);
    cr_expect_eq(mb_force_contact_cundall_strack->eval(law, s, h), MB_EDOM,
                 "the level opened in place has no base, whatever the mode now");
    eval(mb_force_contact_cundall_strack, law, s, 2 * h);  /* both levels kept */
    cr_expect(fabs(s->f[0] - 2 * Ft) <= TOL(Ft), "F_t %.17g, hand %.17g", s->f[0], 2 * Ft);
    eval(mb_force_contact_cundall_strack, law, s, 2 * h);
    cr_expect(fabs(s->f[0] - 2 * Ft) <= TOL(Ft), "re-evaluation moved F_t to %.17g", s->f[0]);
    mb_force_contact_cundall_strack->free(law);
    /* a refused evaluation leaves the works booked as they were: a level that slid (the
     * case of slip_at_the_coulomb_limit) has booked a slip work W > 0 */
    const double hs = 1e-2;
    law = linear_law(0.3, 0.4, 0.0, 0.0);
    on_plane(law, s);
    cr_assert_eq(mb_contact_history_in_place(law, 1), MB_SUCCESS);
    eval(mb_force_contact_cundall_strack, law, s, 0.0);
    eval(mb_force_contact_cundall_strack, law, s, hs);
    double w0[2], w1[2];
    mb_force_contact_cundall_strack->history_work(law, &w0[0], &w0[1]);
    cr_assert(w0[0] > 0.0, "the level should have slid (W %.17g)", w0[0]);
    cr_expect_eq(mb_force_contact_cundall_strack->eval(law, s, hs), MB_EDOM);
    mb_force_contact_cundall_strack->history_work(law, &w1[0], &w1[1]);
    cr_expect(w1[0] == w0[0] && w1[1] == w0[1], "refused evaluation moved the works from "
              "%.17g to %.17g", w0[0], w1[0]);
    mb_force_contact_cundall_strack->free(law);
    /* a law without friction has no history to keep */
    const mb_contact_linear_params p = { .kn = KN };
    void *plain = mb_contact_linear_new(&p);
    cr_expect_eq(mb_contact_history_in_place(plain, 1), MB_EUNSUP);
    cr_expect(strstr(mb_last_error(), "no contact history") != NULL, "%s", mb_last_error());
    mb_force_contact_linear->free(plain);
    mb_nodes_free(s);
}

Test(contact_friction, bad_parameters_are_refused_by_name)
{
    const mb_contact_linear_params p = { .kn = KN };
    const mb_contact_hertz_params hp = { .estar = 1e6 };
    struct { mb_contact_friction_params fr; int mindlin; const char *name; } bad[] = {
        { { .mu = -0.1, .kt_ratio = 0.5 }, 0, "mu" },
        { { .mu = NAN, .kt_ratio = 0.5 }, 0, "mu" },
        { { .mu = 0.3, .kt_ratio = 0.0 }, 0, "kt_ratio" },
        { { .mu = 0.3, .kt_ratio = 1.01 }, 0, "kt_ratio" },
        { { .mu = 0.3, .kt_ratio = INFINITY }, 0, "kt_ratio" },
        { { .mu = 0.3, .kt_ratio = 0.6 }, 1, "kt_ratio" },
        { { .mu = 0.3, .kt_ratio = 1.02 }, 1, "kt_ratio" },
        { { .mu = 0.3, .kt_ratio = 0.5, .zeta_t = 1.0 }, 0, "zeta_t" },
        { { .mu = 0.3, .kt_ratio = 0.5, .mu_roll = -1e-3 }, 0, "mu_roll" },
        { { .mu = 0.0, .kt_ratio = 0.5, .mu_roll = 1e-3 }, 0, "without friction" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        void *law = bad[k].mindlin ? mb_contact_hertz_mindlin_new(&hp, &bad[k].fr)
                                   : mb_contact_cundall_strack_new(&p, &bad[k].fr);
        cr_expect_null(law, "case %zu accepted", k);
        cr_expect(strstr(mb_last_error(), bad[k].name) != NULL, "case %zu: %s", k,
                  mb_last_error());
    }
    const mb_contact_friction_params edge = { .mu = 0.3, .kt_ratio = 2.0 / 3.0 };
    void *law = mb_contact_hertz_mindlin_new(&hp, &edge);
    cr_expect_not_null(law, "nu = 1/2 (ratio 2/3) refused: %s", mb_last_error());
    mb_force_contact_hertz_mindlin->free(law);
}
