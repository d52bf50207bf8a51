/* test_contact_neighbours.c -- sphere contacts of every law found through the shared
 * neighbour list (mb_contact_use_neighbours) against the same laws on every pair.
 *
 * Expected values.  (1) Open boundaries: a model in neighbour mode must give, step after
 * step, the forces and torques of the same law with every pair of spheres added by hand
 * in (i, j) order, bit for bit (tolerance 0): the pair order is the same, the pairs
 * outside the list are apart and add nothing, and a frictional pair's history must
 * survive each rebuild of the list.  The run is a symplectic Euler written here, with
 * walls, over enough steps for several rebuilds while contacts stick and slide.
 * (2) Periodic box: the forces of the linear law against a brute-force double loop
 * written here with its own minimum image (round()); the same pair forces summed in
 * another order and with the separation computed by other operations, so the tolerance
 * is 64 u F_max per component (u = 2^-53; a sphere has at most a dozen contacts, each
 * force good to a few u).  The pairs in contact must be the same set.
 * (3) Negative controls: a list whose cutoff is below the largest contact distance is
 * refused (it would miss contacts); a frozen list (a skin too small for the motion) is
 * detected by the checked mode; pairs added by hand are refused in neighbour mode. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_cell.h"
#include "mb_contact.h"
#include "mb_neighbour.h"
#include "mb_nodes.h"
#include "mb_status.h"
#include "neighbour_brute.h"

/* the law's pairs in contact (overlap delta > 0) in the state s */
static size_t pairs_in_contact(void *law, const mb_nodes *s)
{
    size_t count = 0;
    for (size_t m = 0; m < mb_contact_count(law); m++) {
        double delta, rate, nn[3];
        mb_contact_kinematics(law, m, s, &delta, &rate, nn);
        count += delta > 0.0;
    }
    return count;
}

static const double SPACING = 0.105, RHO = 1.0;

/* n spheres of radius 0.045..0.055 on a jittered cubic lattice of side `side` sites,
 * random velocities of magnitude up to vmax per axis and random spins */
static mb_nodes *cluster(size_t n, int side, double vmax, unsigned long long seed)
{
    mb_nodes *s = mb_nodes_alloc(n, 53);
    for (size_t i = 0; i < n; i++) {
        double r = 0.045 + 0.01 * nb_uniform(&seed), m = RHO * 4.0 / 3.0 * M_PI * r * r * r;
        const double I[3] = { 0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r };
        mb_nodes_set_mass(s, i, m);
        mb_nodes_set_inertia(s, i, I);
        s->radius[i] = r;
        size_t c[3] = { i % (size_t)side, (i / (size_t)side) % (size_t)side,
                        i / ((size_t)side * (size_t)side) };
        for (int a = 0; a < 3; a++) {
            s->x[3 * i + a] = SPACING * ((double)c[a] + 0.5) + 0.01 * (nb_uniform(&seed) - 0.5);
            s->v[3 * i + a] = vmax * (2.0 * nb_uniform(&seed) - 1.0);
            s->omega[3 * i + a] = 20.0 * (2.0 * nb_uniform(&seed) - 1.0);
        }
    }
    return s;
}

/* the six walls of the cube [0, side * SPACING]^3, for every sphere */
static void add_walls(void *law, const mb_nodes *s, int side)
{
    double L = side * SPACING;
    for (size_t i = 0; i < s->n; i++)
        for (int a = 0; a < 3; a++)
            for (int lo = 0; lo < 2; lo++) {
                double p[3] = { 0, 0, 0 }, nrm[3] = { 0, 0, 0 };
                p[a] = lo ? 0.0 : L;
                nrm[a] = lo ? 1.0 : -1.0;
                cr_assert_eq(mb_contact_add_plane(law, s, i, p, nrm), MB_SUCCESS, "%s",
                             mb_last_error());
            }
}

static void eval(const mb_force_type *type, void *law, mb_nodes *s, double t)
{
    memset(s->f, 0, 3 * s->n * sizeof *s->f);
    memset(s->torque, 0, 3 * s->n * sizeof *s->torque);
    cr_assert_eq(type->eval(law, s, t), MB_SUCCESS, "%s", mb_last_error());
}

