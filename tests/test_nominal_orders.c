/* test_nominal_orders.c -- the nominal orders of every registered scheme against
 * measurement: the translation order of every scheme on the Kepler orbit (below), and the
 * nominal rotation order every registered rotation scheme
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
#include "mb_metrics.h"
#include "mb_stepper.h"

#include <criterion/criterion.h>

#define NH 4
#define NT 5

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

/* ---- translation: every registered scheme ---- */

/* Position error max |x - x_exact| at t = T of the Kepler orbit (eccentricity 0.5, closed
 * form by Kepler's equation, src/reference/closed_kepler.c) after n steps of h = T / n */
static double kepler_error(const char *scheme, double T, long n)
{
    lf_run *r = lf_run_new("kepler[eccentricity=0.5]", scheme);
    lf_run_steps(r, n, T / (double)n);
    const mb_nodes *on = lf_run_sync(r);
    const mb_nodes *ex = lf_run_exact(r, r->sys->t);
    double e = mb_error_position(on, ex);
    lf_run_free(r);
    return e;
}

/* The translation order every registered scheme declares (mb_stepper_type.order),
 * negative controls included (each declares the order it has), against the order fitted
 * on the Kepler orbit: NT step sizes h = T / (n0 2^j), n0 from the declared order so that
 * the errors lie between the pre-asymptotic range and the round-off floor (points under
 * mb_roundoff_floor are left out by mb_order_fit_compute; at least 3 must remain).
 * Tolerance: |fitted - declared| <= 0.15 + 3 sigma, sigma the standard error of the
 * least-squares slope.  The next term of the error, C' h^(p+1), bends log e against
 * log h: the bend shows as residuals about the line, hence in sigma, and as a bias of
 * the slope common to the points, a few hundredths at these h (measured fits: rk4
 * 4.085 +- 0.017, gsl-rk8pd 8.18 +- 0.05, the second-order schemes 2.000), allowed
 * 0.15 as for the rotation orders above.  A scheme declaring one order too many or too
 * few is off by 1. */
Test(nominal_orders, translation_orders_match_measurement)
{
    const double T = 2.3;
    int checked = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        const mb_stepper_type *s = *t;
        double dt[NT], err[NT];
        int valid[NT];
        long n0 = s->order == 1 ? 2000 : s->order == 2 ? 200 : s->order <= 4 ? 40 : 10;
        for (int j = 0; j < NT; j++) {
            long n = n0 << j;
            dt[j] = T / (double)n;
            err[j] = kepler_error(s->name, T, n);
            valid[j] = isfinite(err[j]);
        }
        mb_order_fit fit;
        double floor = mb_roundoff_floor(1.0, (long)(T / dt[0]), 6);
        cr_assert_eq(mb_order_fit_compute(NT, dt, err, valid, floor, &fit), MB_SUCCESS);
        cr_log_info("%-24s declared %d, measured %.3f +- %.3f (%zu points)", s->name, s->order,
                    fit.order, fit.stderr_, fit.points);
        cr_expect(fit.points >= 3, "%s: %zu usable points (errors %g .. %g)", s->name,
                  fit.points, err[0], err[NT - 1]);
        cr_expect(fabs(fit.order - s->order) <= 0.15 + 3 * fit.stderr_,
                  "%s: declared translation order %d, measured %.3f +- %.3f", s->name,
                  s->order, fit.order, fit.stderr_);
        checked++;
    }
    cr_expect(checked >= 16, "only %d schemes checked", checked);
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
