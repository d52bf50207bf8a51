/* cloth_driver.c -- an independent driver of `motionbench bench implicit-cloth`'s
 * comparison: the cloth of the benchmark (problem "cloth", N x N particles, two corners
 * of the first row pinned, its default constants written out below), stepped by the
 * library through its public API (mb_stepper_step with implicit-euler, defaults:
 * BiCGSTAB with symmetric Gauss-Seidel, rtol 1e-12) and by a lean linearised
 * backward-Euler step written here:
 *   per spring, with d = x_j - x_i, l = |d|, n = d / l, dv = v_j - v_i,
 *     F = [k (l - L) + c dv.n] n,   C = c n n^T,
 *     K = k (1 - L/l) I + k (L/l) n n^T + (c/l) [n (dv - (dv.n) n)^T + (dv.n)(I - n n^T)],
 *   f_i += F, f_j -= F, G = h C + h^2 K added to A(i,i), A(j,j) and subtracted from A(i,j),
 *   A(j,i); gravity m g and drag -D v per node (A(i,i) += h D I); b = (M - h C) v + h f
 *   (Baraff & Witkin 1998, eq. 6 in velocity form); the pinned nodes' velocities kept
 *   (their columns moved to b, their rows dropped); (A + A^T) / 2 on the free nodes
 *   factorised by CHOLMOD's supernodal Cholesky (analysed once, the best of AMD, METIS
 *   and NESDIS, nmethods = 4) and solved; x+ = x + h v+.
 * The symmetric part stands for A: the dashpots make A nonsymmetric by about 10^-4 of its
 * largest entry once the cloth moves (from rest the first step's A is symmetric), and the
 * lean step's v+ differs from the library's by about that (printed: the largest
 * |v_lean - v_lib| / max |v_lib| after the last step, the two cloths starting alike and
 * stepped as often).  The library's system is solved to |b - A x| <= 10^-12 |b|.
 *
 * CHOLMOD on one thread, as the library's step.  CHOLMOD 3 opens OpenMP regions of a
 * fixed four threads in its supernodal factorisation and OpenBLAS threads its products;
 * on two cores that made the lean step 1.3-2.1 times slower in wall-clock time than on
 * one thread.  The driver runs itself again with OMP_THREAD_LIMIT=1 (no region gets a
 * second thread) and OPENBLAS_NUM_THREADS=1 in its environment when either is not
 * already 1 (both are read when the libraries load), and prints the share of the lean
 * step's CPU time that threads other than the caller took (0 on one thread).
 *
 * The steps the benchmark times: per size, two untimed steps of each code (the library's
 * first chooses its storage; the CPU time of its second sets the batch: steps enough for
 * 0.02 s, at least one), then ROUNDS rounds (the benchmark's --steps, default 5), each
 * timing a batch of library steps, then a batch of lean steps.  Printed per size: the
 * batch, the medians over the rounds of each code's wall-clock seconds per step, the
 * median of the rounds' ratios library / lean in wall-clock time and in CPU time of the
 * process, the library's Krylov iterations per timed step (the benchmark's krylov_iter),
 * the lean step's others share, v+'s difference and CHOLMOD's ordering and nnz(L).
 * Shares no code with the benchmark.  Build and run from a built tree:
 *   gcc -O2 -I src/core -I src/forces -I src/integrators -I src/problems -I src/metrics \
 *       -I src/linsolve -I src -I . -I /usr/include/suitesparse -o cloth_driver \
 *       tools/peers/cloth_driver.c -L.libs -lmotionbench -lcholmod -lgsl -lgslcblas -lm
 *   LD_LIBRARY_PATH=.libs ./cloth_driver ROUNDS N [N ...]
 * Exit status 2 on bad arguments, 1 when a step fails. */
#include <cholmod.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mb_forces.h"
#include "mb_problem.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "mb_system.h"

#define H 0.008333333           /* the benchmark's time step */
#define GRAVITY 9.81            /* the cloth's defaults (src/problems/cloth.c), given to */
#define DRAG 0.0009             /* the problem explicitly so both steps use them */
#define BATCH_SECONDS 0.02      /* the benchmark's batch: steps enough for this CPU time */
#define MAX_ROUNDS 1000

