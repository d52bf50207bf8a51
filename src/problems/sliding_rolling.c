/* sliding_rolling.c -- a solid sphere thrown along a plane: it slides under Coulomb
 * friction until its contact point comes to rest, then rolls, slowed by a constant
 * rolling-resistance torque (doc/dem.md, "Sliding into rolling").
 *
 * The sphere (mass m, radius r, I = 2/5 m r^2) rests on the plane z = 0 at its static
 * overlap delta0 = m g/kn (so F_n = m g from the first step, no normal transient), with
 * speed v0 along +x and spin w0 about +y; the contact is the Cundall-Strack law
 * (mb_contact.h) with mu, kt_ratio, zeta_t and the rolling coefficient mu_r (torque
 * M = mu_r r m g, R* = r against a plane).  The closed form (mb_closed_rolling.h) uses the
 * law's contact arm a = r - delta0/2 and is exact for the model while it slides; from the
 * onset on it is the rigid rolling solution, which the model follows after the stick
 * transient of its tangential spring (amplitude mu g/w_t in speed, w_t^2 = k_t (1/m +
 * a^2/I), damped by zeta_t).  Observed: rolling.onset_time and rolling.onset_velocity
 * (the first zero of the slip speed s = v - a w, interpolated linearly between samples)
 * and, with rolling resistance, rolling.stop_distance (the distance travelled until the
 * speed first reaches 0, interpolated linearly between samples), each with its closed
 * form (_exact) and relative error (_error). */
#include "mb_closed_rolling.h"
#include "mb_contact.h"
#include "mb_contact_problem.h"
#include "mb_problem.h"
#include "mb_rigid_setup.h"
#include "mb_scene_place.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "1", 1e-9, 1e9, NULL, "sphere mass m (kg)" },
    { "radius", MB_OPT_DOUBLE, "0.1", 1e-6, 1e3, NULL, "sphere radius r (m); I = 2/5 m r^2" },
    { "v0", MB_OPT_DOUBLE, "2", 0.0, 1e3, NULL, "initial speed along +x (m/s), >= 0" },
    { "omega0", MB_OPT_DOUBLE, "0", 0.0, 1e5, NULL,
      "initial spin about +y (rad/s), >= 0 (v0/r rolls; below it the sphere slides forward, "
      "above it backward)" },
    { "g", MB_OPT_DOUBLE, "9.81", 1e-3, 1e3, NULL, "gravity along -z (m/s^2)" },
    { "mu", MB_OPT_DOUBLE, "0.3", 1e-6, 10.0, NULL, "Coulomb friction coefficient, > 0" },
    { "mu_roll", MB_OPT_DOUBLE, "0", 0.0, 1.0, NULL,
      "rolling-resistance coefficient mu_r (torque mu_r r m g), >= 0" },
    { "kn", MB_OPT_DOUBLE, "1e7", 1e-3, 1e15, NULL, "normal stiffness kn (N/m)" },
    { "zeta", MB_OPT_DOUBLE, "0.3", 0.0, 0.99, NULL, "normal damping ratio" },
    { "kt_ratio", MB_OPT_DOUBLE, "0.2857142857142857", 1e-6, 1.0, NULL,
      "tangential/normal stiffness kt/kn in (0, 1] (default 2/7)" },
    { "zeta_t", MB_OPT_DOUBLE, "0.3", 0.0, 0.99, NULL, "tangential damping ratio" },
    MB_OPTION_END
};

static double rd(const mb_options *p, const char *k) { return mb_options_double(p, k); }

/* the closed form's parameters: arm a = r - delta0/2, delta0 = m g/kn, M = mu_r r m g */
static void rolling_params(const mb_options *p, mb_rolling_params *q)
{
    double m = rd(p, "mass"), r = rd(p, "radius"), g = rd(p, "g");
    q->m = m;
    q->I = 0.4 * m * r * r;
    q->a = r - 0.5 * m * g / rd(p, "kn");
    q->g = g;
    q->mu = rd(p, "mu");
    q->M = rd(p, "mu_roll") * r * m * g;
    q->v0 = rd(p, "v0");
    q->w0 = rd(p, "omega0");
}

