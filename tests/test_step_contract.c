/* test_step_contract.c -- the step contract of every registered scheme on bad step sizes
 * and on a force that turns NaN.
 *
 * A step h must be finite and > 0: h = NaN, +-Inf, 0 or negative is refused with MB_EDOM
 * and the state (positions, velocities, time) is left exactly as it was (mb_stepper.h).
 * Checked for the double instance and the MPFR twin of every scheme that can be set up on
 * a single particle tied to an anchor (schemes needing another kind of system are skipped
 * when their allocation refuses it).  Control: a good h advances the time by exactly h.
 *
 * A force evaluation that yields NaN fails the step that made it with an error, and that
 * step leaves the state (x, v, q, w, L, vel_mid, t) bit for bit as it was: tolerance 0,
 * as GSL's steppers promise on failure.  Every force evaluation of the first steps is
 * made the NaN one in turn (the first stage of a step, an inner stage, the force at the
 * end of a step that a scheme keeps for the next, a Newton iterate), so a scheme that
 * writes its state before it has seen every force fails; the MPFR twins likewise (value for
 * value, signs of zeros included).  Control: without the NaN the same steps succeed. */
#include <criterion/criterion.h>
#include <math.h>

#include "mb_force_torque.h"
#include "mb_stepper.h"

#include <stdlib.h>
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

/* ---- a force that turns NaN ---- */

/* adds NaN to f_y of node 0 at the nan_at-th evaluation (counting in *calls) and after */
struct nan_force {
    long *calls;
    long nan_at;
};

static int nan_force_eval(const void *params, mb_nodes *s, double t)
{
    const struct nan_force *p = params;
    (void)t;
    if (++*p->calls >= p->nan_at && p->nan_at > 0)
        s->f[1] += NAN;
    return MB_SUCCESS;
}

/* the same in MPFR, for the twins (the evaluations counted alike) */
static int nan_force_eval_mpfr(const void *params, mb_nodes_mpfr *s, double t)
{
    const struct nan_force *p = params;
    (void)t;
    if (++*p->calls >= p->nan_at && p->nan_at > 0)
        mpfr_set_nan(&s->f[1]);
    return MB_SUCCESS;
}

static void nan_force_free(void *params) { free(params); }

static const mb_force_type nan_force_type = {
    .name = "nan-at", .eval = nan_force_eval, .eval_mpfr = nan_force_eval_mpfr,
    .free = nan_force_free, .torque_free = 1,
};

/* the anchored particle with a dashpot to its anchor (a velocity-dependent force for the
 * implicit schemes) and the NaN force (nan_at <= 0: never) */
static mb_system *particle_turning_nan(long *calls, long nan_at)
{
    mb_system *sys = mb_system_alloc(1);
    mb_nodes_set_mass(sys->nodes, 0, 2.385);
    sys->nodes->x[0] = 0.413;
    sys->nodes->x[1] = -0.127;
    sys->nodes->v[0] = -1.27;
    sys->nodes->v[2] = 0.0731;
    void *sp = mb_springs_new();
    mb_spring s = { .i = 0, .anchored = 1, .anchor = { 0.1, 0.2, -0.3 }, .k = 7.31,
                    .rest = 0.2, .c = 0.11 };
    mb_springs_add(sp, &s);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_springs, sp), MB_SUCCESS);
    struct nan_force *p = malloc(sizeof *p);
    p->calls = calls;
    p->nan_at = nan_at;
    cr_assert_eq(mb_forces_add(sys->forces, &nan_force_type, p), MB_SUCCESS);
    return sys;
}

/* the state a failed step must leave alone, as bytes */
typedef struct state_bytes {
    double x[3], v[3], q[4], w[3], L[3], t;
    unsigned char vel_mid;
} state_bytes;

static state_bytes state_of(const mb_system *sys)
{
    state_bytes b;
    memset(&b, 0, sizeof b);
    memcpy(b.x, sys->nodes->x, sizeof b.x);
    memcpy(b.v, sys->nodes->v, sizeof b.v);
    memcpy(b.q, sys->nodes->q, sizeof b.q);
    memcpy(b.w, sys->nodes->omega, sizeof b.w);
    memcpy(b.L, sys->nodes->angmom, sizeof b.L);
    b.t = sys->t;
    b.vel_mid = sys->nodes->vel_mid[0];
    return b;
}

enum { NAN_STEPS = 3 };
static const double NAN_H = 0.0173;

/* Evaluations made by allocation and by NAN_STEPS good steps; -1 when the scheme cannot
 * take this system. */
static long evaluations_of(const mb_stepper_type *t, long *at_alloc)
{
    long calls = 0;
    mb_system *sys = particle_turning_nan(&calls, 0);
    mb_stepper *st = mb_stepper_alloc(t->name, sys);
    if (st == NULL) {
        mb_system_free(sys);
        return -1;
    }
    *at_alloc = calls;
    for (int k = 0; k < NAN_STEPS; k++)
        cr_expect_eq(mb_stepper_step(st, sys, NAN_H), MB_SUCCESS, "%s (control): %s", t->name,
                     mb_last_error());
    mb_stepper_free(st);
    mb_system_free(sys);
    return calls;
}

/* NaN at evaluation `at` (made by a step): the step that makes it fails, state untouched.
 * Returns 1 when the contract holds. */
