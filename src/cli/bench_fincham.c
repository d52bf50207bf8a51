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
 * Each batch runs at least FINCHAM_MIN_STEPS steps after one untimed step.  Figures are
 * body-steps/s (CPU time, bench_util.h) and whole/plain for the default variant.
 * With --lammps PROGRAM the same bodies (random orientations, the same angular momentum
 * per body, no interaction) are run by LAMMPS's fix nve/asphere in a child process, in
 * the same benchmark run, single-threaded (OMP_NUM_THREADS=1, one process), in each of
 * the configurations of lammps_configs (default input, atom sort off, no pair style):
 * its body-steps/s is n S / (CPU time of LAMMPS's loop of S steps: its "Loop time" times
 * the "% CPU use" it reports; a loop too short for its CPU timer run again longer,
 * bench_lammps.h), so set-up is not counted and, as for the library's codes, only the
 * time it held a core.  LAMMPS runs inside the rounds, after a batch of every library
 * code, once per configuration, each batch as long as LAMMPS's loops must be
 * (bench_lammps_rounds.h), so that each code's best is taken over as many loops as long;
 * the fastest configuration is the peer's figure and its name is printed beside it, the
 * last column gives verlet-nosquish / LAMMPS, and the steps of every best batch or loop
 * and LAMMPS's input at the largest size follow the table.  Exit 0, or 2 on bad options
 * or a failed peer. */
#include "bench_lammps.h"
#include "bench_lammps_rounds.h"
#include "bench_util.h"
#include "cli.h"
#include "mb_input.h"
#include "mb_memory.h"
#include "mb_nodes.h"
#include "mb_status.h"
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
#define FINCHAM_MIN_STEPS 10 /* steps of a timed batch or loop at least, in both codes */

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

/* The arrays freed and forgotten, so that a failed plain_alloc leaves nothing to free */
static void plain_free(struct plain_bodies *p)
{
    free(p->x); free(p->v); free(p->w); free(p->L); free(p->I); free(p->q);
    p->x = p->v = p->w = p->L = p->I = p->q = NULL;
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

/* ---- LAMMPS, the peer ---- */

/* LAMMPS peer: n free ellipsoids (shape 1 : 1.5 : 2, random orientations, angular
 * momentum (0.9, 0.35, -0.6)), fix nve/asphere, ${steps} steps, in one of the
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

/* The input of configuration c: n and steps are LAMMPS variables given on its command
 * line (-var n N -var steps S). */
static void lammps_input(FILE *f, const struct lammps_config *c)
{
    fprintf(f, "units lj\natom_style ellipsoid\nboundary p p p\n%s"
            "region box block 0 200 0 200 0 200\ncreate_box 1 box\n%s"
            "create_atoms 1 random ${n} 12345 box\nset type 1 mass 1.0\n"
            "set type 1 shape 1.0 1.5 2.0\nset type 1 quat/random 18238\n"
            "set type 1 angmom 0.9 0.35 -0.6\n"
            "fix 1 all nve/asphere\ntimestep 0.001\nthermo 0\nrun ${steps}\n",
            c->before_box, c->after_box);
}

/* The peer's files for one size: the input of every configuration and the log. */
struct lammps_files {
    char dir[64], input[LAMMPS_CONFIGS][96], log[96];
};

/* LAMMPS's files removed after runs that all went well (`ok`), else kept and named */
static void lammps_files_done(struct lammps_files *d, int ok)
{
    if (!ok) {
        fprintf(stderr, "motionbench bench fincham: LAMMPS's inputs, log and output are "
                "kept in %s\n", d->dir);
        return;
    }
    for (size_t c = 0; c < LAMMPS_CONFIGS; c++)
        unlink(d->input[c]);
    unlink(d->log);
    rmdir(d->dir);
}

static int lammps_files_open(struct lammps_files *d)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/motionbench-fincham-XXXXXX");
    if (mkdtemp(d->dir) == NULL) {
        d->dir[0] = '\0';
        return -1;
    }
    snprintf(d->log, sizeof d->log, "%s/log", d->dir);
    int ok = 1;
    for (size_t c = 0; c < LAMMPS_CONFIGS; c++) {
        snprintf(d->input[c], sizeof d->input[c], "%s/in%zu", d->dir, c);
        FILE *f = fopen(d->input[c], "w");
        if (f == NULL)
            return -1;
        lammps_input(f, &lammps_configs[c]);
        ok = fclose(f) == 0 && ok;
    }
    return ok ? 0 : -1;
}

/* ---- the rounds ---- */

/* The library's codes: whole steps of each variant (0..VARIANTS-1), the plain loop */
enum { PLAIN = VARIANTS, CODES = VARIANTS + 1, MAX_SIZES = 8 };

