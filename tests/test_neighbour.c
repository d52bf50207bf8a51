/* test_neighbour.c -- the neighbour list (mb_neighbour.h) against the brute-force double loop
 * over all pairs, written here independently (its own minimum image with round()).
 *
 * Expected values: the list must hold exactly the pairs i < j with |x_j - x_i| < cutoff +
 * skin at the build, in (i, j) lexicographic order, so a force summed over the list (pairs
 * closer than the cutoff) equals the brute-force sum bit for bit (same operations, same
 * order: tolerance 0).  While no particle moved more than skin/2, no pair closer than the
 * cutoff may be missing (triangle inequality); the negative controls move particles beyond
 * that without a rebuild and require the displacement check and the checked mode to fire.
 * Cost: at fixed density the distances computed per particle by a build are set by the
 * bins (27 bins of side w >= cutoff + skin, rho 27 w^3 / 2 candidates j > i), not by n;
 * checked at n = 8000 and 64000 (cost_is_linear_in_n states the tolerance). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_neighbour.h"
#include "mb_status.h"
#include "neighbour_brute.h"

static double *random_positions(size_t n, const double L[3], unsigned long long seed)
{
    double *x = malloc(3 * n * sizeof *x);
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            x[3 * i + a] = L[a] * nb_uniform(&seed);
    return x;
}

static double brute_r2(const double *x, const double *L, size_t i, size_t j)
{
    double d[3];
    nb_brute_delta(x, L, i, j, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* pairs (i < j) closer than r, lexicographic; returns their number, fills p (2 per pair) */
static size_t brute_pairs(const double *x, size_t n, const double *L, double r, size_t *p)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (brute_r2(x, L, i, j) < r * r) {
                if (p) {
                    p[2 * k] = i;
                    p[2 * k + 1] = j;
                }
                k++;
            }
    return k;
}

static void expect_same_pairs(const double *x, size_t n, const double *L, double rc, double skin)
{
    mb_neighbour_list *nl = mb_neighbour_new(rc, skin, L);
    cr_assert_not_null(nl, "%s", mb_last_error());
    cr_assert_eq(mb_neighbour_build(nl, x, n), MB_SUCCESS, "%s", mb_last_error());
    size_t np = brute_pairs(x, n, L, rc + skin, NULL);
    size_t *p = malloc((2 * np + 2) * sizeof *p);
    brute_pairs(x, n, L, rc + skin, p);
    cr_assert_eq(mb_neighbour_count(nl), np, "pairs: list %zu, brute force %zu",
                 mb_neighbour_count(nl), np);
    const size_t *first = mb_neighbour_first(nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(nl);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t q = first[i]; q < first[i + 1]; q++, k++)
            cr_assert(p[2 * k] == i && p[2 * k + 1] == neigh[q],
                      "pair %zu: list (%zu, %zu), brute force (%zu, %zu)", k, i, neigh[q],
                      p[2 * k], p[2 * k + 1]);
    free(p);
    mb_neighbour_free(nl);
}

Test(neighbour, periodic_pairs_equal_brute_force)
{
    const double L[3] = {7.385, 6.91, 8.237};
    double *x = random_positions(600, L, 11);
    /* some particles outside the box: the list must wrap them itself */
    for (size_t i = 0; i < 600; i += 7)
        x[3 * i] += (i % 2 ? 3.0 : -2.0) * L[0];
    expect_same_pairs(x, 600, L, 2.5, 0.3);
    free(x);
}

Test(neighbour, periodic_two_bins_per_axis)
{
    /* range 2.8: 5.9 / 2.8 gives 2 bins on x and 1 on z -- each neighbouring bin once */
    const double L[3] = {5.9, 8.71, 5.65};
    double *x = random_positions(300, L, 5);
    expect_same_pairs(x, 300, L, 2.5, 0.3);
    const double L1[3] = {5.65, 5.65, 5.65};
    double *y = random_positions(100, L1, 6);
    expect_same_pairs(y, 100, L1, 2.5, 0.3);
    free(x);
    free(y);
}

