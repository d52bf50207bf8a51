/* chain_driver.c -- an independent check of `motionbench bench implicit-chain`'s verdict:
 * the whole linearised backward-Euler step of the library (mb_stepper_step of
 * implicit-euler on the spring-chain problem, public API) against a lean step written here
 * for the same chain, timed alternately in one process.  It shares no code with the
 * benchmark.
 *
 * The lean step, one assembly plus one block-tridiagonal solve (Baraff & Witkin 1998,
 * eq. 6 in velocity form; DESIGN 4.1):
 *     (M - h C - h^2 K) v+ = M v + h f - h C v,   x+ = x + h v+.
 * Spring s joins nodes s and s + 1: d = x_{s+1} - x_s, l = |d|, n = d / l, w = v_{s+1} - v_s,
 * F = [k (l - L) + c w.n] n on node s (-F on s + 1), C = c n n^T and
 *     K = k (1 - L/l) I + k (L/l) n n^T + (c/l) [n (w - (w.n) n)^T + (w.n)(I - n n^T)]
 * (the derivatives of F by x_{s+1} and v_{s+1}).  With G_s = h C + h^2 K the blocks of
 * node i are written once each, in one pass over the nodes:
 *     D_i = (m_i + h D) I + G_{i-1} + G_i,   L_i = -G_{i-1},   U_i = -G_i,
 *     b_i = m_i v_i + h m_i g + h (R_i - R_{i-1}),   R_s = k (l - L) n
 * (F - C w: the dashpot's force cancels against its term of C v; drag D cancels in b).  A
 * pinned node's rows are m e_a^T, b_a = m v_a, and its v+ is v (zero acceleration).  The
 * solve is the block Thomas algorithm (Golub & Van Loan, Matrix Computations, 4th ed.,
 * sec. 4.5.1): S_i = D_i - L_i X_{i-1}, X_i = S_i^-1 U_i, z_i = S_i^-1 (b_i - L_i z_{i-1}),
 * v+_i = z_i - X_i v+_{i+1}, S_i^-1 by cofactors.  No zeroing, no checks: only the work.
 *
 * Build and run from a built tree:
 *   gcc -O2 -ffp-contract=off -I src/core -I src/forces -I src/integrators -I src/problems \
 *       -I src/metrics -I src -I . -o chain_driver tools/peers/chain_driver.c \
 *       -L.libs -lmotionbench -lm
 *   LD_LIBRARY_PATH=.libs ./chain_driver PARTICLES [ROUNDS]
 * First one step of each code from the same state: their v+ and x+ must agree to round-off
 * (largest difference relative to the largest value, printed; above 1e-9 -- two
 * backward-stable solves of a matrix with cond ~ 10^2, test_cli_simulate.c -- exit 1).
 * Then ROUNDS rounds (default 9), each timing a batch of library steps and then a batch
 * of lean steps (at least 0.05 s of CPU time of this thread each); prints both costs per
 * node-step (medians) and the median, smallest and largest of the rounds' ratios
 * library / lean.  Instructions per node-step of either code: valgrind's callgrind with
 * --toggle-collect=mb_stepper_step or --toggle-collect=lean_step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mb_options.h"
#include "mb_problem.h"
#include "mb_stepper.h"
#include "mb_system.h"

/* unroll the small fixed loop that follows (GCC keeps 3- and 9-trip loops rolled at -O2;
 * the library's hot loops are unrolled so, and the lean step gets the same hint) */
#define UNROLL_STRING(x) #x
#define UNROLL(n) _Pragma(UNROLL_STRING(GCC unroll n))

#define BATCH_SECONDS 0.05
#define MAX_ROUNDS 101
#define AGREEMENT 1e-9

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The lean chain: its parameters, its own state and the blocks of its system */
struct lean {
    size_t n;
    double k, rest, c, drag, g[3];
    const double *m;            /* masses (the library's, read only) */
    unsigned char *pinned;      /* per node: its three axes fixed */
    double *x, *v, *xn, *vn;    /* state, next state */
    double *D, *L, *U, *b;      /* 9 n, 9 n, 9 n, 3 n */
    double *X, *z;              /* 9 n, 3 n */
};