struct fincham_size {
    size_t n;
    double rate[CODES];         /* the best batch's body-steps/s of each code */
    long steps[CODES];          /* that batch's steps */
    long run[CODES];            /* each code's steps run in all, untimed ones too: the
                                 * variants' read from the time their system reached */
    int batches;                /* timed batches of each code */
    double peer;                /* LAMMPS's best body-steps/s (0: not run) */
    long peer_steps;            /* its steps */
    int peer_runs;              /* LAMMPS's charged runs */
    const struct lammps_config *config;
};

/* The codes of one size, stepped through the public API and in the plain loop */
struct fincham_codes {
    mb_system *sys[VARIANTS];
    mb_stepper *st[VARIANTS];
    struct plain_bodies p;
    long plain_run;
};

static void codes_free(struct fincham_codes *b)
{
    for (int v = 0; v < VARIANTS; v++) {
        mb_stepper_free(b->st[v]);
        mb_system_free(b->sys[v]);
    }
    if (b->p.x)
        plain_free(&b->p);
}

static int codes_alloc(struct fincham_codes *b, size_t n)
{
    memset(b, 0, sizeof *b);
    int ok = plain_alloc(&b->p, n) == 0;
    for (int v = 0; v < VARIANTS && ok; v++) {
        b->sys[v] = whole_system(n);
        b->st[v] = b->sys[v] ? mb_stepper_alloc(fincham_variants[v], b->sys[v]) : NULL;
        ok = b->st[v] != NULL;
    }
    return ok ? 0 : -1;
}

/* One step of code c (a variant's whole step, or the plain loop); 0 on success */
static int code_step(struct fincham_codes *b, int c)
{
    if (c == PLAIN) {
        plain_fincham_step(&b->p, FINCHAM_H);
        b->plain_run++;
        return 0;
    }
    return mb_stepper_step(b->st[c], b->sys[c], FINCHAM_H) == MB_SUCCESS ? 0 : -1;
}

/* Body-steps/s of code c over a batch of at least FINCHAM_MIN_STEPS steps and at least
 * `slice` seconds, after one untimed step, as LAMMPS's loop follows its run's set-up (so
 * that no code is charged for finding its arrays cold after another ran); -1 when a step
 * fails.  *timed: the batch's steps. */
static double batch_rate(struct fincham_codes *b, int c, double slice, long *timed)
{
    long steps = 0;
    *timed = 0;
    if (code_step(b, c) != 0)                   /* untimed */
        return -1.0;
    double t0 = mb_bench_now(), dt;
    do {
        if (code_step(b, c) != 0)
            return -1.0;
        steps++;
        dt = mb_bench_now() - t0;
    } while (steps < FINCHAM_MIN_STEPS || dt < slice);
    *timed = steps;
    return (double)b->p.n * (double)steps / dt;
}

/* The rounds' context: the codes of one size and their bests, LAMMPS's files */
struct fincham_rounds {
    struct fincham_codes *b;
    struct fincham_size *r;
    const char *program;
    const struct lammps_files *d;
};

/* One batch of every library code, each at least `seconds` long and each code's best
 * kept (bench_lammps_rounds.h's library): verlet-nosquish's rate and *steps its batch's
 * steps, or -1 when a step fails */
static double library_batches(void *ctx, double seconds, long *steps)
{
    struct fincham_rounds *x = ctx;
    double nosquish = -1.0;
    for (int c = 0; c < CODES; c++) {
        long timed;
        double rate = batch_rate(x->b, c, seconds, &timed);
        if (rate < 0.0)
            return -1.0;
        if (rate > x->r->rate[c]) {
            x->r->rate[c] = rate;
            x->r->steps[c] = timed;
        }
        if (c == VARIANTS - 1) {
            nosquish = rate;
            *steps = timed;
        }
    }
    x->r->batches++;
    return nosquish;
}

/* A run of LAMMPS in configuration `slot` (bench_lammps_rounds.h's lammps) */
static int lammps_in_slot(void *ctx, int slot, long steps)
{
    const struct fincham_rounds *x = ctx;
    char vars[64];
    snprintf(vars, sizeof vars, "-var n %zu -var steps %ld", x->r->n, steps);
    return mb_bench_lammps_run(x->program, x->d->input[slot], x->d->log, vars);
}

/* Interleaved rounds on n bodies (bench_lammps_rounds.h): in each round, for each of
 * LAMMPS's configurations (one slot without LAMMPS), a batch of every library code and
 * then a run of LAMMPS in that configuration as long as verlet-nosquish's batch.  MB_EXIT_OK, or
 * MB_EXIT_USAGE when a code fails (message printed; a failed LAMMPS run's files kept). */
