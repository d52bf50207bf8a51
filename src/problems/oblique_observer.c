/* oblique_observer.c -- the observer of a frictional oblique impact of sphere 1 (node 0)
 * on the plane z = 0 (sphere-wall with mu > 0) or on sphere 2 (node 1, sphere-collision
 * with mu > 0), motion in the x-z plane: the collision observer's normal restitution and
 * contact duration, and the tangential quantities of Chung & Ooi's oblique tests, each
 * beside the value of the event-located reference (mb_impact_reference.h, which does not
 * call the contact laws of src/forces/) and its error (doc/dem.md, "Impact metrics").
 * With w = v1 - v2 the relative velocity of the centres (v2 = 0 for the plane), e_n the
 * unit normal from body 2 towards body 1 at the start and e_t the tangent given with it:
 *
 *   restitution.tangential  (w.e_t)'/(w.e_t) (not reported when w.e_t = 0 at the start)
 *   rebound.angle           atan2(w'.e_t, w'.e_n) after the impact (rad)
 *   rebound.spin            spin of body 1 about y after the impact (rad/s)
 *   contact.slip_time       time of the contact's first stick <-> slip transition, measured
 *                           from the positions alone (of a built-in scheme or of an outside
 *                           program alike; no contact law and no synchronised velocity is
 *                           consulted): the second difference of body 1's positions about a
 *                           sample, D = x(t+h) - 2 x(t) + x(t-h), is h^2 F(t)/m1 for every
 *                           scheme of the Stormer-Verlet family (leap-frog, velocity Verlet,
 *                           verlet-nosquish, LAMMPS's and Yade's; no other force acts), so
 *                           the contact slides at the sample when |D_t| >= mu |D_n| (1 - tol)
 *                           with D split along the sample's normal (Coulomb: |F_t| <= mu F_n,
 *                           equal in slip).  The transition is the midpoint of the two
 *                           judged samples between which that state first turns to the state
 *                           the reference's first transition enters -- for those schemes the
 *                           samples between which the law's sliding state changes.  tol is
 *                           the positions' rounding: |error of D| <= 8 u max|x| per component
 *                           (u = 2^-53; the adapters write 17 digits), so tol = 8 sqrt(3) u
 *                           max|x| (1 + 1/mu)/|D|; a sample whose tol exceeds 1/2 (a force
 *                           below what the positions resolve, at the touch and the
 *                           separation) is not judged.
 *
 * The normal restitution and the contact duration are judged against the reference's too
 * (restitution_exact, contact.duration_exact): on a pair of spheres the normal turns
 * during the contact and friction changes the normal restitution (on the plane the
 * reference reproduces the closed forms to 1e-13).
 * Post-impact values are read at the first sample after the contact opens (no gravity:
 * they do not change after it).  For the plane e_n = +z, e_t = +x.
 * Errors: restitution.tangential_error and rebound.angle_error are differences,
 * rebound.spin_error is (w' - w'_ref) r / V with V the impact speed (a contact-point speed
 * relative to the impact's), contact.slip_time_error is (t - t_ref) / t_c with t_c the
 * reference's contact duration. */
#include "mb_contact_problem.h"
#include "mb_impact_reference.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

struct oblique_observer {
    void *collision;                        /* the normal restitution and duration */
    const void *model;
    mb_impact_state ref;                    /* the reference after the impact */
    double en[2], et[2];                    /* (x, z) components */
    int two;                                /* body 2 is node 1 */
    double t_slip_ref, t_contact_ref, e_ref, w0t, speed, radius;
    int phase;                              /* 0 before contact, 1 in it, 2 after */
    int target;                             /* sliding state after the reference's event */
    double mu;
    int prev_in, transition;
    int prev_sliding;                       /* the last judged sample's state; -1 none */
    double t_prev, t_judged, t_slip;
    long samples;                           /* samples seen */
    double x_prev2[3], x_prev[3], n_prev[3]; /* body 1 at the last two samples, the normal
                                               at the last one */
    double wt, wn, w;                       /* after the impact */
};

/* w = v1 - v2 of a state's (x, z) velocities along e */
static double relative(const double v1[2], const double v2[2], const double e[2])
{
    return (v1[0] - v2[0]) * e[0] + (v1[1] - v2[1]) * e[1];
}

/* The normal approach (or separation) rate of the reference's state at time t. */
static int reference_rate(const mb_impact_params *ip, const mb_impact_state *s0, double t,
                          double *rate)
{
    mb_impact_state s;
    double delta, slip;
    int st = mb_impact_reference(ip, s0, t, 1e-12, &s, NULL);
    if (st == MB_SUCCESS)
        mb_impact_contact(ip, &s, &delta, rate, &slip);
    return st;
}