static double clock_seconds(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* wall-clock time, CPU time of the process (every thread), of the calling thread */
struct instant {
    double wall, cpu, own;
};

static struct instant now(void)
{
    struct instant t = { clock_seconds(CLOCK_MONOTONIC), clock_seconds(CLOCK_PROCESS_CPUTIME_ID),
                         clock_seconds(CLOCK_THREAD_CPUTIME_ID) };
    return t;
}

static struct instant since(struct instant t0)
{
    struct instant t = now();
    t.wall -= t0.wall;
    t.cpu -= t0.cpu;
    t.own -= t0.own;
    return t;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the median of v[0..n) (sorted in place) */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* the cloth N x N at rest, as the benchmark builds it */
static mb_system *cloth(long n)
{
    char nx[64], ny[64], g[64], d[64];
    snprintf(nx, sizeof nx, "nx=%ld", n);
    snprintf(ny, sizeof ny, "ny=%ld", n);
    snprintf(g, sizeof g, "g=%.17g", GRAVITY);
    snprintf(d, sizeof d, "D=%.17g", DRAG);
    const char *pairs[] = { nx, ny, g, d, NULL };
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p = NULL;
    mb_system *sys = NULL;
    int ok = in != NULL;
    for (const char **kv = pairs; ok && *kv; kv++)
        ok = mb_options_set_pair(in, *kv) == MB_SUCCESS;
    ok = ok && mb_problem_prepare("cloth", in, &pt, &p) == MB_SUCCESS
         && pt->setup(p, &sys) == MB_SUCCESS;
    mb_options_free(in);
    mb_options_free(p);
    return ok ? sys : NULL;
}

/* The lean step's storage: the free nodes' numbering, the upper triangle of
 * S = (A + A^T) / 2 by columns, and where each spring's blocks go. */
struct lean {
    size_t n, nf;               /* nodes, free nodes */
    const mb_spring *sp;
    size_t ns;
    long *free_id;              /* per node: its free index, -1 when pinned */
    size_t *col_rank;           /* per spring: rank of the lower free node in the upper one's column */
    cholmod_common c;
    cholmod_sparse *S;
    cholmod_factor *L;
    cholmod_dense *B, *X, *Y, *E;
    double *v_new;              /* 3 n */
};

/* 1 when node i is pinned (every axis blocked or infinite mass); a node blocked along
 * some axes only is not handled (*partial = 1) */
static int pinned(const mb_nodes *s, size_t i, int *partial)
{
    int all = s->inv_mass[i] == 0.0
              || s->blocked[i] == (MB_BLOCK_X | MB_BLOCK_Y | MB_BLOCK_Z);
    if (!all && s->blocked[i] != 0)
        *partial = 1;
    return all;
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* For each free node J its free neighbours I < J (sorted) and J itself: column 3J + e of
 * S holds rows 3I + a for every such I, and 3J + a for a <= e. */
static int lean_pattern(struct lean *P, const mb_system *sys)
{
    const mb_nodes *s = sys->nodes;
    size_t n = s->n, nf = 0, ns = P->ns;
    int partial = 0;
    for (size_t i = 0; i < n; i++)
        P->free_id[i] = pinned(s, i, &partial) ? -1 : (long)nf++;
    if (partial)
        return -1;
    P->nf = nf;
    size_t *cnt = calloc(nf + 1, sizeof *cnt), *start = calloc(nf + 2, sizeof *start);
    size_t *lower = malloc((ns + 1) * sizeof *lower);
    if (!cnt || !start || !lower)
        return -1;
    for (size_t q = 0; q < ns; q++) {       /* springs between free nodes, by upper node */
        long a = P->free_id[P->sp[q].i], b = P->free_id[P->sp[q].j];
        if (a >= 0 && b >= 0)
            start[(size_t)(a > b ? a : b) + 1]++;
    }
    for (size_t J = 0; J < nf; J++)
        start[J + 1] += start[J];
    size_t *fill = cnt;
    for (size_t q = 0; q < ns; q++) {
        long a = P->free_id[P->sp[q].i], b = P->free_id[P->sp[q].j];
        if (a >= 0 && b >= 0) {
            size_t J = (size_t)(a > b ? a : b);
            lower[start[J] + fill[J]++] = (size_t)(a > b ? b : a);
        }
    }
    size_t nz = 0;
    for (size_t J = 0; J < nf; J++) {       /* the lower nodes sorted (a cloth has no twins) */
        qsort(&lower[start[J]], start[J + 1] - start[J], sizeof *lower, by_size);
        nz += 9 * (start[J + 1] - start[J]) + 6;
    }
    P->S = cholmod_allocate_sparse(3 * nf, 3 * nf, nz, 1, 1, 1, CHOLMOD_REAL, &P->c);
    if (P->S == NULL)
        return -1;
    int *Sp = P->S->p, *Si = P->S->i;
    size_t k = 0;
    for (size_t J = 0; J < nf; J++) {
        size_t m = start[J + 1] - start[J];
        for (size_t e = 0; e < 3; e++) {
            Sp[3 * J + e] = (int)k;
            for (size_t r = 0; r < m; r++)
                for (size_t a = 0; a < 3; a++)
                    Si[k++] = (int)(3 * lower[start[J] + r] + a);
            for (size_t a = 0; a <= e; a++)
                Si[k++] = (int)(3 * J + a);
        }
    }
    Sp[3 * nf] = (int)k;
    for (size_t q = 0; q < ns; q++) {       /* each spring's rank in its upper node's column */
        long a = P->free_id[P->sp[q].i], b = P->free_id[P->sp[q].j];
        P->col_rank[q] = 0;
        if (a < 0 || b < 0)
            continue;
        size_t J = (size_t)(a > b ? a : b), I = (size_t)(a > b ? b : a);
        size_t *hit = bsearch(&I, &lower[start[J]], start[J + 1] - start[J], sizeof I, by_size);
        P->col_rank[q] = (size_t)(hit - &lower[start[J]]);
    }
    free(cnt);
    free(start);
    free(lower);
    return 0;
}

static void lean_free(struct lean *P)
{
    cholmod_free_sparse(&P->S, &P->c);
    cholmod_free_factor(&P->L, &P->c);
    cholmod_free_dense(&P->B, &P->c);
    cholmod_free_dense(&P->X, &P->c);
    cholmod_free_dense(&P->Y, &P->c);
    cholmod_free_dense(&P->E, &P->c);
    cholmod_finish(&P->c);
    free(P->free_id);
    free(P->col_rank);
    free(P->v_new);
}

static int lean_alloc(struct lean *P, const mb_system *sys)
{
    memset(P, 0, sizeof *P);
    cholmod_start(&P->c);
    P->c.supernodal = CHOLMOD_SUPERNODAL;
    P->c.nmethods = 4;                      /* (given), AMD, METIS, NESDIS: the best */
    P->c.print = 0;
    const void *springs = NULL;
    for (size_t m = 0; m < sys->forces->count; m++)
        if (sys->forces->items[m].type == mb_force_springs)
            springs = sys->forces->items[m].params;
    if (springs == NULL)
        return -1;
    P->n = sys->nodes->n;
    P->sp = mb_springs_items(springs);
    P->ns = mb_springs_count(springs);
    P->free_id = malloc(P->n * sizeof *P->free_id);
    P->col_rank = malloc((P->ns + 1) * sizeof *P->col_rank);
    P->v_new = malloc(3 * P->n * sizeof *P->v_new);
    if (!P->free_id || !P->col_rank || !P->v_new || lean_pattern(P, sys) != 0)
        return -1;
    P->B = cholmod_zeros(3 * P->nf, 1, CHOLMOD_REAL, &P->c);
    P->L = cholmod_analyze(P->S, &P->c);
    return P->B && P->L ? 0 : -1;
}

/* add w (a 3x3 block, symmetrised) to S's block of free nodes (I, J), I < J, or to the
 * upper triangle of the diagonal block I = J */
static void add_block(struct lean *P, size_t I, size_t J, size_t rank, const double w[9])
{
    double *Sx = P->S->x;
    const int *Sp = P->S->p;
    for (size_t e = 0; e < 3; e++) {
        size_t base = (size_t)Sp[3 * J + e];
        if (I < J) {
            for (size_t a = 0; a < 3; a++)
                Sx[base + 3 * rank + a] += w[3 * a + e];
        } else {
            size_t diag = (size_t)Sp[3 * J + e + 1] - (e + 1);
            for (size_t a = 0; a <= e; a++)
                Sx[diag + a] += w[3 * a + e];
        }
    }
}

/* one spring: forces into f, G and the terms h C (v_i - v_j) into S and b */
static void lean_spring(struct lean *P, const mb_spring *sp, size_t rank, const mb_nodes *s,
                        double *f, double *b)
{
    size_t i = sp->i, j = sp->j;
    double d[3], dv[3], nn[3], l = 0.0, vn = 0.0;
    for (int a = 0; a < 3; a++) {
        d[a] = s->x[3 * j + a] - s->x[3 * i + a];
        dv[a] = s->v[3 * j + a] - s->v[3 * i + a];
        l += d[a] * d[a];
    }
    l = sqrt(l);
    for (int a = 0; a < 3; a++) {
        nn[a] = d[a] / l;
        vn += dv[a] * nn[a];
    }
    double F = sp->k * (l - sp->rest) + sp->c * vn, G[9], Gs[9], Cv[3] = { 0, 0, 0 };
    for (int a = 0; a < 3; a++) {
        f[3 * i + a] += F * nn[a];
        f[3 * j + a] -= F * nn[a];
        for (int e = 0; e < 3; e++) {
            double nne = nn[a] * nn[e], id = a == e;
            double K = sp->k * (1.0 - sp->rest / l) * id + sp->k * (sp->rest / l) * nne
                       + (sp->c / l) * (nn[a] * (dv[e] - vn * nn[e]) + vn * (id - nne));
            G[3 * a + e] = H * sp->c * nne + H * H * K;
            Cv[a] += sp->c * nne * dv[e];
        }
    }
    for (int q = 0; q < 9; q++)
        Gs[q] = 0.5 * (G[q] + G[3 * (q % 3) + q / 3]);
    long I = P->free_id[i], J = P->free_id[j];
    for (int a = 0; a < 3; a++) {           /* -h (C v) off row i: h C (v_i - v_j) */
        b[3 * i + a] -= H * Cv[a];
        b[3 * j + a] += H * Cv[a];
    }
    if (I >= 0)
        add_block(P, (size_t)I, (size_t)I, 0, Gs);
    if (J >= 0)
        add_block(P, (size_t)J, (size_t)J, 0, Gs);
    if (I >= 0 && J >= 0) {
        double nG[9];
        for (int q = 0; q < 9; q++)
            nG[q] = -Gs[q];
        add_block(P, (size_t)(I < J ? I : J), (size_t)(I < J ? J : I), rank, nG);
    } else if (I >= 0 || J >= 0) {          /* the pinned node's column moved to b */
        size_t r = I >= 0 ? i : j, p = I >= 0 ? j : i;
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++)
                b[3 * r + a] += G[3 * a + e] * s->v[3 * p + e];
    }
}

/* One lean step of s (x, v advanced in place); -1 when CHOLMOD fails. */
static int lean_step(struct lean *P, mb_nodes *s, double *f, double *b)
{
    size_t n = P->n;
    memset(P->S->x, 0, (size_t)((int *)P->S->p)[3 * P->nf] * sizeof(double));
    for (size_t i = 0; i < n; i++) {        /* gravity, drag, M + h D on the diagonal */
        double m = s->mass[i];
        for (int a = 0; a < 3; a++)
            f[3 * i + a] = (a == 1 ? -m * GRAVITY : 0.0) - DRAG * s->v[3 * i + a];
        long I = P->free_id[i];
        if (I >= 0) {
            const double w[9] = { m + H * DRAG, 0, 0, 0, m + H * DRAG, 0, 0, 0, m + H * DRAG };
            add_block(P, (size_t)I, (size_t)I, 0, w);
        }
        for (int a = 0; a < 3; a++)         /* (M - h C_drag) v = (m + h D) v */
            b[3 * i + a] = (m + H * DRAG) * s->v[3 * i + a];
    }
    for (size_t q = 0; q < P->ns; q++)
        lean_spring(P, &P->sp[q], P->col_rank[q], s, f, b);
    double *B = P->B->x;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            if (P->free_id[i] >= 0)
                B[3 * (size_t)P->free_id[i] + a] = b[3 * i + a] + H * f[3 * i + a];
            P->v_new[3 * i + a] = s->v[3 * i + a];
        }
    if (!cholmod_factorize(P->S, P->L, &P->c) || P->c.status != CHOLMOD_OK
        || !cholmod_solve2(CHOLMOD_A, P->L, P->B, NULL, &P->X, NULL, &P->Y, &P->E, &P->c))
        return -1;
    const double *X = P->X->x;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3 && P->free_id[i] >= 0; a++)
            P->v_new[3 * i + a] = X[3 * (size_t)P->free_id[i] + a];
    for (size_t k = 0; k < 3 * n; k++) {
        s->x[k] += H * P->v_new[k];
        s->v[k] = P->v_new[k];
    }
    return 0;
}