/* symplectic Euler of spheres: v += h f/m, w += h T/I, x += h v */
static void advance(mb_nodes *s, double h)
{
    for (size_t k = 0; k < 3 * s->n; k++) {
        s->v[k] += h * s->f[k] / s->mass[k / 3];
        s->omega[k] += h * s->torque[k] / s->inertia[k];
        s->x[k] += h * s->v[k];
    }
}

typedef void *(*law_maker)(void);

static void *cundall_strack(void)
{
    const mb_contact_linear_params p = { .kn = 1.1e4, .dashpot = MB_DASHPOT_RATIO, .zeta = 0.2 };
    const mb_contact_friction_params fr = { .mu = 0.4, .kt_ratio = 0.29, .zeta_t = 0.1,
                                            .mu_roll = 0.02 };
    return mb_contact_cundall_strack_new(&p, &fr);
}

static void *hertz_mindlin(void)
{
    const mb_contact_hertz_params p = { .estar = 2.3e6, .zeta = 0.15 };
    const mb_contact_friction_params fr = { .mu = 0.35, .kt_ratio = 0.82, .zeta_t = 0.1,
                                            .mu_roll = 0.0 };
    return mb_contact_hertz_mindlin_new(&p, &fr);
}

static void *linear(void)
{
    const mb_contact_linear_params p = { .kn = 1.1e4, .dashpot = MB_DASHPOT_RATIO, .zeta = 0.2 };
    return mb_contact_linear_new(&p);
}

/* Every sphere of s given radius 0.05 and its mass and moment of inertia: a
 * monodisperse packing, whose pairs all have the same coefficients. */
static void make_monodisperse(mb_nodes *s)
{
    const double r = 0.05, m = RHO * 4.0 / 3.0 * M_PI * r * r * r;
    const double I[3] = { 0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r };
    for (size_t i = 0; i < s->n; i++) {
        mb_nodes_set_mass(s, i, m);
        mb_nodes_set_inertia(s, i, I);
        s->radius[i] = r;
    }
}

/* The run of (1), polydisperse or monodisperse (mono 1), the neighbour mode's history in
 * place (in_place 1, mb_contact_history_in_place: each level is evaluated once here) or
 * with both levels: returns the list's builds; *contacts counts contact-steps. */
static unsigned long run_in_place_against_all_pairs(law_maker make, const mb_force_type *type,
                                                    int mono, int in_place, size_t *contacts)
{
    const int side = 5;
    const size_t n = 100;
    const double h = 2e-5;
    mb_nodes *a = cluster(n, side, 2.0, 7), *b = cluster(n, side, 2.0, 7);
    if (mono) {
        make_monodisperse(a);
        make_monodisperse(b);
    }
    void *all = make(), *near = make();
    add_walls(all, a, side);
    add_walls(near, b, side);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            cr_assert_eq(mb_contact_add_spheres(all, a, i, j), MB_SUCCESS, "%s", mb_last_error());
    mb_neighbour_list *nl = mb_neighbour_new(0.11, 0.01, NULL);
    cr_assert_eq(mb_contact_use_neighbours(near, b, nl), MB_SUCCESS, "%s", mb_last_error());
    if (in_place)
        cr_assert_eq(mb_contact_history_in_place(near, 1), MB_SUCCESS, "%s", mb_last_error());
    *contacts = 0;
    for (int step = 0; step < 1200; step++) {
        double t = step * h;
        eval(type, all, a, t);
        eval(type, near, b, t);
        cr_assert(memcmp(a->f, b->f, 3 * n * sizeof *a->f) == 0, "forces differ at step %d", step);
        cr_assert(memcmp(a->torque, b->torque, 3 * n * sizeof *a->torque) == 0,
                  "torques differ at step %d", step);
        if (type->potential) {   /* the energy hooks see the same pairs and history */
            double va = type->potential(all, a), vb = type->potential(near, b);
            cr_assert(memcmp(&va, &vb, sizeof va) == 0, "potentials differ at step %d: %.17g "
                      "and %.17g", step, va, vb);
        }
        if (type->dissipation) {
            double pa = type->dissipation(all, a), pb = type->dissipation(near, b);
            cr_assert(memcmp(&pa, &pb, sizeof pa) == 0, "dissipations differ at step %d: %.17g "
                      "and %.17g", step, pa, pb);
        }
        if (type->history_work) {   /* and book the same works */
            double wa[2], wb[2];
            type->history_work(all, &wa[0], &wa[1]);
            type->history_work(near, &wb[0], &wb[1]);
            cr_assert(memcmp(wa, wb, sizeof wa) == 0, "booked works differ at step %d: "
                      "%.17g %.17g and %.17g %.17g", step, wa[0], wa[1], wb[0], wb[1]);
        }
        *contacts += pairs_in_contact(near, b);
        advance(a, h);
        advance(b, h);
    }
    unsigned long builds = mb_neighbour_get_stats(nl).builds;
    mb_neighbour_free(nl);
    type->free(all);
    type->free(near);
    mb_nodes_free(a);
    mb_nodes_free(b);
    return builds;
}

