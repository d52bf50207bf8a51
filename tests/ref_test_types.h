/* ref_test_types.h -- fixtures of the reference tests (header only): the force models of
 * ref_test_forces.h instantiated in double and MPFR and wrapped as force types (a central
 * force, a constant torque, a sign force and a wall), and the harmonic oscillator with
 * awkward parameters (mass 2.385, k 7.31, x0 0.413, v0 -1.27) the references are checked
 * against in closed form. */
#ifndef MB_REF_TEST_TYPES_H
#define MB_REF_TEST_TYPES_H

#include <criterion/criterion.h>
#include <stdlib.h>

#include "mb_forces.h"
#include "mb_problem.h"
#include "mb_status.h"

#define BASE_DOUBLE
#include "templates_on.h"
#include "ref_test_forces.h"
#include "templates_off.h"
#undef BASE_DOUBLE
#define BASE_MPFR
#include "templates_on.h"
#include "ref_test_forces.h"
#include "templates_off.h"
#undef BASE_MPFR

static inline void rt_free_param(void *p) { free(p); }
static const mb_force_type central_type = { .name = "central", .eval = central_eval,
                                            .eval_mpfr = central_mpfr_eval, .free = rt_free_param };
static const mb_force_type ctorque_type = { .name = "ctorque", .eval = ctorque_eval,
                                            .eval_mpfr = ctorque_mpfr_eval, .free = rt_free_param };
static const mb_force_type wall_type = { .name = "wall", .eval = wall_eval,
                                         .eval_mpfr = wall_mpfr_eval, .free = rt_free_param };
static const mb_force_type signf_type = { .name = "signf", .eval = signf_eval,
                                          .eval_mpfr = signf_mpfr_eval, .free = rt_free_param };

/* a malloc'ed copy of a[0..n), the parameters of one of the types above */
static inline void *rt_dup_doubles(const double *a, size_t n)
{
    double *p = malloc(n * sizeof *p);
    for (size_t k = 0; k < n; k++)
        p[k] = a[k];
    return p;
}

/* the parameters of the registered harmonic problem with the awkward values above; its type
 * into *pt when pt is not NULL */
static inline mb_options *rt_harmonic_params(const mb_problem_type **pt)
{
    const mb_problem_type *type;
    mb_options *in = mb_options_new(), *p;
    mb_options_set(in, "mass", "2.385");
    mb_options_set(in, "k", "7.31");
    mb_options_set(in, "x0", "0.413");
    mb_options_set(in, "v0", "-1.27");
    cr_assert_eq(mb_problem_prepare("harmonic", in, &type, &p), MB_SUCCESS);
    mb_options_free(in);
    if (pt)
        *pt = type;
    return p;
}

#endif