/* G = h c n n^T + h^2 K of one spring and R = k (l - L) n, from d and w (header) */
static void spring_blocks(const struct lean *c, const double d[3], const double w[3],
                          double h, double G[9], double R[3])
{
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double n[3] = { d[0] / l, d[1] / l, d[2] / l };
    double wn = w[0] * n[0] + w[1] * n[1] + w[2] * n[2];
    double ka = c->k * (1.0 - c->rest / l), kb = c->k * c->rest / l, cl = c->c / l;
    double hc = h * c->c, h2 = h * h, e = c->k * (l - c->rest);
    UNROLL(3)
    for (int a = 0; a < 3; a++) {
        UNROLL(3)
        for (int q = 0; q < 3; q++) {
            double nn = n[a] * n[q], id = a == q ? 1.0 : 0.0;
            double K = ka * id + kb * nn + cl * (n[a] * (w[q] - wn * n[q]) + wn * (id - nn));
            G[3 * a + q] = hc * nn + h2 * K;
        }
        R[a] = e * n[a];
    }
}

/* The rows of pinned node i: m e_a^T, b_a = m v_a */
static void pin_rows(struct lean *c, size_t i)
{
    double *Di = &c->D[9 * i], *Li = &c->L[9 * i], *Ui = &c->U[9 * i];
    UNROLL(9)
    for (int q = 0; q < 9; q++)
        Di[q] = Li[q] = Ui[q] = 0.0;
    UNROLL(3)
    for (int a = 0; a < 3; a++) {
        Di[4 * a] = c->m[i];
        c->b[3 * i + a] = c->m[i] * c->v[3 * i + a];
    }
}

/* The system of the step: every block and b written once, node by node */
static void lean_assemble(struct lean *c, double h)
{
    double Gp[9] = { 0 }, Rp[3] = { 0 }, G[9], R[3];
    for (size_t i = 0; i < c->n; i++) {
        if (i + 1 < c->n) {
            double d[3], w[3];
            UNROLL(3)
            for (int a = 0; a < 3; a++) {
                d[a] = c->x[3 * (i + 1) + a] - c->x[3 * i + a];
                w[a] = c->v[3 * (i + 1) + a] - c->v[3 * i + a];
            }
            spring_blocks(c, d, w, h, G, R);
        } else {
            memset(G, 0, sizeof G);
            memset(R, 0, sizeof R);
        }
        double md = c->m[i] + h * c->drag, *Di = &c->D[9 * i];
        UNROLL(9)
        for (int q = 0; q < 9; q++) {
            Di[q] = (q % 4 == 0 ? md : 0.0) + Gp[q] + G[q];
            c->L[9 * i + q] = -Gp[q];
            c->U[9 * i + q] = -G[q];
        }
        UNROLL(3)
        for (int a = 0; a < 3; a++)
            c->b[3 * i + a] = c->m[i] * c->v[3 * i + a] + h * (c->m[i] * c->g[a] + R[a] - Rp[a]);
        if (c->pinned[i])
            pin_rows(c, i);
        memcpy(Gp, G, sizeof G);
        memcpy(Rp, R, sizeof R);
    }
}

/* inv = a^-1 by cofactors */
static void invert3(const double *a, double *inv)
{
    double c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8],
           c2 = a[3] * a[7] - a[4] * a[6];
    double r = 1.0 / (a[0] * c0 + a[1] * c1 + a[2] * c2);
    inv[0] = c0 * r, inv[1] = (a[2] * a[7] - a[1] * a[8]) * r, inv[2] = (a[1] * a[5] - a[2] * a[4]) * r;
    inv[3] = c1 * r, inv[4] = (a[0] * a[8] - a[2] * a[6]) * r, inv[5] = (a[2] * a[3] - a[0] * a[5]) * r;
    inv[6] = c2 * r, inv[7] = (a[1] * a[6] - a[0] * a[7]) * r, inv[8] = (a[0] * a[4] - a[1] * a[3]) * r;
}

