/* bench_implicit.c -- the linear-cost benchmarks of the implicit Euler schemes
 * (DESIGN 4.1: "the per-step cost must grow linearly with the number of particles on
 * chains and 2-D spring grids").
 *
 * For each size N (10^3 to 10^6 particles, 2 sizes per decade) the problem is built, one
 * step is taken untimed (it builds the sparse pattern) and a second one sets the batch
 * (steps enough for BENCH_BATCH_SECONDS, at least one).  Then `rounds` interleaved rounds
 * follow; in each, timed in turn over one batch (CPU time of the thread, bench_util.h):
 * the whole step; the assembly the step performs -- forces, matrix and right-hand side,
 * through mb_implicit_solver_assemble of a solver=auto solver: straight into
 * block-tridiagonal storage on chains, into CSR otherwise -- alone; the plain rebuild of
 * the same system (bench_rebuild.c); and the lean peer (chain: whole lean steps, each the
 * rebuild, a block Thomas sweep, bench_blocktri.c, whose backward pass makes the update;
 * cloth: CHOLMOD, bench_cholmod.c, and the update on the rebuilt system).  A load that
 * comes and goes meets all four alike.  Each time is the median over the rounds, each
 * ratio (assembly / rebuild, step / peer) the median of the rounds' own ratios: one
 * disturbed round moves neither.  The solve column is the step minus the assembly; the
 * peer's solution is compared with the library's (largest difference relative to
 * max |v+|, and on the chain x+'s relative to max |x+|, printed).  The growth exponent
 * p of cost ~ N^p is the least-squares slope of log(step) against log(N) over the
 * largest decade of sizes (bench_growth.h: a fit across the caches reads their edge as
 * growth); the check fails (exit 1) when p > 1.15.  The slope over every size is printed
 * beside it. */
#include "array_scan.h"
#include "bench_blocktri.h"
#include "bench_cholmod.h"
#include "bench_growth.h"
#include "bench_rebuild.h"
#include "bench_rounds.h"
#include "bench_util.h"
#include "cli.h"
#include "cli_options.h"
#include "mb_implicit.h"
#include "mb_linsolve.h"
#include "mb_memory.h"
#include "mb_problem.h"
#include "mb_stepper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_SIZES 16
#define BENCH_EXPONENT_LIMIT 1.15
/* a batch: steps enough for this many seconds of CPU time (one step when it takes longer),
 * so that the rounds of small systems are not at the clock's and the caches' mercy */
#define BENCH_BATCH_SECONDS 0.02
#define BENCH_MAX_ROUNDS 1000
/* the fit needs two sizes: 10^3 and 10^3.5 (the size loop allows 1e-4 relative slack) */
#define BENCH_MIN_MAX_N 3163

struct bench_opts {
    const char *integrator;
    double dt, max_n;
    long rounds;                /* --steps: interleaved rounds per size */
};

static void bench_usage(const char *name, FILE *out)
{
    fprintf(out,
        "usage: motionbench bench %s [-i SPEC] [--dt DT] [--steps S] [--max-n N]\n"
        "  Times implicit steps, their assembly and a lean peer in S interleaved rounds for\n"
        "  sizes 10^3 .. N particles (median over the rounds) and fits the growth exponent\n"
        "  of the per-step cost over the largest decade of sizes (the largest three); fails\n"
        "  (exit 1) above %.2f.  The exponent over every size is printed too.\n"
        "  -i SPEC    integrator (default implicit-euler)\n"
        "  --dt DT    time step (default 1/120 s)\n"
        "  --steps S  interleaved rounds per size, each timing every code over a batch of\n"
        "             at least %g s (one step if longer); times are the medians over the\n"
        "             rounds, ratios the medians of the rounds' ratios (in [1, %d],\n"
        "             default 5)\n"
        "  --max-n N  largest size in [%d, 1e8] (default 1e6)\n", name, BENCH_EXPONENT_LIMIT,
        BENCH_BATCH_SECONDS, BENCH_MAX_ROUNDS, BENCH_MIN_MAX_N);
}

