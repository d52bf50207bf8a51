/* impact_reference.c -- event-located reference of a two-body frictional impact: smooth
 * phases by GSL rk8pd, events by Brent's method (equations in mb_impact_reference.h). */
#include "mb_impact_reference.h"
#include "mb_closed_contact.h"
#include "mb_init.h"
#include "mb_status.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <string.h>

enum { DIM = 11, IT = 10 };                 /* body b: x z vx vz w at 5b; T at 10 */
enum phase { FREE_APART, FREE_OVERLAP, STICK, SLIP };

struct ctx {
    const mb_impact_params *p;
    enum phase phase;
    double s;                               /* sign of T while sliding */
};

/* the contact's kinematics and forces for one state */
struct contact {
    double n[2], t[2], dist, delta, rate, l[2], ut, fn, tf, f1[2];
};

static double reduced(double a, double b, int plane) { return plane ? a : a * b / (a + b); }

static double hertz_k(const mb_impact_params *p)
{
    return 4.0 / 3.0 * p->estar * sqrt(reduced(p->radius[0], p->radius[1], p->plane));
}

/* k_t: constant, or Mindlin's 8 G* sqrt(R* delta) */
static double tangential_k(const mb_impact_params *p, double delta)
{
    if (p->tangential == MB_IMPACT_TANGENTIAL_LINEAR)
        return p->kt;
    double r = reduced(p->radius[0], p->radius[1], p->plane);
    return 8.0 * p->gstar * sqrt(r * fmax(delta, 0.0));
}

/* F_n = k_n delta + c_n delta', or (4/3) E* sqrt(R*) delta^{3/2} (unclamped: the events
 * end the contact) */
static double normal_force(const mb_impact_params *p, double delta, double rate)
{
    if (p->normal == MB_IMPACT_NORMAL_LINEAR)
        return p->kn * delta + p->cn * rate;
    return hertz_k(p) * pow(fmax(delta, 0.0), 1.5);
}

/* w x a in the x-z plane, w along y: w (a_z, -a_x) */
static void spin_velocity(double w, const double a[2], double out[2])
{
    out[0] = w * a[1];
    out[1] = -w * a[0];
}

static void geometry(const mb_impact_params *p, const double *y, struct contact *c)
{
    if (p->plane) {
        c->n[0] = 0.0; c->n[1] = -1.0;
        c->dist = y[1];
        c->delta = p->radius[0] - y[1];
    } else {
        double dx = y[5] - y[0], dz = y[6] - y[1];
        c->dist = hypot(dx, dz);
        c->n[0] = dx / c->dist; c->n[1] = dz / c->dist;
        c->delta = p->radius[0] + p->radius[1] - c->dist;
    }
    c->t[0] = c->n[1]; c->t[1] = -c->n[0];
    double shrink = p->rigid_arms ? 0.0 : 0.5 * c->delta;
    c->l[0] = p->radius[0] - shrink;
    c->l[1] = p->plane ? 0.0 : p->radius[1] - shrink;
    double a1[2] = { c->l[0] * c->n[0], c->l[0] * c->n[1] };
    double a2[2] = { -c->l[1] * c->n[0], -c->l[1] * c->n[1] };
    double s1[2], s2[2];
    spin_velocity(y[4], a1, s1);
    spin_velocity(y[9], a2, s2);
    double u[2];
    for (int k = 0; k < 2; k++)
        u[k] = y[2 + k] + s1[k] - y[7 + k] - s2[k];
    c->rate = c->n[0] * (y[2] - y[7]) + c->n[1] * (y[3] - y[8]);
    c->ut = c->t[0] * u[0] + c->t[1] * u[1];
}

/* forces of the phase: f1 = -F_n n + T t on body 1 */
static void forces(const struct ctx *x, const double *y, struct contact *c)
{
    geometry(x->p, y, c);
    c->fn = c->tf = 0.0;
    if (x->phase == STICK || x->phase == SLIP) {
        c->fn = normal_force(x->p, c->delta, c->rate);
        c->tf = x->phase == STICK ? y[IT] : x->s * x->p->mu * c->fn;
    }
    for (int k = 0; k < 2; k++)
        c->f1[k] = -c->fn * c->n[k] + c->tf * c->t[k];
}