/* The block Thomas sweep of A vn = b, then x+ = x + h v+ */
static void lean_solve(struct lean *c, double h)
{
    double S[9], Si[9], r[3];
    for (size_t i = 0; i < c->n; i++) {
        const double *Di = &c->D[9 * i], *Li = &c->L[9 * i], *bi = &c->b[3 * i];
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            UNROLL(3)
            for (int q = 0; q < 3; q++)
                S[3 * a + q] = i == 0 ? Di[3 * a + q]
                             : Di[3 * a + q] - (Li[3 * a] * c->X[9 * (i - 1) + q]
                                                + Li[3 * a + 1] * c->X[9 * (i - 1) + 3 + q]
                                                + Li[3 * a + 2] * c->X[9 * (i - 1) + 6 + q]);
            r[a] = i == 0 ? bi[a]
                 : bi[a] - (Li[3 * a] * c->z[3 * (i - 1)] + Li[3 * a + 1] * c->z[3 * (i - 1) + 1]
                            + Li[3 * a + 2] * c->z[3 * (i - 1) + 2]);
        }
        invert3(S, Si);
        const double *Ui = &c->U[9 * i];
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            UNROLL(3)
            for (int q = 0; q < 3; q++)
                c->X[9 * i + 3 * a + q] = Si[3 * a] * Ui[q] + Si[3 * a + 1] * Ui[3 + q]
                                          + Si[3 * a + 2] * Ui[6 + q];
            c->z[3 * i + a] = Si[3 * a] * r[0] + Si[3 * a + 1] * r[1] + Si[3 * a + 2] * r[2];
        }
    }
    for (size_t i = c->n; i-- > 0;)
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            double y = c->z[3 * i + a];
            if (i + 1 < c->n)
                y -= c->X[9 * i + 3 * a] * c->vn[3 * (i + 1)]
                     + c->X[9 * i + 3 * a + 1] * c->vn[3 * (i + 1) + 1]
                     + c->X[9 * i + 3 * a + 2] * c->vn[3 * (i + 1) + 2];
            c->vn[3 * i + a] = y;
        }
    for (size_t i = 0; i < c->n; i++)
        UNROLL(3)
        for (int a = 0; a < 3; a++) {
            size_t k = 3 * i + (size_t)a;
            if (c->pinned[i])
                c->vn[k] = c->v[k];
            c->xn[k] = c->x[k] + h * c->vn[k];
        }
}

/* One lean step: assembly, solve, the new state in place of the old */
static __attribute__((noinline)) void lean_step(struct lean *c, double h)
{
    lean_assemble(c, h);
    lean_solve(c, h);
    double *t = c->x;
    c->x = c->xn, c->xn = t;
    t = c->v;
    c->v = c->vn, c->vn = t;
}

static int lean_alloc(struct lean *c, const mb_options *p, const mb_nodes *s)
{
    size_t n = s->n;
    c->n = n;
    c->k = mb_options_double(p, "k");
    c->rest = mb_options_double(p, "rest");
    c->c = mb_options_double(p, "c");
    c->drag = mb_options_double(p, "D");
    c->g[0] = c->g[2] = 0.0;
    c->g[1] = -mb_options_double(p, "g");           /* the problem's gravity is along -y */
    c->m = s->mass;
    c->pinned = malloc(n);
    double **arrays[] = { &c->x, &c->v, &c->xn, &c->vn, &c->b, &c->z };
    for (size_t q = 0; q < 6; q++)
        *arrays[q] = malloc(3 * n * sizeof(double));
    c->D = malloc(9 * n * sizeof(double));
    c->L = malloc(9 * n * sizeof(double));
    c->U = malloc(9 * n * sizeof(double));
    c->X = malloc(9 * n * sizeof(double));
    if (!c->pinned || !c->x || !c->v || !c->xn || !c->vn || !c->b || !c->z || !c->D || !c->L
        || !c->U || !c->X)
        return -1;
    for (size_t i = 0; i < n; i++) {
        c->pinned[i] = s->blocked[i] != 0 || s->inv_mass[i] == 0.0;
        if (c->pinned[i] && (s->blocked[i] != 7u || s->inv_mass[i] == 0.0))
            return -1;                  /* only the problem's pins: all three axes */
    }
    memcpy(c->x, s->x, 3 * n * sizeof(double));
    memcpy(c->v, s->v, 3 * n * sizeof(double));
    return 0;
}

static void lean_free(struct lean *c)
{
    free(c->pinned);
    free(c->x), free(c->v), free(c->xn), free(c->vn), free(c->b), free(c->z);
    free(c->D), free(c->L), free(c->U), free(c->X);
}

