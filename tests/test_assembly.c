/* test_assembly.c -- the generators of many-body initial states (mb_assembly.h).
 *
 * Expected values from the geometry, not from the generators: lattice site counts and
 * nearest-neighbour distances a, a sqrt(3)/2, a/sqrt(2) (closed forms; tolerance 4 u a,
 * the sites being a few roundings of a (cell + basis)); a packing checked pair by pair by
 * a brute-force loop written here (no overlap, tolerance 0: the generator refuses a gap
 * below r_i + r_j in the same arithmetic, so a gap may equal it but never fall short by
 * more than the rounding of the minimum image, 4 u L), walls respected, the fraction
 * recomputed from the radii; the same seed gives the same packing bit for bit, another
 * seed another one; an unreachable fraction is refused naming why.  Velocities: zero
 * total momentum (to 64 u sum m |v|) and the temperature T (to 64 u T). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_assembly.h"
#include "mb_status.h"

static double nearest_distance(const double *x, size_t n)
{
    double best = INFINITY;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double d2 = 0.0;
            for (int a = 0; a < 3; a++)
                d2 += (x[3 * j + a] - x[3 * i + a]) * (x[3 * j + a] - x[3 * i + a]);
            best = fmin(best, sqrt(d2));
        }
    return best;
}

Test(assembly, lattices_have_their_counts_and_nearest_distances)
{
    const size_t cells[3] = { 3, 4, 2 };
    const double a = 1.37, off[3] = { 0.25, 0.25, 0.25 };
    const double dnn[3] = { a, a * sqrt(3.0) / 2.0, a / sqrt(2.0) };
    for (int k = 0; k < 3; k++) {
        size_t n = mb_lattice_basis((mb_lattice_kind)k) * 24;
        double *x = malloc(3 * n * sizeof *x);
        cr_assert_eq(mb_lattice_sites((mb_lattice_kind)k, cells, a, off, x), MB_SUCCESS);
        cr_expect(fabs(nearest_distance(x, n) - dnn[k]) <= 4.0 * DBL_EPSILON * a * 4.0,
                  "kind %d: nearest %.17g, expected %.17g", k, nearest_distance(x, n), dnn[k]);
        for (size_t q = 0; q < 3 * n; q++)
            cr_expect(x[q] >= 0.25 * a && x[q] < cells[q % 3] * a, "site outside the cells");
        free(x);
    }
    cr_expect_eq(mb_lattice_basis(MB_LATTICE_FCC), 4);
    mb_lattice_kind kind;
    cr_expect_eq(mb_lattice_parse("bcc", &kind), 0);
    cr_expect_eq(kind, MB_LATTICE_BCC);
    cr_expect_eq(mb_lattice_parse("hcp", &kind), -1);
}

static void expect_valid_packing(const double *x, const double *r, size_t n, const double L[3],
                                 const int periodic[3], double fraction)
{
    double vol = 0.0;
    for (size_t i = 0; i < n; i++) {
        vol += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
        for (int a = 0; a < 3; a++)
            if (!periodic[a])
                cr_expect(x[3 * i + a] >= r[i] && x[3 * i + a] <= L[a] - r[i],
                          "sphere %zu crosses wall %d", i, a);
        for (size_t j = i + 1; j < n; j++) {
            double d2 = 0.0;
            for (int a = 0; a < 3; a++) {
                double d = x[3 * j + a] - x[3 * i + a];
                if (periodic[a])
                    d -= L[a] * round(d / L[a]);
                d2 += d * d;
            }
            double s = r[i] + r[j];
            cr_assert(sqrt(d2) >= s - 4.0 * DBL_EPSILON * L[0], "spheres %zu and %zu overlap "
                      "by %g", i, j, s - sqrt(d2));
        }
    }
    cr_expect(fabs(vol / (L[0] * L[1] * L[2]) - fraction) <= 1e-12 * fraction);
}

Test(assembly, polydisperse_periodic_packing_does_not_overlap_and_is_seeded)
{
    const size_t n = 700;
    const double L[3] = { 10.0, 11.0, 9.0 };
    const int per[3] = { 1, 1, 1 };
    double *x = malloc(3 * n * sizeof *x), *r = malloc(n * sizeof *r), phi;
    double *x2 = malloc(3 * n * sizeof *x), *r2 = malloc(n * sizeof *r), phi2;
    cr_assert_eq(mb_random_packing(n, L, per, 0.4, 0.6, 5, 10000, x, r, &phi), MB_SUCCESS, "%s",
                 mb_last_error());
    expect_valid_packing(x, r, n, L, per, phi);
    cr_expect(phi > 0.2, "fraction %g", phi);
    cr_expect(r[0] >= r[n - 1] && r[n - 1] >= 0.4 && r[0] <= 0.6);
    cr_assert_eq(mb_random_packing(n, L, per, 0.4, 0.6, 5, 10000, x2, r2, &phi2), MB_SUCCESS);
    cr_expect(memcmp(x, x2, 3 * n * sizeof *x) == 0 && memcmp(r, r2, n * sizeof *r) == 0,
              "the same seed gave another packing");
    cr_assert_eq(mb_random_packing(n, L, per, 0.4, 0.6, 6, 10000, x2, r2, &phi2), MB_SUCCESS);
    cr_expect(memcmp(x, x2, 3 * n * sizeof *x) != 0, "another seed gave the same packing");
    free(x); free(r); free(x2); free(r2);
}

Test(assembly, monodisperse_packing_between_walls)
{
    const size_t n = 400;
    const double L[3] = { 8.0, 8.0, 12.0 };
    const int per[3] = { 1, 1, 0 };   /* a column: periodic in x and y, floor and lid */
    double *x = malloc(3 * n * sizeof *x), *r = malloc(n * sizeof *r), phi;
    cr_assert_eq(mb_random_packing(n, L, per, 0.5, 0.5, 11, 10000, x, r, &phi), MB_SUCCESS,
                 "%s", mb_last_error());
    expect_valid_packing(x, r, n, L, per, phi);
    free(x); free(r);
}

