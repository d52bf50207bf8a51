/* symmetric_top.c -- a torque-free symmetric body (I1 = I2 transverse, I3 axial).
 * Euler's equations with I1 = I2 give w3~ = const and
 *   w1~' = -W w2~,  w2~' = W w1~,   W = (I3 - I1) w3~ / I1,
 * so the transverse body angular velocity rotates about the symmetry axis at rate +W
 * (the often quoted (I1 - I3)/I1 w3 is the same rotation seen with the opposite sign
 * convention).  Orientation: with the constant global L = R(q0) I w~(0),
 *   R(t) = Rot(L/|L|, |L| t / I1) R(q0) Rot(e3, -W t),
 * i.e. q(t) = Quaternion(L t / I1) (x) q0 (x) Quaternion(-W t e3): a steady precession
 * of the body about L at |L|/I1 while it spins back about its own axis at -W.
 * Check: body w~ = R^T L / I1 - W e3 = (w1~, w2~, (I3/I1) w3~ - W) = (w1~, w2~, w3~).
 * The global angular velocity is w = R I^-1 R^T L. */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_rigid_setup.h"
#include "mb_scene_place.h"
#include "mb_status.h"
#include "mb_vec.h"

static const mb_option_spec params[] = {
    { "I1", MB_OPT_DOUBLE, "1.7", 1e-100, 1e100, NULL, "transverse principal moment I1 = I2 (kg m^2)" },
    { "I3", MB_OPT_DOUBLE, "3.1", 1e-100, 1e100, NULL, "axial principal moment (kg m^2)" },
    { "w1", MB_OPT_DOUBLE, "0.6", -1e6, 1e6, NULL, "initial body angular velocity about axis 1 (rad/s)" },
    { "w2", MB_OPT_DOUBLE, "-0.35", -1e6, 1e6, NULL, "initial body angular velocity about axis 2 (rad/s)" },
    { "w3", MB_OPT_DOUBLE, "2.385", -1e6, 1e6, NULL, "initial body angular velocity about the symmetry axis (rad/s)" },
    MB_RIGID_ORIENTATION_PARAMS,
    MB_OPTION_END
};

static void moments(const mb_options *p, double I[3])
{
    I[0] = I[1] = mb_options_double(p, "I1");
    I[2] = mb_options_double(p, "I3");
}

static int setup(const mb_options *p, mb_system **out)
{
    mb_scene_pose body;                 /* [body]: inertia, axis + angle, angular_velocity_body */
    mb_scene_pose_init(&body);
    moments(p, body.inertia);
    body.spin_form = MB_SPIN_OMEGA_BODY;
    mb_v3_set(body.spin, mb_options_double(p, "w1"), mb_options_double(p, "w2"), mb_options_double(p, "w3"));
    int st = mb_rigid_orientation(p, body.q);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_place_body(sys->nodes, 0, &body);
    *out = sys;
    return MB_SUCCESS;
}

/* q(t), body angular velocity from mb_closed_symtop_free (closed_symtop.c), which takes
 * the initial angular velocity in the global frame */
static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double I[3], q0[4] = { 1, 0, 0, 0 }, wb0[3] = { mb_options_double(p, "w1"), mb_options_double(p, "w2"),
                                   mb_options_double(p, "w3") }, w0[3];
    moments(p, I);
    int st = mb_rigid_orientation(p, q0);
    if (st != MB_SUCCESS)
        return st;
    mb_q_rotate(w0, q0, wb0);
    mb_closed_rigid r;
    st = mb_closed_symtop_free(I[0], I[2], q0, w0, t, &r);
    if (st != MB_SUCCESS)
        return st;
    mb_rigid_write_state(out, I, r.q, r.omega_body);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_symmetric_top = {
    .name = "symmetric-top",
    .summary = "torque-free symmetric body (I1 = I2, I3)",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "w~_perp rotates at W = (I3-I1) w3/I1; q = Quaternion(L t/I1) q0 Quaternion(-W t e3)",
};
