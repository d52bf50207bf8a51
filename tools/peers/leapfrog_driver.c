/* leapfrog_driver.c -- an independent check of `motionbench bench leapfrog`'s ratio: the
 * whole leap-frog step through the public API (mb_stepper_step on N particles under
 * gravity) against a lean loop written here (v += h g, x += h v per component in place),
 * alternately, CPU time of this thread, best of 5 rounds.  It shares no code with the
 * benchmark.  Build and run from a built tree:
 *   gcc -O2 -I src/core -I src/forces -I src/integrators -I src/problems -I src/metrics \
 *       -I src -I . -o leapfrog_driver tools/peers/leapfrog_driver.c -L.libs -lmotionbench -lm
 *   LD_LIBRARY_PATH=.libs ./leapfrog_driver 1e6 20
 * Arguments: particles, steps per round.  Prints both rates and lean time / whole time.
 * Memory traffic per node-step of either code (doc/performance.md): valgrind's callgrind
 * with its cache simulation, collecting only mb_stepper_step or lean_steps, the
 * difference of two runs of STEPS = 1 and 2 (five rounds each: 5 n node-steps, the first,
 * half-kick step cancelled):
 *   LD_LIBRARY_PATH=.libs valgrind --tool=callgrind --cache-sim=yes \
 *       --toggle-collect=mb_stepper_step --callgrind-out-file=cg.out ./leapfrog_driver 1e6 STEPS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mb_forces.h"
#include "mb_stepper.h"
#include "mb_system.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The lean loop, a function of its own (so that a profiler can select it by name, and
 * h and h g stay in registers): steps times v += h g, x += h v per component. */
static __attribute__((noinline)) void lean_steps(double *x, double *v, size_t n, int steps,
                                                 double h, const double hg[3])
{
    for (int s = 0; s < steps; s++)
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] += hg[k];
                x[3 * i + k] += h * v[3 * i + k];
            }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: leapfrog_driver PARTICLES STEPS\n");
        return 2;
    }
    const size_t n = (size_t)atof(argv[1]);
    const int steps = atoi(argv[2]);
    const double g[3] = { 0.1, -0.2, -9.81 }, h = 1e-4, hg[3] = { h * g[0], h * g[1], h * g[2] };
    mb_system *sys = mb_system_alloc(n);
    double *x = malloc(3 * n * sizeof *x), *v = malloc(3 * n * sizeof *v);
    if (sys == NULL || x == NULL || v == NULL
        || mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)) != 0)
        return 1;
    for (size_t i = 0; i < n; i++) {
        mb_nodes_set_mass(sys->nodes, i, 1.0 + 1e-3 * (double)(i % 50));
        for (int k = 0; k < 3; k++) {
            sys->nodes->x[3 * i + k] = x[3 * i + k] = 1e-3 * (double)i;
            sys->nodes->v[3 * i + k] = v[3 * i + k] = 0.1 * k;
        }
    }
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    if (st == NULL || mb_stepper_step(st, sys, h) != 0)   /* the first, half-kick step */
        return 1;
    double best_whole = 1e300, best_lean = 1e300;
    for (int round = 0; round < 5; round++) {
        const double t0 = cpu_now();
        for (int s = 0; s < steps; s++)
            mb_stepper_step(st, sys, h);
        const double t1 = cpu_now();
        lean_steps(x, v, n, steps, h, hg);
        const double t2 = cpu_now();
        if (t1 - t0 < best_whole)
            best_whole = t1 - t0;
        if (t2 - t1 < best_lean)
            best_lean = t2 - t1;
    }
    const double work = (double)n * steps;
    printf("n = %zu: whole step %.3g, lean loop %.3g node-steps/s, ratio %.3f (checksum %g)\n",
           n, work / best_whole, work / best_lean, best_lean / best_whole, x[7] + v[5]);
    mb_stepper_free(st);
    mb_system_free(sys);
    free(x);
    free(v);
    return 0;
}
