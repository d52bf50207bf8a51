/* bench_leapfrog.c -- `motionbench bench leapfrog`: what a user's leap-frog step costs on
 * particles, next to a lean loop that does only the physical work.
 *
 * System: N free spherical particles (masses 1 .. 1.1) under uniform
 * gravity, no spin.  Three codes are timed, all single-threaded, in the same process,
 * interleaved (rounds of whole step, lean loop, kernel; best batch rate of each over the
 * rounds, so a transient load elsewhere on the machine hits all three alike):
 *   whole step  mb_stepper_step(leapfrog) through the public API: force evaluation
 *               (reset, gravity model, finiteness), translation, rotation path, NaN/Inf
 *               detection and bookkeeping -- what `motionbench run` executes;
 *   lean loop   the peer: a structure-of-arrays loop compiled into this benchmark doing
 *               only the physical work of uniform gravity, v += h g, x += h v per
 *               component, in place (no mass, inverse mass or force arrays: under a
 *               uniform field a = g, and a loop that read m and 1/m would weaken the
 *               peer);
 *   kernel      the translational kernel alone (mb_leapfrog_translate: forces given,
 *               no rotation, no bookkeeping), the figure this benchmark printed before.
 * With --odeint PROGRAM a fourth code joins the rounds: Boost.Odeint's velocity_verlet on
 * the same particles, in the peer program built from tools/peers/odeint_free_fall.cpp
 * and run as a child once per round (bench_peer.h; it times its own batch, so its
 * start-up is not counted), with the ratio whole/Odeint.
 * Figures are node-steps/s (CPU time, bench_util.h) and the ratios whole/lean and
 * kernel/lean.  Exit 1 when the whole step is below 0.5x the lean loop, or below 1.5x
 * Odeint when it is timed, at 10^6 nodes or more (the targets of the step). */
#include "bench_peer.h"
#include "bench_util.h"
#include "cli.h"
#include "mb_forces.h"
#include "mb_leapfrog.h"
#include "mb_nodes.h"
#include "mb_stepper.h"
#include "mb_system.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define WHOLE_STEP_TARGET 0.5   /* whole step / lean loop at >= 10^6 nodes */
#define ODEINT_TARGET 1.5       /* whole step / Odeint velocity_verlet at >= 10^6 nodes */
#define BENCH_H 1e-4            /* time step: 10^4 steps keep every value finite */

static const double gravity_g[3] = { 0.0, 0.0, -9.81 };

/* The three codes on the same particles: a system for the public API, SoA arrays for
 * the lean loop, output arrays for the kernel. */
struct lf_bench {
    size_t n;
    mb_system *sys;
    mb_stepper *st;
    double *x, *v;               /* lean loop: 3n, 3n */
    double *x_out, *v_out;       /* kernel outputs, 3n each */
};

static void lf_bench_free(struct lf_bench *b)
{
    mb_stepper_free(b->st);
    mb_system_free(b->sys);
    free(b->x); free(b->v);
    free(b->x_out); free(b->v_out);
}

static double initial_position(size_t j) { return 1e-3 * (double)(j % 1013); }
static double initial_velocity(size_t j) { return 1e-2 * (double)(j % 71) - 0.3; }
static double particle_mass(size_t i) { return 1.0 + 1e-3 * (double)(i % 97); }

/* 3n doubles of the lean loop on a 64-byte boundary, so that none of its 32-byte
 * vectors straddles two cache lines (the library's AVX2 kernels start at a 32-byte
 * boundary too); lf_bench_alloc sets every element */