/* -1: go on; otherwise an exit status */
static int bench_args(int argc, char **argv, struct bench_opts *o)
{
    double steps = (double)o->rounds;
    const mb_cli_option options[] = {
        { .name = "--integrator", .letter = 'i', .kind = MB_CLI_STRING, .dest = &o->integrator,
          .value = "an integrator" },
        { .name = "--dt", .kind = MB_CLI_DOUBLE, .dest = &o->dt, .value = "a time step",
          .min = 0.0, .min_open = 1, .max = INFINITY },
        { .name = "--steps", .kind = MB_CLI_DOUBLE, .dest = &steps, .value = "a whole number",
          .min = 1.0, .max = BENCH_MAX_ROUNDS },
        { .name = "--max-n", .kind = MB_CLI_DOUBLE, .dest = &o->max_n, .value = "a size",
          .min = BENCH_MIN_MAX_N, .max = 1e8 },
    };
    char name[64];
    snprintf(name, sizeof name, "bench %s", argv[0]);
    const mb_cli_command cmd = { name, options, sizeof options / sizeof *options, NULL, NULL,
                                 0, NULL };
    size_t n = 0;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    if (st == MB_CLI_HELP) {
        bench_usage(argv[0], stdout);
        return MB_EXIT_OK;
    }
    if (st == MB_CLI_PARSED && steps != floor(steps))
        st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "--steps '%g': give a whole number "
                             "in [1, 1000]", steps);
    if (st != MB_CLI_PARSED)
        return mb_cli_fail(name);
    o->rounds = (long)steps;
    return -1;
}

/* Build the problem for size n; chain: n particles, cloth: side x side with side^2 ~ n.
 * g and D: its gravity vector and drag (for the plain rebuild). */
static int bench_system(const char *problem, double n, mb_system **sys, size_t *actual,
                        double g[3], double *D)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p = NULL;
    char buf[64];
    if (!strcmp(problem, "spring-chain")) {
        snprintf(buf, sizeof buf, "%.0f", n);
        mb_options_set(in, "n", buf);
    } else {
        snprintf(buf, sizeof buf, "%.0f", floor(sqrt(n) + 0.5));
        mb_options_set(in, "nx", buf);
        mb_options_set(in, "ny", buf);
    }
    int st = mb_problem_prepare(problem, in, &pt, &p);
    if (st == MB_SUCCESS) {
        g[0] = g[2] = 0.0;
        g[1] = -mb_options_double(p, "g");      /* mb_spring_network_finish: along -y */
        *D = mb_options_double(p, "D");
        st = pt->setup(p, sys);
    }
    mb_options_free(in);
    mb_options_free(p);
    if (st == MB_SUCCESS)
        *actual = (*sys)->nodes->n;
    return st;
}

/* What a linear-implicit step assembles, through the solver solver=auto builds: the
 * matrix in its storage (block-tridiagonal on chains, else CSR), the right-hand side b;
 * allocated for one system. */
struct assembly {
    mb_implicit_solver *S;
    mb_jacobian *J;
    double *b, *x;
    int primed;                 /* one assembly and solve made: the storage is chosen */
};

static void assembly_free(struct assembly *a)
{
    mb_implicit_solver_free(a->S);
    mb_jacobian_free(a->J);
    free(a->b);
    free(a->x);
}

static int assembly_alloc(struct assembly *a, size_t n)
{
    mb_options *o = mb_options_new();
    const mb_option_spec specs[] = { MB_IMPLICIT_SOLVER_OPTIONS, MB_OPTION_END };
    int st = o ? mb_options_validate(o, specs, "implicit-euler") : MB_ENOMEM;
    if (st == MB_SUCCESS)
        st = mb_implicit_solver_alloc(&a->S, o, n);
    mb_options_free(o);
    a->J = mb_jacobian_alloc(n, 53);
    a->b = malloc(3 * n * sizeof(double));
    a->x = calloc(3 * n, sizeof(double)); /* the priming solve's Krylov guess: zero */
    return st == MB_SUCCESS && a->J && a->b && a->x ? MB_SUCCESS : MB_ENOMEM;
}

/* the block-tridiagonal storage holding A, or NULL when A is in CSR */
static const mb_blocktri *assembly_btri(const struct assembly *a)
{
    return a->S->chain_last ? a->S->btri : NULL;
}