Test(assembly, unreachable_fraction_is_refused_with_the_reason)
{
    const double L[3] = { 5.0, 5.0, 5.0 };
    const int per[3] = { 1, 1, 1 };
    double x[3 * 100], r[100];
    /* 100 spheres of radius 0.5 in 125: fraction 0.419 > the RSA jamming limit */
    cr_expect_eq(mb_random_packing(100, L, per, 0.5, 0.5, 1, 1000, x, r, NULL), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "0.3841") != NULL, "%s", mb_last_error());
    /* 80 spheres (0.335) below the limit but with only 3 attempts each: no room found */
    cr_expect_eq(mb_random_packing(80, L, per, 0.5, 0.5, 1, 3, x, r, NULL), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "no free place") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_random_packing(10, L, per, 0.6, 0.5, 1, 100, x, r, NULL), MB_EDOM);
    cr_expect_eq(mb_random_packing(10, L, per, 3.0, 3.0, 1, 100, x, r, NULL), MB_EDOM);
}

Test(assembly, thermal_velocities_have_zero_momentum_and_the_temperature)
{
    const size_t n = 500;
    const double T = 2.385;
    double m[500], v[1500], p[3] = { 0, 0, 0 }, pm = 0.0, ke2 = 0.0;
    for (size_t i = 0; i < n; i++)
        m[i] = 1.0 + 0.37 * (double)(i % 5);
    cr_assert_eq(mb_thermal_velocities(n, m, T, 9, v), MB_SUCCESS, "%s", mb_last_error());
    for (size_t k = 0; k < 3 * n; k++) {
        p[k % 3] += m[k / 3] * v[k];
        pm += m[k / 3] * fabs(v[k]);
        ke2 += m[k / 3] * v[k] * v[k];
    }
    for (int a = 0; a < 3; a++)
        cr_expect(fabs(p[a]) <= 64.0 * DBL_EPSILON * pm, "momentum %g", p[a]);
    cr_expect(fabs(ke2 / (3.0 * (n - 1)) - T) <= 64.0 * DBL_EPSILON * T, "T = %.17g",
              ke2 / (3.0 * (n - 1)));
    cr_expect_eq(mb_thermal_velocities(n, m, -1.0, 9, v), MB_EDOM);
    m[3] = 0.0;
    cr_expect_eq(mb_thermal_velocities(n, m, T, 9, v), MB_EDOM);
}
