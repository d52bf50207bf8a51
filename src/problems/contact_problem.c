/* contact_problem.c -- the contact law, closed forms and collision observer shared by the
 * sphere contact problems (see mb_contact_problem.h). */
#include "mb_closed_contact.h"
#include "mb_contact_problem.h"
#include "mb_impact_reference.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mb_contact_law_read(const mb_options *p, int wall, double meff, mb_contact_law *law)
{
    memset(law, 0, sizeof *law);
    law->hertz = strcmp(mb_options_string(p, "model"), "hertz") == 0;
    law->clamp = mb_options_bool(p, "clamp");
    law->kn = mb_options_double(p, "kn");
    law->zeta = mb_options_double(p, "zeta");
    if (mb_options_given(p, "c")) {
        if (law->hertz)
            MB_ERROR(MB_EINVAL, "parameter 'c' applies to model=linear only (use zeta for hertz)");
        if (mb_options_given(p, "zeta"))
            MB_ERROR(MB_EINVAL, "give either 'c' or 'zeta', not both");
        law->c = mb_options_double(p, "c");
        law->zeta = mb_closed_linear_zeta(law->kn, meff, law->c);
        if (!(law->zeta < 1.0))
            MB_ERROR(MB_EDOM, "dashpot c = %g is at or above critical 2 sqrt(m* kn) = %g",
                     law->c, 2.0 * sqrt(meff * law->kn));
    } else {
        law->c = 2.0 * law->zeta * sqrt(meff * law->kn);
    }
    double E = mb_options_double(p, "young"), nu = mb_options_double(p, "poisson");
    law->estar = E / ((wall ? 1.0 : 2.0) * (1.0 - nu * nu));
    return MB_SUCCESS;
}

void mb_contact_friction_read(const mb_options *p, mb_contact_law *law)
{
    law->mu = mb_options_double(p, "mu");
    law->kt_ratio = mb_options_double(p, "kt_ratio");
    if (law->kt_ratio == 0.0) {
        double nu = mb_options_double(p, "poisson");
        law->kt_ratio = law->hertz ? 2.0 * (1.0 - nu) / (2.0 - nu) : 2.0 / 7.0;
    }
}

int mb_contact_impact_params(const mb_contact_law *law, int plane, double m1, double r1,
                             double m2, double r2, mb_impact_params *ip)
{
    if (law->hertz && law->zeta != 0.0)
        MB_ERROR(MB_EUNSUP, "the event-located impact reference has no damped Hertz law");
    if (!law->hertz && !law->clamp && law->zeta != 0.0)
        MB_ERROR(MB_EUNSUP, "the event-located impact reference has the clamped dashpot only "
                            "(clamp = true)");
    *ip = (mb_impact_params){ .plane = plane, .mass = { m1, m2 }, .radius = { r1, r2 },
                              .inertia = { 0.4 * m1 * r1 * r1, 0.4 * m2 * r2 * r2 },
                              .mu = law->mu };
    ip->normal = law->hertz ? MB_IMPACT_NORMAL_HERTZ : MB_IMPACT_NORMAL_LINEAR;
    ip->kn = law->kn;
    ip->cn = law->c;
    ip->estar = law->estar;
    ip->gstar = law->kt_ratio * law->estar / 4.0;     /* 8 G* = kt_ratio 2 E* */
    /* the Hertz-Mindlin law keeps xi and forms F_t = -k_t(delta) xi: the total form */
    ip->tangential = law->hertz ? MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL : MB_IMPACT_TANGENTIAL_LINEAR;
    ip->kt = law->kt_ratio * law->kn;
    return MB_SUCCESS;
}

void mb_contact_law_scene(const mb_options *p, mb_scene_dem_law *out)
{
    memset(out, 0, sizeof *out);
    out->hertz = strcmp(mb_options_string(p, "model"), "hertz") == 0;
    out->attractive = !mb_options_bool(p, "clamp");
    out->kn = mb_options_double(p, "kn");
    out->by_ratio = !mb_options_given(p, "c");
    out->c = out->by_ratio ? 0.0 : mb_options_double(p, "c");
    out->zeta = mb_options_double(p, "zeta");
    out->young = mb_options_double(p, "young");
    out->poisson = mb_options_double(p, "poisson");
    if (mb_options_given(p, "mu") && mb_options_double(p, "mu") > 0.0) {
        mb_contact_law law = { .hertz = out->hertz };
        mb_contact_friction_read(p, &law);
        out->friction = 1;
        out->mu = law.mu;
        out->kt_ratio = law.kt_ratio;
    }
}

void mb_contact_place_sphere(mb_system *sys, size_t i, double m, double r, const double x[3],
                             const double v[3])
{
    mb_scene_pose b;
    mb_scene_pose_init(&b);
    b.mass = m;
    b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.4 * m * r * r;
    b.radius = r;
    for (int k = 0; k < 3; k++) {
        b.x[k] = x[k];
        b.v[k] = v[k];
    }
    mb_scene_place_body(sys->nodes, i, &b);
}