/* Seconds of one assembly at the system's state (mb_implicit_solver_assemble: forces,
 * matrix and right-hand side, as the step makes them), or -1 on failure.  The first call
 * also solves once, untimed, so that the solver has chosen its storage as in a step. */
static double assembly_seconds(struct assembly *a, mb_system *sys, double h)
{
    mb_nodes *s = sys->nodes;
    if (!a->primed) {
        if (mb_implicit_solver_assemble(a->S, sys->forces, s, sys->t, h, a->J, a->b) != MB_SUCCESS
            || mb_implicit_solver_solve(a->S, s, a->J, h, a->b, a->x) != MB_SUCCESS)
            return -1.0;
        a->primed = 1;
    }
    double t0 = mb_bench_now();
    if (mb_implicit_solver_assemble(a->S, sys->forces, s, sys->t, h, a->J, a->b) != MB_SUCCESS)
        return -1.0;
    return mb_bench_now() - t0;
}

/* The lean peer of a chain step (benchmark code): the plain rebuild of A and b in the lean
 * step's form (bench_rebuild_run: one pass, no forces stored, b as a fourth column of
 * the rows of D), the block Thomas sweep (bench_blocktri.c) gives v+ and, in its backward
 * pass, x+ = x + h v+ -- one assembly, one block-tridiagonal solve and the update, timed
 * together as a batch of whole steps. */
struct chain_peer {
    bench_thomas *T;
    double *v_new, *x_new;
};

static void chain_peer_free(struct chain_peer *P)
{
    bench_thomas_free(P->T);
    free(P->v_new);
    free(P->x_new);
}

static int chain_peer_alloc(struct chain_peer *P, size_t n)
{
    P->T = bench_thomas_alloc(n);
    P->v_new = malloc(3 * n * sizeof(double));
    P->x_new = malloc(3 * n * sizeof(double));
    return P->T && P->v_new && P->x_new ? MB_SUCCESS : MB_ENOMEM;
}

/* Seconds of reps whole lean steps at the state of s (each: the rebuild into R, the
 * sweep with the update; the clock read once around the batch, as for the library's
 * step), or -1 when a pivot block is singular.  Every step starts from the same state, as the
 * library's step does in the same round's other batches. */
static double chain_peer_seconds(struct chain_peer *P, bench_rebuild *R, const mb_nodes *s,
                                 double h, long reps)
{
    double t0 = mb_bench_now();
    for (long q = 0; q < reps; q++) {
        bench_rebuild_run(R, s, h);
        if (bench_thomas_solve(P->T, R->Db, R->L, R->U, s->x, h, P->v_new, P->x_new) != 0)
            return -1.0;
    }
    return mb_bench_now() - t0;
}

/* The larger of |v_peer - v_lib| / max|v_lib| and |x_peer - x_lib| / max|x_lib|: the
 * peer's v+ against the library's block sweep on its own assembly at the same state, its
 * x+ (formed in its sweep) against x + h v_lib; NAN when that is not block-tridiagonal. */
static double chain_peer_difference(const struct chain_peer *P, struct assembly *a,
                                    const mb_nodes *s, double h)
{
    const mb_blocktri *T = assembly_btri(a);
    if (T == NULL)
        return NAN;
    size_t n3 = 3 * T->n;
    double *vl = malloc(n3 * sizeof(double)), *xl = malloc(n3 * sizeof(double)), diff = NAN;
    if (vl && xl && mb_blocktri_solve(a->S->btri, a->b, vl) == MB_SUCCESS) {
        for (size_t k = 0; k < n3; k++)
            xl[k] = s->x[k] + h * vl[k];
        diff = fmax(mb_max_rel_diff(P->v_new, vl, n3), mb_max_rel_diff(P->x_new, xl, n3));
    }
    free(vl);
    free(xl);
    return diff;
}

