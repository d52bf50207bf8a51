/* lj_fluid.c -- a Lennard-Jones fluid in a periodic cube: 4 c^3 particles of mass m on the
 * sites of c x c x c face-centred cubic unit cells at number density rho, with seeded
 * Maxwell-Boltzmann velocities of zero total momentum scaled to the temperature T
 * (k_B = 1):  T = sum m v^2 / (3 (n - 1))  (3n - 3 degrees of freedom once the momentum
 * is removed; Allen & Tildesley, 2nd ed., eq. 2.55 and section 5.6.1).
 *
 * The pair potential is truncated and energy-shifted (potential=cut, LAMMPS lj/cut with
 * pair_modify shift yes) or force-shifted (potential=smooth, lj/smooth/linear), with its
 * cutoff and the neighbour list's skin (mb_pair_lj.h, mb_neighbour.h).  The box side is
 * (n / rho)^(1/3); it must exceed 2 (cutoff + skin) (the minimum image), else the set-up
 * refuses and names the parameters.  Defaults: the classic liquid state point rho = 0.8442,
 * T = 0.728 of reduced units (Verlet 1967), rc = 2.5 sigma, 256 particles.
 * No closed form; the motion is chaotic after a short time, so the questions asked of it
 * are statistical (energy fluctuation and drift, momentum). */
#include "mb_assembly.h"
#include "mb_pair_lj.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "cells", MB_OPT_INT, "4", 1, 40, NULL,
      "fcc unit cells per side: n = 4 cells^3 particles (<= 256000)" },
    { "density", MB_OPT_DOUBLE, "0.8442", 1e-6, 1.5, NULL, "number density n / V (sigma^-3)" },
    { "temperature", MB_OPT_DOUBLE, "0.728", 0, 1e6, NULL,
      "initial temperature (epsilon / k_B), >= 0" },
    { "seed", MB_OPT_INT, "2385", 0, 2147483647, NULL, "seed of the velocity generator" },
    { "potential", MB_OPT_CHOICE, "smooth", 1, 0, "smooth|cut",
      "smooth: force-shifted (continuous force); cut: energy-shifted (force jumps at rc)" },
    { "epsilon", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "well depth, > 0" },
    { "sigma", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "length scale, > 0" },
    { "cutoff", MB_OPT_DOUBLE, "2.5", 1e-3, 1e3, NULL, "cutoff rc in units of sigma" },
    { "skin", MB_OPT_DOUBLE, "0.3", 0, 1e3, NULL, "neighbour-list skin in units of sigma, >= 0" },
    { "mass", MB_OPT_DOUBLE, "1", 1e-300, 1e300, NULL, "particle mass, > 0" },
    MB_OPTION_END
};

/* the fcc sites a (cell + basis + 1/4) (mb_assembly.h), each of mass m */
static int place_lattice(mb_nodes *s, size_t c, double a, double m)
{
    const size_t cells[3] = {c, c, c};
    const double offset[3] = {0.25, 0.25, 0.25};
    for (size_t i = 0; i < s->n; i++)
        mb_nodes_set_mass(s, i, m);
    return mb_lattice_sites(MB_LATTICE_FCC, cells, a, offset, s->x);
}

/* Gaussian velocities (GSL mt19937 seeded with seed), the mean removed, scaled to T. */
static int draw_velocities(mb_nodes *s, unsigned long seed, double T, double m)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r == NULL)
        MB_ERROR(MB_ENOMEM, "lj-fluid: cannot allocate a random generator");
    gsl_rng_set(r, seed);
    size_t n = s->n;
    double mean[3] = {0.0, 0.0, 0.0}, sum2 = 0.0;
    for (size_t k = 0; k < 3 * n; k++) {
        s->v[k] = gsl_ran_gaussian_ziggurat(r, 1.0);
        mean[k % 3] += s->v[k];
    }
    gsl_rng_free(r);
    for (size_t k = 0; k < 3 * n; k++) {
        s->v[k] -= mean[k % 3] / (double)n;
        sum2 += s->v[k] * s->v[k];
    }
    double scale = n > 1 && sum2 > 0.0 ? sqrt(T * 3.0 * (double)(n - 1) / (m * sum2)) : 0.0;
    for (size_t k = 0; k < 3 * n; k++)
        s->v[k] *= scale;
    return MB_SUCCESS;
}

static int add_potential(mb_system *sys, const mb_options *p, double side)
{
    double sigma = mb_options_double(p, "sigma");
    double rc = mb_options_double(p, "cutoff") * sigma, skin = mb_options_double(p, "skin") * sigma;
    if (!(side > 2.0 * (rc + skin)))
        MB_ERROR(MB_EDOM, "lj-fluid: box side %g (cells, density) must exceed 2 (cutoff + skin)"
                 " = %g: more cells, a lower density or a shorter cutoff", side,
                 2.0 * (rc + skin));
    const double box[3] = {side, side, side};
    mb_neighbour_list *nl = mb_neighbour_new(rc, skin, box);
    if (nl == NULL)
        return mb_last_error_code();
    const mb_lj_params lp = {.epsilon = mb_options_double(p, "epsilon"), .sigma = sigma,
                             .cutoff = rc};
    int smooth = strcmp(mb_options_string(p, "potential"), "smooth") == 0;
    void *m = smooth ? mb_lj_smooth_new(&lp, nl) : mb_lj_cut_new(&lp, nl);
    mb_neighbour_free(nl);
    return mb_forces_add(sys->forces, smooth ? mb_force_lj_smooth : mb_force_lj_cut, m);
}

static size_t nodes(const mb_options *p)
{
    size_t c = (size_t)mb_options_int(p, "cells");
    return 4 * c * c * c;
}

static int setup(const mb_options *p, mb_system **out)
{
    size_t n = nodes(p), c = (size_t)mb_options_int(p, "cells");
    double side = cbrt((double)n / mb_options_double(p, "density"));
    double m = mb_options_double(p, "mass");
    mb_system *sys = mb_system_alloc(n);
    if (sys == NULL)
        return MB_ENOMEM;
    int st = place_lattice(sys->nodes, c, side / (double)c, m);
    if (st == MB_SUCCESS)
        st = draw_velocities(sys->nodes, (unsigned long)mb_options_int(p, "seed"),
                             mb_options_double(p, "temperature"), m);
    if (st == MB_SUCCESS)
        st = add_potential(sys, p, side);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    mb_nodes_touch(sys->nodes);
    *out = sys;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_lj_fluid = {
    .name = "lj-fluid",
    .summary = "Lennard-Jones fluid on an fcc lattice in a periodic cube, seeded velocities",
    .params = params,
    .setup = setup,
    .exact = NULL,
    .exact_doc = NULL,
    .nodes = nodes,
    .not_a_scene = "scenes have no pair potential (their assemblies interact by contact laws); "
                   "the lattice, the velocities and the box come from the parameters here",
};