/* max |a - b| / max |b| over 3 n values */
static double relative_difference(const double *a, const double *b, size_t n3)
{
    double d = 0.0, m = 0.0;
    for (size_t k = 0; k < n3; k++) {
        d = fmax(d, fabs(a[k] - b[k]));
        m = fmax(m, fabs(b[k]));
    }
    return m > 0.0 ? d / m : d;
}

/* One size: the benchmark's schedule (two untimed steps of each, then `rounds` rounds of a
 * batch of each), its medians printed. */
static int run_size(long n, long rounds)
{
    mb_system *lib = cloth(n), *own = cloth(n);
    if (lib == NULL || own == NULL) {
        fprintf(stderr, "cloth_driver: cannot build the cloth %ld x %ld: %s\n", n, n,
                mb_last_error());
        return 1;
    }
    size_t n3 = 3 * lib->nodes->n;
    mb_stepper *stp = mb_stepper_alloc("implicit-euler", lib);
    struct lean P;
    double *f = malloc(n3 * sizeof *f), *b = malloc(n3 * sizeof *b);
    double *t_lib = malloc(4 * (size_t)rounds * sizeof *t_lib);
    double *t_own = t_lib + rounds, *r_wall = t_own + rounds, *r_cpu = r_wall + rounds;
    if (stp == NULL || f == NULL || b == NULL || t_lib == NULL || lean_alloc(&P, own) != 0) {
        fprintf(stderr, "cloth_driver: cannot set up the steps of %ld x %ld (%s)\n", n, n,
                stp ? "the lean step: out of memory, CHOLMOD, or a node blocked along some axes"
                    : mb_last_error());
        return 1;
    }
    long reps = 1;
    double cpu_own = 0.0, cpu_others = 0.0;
    mb_stepper_stats s0, s1;
    for (long q = -2; q < rounds; q++) {    /* q < 0: the untimed steps */
        long batch = q < 0 ? 1 : reps;
        struct instant t0 = now();
        for (long k = 0; k < batch; k++)
            if (mb_stepper_step(stp, lib, H) != MB_SUCCESS) {
                fprintf(stderr, "cloth_driver: library step: %s\n", mb_last_error());
                return 1;
            }
        struct instant tl = since(t0);
        t0 = now();
        for (long k = 0; k < batch; k++)
            if (lean_step(&P, own->nodes, f, b) != 0) {
                fprintf(stderr, "cloth_driver: CHOLMOD failed (status %d)\n", P.c.status);
                return 1;
            }
        struct instant to = since(t0);
        if (q == -1) {                      /* the second step sets the batch */
            reps = tl.cpu > 0.0 && tl.cpu < BATCH_SECONDS ? (long)ceil(BATCH_SECONDS / tl.cpu) : 1;
            mb_stepper_get_stats(stp, &s0);
        }
        if (q < 0)
            continue;
        t_lib[q] = tl.wall / (double)reps;
        t_own[q] = to.wall / (double)reps;
        r_wall[q] = tl.wall / to.wall;
        r_cpu[q] = tl.cpu / to.cpu;
        cpu_own += to.cpu;
        cpu_others += fmax(to.cpu - to.own, 0.0);
    }
    mb_stepper_get_stats(stp, &s1);
    double iters = (double)(s1.linear_iterations - s0.linear_iterations) / (double)(rounds * reps);
    double dv = relative_difference(own->nodes->v, lib->nodes->v, n3);
    printf("%10zu %6ld %12.6g %12.6g %9.3f %9.3f %8.1f %7.2g %10.2e %s,lnz=%.3g\n",
           lib->nodes->n, reps, median(t_lib, (size_t)rounds), median(t_own, (size_t)rounds),
           median(r_wall, (size_t)rounds), median(r_cpu, (size_t)rounds), iters,
           cpu_own > 0.0 ? cpu_others / cpu_own : 0.0, dv,
           P.c.method[P.c.selected].ordering == CHOLMOD_AMD ? "AMD"
           : P.c.method[P.c.selected].ordering == CHOLMOD_METIS ? "METIS"
           : P.c.method[P.c.selected].ordering == CHOLMOD_NESDIS ? "NESDIS" : "other",
           P.c.lnz);
    fflush(stdout);
    lean_free(&P);
    mb_stepper_free(stp);
    mb_system_free(lib);
    mb_system_free(own);
    free(f);
    free(b);
    free(t_lib);
    return 0;
}

