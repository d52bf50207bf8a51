/* test_scene_assembly.c -- [assembly NAME] and [space] sections of scenes (doc/scenes.md,
 * "Assemblies"), held to expectations written here: the lattice sites a (cell + basis +
 * offset) enumerated by hand, counts from basis x cells, nearest distances from the closed
 * forms, masses rho 4/3 pi r^3 and moments 2/5 m r^2, a packing checked pair by pair by a
 * brute-force double loop (minimum image on the periodic axes, walls on the others), its
 * packing fraction against the mean of r^3 with a statistical tolerance, thermal
 * velocities of zero momentum at the temperature, and a deforming cell as written.  The
 * negative controls show each check failing on a wrong input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "mb_neighbour.h"
#include "mb_problem.h"
#include "mb_test_scene_text.h"

static mb_system *scene(const char *text)
{
    mb_system *sys = NULL;
    int st = mb_test_scene_text(text, &sys);
    cr_assert_eq(st, MB_SUCCESS, "%s", mb_last_error());
    return sys;
}

/* pairs closer than r_i + r_j by the brute-force double loop, the minimum image taken on
 * the axes with periodic[a] (side L[a]) */
static size_t brute_overlaps(const mb_nodes *s, const double L[3], const int periodic[3])
{
    size_t bad = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = i + 1; j < s->n; j++) {
            double d2 = 0.0;
            for (int a = 0; a < 3; a++) {
                double d = s->x[3 * j + a] - s->x[3 * i + a];
                if (periodic[a])
                    d -= L[a] * round(d / L[a]);
                d2 += d * d;
            }
            double reach = s->radius[i] + s->radius[j];
            bad += d2 < reach * reach;
        }
    return bad;
}

/* fcc, 3 x 2 x 2 cells of side 1.5, offset (0.25, 0.25, 0.25), radius 0.5, density 2:
 * 4 x 12 = 48 sites a (c + b + o) in x-fastest cell order with the basis innermost */
Test(scene_assembly, lattice_sites_count_and_matter)
{
    mb_system *sys = scene("[assembly crystal]\ngenerator = lattice\nlattice = fcc\n"
                           "cells = 3, 2, 2\nspacing = 1.5\noffset = 0.25, 0.25, 0.25\n"
                           "radius = 0.5\ndensity = 2\n");
    static const double basis[4][3] = { { 0, 0, 0 }, { 0.5, 0.5, 0 }, { 0.5, 0, 0.5 }, { 0, 0.5, 0.5 } };
    const mb_nodes *s = sys->nodes;
    cr_assert_eq(s->n, 48u);
    size_t i = 0;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++)
                for (int b = 0; b < 4; b++, i++) {
                    const double c[3] = { x, y, z };
                    for (int a = 0; a < 3; a++)
                        cr_expect_float_eq(s->x[3 * i + a], 1.5 * (c[a] + basis[b][a] + 0.25), 1e-15,
                                           "site %zu axis %d", i, a);
                }
    double m = 2.0 * 4.0 / 3.0 * M_PI * 0.125;   /* rho 4/3 pi r^3 */
    double dmin = INFINITY;
    for (i = 0; i < s->n; i++) {
        cr_expect_float_eq(s->mass[i], m, 4e-16 * m);
        cr_expect_float_eq(s->inertia[3 * i], 0.4 * m * 0.25, 4e-16 * m);
        cr_expect_eq(s->radius[i], 0.5);
        for (size_t j = i + 1; j < s->n; j++) {
            double d2 = 0.0;
            for (int a = 0; a < 3; a++)
                d2 += (s->x[3 * j + a] - s->x[3 * i + a]) * (s->x[3 * j + a] - s->x[3 * i + a]);
            dmin = fmin(dmin, sqrt(d2));
        }
    }
    cr_expect_float_eq(dmin, 1.5 / sqrt(2.0), 1e-14, "fcc nearest distance a / sqrt 2");
    mb_system_free(sys);
}

