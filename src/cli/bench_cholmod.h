/* bench_cholmod.h -- the CHOLMOD peer of `bench implicit-cloth`: the sparse direct solve a
 * lean cloth step would make, CHOLMOD's supernodal Cholesky factorisation (LL^T) with the
 * best fill-reducing ordering its analysis finds among AMD, METIS and NESDIS, analysed
 * once per pattern and then factorised and solved at every step (cholmod_solve2, whose
 * workspace is kept: no allocation per step).  Benchmark code, built only when configure
 * finds CHOLMOD (HAVE_CHOLMOD).
 *
 * The backward-Euler matrix A = M - h C - h^2 K is not symmetric in two ways.  The rows
 * of fixed degrees of freedom are d e_k^T (b_k = d v_k) while their columns are not: the
 * peer eliminates them symmetrically, as a lean code would, taking A_ik v_k off b_i and
 * zeroing the column, which leaves the solution as it is.  And the dashpots make K depend
 * on the relative velocity while the springs move, a small nonsymmetric term; Cholesky
 * needs a symmetric matrix, so the peer factorises the symmetric part S = (A + A^T) / 2 of
 * what remains, the same pattern and the same work, and its solution differs from A's by
 * about the relative asymmetry that remains, which is printed. */
#ifndef MB_BENCH_CHOLMOD_H
#define MB_BENCH_CHOLMOD_H

#include <stddef.h>

#include <gsl/gsl_spmatrix.h>

typedef struct bench_cholmod bench_cholmod;

/* The peer for the CSR pattern of A (square, structurally symmetric, rows sorted) whose
 * degrees of freedom k with fixed[k] != 0 are fixed (fixed may be NULL), analysed: NULL
 * with the reason in why (CHOLMOD not built in, out of memory, or a factor of more than
 * max_bytes by the analysis' count). */
bench_cholmod *bench_cholmod_alloc(const gsl_spmatrix *A, const unsigned char *fixed,
                                   double max_bytes, char *why, size_t len);
void bench_cholmod_free(bench_cholmod *C);
/* Seconds of CPU time of the process (every thread) in the factorisation of the
 * symmetric part of the matrix whose values (in the order of the pattern given to
 * bench_cholmod_alloc) are `values`, and in the solve of S x = b (the copy of the values
 * into CHOLMOD's matrix is not timed); -1 when CHOLMOD fails (why says so).  CHOLMOD runs
 * on one thread while the peer exists (bench_cholmod.c). */
double bench_cholmod_solve(bench_cholmod *C, const double *values, const double *b, double *x,
                           char *why, size_t len);
/* The configuration for the rows: the ordering the analysis selected, nnz(L), and the
 * share of the CPU time charged that threads other than the caller's took (0 when CHOLMOD
 * runs on one thread). */
void bench_cholmod_describe(const bench_cholmod *C, char *text, size_t len);
/* How CHOLMOD runs on one thread in this program, for the header line. */
void bench_cholmod_threads(char *text, size_t len);
/* Before anything else of `motionbench bench NAME ARGS...` (argv[0] = NAME): unless the
 * environment already holds OMP_THREAD_LIMIT=1 and OPENBLAS_NUM_THREADS=1, which the
 * libraries read when they load, the program runs itself again with them set
 * (/proc/self/exe) and does not return.  0 when they are set or CHOLMOD is not built in;
 * -1, after a message, when the program cannot run itself again (the peer would not be
 * on one thread: the benchmark stops). */
int bench_cholmod_one_thread_process(int argc, char **argv);
/* max |A_ij - A_ji| / max |A_ij| over the entries of neither a fixed row nor a fixed
 * column of the matrix whose values are `values` */
double bench_cholmod_asymmetry(const bench_cholmod *C, const double *values);
/* "CHOLMOD x.y.z", or why there is none */
void bench_cholmod_build(char *text, size_t len);

#endif
