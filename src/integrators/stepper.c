/* stepper.c -- dispatch over scheme type tables: parsing specs, alloc, step, free. */
#include "mb_init.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unknown_scheme(const char *name)
{
    const char *names[128];
    size_t n = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t && n < 127; t++)
        names[n++] = (*t)->name;
    names[n] = NULL;
    const char *hint = mb_suggest(name, names);
    if (hint)
        MB_ERROR(MB_ENOTFOUND, "unknown integrator '%s' (did you mean '%s'?)", name, hint);
    MB_ERROR(MB_ENOTFOUND, "unknown integrator '%s' (see: motionbench list integrators)", name);
}

int mb_stepper_parse(const char *spec, const mb_stepper_type **type, mb_options **opts)
{
    char *name;
    int st = mb_spec_split(spec, &name, opts);
    if (st != MB_SUCCESS)
        return st;
    *type = mb_stepper_find(name);
    if (*type == NULL) {
        st = unknown_scheme(name);
    } else {
        char what[160];
        snprintf(what, sizeof what, "integrator '%s'", name);
        st = mb_options_validate(*opts, (*type)->options, what);
    }
    free(name);
    if (st != MB_SUCCESS) {
        mb_options_free(*opts);
        *opts = NULL;
    }
    return st;
}

static mb_stepper *stepper_new(const char *spec)
{
    mb_stepper *st = calloc(1, sizeof *st);
    if (st == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "out of memory");
    if (mb_stepper_parse(spec, &st->type, &st->opts) != MB_SUCCESS) {
        free(st);
        return NULL;
    }
    return st;
}

/* A system in a deforming cell needs a scheme that knows the cell: any other would
 * silently integrate in fixed space. */
static int stepper_cell_check(const mb_stepper *st, const mb_cell *cell)
{
    if (cell != NULL && !(st->type->flags & MB_STEPPER_CELL))
        MB_ERROR(MB_EUNSUP, "integrator '%s' does not integrate in a deforming cell "
                 "(the problem has one): use leapfrog", st->type->name);
    return MB_SUCCESS;
}

/* A scheme that integrates translation only must not be handed a system whose nodes
 * spin or are driven to spin: it would leave the orientation frozen and every rotation
 * metric would measure that, not the scheme.  Rotation shows as a model that writes
 * torques later (frictional contacts), a non-zero initial
 * angular velocity or momentum, or a non-zero torque at the current time. */
static int any_nonzero(const double *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (a[k] != 0.0)
            return 1;
    return 0;
}

static int system_rotates(const mb_system *sys)
{
    const mb_nodes *s = sys->nodes;
    if (mb_forces_torque_later(sys->forces))
        return 1;
    if (any_nonzero(s->omega, 3 * s->n) || any_nonzero(s->angmom, 3 * s->n))
        return 1;
    mb_nodes *probe = mb_nodes_alloc(s->n, 53);
    int rotates = 0;
    if (probe && mb_nodes_copy(probe, s) == MB_SUCCESS
        && mb_forces_eval(sys->forces, probe, sys->t) == MB_SUCCESS)
        rotates = any_nonzero(probe->torque, 3 * s->n);
    mb_nodes_free(probe);
    return rotates;
}

static int twin_rotates(const mb_system_mpfr *tw)
{
    const mb_nodes_mpfr *s = tw->nodes;
    if (mb_forces_torque_later(tw->forces))
        return 1;
    for (size_t k = 0; k < 3 * s->n; k++)
        if (!mpfr_zero_p(&s->omega[k]) || !mpfr_zero_p(&s->angmom[k]))
            return 1;
    return 0;
}

static int stepper_rotation_check(const mb_stepper *st, int rotates)
{
    if (rotates && !(st->type->flags & MB_STEPPER_ROTATION))
        MB_ERROR(MB_EUNSUP, "integrator '%s' integrates translation only, but the system "
                 "rotates (initial spin or torque, or a contact law that writes torques): use a "
                 "rotation scheme such as leapfrog",
                 st->type->name);
    return MB_SUCCESS;
}

