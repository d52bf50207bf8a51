/* bench_cholmod.c -- the CHOLMOD peer of `bench implicit-cloth` (bench_cholmod.h).
 *
 * The upper triangle of S = (A + A^T) / 2 in CHOLMOD's compressed-column form (stype 1):
 * column j holds the rows i <= j of A's row-sorted CSR pattern, each entry remembering
 * where A(i,j) and A(j,i) sit in A's values.  cholmod_analyze with nmethods = 4 tries the
 * default suite's AMD, METIS and NESDIS (Common->method[1..3]; method 0 is a given
 * permutation, none here) and keeps the best (CHOLMOD's choice, Common->selected);
 * Common->supernodal = CHOLMOD_SUPERNODAL forces the supernodal factorisation, the one
 * CHOLMOD uses for large sparse factors and the one Eigen's CholmodSupernodalLLT
 * calls.
 *
 * One thread, as the step it is compared with.  CHOLMOD 3 (SuiteSparse 5) opens OpenMP
 * regions of a fixed four threads in its supernodal factorisation (num_threads(4),
 * whatever OMP_NUM_THREADS says), and a threaded BLAS (OpenBLAS) splits its products;
 * on a machine of fewer cores than that the regions' barriers cost more than their work,
 * and the CPU time of the calling thread, the benchmarks' clock, counts only part of the
 * cost.  Setting one thread from inside the program is not enough: OpenBLAS starts its
 * worker threads when it loads, and they spin in the peer's timed calls though set to one
 * thread (7-9 % of the process's time there at 1024 particles, measured under load).  So
 * the benchmark runs itself again with OMP_THREAD_LIMIT=1 (every region one thread) and
 * OPENBLAS_NUM_THREADS=1 (no worker created) in its environment, read when the libraries
 * load (bench_cholmod_one_thread_process), as the independent driver
 * tools/peers/cloth_driver.c does, and refuses to time the peer when it cannot.  The peer
 * is charged the CPU time of the whole process during its factorisation and solve; the
 * share other threads took of it is printed (0 on one thread). */
#include "config.h"
#include "bench_cpus.h"

#include "bench_cholmod.h"
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CHOLMOD
#include <errno.h>
#include <unistd.h>
#include <suitesparse/cholmod.h>
#include <time.h>

struct bench_cholmod {
    cholmod_common c;
    cholmod_sparse *S;          /* upper triangle of (A + A^T) / 2 */
    size_t *ij, *ji;            /* per entry of S: where A(i,j) and A(j,i) are in A, or
                                 * (size_t)-1 for a zero (an eliminated fixed column) */
    size_t nelim, *erow, *ecol, *epos, *ediag;  /* fixed column k = ecol: b_erow -= A[epos]
                                                 * b_k / A[ediag] */
    cholmod_factor *L;
    cholmod_dense *B, *X, *Y, *E;
    double cpu, cpu_others;     /* seconds charged, of which other threads' */
};

