/* test_step_contract.c -- the step contract of every registered scheme on bad step sizes.
 *
 * A step h must be finite and > 0: h = NaN, +-Inf, 0 or negative is refused with MB_EDOM
 * and the state (positions, velocities, time) is left exactly as it was (mb_stepper.h).
 * Checked for the double instance and the MPFR twin of every scheme that can be set up on
 * a single particle tied to an anchor (schemes needing another kind of system are skipped
 * when their allocation refuses it).  Control: a good h advances the time by exactly h. */
#include <criterion/criterion.h>
#include <math.h>

#include "mb_force_torque.h"
#include "mb_stepper.h"

#include <string.h>

static mb_system *anchored_particle(void)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, 2.385);
    sys->nodes->x[0] = 0.413;
    sys->nodes->x[1] = -0.127;
    sys->nodes->v[0] = -1.27;
    sys->nodes->v[2] = 0.0731;
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .anchored = 1, .k = 7.31 };
    mb_springs_add(sp, &s);
    mb_forces_add(sys->forces, mb_force_springs, sp);
    return sys;
}

static const double bad_h[] = { NAN, INFINITY, -INFINITY, 0.0, -1e-3 };
#define N_BAD (sizeof bad_h / sizeof bad_h[0])

static void check_double(const mb_stepper_type *t)
{
    mb_system *sys = anchored_particle();
    mb_stepper *st = mb_stepper_alloc(t->name, sys);
    if (st == NULL) {
        mb_system_free(sys);
        return;
    }
    for (size_t b = 0; b < N_BAD; b++) {
        double x[3], v[3];
        for (int k = 0; k < 3; k++) {
            x[k] = sys->nodes->x[k];
            v[k] = sys->nodes->v[k];
        }
        cr_expect_eq(mb_stepper_step(st, sys, bad_h[b]), MB_EDOM, "%s: h = %g accepted",
                     t->name, bad_h[b]);
        for (int k = 0; k < 3; k++) {
            cr_expect_eq(sys->nodes->x[k], x[k], "%s: h = %g moved x", t->name, bad_h[b]);
            cr_expect_eq(sys->nodes->v[k], v[k], "%s: h = %g changed v", t->name, bad_h[b]);
        }
        cr_expect_eq(sys->t, 0.0, "%s: h = %g advanced t", t->name, bad_h[b]);
    }
    cr_expect_eq(mb_stepper_step(st, sys, 0.0173), MB_SUCCESS, "%s: %s", t->name,
                 mb_last_error());
    cr_expect_eq(sys->t, 0.0173, "%s", t->name);
    mb_stepper_free(st);
    mb_system_free(sys);
}

static void check_twin(const mb_stepper_type *t)
{
    if (t->alloc_mpfr == NULL)
        return;
    mb_system *sys = anchored_particle();
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 64);
    cr_assert_not_null(tw);
    mb_stepper *st = mb_stepper_alloc_twin(t->name, tw);
    if (st == NULL) {
        mb_system_mpfr_free(tw);
        mb_system_free(sys);
        return;
    }
    for (size_t b = 0; b < N_BAD; b++) {
        cr_expect_eq(mb_stepper_step_twin(st, tw, bad_h[b]), MB_EDOM, "%s twin: h = %g accepted",
                     t->name, bad_h[b]);
        for (int k = 0; k < 3; k++) {
            cr_expect(mpfr_cmp_d(&tw->nodes->x[k], sys->nodes->x[k]) == 0,
                      "%s twin: h = %g moved x", t->name, bad_h[b]);
            cr_expect(mpfr_cmp_d(&tw->nodes->v[k], sys->nodes->v[k]) == 0,
                      "%s twin: h = %g changed v", t->name, bad_h[b]);
        }
        cr_expect_eq(tw->t, 0.0, "%s twin: h = %g advanced t", t->name, bad_h[b]);
    }
    mb_stepper_free(st);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
}

Test(step_contract, bad_step_size_is_refused_and_state_untouched)
{
    int checked = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        check_double(*t);
        check_twin(*t);
        checked++;
    }
    cr_expect(checked >= 5);
}

/* A scheme that integrates translation only refuses a system that rotates: a particle with
 * an initial spin (double and twin), and one driven by a torque about a fixed axis with no
 * initial spin (double: the torque is probed at allocation).  Control: every rotation
 * scheme accepts both. */
static mb_system *spinning_particle(double spin, double torque)
{
    mb_system *sys = anchored_particle();
    double I[3] = { 0.31, 0.31, 0.31 };
    mb_nodes_set_inertia(sys->nodes, 0, I);
    sys->nodes->omega[2] = spin;
    sys->nodes->angmom[2] = 0.31 * spin;
    if (torque != 0.0) {
        const double T[3] = { 0.0, torque, 0.0 };
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_torque, mb_torque_new(T)),
                     MB_SUCCESS, "%s", mb_last_error());
    }
    return sys;
}

Test(step_contract, translation_only_schemes_refuse_rotating_systems)
{
    int refused = 0, accepted = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        int rotates = ((*t)->flags & MB_STEPPER_ROTATION) != 0;
        mb_system *cases[2] = { spinning_particle(1.7, 0.0), spinning_particle(0.0, 0.023) };
        for (int c = 0; c < 2; c++) {
            mb_stepper *st = mb_stepper_alloc((*t)->name, cases[c]);
            if (rotates) {
                accepted += st != NULL;
            } else {
                cr_expect_null(st, "%s accepted a rotating system (case %d)", (*t)->name, c);
                cr_expect(strstr(mb_last_error(), "translation only") != NULL, "%s: %s",
                          (*t)->name, mb_last_error());
                refused += st == NULL;
            }
            mb_stepper_free(st);
        }
        if (!rotates && (*t)->alloc_mpfr) {
            mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(cases[0], 64);
            mb_stepper *st = mb_stepper_alloc_twin((*t)->name, tw);
            cr_expect_null(st, "%s twin accepted a spinning system", (*t)->name);
            mb_stepper_free(st);
            mb_system_mpfr_free(tw);
        }
        mb_system_free(cases[0]);
        mb_system_free(cases[1]);
    }
    cr_expect(refused >= 10, "only %d refusals", refused);
    cr_expect(accepted >= 4, "rotation schemes accepted only %d systems", accepted);
}