Test(neighbour, open_pairs_equal_brute_force)
{
    const double L[3] = {12.3, 4.1, 9.7};
    double *x = random_positions(500, L, 23);
    expect_same_pairs(x, 500, NULL, 1.385, 0.2);
    /* a sparse set: bins are capped at 2 n + 27, wider than cutoff + skin */
    const double W[3] = {400.0, 350.0, 390.0};
    double *y = random_positions(50, W, 29);
    for (size_t i = 0; i < 10; i++)   /* a cluster, so some pairs exist */
        for (int a = 0; a < 3; a++)
            y[3 * i + a] = 100.0 + 0.4 * (double)((i + (size_t)a) % 5);
    expect_same_pairs(y, 50, NULL, 1.385, 0.2);
    free(x);
    free(y);
}

/* a Lennard-Jones-like pair force (test-local): f_i += g(r^2) d, f_j -= g(r^2) d */
static void pair_force(const double d[3], double r2, double *fi, double *fj)
{
    double s6 = 1.0 / (r2 * r2 * r2);
    double g = -24.0 * s6 * (2.0 * s6 - 1.0) / r2;
    for (int a = 0; a < 3; a++) {
        fi[a] += g * d[a];
        fj[a] -= g * d[a];
    }
}

Test(neighbour, forces_bit_for_bit)
{
    const double L[3] = {8.1, 8.1, 8.1};
    const size_t n = 400;
    const double rc = 2.5;
    double *x = random_positions(n, L, 3);
    double *f_brute = calloc(3 * n, sizeof(double)), *f_list = calloc(3 * n, sizeof(double));
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double d[3];
            nb_brute_delta(x, L, i, j, d);
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (r2 < rc * rc)
                pair_force(d, r2, f_brute + 3 * i, f_brute + 3 * j);
        }
    mb_neighbour_list *nl = mb_neighbour_new(rc, 0.4, L);
    cr_assert_eq(mb_neighbour_build(nl, x, n), MB_SUCCESS);
    const size_t *first = mb_neighbour_first(nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(nl);
    for (size_t i = 0; i < n; i++)
        for (size_t q = first[i]; q < first[i + 1]; q++) {
            double d[3];
            mb_neighbour_delta(nl, x, i, neigh[q], d);
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (r2 < rc * rc)
                pair_force(d, r2, f_list + 3 * i, f_list + 3 * neigh[q]);
        }
    cr_expect(memcmp(f_brute, f_list, 3 * n * sizeof(double)) == 0,
              "forces summed over the list differ from the all-pairs sum");
    free(x);
    free(f_brute);
    free(f_list);
    mb_neighbour_free(nl);
}

/* A random walk of steps <= 0.03 per axis: update each step and check, against brute
 * force, that no pair closer than the cutoff is missing.  Rebuilds must happen (the walk
 * crosses skin/2 = 0.1 after a few steps) but not at every step; no allocation after the
 * first build. */
Test(neighbour, displacement_criterion_keeps_every_pair)
{
    const double L[3] = {7.0, 7.5, 6.8};
    const size_t n = 250;
    const double rc = 1.5, skin = 0.2;
    double *x = random_positions(n, L, 77);
    unsigned long long seed = 99;
    mb_neighbour_list *nl = mb_neighbour_new(rc, skin, L);
    cr_assert_eq(mb_neighbour_update(nl, x, n, NULL), MB_SUCCESS);
    cr_assert_eq(mb_neighbour_verify(nl, x, n), MB_SUCCESS);   /* its bins allocated once */
    unsigned long alloc0 = mb_neighbour_get_stats(nl).allocations;
    int rebuilds = 0;
    for (int step = 0; step < 60; step++) {
        for (size_t k = 0; k < 3 * n; k++)
            x[k] += 0.06 * (nb_uniform(&seed) - 0.5);
        int rebuilt;
        cr_assert_eq(mb_neighbour_update(nl, x, n, &rebuilt), MB_SUCCESS);
        rebuilds += rebuilt;
        const size_t *first = mb_neighbour_first(nl);
        const mb_neighbour_index *neigh = mb_neighbour_neigh(nl);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                if (!(brute_r2(x, L, i, j) < rc * rc))
                    continue;
                int found = 0;
                for (size_t q = first[i]; q < first[i + 1]; q++)
                    found |= neigh[q] == j;
                cr_assert(found, "step %d: pair (%zu, %zu) within the cutoff is missing", step,
                          i, j);
            }
        cr_assert_eq(mb_neighbour_verify(nl, x, n), MB_SUCCESS, "%s", mb_last_error());
    }
    cr_expect(rebuilds > 3 && rebuilds < 60, "rebuilds: %d of 60 steps", rebuilds);
    cr_expect_eq(mb_neighbour_get_stats(nl).allocations, alloc0,
                 "the list reallocated after its first build");
    free(x);
    mb_neighbour_free(nl);
}