static unsigned long run_against_all_pairs_of(law_maker make, const mb_force_type *type,
                                              int mono, size_t *contacts)
{
    return run_in_place_against_all_pairs(make, type, mono, 0, contacts);
}

static unsigned long run_against_all_pairs(law_maker make, const mb_force_type *type,
                                           size_t *contacts)
{
    return run_against_all_pairs_of(make, type, 0, contacts);
}

/* The history in place (mb_contact_history_in_place) in neighbour mode -- the rows'
 * kernel, the walls through the template, the history carried over the list's rebuilds
 * -- against all pairs with both levels kept: the same forces, torques, energies and
 * booked works bit for bit, polydisperse and monodisperse (the uniform rows' instance of
 * the benchmark). */
Test(contact_neighbours, frictional_laws_with_the_history_in_place_equal_all_pairs_bit_for_bit)
{
    static const struct { law_maker make; const mb_force_type *const *type; } laws[] = {
        { cundall_strack, &mb_force_contact_cundall_strack },
        { hertz_mindlin, &mb_force_contact_hertz_mindlin },
    };
    for (size_t k = 0; k < 2; k++)
        for (int mono = 0; mono < 2; mono++) {
            size_t contacts;
            unsigned long builds = run_in_place_against_all_pairs(laws[k].make, *laws[k].type,
                                                                  mono, 1, &contacts);
            cr_expect_geq(builds, 4, "only %lu builds", builds);
            cr_expect_geq(contacts, 1000, "only %zu contact-steps", contacts);
        }
}

/* Monodisperse: every pair of the list has the same coefficients, which the frictional
 * laws' evaluation then reads once (contact_set.h, uniform). */
Test(contact_neighbours, monodisperse_frictional_laws_equal_all_pairs_bit_for_bit)
{
    size_t contacts;
    unsigned long builds = run_against_all_pairs_of(cundall_strack,
                                                    mb_force_contact_cundall_strack, 1, &contacts);
    cr_expect_geq(builds, 4, "only %lu builds", builds);
    cr_expect_geq(contacts, 1000, "only %zu contact-steps", contacts);
    builds = run_against_all_pairs_of(hertz_mindlin, mb_force_contact_hertz_mindlin, 1,
                                      &contacts);
    cr_expect_geq(builds, 4, "only %lu builds", builds);
    cr_expect_geq(contacts, 1000, "only %zu contact-steps", contacts);
}

Test(contact_neighbours, cundall_strack_equals_all_pairs_bit_for_bit_across_rebuilds)
{
    size_t contacts;
    unsigned long builds = run_against_all_pairs(cundall_strack, mb_force_contact_cundall_strack,
                                                 &contacts);
    cr_expect_geq(builds, 4, "only %lu builds: the rebuilds are not exercised", builds);
    cr_expect_geq(contacts, 1000, "only %zu contact-steps", contacts);
}

Test(contact_neighbours, hertz_mindlin_equals_all_pairs_bit_for_bit_across_rebuilds)
{
    size_t contacts;
    unsigned long builds = run_against_all_pairs(hertz_mindlin, mb_force_contact_hertz_mindlin,
                                                 &contacts);
    cr_expect_geq(builds, 4, "only %lu builds", builds);
    cr_expect_geq(contacts, 1000, "only %zu contact-steps", contacts);
}

