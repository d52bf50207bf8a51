/* test_bench_rebuild.c -- the lean chain rebuild of `bench implicit-chain`
 * (src/cli/bench_rebuild.c): its A and b, formed in the lean step's form (b with the
 * dashpots' and drag's terms cancelled in closed form, no forces stored) into the rows
 * [D_i | b_i] (b as a fourth column, read here at the offsets bench_rebuild.h states),
 * L_i and U_i, against the library's assembly into block-tridiagonal storage
 * (mb_implicit_solver_assemble, code the rebuild shares nothing with) at the same state
 * of a spring chain with drag, one end pinned and nonzero velocities (three library
 * steps from rest).
 *
 * Tolerance: every entry of A and b is a sum of at most six products, each rounded, in a
 * different order in the two codes (b: m v + h (m g + E_i - E_{i-1}) here, M v + h f -
 * h C v there), so they differ by a few u times the largest term; the terms are within a
 * factor 10 of the largest entry of A or b (m = 0.0473 kg, h^2 k = 0.056, m g h = 0.0039,
 * h k (l - L) < 0.05), so 20 u x 10 = 4.4e-14 bounds the relative difference; 1e-13.
 *
 * The cloth's plain rebuild (the CHOLMOD peer's, spring by spring into the scalar CSR
 * matrix of the library's pattern, each block's rows two entries a lane) against the
 * library's assembly into CSR storage (mb_implicit_solver_assemble, then the pattern's
 * GSL matrix mb_csr_spmatrix), at the state of a 6 x 5 cloth three library steps from
 * rest.  An entry of A is m or 0 plus the G = h C + h^2 K of the springs on its node (at
 * most 8: structural and shear, cloth.c) and drag's h D; each G, formed in another order
 * here (K summed in one expression, C = c n n^T), is within about 12 u of its terms
 * (k, k L / l, c / l |dv|, each times h^2 or h).  The terms are within a factor 10 of the
 * largest entry of A, so 10 x 12 u x 10 = 1.3e-13 bounds the relative difference of A;
 * b's entries (m v + h f - h C v, six products and sums a spring) likewise: 2e-13.
 * Negative control: the fault catalogue's off-diagonal sign of a spring's block in the
 * rebuild (bench-cloth-rebuild-offdiagonal-sign) moves A by 2 |G| of the largest entry. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array_scan.h"
#include "bench_rebuild.h"
#include "mb_implicit.h"
#include "mb_problem.h"
#include "mb_stepper.h"

#define H (1.0 / 120.0)

/* Three steps of the library's implicit-euler from the state set up: a moving state */
static void three_library_steps(mb_system *sys)
{
    mb_stepper *st = mb_stepper_alloc("implicit-euler", sys);
    cr_assert(st != NULL);
    for (int k = 0; k < 3; k++)
        cr_assert_eq(mb_stepper_step(st, sys, H), MB_SUCCESS);
    mb_stepper_free(st);
}

/* A chain of n particles with drag D and the first one pinned, after three library steps */
static mb_system *moving_chain(size_t n, double D, double g[3])
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p = NULL;
    char nb[32], db[32];
    snprintf(nb, sizeof nb, "%zu", n);
    snprintf(db, sizeof db, "%.17g", D);
    mb_system *sys = NULL;
    cr_assert(in && mb_options_set(in, "n", nb) == 0 && mb_options_set(in, "D", db) == 0
              && mb_options_set(in, "anchors", "first") == 0);
    cr_assert_eq(mb_problem_prepare("spring-chain", in, &pt, &p), MB_SUCCESS);
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    g[0] = g[2] = 0.0;
    g[1] = -mb_options_double(p, "g");
    mb_options_free(in);
    mb_options_free(p);
    three_library_steps(sys);
    return sys;
}

/* The library's assembly at the state of sys, into the storage solver=auto chose in a
 * first assembly and solve (as the step's second assembly is) */
typedef struct {
    mb_options *o;
    mb_implicit_solver *S;
    mb_jacobian *J;
    double *b, *x;
} library_assembly;

static library_assembly library_assemble(mb_system *sys)
{
    size_t n = sys->nodes->n;
    library_assembly L = { .o = mb_options_new() };
    const mb_option_spec specs[] = { MB_IMPLICIT_SOLVER_OPTIONS, MB_OPTION_END };
    cr_assert_eq(mb_options_validate(L.o, specs, "implicit-euler"), MB_SUCCESS);
    cr_assert_eq(mb_implicit_solver_alloc(&L.S, L.o, n), MB_SUCCESS);
    L.J = mb_jacobian_alloc(n, 53);
    L.b = malloc(3 * n * sizeof(double));
    L.x = calloc(3 * n, sizeof(double));
    cr_assert(L.J && L.b && L.x);
    mb_nodes *s = sys->nodes;
    cr_assert_eq(mb_implicit_solver_assemble(L.S, sys->forces, s, sys->t, H, L.J, L.b), MB_SUCCESS);
    cr_assert_eq(mb_implicit_solver_solve(L.S, s, L.J, H, L.b, L.x), MB_SUCCESS);
    cr_assert_eq(mb_implicit_solver_assemble(L.S, sys->forces, s, sys->t, H, L.J, L.b), MB_SUCCESS);
    return L;
}

static void library_assembly_free(library_assembly *L)
{
    free(L->b);
    free(L->x);
    mb_jacobian_free(L->J);
    mb_implicit_solver_free(L->S);
    mb_options_free(L->o);
}