/* The lean peer of a cloth step (benchmark code): after the plain rebuild of forces, A
 * and b in the library's CSR pattern, CHOLMOD's supernodal Cholesky factorisation of
 * (A + A^T) / 2 and its solve (bench_cholmod.h) give v+, and a plain loop x+ = x + h v+.
 * Analysed once per size, when the pattern is known; absent (why) without CHOLMOD or
 * when its factor would not fit in 80 % of the memory available. */
struct cloth_peer {
    bench_cholmod *C;
    double *v_new, *x_new;
    char why[256];
};

static void cloth_peer_free(struct cloth_peer *P)
{
    bench_cholmod_free(P->C);
    free(P->v_new);
    free(P->x_new);
}

static int cloth_peer_alloc(struct cloth_peer *P, mb_csr *csr, const bench_rebuild *R)
{
    const gsl_spmatrix *A = mb_csr_spmatrix(csr);   /* the pattern CHOLMOD analyses */
    size_t n = R->n;
    double avail = 0.0;
    const char *source;
    if (mb_memory_available(&avail, &source) != MB_SUCCESS)
        avail = 0.0;
    unsigned char *fixed = calloc(3 * n + 1, 1);
    for (size_t q = 0; fixed && q < R->nfixed; q++)
        fixed[R->fixed_dof[q]] = 1;
    P->C = fixed && A ? bench_cholmod_alloc(A, fixed, 0.8 * avail, P->why, sizeof P->why) : NULL;
    free(fixed);
    P->v_new = malloc(3 * n * sizeof(double));
    P->x_new = malloc(3 * n * sizeof(double));
    return P->C && P->v_new && P->x_new ? MB_SUCCESS : MB_EFAILED;
}

/* Seconds of CHOLMOD's factorisation and solve of the matrix R holds (the process's CPU
 * time, bench_cholmod_solve) and of the update, or -1 when CHOLMOD fails (P->why). */
static double cloth_peer_seconds(struct cloth_peer *P, const bench_rebuild *R,
                                 const mb_nodes *s, double h)
{
    double t = bench_cholmod_solve(P->C, R->vals, R->b, P->v_new, P->why, sizeof P->why);
    if (t < 0.0)
        return -1.0;
    double t0 = mb_bench_now();
    for (size_t k = 0; k < 3 * R->n; k++)
        P->x_new[k] = s->x[k] + h * P->v_new[k];
    return t + (mb_bench_now() - t0);
}

/* The largest |v_peer - v_lib| / max|v_lib|: the peer's v+ against the library's Krylov
 * solve of its own assembly at the same state (its last assembly_seconds). */
static double cloth_peer_difference(const struct cloth_peer *P, struct assembly *a,
                                    const mb_nodes *s, double h)
{
    size_t n3 = 3 * s->n;
    double *xl = malloc(n3 * sizeof(double)), diff = NAN;
    if (xl) {
        memcpy(xl, s->v, n3 * sizeof(double));
        if (mb_implicit_solver_solve(a->S, s, a->J, h, a->b, xl) == MB_SUCCESS)
            diff = mb_max_rel_diff(P->v_new, xl, n3);
    }
    free(xl);
    return diff;
}

/* The two peers; the one that applies follows the storage of the assembly (chain:
 * block-tridiagonal, cloth: CSR). */
struct peers {
    struct chain_peer chain;
    struct cloth_peer cloth;
    int ready;                  /* allocated for this size */
};

static void peers_free(struct peers *P)
{
    chain_peer_free(&P->chain);
    cloth_peer_free(&P->cloth);
}

/* Seconds of a batch of reps peer steps, or -1 when there is none: on a chain reps whole
 * lean steps; on the cloth the round's reps rebuilds into R (tr seconds) and after each
 * (the last one's matrix) CHOLMOD's factorisation, solve and the update. */
static double peer_seconds(struct peers *P, struct assembly *a, bench_rebuild *R,
                           const mb_nodes *s, double h, long reps, double tr)
{
    const mb_blocktri *T = assembly_btri(a);
    if (!P->ready) {
        int st = T ? chain_peer_alloc(&P->chain, s->n) : cloth_peer_alloc(&P->cloth, a->S->csr, R);
        if (st != MB_SUCCESS)
            return -1.0;
        P->ready = 1;
    }
    if (T)
        return chain_peer_seconds(&P->chain, R, s, h, reps);
    double tp = tr;
    for (long q = 0; q < reps && tp >= 0.0; q++) {
        double t = cloth_peer_seconds(&P->cloth, R, s, h);
        tp = t < 0.0 ? -1.0 : tp + t;
    }
    return tp;
}