Test(contact_neighbours, linear_equals_all_pairs_bit_for_bit_across_rebuilds)
{
    size_t contacts;
    unsigned long builds = run_against_all_pairs(linear, mb_force_contact_linear, &contacts);
    cr_expect_geq(builds, 4, "only %lu builds", builds);
    cr_expect_geq(contacts, 1000, "only %zu contact-steps", contacts);
}

/* ---- (2) periodic box against a brute-force loop ---- */

Test(contact_neighbours, periodic_linear_forces_and_pairs_equal_brute_force)
{
    const int side = 6;
    const size_t n = 216;
    const double L[3] = { side * SPACING, side * SPACING, side * SPACING }, kn = 1.1e4;
    mb_nodes *s = cluster(n, side, 2.0, 11);
    for (size_t k = 0; k < 3 * n; k++)   /* a frame of no special alignment */
        s->x[k] += 0.3 * SPACING - 2.0 * L[k % 3];
    const mb_contact_linear_params p = { .kn = kn, .dashpot = MB_DASHPOT_COEFF, .c = 0.7 };
    void *law = mb_contact_linear_new(&p);
    mb_neighbour_list *nl = mb_neighbour_new(0.11, 0.013, L);
    cr_assert_eq(mb_contact_use_neighbours(law, s, nl), MB_SUCCESS, "%s", mb_last_error());
    eval(mb_force_contact_linear, law, s, 0.0);
    double *f = calloc(3 * n, sizeof *f), fbig = 0.0;
    size_t touching = 0, seen = 0, wrapped = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double d[3];
            nb_brute_delta(s->x, L, i, j, d);
            double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double delta = s->radius[i] + s->radius[j] - l;
            if (!(delta > 0.0))
                continue;
            touching++;
            wrapped += fabs(s->x[3 * j] - s->x[3 * i] - d[0]) > 0.5 * L[0];
            double rate = 0.0;
            for (int a = 0; a < 3; a++)
                rate -= (s->v[3 * j + a] - s->v[3 * i + a]) * d[a] / l;
            double F = fmax(0.0, kn * delta + 0.7 * rate);
            for (int a = 0; a < 3; a++) {
                f[3 * i + a] -= F * d[a] / l;
                f[3 * j + a] += F * d[a] / l;
            }
            fbig = fmax(fbig, F);
        }
    for (size_t m = 0; m < mb_contact_count(law); m++) {
        size_t i, j;
        int plane;
        double delta, rate, nn[3], d[3];
        mb_contact_pair_nodes(law, m, &i, &j, &plane);
        mb_contact_kinematics(law, m, s, &delta, &rate, nn);
        nb_brute_delta(s->x, L, i, j, d);
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        cr_expect_eq(delta > 0.0, s->radius[i] + s->radius[j] - l > 0.0,
                     "pair %zu-%zu: in contact for the model %d, for brute force %d", i, j,
                     delta > 0.0, s->radius[i] + s->radius[j] - l > 0.0);
        seen += delta > 0.0;
    }
    cr_assert_gt(touching, 50, "only %zu pairs in contact", touching);
    cr_assert_gt(wrapped, 0, "no contact across the periodic boundary");
    cr_expect_eq(seen, touching, "pairs in contact: model %zu, brute force %zu", seen, touching);
    for (size_t k = 0; k < 3 * n; k++)
        cr_expect(fabs(s->f[k] - f[k]) <= 64.0 * DBL_EPSILON * fbig,
                  "f[%zu] = %.17g, brute force %.17g", k, s->f[k], f[k]);
    free(f);
    mb_neighbour_free(nl);
    mb_force_contact_linear->free(law);
    mb_nodes_free(s);
}

/* ---- (3) negative controls ---- */

Test(contact_neighbours, cutoff_below_the_largest_contact_distance_is_refused)
{
    mb_nodes *s = cluster(27, 3, 0.0, 5);
    void *law = linear();
    mb_neighbour_list *nl = mb_neighbour_new(0.105, 0.01, NULL);   /* 2 r_max is up to 0.11 */
    cr_expect_eq(mb_contact_use_neighbours(law, s, nl), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "2 r_max") != NULL, "%s", mb_last_error());
    mb_neighbour_free(nl);
    mb_force_contact_linear->free(law);
    mb_nodes_free(s);
}

