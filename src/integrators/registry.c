/* registry.c -- the list of every scheme: the built-in ones expanded from steppers.def,
 * then those registered at run time (mb_stepper_register, e.g. by plugins).
 *
 * One fixed array holds both, NULL-terminated.  Registration appends under a mutex and
 * publishes the new entry with a release store after the slot behind it is known to be
 * NULL, so a reader walking mb_steppers() concurrently sees either the old list or the
 * new one, never a torn entry.
 *
 * Copyright (C) 2026 the motionbench authors.
 * This file is part of motionbench, free software: you can redistribute it and/or modify
 * it under the terms of the GNU General Public License as published by the Free Software
 * Foundation, either version 3 of the License, or (at your option) any later version.
 * motionbench is distributed WITHOUT ANY WARRANTY; see COPYING. */
#include "mb_stepper.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

#define MB_STEPPER(id) extern const mb_stepper_type mb_stepper_##id;
#include "steppers.def"
#undef MB_STEPPER

enum {
#define MB_STEPPER(id) BUILTIN_##id,
#include "steppers.def"
#undef MB_STEPPER
    N_BUILTIN
};

static const mb_stepper_type *registry[N_BUILTIN + MB_STEPPER_REGISTER_MAX + 1] = {
#define MB_STEPPER(id) &mb_stepper_##id,
#include "steppers.def"
#undef MB_STEPPER
    NULL
};
static size_t n_registered = N_BUILTIN;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;

const mb_stepper_type *const *mb_steppers(void)
{
    return registry;
}

const mb_stepper_type *mb_stepper_find(const char *name)
{
    for (size_t k = 0;; k++) {
        const mb_stepper_type *t = __atomic_load_n(&registry[k], __ATOMIC_ACQUIRE);
        if (t == NULL)
            return NULL;
        if (strcmp(t->name, name) == 0)
            return t;
    }
}

/* Names appear in integrator specs "name[k=v]" and case keys "name.metric": letters,
 * digits and '-' only, starting with a letter. */
static int name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 63 || !(name[0] >= 'a' && name[0] <= 'z'))
        return 0;
    return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

static int rotation_orders_valid(const mb_stepper_type *t)
{
    if (t->flags & MB_STEPPER_ROTATION)
        return t->order_rotation >= 1;
    return t->order_rotation == 0;
}

static int mpfr_hooks_valid(const mb_stepper_type *t)
{
    int given = (t->alloc_mpfr != NULL) + (t->step_mpfr != NULL) + (t->free_mpfr != NULL);
    return given == 0 || given == 3;
}

static int type_check(const mb_stepper_type *t)
{
    if (t == NULL)
        MB_ERROR(MB_EINVAL, "mb_stepper_register: the type is NULL");
    if (t->name == NULL)
        MB_ERROR(MB_EINVAL, "mb_stepper_register: the type has no name");
    const char *n = t->name;
    if (!name_valid(n))
        MB_ERROR(MB_EINVAL, "mb_stepper_register: '%.80s' is not a valid integrator name "
                 "(a lower-case letter, then lower-case letters, digits or '-', at most 63)", n);
    if (t->summary == NULL)
        MB_ERROR(MB_EINVAL, "integrator '%s': no summary line", n);
    if (t->alloc == NULL || t->step == NULL || t->free == NULL)
        MB_ERROR(MB_EINVAL, "integrator '%s': alloc, step and free are required; missing:%s%s%s",
                 n, t->alloc ? "" : " alloc", t->step ? "" : " step", t->free ? "" : " free");
    if (t->order < 1)
        MB_ERROR(MB_EINVAL, "integrator '%s': nominal order %d must be >= 1", n, t->order);
    if (!rotation_orders_valid(t))
        MB_ERROR(MB_EINVAL, "integrator '%s': order_rotation %d does not match the flags "
                 "(>= 1 with MB_STEPPER_ROTATION, 0 without)", n, t->order_rotation);
    if ((t->flags & MB_STEPPER_HALFSTEP) && t->synchronize == NULL)
        MB_ERROR(MB_EINVAL, "integrator '%s': MB_STEPPER_HALFSTEP needs synchronize", n);
    if (!mpfr_hooks_valid(t))
        MB_ERROR(MB_EINVAL, "integrator '%s': alloc_mpfr, step_mpfr and free_mpfr go together", n);
    return MB_SUCCESS;
}

int mb_stepper_register(const mb_stepper_type *type)
{
    int st = type_check(type);
    if (st != MB_SUCCESS)
        return st;
    pthread_mutex_lock(&register_lock);
    if (mb_stepper_find(type->name) != NULL)
        st = mb_error_record(MB_EEXIST, __FILE__, __LINE__, "integrator '%s' is already "
                             "registered", type->name);
    else if (n_registered == N_BUILTIN + MB_STEPPER_REGISTER_MAX)
        st = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "integrator '%s': the registry "
                             "is full (%d run-time types)", type->name, MB_STEPPER_REGISTER_MAX);
    else
        __atomic_store_n(&registry[n_registered++], type, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&register_lock);
    return st;
}