int mb_contact_place_pair(const mb_options *p, mb_system *sys, int wall, size_t i, size_t j,
                          const double *point, const double *normal)
{
    mb_scene_dem_law law;
    mb_contact_law_scene(p, &law);
    void *model = mb_scene_place_dem_model(sys, &law, wall);
    int st = model ? mb_scene_place_dem_pair(sys, model, i, j, point, normal) : mb_last_error_code();
    if (st != MB_SUCCESS)
        mb_system_free(sys);
    return st;
}

void mb_contact_law_closed(const mb_contact_law *law, double meff, double reff, double v,
                           double *e, double *tc)
{
    *e = *tc = NAN;
    if (law->hertz) {
        if (law->zeta == 0.0) {
            *e = 1.0;
            *tc = mb_closed_hertz_duration(meff, reff, law->estar, v);
        }
        return;
    }
    if (law->clamp) {
        *e = mb_closed_linear_clamped_restitution(law->zeta);
        *tc = mb_closed_linear_clamped_duration(law->kn, meff, law->zeta);
    } else {
        *e = mb_closed_linear_restitution(law->zeta);
        *tc = mb_closed_linear_duration(law->kn, meff, law->zeta);
    }
}

const void *mb_contact_model_of(const mb_system *sys)
{
    for (size_t m = 0; m < sys->forces->count; m++) {
        const mb_force_type *t = sys->forces->items[m].type;
        if (t == mb_force_contact_linear || t == mb_force_contact_hertz
            || t == mb_force_contact_cundall_strack || t == mb_force_contact_hertz_mindlin)
            return sys->forces->items[m].params;
    }
    return NULL;
}

void mb_observation_add(mb_observation *o, const char *name, double value)
{
    if (o->count >= MB_OBSERVATION_MAX)
        return;
    snprintf(o->items[o->count].name, sizeof o->items[o->count].name, "%s", name);
    o->items[o->count].value = value;
    o->count++;
}

struct collision_observer {
    const void *model;
    int phase;                  /* 0 before the first contact, 1 in it, 2 after */
    int have_prev;
    double t_prev, delta_prev, rate_prev;
    double v_in, v_out, t_start, t_end;
    size_t contacts;
    double e_closed, tc_closed;
};

int mb_collision_observe_begin(void **ctx, const mb_system *sys, double e_closed,
                               double tc_closed)
{
    *ctx = NULL;
    const void *model = mb_contact_model_of(sys);
    if (model == NULL || mb_contact_count(model) == 0)
        MB_ERROR(MB_EINVAL, "collision observer: the system has no contact pair");
    struct collision_observer *o = calloc(1, sizeof *o);
    if (o == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the collision observer");
    o->model = model;
    o->e_closed = e_closed;
    o->tc_closed = tc_closed;
    *ctx = o;
    return MB_SUCCESS;
}

/* time at which the overlap crosses 0 between the previous and the current sample */
static double crossing(const struct collision_observer *o, double t, double delta)
{
    return o->t_prev + (t - o->t_prev) * (0.0 - o->delta_prev) / (delta - o->delta_prev);
}

int mb_collision_observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step)
{
    struct collision_observer *o = ctx;
    double delta, rate, n[3], t = sys->t;
    int st = mb_contact_kinematics(o->model, 0, on_step, &delta, &rate, n);
    if (st != MB_SUCCESS)
        return st;
    int in = delta > 0.0;
    if (o->have_prev) {
        int was = o->delta_prev > 0.0;
        if (in && !was) {
            o->contacts++;
            if (o->phase == 0) {
                o->phase = 1;
                o->v_in = o->rate_prev;           /* approach speed before the contact */
                o->t_start = crossing(o, t, delta);
            }
        } else if (!in && was && o->phase == 1) {
            o->phase = 2;
            o->v_out = -rate;                     /* separation speed after the contact */
            o->t_end = crossing(o, t, delta);
        }
    } else if (in) {
        MB_ERROR(MB_EINVAL, "collision observer: the bodies overlap at the start (delta = %g); "
                            "the gap must be > 0", delta);
    }
    o->have_prev = 1;
    o->t_prev = t;
    o->delta_prev = delta;
    o->rate_prev = rate;
    return MB_SUCCESS;
}

int mb_collision_observe_end(void *ctx, mb_observation *out)
{
    struct collision_observer *o = ctx;
    out->count = 0;
    if (o == NULL)
        return MB_SUCCESS;
    if (o->phase == 2) {
        double e = o->v_out / o->v_in, tc = o->t_end - o->t_start;
        mb_observation_add(out, "restitution", e);
        mb_observation_add(out, "contact.duration", tc);
        if (isfinite(o->e_closed))
            mb_observation_add(out, "restitution_error", e - o->e_closed);
        if (isfinite(o->tc_closed))
            mb_observation_add(out, "contact.duration_error", tc / o->tc_closed - 1.0);
    }
    if (isfinite(o->e_closed))
        mb_observation_add(out, "restitution_exact", o->e_closed);
    if (isfinite(o->tc_closed))
        mb_observation_add(out, "contact.duration_exact", o->tc_closed);
    mb_observation_add(out, "contact.count", (double)o->contacts);
    free(o);
    return MB_SUCCESS;
}