static int nan_step_holds(const mb_stepper_type *t, long at)
{
    long calls = 0;
    mb_system *sys = particle_turning_nan(&calls, at);
    mb_stepper *st = mb_stepper_alloc(t->name, sys);
    cr_assert_not_null(st, "%s: %s", t->name, mb_last_error());
    int ok = 0;
    for (int k = 0; k < NAN_STEPS; k++) {
        state_bytes before = state_of(sys);
        int rc = mb_stepper_step(st, sys, NAN_H);
        if (calls < at) {
            cr_expect_eq(rc, MB_SUCCESS, "%s: step %d before the NaN: %s", t->name, k,
                         mb_last_error());
            continue;
        }
        state_bytes after = state_of(sys);
        int same = memcmp(&before, &after, sizeof before) == 0;
        cr_expect_neq(rc, MB_SUCCESS, "%s: NaN at evaluation %ld, step %d succeeded", t->name,
                      at, k);
        cr_expect(same, "%s: NaN at evaluation %ld failed step %d and changed the state "
                  "(x %.17g -> %.17g, v %.17g -> %.17g, t %g -> %g)", t->name, at, k,
                  before.x[0], after.x[0], before.v[0], after.v[0], before.t, after.t);
        ok = rc != MB_SUCCESS && same;
        break;
    }
    mb_stepper_free(st);
    mb_system_free(sys);
    return ok;
}

Test(step_contract, nan_force_fails_the_step_and_leaves_the_state)
{
    int schemes = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        long at_alloc = 0, total = evaluations_of(*t, &at_alloc);
        if (total < 0)
            continue;
        cr_expect(total > at_alloc, "%s: no force evaluation in %d steps", (*t)->name, NAN_STEPS);
        int held = 1;
        for (long at = at_alloc + 1; at <= total; at++)
            held &= nan_step_holds(*t, at);
        cr_log_info("%-24s evaluations %ld..%ld made NaN: %s", (*t)->name, at_alloc + 1, total,
                    held ? "held" : "BROKEN");
        schemes++;
    }
    cr_expect(schemes >= 16, "only %d schemes took the system", schemes);
}

/* ---- the same for the MPFR twins ---- */

/* 1 when the twin's state (x, v, q, w, L, vel_mid) equals the snapshot value for value,
 * signs of zeros included, and t is the snapshot's */
static int twin_state_same(const mb_nodes_mpfr *a, double ta, const mb_system_mpfr *tw)
{
    const mb_nodes_mpfr *b = tw->nodes;
    mpfr_srcptr pa[5] = { a->x, a->v, a->q, a->omega, a->angmom };
    mpfr_srcptr pb[5] = { b->x, b->v, b->q, b->omega, b->angmom };
    const size_t len[5] = { 3, 3, 4, 3, 3 };
    for (int k = 0; k < 5; k++)
        for (size_t c = 0; c < len[k]; c++)
            if (!mpfr_equal_p(&pa[k][c], &pb[k][c]) || mpfr_signbit(&pa[k][c]) != mpfr_signbit(&pb[k][c]))
                return 0;
    return ta == tw->t && a->vel_mid[0] == b->vel_mid[0];
}

/* evaluations_of for the twin at 64 bits; -1 when the scheme has no twin */
static long twin_evaluations_of(const mb_stepper_type *t, long *at_alloc)
{
    long calls = 0;
    mb_system *sys = particle_turning_nan(&calls, 0);
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 64);
    cr_assert_not_null(tw, "%s", mb_last_error());
    mb_stepper *st = t->alloc_mpfr ? mb_stepper_alloc_twin(t->name, tw) : NULL;
    long total = -1;
    if (st != NULL) {
        *at_alloc = calls;
        for (int k = 0; k < NAN_STEPS; k++)
            cr_expect_eq(mb_stepper_step_twin(st, tw, NAN_H), MB_SUCCESS, "%s twin (control): %s",
                         t->name, mb_last_error());
        total = calls;
    }
    mb_stepper_free(st);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
    return total;
}

static int twin_nan_step_holds(const mb_stepper_type *t, long at)
{
    long calls = 0;
    mb_system *sys = particle_turning_nan(&calls, at);
    mb_system_mpfr *tw = mb_system_mpfr_alloc_twin(sys, 64);
    mb_stepper *st = mb_stepper_alloc_twin(t->name, tw);
    mb_nodes_mpfr *before = mb_nodes_mpfr_alloc(1, 64);
    cr_assert(st != NULL && before != NULL, "%s: %s", t->name, mb_last_error());
    int ok = 0;
    for (int k = 0; k < NAN_STEPS; k++) {
        cr_assert_eq(mb_nodes_mpfr_copy(before, tw->nodes), MB_SUCCESS);
        double t0 = tw->t;
        int rc = mb_stepper_step_twin(st, tw, NAN_H);
        if (calls < at) {
            cr_expect_eq(rc, MB_SUCCESS, "%s twin: step %d before the NaN: %s", t->name, k,
                         mb_last_error());
            continue;
        }
        int same = twin_state_same(before, t0, tw);
        cr_expect_neq(rc, MB_SUCCESS, "%s twin: NaN at evaluation %ld, step %d succeeded",
                      t->name, at, k);
        cr_expect(same, "%s twin: NaN at evaluation %ld failed step %d and changed the state",
                  t->name, at, k);
        ok = rc != MB_SUCCESS && same;
        break;
    }
    mb_nodes_mpfr_free(before);
    mb_stepper_free(st);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
    return ok;
}

Test(step_contract, nan_force_fails_the_twin_step_and_leaves_its_state)
{
    int twins = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        long at_alloc = 0, total = twin_evaluations_of(*t, &at_alloc);
        if (total < 0)
            continue;
        int held = 1;
        for (long at = at_alloc + 1; at <= total; at++)
            held &= twin_nan_step_holds(*t, at);
        cr_log_info("%-24s twin: evaluations %ld..%ld made NaN: %s", (*t)->name, at_alloc + 1,
                    total, held ? "held" : "BROKEN");
        twins++;
    }
    cr_expect(twins >= 10, "only %d twins took the system", twins);
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