static double *lean_array(size_t n)
{
    const size_t bytes = 3 * n * sizeof(double);
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static int lf_bench_alloc(struct lf_bench *b, size_t n)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    b->sys = mb_system_alloc(n);
    b->x = lean_array(n);
    b->v = lean_array(n);
    b->x_out = malloc(3 * n * sizeof(double));
    b->v_out = malloc(3 * n * sizeof(double));
    if (!b->sys || !b->x || !b->v || !b->x_out || !b->v_out
        || mb_forces_add(b->sys->forces, mb_force_gravity, mb_gravity_new(gravity_g)) != MB_SUCCESS) {
        lf_bench_free(b);
        return -1;
    }
    mb_nodes *s = b->sys->nodes;
    for (size_t i = 0; i < n; i++) {
        mb_nodes_set_mass(s, i, particle_mass(i));
        for (int a = 0; a < 3; a++) {
            size_t j = 3 * i + a;
            s->x[j] = b->x[j] = initial_position(j);
            s->v[j] = b->v[j] = initial_velocity(j);
            b->x_out[j] = b->v_out[j] = 0.0;
        }
    }
    b->st = mb_stepper_alloc("leapfrog", b->sys);
    if (b->st == NULL) {
        lf_bench_free(b);
        return -1;
    }
    return 0;
}

/* Lean structure-of-arrays leap-frog under uniform gravity, in place: the kick
 * v += h g and the drift x += h v per component, h g computed once per step.  It reads
 * and writes x and v only (48 bytes per node-step each way).  The peer is written as
 * well as this build allows, as the library's own kernels are: on a processor with AVX2
 * four nodes at a time in three 32-byte vectors (x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3,
 * the pattern h g repeats with), else with SSE2 two nodes at a time in three 16-byte
 * halves (x0 y0 | z0 x1 | y1 z1), every constant in a register, on 64-byte aligned
 * arrays (lean_array).  A loop over the components k = 0..2 indexing an array
 * h g[k] compiled to scalar code that reloaded h g[k] and h each iteration; the SSE2
 * form ran faster than it at every size, most inside the caches
 * (doc/performance-history.md, "The lean loop").  Same IEEE operations in every form. */
#if defined(__x86_64__) && defined(__GNUC__)
#define LEAN_LOOP_QUADS 1
#include <immintrin.h>

/* 1 when the lean loop runs its AVX2 form */
static int lean_loop_quads(void)
{
    return __builtin_cpu_supports("avx2") != 0;
}

/* nodes 0 .. 4 floor(n/4) - 1 of the lean loop, four at a time; returns the nodes done */
static __attribute__((target("avx2"))) size_t lean_loop_quads_step(double *restrict x,
                                                                   double *restrict v,
                                                                   size_t n, double h,
                                                                   const double hg[3])
{
    const __m256d g0 = _mm256_set_pd(hg[0], hg[2], hg[1], hg[0]);
    const __m256d g1 = _mm256_set_pd(hg[1], hg[0], hg[2], hg[1]);
    const __m256d g2 = _mm256_set_pd(hg[2], hg[1], hg[0], hg[2]), vh = _mm256_set1_pd(h);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        double *xi = &x[3 * i], *vi = &v[3 * i];
        const __m256d v0 = _mm256_add_pd(_mm256_loadu_pd(vi), g0);
        const __m256d v1 = _mm256_add_pd(_mm256_loadu_pd(vi + 4), g1);
        const __m256d v2 = _mm256_add_pd(_mm256_loadu_pd(vi + 8), g2);
        _mm256_storeu_pd(vi, v0);
        _mm256_storeu_pd(vi + 4, v1);
        _mm256_storeu_pd(vi + 8, v2);
        _mm256_storeu_pd(xi, _mm256_add_pd(_mm256_loadu_pd(xi), _mm256_mul_pd(vh, v0)));
        _mm256_storeu_pd(xi + 4, _mm256_add_pd(_mm256_loadu_pd(xi + 4), _mm256_mul_pd(vh, v1)));
        _mm256_storeu_pd(xi + 8, _mm256_add_pd(_mm256_loadu_pd(xi + 8), _mm256_mul_pd(vh, v2)));
    }
    return i;
}
#else
static int lean_loop_quads(void)
{
    return 0;
}
#endif

/* the form the lean loop runs on this processor, for the benchmark's header */
static const char *lean_loop_form(void)
{
    if (lean_loop_quads())
        return "AVX2, four nodes per iteration, constants in registers";
#if defined(__SSE2__)
    return "SSE2, two nodes per iteration, constants in registers";
#else
    return "scalar, the three components of a node written out";
#endif
}

