/* sphere_settle.c -- a sphere dropped from rest onto the rigid plane z = 0 under gravity
 * g (along -z), with a damped linear or Hertz contact (mb_contact.h), bouncing until it
 * rests.  Closed form of the rest state: the overlap where the contact carries the weight,
 *   linear  delta_s = m g / kn,     Hertz  delta_s = (m g / K)^{2/3},  K = (4/3) E* sqrt(r),
 * E* = E / (1 - nu^2).  The contact must be damped (zeta > 0 or c > 0).  Observed at the last sample: settle.overlap and its closed form,
 * settle.overlap_error = measured / closed form - 1, settle.speed = |v_z|, and
 * contact.count (number of impacts). */
#include "mb_contact_problem.h"
#include "mb_status.h"

#include <gsl/gsl_math.h>
#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "radius", MB_OPT_DOUBLE, "0.01", 1e-9, 1e3, NULL, "sphere radius (m)" },
    { "density", MB_OPT_DOUBLE, "2500", 1e-6, 1e6, NULL, "sphere density (kg/m^3)" },
    { "height", MB_OPT_DOUBLE, "1e-3", 1e-12, 1e3, NULL, "initial gap to the plane (m)" },
    { "gravity", MB_OPT_DOUBLE, "9.81", 1e-9, 1e6, NULL, "gravitational acceleration g (m/s^2)" },
    MB_CONTACT_LAW_SPECS("0.3"),
    MB_OPTION_END
};

static double mass_of(const mb_options *p)
{
    double r = mb_options_double(p, "radius");
    return mb_options_double(p, "density") * 4.0 / 3.0 * M_PI * r * r * r;
}

/* The contact law; it must be damped, or the sphere bounces forever and never settles. */
static int settle_law(const mb_options *p, double m, mb_contact_law *law)
{
    int st = mb_contact_law_read(p, 1, m, law);
    if (st != MB_SUCCESS)
        return st;
    if (!(law->zeta > 0.0)) {
        if (mb_options_given(p, "c"))
            MB_ERROR(MB_EDOM, "problem 'sphere-settle': dashpot 'c' = 0 leaves the contact undamped; "
                              "the sphere would never come to rest (need c > 0)");
        MB_ERROR(MB_EDOM, "problem 'sphere-settle': zeta = 0 leaves the contact undamped; the "
                          "sphere would never come to rest (need zeta > 0)");
    }
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    double r = mb_options_double(p, "radius"), m = mass_of(p);
    mb_contact_law law;
    int st = settle_law(p, m, &law);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    const double x[3] = { 0, 0, r + mb_options_double(p, "height") }, v[3] = { 0, 0, 0 };
    const double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 }, g[3] = { 0, 0, -mb_options_double(p, "gravity") };
    mb_contact_place_sphere(sys, 0, m, r, x, v);
    /* gravity first, then the contact: the order of a scene's [force] and [contact] */
    if ((st = mb_scene_add_gravity(sys, g)) != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    if ((st = mb_contact_place_pair(p, sys, 1, 0, 0, o, n)) != MB_SUCCESS)
        return st;
    *out = sys;
    return MB_SUCCESS;
}

struct settle_observer {
    const void *model;
    double delta_static, delta, speed;
    int was_in;
    size_t contacts;
};

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    double m = mass_of(p), r = mb_options_double(p, "radius"), w = m * mb_options_double(p, "gravity");
    mb_contact_law law;
    *ctx = NULL;
    int st = settle_law(p, m, &law);
    if (st != MB_SUCCESS)
        return st;
    struct settle_observer *o = calloc(1, sizeof *o);
    if (o == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the settle observer");
    o->model = mb_contact_model_of(sys);
    if (o->model == NULL) {
        free(o);
        MB_ERROR(MB_EINVAL, "sphere-settle observer: the system has no contact model");
    }
    o->delta_static = law.hertz ? pow(w / (4.0 / 3.0 * law.estar * sqrt(r)), 2.0 / 3.0)
                                : w / law.kn;
    *ctx = o;
    return MB_SUCCESS;
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step)
{
    struct settle_observer *o = ctx;
    double n[3], rate;
    (void)sys;
    int st = mb_contact_kinematics(o->model, 0, on_step, &o->delta, &rate, n);
    if (st != MB_SUCCESS)
        return st;
    o->speed = fabs(rate);
    int in = o->delta > 0.0;
    if (in && !o->was_in)
        o->contacts++;
    o->was_in = in;
    return MB_SUCCESS;
}

static int observe_end(void *ctx, mb_observation *out)
{
    struct settle_observer *o = ctx;
    out->count = 0;
    if (o == NULL)
        return MB_SUCCESS;
    mb_observation_add(out, "settle.overlap", o->delta);
    mb_observation_add(out, "settle.overlap_exact", o->delta_static);
    mb_observation_add(out, "settle.overlap_error", o->delta / o->delta_static - 1.0);
    mb_observation_add(out, "settle.speed", o->speed);
    mb_observation_add(out, "contact.count", (double)o->contacts);
    free(o);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_sphere_settle = {
    .name = "sphere-settle",
    .summary = "a sphere dropped onto a plane under gravity, damped contact, comes to rest",
    .params = params,
    .setup = setup,
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
};