/* 1 when the environment already asks for one thread of OpenMP and of OpenBLAS */
static int one_thread_environment(void)
{
    const char *omp = getenv("OMP_THREAD_LIMIT"), *blas = getenv("OPENBLAS_NUM_THREADS");
    return omp && !strcmp(omp, "1") && blas && !strcmp(blas, "1");
}

int main(int argc, char **argv)
{
    char *end;
    long rounds = argc > 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc < 3 || *end != '\0' || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: cloth_driver ROUNDS N [N ...]   (ROUNDS in [1, %d] rounds of "
                "a batch of each code, cloths of N x N particles, N >= 2)\n", MAX_ROUNDS);
        return 2;
    }
    for (int a = 2; a < argc; a++) {
        long n = strtol(argv[a], &end, 10);
        if (*end != '\0' || n < 2 || n > 10000) {
            fprintf(stderr, "cloth_driver: N '%s' is not an integer in [2, 10000]\n", argv[a]);
            return 2;
        }
    }
    if (!one_thread_environment()) {        /* read at load: run again with them set */
        if (setenv("OMP_THREAD_LIMIT", "1", 1) != 0
            || setenv("OPENBLAS_NUM_THREADS", "1", 1) != 0) {
            perror("cloth_driver: setenv");
            return 2;
        }
        execv("/proc/self/exe", argv);
        perror("cloth_driver: cannot run itself again with one thread (/proc/self/exe)");
        return 2;
    }
    printf("# cloth N x N (two corners pinned), dt %g; two untimed steps of each, then %ld "
           "rounds of a batch of each (steps enough for %g s of CPU); medians over the rounds\n"
           "# library: implicit-euler (its defaults: BiCGSTAB, symmetric Gauss-Seidel, rtol "
           "1e-12); lean: plain assembly + CHOLMOD %d.%d.%d supernodal LL^T of (A + A^T)/2, best of AMD, METIS, NESDIS, one "
           "thread (OMP_THREAD_LIMIT=1 OPENBLAS_NUM_THREADS=1)\n", H, rounds, BATCH_SECONDS,
           CHOLMOD_MAIN_VERSION, CHOLMOD_SUB_VERSION, CHOLMOD_SUBSUB_VERSION);
    printf("%10s %6s %12s %12s %9s %9s %8s %7s %10s %s\n", "particles", "batch", "library_s",
           "lean_s", "lib/lean", "cpu_ratio", "iter", "others", "dv", "lean_ordering");
    for (int a = 2; a < argc; a++)
        if (run_size(strtol(argv[a], NULL, 10), rounds) != 0)
            return 1;
    return 0;
}
