/* registry.c -- the list of every scheme, expanded from steppers.def. */
#include "mb_stepper.h"

#include <stddef.h>

#define MB_STEPPER(id) extern const mb_stepper_type mb_stepper_##id;
#include "steppers.def"
#undef MB_STEPPER

static const mb_stepper_type *const registry[] = {
#define MB_STEPPER(id) &mb_stepper_##id,
#include "steppers.def"
#undef MB_STEPPER
    NULL
};

const mb_stepper_type *const *mb_steppers(void) { return registry; }