static int setup(const mb_options *p, mb_system **out)
{
    mb_rolling_params q;
    mb_rolling_events e;
    rolling_params(p, &q);
    int st = mb_closed_rolling_events(&q, &e);     /* refuse what the closed form cannot */
    if (st != MB_SUCCESS)
        return st;
    double m = q.m, r = rd(p, "radius"), kn = rd(p, "kn");
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    const double x[3] = { 0, 0, r - m * q.g / kn }, v[3] = { q.v0, 0, 0 };
    const double g[3] = { 0, 0, -q.g }, o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    mb_contact_place_sphere(sys, 0, m, r, x, v);
    sys->nodes->omega[1] = q.w0;
    sys->nodes->angmom[1] = q.I * q.w0;
    const mb_contact_linear_params lin = { .kn = kn, .dashpot = MB_DASHPOT_RATIO,
                                           .zeta = rd(p, "zeta") };
    const mb_contact_friction_params fr = { .mu = q.mu, .kt_ratio = rd(p, "kt_ratio"),
                                            .zeta_t = rd(p, "zeta_t"),
                                            .mu_roll = rd(p, "mu_roll") };
    void *law = mb_contact_cundall_strack_new(&lin, &fr);
    if ((st = mb_scene_add_gravity(sys, g)) != MB_SUCCESS
        || (st = mb_forces_add(sys->forces, mb_force_contact_cundall_strack, law)) != MB_SUCCESS
        || (st = mb_contact_add_plane(law, sys->nodes, 0, o, n)) != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    mb_rolling_params q;
    double x, v, th, w, I[3];
    rolling_params(p, &q);
    int st = mb_closed_rolling_state(&q, t, &x, &v, &th, &w);
    if (st != MB_SUCCESS)
        return st;
    const double qa[4] = { cos(0.5 * th), 0.0, sin(0.5 * th), 0.0 }, wb[3] = { 0.0, w, 0.0 };
    I[0] = I[1] = I[2] = q.I;
    mb_rigid_write_state(out, I, qa, wb);   /* about y: body and global spin agree */
    out->x[0] = x;
    out->x[2] = rd(p, "radius") - q.m * q.g / rd(p, "kn");
    out->v[0] = v;
    return MB_SUCCESS;
}

/* ---- observer ---- */

typedef struct obs {
    mb_rolling_params q;
    mb_rolling_events e;
    int started, rolled, stopped;
    double t, s, v, x;                     /* previous sample */
    double x0;                             /* initial position */
    double t_on, v_on, x_stop;
} obs;

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    (void)sys;
    obs *o = calloc(1, sizeof *o);
    if (o == NULL)
        return MB_ENOMEM;
    rolling_params(p, &o->q);
    int st = mb_closed_rolling_events(&o->q, &o->e);
    if (st != MB_SUCCESS) {
        free(o);
        return st;
    }
    *ctx = o;
    return MB_SUCCESS;
}

/* zero of the linear interpolant between (t0, f0) and (t1, f1), f0 f1 <= 0 */
static double crossing(double t0, double f0, double t1, double f1)
{
    return f0 == f1 ? t1 : t0 + (t1 - t0) * f0 / (f0 - f1);
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on)
{
    obs *o = ctx;
    double t = sys->t, v = on->v[0], x = on->x[0], s = v - o->q.a * on->omega[1];
    if (!o->started)
        o->x0 = x;
    if (o->started && !o->rolled && o->s != 0.0 && (s == 0.0 || (s > 0) != (o->s > 0))) {
        o->rolled = 1;
        o->t_on = crossing(o->t, o->s, t, s);
        o->v_on = o->v + (v - o->v) * (o->t_on - o->t) / (t - o->t);
    }
    /* the speed first reaches 0 (after the onset: rolling resistance brings it to rest) */
    if (o->rolled && !o->stopped && o->v > 0.0 && v <= 0.0) {
        o->stopped = 1;
        double ts = crossing(o->t, o->v, t, v);
        o->x_stop = o->x + (x - o->x) * (ts - o->t) / (t - o->t) - o->x0;
    }
    o->started = 1;
    o->t = t;
    o->s = s;
    o->v = v;
    o->x = x;
    return MB_SUCCESS;
}

static int observe_end(void *ctx, mb_observation *out)
{
    obs *o = ctx;
    out->count = 0;
    if (o->rolled) {
        mb_observation_add(out, "rolling.onset_time", o->t_on);
        mb_observation_add(out, "rolling.onset_time_exact", o->e.t_onset);
        mb_observation_add(out, "rolling.onset_time_error", o->t_on / o->e.t_onset - 1.0);
        mb_observation_add(out, "rolling.onset_velocity", o->v_on);
        mb_observation_add(out, "rolling.onset_velocity_exact", o->e.v_onset);
        mb_observation_add(out, "rolling.onset_velocity_error", o->v_on / o->e.v_onset - 1.0);
    }
    if (isfinite(o->e.x_stop))
        mb_observation_add(out, "rolling.stop_distance_exact", o->e.x_stop);
    if (o->stopped && isfinite(o->e.x_stop)) {
        mb_observation_add(out, "rolling.stop_distance", o->x_stop);
        mb_observation_add(out, "rolling.stop_distance_error", o->x_stop / o->e.x_stop - 1.0);
    }
    free(o);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_sliding_rolling = {
    .name = "sliding-rolling",
    .summary = "a sphere sliding on a plane until it rolls (Coulomb friction, Cundall-Strack "
               "law), then slowed by rolling resistance",
    .params = params,
    .setup = setup,
    .exact = exact,
    .flags = MB_PROBLEM_HISTORY,
    .exact_doc = "sliding: v = v0 - sigma mu g t, w = w0 + alpha t, "
                 "alpha = (sigma mu m g a - M)/I, "
                 "until s = v - a w = 0 at t* (2 v0/(7 mu g) for w0 = 0, M = 0, a = r); rolling: "
                 "v = v* - d (t - t*), d = M a/(I + m a^2), to rest at x* + v*^2/(2 d)",
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
    .not_a_scene = "it starts at the static overlap m g/kn, and a scene refuses a sphere that "
                   "overlaps a plane at t = 0 under a frictional law",
};