/* NEGATIVE CONTROL: two particles 0.05 outside cutoff + skin approach by 0.4 > skin with
 * no rebuild: the pair, now inside the cutoff, is missing.  The displacement check must
 * say stale, and the checked mode must name the pair; update must then rebuild. */
Test(neighbour, skin_too_small_is_detected)
{
    const double L[3] = {10.0, 10.0, 10.0};
    const double rc = 2.0, skin = 0.3;
    double x[9] = {2.0, 5.0, 5.0, 2.0 + rc + skin + 0.05, 5.0, 5.0, 8.0, 8.0, 8.0};
    mb_neighbour_list *nl = mb_neighbour_new(rc, skin, L);
    cr_assert_eq(mb_neighbour_build(nl, x, 3), MB_SUCCESS);
    cr_assert_eq(mb_neighbour_count(nl), 0);
    cr_assert_eq(mb_neighbour_stale(nl, x, 3), 0);
    x[0] += 0.2;
    x[3] -= 0.2;   /* each moved 0.2 > skin/2: the pair is at rc - 0.05 */
    cr_expect_eq(mb_neighbour_stale(nl, x, 3), 1, "the displacement check did not fire");
    cr_expect_eq(mb_neighbour_verify(nl, x, 3), MB_EFAILED, "the missing pair was not seen");
    cr_expect(strstr(mb_last_error(), "pair (0, 1)") != NULL, "message: %s", mb_last_error());
    int rebuilt;
    cr_assert_eq(mb_neighbour_update(nl, x, 3, &rebuilt), MB_SUCCESS);
    cr_expect_eq(rebuilt, 1);
    cr_expect_eq(mb_neighbour_count(nl), 1);
    cr_expect_eq(mb_neighbour_verify(nl, x, 3), MB_SUCCESS, "%s", mb_last_error());
    /* across the periodic boundary: 0.1 and 9.9 are 0.2 apart */
    double y[6] = {0.1, 1.0, 1.0, 9.9 - rc, 1.0, 1.0};
    cr_assert_eq(mb_neighbour_build(nl, y, 2), MB_SUCCESS);
    cr_expect_eq(mb_neighbour_count(nl), 1, "the periodic image pair was not listed");
    mb_neighbour_free(nl);
}

/* Exactly skin/2 is not stale; the smallest move beyond is. */
Test(neighbour, stale_threshold_is_half_the_skin)
{
    const double skin = 0.25;   /* skin/2 = 0.125, exact in binary */
    double x[3] = {1.0, 2.0, 3.0};
    mb_neighbour_list *nl = mb_neighbour_new(1.0, skin, NULL);
    cr_assert_eq(mb_neighbour_build(nl, x, 1), MB_SUCCESS);
    x[1] += 0.125;
    cr_expect_eq(mb_neighbour_stale(nl, x, 1), 0);
    x[1] = nextafter(x[1], 3.0);
    cr_expect_eq(mb_neighbour_stale(nl, x, 1), 1);
    cr_expect_eq(mb_neighbour_stale(nl, x, 2), 1, "a change of n must be stale");
    mb_neighbour_free(nl);
}