/* The reference's solution: the state long after the contact opened, the first stick <->
 * slip event, and the normal restitution (separation rate at the overlap's end over the
 * approach rate at first touch: on a pair the normal turns and friction changes it) with
 * the overlap's duration. */
static int reference_of(const mb_impact_params *ip, const mb_impact_state *s0, double t_after,
                        struct oblique_observer *o)
{
    mb_impact_events ev;
    int st = mb_impact_reference(ip, s0, t_after, 1e-12, &o->ref, &ev);
    if (st != MB_SUCCESS)
        return st;
    double t_on = NAN, t_off = NAN;
    o->t_slip_ref = NAN;
    for (size_t k = 0; k < ev.count; k++) {
        int kind = ev.kind[k];
        if (kind == MB_IMPACT_CONTACT_START && isnan(t_on))
            t_on = ev.t[k];
        else if (kind == MB_IMPACT_OVERLAP_END && isnan(t_off))
            t_off = ev.t[k];
        else if ((kind == MB_IMPACT_STICK_TO_SLIP || kind == MB_IMPACT_SLIP_TO_STICK)
                 && isnan(o->t_slip_ref) && isnan(t_off)) {
            o->t_slip_ref = ev.t[k];
            o->target = kind == MB_IMPACT_STICK_TO_SLIP;
        }
    }
    if (isnan(t_off))
        MB_ERROR(MB_EFAILED, "oblique observer: the reference's contact did not end by t = %g",
                 t_after);
    o->t_contact_ref = t_off - t_on;
    double rate_on, rate_off;
    if ((st = reference_rate(ip, s0, t_on, &rate_on)) != MB_SUCCESS
        || (st = reference_rate(ip, s0, t_off, &rate_off)) != MB_SUCCESS)
        return st;
    o->e_ref = -rate_off / rate_on;
    return MB_SUCCESS;
}

int mb_oblique_observe_begin(void **ctx, const mb_system *sys, const mb_impact_params *ip,
                             const mb_impact_state *s0, const double e_t[2], double t_after)
{
    *ctx = NULL;
    struct oblique_observer *o = calloc(1, sizeof *o);
    if (o == NULL)
        MB_ERROR(MB_ENOMEM, "cannot allocate the oblique-impact observer");
    int st = reference_of(ip, s0, t_after, o);
    if (st == MB_SUCCESS)
        st = mb_collision_observe_begin(&o->collision, sys, o->e_ref, o->t_contact_ref);
    if (st != MB_SUCCESS) {
        free(o);
        return st;
    }
    o->model = mb_contact_model_of(sys);
    o->two = !ip->plane;
    if (o->two) {
        double dx = s0->x[0][0] - s0->x[1][0], dz = s0->x[0][1] - s0->x[1][1], l = hypot(dx, dz);
        o->en[0] = dx / l;
        o->en[1] = dz / l;
    } else {
        o->en[0] = 0.0;
        o->en[1] = 1.0;
    }
    o->et[0] = e_t[0];
    o->et[1] = e_t[1];
    o->w0t = relative(s0->v[0], s0->v[1], o->et);
    o->speed = hypot(relative(s0->v[0], s0->v[1], o->en), o->w0t);
    o->radius = ip->radius[0];
    o->mu = ip->mu;
    o->prev_sliding = -1;
    o->t_judged = NAN;
    *ctx = o;
    return MB_SUCCESS;
}

/* The contact's state at the previous sample from body 1's positions about it (x the
 * current one): 1 sliding, 0 sticking, -1 not resolved (oblique_observer.c's header). */
static int sample_slides(const struct oblique_observer *o, const double x[3])
{
    const double u = 0x1p-53;
    double D[3], dn = 0.0, dt2 = 0.0, xmax = 0.0;
    for (int k = 0; k < 3; k++) {
        D[k] = (x[k] - 2.0 * o->x_prev[k]) + o->x_prev2[k];
        dn += D[k] * o->n_prev[k];
        xmax = fmax(xmax, fmax(fabs(x[k]), fmax(fabs(o->x_prev[k]), fabs(o->x_prev2[k]))));
    }
    for (int k = 0; k < 3; k++)
        dt2 += (D[k] - dn * o->n_prev[k]) * (D[k] - dn * o->n_prev[k]);
    const double d = sqrt(dn * dn + dt2);
    const double tol = 8.0 * sqrt(3.0) * u * xmax * (1.0 + 1.0 / o->mu) / d;
    if (!(tol <= 0.5))
        return -1;
    return sqrt(dt2) >= o->mu * fabs(dn) * (1.0 - tol);
}

