/* test_helpers.h -- small set-up helpers shared by the Euler-family tests (header only). */
#ifndef MB_TEST_HELPERS_H
#define MB_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <string.h>

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

#endif
