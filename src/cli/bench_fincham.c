/* bench_fincham.c -- `motionbench bench fincham`: what a user's leap-frog step costs on
 * freely spinning aspherical bodies, next to a plain loop doing the same physical work.
 *
 * System: N aspherical bodies (principal moments 1.3, ~2.385, 3.7) spinning freely, no
 * force model, at rest in translation.  Timed, single-threaded, interleaved in rounds
 * (best batch rate of each over the rounds):
 *   whole step   mb_stepper_step through the public API for each Fincham variant of
 *                leapfrog (force reset and checks, translation, Fincham rotation, NaN/Inf
 *                detection, bookkeeping) and for verlet-nosquish (NO_SQUISH, force
 *                cache);
 *   plain loop   the default variant written as a structure-of-arrays loop in this file:
 *                per body R = R(q), w~ = I^-1 R^T L, q(t+h/2) = q + (h/4) q (x) (0, w~),
 *                q(t+h) = q + (h/2) q(t+h/2) (x) (0, w~) normalised, w = R w~, x += v h
 *                (no torque acts, so L and w~ stay the same within the step).
 * Figures are body-steps/s (CPU time, bench_util.h) and whole/plain for the default
 * variant.
 * With --lammps PROGRAM the same bodies (random orientations, the same angular momentum
 * per body, no interaction) are run by LAMMPS's fix nve/asphere in a child process, in
 * the same benchmark run, single-threaded (OMP_NUM_THREADS=1, one process), in each of
 * the configurations of lammps_configs (default input, atom sort off, no pair style):
 * its body-steps/s is n S / (CPU time of LAMMPS's loop of S steps: its "Loop time" times
 * the "% CPU use" it reports), so set-up is not counted and, as for the library's codes,
 * only the time it held a core;
 * the fastest configuration is the peer's figure and its name is printed beside it, and
 * the last column gives verlet-nosquish / LAMMPS.  Exit 0, or 2 on bad options or a
 * failed peer. */
#include "bench_lammps.h"
#include "bench_util.h"
#include "cli.h"
#include "mb_input.h"
#include "mb_nodes.h"
#include "mb_stepper.h"
#include "mb_system.h"
#include "mb_vec.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define FINCHAM_H 1e-3
#define VARIANTS 4

static const char *const fincham_variants[VARIANTS] = {
    "leapfrog", "leapfrog[aspherical=fincham-halfstep]", "leapfrog[aspherical=fincham-woo]",
    "verlet-nosquish"
};

static void body_inertia(size_t i, double I[3])
{
    I[0] = 1.3;
    I[1] = 2.385 + 1e-4 * (double)(i % 7);
    I[2] = 3.7;
}

static void body_omega(size_t i, double w[3])
{
    w[0] = 0.9;
    w[1] = 0.35;
    w[2] = -0.6 + 1e-3 * (double)(i % 11);
}

/* the plain loop's arrays: x, v, w, L, I (3n each), q (4n) */
struct plain_bodies {
    size_t n;
    double *x, *v, *w, *L, *I, *q;
};

static void plain_free(struct plain_bodies *p)
{
    free(p->x); free(p->v); free(p->w); free(p->L); free(p->I); free(p->q);
}

static int plain_alloc(struct plain_bodies *p, size_t n)
{
    p->n = n;
    p->x = calloc(3 * n, sizeof(double));
    p->v = calloc(3 * n, sizeof(double));
    p->w = calloc(3 * n, sizeof(double));
    p->L = calloc(3 * n, sizeof(double));
    p->I = calloc(3 * n, sizeof(double));
    p->q = calloc(4 * n, sizeof(double));
    if (!p->x || !p->v || !p->w || !p->L || !p->I || !p->q) {
        plain_free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        double *q = &p->q[4 * i], *I = &p->I[3 * i], *w = &p->w[3 * i], Lb[3];
        mb_q_identity(q);
        body_inertia(i, I);
        body_omega(i, w);
        for (int k = 0; k < 3; k++)
            Lb[k] = I[k] * w[k];              /* identity orientation: body = global */
        memcpy(&p->L[3 * i], Lb, sizeof Lb);
    }
    return 0;
}

/* One torque-free Fincham step of every body (default variant, A = R(q(t))^T). */
static void plain_fincham_step(struct plain_bodies *p, double h)
{
    for (size_t i = 0; i < p->n; i++) {
        double *q = &p->q[4 * i], *w = &p->w[3 * i], *x = &p->x[3 * i];
        const double *L = &p->L[3 * i], *I = &p->I[3 * i], *v = &p->v[3 * i];
        double R[9], wb[4], t[4], qh[4];
        mb_q_to_mat(R, q);
        mb_m3t_mul_v(&wb[1], R, L);
        wb[0] = 0.0;
        for (int k = 0; k < 3; k++)
            wb[k + 1] /= I[k];
        mb_q_mul(t, q, wb);
        for (int k = 0; k < 4; k++)
            qh[k] = q[k] + 0.25 * h * t[k];
        mb_q_mul(t, qh, wb);
        for (int k = 0; k < 4; k++)
            q[k] += 0.5 * h * t[k];
        mb_q_normalize(q);
        mb_m3_mul_v(w, R, &wb[1]);
        for (int k = 0; k < 3; k++)
            x[k] += v[k] * h;
    }
}

