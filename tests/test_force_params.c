/* test_force_params.c -- the field force constructors refuse bad parameters.
 *
 * Gravity needs a finite g, drag a finite D >= 0 (D < 0 would feed energy in), the
 * central force a finite mu > 0.  A refused constructor returns NULL with an MB_EDOM
 * message naming the parameter, and mb_forces_add given that NULL must pass the
 * constructor's status and message on (not replace them by an out-of-memory report).
 * Controls: good values are accepted (g = 0 and D = 0 included). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_force_central.h"
#include "mb_forces.h"
#include "mb_status.h"

static void expect_refused(void *params, const char *name)
{
    cr_expect_null(params);
    cr_expect_eq(mb_last_error_code(), MB_EDOM, "%s: code %d", name, mb_last_error_code());
    cr_expect(strstr(mb_last_error(), name) != NULL, "message '%s' does not name %s",
              mb_last_error(), name);
}

Test(force_params, gravity_needs_finite_g)
{
    const double bad[][3] = { { 0.0, NAN, -9.81 }, { INFINITY, 0.0, 0.0 }, { 0.0, 0.0, -INFINITY } };
    for (size_t k = 0; k < 3; k++)
        expect_refused(mb_gravity_new(bad[k]), "g");
    const double good[][3] = { { 0.0, 0.0, -9.81 }, { 0.0, 0.0, 0.0 } };
    for (size_t k = 0; k < 2; k++) {
        void *p = mb_gravity_new(good[k]);
        cr_expect_not_null(p);
        free(p);
    }
}

Test(force_params, drag_needs_finite_nonnegative_D)
{
    const double bad[] = { -0.0731, NAN, INFINITY, -INFINITY };
    for (size_t k = 0; k < 4; k++)
        expect_refused(mb_drag_new(bad[k]), "D");
    const double good[] = { 0.0, 0.0731 };
    for (size_t k = 0; k < 2; k++) {
        void *p = mb_drag_new(good[k]);
        cr_expect_not_null(p);
        free(p);
    }
}

/* mb_forces_add(F, type, constructor(...)) keeps the constructor's status and message. */
Test(force_params, add_passes_constructor_error_on)
{
    mb_forces *F = mb_forces_alloc();
    cr_expect_eq(mb_forces_add(F, mb_force_drag, mb_drag_new(-0.0731)), MB_EDOM, "%s",
                 mb_last_error());
    cr_expect(strstr(mb_last_error(), "D") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_forces_add(F, mb_force_central, mb_central_new(-3.986)), MB_EDOM, "%s",
                 mb_last_error());
    cr_expect(strstr(mb_last_error(), "mu") != NULL, "%s", mb_last_error());
    cr_expect_eq(F->count, 0);
    const double g[3] = { 0.0, 0.0, -9.81 };
    cr_expect_eq(mb_forces_add(F, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    cr_expect_eq(F->count, 1);
    mb_forces_free(F);
}
