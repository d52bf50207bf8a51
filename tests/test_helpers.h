/* test_helpers.h -- small set-up helpers shared by the Euler-family tests (header only). */
#ifndef MB_TEST_HELPERS_H
#define MB_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <string.h>

#include "mb_mpfr_extra.h"
#include "mb_problem.h"
#include "mb_stepper.h"

/* Build registered problem `name` with "k=v" pairs (NULL-terminated). */
static inline mb_system *th_problem(const char *name, const char *const *pairs)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    for (const char *const *kv = pairs; kv && *kv; kv++)
        cr_assert_eq(mb_options_set_pair(in, *kv), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_problem_prepare(name, in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_options_free(in);
    mb_options_free(p);
    return sys;
}

/* One particle of mass m at x (3), velocity v (3), with an anchored zero-rest spring k
 * to the origin (if k > 0), drag D (if D > 0) and gravity g (3, if non-NULL). */
static inline mb_system *th_particle(double m, const double *x, const double *v, double k,
                                     double D, const double *g)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, m);
    memcpy(sys->nodes->x, x, 3 * sizeof(double));
    memcpy(sys->nodes->v, v, 3 * sizeof(double));
    if (k > 0.0) {
        void *sp = mb_springs_new();
        mb_spring s = { .i = 0, .anchored = 1, .k = k };
        cr_assert_eq(mb_springs_add(sp, &s), MB_SUCCESS);
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    }
    if (D > 0.0)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(D)), MB_SUCCESS);
    if (g)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    return sys;
}

/* 1 when the x and v arrays of a and b are bitwise equal */
static inline int th_same_state(const mb_nodes *a, const mb_nodes *b)
{
    return a->n == b->n && memcmp(a->x, b->x, 3 * a->n * sizeof(double)) == 0
        && memcmp(a->v, b->v, 3 * a->n * sizeof(double)) == 0;
}

/* Run spec on sys and twin_spec on its 53-bit MPFR twin, with double's exponent range, for
 * `steps` steps of h, and expect the twin to reproduce the double run bit for bit (docs:
 * overview.md, "One source, two precisions").  Frees sys; returns the double run's final
 * state (free with mb_nodes_free) for a caller's negative control. */
static inline mb_nodes *th_expect_twin53_identical(mb_system *sys, const char *spec,
                                                   const char *twin_spec, double h, int steps)
{
    mb_mpfr_range saved = mb_mpfr_use_double_range();
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 53);
    mb_stepper *st = mb_stepper_alloc(spec, sys);
    mb_stepper *sw = mb_stepper_alloc_twin(twin_spec, tw);
    cr_assert(st && sw, "%s", mb_last_error());
    for (int n = 0; n < steps; n++) {
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS);
        cr_assert_eq(mb_stepper_step_twin(sw, tw, h), MB_SUCCESS);
    }
    mb_nodes *back = mb_nodes_alloc(sys->nodes->n, 53), *end = mb_nodes_alloc(sys->nodes->n, 53);
    mb_nodes_mpfr_get_double(back, tw->nodes);
    cr_expect(th_same_state(back, sys->nodes), "MPFR-53 twin differs from the double run");
    mb_nodes_copy(end, sys->nodes);
    mb_nodes_free(back);
    mb_stepper_free(st);
    mb_stepper_free(sw);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
    mb_mpfr_restore_range(saved);
    return end;
}

#endif
