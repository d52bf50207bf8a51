/* spin_up.c -- a sphere (I = 2/5 m r^2, all moments equal) spun up by a constant global
 * torque T from an initial spin w0 along T/|T|.  The axis n = T/|T| never changes, so
 *   w(t) = (w0 + |T| t / I) n,   q(t) = Quaternion((w0 t + |T| t^2 / (2 I)) n),
 *   L(t) = I w(t),  and the torque's external work is I (w(t)^2 - w0^2) / 2. */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_rigid_setup.h"
#include "mb_scene_place.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "1.3", 1e-300, 1e300, NULL, "mass m (kg), > 0" },
    { "radius", MB_OPT_DOUBLE, "0.25", 1e-100, 1e100, NULL, "sphere radius r (m); I = 2/5 m r^2" },
    { "tx", MB_OPT_DOUBLE, "0.03", -1e12, 1e12, NULL, "torque x component (N m)" },
    { "ty", MB_OPT_DOUBLE, "-0.02", -1e12, 1e12, NULL, "torque y component (N m)" },
    { "tz", MB_OPT_DOUBLE, "0.07", -1e12, 1e12, NULL, "torque z component (N m); |T| > 0" },
    { "omega0", MB_OPT_DOUBLE, "1.1", -1e12, 1e12, NULL, "initial spin along T/|T| (rad/s)" },
    MB_OPTION_END
};

struct spin { double I, Tn, n[3], w0; };

static int spin_params(const mb_options *p, struct spin *s)
{
    double T[3] = { mb_options_double(p, "tx"), mb_options_double(p, "ty"), mb_options_double(p, "tz") };
    double m = mb_options_double(p, "mass"), r = mb_options_double(p, "radius");
    s->Tn = mb_v3_norm(T);
    if (!(s->Tn > 0.0))
        MB_ERROR(MB_EDOM, "problem 'spin-up': the torque (tx, ty, tz) must not be zero");
    mb_v3_scale(s->n, 1.0 / s->Tn, T);
    s->I = 0.4 * m * r * r;
    if (!(isfinite(s->I) && s->I > 0.0))
        MB_ERROR(MB_EDOM, "problem 'spin-up': I = 2/5 mass radius^2 = %g from mass = %g, radius = %g "
                          "is not a finite positive double", s->I, m, r);
    s->w0 = mb_options_double(p, "omega0");
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    struct spin s;
    int st = spin_params(p, &s);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_pose body;                 /* [body] type = sphere, inertia, angular_velocity */
    mb_scene_pose_init(&body);
    body.mass = mb_options_double(p, "mass");
    body.radius = mb_options_double(p, "radius");
    mb_v3_set(body.inertia, s.I, s.I, s.I);
    body.spin_form = MB_SPIN_OMEGA;
    mb_v3_scale(body.spin, s.w0, s.n);
    mb_scene_place_body(sys->nodes, 0, &body);
    double T[3];
    mb_v3_scale(T, s.Tn, s.n);
    st = mb_scene_add_torque(sys, 0, T, 0);       /* [force] type = torque (global frame) */
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    struct spin s;
    int st = spin_params(p, &s);
    if (st != MB_SUCCESS)
        return st;
    /* the sphere starts at the identity: mb_closed_spinup (closed_spinup.c) */
    double I[3] = { s.I, s.I, s.I }, q0[4];
    mb_closed_rigid r;
    mb_q_identity(q0);
    st = mb_closed_spinup(s.I, s.Tn, s.w0, s.n, q0, t, &r);
    if (st != MB_SUCCESS)
        return st;
    mb_rigid_write_state(out, I, r.q, r.omega_body);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_spin_up = {
    .name = "spin-up",
    .summary = "sphere spun up by a constant global torque",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "w = (w0 + |T| t/I) n, q = Quaternion((w0 t + |T| t^2/(2I)) n), n = T/|T|, I = 2/5 m r^2",
};
