/* pendulum_link.c -- a mathematical pendulum made of a rigid link (solfec scheme):
 * a ball of mass m on a massless link of length l to the pivot at the origin, in the
 * x-z plane, released from rest at angle theta0 from the downward vertical.
 * Closed form (closed_pendulum.c): sin(theta/2) = k sn(K - w0 t | k^2), k = sin(theta0/2),
 * w0 = sqrt(g/l); period T = 4 sqrt(l/g) K(k).  Position x = l sin(theta), z = -l cos(theta).
 * The link acts on the ball's centre, so the ball does not spin. */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_solfec_problem.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "1.37", 1e-100, 1e100, NULL, "ball mass (kg)" },
    { "length", MB_OPT_DOUBLE, "0.843", 1e-6, 1e6, NULL, "link length l (m)" },
    { "theta0", MB_OPT_DOUBLE, "1.1", -3.1, 3.1, NULL, "release angle from the downward vertical (rad)" },
    { "g", MB_OPT_DOUBLE, "9.81", 1e-6, 1e6, NULL, "gravitational acceleration (m/s^2)" },
    MB_OPTION_END
};

static double rd(const mb_options *p, const char *k) { return mb_options_double(p, k); }

/* The scene of doc/scenes.md, "Problems that are scenes": a ball (a sphere of radius
 * l/10 with the moments 2/5 m (l/10)^2 given as `inertia`), gravity, a rigid link from
 * its centre to an anchor at the origin and no contact law that ever acts (one body, no
 * obstacle), built by the scene path. */
static int setup(const mb_options *p, mb_system **out)
{
    double m = rd(p, "mass"), l = rd(p, "length"), th = rd(p, "theta0"), I = 0.4 * m * 0.01 * l * l;
    mb_scene_body ball = { .type = MB_SCENE_SPHERE, .extent = { 0.1 * l, 0.1 * l, 0.1 * l } };
    mb_scene_pose pose;
    mb_scene *s;
    double gv[3] = { 0, 0, -rd(p, "g") }, pivot[3] = { 0, 0, 0 };
    mb_scene_pose_init(&pose);
    pose.mass = m;
    mb_v3_set(pose.inertia, I, I, I);
    mb_v3_set(pose.x, l * sin(th), 0.0, -l * cos(th));
    int st = mb_scene_place_solfec_body(&ball, &pose, gv, 0.0, 0.0, out, &s);
    if (st == MB_SUCCESS
        && (st = mb_scene_rigid_link(s, (*out)->nodes, 0, MB_CON_GROUND, pose.x, pivot)) != MB_SUCCESS) {
        mb_system_free(*out);
        *out = NULL;
    }
    return st;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double l = rd(p, "length"), th, thd;
    int st = mb_closed_pendulum(l, rd(p, "g"), rd(p, "theta0"), t, &th, &thd);
    if (st != MB_SUCCESS)
        return st;
    for (int k = 0; k < 3; k++)
        out->omega[k] = out->angmom[k] = 0.0;
    mb_v3_set(out->x, l * sin(th), 0.0, -l * cos(th));
    mb_v3_set(out->v, l * cos(th) * thd, 0.0, l * sin(th) * thd);
    mb_q_identity(out->q);
    return MB_SUCCESS;
}

/* period from upward zero crossings of x (linear interpolation), link length error */
typedef struct obs {
    const mb_system *sys;
    double l, T_exact, x_prev, t_prev, first, last, viol;
    int crossings;
} obs;

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    obs *o = calloc(1, sizeof *o);
    if (o == NULL)
        return MB_ENOMEM;
    o->sys = sys;
    o->l = rd(p, "length");
    int st = mb_closed_pendulum_period(o->l, rd(p, "g"), rd(p, "theta0"), &o->T_exact);
    if (st != MB_SUCCESS) {
        free(o);
        return st;
    }
    o->x_prev = NAN;
    *ctx = o;
    return MB_SUCCESS;
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on)
{
    obs *o = ctx;
    double x = on->x[0], t = sys->t;
    o->viol = fmax(o->viol, fabs(mb_v3_norm(on->x) - o->l));
    if (o->x_prev < 0.0 && x >= 0.0) {
        double tc = o->t_prev + (t - o->t_prev) * (-o->x_prev) / (x - o->x_prev);
        if (o->crossings == 0)
            o->first = tc;
        o->last = tc;
        o->crossings++;
    }
    o->x_prev = x;
    o->t_prev = t;
    return MB_SUCCESS;
}

static int observe_end(void *ctx, mb_observation *out)
{
    obs *o = ctx;
    out->count = 0;
    if (o->crossings >= 2) {
        double T = (o->last - o->first) / (o->crossings - 1);
        mb_observation_add(out, "pendulum.period", T);
        mb_observation_add(out, "pendulum.period_exact", o->T_exact);
        mb_observation_add(out, "pendulum.period_error", fabs(T - o->T_exact) / o->T_exact);
    }
    mb_observation_add(out, "constraint.violation_max", o->viol);
    mb_solfec_observe_solver(o->sys, out);
    free(o);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_pendulum_link = {
    .name = "pendulum-link",
    .summary = "mathematical pendulum on a rigid link constraint (solfec scheme only)",
    .params = params,
    .setup = setup,
    .flags = MB_PROBLEM_CONSTRAINED,
    .exact = exact,
    .exact_doc = "sin(theta/2) = k sn(K - sqrt(g/l) t | k^2), k = sin(theta0/2); T = 4 sqrt(l/g) K(k)",
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
};