Test(bench_rebuild, lean_chain_equals_the_library_assembly)
{
    const size_t n = 40;
    const double D = 0.7;                       /* h D = 0.0058: an eighth of m */
    double g[3];
    mb_system *sys = moving_chain(n, D, g);
    mb_nodes *s = sys->nodes;
    double vmax = mb_max_abs(s->v, 3 * n);
    cr_assert(vmax > 0.1, "the chain moves (max |v| %g)", vmax);

    /* the library: the storage chosen by a first assembly and solve, then an assembly */
    library_assembly L = library_assemble(sys);
    mb_implicit_solver *S = L.S;
    double *b = L.b;
    cr_assert(S->chain_last, "the library's chain goes to the block sweep");
    const mb_blocktri *T = S->btri;

    bench_rebuild *R = bench_rebuild_alloc(sys, g, D, NULL);
    cr_assert(R != NULL && R->chain, "the chain is rebuilt in the lean step's form");
    cr_assert(R->Db == R->vals && R->L == R->Db + 12 * n && R->U == R->L + 9 * n
              && R->nvals == 30 * n && ((uintptr_t)R->Db & 15) == 0, "the chain's storage");
    memset(R->vals, 0xff, 30 * n * sizeof(double));     /* NaN: every value must be written */
    bench_rebuild_run(R, s, H);
    size_t n9 = 9 * n;
    double *Dr = malloc(n9 * sizeof(double)), *br = malloc(3 * n * sizeof(double));
    cr_assert(Dr && br);
    for (size_t i = 0; i < n; i++)              /* row a of [D_i | b_i]: D_i(a, .), b_i(a) */
        for (size_t a = 0; a < 3; a++) {
            for (size_t c = 0; c < 3; c++)
                Dr[9 * i + 3 * a + c] = R->Db[12 * i + 4 * a + c];
            br[3 * i + a] = R->Db[12 * i + 4 * a + 3];
        }
    double dD = mb_max_rel_diff(Dr, T->D, n9);
    double dL = mb_max_rel_diff(R->L + 9, T->L + 9, n9 - 9);           /* L_0: no block */
    double dU = mb_max_rel_diff(R->U, T->U, n9 - 9);                   /* U_{n-1}: none */
    double db = mb_max_rel_diff(br, b, 3 * n);
    cr_expect(dD <= 1e-13 && dL <= 1e-13 && dU <= 1e-13, "A: D %g, L %g, U %g", dD, dL, dU);
    cr_expect(db <= 1e-13, "b: %g", db);
    /* the pinned node's rows: m e_a^T, b_a = m v_a (v = 0 there), nothing beside */
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 4; c++)
            cr_expect(R->Db[4 * a + c] == (c == a ? s->mass[0] : 0.0)
                      && R->U[3 * a + c % 3] == 0.0, "pinned row %d, column %d", a, c);
    /* L_0 and U_{n-1}, outside A, are multiplied by zeros in the sweep: written, +-0 */
    for (int q = 0; q < 9; q++)
        cr_expect(R->L[q] == 0.0 && R->U[n9 - 9 + (size_t)q] == 0.0, "L_0, U_n-1 entry %d", q);
    free(Dr);
    free(br);

    bench_rebuild_free(R);
    library_assembly_free(&L);
    mb_system_free(sys);
}

Test(bench_rebuild, cloth_in_csr_equals_the_library_assembly)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p = NULL;
    cr_assert(in && mb_options_set(in, "nx", "6") == 0 && mb_options_set(in, "ny", "5") == 0);
    cr_assert_eq(mb_problem_prepare("cloth", in, &pt, &p), MB_SUCCESS);
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    double g[3] = { 0.0, -mb_options_double(p, "g"), 0.0 }, D = mb_options_double(p, "D");
    mb_options_free(in);
    mb_options_free(p);
    three_library_steps(sys);
    mb_nodes *s = sys->nodes;
    size_t n = s->n;
    double vmax = mb_max_abs(s->v, 3 * n);
    cr_assert(vmax > 0.01 && D > 0.0, "the cloth moves (max |v| %g), drag %g", vmax, D);

    /* the library: the storage chosen by a first assembly and solve, then an assembly */
    library_assembly L = library_assemble(sys);
    mb_implicit_solver *S = L.S;
    double *b = L.b;
    cr_assert(S->csr != NULL && mb_csr_ready(S->csr), "the library's cloth goes to CSR");
    const gsl_spmatrix *A = mb_csr_spmatrix(S->csr);
    cr_assert(A != NULL);

    bench_rebuild *R = bench_rebuild_alloc(sys, g, D, S->csr);
    cr_assert(R != NULL && !R->chain && R->nvals == A->nz, "the cloth rebuilt in CSR");
    memset(R->vals, 0xff, R->nvals * sizeof(double));  /* NaN: every value must be written */
    memset(R->b, 0xff, 3 * n * sizeof(double));
    bench_rebuild_run(R, s, H);
    double dA = mb_max_rel_diff(R->vals, A->data, R->nvals);
    double db = mb_max_rel_diff(R->b, b, 3 * n);
    cr_expect(dA <= 2e-13, "A: %g", dA);
    cr_expect(db <= 2e-13, "b: %g", db);

    bench_rebuild_free(R);
    library_assembly_free(&L);
    mb_system_free(sys);
}
