/* problem_run.h -- test helper: run a registered problem with a scheme at a fixed step,
 * feed its observer every step and return the observation; optionally with a test-only
 * fault added after the problem's forces: "friction at the centre", which cancels every
 * torque of node 0, as if the contact's tangential force acted at the centre (no moment
 * a_i x F_t).  Used by the negative controls of the impact and rolling metrics.
 * run_problem_replayed feeds the states to the observer of a second system set up alike,
 * whose forces are never evaluated: what the observer sees of an outside program's
 * on-step trajectory. */
#ifndef MB_TEST_PROBLEM_RUN_H
#define MB_TEST_PROBLEM_RUN_H

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_options.h"
#include "mb_problem.h"
#include "mb_status.h"
#include "mb_stepper.h"

static int centre_eval(const void *params, mb_nodes *s, double t)
{
    (void)params;
    (void)t;
    memset(s->torque, 0, 3 * sizeof *s->torque);
    return MB_SUCCESS;
}

static void centre_free(void *params) { (void)params; }

static const mb_force_type friction_at_centre = { .name = "friction-at-centre",
                                                  .eval = centre_eval, .free = centre_free };

/* The value of an observed metric (NaN when absent). */
static inline double observed(const mb_observation *o, const char *name)
{
    for (size_t k = 0; k < o->count; k++)
        if (strcmp(o->items[k].name, name) == 0)
            return o->items[k].value;
    return NAN;
}

/* The parameters of problem `name` with the "key=value" pairs of `pairs`
 * (NULL-terminated), its type into *pt. */
static inline mb_options *problem_params(const char *name, const char *const *pairs,
                                         const mb_problem_type **pt)
{
    mb_options *given = mb_options_new(), *par;
    for (size_t k = 0; pairs != NULL && pairs[k] != NULL; k++)
        cr_assert_eq(mb_options_set_pair(given, pairs[k]), MB_SUCCESS, "%s", pairs[k]);
    cr_assert_eq(mb_problem_prepare(name, given, pt, &par), MB_SUCCESS, "%s", mb_last_error());
    mb_options_free(given);
    return par;
}

/* Step sys with scheme at h to t_end and feed the problem's observer, begun on `seen`,
 * the on-step states of sys (seen's time set to theirs); seen may be sys itself.  The
 * observation into *obs. */
static inline void observe_run(const mb_problem_type *pt, const mb_options *par, mb_system *sys,
                               mb_system *seen, const char *scheme, double h, double t_end,
                               mb_observation *obs)
{
    void *ctx;
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    mb_nodes *on = mb_nodes_alloc(sys->nodes->n, 53);
    cr_assert_eq(pt->observe_begin(&ctx, par, seen), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_on_step(st, sys, on), MB_SUCCESS);
    cr_assert_eq(pt->observe_step(ctx, seen, on), MB_SUCCESS);
    long n = lround(t_end / h);
    for (long k = 0; k < n; k++) {
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
        cr_assert_eq(mb_stepper_on_step(st, sys, on), MB_SUCCESS);
        seen->t = sys->t;
        cr_assert_eq(pt->observe_step(ctx, seen, on), MB_SUCCESS, "%s", mb_last_error());
    }
    *obs = (mb_observation){ 0 };
    cr_assert_eq(pt->observe_end(ctx, obs), MB_SUCCESS);
    mb_nodes_free(on);
    mb_stepper_free(st);
}

/* Run problem `name` with the "key=value" pairs of `pairs` (NULL-terminated), scheme,
 * step h to t_end, with the fault when at_centre; the observation into *obs. */
static inline void run_problem(const char *name, const char *const *pairs, const char *scheme,
                               double h, double t_end, int at_centre, mb_observation *obs)
{
    const mb_problem_type *pt;
    mb_options *par = problem_params(name, pairs, &pt);
    mb_system *sys;
    cr_assert_eq(pt->setup(par, &sys), MB_SUCCESS, "%s", mb_last_error());
    if (at_centre)
        cr_assert_eq(mb_forces_add(sys->forces, &friction_at_centre,
                                   (void *)&friction_at_centre), MB_SUCCESS);
    observe_run(pt, par, sys, sys, scheme, h, t_end, obs);
    mb_system_free(sys);
    mb_options_free(par);
}

/* As run_problem (no fault), with the observer of a second system of the same problem,
 * whose forces no one evaluates, fed the on-step states of the first (its time set to
 * theirs): a replay of an on-step trajectory. */
static inline void run_problem_replayed(const char *name, const char *const *pairs,
                                        const char *scheme, double h, double t_end,
                                        mb_observation *obs)
{
    const mb_problem_type *pt;
    mb_options *par = problem_params(name, pairs, &pt);
    mb_system *sys, *seen;
    cr_assert_eq(pt->setup(par, &sys), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(pt->setup(par, &seen), MB_SUCCESS, "%s", mb_last_error());
    observe_run(pt, par, sys, seen, scheme, h, t_end, obs);
    mb_system_free(seen);
    mb_system_free(sys);
    mb_options_free(par);
}

#endif
