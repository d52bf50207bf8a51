/* bench_leapfrog.c -- throughput of the leap-frog kernels against the machine's
 * streaming bandwidth.
 *
 * Probe: the STREAM triad a[i] = b[i] + s c[i] over three arrays of 2^25 doubles (768 MiB
 * in all, far beyond the last-level cache), best of several passes, counted as 24 bytes
 * per element (2 reads + 1 write, write-allocate traffic not counted -- STREAM's rule).
 * Kernel: the translational leap-frog (mb_leapfrog_translate), which reads x, v, f (3
 * doubles each) and 1/m and writes x(t+h), v(t+h/2): 128 bytes per node-step under the
 * same rule.  The ratio (node-steps/s x 128 B) / triad bandwidth says how close the
 * kernel runs to streaming speed; both are single-threaded and measured in the same run,
 * interleaved (three rounds of probe then kernel per size, best of each).  The last
 * column times the general path (per-node flags, Cundall damping 0.2) for comparison.
 * Exit status 1
 * when the ratio is below 0.8 at 10^6 nodes or more (the kernel's target). */
#include "mb_benches_leapfrog.h"
#include "mb_leapfrog.h"
#include "mb_nodes.h"
#include "mb_stepper.h"
#include "mb_system.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EXIT_USAGE = 2 };
#define KERNEL_BYTES 128.0   /* x, v, f read (72) + 1/m (8) + x, v written (48) */
#define TRIAD_N ((size_t)1 << 25)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Parse --max-nodes N and --min-time S (seconds per measurement). */
static int parse_args(int argc, char **argv, const char *cmd, double *max_nodes, double *min_time)
{
    for (int k = 1; k < argc; k++) {
        char *end = NULL;
        if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
            printf("usage: motionbench bench %s [--max-nodes N] [--min-time S]\n"
                   "  N: largest system (default %g), sizes 10^3 .. N by decades;\n"
                   "  S: minimum seconds per measurement (default %g).\n",
                   cmd, *max_nodes, *min_time);
            return -1;
        }
        if (k + 1 < argc && !strcmp(argv[k], "--max-nodes")) {
            *max_nodes = strtod(argv[++k], &end);
            if (*end != '\0' || !(*max_nodes >= 1e3 && *max_nodes <= 1e8)) {
                fprintf(stderr, "motionbench bench %s: --max-nodes '%s' must be a number in [1e3, 1e8]\n",
                        cmd, argv[k]);
                return EXIT_USAGE;
            }
        } else if (k + 1 < argc && !strcmp(argv[k], "--min-time")) {
            *min_time = strtod(argv[++k], &end);
            if (*end != '\0' || !(*min_time > 0.0 && *min_time <= 60.0)) {
                fprintf(stderr, "motionbench bench %s: --min-time '%s' must be in (0, 60] seconds\n",
                        cmd, argv[k]);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "motionbench bench %s: unexpected argument '%s' (see --help)\n", cmd, argv[k]);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Best triad bandwidth (bytes/s) over passes lasting at least min_time in all. */
static double triad_bandwidth(double *a, double *b, double *c, double min_time)
{
    const double s = 1.0 / 3.0;
    double best = 1e300, start = now();
    int passes = 0;
    while (passes < 4 || now() - start < min_time) {
        double t0 = now();
        for (size_t i = 0; i < TRIAD_N; i++)
            a[i] = b[i] + s * c[i];
        double dt = now() - t0;
        if (dt < best)
            best = dt;
        double *tmp = a; a = b; b = tmp;    /* keep the data changing between passes */
        passes++;
    }
    return 24.0 * (double)TRIAD_N / best;
}

/* A node store holding only what the kernels read (x, v, f, 1/m; blocking and mid-step
 * flags for the general path), no rotational arrays, so 10^7 nodes fit in ~1.3 GB. */
struct kstore {
    mb_nodes s;
    double *x_out, *v_out;
};

static void kstore_free(struct kstore *k)
{
    free(k->s.x); free(k->s.v); free(k->s.f); free(k->s.inv_mass);
    free(k->s.blocked); free(k->s.vel_mid);
    free(k->x_out); free(k->v_out);
}

static int kstore_alloc(struct kstore *k, size_t n)
{
    memset(k, 0, sizeof *k);
    k->s.n = n;
    k->s.prec = 53;
    k->s.x = malloc(3 * n * sizeof(double));
    k->s.v = malloc(3 * n * sizeof(double));
    k->s.f = malloc(3 * n * sizeof(double));
    k->s.inv_mass = malloc(n * sizeof(double));
    k->x_out = malloc(3 * n * sizeof(double));
    k->v_out = malloc(3 * n * sizeof(double));
    k->s.blocked = calloc(n, 1);           /* read by the general path only */
    k->s.vel_mid = malloc(n);
    if (!k->s.x || !k->s.v || !k->s.f || !k->s.inv_mass || !k->x_out || !k->v_out
        || !k->s.blocked || !k->s.vel_mid) {
        kstore_free(k);
        return -1;
    }
    memset(k->s.vel_mid, 1, n);
    for (size_t i = 0; i < n; i++) {
        k->s.inv_mass[i] = 1.0 / (1.0 + 1e-3 * (double)(i % 97));
        for (int a = 0; a < 3; a++) {
            size_t j = 3 * i + a;
            k->s.x[j] = 1e-3 * (double)(j % 1013);
            k->s.v[j] = 1e-2 * (double)(j % 71) - 0.3;
            k->s.f[j] = -9.81 + 1e-3 * (double)(j % 13);
            k->x_out[j] = k->v_out[j] = 0.0;
        }
    }
    return 0;
}

/* Best seconds per kernel call (ping-pong between the two position/velocity pairs);
 * general = 1 times the general path with Cundall damping 0.2 instead of the fast path. */
static double time_kernel(struct kstore *k, double min_time, int general)
{
    const double h = 1e-6;
    double best = 1e300, start = now();
    int calls = 0;
    while (calls < 5 || now() - start < min_time) {
        double t0 = now();
        int st = general ? mb_leapfrog_translate_general(&k->s, k->x_out, k->v_out, h, 0.2, 0, NULL)
                         : mb_leapfrog_translate(&k->s, k->x_out, k->v_out, h);
        if (st != 0)
            return -1.0;
        double dt = now() - t0;
        if (dt < best)
            best = dt;
        double *t = k->s.x; k->s.x = k->x_out; k->x_out = t;
        t = k->s.v; k->s.v = k->v_out; k->v_out = t;
        calls++;
    }
    return best;
}

int mb_bench_leapfrog(int argc, char **argv)
{
    double max_nodes = 1e7, min_time = 0.6;
    int st = parse_args(argc, argv, "leapfrog", &max_nodes, &min_time);
    if (st != 0)
        return st < 0 ? 0 : st;
    double *a = malloc(TRIAD_N * sizeof(double)), *b = malloc(TRIAD_N * sizeof(double));
    double *c = malloc(TRIAD_N * sizeof(double));
    if (!a || !b || !c) {
        free(a); free(b); free(c);
        fprintf(stderr, "motionbench bench leapfrog: cannot allocate the triad arrays (768 MiB)\n");
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < TRIAD_N; i++) {
        a[i] = 0.0; b[i] = 1.0 + 1e-9 * (double)i; c[i] = 2.0;
    }
    printf("leapfrog translational kernel vs STREAM triad (single thread)\n");
    printf("probe: triad over 3 x %zu doubles (24 B/element), interleaved with each kernel size\n",
           TRIAD_N);
    printf("kernel traffic: %.0f B per node-step (x, v, f, 1/m read; x, v written)\n\n", KERNEL_BYTES);
    printf("%12s %16s %14s %12s %8s %18s\n", "nodes", "node-steps/s", "kernel GB/s", "probe GB/s",
           "ratio", "general+damping/s");
    int failed = 0, checked = 0, below = 0;
    for (double nn = 1e3; nn <= max_nodes * 1.0000001; nn *= 10.0) {
        struct kstore k;
        size_t n = (size_t)nn;
        if (kstore_alloc(&k, n) != 0) {
            fprintf(stderr, "motionbench bench leapfrog: cannot allocate %zu nodes\n", n);
            failed = 1;
            break;
        }
        /* three rounds of (probe, kernel); best of each, so a transient load elsewhere on
         * the machine affects both figures alike */
        double bw = 0.0, best = 1e300;
        for (int round = 0; round < 3 && best > 0.0; round++) {
            double b1 = triad_bandwidth(a, b, c, min_time / 6.0);
            if (b1 > bw)
                bw = b1;
            double dt = time_kernel(&k, min_time / 3.0, 0);
            if (dt <= 0.0)
                best = -1.0;
            else if (dt < best)
                best = dt;
        }
        double dtg = best > 0.0 ? time_kernel(&k, min_time / 3.0, 1) : -1.0;
        kstore_free(&k);
        if (best <= 0.0 || dtg <= 0.0) {
            fprintf(stderr, "motionbench bench leapfrog: kernel diverged at %zu nodes\n", n);
            failed = 1;
            break;
        }
        double rate = (double)n / best, gb = rate * KERNEL_BYTES;
        printf("%12zu %16.4g %14.2f %12.2f %8.2f %18.4g%s\n", n, rate, gb * 1e-9, bw * 1e-9, gb / bw,
               (double)n / dtg, n * KERNEL_BYTES < 2e8 ? "  (cache-resident at least partly)" : "");
        fflush(stdout);
        if (n >= 1000000) {
            checked++;
            below += gb / bw < 0.8;
        }
    }
    free(a); free(b); free(c);
    if (failed)
        return EXIT_USAGE;
    if (checked > 0) {
        printf("\ncheck: kernel >= 80%% of the probe bandwidth at >= 10^6 nodes: %s\n",
               below ? "FAIL" : "pass");
        return below ? 1 : 0;
    }
    return 0;
}

/* ---- Fincham ---- */

static const char *const fincham_variants[3] = {
    "leapfrog", "leapfrog[aspherical=fincham-halfstep]", "leapfrog[aspherical=fincham-woo]"
};

/* Aspherical nodes spinning freely (no force models: the step is force reset + Fincham +
 * translation); node-steps/s of the full step, best of repeated steps. */
static double fincham_rate(const char *spec, size_t n, double min_time)
{
    mb_system *sys = mb_system_alloc(n);
    if (sys == NULL)
        return -1.0;
    for (size_t i = 0; i < n; i++) {
        double I[3] = { 1.3, 2.385 + 1e-4 * (double)(i % 7), 3.7 };
        mb_nodes_set_inertia(sys->nodes, i, I);
        sys->nodes->omega[3 * i] = 0.9;
        sys->nodes->omega[3 * i + 1] = 0.35;
        sys->nodes->omega[3 * i + 2] = -0.6 + 1e-3 * (double)(i % 11);
    }
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    if (st == NULL) {
        mb_system_free(sys);
        return -1.0;
    }
    double best = 1e300, start = now();
    int steps = 0;
    while (steps < 5 || now() - start < min_time) {
        double t0 = now();
        if (mb_stepper_step(st, sys, 1e-3) != 0) {
            best = -1.0;
            break;
        }
        double dt = now() - t0;
        if (dt < best)
            best = dt;
        steps++;
    }
    mb_stepper_free(st);
    mb_system_free(sys);
    return best > 0.0 ? (double)n / best : -1.0;
}

int mb_bench_fincham(int argc, char **argv)
{
    double max_nodes = 1e6, min_time = 0.5;
    int st = parse_args(argc, argv, "fincham", &max_nodes, &min_time);
    if (st != 0)
        return st < 0 ? 0 : st;
    printf("leapfrog full step on aspherical nodes (Fincham rotation, no force models), single thread\n");
    printf("%12s", "nodes");
    for (int v = 0; v < 3; v++)
        printf(" %40s", fincham_variants[v]);
    printf("\n");
    for (double nn = 1e3; nn <= max_nodes * 1.0000001; nn *= 10.0) {
        size_t n = (size_t)nn;
        printf("%12zu", n);
        for (int v = 0; v < 3; v++) {
            double r = fincham_rate(fincham_variants[v], n, min_time);
            if (r < 0.0) {
                printf("\n");
                fprintf(stderr, "motionbench bench fincham: %s failed at %zu nodes\n",
                        fincham_variants[v], n);
                return EXIT_USAGE;
            }
            printf(" %27.4g node-steps/s", r);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