/* the peer's configuration at this size, for the row */
static void peer_describe(const struct peers *P, const struct assembly *a,
                          const bench_rebuild *R, char *text, size_t len)
{
    if (assembly_btri(a))
        snprintf(text, len, "block-Thomas,rows[D|b],[X|z]-carried,x+in-back-pass");
    else if (P->cloth.C) {
        char cfg[96];
        bench_cholmod_describe(P->cloth.C, cfg, sizeof cfg);
        snprintf(text, len, "%s,asym=%.2g", cfg, bench_cholmod_asymmetry(P->cloth.C, R->vals));
    } else
        snprintf(text, len, "none");
}

/* Seconds of one plain rebuild at the system's state (building R at the first call, in
 * the storage the assembly used), or -1 when the plain loop does not handle the system. */
static double rebuild_seconds(bench_rebuild **R, const struct assembly *a, mb_system *sys,
                              const double g[3], double D, double h)
{
    const mb_csr *csr = NULL;
    if (*R == NULL && !assembly_btri(a)) {
        if (mb_csr_spmatrix(a->S->csr) == NULL)     /* the pattern the rebuild writes in */
            return -1.0;
        csr = a->S->csr;
    }
    if (*R == NULL && (*R = bench_rebuild_alloc(sys, g, D, csr)) == NULL)
        return -1.0;
    double t0 = mb_bench_now();
    bench_rebuild_run(*R, sys->nodes, h);
    return mb_bench_now() - t0;
}

/* The chain rebuild's matrix and right-hand side against the library's block-tridiagonal
 * T and b: the rows of [D_i | b_i] taken apart into D and b (bench_rebuild.h), then the
 * larger of the relative differences of D, L, U and b; NAN when out of memory. */
static double chain_rebuild_difference(const bench_rebuild *R, const mb_blocktri *T,
                                       const double *b)
{
    size_t n = R->n, n9 = 9 * n;
    double *D = malloc(n9 * sizeof(double)), *rb = malloc(3 * n * sizeof(double)), d = NAN;
    if (D && rb) {
        for (size_t i = 0; i < n; i++)
            for (size_t a = 0; a < 3; a++) {
                for (size_t c = 0; c < 3; c++)
                    D[9 * i + 3 * a + c] = R->Db[12 * i + 4 * a + c];
                rb[3 * i + a] = R->Db[12 * i + 4 * a + 3];
            }
        d = fmax(fmax(mb_max_rel_diff(D, T->D, n9), mb_max_rel_diff(rb, b, 3 * n)),
                 fmax(mb_max_rel_diff(R->L, T->L, n9), mb_max_rel_diff(R->U, T->U, n9)));
    }
    free(D);
    free(rb);
    return d;
}

/* The plain rebuild's matrix and right-hand side against the library's last assembly at
 * the same state: the larger of the two relative differences. */
static double rebuild_difference(const bench_rebuild *R, const struct assembly *a)
{
    const mb_blocktri *T = assembly_btri(a);
    if (T != NULL)
        return chain_rebuild_difference(R, T, a->b);
    const gsl_spmatrix *A = mb_csr_spmatrix(a->S->csr);       /* its last assembly */
    double dA = A ? mb_max_rel_diff(R->vals, A->data, R->nvals) : NAN;
    return fmax(dA, mb_max_rel_diff(R->b, a->b, 3 * R->n));
}

/* What one size measures: seconds per step (medians over the rounds) of the whole step,
 * its assembly, the plain rebuild (NAN if none) with its difference from the library's A
 * and b, and the lean peer (rebuild, solve and update; NAN if none) with its difference
 * from the library's v+; the medians of the rounds' assembly / rebuild and step / peer;
 * Krylov iterations per timed step. */
struct bench_size {
    size_t actual;
    double step, assembly, rebuild, rebuild_diff, peer, peer_diff, cycles;
    double asm_ratio, peer_ratio;
    char peer_config[128], peer_why[256];
};

