/* test_init.c -- GSL's process-wide error handler is set once by the library's entry
 * points (mb_init.h) and never toggled per call.
 *
 * Each Criterion test runs in its own process, so every test starts with GSL's default
 * handler, which aborts the process on any GSL error. */
#include "mb_init.h"
#include "mb_linsolve.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

/* A Cholesky factorisation of a non-square matrix is a GSL error (GSL_ENOTSQR through
 * GSL_ERROR): with the default handler the process aborts, with the handler off the
 * routine returns the status. */
static void expect_gsl_error_returns(void)
{
    gsl_matrix *m = gsl_matrix_calloc(2, 3);
    cr_expect_eq(gsl_linalg_cholesky_decomp1(m), GSL_ENOTSQR,
                 "a GSL error must come back as a status, not abort");
    gsl_matrix_free(m);
}

Test(init, explicit_call_turns_handler_off)
{
    mb_init();
    mb_init();              /* idempotent */
    expect_gsl_error_returns();
}

Test(init, problem_entry_point_calls_it)
{
    const mb_problem_type *type;
    mb_options *params = NULL;
    cr_assert_eq(mb_problem_prepare("harmonic", NULL, &type, &params), MB_SUCCESS, "%s",
                 mb_last_error());
    mb_options_free(params);
    expect_gsl_error_returns();
}

static int handler_calls;
static void counting_handler(const char *reason, const char *file, int line, int err)
{
    (void)reason; (void)file; (void)line; (void)err;
    handler_calls++;
}

/* After set-up a program may install its own handler; the library's GSL calls must
 * neither replace it nor restore an older one (no save/restore per call).  A singular
 * 2x2 system makes GSL's LU solve report an error through the handler in force. */
Test(init, library_calls_leave_the_handler_alone)
{
    mb_init();
    gsl_set_error_handler(counting_handler);
    mb_lu *lu = mb_lu_alloc(2);
    cr_assert_not_null(lu);
    gsl_matrix_set_zero(lu->A);
    double b[2] = { 2.385, -1.5 }, x[2];
    cr_expect_eq(mb_lu_solve(lu, b, x), MB_ESINGULAR);
    mb_lu_free(lu);
    cr_expect_eq(gsl_set_error_handler(NULL), counting_handler,
                 "the program's handler was replaced during a library call");
}
