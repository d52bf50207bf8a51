/* sphere_wall.c -- a sphere hitting the rigid plane z = 0 (normal +z) at normal speed v,
 * no gravity, with the linear spring-dashpot or Hertz contact (mb_contact.h); m* = m,
 * R* = r, E* = E / (1 - nu^2).  Frictionless (mu = 0), an optional tangential speed
 * along x and spin about y do not interact; with mu > 0 the contact is the frictional law
 * of the normal law (Cundall-Strack with k_t = kt_ratio kn, or Hertz-Mindlin with
 * kt_ratio = 4 G* / E*), an oblique impact as in Chung & Ooi's tests 4-6.
 * Observed: restitution, contact duration and their closed forms (mb_closed_contact.h),
 * as for sphere-collision; with friction also the tangential restitution, rebound angle,
 * rebound spin and first stick <-> slip time against the event-located reference
 * (oblique_observer.c, mb_impact_reference.h).
 * exact(): z = r - d(t - gap/v) with the closed-form overlap of the linear or undamped
 * Hertz law, x = v_t t; the damped Hertz law and the frictional laws have none
 * (MB_EUNSUP). */
#include "mb_closed_contact.h"
#include "mb_contact_problem.h"
#include "mb_impact_reference.h"
#include "mb_status.h"

#include <gsl/gsl_math.h>
#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "radius", MB_OPT_DOUBLE, "0.01", 1e-9, 1e3, NULL, "sphere radius (m)" },
    { "density", MB_OPT_DOUBLE, "2500", 1e-6, 1e6, NULL, "sphere density (kg/m^3)" },
    { "speed", MB_OPT_DOUBLE, "1", 1e-9, 1e4, NULL, "normal impact speed v (m/s)" },
    { "tangential", MB_OPT_DOUBLE, "0", -1e4, 1e4, NULL, "tangential speed along x (m/s)" },
    { "gap", MB_OPT_DOUBLE, "1e-3", 1e-12, 1e3, NULL, "initial gap to the plane (m)" },
    MB_CONTACT_LAW_SPECS("0.1"),
    MB_CONTACT_FRICTION_SPECS,
    MB_OPTION_END
};

static double mass_of(const mb_options *p)
{
    double r = mb_options_double(p, "radius");
    return mb_options_double(p, "density") * 4.0 / 3.0 * M_PI * r * r * r;
}

static int setup(const mb_options *p, mb_system **out)
{
    double r = mb_options_double(p, "radius"), m = mass_of(p);
    mb_contact_law law;
    int st = mb_contact_law_read(p, 1, m, &law);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    const double x[3] = { 0, 0, r + mb_options_double(p, "gap") };
    const double v[3] = { mb_options_double(p, "tangential"), 0, -mb_options_double(p, "speed") };
    const double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    mb_contact_place_sphere(sys, 0, m, r, x, v);
    sys->nodes->omega[1] = mb_options_double(p, "spin");
    sys->nodes->angmom[1] = 0.4 * m * r * r * sys->nodes->omega[1];
    if ((st = mb_contact_place_pair(p, sys, 1, 0, 0, o, n)) != MB_SUCCESS)
        return st;
    *out = sys;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m = mass_of(p), r = mb_options_double(p, "radius"), v = mb_options_double(p, "speed");
    double vt = mb_options_double(p, "tangential"), d, rate;
    mb_contact_law law;
    int st = mb_contact_law_read(p, 1, m, &law);
    if (st != MB_SUCCESS)
        return st;
    if (law.hertz && law.zeta != 0.0)
        MB_ERROR(MB_EUNSUP, "sphere-wall: the damped Hertz law has no closed-form trajectory; "
                            "use reference = ode or mpfr");
    if (mb_options_double(p, "mu") > 0.0)
        MB_ERROR(MB_EUNSUP, "sphere-wall: the frictional impact has no closed-form trajectory; "
                            "its post-impact metrics are judged against the event-located "
                            "reference");
    double tau = t - mb_options_double(p, "gap") / v;
    st = law.hertz ? mb_closed_hertz_overlap(m, r, law.estar, v, tau, &d, &rate)
                   : mb_closed_linear_overlap(law.kn, m, law.zeta, law.clamp, v, tau, &d, &rate);
    if (st != MB_SUCCESS)
        return st;
    for (int k = 0; k < 3; k++)
        out->x[k] = out->v[k] = 0.0;
    out->x[0] = vt * t;
    out->v[0] = vt;
    out->x[2] = r - d;
    out->v[2] = -rate;
    return MB_SUCCESS;
}

/* The event-located reference's parameters and initial state for a frictional law. */
static int oblique_reference(const mb_options *p, const mb_contact_law *law, mb_impact_params *ip,
                             mb_impact_state *s0)
{
    double m = mass_of(p), r = mb_options_double(p, "radius");
    int st = mb_contact_impact_params(law, 1, m, r, 0.0, 0.0, ip);
    if (st != MB_SUCCESS)
        return st;
    *s0 = (mb_impact_state){ .t = 0.0 };
    s0->x[0][1] = r + mb_options_double(p, "gap");
    s0->v[0][0] = mb_options_double(p, "tangential");
    s0->v[0][1] = -mb_options_double(p, "speed");
    s0->w[0] = mb_options_double(p, "spin");
    return MB_SUCCESS;
}

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    double m = mass_of(p), v = mb_options_double(p, "speed"), e, tc;
    mb_contact_law law;
    *ctx = NULL;
    int st = mb_contact_law_read(p, 1, m, &law);
    if (st != MB_SUCCESS)
        return st;
    mb_contact_friction_read(p, &law);
    mb_contact_law_closed(&law, m, mb_options_double(p, "radius"), v, &e, &tc);
    mb_impact_observer *o = calloc(1, sizeof *o);
    if (o == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the sphere-wall observer");
    o->oblique = law.mu > 0.0;
    if (!o->oblique) {
        st = mb_collision_observe_begin(&o->inner, sys, e, tc);
    } else {
        mb_impact_params ip;
        mb_impact_state s0;
        /* the reference runs past the contact: the flight to it, then 4 contact durations */
        double t_after = mb_options_double(p, "gap") / v + 4.0 * tc;
        const double e_t[2] = { 1.0, 0.0 };        /* +x */
        st = oblique_reference(p, &law, &ip, &s0);
        if (st == MB_SUCCESS)
            st = mb_oblique_observe_begin(&o->inner, sys, &ip, &s0, e_t, t_after);
    }
    if (st != MB_SUCCESS) {
        free(o);
        return st;
    }
    *ctx = o;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_sphere_wall = {
    .name = "sphere-wall",
    .summary = "a sphere hitting a rigid plane (linear spring-dashpot or Hertz contact)",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "z = r - d(t - gap/v): free flight, the linear or undamped Hertz contact "
                 "phase in closed form, free flight at e v; x = v_t t",
    .observe_begin = observe_begin,
    .observe_step = mb_impact_observe_step,
    .observe_end = mb_impact_observe_end,
};