/* Each round's seconds per step of the four codes (bench_rounds.h). */
struct bench_rounds {
    long count, reps;           /* rounds made; steps in each code's batch */
    double *step, *assembly, *rebuild, *peer, *scratch;     /* scratch: 2 rounds values */
};

static void rounds_free(struct bench_rounds *R)
{
    free(R->step);
    free(R->assembly);
    free(R->rebuild);
    free(R->peer);
    free(R->scratch);
}

static int rounds_alloc(struct bench_rounds *R, long rounds)
{
    size_t n = (size_t)rounds;
    R->count = 0;
    R->step = malloc(n * sizeof(double));
    R->assembly = malloc(n * sizeof(double));
    R->rebuild = malloc(n * sizeof(double));
    R->peer = malloc(n * sizeof(double));
    R->scratch = malloc(2 * n * sizeof(double));
    return R->step && R->assembly && R->rebuild && R->peer && R->scratch ? MB_SUCCESS : MB_ENOMEM;
}

/* What the codes of one size share */
struct bench_codes {
    mb_stepper *stp;
    mb_system *sys;
    struct assembly a;
    bench_rebuild *R;
    struct peers P;
    double g[3], D;
    int plain, peer;            /* the plain rebuild and the peer apply */
};

/* One round: each code timed over a batch of R->reps steps in turn, seconds per step
 * stored at round R->count. */
static int bench_round(struct bench_codes *c, const struct bench_opts *o, struct bench_rounds *R)
{
    long k = R->count, reps = R->reps;
    int st = MB_SUCCESS;
    double t0 = mb_bench_now();
    for (long q = 0; q < reps && st == MB_SUCCESS; q++)
        st = mb_stepper_step(c->stp, c->sys, o->dt);
    R->step[k] = (mb_bench_now() - t0) / (double)reps;
    double ta = 0.0, tr = 0.0, tp = 0.0;
    for (long q = 0; q < reps && st == MB_SUCCESS; q++) {
        double t = assembly_seconds(&c->a, c->sys, o->dt);
        if (t < 0.0)
            st = MB_EFAILED;
        ta += t;
    }
    for (long q = 0; q < reps && st == MB_SUCCESS && c->plain; q++) {
        double t = rebuild_seconds(&c->R, &c->a, c->sys, c->g, c->D, o->dt);
        c->plain = t >= 0.0;
        tr += t;
    }
    if (st == MB_SUCCESS && c->plain && c->peer) {
        tp = peer_seconds(&c->P, &c->a, c->R, c->sys->nodes, o->dt, reps, tr);
        c->peer = tp >= 0.0;
    }
    R->assembly[k] = ta / (double)reps;
    R->rebuild[k] = c->plain ? tr / (double)reps : NAN;
    R->peer[k] = c->plain && c->peer ? tp / (double)reps : NAN;
    R->count++;
    return st;
}

/* The figures of the rounds into r */
static void rounds_summary(struct bench_rounds *R, struct bench_size *r)
{
    size_t n = (size_t)R->count;
    r->step = mb_bench_median(R->step, n, R->scratch);
    r->assembly = mb_bench_median(R->assembly, n, R->scratch);
    r->rebuild = mb_bench_median(R->rebuild, n, R->scratch);
    r->peer = mb_bench_median(R->peer, n, R->scratch);
    r->asm_ratio = mb_bench_median_ratio(R->assembly, R->rebuild, n, R->scratch);
    r->peer_ratio = mb_bench_median_ratio(R->step, R->peer, n, R->scratch);
}

/* The untimed steps before the rounds: the first (it chooses the storage), then one whose
 * time sets the batch */
static int bench_warm_up(struct bench_codes *c, const struct bench_opts *o,
                         struct bench_rounds *R)
{
    int st = mb_stepper_step(c->stp, c->sys, o->dt);
    double t0 = mb_bench_now();
    if (st == MB_SUCCESS)
        st = mb_stepper_step(c->stp, c->sys, o->dt);
    R->reps = mb_bench_batch_steps(mb_bench_now() - t0, BENCH_BATCH_SECONDS);
    return st;
}