static int measure_size(size_t n, double min_time, const char *lammps, struct fincham_size *r)
{
    enum { ROUNDS = 5 };
    struct fincham_codes b;
    struct lammps_files d;
    memset(r, 0, sizeof *r);
    memset(&d, 0, sizeof d);
    r->n = n;
    if (codes_alloc(&b, n) != 0 || (lammps && lammps_files_open(&d) != 0)) {
        fprintf(stderr, "motionbench bench fincham: cannot set up %zu bodies%s\n", n,
                lammps ? " or LAMMPS's inputs" : "");
        if (d.dir[0])
            lammps_files_done(&d, 1);
        codes_free(&b);
        return MB_EXIT_USAGE;
    }
    const int slots = lammps ? LAMMPS_CONFIGS : 1;
    struct fincham_rounds x = { .b = &b, .r = r, .program = lammps, .d = &d };
    const struct mb_bench_rounds R = {
        .rounds = ROUNDS, .slots = slots, .n = n, .min_steps = FINCHAM_MIN_STEPS,
        .slice = min_time / (ROUNDS * slots * (CODES + (lammps ? 1 : 0))), .ctx = &x,
        .library = library_batches, .lammps = lammps ? lammps_in_slot : NULL, .log = d.log,
    };
    struct mb_bench_peer_best best;
    int failed_slot, status = MB_EXIT_OK;
    switch (mb_bench_rounds_run(&R, &best, &failed_slot)) {
    case MB_BENCH_ROUNDS_LIBRARY_FAILED:
        fprintf(stderr, "motionbench bench fincham: cannot step %zu bodies: %s\n", n,
                mb_last_error());
        status = MB_EXIT_USAGE;
        break;
    case MB_BENCH_ROUNDS_LAMMPS_FAILED:
        fprintf(stderr, "motionbench bench fincham: LAMMPS peer '%s' failed at %zu bodies "
                "(%s): %s\n", lammps, n, lammps_configs[failed_slot].name, mb_last_error());
        status = MB_EXIT_USAGE;
        break;
    }
    r->peer = best.rate;
    r->peer_steps = best.steps;
    r->peer_runs = best.runs;
    r->config = best.runs > 0 ? &lammps_configs[best.slot] : NULL;
    for (int v = 0; v < VARIANTS; v++)
        r->run[v] = llround(b.sys[v]->t / FINCHAM_H);
    r->run[PLAIN] = b.plain_run;
    if (d.dir[0])
        lammps_files_done(&d, failed_slot < 0);
    codes_free(&b);
    return status;
}

/* ---- the report ---- */

static void print_header(const char *lammps)
{
    printf("fincham: N free aspherical bodies, no forces, single thread, body-steps/s\n"
           "whole step: mb_stepper_step per scheme; plain loop: SoA Fincham (default variant);\n"
           "CPU time of this thread, interleaved rounds, best batch of each.\n");
    if (lammps)
        printf("LAMMPS (peer): %s, fix nve/asphere, one process, OMP_NUM_THREADS=1, charged its\n"
               "  Loop time x %% CPU use; the fastest of %d configurations (pair-zero = pair_style zero\n"
               "  with a binned list checked every step; sort-off = atom_modify sort 0 0.0; no-pair =\n"
               "  no pair style), named per size in the last column; a batch of every library\n"
               "  code before each run of LAMMPS, each batch and loop at least %g s.\n", lammps,
               (int)LAMMPS_CONFIGS, MB_BENCH_LAMMPS_MIN_LOOP);
    printf("\n");
    printf("%10s %14s %14s %12s %14s %14s %16s", "bodies", "leapfrog", "plain loop",
           "whole/plain", "fincham-half", "fincham-woo", "verlet-nosquish");
    printf(lammps ? " %14s %14s  %s\n" : "\n", "LAMMPS", "nosquish/LAMMPS",
           "LAMMPS's best configuration");
}

static void print_row(const struct fincham_size *r, const char *lammps)
{
    const double *rate = r->rate;
    printf("%10zu %14.4g %14.4g %12.3f %14.4g %14.4g %16.4g", r->n, rate[0], rate[PLAIN],
           rate[0] / rate[PLAIN], rate[1], rate[2], rate[3]);
    if (lammps)
        printf(" %14.4g %14.3f  %s", r->peer, rate[3] / r->peer, r->config->name);
    printf("\n");
    fflush(stdout);
}

