/* test_lj_fluid.c -- the lj-fluid problem (src/problems/lj_fluid.c) against what its
 * parameters fix by construction: n = 4 c^3 particles; fcc nearest neighbours at a/sqrt(2)
 * (a = side/c, side = (n/rho)^(1/3)), 12 of them each, so 6n such pairs; kinetic energy
 * (3/2)(n - 1) T exactly up to round-off (the velocities are scaled to it: within 16 n u);
 * total momentum zero to round-off (the mean removed: |sum m v| <= 4 n u m max|v|); a box
 * too small for the minimum image refused with the parameters named; a periodic system's
 * forces sum to zero (Newton's third law pair by pair). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_problem.h"
#include "test_helpers.h"

Test(lj_fluid, lattice_velocities_momentum)
{
    mb_system *sys = th_problem("lj-fluid",
                                (const char *const[]){ "cells=3", "density=0.61",
                                                       "temperature=1.385", "seed=11", NULL });
    const mb_nodes *s = sys->nodes;
    const size_t n = 108;
    cr_assert_eq(s->n, n);
    double side = cbrt((double)n / 0.61), a = side / 3.0, nn = a / sqrt(2.0);
    size_t close = 0;
    double dmin = INFINITY;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double r2 = 0.0;
            for (int k = 0; k < 3; k++) {
                double d = s->x[3 * j + k] - s->x[3 * i + k];
                d -= side * round(d / side);
                r2 += d * d;
            }
            double r = sqrt(r2);
            dmin = fmin(dmin, r);
            close += fabs(r - nn) <= 1e-12 * side;
        }
    cr_expect(fabs(dmin - nn) <= 1e-12 * side, "nearest distance %.17g, fcc %.17g", dmin, nn);
    cr_expect_eq(close, 6 * n, "nearest-neighbour pairs %zu, fcc 6 n = %zu", close, 6 * n);
    double ke = 0.0, p[3] = {0.0, 0.0, 0.0}, vmax = 0.0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double v = s->v[3 * i + k];
            ke += 0.5 * s->mass[i] * v * v;
            p[k] += s->mass[i] * v;
            vmax = fmax(vmax, fabs(v));
        }
    double ke_expected = 1.5 * (double)(n - 1) * 1.385;
    cr_expect(fabs(ke - ke_expected) <= 16.0 * (double)n * DBL_EPSILON * ke_expected,
              "kinetic energy %.17g, (3/2)(n-1)T = %.17g", ke, ke_expected);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(p[k]) <= 4.0 * (double)n * DBL_EPSILON * vmax, "momentum %g along %d",
                  p[k], k);
    /* forces of the lattice: zero sum; each site of a perfect fcc lattice is a centre of
     * symmetry, so every force vanishes up to round-off */
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS, "%s",
                 mb_last_error());
    for (size_t k = 0; k < 3 * n; k++)
        cr_expect(fabs(s->f[k]) <= 1e-12, "lattice force f[%zu] = %g", k, s->f[k]);
    mb_system_free(sys);
}

Test(lj_fluid, seeds_differ_and_repeat)
{
    mb_system *a = th_problem("lj-fluid", (const char *const[]){ "seed=3", NULL });
    mb_system *b = th_problem("lj-fluid", (const char *const[]){ "seed=3", NULL });
    mb_system *c = th_problem("lj-fluid", (const char *const[]){ "seed=4", NULL });
    size_t bytes = 3 * a->nodes->n * sizeof(double);
    cr_expect(memcmp(a->nodes->v, b->nodes->v, bytes) == 0, "one seed, two velocity sets");
    cr_expect(memcmp(a->nodes->v, c->nodes->v, bytes) != 0, "two seeds, one velocity set");
    mb_system_free(a);
    mb_system_free(b);
    mb_system_free(c);
}

Test(lj_fluid, box_too_small_is_refused)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    mb_options_set_pair(in, "cells=2");   /* 32 particles at 0.8442: side 3.36 < 5.6 */
    cr_assert_eq(mb_problem_prepare("lj-fluid", in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys = NULL;
    cr_expect_eq(pt->setup(p, &sys), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "cutoff + skin") != NULL, "%s", mb_last_error());
    cr_expect_null(sys);
    mb_options_free(in);
    mb_options_free(p);
}