/* The differences of the plain rebuild and of the peer from the library, the peer's
 * configuration, and why there is no peer */
static void bench_compare(struct bench_codes *c, const struct bench_opts *o, int st,
                          struct bench_size *r)
{
    r->rebuild_diff = c->plain && c->R ? rebuild_difference(c->R, &c->a) : NAN;
    r->peer_diff = NAN;
    int peer = c->plain && c->peer;
    if (peer && st == MB_SUCCESS)
        r->peer_diff = assembly_btri(&c->a) ? chain_peer_difference(&c->P.chain, &c->a,
                                                                    c->sys->nodes, o->dt)
                                            : cloth_peer_difference(&c->P.cloth, &c->a,
                                                                    c->sys->nodes, o->dt);
    snprintf(r->peer_why, sizeof r->peer_why, "%s", !peer && c->P.cloth.why[0] ? c->P.cloth.why
                                                    : !peer ? "the plain rebuild does not apply" : "");
    if (peer && c->R)
        peer_describe(&c->P, &c->a, c->R, r->peer_config, sizeof r->peer_config);
    else
        snprintf(r->peer_config, sizeof r->peer_config, "none");
}

static int bench_one(const char *problem, const struct bench_opts *o, double n,
                     struct bench_size *r)
{
    struct bench_codes c = { .plain = 1, .peer = 1 };
    struct bench_rounds R = { 0 };
    int st = bench_system(problem, n, &c.sys, &r->actual, c.g, &c.D);
    c.stp = st == MB_SUCCESS ? mb_stepper_alloc(o->integrator, c.sys) : NULL;
    if (c.stp == NULL) {
        mb_system_free(c.sys);
        return MB_EFAILED;
    }
    if (assembly_alloc(&c.a, c.sys->nodes->n) != MB_SUCCESS || rounds_alloc(&R, o->rounds) != MB_SUCCESS)
        st = MB_ENOMEM;
    if (st == MB_SUCCESS)
        st = bench_warm_up(&c, o, &R);
    mb_stepper_stats s0, s1;
    mb_stepper_get_stats(c.stp, &s0);
    for (long k = 0; k < o->rounds && st == MB_SUCCESS; k++)
        st = bench_round(&c, o, &R);
    rounds_summary(&R, r);
    bench_compare(&c, o, st, r);
    mb_stepper_get_stats(c.stp, &s1);
    r->cycles = (double)(s1.linear_iterations - s0.linear_iterations)
                / (double)(R.count > 0 ? R.count * R.reps : 1);
    rounds_free(&R);
    peers_free(&c.P);
    bench_rebuild_free(c.R);
    assembly_free(&c.a);
    mb_stepper_free(c.stp);
    mb_system_free(c.sys);
    return st;
}

/* the first line: the system, the scheme, and what the peer is */
static void bench_header(const char *problem, const struct bench_opts *o)
{
    printf("# %s, integrator %s, dt %g, %ld interleaved rounds per size (step, assembly, plain "
           "rebuild, peer, each over a batch of >= %g s of steps): times are medians over the "
           "rounds, asm/rebuild and step/peer the medians of the rounds' ratios\n", problem,
           o->integrator, o->dt, o->rounds, BENCH_BATCH_SECONDS);
    if (!strcmp(problem, "spring-chain")) {
        printf("# peer: lean chain step (benchmark code), timed as whole steps = plain rebuild "
               "of A and b in one pass over the nodes, each block written once (no zeroing, "
               "no forces stored, the dashpots' and drag's terms of b cancelled, a spring's "
               "block as alpha I + n p^T, one division a spring), b riding as a fourth column "
               "of the rows [D_i | b_i] "
               "+ block Thomas sweep (block LU, cofactor inverses, no pivoting, 1/det applied "
               "after the products) on rows of four, [S_i | r_i] = [D_i | b_i] - L_i "
               "[X_i-1 | z_i-1] and [X_i | z_i] = S_i^-1 [U_i | r_i], [X_i-1 | z_i-1] carried "
               "in registers, x+ = x + h v+ formed in its backward pass; rows as pairs of "
               "two doubles a lane (SSE2 on x86-64); peer_dv: v+'s and x+'s\n");
        return;
    }
    char build[96], threads[160];
    bench_cholmod_build(build, sizeof build);
    bench_cholmod_threads(threads, sizeof threads);
    printf("# peer: lean cloth step (benchmark code) = plain rebuild of forces, A and b in the "
           "library's CSR pattern (each block's rows two entries a lane, SSE2, as the "
           "library's blocks) + %s supernodal LL^T of (A + A^T)/2 (ordering: the best of "
           "AMD, METIS and NESDIS by cholmod_analyze, nmethods 4, analysed once per size, "
           "untimed) factorised and solved (cholmod_solve2) every step, %s, charged the "
           "process's CPU time (others: the share of it other threads took) + x+ = x + h v+\n",
           build, threads);
}