/* Distances computed per particle by a build at density rho, against the bin geometry:
 * i is compared with the j > i of its 27 bins of side w, on average rho 27 w^3 / 2 of them
 * (half of the stencil's particles).  Random placement fluctuates by ~ 1/sqrt(rho 27 w^3)
 * ~ 4 % per particle and much less on the average over n: tolerance 10 %. */
static void expect_cost_of_bins(size_t n)
{
    const double rho = 0.8442;   /* the usual LJ liquid density */
    double side = cbrt((double)n / rho);
    const double L[3] = {side, side, side};
    double *x = random_positions(n, L, 1234);
    mb_neighbour_list *nl = mb_neighbour_new(2.5, 0.3, L);
    cr_assert_eq(mb_neighbour_build(nl, x, n), MB_SUCCESS);
    mb_neighbour_stats st = mb_neighbour_get_stats(nl);
    double w = side / (double)st.bins[0], expected = rho * 27.0 * w * w * w / 2.0;
    double per = (double)st.candidates / (double)n;
    cr_log_info("n = %zu: bins %zu^3 of side %.3f, %lu distances, %zu pairs, %.1f distances"
                " per particle (bins predict %.1f)", n, st.bins[0], w, st.candidates, st.pairs,
                per, expected);
    cr_expect(st.bins[0] >= 3, "n = %zu: too few bins for the test", n);
    cr_expect(fabs(per / expected - 1.0) < 0.1, "n = %zu: %.1f distances per particle, bins "
              "predict %.1f", n, per, expected);
    /* all pairs would be (n - 1)/2 per particle */
    cr_expect(per < 0.1 * (double)(n - 1) / 2.0);
    free(x);
    mb_neighbour_free(nl);
}

/* The cost per particle is set by the bins, not by n: O(n) builds. */
Test(neighbour, cost_is_linear_in_n)
{
    expect_cost_of_bins(8000);
    expect_cost_of_bins(64000);
}

Test(neighbour, bad_parameters)
{
    const double small[3] = {5.0, 5.0, 5.2};
    cr_expect_null(mb_neighbour_new(0.0, 0.1, NULL));
    cr_expect_null(mb_neighbour_new(NAN, 0.1, NULL));
    cr_expect_null(mb_neighbour_new(1.0, -0.1, NULL));
    cr_expect_null(mb_neighbour_new(2.5, 0.1, small));   /* 5.0 <= 2 (2.5 + 0.1) */
    cr_expect(strstr(mb_last_error(), "periodic side 0") != NULL, "%s", mb_last_error());
    mb_neighbour_list *nl = mb_neighbour_new(1.0, 0.1, NULL);
    double x[6] = {0.0, 0.0, 0.0, 1.0, NAN, 0.0};
    cr_expect_eq(mb_neighbour_build(nl, x, 2), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "particle 1") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_neighbour_verify(nl, x, 2), MB_EINVAL);
    mb_neighbour_free(nl);
    mb_neighbour_free(NULL);
}

/* The neighbour indices are 32 bits: a build of more particles than they hold is refused
 * before x is read (x here holds 2 particles: reading the 2^32 + 0 particles claimed
 * would fault), naming the count, and the list of the last build is kept. */
Test(neighbour, more_particles_than_32_bit_indices_refused)
{
    mb_neighbour_list *nl = mb_neighbour_new(1.0, 0.1, NULL);
    const double x[6] = {0.0, 0.0, 0.0, 0.5, 0.0, 0.0};
    cr_assert_eq(mb_neighbour_build(nl, x, 2), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(mb_neighbour_build(nl, x, MB_NEIGHBOUR_MAX_N + 1), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "4294967296 particles") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_neighbour_count(nl), 1);
    cr_expect_eq(mb_neighbour_first(nl)[1], 1);
    cr_expect_eq(mb_neighbour_neigh(nl)[0], 1);
    mb_neighbour_free(nl);
}