int mb_oblique_observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step)
{
    struct oblique_observer *o = ctx;
    int st = mb_collision_observe_step(o->collision, sys, on_step);
    if (st != MB_SUCCESS)
        return st;
    double delta, rate, n[3];
    if ((st = mb_contact_kinematics(o->model, 0, on_step, &delta, &rate, n)) != MB_SUCCESS)
        return st;
    double t = sys->t;
    int in = delta > 0.0;
    if (in && o->phase == 0)
        o->phase = 1;
    /* the previous sample, judged now that the one after it is known */
    int sliding = o->prev_in && o->samples >= 2 ? sample_slides(o, on_step->x) : -1;
    if (sliding >= 0 && o->prev_sliding >= 0 && !o->transition
        && o->prev_sliding != o->target && sliding == o->target) {
        o->transition = 1;
        o->t_slip = 0.5 * (o->t_judged + o->t_prev);
    }
    if (sliding >= 0) {
        o->prev_sliding = sliding;
        o->t_judged = o->t_prev;
    }
    if (!in && o->phase == 1) {
        const double *v = on_step->v, zero[3] = { 0, 0, 0 }, *v2 = o->two ? v + 3 : zero;
        const double v1xz[2] = { v[0], v[2] }, v2xz[2] = { v2[0], v2[2] };
        o->phase = 2;
        o->wt = relative(v1xz, v2xz, o->et);
        o->wn = relative(v1xz, v2xz, o->en);
        o->w = on_step->omega[1];
    }
    o->t_prev = t;
    o->prev_in = in;
    o->samples++;
    for (int k = 0; k < 3; k++) {
        o->x_prev2[k] = o->x_prev[k];
        o->x_prev[k] = on_step->x[k];
        o->n_prev[k] = n[k];
    }
    return MB_SUCCESS;
}

int mb_oblique_observe_end(void *ctx, mb_observation *out)
{
    struct oblique_observer *o = ctx;
    out->count = 0;
    if (o == NULL)
        return MB_SUCCESS;
    int st = mb_collision_observe_end(o->collision, out);
    if (st != MB_SUCCESS) {
        free(o);
        return st;
    }
    const mb_impact_state *r = &o->ref;
    double rt = relative(r->v[0], r->v[1], o->et), rn = relative(r->v[0], r->v[1], o->en);
    double angle_ref = atan2(rt, rn), et_ref = rt / o->w0t;
    if (o->w0t != 0.0)
        mb_observation_add(out, "restitution.tangential_exact", et_ref);
    mb_observation_add(out, "rebound.angle_exact", angle_ref);
    mb_observation_add(out, "rebound.spin_exact", r->w[0]);
    if (isfinite(o->t_slip_ref))
        mb_observation_add(out, "contact.slip_time_exact", o->t_slip_ref);
    if (o->phase == 2) {
        double angle = atan2(o->wt, o->wn);
        if (o->w0t != 0.0) {
            mb_observation_add(out, "restitution.tangential", o->wt / o->w0t);
            mb_observation_add(out, "restitution.tangential_error", o->wt / o->w0t - et_ref);
        }
        mb_observation_add(out, "rebound.angle", angle);
        mb_observation_add(out, "rebound.angle_error", angle - angle_ref);
        mb_observation_add(out, "rebound.spin", o->w);
        mb_observation_add(out, "rebound.spin_error", (o->w - r->w[0]) * o->radius / o->speed);
    }
    if (o->transition && isfinite(o->t_slip_ref)) {
        mb_observation_add(out, "contact.slip_time", o->t_slip);
        mb_observation_add(out, "contact.slip_time_error",
                           (o->t_slip - o->t_slip_ref) / o->t_contact_ref);
    }
    free(o);
    return MB_SUCCESS;
}

int mb_impact_observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step)
{
    mb_impact_observer *o = ctx;
    return o->oblique ? mb_oblique_observe_step(o->inner, sys, on_step)
                      : mb_collision_observe_step(o->inner, sys, on_step);
}

int mb_impact_observe_end(void *ctx, mb_observation *out)
{
    mb_impact_observer *o = ctx;
    out->count = 0;
    if (o == NULL)
        return MB_SUCCESS;
    int st = o->oblique ? mb_oblique_observe_end(o->inner, out)
                        : mb_collision_observe_end(o->inner, out);
    free(o);
    return st;
}