static void lean_loop_step(struct lf_bench *b, double h)
{
    double *restrict x = b->x, *restrict v = b->v;
    const double hg0 = h * gravity_g[0], hg1 = h * gravity_g[1], hg2 = h * gravity_g[2];
    const size_t n = b->n;
    size_t i = 0;
#ifdef LEAN_LOOP_QUADS
    if (lean_loop_quads()) {
        const double hg[3] = { hg0, hg1, hg2 };
        i = lean_loop_quads_step(x, v, n, h, hg);
    }
#endif
#if defined(__SSE2__)
    const __m128d g01 = _mm_set_pd(hg1, hg0), g20 = _mm_set_pd(hg0, hg2);
    const __m128d g12 = _mm_set_pd(hg2, hg1), vh = _mm_set1_pd(h);
    for (; i + 2 <= n; i += 2) {
        double *xi = &x[3 * i], *vi = &v[3 * i];
        const __m128d v0 = _mm_add_pd(_mm_loadu_pd(vi), g01);
        const __m128d v1 = _mm_add_pd(_mm_loadu_pd(vi + 2), g20);
        const __m128d v2 = _mm_add_pd(_mm_loadu_pd(vi + 4), g12);
        _mm_storeu_pd(vi, v0);
        _mm_storeu_pd(vi + 2, v1);
        _mm_storeu_pd(vi + 4, v2);
        _mm_storeu_pd(xi, _mm_add_pd(_mm_loadu_pd(xi), _mm_mul_pd(vh, v0)));
        _mm_storeu_pd(xi + 2, _mm_add_pd(_mm_loadu_pd(xi + 2), _mm_mul_pd(vh, v1)));
        _mm_storeu_pd(xi + 4, _mm_add_pd(_mm_loadu_pd(xi + 4), _mm_mul_pd(vh, v2)));
    }
#endif
    for (; i < n; i++) {
        double *xi = &x[3 * i], *vi = &v[3 * i];
        vi[0] += hg0;
        xi[0] += h * vi[0];
        vi[1] += hg1;
        xi[1] += h * vi[1];
        vi[2] += hg2;
        xi[2] += h * vi[2];
    }
}

enum lf_code { CODE_WHOLE, CODE_LEAN, CODE_KERNEL, CODE_ODEINT, CODE_COUNT };
static const char *const code_names[CODE_COUNT] = { "whole step", "lean loop", "kernel",
                                                    "Odeint peer" };

static int run_code(struct lf_bench *b, enum lf_code code)
{
    switch (code) {
    case CODE_WHOLE:
        return mb_stepper_step(b->st, b->sys, BENCH_H);
    case CODE_LEAN:
        lean_loop_step(b, BENCH_H);
        return 0;
    default: {
        mb_nodes *s = b->sys->nodes;
        return mb_leapfrog_translate(s, b->x_out, b->v_out, BENCH_H);
    }
    }
}

/* Node-steps/s of one batch of steps lasting at least slice seconds (at least 2 steps). */
static double batch_rate(struct lf_bench *b, enum lf_code code, double slice)
{
    long steps = 0;
    double t0 = mb_bench_now(), dt;
    do {
        if (run_code(b, code) != 0)
            return -1.0;
        steps++;
        dt = mb_bench_now() - t0;
    } while (steps < 2 || dt < slice);
    return (double)b->n * (double)steps / dt;
}

/* rates[c]: best batch rate of code c over interleaved rounds; the Odeint peer (in a
 * child) only when odeint names its program. */
static int measure_size(struct lf_bench *b, double min_time, const char *odeint,
                        double rates[CODE_COUNT])
{
    enum { ROUNDS = 5 };
    const int codes = odeint ? CODE_COUNT : CODE_ODEINT;
    const double slice = min_time / (ROUNDS * codes);
    for (int c = 0; c < CODE_COUNT; c++)
        rates[c] = 0.0;
    for (int round = 0; round < ROUNDS; round++)
        for (int c = 0; c < codes; c++) {
            double r = c == CODE_ODEINT ? mb_bench_peer_rate(odeint, b->n, slice)
                                        : batch_rate(b, (enum lf_code)c, slice);
            if (r < 0.0) {
                fprintf(stderr, "motionbench bench leapfrog: %s failed at %zu nodes\n",
                        code_names[c], b->n);
                return -1;
            }
            if (r > rates[c])
                rates[c] = r;
        }
    return 0;
}

