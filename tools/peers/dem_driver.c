/* dem_driver.c -- an independent driver of `motionbench bench dem`'s comparison: the
 * packing of the benchmark (4 c^3 spheres of diameter 1 on a jittered fcc lattice of
 * nearest-neighbour distance 0.999 in a periodic cube, Maxwell velocities at T = 0.01),
 * a fixed number of whole leap-frog steps through the public API (mb_stepper_step with
 * contact-cundall-strack on a neighbour list, cutoff 1, skin 0.1), and the same packing
 * and steps written as a LAMMPS input (pair gran/hooke/history, fix nve/sphere, the same
 * constants), so that both programs can be counted by `perf stat` on the same work.  It
 * shares no code with the benchmark.  Build and run from a built tree:
 *   gcc -O2 -I src/core -I src/forces -I src/integrators -I src/problems -I src/metrics \
 *       -I src -I . -o dem_driver tools/peers/dem_driver.c -L.libs -lmotionbench -lgsl \
 *       -lgslcblas -lm
 *   LD_LIBRARY_PATH=.libs ./dem_driver CELLS STEPS [DIR [LAMMPS_SKIN [SORT]]]
 * CELLS: fcc cells per side (n = 4 CELLS^3); STEPS: steps run after set-up.  With DIR,
 * DIR/data and DIR/in are written (LAMMPS's neighbour skin LAMMPS_SKIN, default 0.1, list
 * checked every step; SORT 0 turns atom sorting off, default 0) and nothing is stepped.
 * The contact history is updated in place (mb_contact_history_in_place: the steps evaluate
 * each level once), as the benchmark's; with DEM_TWO_LEVELS set in the environment it
 * keeps its base and candidate levels, the library's default.
 * Instructions per sphere-step of either program: the difference of `perf stat -e
 * instructions,cycles` between STEPS and 0 steps, over STEPS n.  Prints the CPU time of
 * the steps, the contacts at the end and a checksum of the state, then the first step's
 * CPU time apart (it builds the neighbour list, as LAMMPS's set-up does before its loop)
 * and the rate of the steps after it, to set beside LAMMPS's Loop time of STEPS steps. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mb_assembly.h"
#include "mb_contact.h"
#include "mb_forces.h"
#include "mb_neighbour.h"
#include "mb_stepper.h"
#include "mb_system.h"

#define KN 2e5
#define GAMMA_N 380.0
#define KT_RATIO (2.0 / 7.0)
#define MU 0.5
#define H 1e-4

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The packing of the header on s (n = 4 c^3 nodes); side of the cube in *side. */
static int packing(mb_nodes *s, size_t c, double *side)
{
    const size_t cells[3] = { c, c, c };
    const double offset[3] = { 0.25, 0.25, 0.25 }, a = 0.999 * M_SQRT2, L = (double)c * a;
    const double I[3] = { 0.1, 0.1, 0.1 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double *m = malloc(s->n * sizeof *m);
    if (rng == NULL || m == NULL || mb_lattice_sites(MB_LATTICE_FCC, cells, a, offset, s->x))
        return -1;
    gsl_rng_set(rng, 2385);
    for (size_t k = 0; k < 3 * s->n; k++) {
        double x = s->x[k] + 0.002 * (2.0 * gsl_rng_uniform(rng) - 1.0);
        s->x[k] = x - L * floor(x / L);
        if (s->x[k] >= L)
            s->x[k] = 0.0;
    }
    for (size_t i = 0; i < s->n; i++) {
        mb_nodes_set_mass(s, i, 1.0);
        mb_nodes_set_inertia(s, i, I);
        s->radius[i] = 0.5;
        m[i] = 1.0;
    }
    int st = mb_thermal_velocities(s->n, m, 0.01, 2385, s->v);
    gsl_rng_free(rng);
    free(m);
    *side = L;
    return st;
}

static int write_lammps(const mb_nodes *s, double L, const char *dir, double skin, int sort,
                        long steps)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/data", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "dem_driver packing\n\n%zu atoms\n1 atom types\n\n", s->n);
    for (int a = 0; a < 3; a++)
        fprintf(f, "0 %.17g %clo %chi\n", L, 'x' + a, 'x' + a);
    fprintf(f, "\nAtoms # sphere\n\n");
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%zu 1 1 %.17g %.17g %.17g %.17g\n", i + 1, 6.0 / M_PI, s->x[3 * i],
                s->x[3 * i + 1], s->x[3 * i + 2]);
    fprintf(f, "\nVelocities\n\n");
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%zu %.17g %.17g %.17g 0 0 0\n", i + 1, s->v[3 * i], s->v[3 * i + 1],
                s->v[3 * i + 2]);
    if (fclose(f) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/in", dir);
    f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "units lj\natom_style sphere\nboundary p p p\ncomm_modify vel yes\n%s"
            "read_data %s/data\n"
            "pair_style gran/hooke/history %.17g %.17g %.17g 0 %.17g 0\npair_coeff * *\n"
            "neighbor %g bin\nneigh_modify delay 0 every 1 check yes\n"
            "fix 1 all nve/sphere\ntimestep %g\nthermo 0\nrun %ld\n",
            sort ? "" : "atom_modify sort 0 0.0\n", dir, KN, KT_RATIO * KN, GAMMA_N, MU, skin,
            H, steps);
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: dem_driver CELLS STEPS [DIR [LAMMPS_SKIN [SORT]]]\n");
        return 2;
    }
    const size_t c = (size_t)atol(argv[1]), n = 4 * c * c * c;
    const long steps = atol(argv[2]);
    double L;
    mb_system *sys = mb_system_alloc(n);
    if (sys == NULL || packing(sys->nodes, c, &L) != 0)
        return 1;
    if (argc >= 4)
        return write_lammps(sys->nodes, L, argv[3], argc >= 5 ? atof(argv[4]) : 0.1,
                            argc >= 6 ? atoi(argv[5]) : 0, steps) ? 1 : 0;
    const mb_contact_linear_params p = { .kn = KN, .dashpot = MB_DASHPOT_COEFF,
                                         .c = 0.5 * GAMMA_N, .attractive = 1 };
    const mb_contact_friction_params fr = { .mu = MU, .kt_ratio = KT_RATIO };
    const double box[3] = { L, L, L };
    mb_neighbour_list *nl = mb_neighbour_new(1.0, 0.1, box);
    void *law = mb_contact_cundall_strack_new(&p, &fr);
    if (nl == NULL || law == NULL || mb_contact_use_neighbours(law, sys->nodes, nl)
        || (getenv("DEM_TWO_LEVELS") == NULL && mb_contact_history_in_place(law, 1))
        || mb_forces_add(sys->forces, mb_force_contact_cundall_strack, law))
        return 1;
    mb_neighbour_free(nl);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    if (st == NULL)
        return 1;
    double t0 = cpu_now();
    if (steps > 0 && mb_stepper_step(st, sys, H) != 0)     /* the list's first build */
        return 1;
    double t_first = cpu_now();
    for (long k = 1; k < steps; k++)
        if (mb_stepper_step(st, sys, H) != 0)
            return 1;
    double t1 = cpu_now(), sum = 0.0;
    long touching = 0;
    for (size_t m = 0; m < mb_contact_count(law); m++) {
        double delta, rate, nn[3];
        mb_contact_kinematics(law, m, sys->nodes, &delta, &rate, nn);
        touching += delta > 0.0;
    }
    for (size_t k = 0; k < 3 * n; k++)
        sum += sys->nodes->x[k] + sys->nodes->v[k] + sys->nodes->omega[k];
    printf("n = %zu, %ld steps: %.4g s CPU, %.4g sphere-steps/s, %ld contacts, checksum %.17g\n",
           n, steps, t1 - t0, steps ? (double)n * (double)steps / (t1 - t0) : 0.0, touching, sum);
    printf("the first step (the neighbour list's first build) %.4g s CPU; the %ld after it "
           "%.4g s CPU, %.4g sphere-steps/s\n", t_first - t0, steps > 1 ? steps - 1 : 0,
           t1 - t_first, steps > 1 ? (double)n * (double)(steps - 1) / (t1 - t_first) : 0.0);
    mb_stepper_free(st);
    mb_system_free(sys);
    return 0;
}