/* sc and bcc counts: basis x cells (1 and 2 per cell); bcc nearest distance a sqrt(3)/2 */
Test(scene_assembly, lattice_kinds)
{
    mb_system *sc = scene("[assembly a]\ngenerator = lattice\nlattice = sc\ncells = 4, 3, 2\n"
                          "spacing = 1\nradius = 0.2\nmass = 1\n");
    mb_system *bcc = scene("[assembly a]\ngenerator = lattice\nlattice = bcc\ncells = 2, 2, 2\n"
                           "spacing = 2\nradius = 0.2\nmass = 1\n");
    cr_expect_eq(sc->nodes->n, 24u);
    cr_expect_eq(bcc->nodes->n, 16u);
    double d = 0.0;
    for (int a = 0; a < 3; a++)
        d += (bcc->nodes->x[3 + a] - bcc->nodes->x[a]) * (bcc->nodes->x[3 + a] - bcc->nodes->x[a]);
    cr_expect_float_eq(sqrt(d), 2.0 * sqrt(3.0) / 2.0, 1e-15);
    mb_system_free(sc);
    mb_system_free(bcc);
}

/* a polydisperse packing of 600 spheres, radii in [0.3, 0.5], at fraction 0.25 in a region
 * 7 x 7 x H periodic in x and y (walls at z = 0 and H): no pair overlaps (brute force), every
 * centre at least r from the walls, and the fraction reached sum V / (49 H) equals the
 * fraction asked for up to the sampling of the radii: the fraction asked for uses the mean
 * <r^3> of the distribution, the reached one the sample mean of 600 draws, whose relative
 * standard deviation is cv(r^3) / sqrt(600); 4 of them is the tolerance. */
Test(scene_assembly, packing_no_overlap_walls_fraction)
{
    mb_system *sys = scene("[assembly grains]\ngenerator = packing\ncount = 600\nrmin = 0.3\n"
                           "rmax = 0.5\nfraction = 0.25\nwidth = 7\nperiodic = xy\nseed = 11\n"
                           "density = 3\n");
    const mb_nodes *s = sys->nodes;
    cr_assert_eq(s->n, 600u);
    double a = 0.3, b = 0.5;
    double m3 = (pow(b, 4) - pow(a, 4)) / (4 * (b - a)), m6 = (pow(b, 7) - pow(a, 7)) / (7 * (b - a));
    double H = 600.0 * 4.0 / 3.0 * M_PI * m3 / (0.25 * 49.0);
    const double L[3] = { 7, 7, H };
    const int periodic[3] = { 1, 1, 0 };
    cr_expect_eq(brute_overlaps(s, L, periodic), 0u);
    double volume = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        double r = s->radius[i];
        cr_expect(r >= a && r <= b, "radius %g", r);
        cr_expect(s->x[3 * i + 2] >= r && s->x[3 * i + 2] <= H - r, "sphere %zu crosses a wall", i);
        cr_expect_float_eq(s->mass[i], 3.0 * 4.0 / 3.0 * M_PI * r * r * r, 1e-15 * s->mass[i]);
        volume += 4.0 / 3.0 * M_PI * r * r * r;
    }
    double cv = sqrt(m6 - m3 * m3) / m3, reached = volume / (49.0 * H);
    cr_expect(fabs(reached / 0.25 - 1.0) < 4.0 * cv / sqrt(600.0), "fraction %g against 0.25 "
              "(tolerance %g)", reached, 4.0 * cv / sqrt(600.0));
    /* negative control: the brute-force check sees two spheres moved onto each other */
    mb_nodes *t = sys->nodes;
    for (int k = 0; k < 3; k++)
        t->x[3 + k] = t->x[k] + 0.1;
    cr_expect_gt(brute_overlaps(t, L, periodic), 0u);
    mb_system_free(sys);
}

/* thermal velocities: zero momentum and sum m v^2 / (3 (n - 1)) = T (k_B = 1) to round-off;
 * the box route: n spheres in the given box, periodic on every axis */
Test(scene_assembly, thermal_velocities_and_box)
{
    mb_system *sys = scene("[assembly gas]\ngenerator = packing\ncount = 200\nradius = 0.5\n"
                           "box = 9, 9, 9\nperiodic = xyz\nseed = 3\nmass = 2\ntemperature = 1.7\n");
    const mb_nodes *s = sys->nodes;
    double p[3] = { 0 }, twice_ke = 0.0;
    for (size_t i = 0; i < s->n; i++)
        for (int a = 0; a < 3; a++) {
            p[a] += s->mass[i] * s->v[3 * i + a];
            twice_ke += s->mass[i] * s->v[3 * i + a] * s->v[3 * i + a];
        }
    for (int a = 0; a < 3; a++)
        cr_expect(fabs(p[a]) < 1e-12, "momentum %g", p[a]);
    cr_expect_float_eq(twice_ke / (3.0 * 199.0), 1.7, 1e-13);
    const double L[3] = { 9, 9, 9 };
    const int periodic[3] = { 1, 1, 1 };
    cr_expect_eq(brute_overlaps(s, L, periodic), 0u);
    mb_system_free(sys);
}