int mb_bench_leapfrog(int argc, char **argv)
{
    double max_nodes = 1e6, min_time = 3.0;
    const char *odeint = NULL;
    const mb_cli_option peer[] = {
        { .name = "--odeint", .kind = MB_CLI_STRING, .dest = &odeint, .value = "a program",
          .empty = "empty program name", .flags = MB_CLI_ONCE },
    };
    int st = mb_bench_size_args(argc, argv, "leapfrog", &max_nodes, &min_time, peer, 1);
    if (st < 0)
        printf("  --odeint PROGRAM: also time Boost.Odeint's velocity_verlet in\n"
               "  the peer PROGRAM built from tools/peers/odeint_free_fall.cpp (its first\n"
               "  lines give the compiler command), in a child process once per round.\n");
    if (st != 0)
        return st < 0 ? MB_EXIT_OK : st;
    printf("leapfrog: N free particles under gravity, single thread, node-steps/s\n"
           "whole step: mb_stepper_step(\"leapfrog\") (forces + update + bookkeeping);\n"
           "lean loop (peer): v += h g, x += h v per component in place, h g once per step,\n"
           "  %s;\n"
           "kernel: translation only (forces given); the lean loop is compiled with this build's flags.\n"
           "CPU time of this thread, interleaved rounds, best batch of each; ratios against the lean loop.\n\n",
           lean_loop_form());
    if (odeint)
        printf("Odeint (peer): %s --rate N S, a child once per round timing its own batch;\n"
               "  velocity_verlet, a = g per component (no mass array, no divide); built as\n"
               "  tools/peers/odeint_free_fall.cpp says (g++ -O2: -O3 -march=native was no faster).\n\n",
               odeint);
    printf("%12s %14s %14s %14s %12s %12s", "nodes", "whole step", "lean loop", "kernel",
           "whole/lean", "kernel/lean");
    printf(odeint ? " %14s %13s\n" : "\n", "Odeint", "whole/Odeint");
    int checked = 0, below = 0, below_odeint = 0;
    for (double nn = 1e3; nn <= max_nodes * 1.0000001; nn *= 10.0) {
        struct lf_bench b;
        size_t n = (size_t)nn;
        if (lf_bench_alloc(&b, n) != 0) {
            fprintf(stderr, "motionbench bench leapfrog: cannot set up %zu particles\n", n);
            return MB_EXIT_USAGE;
        }
        double r[CODE_COUNT];
        int failed = measure_size(&b, min_time, odeint, r);
        lf_bench_free(&b);
        if (failed)
            return MB_EXIT_USAGE;
        double ratio = r[CODE_WHOLE] / r[CODE_LEAN];
        double ratio_odeint = r[CODE_WHOLE] / r[CODE_ODEINT];
        printf("%12zu %14.4g %14.4g %14.4g %12.3f %12.3f", n, r[CODE_WHOLE], r[CODE_LEAN],
               r[CODE_KERNEL], ratio, r[CODE_KERNEL] / r[CODE_LEAN]);
        if (odeint)
            printf(" %14.4g %13.3f", r[CODE_ODEINT], ratio_odeint);
        printf("\n");
        fflush(stdout);
        if (n >= 1000000) {
            checked++;
            below += ratio < WHOLE_STEP_TARGET;
            below_odeint += odeint && ratio_odeint < ODEINT_TARGET;
        }
    }
    if (checked == 0)
        return MB_EXIT_OK;
    printf("\ncheck: whole step >= %.1fx the lean loop at >= 10^6 nodes: %s\n",
           WHOLE_STEP_TARGET, below ? "FAIL" : "pass");
    if (odeint)
        printf("check: whole step >= %.1fx Odeint velocity_verlet at >= 10^6 nodes: %s\n",
               ODEINT_TARGET, below_odeint ? "FAIL" : "pass");
    return below || below_odeint ? MB_EXIT_FAIL : MB_EXIT_OK;
}