static mb_system *whole_system(size_t n)
{
    mb_system *sys = mb_system_alloc(n);
    for (size_t i = 0; sys && i < n; i++) {
        double I[3];
        body_inertia(i, I);
        mb_nodes_set_inertia(sys->nodes, i, I);
        body_omega(i, &sys->nodes->omega[3 * i]);
    }
    return sys;
}

/* Body-steps/s of one batch lasting at least slice seconds: code < 0 the plain loop,
 * else whole steps of that variant. */
static double batch_rate(int code, mb_system *const *sys, mb_stepper *const *st,
                         struct plain_bodies *p, double slice)
{
    long steps = 0;
    double t0 = mb_bench_now(), dt;
    do {
        if (code < 0)
            plain_fincham_step(p, FINCHAM_H);
        else if (mb_stepper_step(st[code], sys[code], FINCHAM_H) != 0)
            return -1.0;
        steps++;
        dt = mb_bench_now() - t0;
    } while (steps < 2 || dt < slice);
    return (double)p->n * (double)steps / dt;
}

/* rates[0..VARIANTS-1] whole steps, rates[VARIANTS] the plain loop */
static int measure_size(size_t n, double min_time, double rates[VARIANTS + 1])
{
    enum { ROUNDS = 5 };
    mb_system *sys[VARIANTS] = { NULL };
    mb_stepper *st[VARIANTS] = { NULL };
    struct plain_bodies p;
    int ok = plain_alloc(&p, n) == 0;
    for (int v = 0; v < VARIANTS && ok; v++) {
        sys[v] = whole_system(n);
        st[v] = sys[v] ? mb_stepper_alloc(fincham_variants[v], sys[v]) : NULL;
        ok = st[v] != NULL;
    }
    for (int c = 0; c <= VARIANTS; c++)
        rates[c] = 0.0;
    for (int round = 0; round < ROUNDS && ok; round++)
        for (int c = -1; c < VARIANTS && ok; c++) {
            double r = batch_rate(c, sys, st, &p, min_time / (ROUNDS * (VARIANTS + 1)));
            int slot = c < 0 ? VARIANTS : c;
            ok = r > 0.0;
            rates[slot] = fmax(rates[slot], r);
        }
    for (int v = 0; v < VARIANTS; v++) {
        mb_stepper_free(st[v]);
        mb_system_free(sys[v]);
    }
    if (p.x)
        plain_free(&p);
    return ok ? 0 : -1;
}

/* LAMMPS peer: n free ellipsoids (shape 1 : 1.5 : 2, random orientations, angular
 * momentum (0.9, 0.35, -0.6)), fix nve/asphere, `steps` steps, in one of the
 * configurations below.  Every configuration is timed at every size and the fastest one
 * is the peer's figure, printed with its name: the peer runs in its best configuration
 * for this work (free bodies, nothing interacts), chosen by measurement, not assumed. */
struct lammps_config {
    const char *name;
    const char *before_box; /* commands that must precede create_box */
    const char *after_box;  /* commands that need the box */
};

static const struct lammps_config lammps_configs[] = {
    /* the input a user would write first: a zero pair style with a binned neighbour
     * list checked every step, LAMMPS's default spatial sort of atoms every 1000 steps */
    { "pair-zero", "", "pair_style zero 0.5\npair_coeff * *\nneighbor 2.0 bin\n"
                       "neigh_modify every 1 delay 0 check yes\n" },
    /* the same with the atom sort off: sorting only reorders bodies that never meet */
    { "pair-zero,sort-off", "atom_modify sort 0 0.0\n",
      "pair_style zero 0.5\npair_coeff * *\nneighbor 2.0 bin\n"
      "neigh_modify every 1 delay 0 check yes\n" },
    /* no pair style at all: no neighbour list is requested, so none is built or checked */
    { "no-pair,sort-off", "atom_modify sort 0 0.0\n", "" },
};
enum { LAMMPS_CONFIGS = sizeof lammps_configs / sizeof lammps_configs[0] };

/* The input of configuration c. */
static int lammps_input(char *buf, size_t size, const struct lammps_config *c)
{
    int len = snprintf(buf, size,
                       "units lj\natom_style ellipsoid\nboundary p p p\n%s"
                       "region box block 0 200 0 200 0 200\ncreate_box 1 box\n%s"
                       "create_atoms 1 random ${n} 12345 box\nset type 1 mass 1.0\n"
                       "set type 1 shape 1.0 1.5 2.0\nset type 1 quat/random 18238\n"
                       "set type 1 angmom 0.9 0.35 -0.6\n"
                       "fix 1 all nve/asphere\ntimestep 0.001\nthermo 0\nrun ${steps}\n",
                       c->before_box, c->after_box);
    return len > 0 && (size_t)len < size ? len : -1;
}