/* a uniform velocity, a body beside an assembly (nodes: bodies first), a deforming cell as
 * written (volume = det H) with the contacts on its neighbour list */
Test(scene_assembly, bodies_uniform_velocity_and_cell)
{
    mb_system *sys = scene("[assembly crystal]\ngenerator = lattice\nlattice = sc\n"
                           "cells = 3, 3, 3\nspacing = 1.5\noffset = 0.5, 0.5, 0.5\nradius = 0.5\n"
                           "mass = 1\nvelocity = 0.1, 0, 0\n"
                           "[body probe]\ntype = sphere\nradius = 0.2\nmass = 1\n"
                           "position = 0, 0, 0\n"
                           "[space]\ncell = 4.5, 0, 0, 0, 4.5, 0, 0, 0, 4.5\n"
                           "velocity_gradient = 0, 0.1, 0, 0, 0, 0, 0, 0, 0\nskin = 0.1\n"
                           "[contact]\nlaw = linear\nkn = 100\nzeta = 0.1\n");
    cr_assert_eq(sys->nodes->n, 28u);
    cr_expect_eq(sys->nodes->radius[0], 0.2, "the [body] is node 0");
    for (size_t i = 1; i < 28; i++)
        cr_expect_eq(sys->nodes->v[3 * i], 0.1);
    cr_assert_not_null(sys->cell);
    cr_expect_float_eq(mb_cell_volume(sys->cell), 4.5 * 4.5 * 4.5, 1e-12);
    cr_expect(mb_system_periodic(sys));
    mb_system_free(sys);
}

/* bad input: each refused with its line (exit 2 and nothing written end to end:
 * tests/hostile/catalogue, scene-assembly-* and scene-lattice-*) */
Test(scene_assembly, refusals)
{
    static const struct { const char *text, *message; } bad[] = {
        { "[assembly a]\ngenerator = crystal\n", ":2: generator = crystal: unknown generator" },
        { "[assembly a]\ngenerator = packing\ncount = 0\nradius = 1\nbox = 9, 9, 9\nmass = 1\n",
          ":3: count = 0: need an integer in [1, 10000000]" },
        { "[assembly a]\ngenerator = packing\ncount = 10\nradius = 0.5\nfraction = 0.4\nmass = 1\n",
          ":5: fraction = 0.4: packing: fraction 0.4 is outside (0, 0.38]" },
        { "[assembly a]\ngenerator = packing\ncount = 300\nradius = 0.5\nbox = 10, 10, 10\n"
          "attempts = 5\nmass = 1\n", ":1: [assembly a]: packing: sphere" },
        { "[assembly a]\ngenerator = lattice\nlattice = sc\ncells = 2, 2, 2\nspacing = 0.9\n"
          "radius = 0.5\nmass = 1\n[contact]\nlaw = linear\nkn = 1\n",
          ":1: 'sphere 1 of a' and 'sphere 2 of a' overlap at t = 0" },
        { "[assembly a]\ngenerator = lattice\nlattice = sc\ncells = 2, 2, 2\nspacing = 2\n"
          "radius = 0.5\nmass = 1\n[space]\nbox = 4, 4, 4\n",
          ":8: [space] box: a periodic box is the space of the contacts" },
        { "[assembly a]\ngenerator = lattice\nlattice = sc\ncells = 2, 2, 2\nspacing = 2\n"
          "radius = 0.5\nmass = 1\n[exact a]\nbody = a\n",
          ":1: [assembly a]: closed forms ([exact]) are written for single bodies" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mb_system *sys = NULL;
        cr_expect_eq(mb_test_scene_text(bad[k].text, &sys), MB_EINVAL, "entry %zu accepted", k);
        cr_expect_not_null(strstr(mb_last_error(), bad[k].message), "entry %zu: %s", k, mb_last_error());
        mb_system_free(sys);
    }
}