/* max |p - q| / max |q| */
static double relative_difference(const double *p, const double *q, size_t n)
{
    double dmax = 0.0, qmax = 0.0;
    for (size_t k = 0; k < n; k++) {
        dmax = fmax(dmax, fabs(p[k] - q[k]));
        qmax = fmax(qmax, fabs(q[k]));
    }
    return qmax > 0.0 ? dmax / qmax : dmax;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Steps of a batch of at least BATCH_SECONDS, from the time of `probe` steps */
static long batch_of(double seconds, long probe)
{
    double per = seconds / (double)probe;
    return per >= BATCH_SECONDS ? 1 : (long)ceil(BATCH_SECONDS / per);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: chain_driver PARTICLES [ROUNDS]\n");
        return 2;
    }
    const double n_wanted = atof(argv[1]), h = 1.0 / 120.0;
    const int rounds = argc > 2 ? atoi(argv[2]) : 9;
    if (!(n_wanted >= 3 && n_wanted <= 5e7) || rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "chain_driver: PARTICLES in [3, 5e7], ROUNDS in [1, %d]\n", MAX_ROUNDS);
        return 2;
    }
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%.0f", n_wanted);
    mb_options *in = mb_options_new(), *p = NULL;
    const mb_problem_type *pt = NULL;
    mb_system *sys = NULL;
    struct lean c = { 0 };
    if (in == NULL || mb_options_set(in, "n", nbuf) != 0
        || mb_problem_prepare("spring-chain", in, &pt, &p) != 0 || pt->setup(p, &sys) != 0
        || lean_alloc(&c, p, sys->nodes) != 0) {
        fprintf(stderr, "chain_driver: cannot build the chain of %s particles\n", nbuf);
        return 1;
    }
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    size_t n = sys->nodes->n, n3 = 3 * n;
    /* the first library step (it chooses its storage), then the lean one from its state */
    if (st == NULL || mb_stepper_step(st, sys, h) != 0) {
        fprintf(stderr, "chain_driver: the library's step failed\n");
        return 1;
    }
    memcpy(c.x, sys->nodes->x, n3 * sizeof(double));
    memcpy(c.v, sys->nodes->v, n3 * sizeof(double));
    lean_step(&c, h);
    if (mb_stepper_step(st, sys, h) != 0) {
        fprintf(stderr, "chain_driver: the library's step failed\n");
        return 1;
    }
    double dv = relative_difference(c.v, sys->nodes->v, n3);
    double dx = relative_difference(c.x, sys->nodes->x, n3);
    printf("n = %zu, h = 1/120: one step from the same state, lean against library: "
           "v+ %.3g, x+ %.3g (relative to the largest value)\n", n, dv, dx);
    if (!(dv <= AGREEMENT && dx <= AGREEMENT)) {
        fprintf(stderr, "chain_driver: the lean step does not solve the library's system\n");
        return 1;
    }
    double t0 = cpu_now();
    mb_stepper_step(st, sys, h);
    long batch = batch_of(cpu_now() - t0, 1);
    double lib[MAX_ROUNDS], lean[MAX_ROUNDS], ratio[MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        t0 = cpu_now();
        for (long q = 0; q < batch; q++)
            if (mb_stepper_step(st, sys, h) != 0)
                return 1;
        double t1 = cpu_now();
        for (long q = 0; q < batch; q++)
            lean_step(&c, h);
        double t2 = cpu_now();
        lib[r] = (t1 - t0) / ((double)batch * (double)n);
        lean[r] = (t2 - t1) / ((double)batch * (double)n);
        ratio[r] = lib[r] / lean[r];
    }
    double lo = ratio[0], hi = ratio[0];
    for (int r = 1; r < rounds; r++)
        lo = fmin(lo, ratio[r]), hi = fmax(hi, ratio[r]);
    printf("%d rounds of %ld steps each: library %.4g us, lean %.4g us per node-step "
           "(medians); library / lean: median %.3f (rounds %.3f .. %.3f) (checksum %.6g)\n",
           rounds, batch, 1e6 * median(lib, rounds), 1e6 * median(lean, rounds),
           median(ratio, rounds), lo, hi, c.x[3 * (n / 2) + 1] + sys->nodes->x[3 * (n / 2) + 1]);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
    lean_free(&c);
    return 0;
}