Test(contact_neighbours, skin_too_small_for_a_frozen_list_is_detected)
{
    /* the list built once and not updated: after a sphere moved by more than skin/2
     * towards another, the checked mode must name the missing pair */
    mb_nodes *s = cluster(27, 3, 0.0, 5);
    mb_neighbour_list *nl = mb_neighbour_new(0.11, 0.002, NULL);
    cr_assert_eq(mb_neighbour_build(nl, s->x, s->n), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(mb_neighbour_verify(nl, s->x, s->n), MB_SUCCESS, "%s", mb_last_error());
    for (int a = 0; a < 3; a++)   /* sphere 0 moved to 0.09 from sphere 2 (0.21 at the build) */
        s->x[a] = s->x[6 + a] - (a == 0 ? 0.09 : 0.0);
    cr_expect(mb_neighbour_stale(nl, s->x, s->n));
    cr_expect_eq(mb_neighbour_verify(nl, s->x, s->n), MB_EFAILED);
    mb_neighbour_free(nl);
    mb_nodes_free(s);
}

Test(contact_neighbours, pairs_by_hand_and_late_walls_are_refused)
{
    mb_nodes *s = cluster(27, 3, 0.0, 5);
    void *law = cundall_strack();
    mb_neighbour_list *nl = mb_neighbour_new(0.11, 0.01, NULL);
    cr_assert_eq(mb_contact_use_neighbours(law, s, nl), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(mb_contact_add_spheres(law, s, 0, 1), MB_EINVAL);
    const double p[3] = { 0, 0, 0 }, nrm[3] = { 0, 0, 1 };
    cr_expect_eq(mb_contact_add_plane(law, s, 0, p, nrm), MB_EINVAL);
    cr_expect_eq(mb_contact_use_neighbours(law, s, nl), MB_EINVAL);
    mb_neighbour_free(nl);
    mb_force_contact_cundall_strack->free(law);
    mb_nodes_free(s);
}

/* ---- (4) a sheared deforming cell: images displaced by H p and moving at L H p ---- */

/* the model's forces at s against the brute force in the cell of sides H, gradient L */
static void expect_cell_forces(void *law, mb_nodes *s, const double H[9], const double L[9],
                               double kn, double c, double Lc)
{
    size_t n = s->n;
    eval(mb_force_contact_linear, law, s, 0.0);
    double *f = calloc(3 * n, sizeof *f), fbig = 0.0;
    size_t touching = 0, moving_images = 0, seen = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double d[3], per[3] = { 0, 0, 0 }, vimg[3];
            double l = nb_nearest_image(H, s->x, i, j, d, per);
            double delta = s->radius[i] + s->radius[j] - l;
            if (!(delta > 0.0))
                continue;
            touching++;
            /* the image moves at v_j + L H p; L has only L_xz: + (L_xz (H p)_z, 0, 0) */
            double hp2 = H[6] * per[0] + H[7] * per[1] + H[8] * per[2];   /* (H p)_z */
            for (int a = 0; a < 3; a++)
                vimg[a] = s->v[3 * j + a];
            vimg[0] += L[2] * hp2;
            moving_images += hp2 != 0.0;
            double rate = 0.0;
            for (int a = 0; a < 3; a++)
                rate -= (vimg[a] - s->v[3 * i + a]) * d[a] / l;
            double F = fmax(0.0, kn * delta + c * rate);
            for (int a = 0; a < 3; a++) {
                f[3 * i + a] -= F * d[a] / l;
                f[3 * j + a] += F * d[a] / l;
            }
            fbig = fmax(fbig, F);
        }
    seen += pairs_in_contact(law, s);
    cr_assert_gt(touching, 50, "only %zu pairs in contact", touching);
    cr_assert_gt(moving_images, 3, "too few contacts with a moving image (%zu)", moving_images);
    cr_expect_eq(seen, touching, "pairs in contact: model %zu, brute force %zu", seen, touching);
    double tol = 64.0 * DBL_EPSILON * fbig + 8.0 * DBL_EPSILON * kn * Lc;
    for (size_t k = 0; k < 3 * n; k++)
        cr_expect(fabs(s->f[k] - f[k]) <= tol, "f[%zu] = %.17g, brute force %.17g", k, s->f[k],
                  f[k]);
    free(f);
}

Test(contact_neighbours, sheared_cell_linear_forces_equal_brute_force_with_image_velocities)
{
    /* tolerance: the separation is summed by other operations than the brute force's
     * (rounding H^-1 d vs trying every p), a few u |x| apart, |x| <= 2 L_cell; the force
     * then differs by kn 8 u L_cell, plus 64 u F_max for the sums over a sphere's pairs.
     * Evaluated twice: as built, then after a shear increment too small for a rebuild
     * (the images' shifts must follow the cell between builds). */
    const int side = 6;
    const size_t n = 216;
    const double Lc = side * SPACING, kn = 1.1e4, c = 0.7;
    double H[9] = { Lc, 0.0, 0.31 * Lc, 0.0, Lc, 0.0, 0.0, 0.0, Lc };
    const double L[9] = { 0.0, 0.0, 3.7, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };   /* v_x = 3.7 z */
    mb_cell *cell = mb_cell_new(H, L);
    cr_assert_not_null(cell, "%s", mb_last_error());
    mb_nodes *s = cluster(n, side, 0.5, 13);
    const mb_contact_linear_params p = { .kn = kn, .dashpot = MB_DASHPOT_COEFF, .c = c };
    void *law = mb_contact_linear_new(&p);
    mb_neighbour_list *nl = mb_neighbour_new_cell(0.11, 0.013, cell);
    cr_assert_not_null(nl, "%s", mb_last_error());
    cr_assert_eq(mb_contact_use_neighbours(law, s, nl), MB_SUCCESS, "%s", mb_last_error());
    expect_cell_forces(law, s, H, L, kn, c, Lc);
    H[2] = cell->H[2] = 0.31 * Lc + 0.004;   /* images move 0.004 < skin/2: no rebuild */
    expect_cell_forces(law, s, H, L, kn, c, Lc);
    cr_expect_eq(mb_neighbour_get_stats(nl).builds, 1, "the shear increment rebuilt the list");
    mb_neighbour_free(nl);
    mb_force_contact_linear->free(law);
    mb_nodes_free(s);
    mb_cell_free(cell);
}

/* ---- (4) periodic images in the frictional rows' kernel ----
 * Expected values: a cluster that needs no image, inside a periodic box or a sheared
 * cell of side 1 with a gap wider than cutoff + skin around it, against the same cluster
 * with most spheres moved by -2 to +2 periods (H e_a: a box side, or a column of the
 * sheared cell, whose image then moves at L H e_a: the moved sphere's velocity takes
 * that too, as a Lees-Edwards image's).  Positions, velocities, H and L are multiples of
 * 2^-24, so x_j + k H e_a - x_i + H p and the velocities with their image's L H p are
 * exact: every pair has the same separation and relative velocity bit for bit whether
 * it is found directly or through an image, the pairs come in the same (i, j) order,
 * and so the forces and torques must be equal bit for bit (tolerance 0).  The moved
 * cluster's imaged pairs read their shift from the set's image table (periods within
 * +-1) or from their record (+-2); in the sheared cell the cell is sheared again between
 * builds (the moved spheres with it), so the table must follow it. */

static double dyadic(double x)
{
    return ldexp(nearbyint(ldexp(x, 24)), -24);
}

/* Pairs of b within reach of each other only through an image (raw separation above
 * half a period), and of those the ones two periods or more apart. */
static void count_imaged_contacts(void *law, const mb_nodes *s, size_t *imaged, size_t *far)
{
    *imaged = *far = 0;
    for (size_t m = 0; m < mb_contact_count(law); m++) {
        size_t i, j;
        int plane;
        double delta, rate, nn[3], raw = 0.0;
        mb_contact_pair_nodes(law, m, &i, &j, &plane);
        mb_contact_kinematics(law, m, s, &delta, &rate, nn);
        for (int a = 0; a < 3; a++)
            raw = fmax(raw, fabs(s->x[3 * j + a] - s->x[3 * i + a]));
        *imaged += delta > 0.0 && raw > 0.5;
        *far += delta > 0.0 && raw > 1.5;
    }
}

static void images_against_none(law_maker make, const mb_force_type *type, int mono,
                                 int sheared)
{
    const size_t n = 100;
    const double h = 2e-5, box[3] = { 1.0, 1.0, 1.0 };
    double H[9] = { 1.0, 0.0, sheared ? 0.25 : 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0 };
    const double L[9] = { 0.0, 0.0, sheared ? 3.5 : 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
    mb_cell *cell = sheared ? mb_cell_new(H, L) : NULL;
    mb_nodes *a = cluster(n, 5, 2.0, 17), *b = cluster(n, 5, 2.0, 17);
    if (mono) {
        make_monodisperse(a);
        make_monodisperse(b);
    }
    for (size_t k = 0; k < 3 * n; k++) {
        a->x[k] = b->x[k] = dyadic(a->x[k] + 0.2);
        a->v[k] = b->v[k] = dyadic(a->v[k]);
    }
    for (size_t i = 0; i < n; i++) {   /* sphere i by k H e_ax periods */
        const int k = (int)(i % 5) - 2, ax = (int)(i / 5) % 3;
        for (int c = 0; c < 3; c++) {
            b->x[3 * i + c] += k * H[3 * c + ax];
            b->v[3 * i + c] += k * (L[3 * c] * H[ax] + L[3 * c + 1] * H[3 + ax]
                                    + L[3 * c + 2] * H[6 + ax]);
        }
    }
    void *la = make(), *lb = make();
    mb_neighbour_list *na = sheared ? mb_neighbour_new_cell(0.11, 0.013, cell)
                                    : mb_neighbour_new(0.11, 0.013, box);
    mb_neighbour_list *nb = sheared ? mb_neighbour_new_cell(0.11, 0.013, cell)
                                    : mb_neighbour_new(0.11, 0.013, box);
    cr_assert_eq(mb_contact_use_neighbours(la, a, na), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_contact_use_neighbours(lb, b, nb), MB_SUCCESS, "%s", mb_last_error());
    for (int level = 0; level < 3; level++) {
        if (level == 2 && sheared) {   /* sheared again by 2^-10 (no rebuild): the spheres
                                        * moved by k H e_z move with their periods */
            cell->H[2] += 0x1.0p-10;
            for (size_t i = 0; i < n; i++)
                if ((i / 5) % 3 == 2)
                    b->x[3 * i] += ((int)(i % 5) - 2) * 0x1.0p-10;
        }
        eval(type, la, a, level * h);
        eval(type, lb, b, level * h);
        cr_assert(memcmp(a->f, b->f, 3 * n * sizeof *a->f) == 0, "forces differ at level %d",
                  level);
        cr_assert(memcmp(a->torque, b->torque, 3 * n * sizeof *a->torque) == 0,
                  "torques differ at level %d", level);
    }
    size_t imaged, far, none, none_far, contacts = 0;
    count_imaged_contacts(la, a, &none, &none_far);
    count_imaged_contacts(lb, b, &imaged, &far);
    contacts = pairs_in_contact(la, a);
    cr_expect_eq(none, 0, "the cluster without images has %zu imaged contacts", none);
    cr_expect_gt(contacts, 25, "only %zu contacts", contacts);
    cr_expect_gt(imaged, 20, "only %zu contacts through an image", imaged);
    cr_expect_gt(far, 5, "only %zu contacts through an image two periods or more away", far);
    cr_expect_eq(mb_neighbour_get_stats(nb).builds, 1, "the list was rebuilt");
    mb_neighbour_free(na);
    mb_neighbour_free(nb);
    type->free(la);
    type->free(lb);
    mb_nodes_free(a);
    mb_nodes_free(b);
    mb_cell_free(cell);
}

Test(contact_neighbours, frictional_images_in_a_periodic_box_equal_no_images_bit_for_bit)
{
    for (int mono = 0; mono < 2; mono++) {
        images_against_none(cundall_strack, mb_force_contact_cundall_strack, mono, 0);
        images_against_none(hertz_mindlin, mb_force_contact_hertz_mindlin, mono, 0);
    }
}

Test(contact_neighbours, frictional_images_in_a_sheared_cell_equal_no_images_bit_for_bit)
{
    for (int mono = 0; mono < 2; mono++) {
        images_against_none(cundall_strack, mb_force_contact_cundall_strack, mono, 1);
        images_against_none(hertz_mindlin, mb_force_contact_hertz_mindlin, mono, 1);
    }
}
