/* test_nominal_orders.c -- the nominal rotation order every registered rotation scheme
 * advertises (mb_stepper_type.order_rotation, shown by `list integrators`) against the
 * order measured on the symmetric top, whose orientation has a closed form (Landau &
 * Lifshitz, Mechanics, section 33; src/reference/closed_symtop.c).
 *
 * The orientation error angle at T = 4.1 is fitted against h = T/200 ... T/1600 by
 * least squares (gsl_fit_linear).  An order-p scheme has error C h^p + O(h^(p+1)); over
 * a factor 8 of h the next term shifts the fitted slope by a few hundredths (measured
 * fits: leapfrog 1.085, solfec 1.998, verlet-nosquish 1.999), so
 * a nominal order is confirmed when the fit is within 0.15 of it and refuted otherwise:
 * a one-order mistake moves the slope by 1.  Negative controls are excluded: their
 * orders are what they break. */
#include "lf_run.h"
#include "mb_stepper.h"

#include <criterion/criterion.h>

#define NH 4

static double orientation_error(const char *scheme, double T, long n)
{
    lf_run *r = lf_run_new("symmetric-top", scheme);
    lf_run_steps(r, n, T / (double)n);
    const mb_nodes *on = lf_run_sync(r);
    const mb_nodes *ex = lf_run_exact(r, r->sys->t);
    double e = mb_q_angle_between(on->q, ex->q);
    lf_run_free(r);
    return e;
}

static double measured_rotation_order(const char *scheme)
{
    const double T = 4.1;
    double hs[NH], eq[NH];
    for (int j = 0; j < NH; j++) {
        long n = 200L << j;
        hs[j] = T / (double)n;
        eq[j] = orientation_error(scheme, T, n);
    }
    return lf_order(hs, eq, NH);
}

Test(nominal_orders, rotation_schemes_match_measurement)
{
    int checked = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        const mb_stepper_type *s = *t;
        if (!(s->flags & MB_STEPPER_ROTATION) || (s->flags & MB_STEPPER_NEGATIVE))
            continue;
        double p = measured_rotation_order(s->name);
        cr_log_info("%-20s nominal rotation order %d, measured %.3f", s->name,
                    s->order_rotation, p);
        cr_expect(fabs(p - s->order_rotation) < 0.15,
                  "%s: nominal rotation order %d, measured %.3f", s->name, s->order_rotation, p);
        checked++;
    }
    cr_expect(checked >= 3, "only %d rotation schemes checked", checked);
}

/* Schemes without rotation advertise 0, and every scheme advertises a translation order. */
Test(nominal_orders, fields_are_consistent)
{
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        const mb_stepper_type *s = *t;
        cr_expect(s->order >= 1, "%s: translation order %d", s->name, s->order);
        if (s->flags & MB_STEPPER_ROTATION)
            cr_expect(s->order_rotation >= 1, "%s: rotation order %d", s->name, s->order_rotation);
        else
            cr_expect(s->order_rotation == 0, "%s: rotation order %d without rotation", s->name,
                      s->order_rotation);
    }
}
