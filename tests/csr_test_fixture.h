/* csr_test_fixture.h -- what the tests of the sparse block storage share: a moving cloth
 * (two pinned corners, dashpots, drag), its system assembled into the storage the
 * implicit step chooses (one block per spring), the dense matrix of its block list
 * (another path: mb_forces_eval_jacobian, mb_linsys_dense) and the dense product.
 * Criterion tests only (cr_assert). */
#ifndef MB_CSR_TEST_FIXTURE_H
#define MB_CSR_TEST_FIXTURE_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mb_forces.h"
#include "mb_implicit.h"
#include "mb_linsys_sink.h"
#include "mb_status.h"
#include "mb_system.h"
#include "test_helpers.h"

#define H 0.013

/* the cloth nx x ny (two pinned corners, dashpots, drag), moving */
static mb_system *cloth(const char *nx, const char *ny)
{
    char sx[32], sy[32];
    snprintf(sx, sizeof sx, "nx=%s", nx);
    snprintf(sy, sizeof sy, "ny=%s", ny);
    mb_system *sys = th_problem("cloth", (const char *const[]){ sx, sy, "D=0.05", NULL });
    for (size_t k = 0; k < 3 * sys->nodes->n; k++) {
        sys->nodes->x[k] += 0.013 * sin(2.1 * (double)k);
        sys->nodes->v[k] = 0.3 * cos(0.8 * (double)k);
    }
    return sys;
}

/* The storage the implicit step chooses for sys (solver=sparse): the sink's pattern pass,
 * its pattern adopted with the pairs' marks, and one assembly into it (b: 3n values). */
static mb_csr *shared_storage(mb_system *sys, double *b)
{
    mb_nodes *s = sys->nodes;
    mb_linsys_sink k = { 0 };
    mb_jacobian *scratch = mb_jacobian_alloc(s->n, 53);
    mb_linsys_sink_begin_pattern(&k, s, H, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.25, &k, scratch), MB_SUCCESS);
    cr_assert(mb_linsys_sink_finish(&k), "the pattern pass");
    size_t *row, *col, nb = k.count;
    unsigned char *pair;
    mb_linsys_sink_take_pattern(&k, &row, &col, &pair);
    mb_csr *C = mb_csr_alloc();
    cr_assert_eq(mb_csr_pattern_adopt(C, s->n, nb, row, col, pair, s), MB_SUCCESS, "%s",
                 mb_last_error());
    mb_linsys_sink_begin(&k, s, H, NULL, C, b);
    cr_assert_eq(mb_forces_assemble(sys->forces, s, 0.25, &k, scratch), MB_SUCCESS);
    cr_assert(mb_linsys_sink_finish(&k), "the assembly into the shared blocks");
    mb_linsys_sink_release(&k);
    mb_jacobian_free(scratch);
    return C;
}

/* The dense A (3n x 3n) of sys from its block list */
static double *dense_of(mb_system *sys)
{
    mb_nodes *s = sys->nodes;
    size_t n3 = 3 * s->n;
    mb_jacobian *J = mb_jacobian_alloc(s->n, 53);
    double *A = malloc(n3 * n3 * sizeof *A);
    cr_assert(J && A);
    cr_assert_eq(mb_forces_eval_jacobian(sys->forces, s, 0.25, J), MB_SUCCESS);
    mb_linsys_dense(s, J, H, A, n3);
    mb_jacobian_free(J);
    return A;
}

/* y = A x, row by row from +0 over every column in ascending order */
static void dense_product(const double *A, size_t n3, const double *x, double *y)
{
    for (size_t k = 0; k < n3; k++) {
        double sum = 0.0;
        for (size_t c = 0; c < n3; c++)
            sum += A[k * n3 + c] * x[c];
        y[k] = sum;
    }
}

#endif