/* The steps each code's best batch or loop timed, of how many run, in how many */
static void print_steps(const struct fincham_size *r, int k, const char *lammps)
{
    static const char *const names[CODES] = {
        "leapfrog", "fincham-half", "fincham-woo", "verlet-nosquish", "plain loop"
    };
    printf("\nsteps timed in the best batch or loop (at least %d, each after its code's set-up:"
           " one untimed step of the library's codes, the run's set-up of LAMMPS):\n",
           FINCHAM_MIN_STEPS);
    for (int i = 0; i < k; i++) {
        printf("at %zu bodies:", r[i].n);
        for (int c = 0; c < CODES; c++)
            printf(" %s %ld of %ld,", names[c], r[i].steps[c], r[i].run[c]);
        printf(" in %d batches each", r[i].batches);
        if (lammps)
            printf("; LAMMPS %ld (of %d runs)", r[i].peer_steps, r[i].peer_runs);
        printf("\n");
    }
}

/* The peer as it ran at the largest size, so that a reader can rerun it */
static void print_peer(const char *lammps, const struct fincham_size *r)
{
    printf("\nLAMMPS at %zu bodies: run as OMP_NUM_THREADS=1 %s -in IN -log LOG -screen none "
           "-var n %zu -var steps %ld,\ncharged the CPU time of its Loop time (Loop time x %% "
           "CPU use); best configuration \"%s\", input IN:\n", r->n, lammps, r->n,
           r->peer_steps, r->config->name);
    lammps_input(stdout, r->config);
}

/* Bytes the codes of one size hold a body: a system of each variant and the plain loop's
 * 18 doubles (x, v, w, L, I: 3 each; q: 4), the difference of the peak resident set of
 * `bench fincham --max-nodes 1e5` and `--max-nodes 1e4` (1682 B a body; 1684 between
 * 10^5 and 10^6) times 1.1, as the simulation's estimates (memory_estimate.c), rounded
 * up.  Sizes are measured one at a time, so the largest is the peak. */
#define FINCHAM_BYTES_PER_BODY 1856.0

static double codes_bytes(size_t n, mb_memory_estimate *e)
{
    memset(e, 0, sizeof *e);
    e->state = e->total = FINCHAM_BYTES_PER_BODY * (double)n;
    return e->total;
}

/* The memory of the largest size (1e3, 1e4, ... up to max_nodes) printed and checked
 * against memory_limit, or what the machine has when it is 0 (mb_memory_check: refused
 * with a message when it does not fit), before anything is allocated */
static int check_memory(double max_nodes, double memory_limit)
{
    double largest = 1e3;
    for (int k = 1; largest * 10.0 <= max_nodes * 1.0000001 && k < MAX_SIZES; k++)
        largest *= 10.0;
    mb_memory_estimate e;
    char text[32];
    mb_memory_format(codes_bytes((size_t)largest, &e), text, sizeof text);
    printf("memory estimate at the largest size, %.0f bodies: %s\n", largest, text);
    fflush(stdout);
    return mb_memory_check(&e, memory_limit, "bench fincham");
}

int mb_bench_fincham(int argc, char **argv)
{
    double max_nodes = 1e6, min_time = 3.0, memory_limit = 0.0;
    const char *lammps = NULL;
    const mb_cli_option own[] = {
        { .name = "--lammps", .kind = MB_CLI_STRING, .dest = &lammps, .value = "a program",
          .empty = "empty program name", .flags = MB_CLI_ONCE },
        { .name = "--memory-limit", .kind = MB_CLI_SIZE, .dest = &memory_limit,
          .value = "a size, e.g. 8G", .flags = MB_CLI_ONCE },
    };
    int st = mb_bench_size_args(argc, argv, "fincham", &max_nodes, &min_time, own, 2);
    if (st < 0)
        printf("  --lammps PROGRAM: also time LAMMPS fix nve/asphere (e.g. lmp)\n"
               "  in a child process on the same bodies, in each of its configurations (default,\n"
               "  atom sort off, no pair style); the fastest is printed with its name;\n"
               "  --memory-limit SIZE: refuse sizes whose estimated memory exceeds SIZE\n"
               "  (e.g. 8G; default: the memory available).\n");
    if (st != 0)
        return st < 0 ? MB_EXIT_OK : st;
    if (check_memory(max_nodes, memory_limit) != MB_SUCCESS)
        return mb_cli_fail("bench fincham");
    print_header(lammps);
    struct fincham_size r[MAX_SIZES];
    int k = 0;
    for (double nn = 1e3; nn <= max_nodes * 1.0000001 && k < MAX_SIZES; nn *= 10.0, k++) {
        if ((st = measure_size((size_t)nn, min_time, lammps, &r[k])) != MB_EXIT_OK)
            return st;
        print_row(&r[k], lammps);
    }
    print_steps(r, k, lammps);
    if (lammps && k > 0)
        print_peer(lammps, &r[k - 1]);
    return MB_EXIT_OK;
}
