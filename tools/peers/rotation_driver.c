/* rotation_driver.c -- a fixed number of whole steps of one rotation scheme on N free
 * aspherical bodies through the public API (mb_stepper_step), the system of
 * `motionbench bench fincham`, for counting what a body-step costs with tools that need a
 * fixed amount of work (valgrind's callgrind, perf stat) and for timing it alone.  It
 * shares no code with the benchmark.  Build and run from a built tree:
 *   gcc -O2 -I src/core -I src/forces -I src/integrators -I src -I . \
 *       -o rotation_driver tools/peers/rotation_driver.c -L.libs -lmotionbench -lm
 *   LD_LIBRARY_PATH=.libs ./rotation_driver SCHEME BODIES STEPS
 * e.g. SCHEME verlet-nosquish or "leapfrog[aspherical=fincham-halfstep]".  One untimed
 * first step, then STEPS timed steps: prints ns per body-step (CPU time of the thread)
 * and a checksum of the orientations.  Instructions per body-step: the difference of
 * two callgrind counts restricted to the step (--toggle-collect=mb_stepper_step) at two
 * step counts, divided by BODIES times the difference of the step counts. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mb_nodes.h"
#include "mb_stepper.h"
#include "mb_system.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: rotation_driver SCHEME BODIES STEPS\n");
        return 2;
    }
    const size_t n = (size_t)atof(argv[2]);
    const int steps = atoi(argv[3]);
    const double h = 1e-3;
    mb_system *sys = mb_system_alloc(n);
    if (sys == NULL || n == 0 || steps < 1)
        return 2;
    for (size_t i = 0; i < n; i++) {        /* the benchmark's bodies */
        const double I[3] = { 1.3, 2.385 + 1e-4 * (double)(i % 7), 3.7 };
        mb_nodes_set_inertia(sys->nodes, i, I);
        double *w = &sys->nodes->omega[3 * i];
        w[0] = 0.9;
        w[1] = 0.35;
        w[2] = -0.6 + 1e-3 * (double)(i % 11);
    }
    mb_stepper *st = mb_stepper_alloc(argv[1], sys);
    if (st == NULL || mb_stepper_step(st, sys, h) != 0) {
        fprintf(stderr, "rotation_driver: cannot step '%s'\n", argv[1]);
        return 1;
    }
    const double t0 = cpu_now();
    for (int s = 0; s < steps; s++)
        if (mb_stepper_step(st, sys, h) != 0)
            return 1;
    const double t = cpu_now() - t0;
    double sum = 0.0;
    for (size_t j = 0; j < 4 * n; j++)
        sum += sys->nodes->q[j];
    printf("%s, %zu bodies: %.1f ns per body-step (checksum %.17g)\n", argv[1], n,
           1e9 * t / ((double)n * steps), sum);
    mb_stepper_free(st);
    mb_system_free(sys);
    return 0;
}