/* seconds of CPU time of the whole process, every thread */
static double process_seconds(void)
{
    struct timespec ts;
    mb_bench_cpus_note();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_cholmod_build(char *text, size_t len)
{
    snprintf(text, len, "CHOLMOD %d.%d.%d", CHOLMOD_MAIN_VERSION, CHOLMOD_SUB_VERSION,
             CHOLMOD_SUBSUB_VERSION);
}

void bench_cholmod_free(bench_cholmod *C)
{
    if (C == NULL)
        return;
    cholmod_free_sparse(&C->S, &C->c);
    cholmod_free_factor(&C->L, &C->c);
    cholmod_free_dense(&C->B, &C->c);
    cholmod_free_dense(&C->X, &C->c);
    cholmod_free_dense(&C->Y, &C->c);
    cholmod_free_dense(&C->E, &C->c);
    cholmod_finish(&C->c);
    free(C->ij);
    free(C->ji);
    free(C->erow);
    free(C->ecol);
    free(C->epos);
    free(C->ediag);
    free(C);
}

/* position of A(r, col) in A's values (rows sorted by column), or (size_t)-1 */
static size_t csr_find(const gsl_spmatrix *A, size_t r, size_t col)
{
    int lo = A->p[r], hi = A->p[r + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((size_t)A->i[mid] < col)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < A->p[r + 1] && (size_t)A->i[lo] == col ? (size_t)lo : (size_t)-1;
}

/* The entries A(i,k) of the fixed columns k off the fixed rows: what the symmetric
 * elimination takes off b. */
static int cholmod_eliminated(bench_cholmod *C, const gsl_spmatrix *A,
                              const unsigned char *fixed)
{
    size_t n = A->size1, m = 0;
    for (int pass = 0; pass < 2; pass++) {
        m = 0;
        for (size_t i = 0; i < n; i++)
            for (int p = A->p[i]; fixed && !fixed[i] && p < A->p[i + 1]; p++) {
                size_t k = (size_t)A->i[p];
                if (k == i || !fixed[k])
                    continue;
                if (pass == 1) {
                    C->erow[m] = i;
                    C->ecol[m] = k;
                    C->epos[m] = (size_t)p;
                    C->ediag[m] = csr_find(A, k, k);
                }
                m++;
            }
        if (pass == 0) {
            C->erow = malloc((m + 1) * sizeof *C->erow);
            C->ecol = malloc((m + 1) * sizeof *C->ecol);
            C->epos = malloc((m + 1) * sizeof *C->epos);
            C->ediag = malloc((m + 1) * sizeof *C->ediag);
            if (!C->erow || !C->ecol || !C->epos || !C->ediag)
                return -1;
        }
    }
    C->nelim = m;
    return 0;
}

/* S's pattern (upper triangle, by columns) and the places of its entries in A, none for
 * an entry of a fixed row or column off the diagonal */
static int cholmod_pattern(bench_cholmod *C, const gsl_spmatrix *A, const unsigned char *fixed)
{
    size_t n = A->size1, nz = 0;
    for (size_t r = 0; r < n; r++)
        for (int p = A->p[r]; p < A->p[r + 1]; p++)
            nz += (size_t)A->i[p] >= r;
    C->S = cholmod_allocate_sparse(n, n, nz, 1, 1, 1, CHOLMOD_REAL, &C->c);
    C->ij = malloc((nz + 1) * sizeof *C->ij);
    C->ji = malloc((nz + 1) * sizeof *C->ji);
    size_t *fill = calloc(n + 1, sizeof *fill);
    if (!C->S || !C->ij || !C->ji || !fill) {
        free(fill);
        return -1;
    }
    int *Sp = C->S->p, *Si = C->S->i;
    memset(Sp, 0, (n + 1) * sizeof *Sp);
    for (size_t r = 0; r < n; r++)                  /* entry (r, j), j >= r, in column j */
        for (int p = A->p[r]; p < A->p[r + 1]; p++)
            if ((size_t)A->i[p] >= r)
                Sp[A->i[p] + 1]++;
    for (size_t j = 0; j < n; j++)
        Sp[j + 1] += Sp[j];
    for (size_t r = 0; r < n; r++)                  /* rows ascend within each column */
        for (int p = A->p[r]; p < A->p[r + 1]; p++) {
            size_t j = (size_t)A->i[p];
            if (j < r)
                continue;
            size_t k = (size_t)Sp[j] + fill[j]++;
            int gone = fixed && j != r && (fixed[r] || fixed[j]);
            Si[k] = (int)r;
            C->ij[k] = gone ? (size_t)-1 : (size_t)p;
            C->ji[k] = gone ? (size_t)-1 : csr_find(A, j, r);
        }
    free(fill);
    return 0;
}

bench_cholmod *bench_cholmod_alloc(const gsl_spmatrix *A, const unsigned char *fixed,
                                   double max_bytes, char *why, size_t len)
{
    bench_cholmod *C = calloc(1, sizeof *C);
    if (C == NULL) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    cholmod_start(&C->c);
    C->c.supernodal = CHOLMOD_SUPERNODAL;
    C->c.nmethods = 4;                              /* (given), AMD, METIS, NESDIS */
    C->c.print = 0;
    if (cholmod_pattern(C, A, fixed) != 0 || cholmod_eliminated(C, A, fixed) != 0) {
        snprintf(why, len, "out of memory for CHOLMOD's matrix");
        bench_cholmod_free(C);
        return NULL;
    }
    C->L = cholmod_analyze(C->S, &C->c);
    double factor = C->L ? 8.0 * C->c.lnz * 1.2 : 0.0;    /* values, plus patterns */
    if (C->L == NULL || factor > max_bytes) {
        if (C->L == NULL)
            snprintf(why, len, "cholmod_analyze failed (status %d)", C->c.status);
        else
            snprintf(why, len, "its factor (nnz(L) %.3g, about %.3g GB) exceeds the memory "
                     "left, %.3g GB", C->c.lnz, factor / 1e9, max_bytes / 1e9);
        bench_cholmod_free(C);
        return NULL;
    }
    size_t n = A->size1;
    C->B = cholmod_allocate_dense(n, 1, n, CHOLMOD_REAL, &C->c);
    if (C->B == NULL) {
        snprintf(why, len, "out of memory");
        bench_cholmod_free(C);
        return NULL;
    }
    return C;
}

double bench_cholmod_solve(bench_cholmod *C, const double *values, const double *b, double *x,
                           char *why, size_t len)
{
    double *Sx = C->S->x;
    size_t nz = (size_t)((int *)C->S->p)[C->S->ncol], n = C->S->nrow;
    for (size_t k = 0; k < nz; k++)                 /* S = (A + A^T) / 2 */
        Sx[k] = C->ij[k] == (size_t)-1 ? 0.0
              : C->ji[k] == (size_t)-1 ? 0.5 * values[C->ij[k]]
                                       : 0.5 * (values[C->ij[k]] + values[C->ji[k]]);
    double *B = C->B->x;
    memcpy(B, b, n * sizeof(double));
    for (size_t e = 0; e < C->nelim; e++)          /* v_k = b_k / d_k of the fixed k */
        B[C->erow[e]] -= values[C->epos[e]] * (b[C->ecol[e]] / values[C->ediag[e]]);
    double t0 = mb_bench_now(), p0 = process_seconds();
    int ok = cholmod_factorize(C->S, C->L, &C->c);
    if (ok && C->c.status == CHOLMOD_OK)
        ok = cholmod_solve2(CHOLMOD_A, C->L, C->B, NULL, &C->X, NULL, &C->Y, &C->E, &C->c);
    double t = process_seconds() - p0, own = mb_bench_now() - t0;
    C->cpu += t;
    C->cpu_others += fmax(t - own, 0.0);
    if (!ok || C->c.status != CHOLMOD_OK) {
        snprintf(why, len, "CHOLMOD failed (status %d%s)", C->c.status,
                 C->c.status == CHOLMOD_NOT_POSDEF ? ": not positive definite" : "");
        return -1.0;
    }
    memcpy(x, C->X->x, n * sizeof(double));
    return t;
}

/* the name of a CHOLMOD ordering */
static const char *ordering_name(int o)
{
    switch (o) {
    case CHOLMOD_NATURAL: return "natural";
    case CHOLMOD_GIVEN: return "given";
    case CHOLMOD_AMD: return "AMD";
    case CHOLMOD_METIS: return "METIS";
    case CHOLMOD_NESDIS: return "NESDIS";
    case CHOLMOD_COLAMD: return "COLAMD";
    default: return "other";
    }
}

void bench_cholmod_describe(const bench_cholmod *C, char *text, size_t len)
{
    snprintf(text, len, "%s,lnz=%.3g,others=%.2g",
             ordering_name(C->c.method[C->c.selected].ordering), C->c.lnz,
             C->cpu > 0.0 ? C->cpu_others / C->cpu : 0.0);
}

/* 1 when the environment already asks the libraries for one thread */
static int one_thread_environment(void)
{
    const char *omp = getenv("OMP_THREAD_LIMIT"), *blas = getenv("OPENBLAS_NUM_THREADS");
    return omp && !strcmp(omp, "1") && blas && !strcmp(blas, "1");
}

int bench_cholmod_one_thread_process(int argc, char **argv)
{
    if (one_thread_environment())
        return 0;
    char **again = malloc((size_t)(argc + 3) * sizeof *again);
    if (again == NULL || setenv("OMP_THREAD_LIMIT", "1", 1) != 0
        || setenv("OPENBLAS_NUM_THREADS", "1", 1) != 0) {
        free(again);
        fprintf(stderr, "motionbench bench: cannot set OMP_THREAD_LIMIT=1 and "
                "OPENBLAS_NUM_THREADS=1 for the CHOLMOD peer (out of memory)\n");
        return -1;
    }
    again[0] = "motionbench";
    again[1] = "bench";
    for (int a = 0; a < argc; a++)
        again[a + 2] = argv[a];
    again[argc + 2] = NULL;
    fflush(NULL);
    execv("/proc/self/exe", again);
    fprintf(stderr, "motionbench bench: cannot run itself again with OMP_THREAD_LIMIT=1 "
            "OPENBLAS_NUM_THREADS=1 for the CHOLMOD peer (/proc/self/exe: %s); set both "
            "and run it again\n", strerror(errno));
    free(again);
    return -1;
}

void bench_cholmod_threads(char *text, size_t len)
{
    snprintf(text, len, "one thread: %s", one_thread_environment()
             ? "OMP_THREAD_LIMIT=1 OPENBLAS_NUM_THREADS=1 from the libraries' load"
             : "NOT SET (OMP_THREAD_LIMIT, OPENBLAS_NUM_THREADS)");
}

double bench_cholmod_asymmetry(const bench_cholmod *C, const double *values)
{
    size_t nz = (size_t)((const int *)C->S->p)[C->S->ncol];
    double d = 0.0, m = 0.0;
    for (size_t k = 0; k < nz; k++) {
        if (C->ij[k] == (size_t)-1)
            continue;
        double a = values[C->ij[k]], t = C->ji[k] == (size_t)-1 ? 0.0 : values[C->ji[k]];
        d = fmax(d, fabs(a - t));
        m = fmax(m, fmax(fabs(a), fabs(t)));
    }
    return m > 0.0 ? d / m : d;
}

#else /* no CHOLMOD: the peer is reported absent, with the reason */

struct bench_cholmod {
    int unused;
};

void bench_cholmod_build(char *text, size_t len)
{
    snprintf(text, len, "no CHOLMOD (motionbench was built without it)");
}

void bench_cholmod_free(bench_cholmod *C) { (void)C; }

bench_cholmod *bench_cholmod_alloc(const gsl_spmatrix *A, const unsigned char *fixed,
                                   double max_bytes, char *why, size_t len)
{
    (void)A;
    (void)fixed;
    (void)max_bytes;
    snprintf(why, len, "motionbench was built without CHOLMOD (configure found no "
             "libcholmod; Debian: libsuitesparse-dev)");
    return NULL;
}

double bench_cholmod_solve(bench_cholmod *C, const double *values, const double *b, double *x,
                           char *why, size_t len)
{
    (void)C; (void)values; (void)b; (void)x;
    snprintf(why, len, "no CHOLMOD");
    return -1.0;
}

void bench_cholmod_describe(const bench_cholmod *C, char *text, size_t len)
{
    (void)C;
    snprintf(text, len, "none");
}

void bench_cholmod_threads(char *text, size_t len)
{
    snprintf(text, len, "no CHOLMOD");
}

int bench_cholmod_one_thread_process(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

double bench_cholmod_asymmetry(const bench_cholmod *C, const double *values)
{
    (void)C;
    (void)values;
    return NAN;
}

#endif
