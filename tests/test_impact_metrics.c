/* test_impact_metrics.c -- the oblique-impact metrics of sphere-wall with friction
 * (restitution.tangential_error, rebound.angle_error, rebound.spin_error,
 * contact.slip_time_error; oblique_observer.c) meet their bounds on Chung & Ooi's test 4 at
 * 10 degrees (cases/dem-impact/chung-ooi-4-oblique-10deg.case), and flag the fault they
 * target.  Negative control: friction at the centre (problem_run.h: the contact's torque
 * cancelled).  The sphere then leaves without spin (rebound.spin_error = -w'_ref r/V =
 * -0.13), its contact point keeps sliding faster, so it reaches the Coulomb limit earlier,
 * and the tangential force it feels differs: restitution.tangential_error -0.74,
 * rebound.angle_error -0.13, rebound.spin_error -0.13, against the bound w_c h / 2 =
 * 7.7e-3; the contact slides from first touch to the end, so the reference's stick ->
 * slip transition never comes and contact.slip_time_error is missing (a failed
 * expectation in a case).
 * contact.slip_time is measured from the positions alone: the observer of a system whose
 * contact law is never evaluated (an outside program's on-step trajectory replayed) fed
 * the leap-frog's states reports the same slip time, bit for bit, within the same bound
 * (an observer that read the law's sliding state, as the version before did, found no
 * transition there: the law of a replay never slides).  Negative control:
 * slip-time-first-difference in tests/mutants/catalogue (the first difference of the
 * positions, a velocity, in place of the second, a force). */
#include "problem_run.h"

static const char *const test4_10deg[] = {
    "model=hertz", "radius=0.0025", "density=4000", "young=3.8e11", "poisson=0.23", "zeta=0",
    "mu=0.092", "gap=1e-6", "speed=3.84074977127453", "tangential=0.677230295942311", NULL
};

#define H 3e-8
#define T_END 1.5e-5
#define TC 6.1232291e-6                     /* Hertz duration at 3.84 m/s */

static double bound_tangential(void) { return M_PI / TC * H / 2.0; }
static double bound_slip(void) { return (1.0 + M_PI / 2.0) * H / TC; }

static const char *const metrics[] = { "restitution.tangential_error", "rebound.angle_error",
                                       "rebound.spin_error" };

Test(impact_metrics, leapfrog_meets_the_bounds_of_test_4)
{
    mb_observation o;
    run_problem("sphere-wall", test4_10deg, "leapfrog", H, T_END, 0, &o);
    for (int k = 0; k < 3; k++) {
        double e = observed(&o, metrics[k]);
        cr_log_info("%s %.3g (bound %.3g)", metrics[k], e, bound_tangential());
        cr_expect(fabs(e) < bound_tangential(), "%s %g", metrics[k], e);
    }
    double es = observed(&o, "contact.slip_time_error");
    cr_expect(fabs(es) < bound_slip(), "contact.slip_time_error %g (bound %g)", es, bound_slip());
}

Test(impact_metrics, slip_time_of_a_replay_is_the_trajectory_s)
{
    mb_observation live, replay;
    run_problem("sphere-wall", test4_10deg, "leapfrog", H, T_END, 0, &live);
    run_problem_replayed("sphere-wall", test4_10deg, "leapfrog", H, T_END, &replay);
    double t = observed(&live, "contact.slip_time"), tr = observed(&replay, "contact.slip_time");
    double es = observed(&replay, "contact.slip_time_error");
    cr_log_info("slip time %.17g live, %.17g replayed (error %.3g, bound %.3g)", t, tr, es,
                bound_slip());
    cr_expect(isfinite(tr) && tr == t, "replayed slip time %g, live %g", tr, t);
    cr_expect(fabs(es) < bound_slip(), "replayed contact.slip_time_error %g (bound %g)", es,
              bound_slip());
}

Test(impact_metrics, control_friction_at_the_centre_fails_the_oblique_metrics)
{
    mb_observation o;
    run_problem("sphere-wall", test4_10deg, "leapfrog", H, T_END, 1, &o);
    for (int k = 0; k < 3; k++) {
        double e = observed(&o, metrics[k]);
        cr_log_info("at the centre: %s %.3g (bound %.3g)", metrics[k], e, bound_tangential());
        cr_expect(fabs(e) > 2.0 * bound_tangential(), "%s %g does not flag it", metrics[k], e);
    }
    double w = observed(&o, "rebound.spin");
    cr_expect(fabs(w) < 1e-9, "no torque, no spin: rebound.spin %g", w);
    double es = observed(&o, "contact.slip_time_error");
    cr_log_info("at the centre: contact.slip_time_error %.3g (bound %.3g)", es, bound_slip());
    /* the contact now slides from first touch to the end: the reference's stick -> slip
     * transition never comes, the metric is missing, which fails a case's expectation */
    cr_expect(isnan(es) || fabs(es) > 2.0 * bound_slip(),
              "contact.slip_time_error %g does not flag it", es);
}
