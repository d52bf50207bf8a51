/* sphere_collision.c -- two spheres colliding head-on along x, no gravity, with the linear
 * spring-dashpot or the Hertz normal contact (mb_contact.h).  The centre of mass rests at
 * the origin; sphere 1 moves at +v m2/M, sphere 2 at -v m1/M (relative approach speed v).
 * Observed: restitution, contact duration and their closed forms (mb_closed_contact.h):
 * linear e = exp(-zeta pi / sqrt(1 - zeta^2)), t_c = pi / (w0 sqrt(1 - zeta^2)) for the
 * textbook law, the Schwager-Poeschel forms for the clamped law, and for undamped Hertz
 * t_c = 2.868 (m*^2 / (R* E*^2 v))^{1/5}.
 * exact(): the closed-form trajectory (mb_closed_linear_overlap / mb_closed_hertz_overlap)
 * for the linear law and the undamped Hertz law; the damped Hertz law has none (MB_EUNSUP:
 * use reference = ode or mpfr).  Positions follow from the separation s = r1 + r2 - d with
 * the centre of mass at rest: x1 = -s m2/M, x2 = s m1/M.  Parameters for which the largest
 * overlap reaches r1 + r2 (the spheres would pass through each other) are refused.
 * Oblique impacts (Chung & Ooi's tests 7-8): a relative tangential speed along z
 * (sphere 1 at +v_t m2/M, sphere 2 at -v_t m1/M) and spins about y do not interact
 * without friction; with mu > 0 the contact is the frictional law of the normal law
 * (Cundall-Strack, Hertz-Mindlin) and the observer adds the tangential restitution, rebound
 * angle, rebound spin of sphere 1 and first stick <-> slip time against the event-located
 * reference (oblique_observer.c); exact() then has no closed form (MB_EUNSUP). */
#include "mb_closed_contact.h"
#include "mb_contact_problem.h"
#include "mb_status.h"

#include "mb_impact_reference.h"

#include <gsl/gsl_math.h>
#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "radius1", MB_OPT_DOUBLE, "0.01", 1e-9, 1e3, NULL, "radius of sphere 1 (m)" },
    { "radius2", MB_OPT_DOUBLE, "0.01", 1e-9, 1e3, NULL, "radius of sphere 2 (m)" },
    { "density", MB_OPT_DOUBLE, "2500", 1e-6, 1e6, NULL, "density of both spheres (kg/m^3)" },
    { "speed", MB_OPT_DOUBLE, "1", 1e-9, 1e4, NULL, "relative approach speed v (m/s)" },
    { "gap", MB_OPT_DOUBLE, "1e-3", 1e-12, 1e3, NULL, "initial gap between the surfaces (m)" },
    { "tangential", MB_OPT_DOUBLE, "0", -1e4, 1e4, NULL,
      "relative tangential speed of sphere 1 along z (m/s)" },
    { "spin2", MB_OPT_DOUBLE, "0", -1e9, 1e9, NULL, "initial spin of sphere 2 about +y (rad/s)" },
    MB_CONTACT_LAW_SPECS("0.1"),
    MB_CONTACT_FRICTION_SPECS,
    MB_OPTION_END
};

struct geom { double r1, r2, m1, m2, meff, reff, v, gap; };

static struct geom geometry(const mb_options *p)
{
    struct geom g;
    double rho = mb_options_double(p, "density");
    g.r1 = mb_options_double(p, "radius1");
    g.r2 = mb_options_double(p, "radius2");
    g.m1 = rho * 4.0 / 3.0 * M_PI * g.r1 * g.r1 * g.r1;
    g.m2 = rho * 4.0 / 3.0 * M_PI * g.r2 * g.r2 * g.r2;
    g.meff = g.m1 * g.m2 / (g.m1 + g.m2);
    g.reff = g.r1 * g.r2 / (g.r1 + g.r2);
    g.v = mb_options_double(p, "speed");
    g.gap = mb_options_double(p, "gap");
    return g;
}

/* The head-on geometry holds while the overlap stays below r1 + r2 (the centres do not
 * meet).  Largest overlap: linear (v/w0) exp(-beta t_m), w t_m = atan2(w, beta) (where
 * d' = 0; the clamp acts only later); Hertz the undamped (15 m* v^2/(16 E* sqrt R*))^(2/5),
 * an upper bound for the damped law. */