mb_stepper *mb_stepper_alloc(const char *spec, const mb_system *sys)
{
    mb_init();
    mb_stepper *st = stepper_new(spec);
    if (st && (stepper_cell_check(st, sys->cell) != MB_SUCCESS
               || stepper_rotation_check(st, system_rotates(sys)) != MB_SUCCESS)) {
        mb_stepper_free(st);
        return NULL;
    }
    if (st && st->type->alloc(&st->state, st->opts, sys) != MB_SUCCESS) {
        mb_stepper_free(st);
        return NULL;
    }
    return st;
}

mb_stepper *mb_stepper_alloc_twin(const char *spec, const mb_system_mpfr *tw)
{
    mb_init();
    mb_stepper *st = stepper_new(spec);
    if (st == NULL)
        return NULL;
    st->is_twin = 1;
    if (stepper_cell_check(st, tw->cell) != MB_SUCCESS
        || stepper_rotation_check(st, twin_rotates(tw)) != MB_SUCCESS) {
        mb_stepper_free(st);
        return NULL;
    }
    if (st->type->alloc_mpfr == NULL) {
        mb_error_record(MB_EUNSUP, __FILE__, __LINE__,
                        "integrator '%s' has no MPFR twin", st->type->name);
        mb_stepper_free(st);
        return NULL;
    }
    if (st->type->alloc_mpfr(&st->state, st->opts, tw) != MB_SUCCESS) {
        mb_stepper_free(st);
        return NULL;
    }
    return st;
}

/* Every scheme advances by a finite h > 0; anything else is refused before the scheme
 * runs, so the state stays untouched (a negative h would silently integrate backwards,
 * h = 0 or a NaN would reach the schemes' step-size arithmetic). */
static int step_size_check(const mb_stepper *st, double h)
{
    if (!(h > 0.0) || !isfinite(h))
        MB_ERROR(MB_EDOM, "%s: time step h = %g must be finite and > 0", st->type->name, h);
    return MB_SUCCESS;
}

/* Every call changes the state generation (mb_stepper.h): a scheme that does not bump it
 * itself is bumped here, so a scheme's cache never outlives a step by another scheme. */
int mb_stepper_step(mb_stepper *st, mb_system *sys, double h)
{
    int s = step_size_check(st, h);
    if (s != MB_SUCCESS)
        return s;
    unsigned long generation = sys->nodes->generation;
    s = st->type->step(st->state, sys, h);
    if (sys->nodes->generation == generation)
        mb_nodes_touch(sys->nodes);
    return s;
}

int mb_stepper_step_twin(mb_stepper *st, mb_system_mpfr *tw, double h)
{
    int s = step_size_check(st, h);
    if (s != MB_SUCCESS)
        return s;
    unsigned long generation = tw->nodes->generation;
    s = st->type->step_mpfr(st->state, tw, h);
    if (tw->nodes->generation == generation)
        mb_nodes_mpfr_touch(tw->nodes);
    return s;
}

int mb_stepper_on_step(mb_stepper *st, const mb_system *sys, mb_nodes *on_step)
{
    int s = mb_nodes_copy(on_step, sys->nodes);
    if (s == MB_SUCCESS && st->type->synchronize)
        s = st->type->synchronize(st->state, sys, on_step);
    return s;
}

int mb_stepper_on_step_twin(mb_stepper *st, const mb_system_mpfr *tw, mb_nodes_mpfr *on_step)
{
    int s = mb_nodes_mpfr_copy(on_step, tw->nodes);
    if (s == MB_SUCCESS && st->type->synchronize_mpfr)
        s = st->type->synchronize_mpfr(st->state, tw, on_step);
    return s;
}

void mb_stepper_get_stats(const mb_stepper *st, mb_stepper_stats *out)
{
    memset(out, 0, sizeof *out);
    if (st->type->stats && !st->is_twin)        /* the hook reads the double state only */
        st->type->stats(st->state, out);
}

void mb_stepper_free(mb_stepper *st)
{
    if (st == NULL)
        return;
    if (st->state) {
        if (st->is_twin && st->type->free_mpfr)
            st->type->free_mpfr(st->state);
        else if (!st->is_twin && st->type->free)
            st->type->free(st->state);
    }
    mb_options_free(st->opts);
    free(st);
}