static int rhs(double t, const double y[], double dy[], void *params)
{
    (void)t;
    const struct ctx *x = params;
    const mb_impact_params *p = x->p;
    struct contact c;
    forces(x, y, &c);
    memset(dy, 0, DIM * sizeof *dy);
    for (int b = 0; b < (p->plane ? 1 : 2); b++) {
        double sg = b == 0 ? 1.0 : -1.0;                  /* f2 = -f1, a2 = -l2 n */
        double f[2] = { sg * c.f1[0], sg * c.f1[1] };
        double a[2] = { sg * c.l[b] * c.n[0], sg * c.l[b] * c.n[1] };
        dy[5 * b + 0] = y[5 * b + 2];
        dy[5 * b + 1] = y[5 * b + 3];
        dy[5 * b + 2] = f[0] / p->mass[b];
        dy[5 * b + 3] = f[1] / p->mass[b];
        dy[5 * b + 4] = (a[1] * f[0] - a[0] * f[1]) / p->inertia[b];
    }
    if (x->phase == STICK) {
        dy[IT] = -tangential_k(p, c.delta) * c.ut;
        if (p->tangential == MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL && c.delta > 0.0)
            dy[IT] += y[IT] * c.rate / (2.0 * c.delta);   /* T (dk_t/dt)/k_t */
    }
    return GSL_SUCCESS;
}

/* dF_n/dt: delta'' = n.(a1 - a2) - (|v1 - v2|^2 - delta'^2) / dist (sphere pair) */
static double normal_force_rate(const struct ctx *x, const double *y, const struct contact *c)
{
    const mb_impact_params *p = x->p;
    double dy[DIM];
    rhs(0.0, y, dy, (void *)x);
    double acc = c->n[0] * (dy[2] - dy[7]) + c->n[1] * (dy[3] - dy[8]);
    if (!p->plane) {
        double wx = y[2] - y[7], wz = y[3] - y[8];
        acc -= (wx * wx + wz * wz - c->rate * c->rate) / c->dist;
    }
    if (p->normal == MB_IMPACT_NORMAL_LINEAR)
        return p->kn * c->rate + p->cn * acc;
    return 1.5 * hertz_k(p) * sqrt(fmax(c->delta, 0.0)) * c->rate;
}

/* Event functions of the phase, positive inside it: g[0] ends the phase's contact state,
 * g[1] switches stick/slip.  Returns how many are active. */
static int events(const struct ctx *x, const double *y, double g[2])
{
    struct contact c;
    forces(x, y, &c);
    switch (x->phase) {
    case FREE_APART:   g[0] = -c.delta; return 1;
    case FREE_OVERLAP: g[0] = c.delta; return 1;
    default: break;
    }
    g[0] = x->p->normal == MB_IMPACT_NORMAL_LINEAR ? c.fn : c.delta;
    if (x->p->mu == 0.0)
        return 1;
    if (x->phase == STICK)
        g[1] = x->p->mu * c.fn - fabs(y[IT]);
    else
        g[1] = -x->s * tangential_k(x->p, c.delta) * c.ut - x->p->mu * normal_force_rate(x, y, &c)
               + (x->p->tangential == MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL && c.delta > 0.0
                      ? x->p->mu * c.fn * c.rate / (2.0 * c.delta) : 0.0);
    return 2;
}

struct solver {
    struct ctx x;
    gsl_odeiv2_system sys;
    gsl_odeiv2_driver *stepper, *trial;
    double t0, y0[DIM];                     /* start of the last step */
    int which;                              /* event function searched */
};

/* the state at time tau by integrating afresh from the start of the last step */
static int advance(struct solver *S, double tau, double *y)
{
    memcpy(y, S->y0, sizeof S->y0);
    double t = S->t0;
    if (tau == t)
        return MB_SUCCESS;
    gsl_odeiv2_driver_reset_hstart(S->trial, tau - t);
    return gsl_odeiv2_driver_apply(S->trial, &t, tau, y) == GSL_SUCCESS ? MB_SUCCESS : MB_EFAILED;
}

