/* test_neighbour_cell.c -- the neighbour list in a deforming periodic cell
 * (mb_neighbour_new_cell) against a brute-force search written here: for every pair the
 * nearest image over all periods p in {-2..2}^3 (no rounding, no bins).
 *
 * Expected values: the list holds exactly the pairs with a nearest image closer than
 * cutoff + skin, in (i, j) order, and mb_neighbour_delta is that image (to 8 u L: the
 * same sum of x_j - x_i and H p by other operations).  Under a shear of the cell with the
 * particles held, the images move by dH p; the rebuild criterion must count that motion
 * (mb_neighbour.h), so after every update the checked mode finds no pair closer than the
 * cutoff missing -- the negative control is the criterion without the cell's motion,
 * under which the same shear leaves pairs out (tests/mutants/catalogue). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_cell.h"
#include "mb_neighbour.h"
#include "mb_status.h"
#include "neighbour_brute.h"

/* x = H s for s uniform in [0, 1)^3 */
static double *positions_in(const double H[9], size_t n, unsigned long long seed)
{
    double *x = malloc(3 * n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        double s[3] = { nb_uniform(&seed), nb_uniform(&seed), nb_uniform(&seed) };
        for (int a = 0; a < 3; a++)
            x[3 * i + a] = H[3 * a] * s[0] + H[3 * a + 1] * s[1] + H[3 * a + 2] * s[2];
    }
    return x;
}

/* a cell sheared by gamma in x along z and by 0.13 in y along x */
static mb_cell *sheared_cell(double gamma)
{
    const double H[9] = { 1.1, 0.0, gamma * 1.3, 0.13 * 1.1, 1.2, 0.0, 0.0, 0.0, 1.3 };
    const double L[9] = { 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
    mb_cell *c = mb_cell_new(H, L);
    cr_assert_not_null(c, "%s", mb_last_error());
    return c;
}

Test(neighbour_cell, sheared_cell_pairs_equal_brute_force)
{
    const size_t n = 900;
    const double rc = 0.11, skin = 0.02;
    mb_cell *c = sheared_cell(0.37);
    double *x = positions_in(c->H, n, 3);
    for (size_t k = 0; k < 3 * n; k++)   /* unwrapped positions: some images shifted */
        x[k] += (k % 7 == 0) ? c->H[3 * (k % 3) + 2] : 0.0;
    mb_neighbour_list *nl = mb_neighbour_new_cell(rc, skin, c);
    cr_assert_not_null(nl, "%s", mb_last_error());
    cr_assert_eq(mb_neighbour_update(nl, x, n, NULL), MB_SUCCESS, "%s", mb_last_error());
    const size_t *first = mb_neighbour_first(nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(nl);
    size_t expected = 0, wrapped = 0;
    for (size_t i = 0; i < n; i++) {
        size_t q = first[i];
        for (size_t j = i + 1; j < n; j++) {
            double d[3], e[3];
            double r = nb_nearest_image(c->H, x, i, j, d, NULL);
            if (!(r < rc + skin))
                continue;
            expected++;
            cr_assert(q < first[i + 1] && neigh[q] == j, "pair %zu-%zu at %.17g missing or "
                      "out of order", i, j, r);
            q++;
            mb_neighbour_delta(nl, x, i, j, e);
            for (int a = 0; a < 3; a++)
                cr_expect(fabs(e[a] - d[a]) <= 8.0 * DBL_EPSILON * 2.0,
                          "pair %zu-%zu axis %d: delta %.17g, nearest image %.17g", i, j, a,
                          e[a], d[a]);
            wrapped += fabs(x[3 * j] - x[3 * i] - d[0]) > 0.3;
        }
        cr_assert_eq(q, first[i + 1], "row %zu holds extra pairs", i);
    }
    cr_assert_gt(expected, 200, "only %zu pairs", expected);
    cr_assert_gt(wrapped, 10, "too few pairs across the boundary (%zu)", wrapped);
    mb_neighbour_free(nl);
    mb_cell_free(c);
    free(x);
}

Test(neighbour_cell, shear_of_the_cell_with_particles_held_keeps_every_pair)
{
    const size_t n = 600;
    const double rc = 0.11, skin = 0.03;
    mb_cell *c = sheared_cell(0.0);
    double *x = positions_in(c->H, n, 9);
    mb_neighbour_list *nl = mb_neighbour_new_cell(rc, skin, c);
    cr_assert_not_null(nl, "%s", mb_last_error());
    for (int step = 0; step <= 60; step++) {
        c->H[2] = 1.3 * 0.005 * step;   /* shear strain up to 0.3, images move up to 0.39 */
        cr_assert_eq(mb_neighbour_update(nl, x, n, NULL), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_neighbour_verify(nl, x, n), MB_SUCCESS, "step %d: %s", step,
                     mb_last_error());
    }
    cr_expect_geq(mb_neighbour_get_stats(nl).builds, 10, "the shear never rebuilt the list");
    mb_neighbour_free(nl);
    mb_cell_free(c);
    free(x);
}

Test(neighbour_cell, cell_too_thin_is_refused)
{
    mb_cell *c = sheared_cell(0.0);
    mb_neighbour_list *nl = mb_neighbour_new_cell(0.5, 0.1, c);   /* 2 (rc + skin) = 1.2 */
    cr_expect_null(nl);
    cr_expect(strstr(mb_last_error(), "width") != NULL, "%s", mb_last_error());
    nl = mb_neighbour_new_cell(0.2, 0.05, c);
    cr_assert_not_null(nl, "%s", mb_last_error());
    double x[6] = { 0.1, 0.1, 0.1, 0.2, 0.2, 0.2 };
    c->H[2] = 1.3 * 3.0;              /* sheared to a strain of 3: width in x ~ 0.35 */
    cr_expect_eq(mb_neighbour_update(nl, x, 2, NULL), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "deformed too far") != NULL, "%s", mb_last_error());
    mb_neighbour_free(nl);
    mb_cell_free(c);
}