/* The growth exponent over the largest decade (the check) and over every size; the exit
 * status of the check. */
static int bench_growth_report(const double *sizes, const double *costs, size_t m)
{
    mb_bench_growth top = mb_bench_growth_top(sizes, costs, m);
    mb_bench_growth all = mb_bench_growth_fit(sizes, costs, m);
    int ok = mb_bench_growth_within(sizes, costs, m, BENCH_EXPONENT_LIMIT);
    printf("growth exponent %.3f (+- %.3f) over the largest decade (%.0f .. %.0f particles),"
           " limit %.2f: %s\n", top.exponent, top.error, sizes[m - top.sizes], sizes[m - 1],
           BENCH_EXPONENT_LIMIT, ok ? "ok" : "FAILED");
    printf("growth exponent %.3f (+- %.3f) over every size (%.0f .. %.0f; across the caches,"
           " not checked)\n", all.exponent, all.error, sizes[0], sizes[m - 1]);
    return ok ? MB_EXIT_OK : MB_EXIT_FAIL;
}

static int bench_run(const char *problem, int argc, char **argv)
{
    struct bench_opts o = { "implicit-euler", 1.0 / 120.0, 1e6, 5 };
    int rc = bench_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (!strcmp(problem, "cloth") && bench_cholmod_one_thread_process(argc, argv) != 0)
        return MB_EXIT_USAGE;              /* CHOLMOD's libraries on one thread from load */
    double sizes[BENCH_MAX_SIZES], costs[BENCH_MAX_SIZES];
    size_t m = 0;
    bench_header(problem, &o);
    printf("%10s %12s %12s %14s %14s %12s %12s %12s %12s %12s %12s %12s %s\n", "particles",
           "s_per_step", "us_per_node", "assembly_us/n", "rebuild_us/n", "asm/rebuild",
           "rebuild_dA", "solve_us/n", "krylov_iter", "peer_us/n", "peer_dv", "step/peer",
           "peer_config");
    for (double n = 1000; n <= o.max_n * 1.0001 && m < BENCH_MAX_SIZES; n *= sqrt(10.0)) {
        struct bench_size r = { 0 };
        if (bench_one(problem, &o, n, &r) != MB_SUCCESS)
            return mb_cli_fail("bench");
        double per_node = 1e6 / (double)r.actual;
        if (r.peer_why[0])
            printf("# %zu particles: no peer: %s\n", r.actual, r.peer_why);
        printf("%10zu %12.6g %12.6g %14.6g %14.6g %12.3g %12.3g %12.6g %12.3g %12.6g %12.3g "
               "%12.3g %s\n", r.actual, r.step, per_node * r.step, per_node * r.assembly,
               per_node * r.rebuild, r.asm_ratio, r.rebuild_diff,
               per_node * (r.step - r.assembly), r.cycles, per_node * r.peer, r.peer_diff,
               r.peer_ratio, r.peer_config);
        fflush(stdout);
        sizes[m] = (double)r.actual;
        costs[m] = r.step;
        m++;
    }
    return bench_growth_report(sizes, costs, m);
}

int mb_bench_implicit_chain(int argc, char **argv) { return bench_run("spring-chain", argc, argv); }
int mb_bench_implicit_cloth(int argc, char **argv) { return bench_run("cloth", argc, argv); }
