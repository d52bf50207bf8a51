/* free_rigid_body.c -- a torque-free asymmetric rigid body, principal moments
 * I1 < I2 < I3, Euler's equations  I1 w1' = (I2 - I3) w2 w3  (and cyclic), body frame.
 * Invariants: global angular momentum L = R I w~ (vector) and energy 1/2 w~ . I w~.
 * Closed form: the Jacobi-elliptic solution of mb_closed_asymtop (closed_asymtop.c,
 * Landau & Lifshitz 37); the cases also use the ODE/MPFR engines on Euler's equations. */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_rigid_setup.h"
#include "mb_scene_place.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <string.h>

static const mb_option_spec params[] = {
    { "I1", MB_OPT_DOUBLE, "1.3", 1e-100, 1e100, NULL, "smallest principal moment (kg m^2)" },
    { "I2", MB_OPT_DOUBLE, "2.385", 1e-100, 1e100, NULL, "intermediate principal moment, I1 < I2 < I3" },
    { "I3", MB_OPT_DOUBLE, "3.7", 1e-100, 1e100, NULL, "largest principal moment (kg m^2)" },
    { "w1", MB_OPT_DOUBLE, "0.9", -1e6, 1e6, NULL, "initial body angular velocity (or momentum, see given) about axis 1" },
    { "w2", MB_OPT_DOUBLE, "0.35", -1e6, 1e6, NULL, "initial body angular velocity (or momentum) about axis 2" },
    { "w3", MB_OPT_DOUBLE, "-0.6", -1e6, 1e6, NULL, "initial body angular velocity (or momentum) about axis 3" },
    { "given", MB_OPT_CHOICE, "omega", 1, 0, "omega|momentum",
      "w1..w3 are the body angular velocity (rad/s) or the body angular momentum (kg m^2/s)" },
    MB_RIGID_ORIENTATION_PARAMS,
    MB_OPTION_END
};

/* the body as a scene body: inertia, axis + angle, angular_velocity_body or
 * angular_momentum_body */
static int initial_pose(const mb_options *p, mb_scene_pose *b)
{
    double *I = b->inertia;
    mb_scene_pose_init(b);
    mb_v3_set(I, mb_options_double(p, "I1"), mb_options_double(p, "I2"), mb_options_double(p, "I3"));
    if (!(I[0] < I[1] && I[1] < I[2]))
        MB_ERROR(MB_EDOM, "problem 'free-rigid-body': need I1 < I2 < I3 (got %g, %g, %g); "
                          "use symmetric-top for equal moments", I[0], I[1], I[2]);
    mb_v3_set(b->spin, mb_options_double(p, "w1"), mb_options_double(p, "w2"), mb_options_double(p, "w3"));
    b->spin_form = strcmp(mb_options_string(p, "given"), "momentum") ? MB_SPIN_OMEGA_BODY
                                                                      : MB_SPIN_MOMENTUM_BODY;
    return mb_rigid_orientation(p, b->q);
}

static int setup(const mb_options *p, mb_system **out)
{
    mb_scene_pose body;
    int st = initial_pose(p, &body);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_place_body(sys->nodes, 0, &body);
    *out = sys;
    return MB_SUCCESS;
}

/* q(t) and the body angular velocity from mb_closed_asymtop (closed_asymtop.c) */
static int exact(const mb_options *p, double t, mb_nodes *out)
{
    mb_scene_pose body;
    double wb0[3];
    mb_closed_rigid r;
    int st = initial_pose(p, &body);
    mb_scene_body_omega(&body, wb0);
    if (st == MB_SUCCESS)
        st = mb_closed_asymtop(body.inertia, body.q, wb0, t, &r);
    if (st != MB_SUCCESS)
        return st;
    mb_rigid_write_state(out, body.inertia, r.q, r.omega_body);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_free_rigid_body = {
    .name = "free-rigid-body",
    .summary = "torque-free asymmetric rigid body (I1 < I2 < I3)",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "Jacobi elliptic w~(t) (Landau & Lifshitz 37), q from L and the precession "
                 "angle (GSL elljac, quadrature)",
};