static int collision_law(const mb_options *p, const struct geom *g, mb_contact_law *law)
{
    int st = mb_contact_law_read(p, 0, g->meff, law);
    if (st != MB_SUCCESS)
        return st;
    double dmax;
    if (law->hertz) {
        dmax = mb_closed_hertz_max_overlap(g->meff, g->reff, law->estar, g->v);
    } else {
        double w0 = sqrt(law->kn / g->meff), beta = law->zeta * w0;
        double w = w0 * sqrt((1.0 - law->zeta) * (1.0 + law->zeta));
        dmax = g->v / w0 * exp(-beta * atan2(w, beta) / w);
    }
    if (!(dmax < g->r1 + g->r2))
        MB_ERROR(MB_EDOM, "problem 'sphere-collision': the spheres would pass through each other "
                          "(largest overlap %g >= r1 + r2 = %g); stiffen the contact (%s) or lower "
                          "'speed'", dmax, g->r1 + g->r2, law->hertz ? "'young'" : "'kn'");
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    struct geom g = geometry(p);
    mb_contact_law law;
    int st = collision_law(p, &g, &law);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(2);
    if (sys == NULL)
        return MB_ENOMEM;
    double M = g.m1 + g.m2, L = g.r1 + g.r2 + g.gap, vt = mb_options_double(p, "tangential");
    const double x1[3] = { -L * g.m2 / M, 0, 0 }, v1[3] = { g.v * g.m2 / M, 0, vt * g.m2 / M };
    const double x2[3] = { L * g.m1 / M, 0, 0 }, v2[3] = { -g.v * g.m1 / M, 0, -vt * g.m1 / M };
    mb_contact_place_sphere(sys, 0, g.m1, g.r1, x1, v1);
    mb_contact_place_sphere(sys, 1, g.m2, g.r2, x2, v2);
    const double spin[2] = { mb_options_double(p, "spin"), mb_options_double(p, "spin2") };
    const double mass[2] = { g.m1, g.m2 }, radius[2] = { g.r1, g.r2 };
    for (int b = 0; b < 2; b++) {
        sys->nodes->omega[3 * b + 1] = spin[b];
        sys->nodes->angmom[3 * b + 1] = 0.4 * mass[b] * radius[b] * radius[b] * spin[b];
    }
    if ((st = mb_contact_place_pair(p, sys, 0, 0, 1, NULL, NULL)) != MB_SUCCESS)
        return st;
    *out = sys;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    struct geom g = geometry(p);
    mb_contact_law law;
    double d, rate, tau = t - g.gap / g.v;
    int st = collision_law(p, &g, &law);
    if (st != MB_SUCCESS)
        return st;
    if (law.hertz && law.zeta != 0.0)
        MB_ERROR(MB_EUNSUP, "sphere-collision: the damped Hertz law has no closed-form "
                            "trajectory; use reference = ode or mpfr");
    if (mb_options_double(p, "mu") > 0.0 || mb_options_double(p, "tangential") != 0.0)
        MB_ERROR(MB_EUNSUP, "sphere-collision: the oblique impact has no closed-form "
                            "trajectory; its post-impact metrics are judged against the "
                            "event-located reference");
    st = law.hertz ? mb_closed_hertz_overlap(g.meff, g.reff, law.estar, g.v, tau, &d, &rate)
                   : mb_closed_linear_overlap(law.kn, g.meff, law.zeta, law.clamp, g.v, tau, &d,
                                              &rate);
    if (st != MB_SUCCESS)
        return st;
    double M = g.m1 + g.m2, sep = (g.r1 + g.r2) - d;
    for (int k = 0; k < 6; k++)
        out->x[k] = out->v[k] = 0.0;
    out->x[0] = -sep * g.m2 / M;
    out->x[3] = sep * g.m1 / M;
    out->v[0] = rate * g.m2 / M;       /* s' = -d' */
    out->v[3] = -rate * g.m1 / M;
    return MB_SUCCESS;
}

/* The event-located reference's parameters and initial state (x-z plane). */
static int oblique_reference(const mb_options *p, const struct geom *g, const mb_contact_law *law,
                             mb_impact_params *ip, mb_impact_state *s0)
{
    int st = mb_contact_impact_params(law, 0, g->m1, g->r1, g->m2, g->r2, ip);
    if (st != MB_SUCCESS)
        return st;
    double M = g->m1 + g->m2, L = g->r1 + g->r2 + g->gap, vt = mb_options_double(p, "tangential");
    *s0 = (mb_impact_state){ .t = 0.0 };
    s0->x[0][0] = -L * g->m2 / M;
    s0->x[1][0] = L * g->m1 / M;
    s0->v[0][0] = g->v * g->m2 / M;
    s0->v[1][0] = -g->v * g->m1 / M;
    s0->v[0][1] = vt * g->m2 / M;
    s0->v[1][1] = -vt * g->m1 / M;
    s0->w[0] = mb_options_double(p, "spin");
    s0->w[1] = mb_options_double(p, "spin2");
    return MB_SUCCESS;
}

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    struct geom g = geometry(p);
    mb_contact_law law;
    double e, tc;
    *ctx = NULL;
    int st = collision_law(p, &g, &law);
    if (st != MB_SUCCESS)
        return st;
    mb_contact_friction_read(p, &law);
    mb_contact_law_closed(&law, g.meff, g.reff, g.v, &e, &tc);
    mb_impact_observer *o = calloc(1, sizeof *o);
    if (o == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the sphere-collision observer");
    o->oblique = law.mu > 0.0;
    if (!o->oblique) {
        st = mb_collision_observe_begin(&o->inner, sys, e, tc);
    } else {
        mb_impact_params ip;
        mb_impact_state s0;
        const double e_t[2] = { 0.0, 1.0 };        /* +z */
        double t_after = g.gap / g.v + 4.0 * tc;
        st = oblique_reference(p, &g, &law, &ip, &s0);
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

const mb_problem_type mb_problem_sphere_collision = {
    .name = "sphere-collision",
    .summary = "two spheres colliding head-on (linear spring-dashpot or Hertz contact)",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "free flight, then d = (v/w) exp(-zeta w0 t) sin(w t) (linear; clamped: until t*) "
                 "or the inverted Hertz integral (undamped), then free flight at e v",
    .observe_begin = observe_begin,
    .observe_step = mb_impact_observe_step,
    .observe_end = mb_impact_observe_end,
};