static double event_at(double tau, void *params)
{
    struct solver *S = params;
    double y[DIM], g[2];
    if (advance(S, tau, y) != MB_SUCCESS)
        return NAN;
    events(&S->x, y, g);
    return g[S->which];
}

/* Brent's method on g_which over [t0, t1]; the root's upper bracket (past the event) */
static int locate(struct solver *S, int which, double t1, double *te)
{
    S->which = which;
    gsl_function F = { event_at, S };
    gsl_root_fsolver *r = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (r == NULL)
        MB_ERROR(MB_ENOMEM, "impact reference: out of memory");
    int st = gsl_root_fsolver_set(r, &F, S->t0, t1);
    for (int it = 0; st == GSL_SUCCESS && it < 200; it++) {
        st = gsl_root_fsolver_iterate(r);
        double lo = gsl_root_fsolver_x_lower(r), hi = gsl_root_fsolver_x_upper(r);
        if (st == GSL_SUCCESS && gsl_root_test_interval(lo, hi, 0.0, 4.0 * DBL_EPSILON) == GSL_SUCCESS)
            break;
    }
    *te = gsl_root_fsolver_x_upper(r);
    gsl_root_fsolver_free(r);
    if (st != GSL_SUCCESS || !isfinite(*te))
        MB_ERROR(MB_EFAILED, "impact reference: event search failed");
    return MB_SUCCESS;
}

static int record(mb_impact_events *ev, int kind, double t, double T)
{
    if (ev == NULL)
        return MB_SUCCESS;
    if (ev->count == MB_IMPACT_MAX_EVENTS)
        MB_ERROR(MB_EFAILED, "impact reference: more than %d events", MB_IMPACT_MAX_EVENTS);
    ev->kind[ev->count] = kind;
    ev->t[ev->count] = t;
    ev->force_t[ev->count] = T;
    ev->count++;
    return MB_SUCCESS;
}

/* the phase a contact starts in (mb_impact_reference.h, last paragraph) */
static void start_contact(struct ctx *x, double *y)
{
    const mb_impact_params *p = x->p;
    struct contact c;
    geometry(p, y, &c);
    y[IT] = 0.0;
    x->s = c.ut > 0.0 ? -1.0 : 1.0;
    double fn0 = p->normal == MB_IMPACT_NORMAL_LINEAR ? p->cn * c.rate : 0.0;
    double trial, limit;
    if (p->tangential == MB_IMPACT_TANGENTIAL_LINEAR)
        trial = p->kt * fabs(c.ut);
    else
        trial = 8.0 * p->gstar * fabs(c.ut);
    if (p->normal == MB_IMPACT_NORMAL_LINEAR)
        limit = p->mu * p->kn * c.rate;
    else if (p->tangential == MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL)
        limit = p->mu * 4.0 / 3.0 * p->estar * c.rate;   /* |T| = k_t(delta) |u_t| t */
    else
        limit = p->mu * 2.0 * p->estar * c.rate;
    if (p->tangential != MB_IMPACT_TANGENTIAL_LINEAR && p->normal == MB_IMPACT_NORMAL_LINEAR)
        trial = 0.0;                        /* Mindlin's k_t vanishes at first touch */
    x->phase = (p->mu > 0.0 && (fn0 > 0.0 || trial <= limit)) ? STICK : SLIP;
}