/* Body-steps/s of LAMMPS on n bodies in configuration c, from the CPU time of its loop
 * over about min_time of stepping; -1 when LAMMPS fails. */
static double lammps_config_rate(const char *program, const struct lammps_config *c, size_t n,
                                 double min_time)
{
    char dir[] = "/tmp/motionbench-lammps-XXXXXX";
    if (mkdtemp(dir) == NULL)
        return -1.0;
    char input[sizeof dir + 16], log[sizeof dir + 16], text[2048], vars[64];
    snprintf(input, sizeof input, "%s/in", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    long steps = (long)fmax(20.0, min_time * 3e6 / (double)n);
    double rate = -1.0;
    int len = lammps_input(text, sizeof text, c);
    FILE *f = len > 0 ? fopen(input, "w") : NULL;
    if (f != NULL) {
        int ok = fwrite(text, 1, (size_t)len, f) == (size_t)len;
        ok = fclose(f) == 0 && ok;
        snprintf(vars, sizeof vars, "-var n %zu -var steps %ld", n, steps);
        double t = ok && mb_bench_lammps_run(program, input, log, vars) == 0
                       ? mb_bench_lammps_loop_cpu(log, steps) : -1.0;
        if (t > 0.0)
            rate = (double)n * (double)steps / t;
    }
    unlink(input);
    unlink(log);
    rmdir(dir);
    return rate;
}

/* The best rate over the configurations, and the name of the one that gave it. */
static double lammps_rate(const char *program, size_t n, double min_time, const char **best)
{
    double rate = -1.0;
    for (size_t c = 0; c < LAMMPS_CONFIGS; c++) {
        double r = lammps_config_rate(program, &lammps_configs[c], n, min_time / LAMMPS_CONFIGS);
        if (r < 0.0)
            return -1.0;
        if (r > rate) {
            rate = r;
            *best = lammps_configs[c].name;
        }
    }
    return rate;
}

int mb_bench_fincham(int argc, char **argv)
{
    double max_nodes = 1e6, min_time = 3.0;
    const char *lammps = NULL;
    const mb_cli_option peer[] = {
        { .name = "--lammps", .kind = MB_CLI_STRING, .dest = &lammps, .value = "a program",
          .empty = "empty program name", .flags = MB_CLI_ONCE },
    };
    int st = mb_bench_size_args(argc, argv, "fincham", &max_nodes, &min_time, peer, 1);
    if (st < 0)
        printf("  --lammps PROGRAM: also time LAMMPS fix nve/asphere (e.g. lmp)\n"
               "  in a child process on the same bodies, in each of its configurations (default,\n"
               "  atom sort off, no pair style); the fastest is printed with its name.\n");
    if (st != 0)
        return st < 0 ? MB_EXIT_OK : st;
    printf("fincham: N free aspherical bodies, no forces, single thread, body-steps/s\n"
           "whole step: mb_stepper_step per scheme; plain loop: SoA Fincham (default variant);\n"
           "CPU time of this thread, interleaved rounds, best batch of each.\n");
    if (lammps)
        printf("LAMMPS (peer): %s, fix nve/asphere, one process, OMP_NUM_THREADS=1, charged its\n"
               "  Loop time x %% CPU use; the fastest of %d configurations (pair-zero = pair_style zero\n"
               "  with a binned list checked every step; sort-off = atom_modify sort 0 0.0; no-pair =\n"
               "  no pair style), named per size in the last column.\n", lammps, (int)LAMMPS_CONFIGS);
    printf("\n");
    printf("%10s %14s %14s %12s %14s %14s %16s", "bodies", "leapfrog", "plain loop",
           "whole/plain", "fincham-half", "fincham-woo", "verlet-nosquish");
    printf(lammps ? " %14s %14s  %s\n" : "\n", "LAMMPS", "nosquish/LAMMPS", "LAMMPS's best configuration");
    for (double nn = 1e3; nn <= max_nodes * 1.0000001; nn *= 10.0) {
        size_t n = (size_t)nn;
        double r[VARIANTS + 1];
        if (measure_size(n, min_time, r) != 0) {
            fprintf(stderr, "motionbench bench fincham: cannot set up or step %zu bodies\n", n);
            return MB_EXIT_USAGE;
        }
        printf("%10zu %14.4g %14.4g %12.3f %14.4g %14.4g %16.4g", n, r[0], r[VARIANTS],
               r[0] / r[VARIANTS], r[1], r[2], r[3]);
        if (lammps) {
            const char *config = "";
            double rl = lammps_rate(lammps, n, min_time, &config);
            if (rl < 0.0) {
                printf("\n");
                fprintf(stderr, "motionbench bench fincham: LAMMPS peer '%s' failed at %zu bodies\n",
                        lammps, n);
                return MB_EXIT_USAGE;
            }
            printf(" %14.4g %14.3f  %s", rl, r[3] / rl, config);
        }
        printf("\n");
        fflush(stdout);
    }
    return MB_EXIT_OK;
}