/* The transition after event `which` of the current phase; records the event. */
static int transition(struct ctx *x, int which, double t, double *y, mb_impact_events *ev)
{
    const mb_impact_params *p = x->p;
    struct contact c;
    forces(x, y, &c);
    switch (x->phase) {
    case FREE_APART:
        start_contact(x, y);
        return record(ev, MB_IMPACT_CONTACT_START, t, 0.0);
    case FREE_OVERLAP:
        x->phase = FREE_APART;
        return record(ev, MB_IMPACT_OVERLAP_END, t, 0.0);
    default: break;
    }
    if (which == 0) {
        int undamped = p->normal == MB_IMPACT_NORMAL_HERTZ || p->cn == 0.0;
        x->phase = undamped ? FREE_APART : FREE_OVERLAP;
        y[IT] = 0.0;
        int st = record(ev, MB_IMPACT_FORCE_END, t, c.tf);
        return st != MB_SUCCESS || !undamped ? st : record(ev, MB_IMPACT_OVERLAP_END, t, 0.0);
    }
    if (x->phase == STICK) {
        x->s = y[IT] >= 0.0 ? 1.0 : -1.0;
        x->phase = SLIP;
        y[IT] = x->s * p->mu * c.fn;
        return record(ev, MB_IMPACT_STICK_TO_SLIP, t, y[IT]);
    }
    x->phase = STICK;
    y[IT] = c.tf;
    return record(ev, MB_IMPACT_SLIP_TO_STICK, t, y[IT]);
}

static int params_ok(const mb_impact_params *p)
{
    int nb = p->plane ? 1 : 2;
    for (int b = 0; b < nb; b++)
        if (!(p->mass[b] > 0.0 && isfinite(p->mass[b]) && p->radius[b] > 0.0 &&
              isfinite(p->radius[b]) && p->inertia[b] > 0.0 && isfinite(p->inertia[b])))
            return 0;
    if (!(p->mu >= 0.0 && isfinite(p->mu)))
        return 0;
    if (p->normal == MB_IMPACT_NORMAL_LINEAR && !(p->kn > 0.0 && isfinite(p->kn) && p->cn >= 0.0 &&
                                                  isfinite(p->cn)))
        return 0;
    if (p->normal == MB_IMPACT_NORMAL_HERTZ && !(p->estar > 0.0 && isfinite(p->estar)))
        return 0;
    if (p->tangential == MB_IMPACT_TANGENTIAL_LINEAR)
        return p->kt > 0.0 && isfinite(p->kt);
    return (p->tangential == MB_IMPACT_TANGENTIAL_MINDLIN
            || p->tangential == MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL)
           && p->gstar > 0.0 && isfinite(p->gstar);
}

static void pack(const mb_impact_state *s, double *y)
{
    for (int b = 0; b < 2; b++) {
        y[5 * b + 0] = s->x[b][0]; y[5 * b + 1] = s->x[b][1];
        y[5 * b + 2] = s->v[b][0]; y[5 * b + 3] = s->v[b][1];
        y[5 * b + 4] = s->w[b];
    }
    y[IT] = 0.0;
}

static void unpack(const double *y, double t, mb_impact_state *s)
{
    s->t = t;
    for (int b = 0; b < 2; b++) {
        s->x[b][0] = y[5 * b + 0]; s->x[b][1] = y[5 * b + 1];
        s->v[b][0] = y[5 * b + 2]; s->v[b][1] = y[5 * b + 3];
        s->w[b] = y[5 * b + 4];
    }
}

void mb_impact_contact(const mb_impact_params *p, const mb_impact_state *s, double *delta,
                       double *rate, double *slip)
{
    double y[DIM];
    struct contact c;
    pack(s, y);
    geometry(p, y, &c);
    *delta = c.delta;
    *rate = c.rate;
    *slip = c.ut;
}

/* scales of the state numbers (absolute tolerance tol x scale) and the contact time */
static double scales(const mb_impact_params *p, const mb_impact_state *s, double *scale)
{
    double L = p->plane ? p->radius[0] : fmin(p->radius[0], p->radius[1]);
    double V = 0.0;
    for (int b = 0; b < 2; b++)
        V = fmax(V, fmax(hypot(s->v[b][0], s->v[b][1]), fabs(s->w[b]) * p->radius[b]));
    V = V > 0.0 ? V : 1.0;
    double m = reduced(p->mass[0], p->mass[1], p->plane);
    double tc = p->normal == MB_IMPACT_NORMAL_LINEAR
                    ? M_PI * sqrt(m / p->kn)
                    : mb_closed_hertz_duration(m, reduced(p->radius[0], p->radius[1], p->plane),
                                               p->estar, V);
    for (int b = 0; b < 2; b++) {
        scale[5 * b + 0] = scale[5 * b + 1] = L;
        scale[5 * b + 2] = scale[5 * b + 3] = V;
        scale[5 * b + 4] = V / L;
    }
    scale[IT] = m * V / tc;
    return tc;
}

/* one controlled step, then the earliest event it crossed, located and applied */
static int step_and_locate(struct solver *S, double *t, double t_stop, double *h, double *y,
                           mb_impact_events *ev)
{
    S->t0 = *t;
    memcpy(S->y0, y, sizeof S->y0);
    if (gsl_odeiv2_evolve_apply(S->stepper->e, S->stepper->c, S->stepper->s, &S->sys, t, t_stop,
                                h, y) != GSL_SUCCESS)
        MB_ERROR(MB_EFAILED, "impact reference: rk8pd step failed at t = %.17g", *t);
    double g[2];
    int ng = events(&S->x, y, g), which = -1;
    double te = *t;
    for (int k = 0; k < ng; k++) {
        if (!(g[k] < 0.0))
            continue;
        double tk = *t;
        int st = locate(S, k, *t, &tk);
        if (st != MB_SUCCESS)
            return st;
        if (which < 0 || tk < te) {
            which = k;
            te = tk;
        }
    }
    if (which < 0)
        return MB_SUCCESS;
    if (advance(S, te, y) != MB_SUCCESS)
        MB_ERROR(MB_EFAILED, "impact reference: integration to the event failed");
    *t = te;
    gsl_odeiv2_evolve_reset(S->stepper->e);
    gsl_odeiv2_step_reset(S->stepper->s);
    return transition(&S->x, which, te, y, ev);
}

int mb_impact_reference(const mb_impact_params *p, const mb_impact_state *s0, double t_end,
                        double tol, mb_impact_state *out, mb_impact_events *ev)
{
    if (!params_ok(p))
        MB_ERROR(MB_EDOM, "impact reference: masses, radii, inertias, stiffnesses must be positive "
                          "and finite, c_n and mu non-negative");
    if (!(tol >= 1e-15 && tol <= 1e-6) || !(t_end >= s0->t) || !isfinite(t_end))
        MB_ERROR(MB_EDOM, "impact reference: tol in [1e-15, 1e-6] and t_end >= t0 needed");
    double y[DIM], scale[DIM];
    pack(s0, y);
    struct solver S = { .x = { p, FREE_APART, 1.0 } };
    struct contact c;
    geometry(p, y, &c);
    if (c.delta > 0.0)
        MB_ERROR(MB_EDOM, "impact reference: the bodies overlap at the start");
    double tc = scales(p, s0, scale), hmax = tc / 32.0, h = hmax;
    mb_init();
    S.sys = (gsl_odeiv2_system){ rhs, NULL, DIM, &S.x };
    S.stepper = gsl_odeiv2_driver_alloc_scaled_new(&S.sys, gsl_odeiv2_step_rk8pd, h, tol, tol,
                                                   1.0, 0.0, scale);
    S.trial = gsl_odeiv2_driver_alloc_scaled_new(&S.sys, gsl_odeiv2_step_rk8pd, h, tol, tol, 1.0,
                                                 0.0, scale);
    if (ev)
        ev->count = 0;
    int st = S.stepper && S.trial ? MB_SUCCESS : MB_ENOMEM;
    double t = s0->t;
    while (st == MB_SUCCESS && t < t_end) {
        h = fmin(h, hmax);
        st = step_and_locate(&S, &t, fmin(t_end, t + hmax), &h, y, ev);
    }
    gsl_odeiv2_driver_free(S.stepper);
    gsl_odeiv2_driver_free(S.trial);
    if (st == MB_ENOMEM)
        MB_ERROR(MB_ENOMEM, "impact reference: out of memory");
    if (st != MB_SUCCESS)
        return st;
    unpack(y, t, out);
    return MB_SUCCESS;
}
