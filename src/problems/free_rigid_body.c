/* free_rigid_body.c -- a torque-free asymmetric rigid body, principal moments
 * I1 < I2 < I3, Euler's equations  I1 w1' = (I2 - I3) w2 w3  (and cyclic), body frame.
 * Invariants: global angular momentum L = R I w~ (vector) and energy 1/2 w~ . I w~.
 * No closed form here (the Jacobi-elliptic solution is provided elsewhere); references
 * come from the ODE/MPFR engines integrating Euler's equations with the kinematics. */
#include "mb_problem.h"
#include "mb_rigid_setup.h"
#include "mb_status.h"

static const mb_option_spec params[] = {
    { "I1", MB_OPT_DOUBLE, "1.3", 1e-100, 1e100, NULL, "smallest principal moment (kg m^2)" },
    { "I2", MB_OPT_DOUBLE, "2.385", 1e-100, 1e100, NULL, "intermediate principal moment, I1 < I2 < I3" },
    { "I3", MB_OPT_DOUBLE, "3.7", 1e-100, 1e100, NULL, "largest principal moment (kg m^2)" },
    { "w1", MB_OPT_DOUBLE, "0.9", -1e6, 1e6, NULL, "initial body angular velocity about axis 1 (rad/s)" },
    { "w2", MB_OPT_DOUBLE, "0.35", -1e6, 1e6, NULL, "initial body angular velocity about axis 2 (rad/s)" },
    { "w3", MB_OPT_DOUBLE, "-0.6", -1e6, 1e6, NULL, "initial body angular velocity about axis 3 (rad/s)" },
    MB_RIGID_ORIENTATION_PARAMS,
    MB_OPTION_END
};

static int setup(const mb_options *p, mb_system **out)
{
    double I[3] = { mb_options_double(p, "I1"), mb_options_double(p, "I2"), mb_options_double(p, "I3") };
    if (!(I[0] < I[1] && I[1] < I[2]))
        MB_ERROR(MB_EDOM, "problem 'free-rigid-body': need I1 < I2 < I3 (got %g, %g, %g); "
                          "use symmetric-top for equal moments", I[0], I[1], I[2]);
    double q[4] = { 1, 0, 0, 0 }, wb[3] = { mb_options_double(p, "w1"), mb_options_double(p, "w2"),
                           mb_options_double(p, "w3") };
    int st = mb_rigid_orientation(p, q);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_rigid_set_spin(sys->nodes, 0, I, q, wb);
    *out = sys;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_free_rigid_body = {
    .name = "free-rigid-body",
    .summary = "torque-free asymmetric rigid body (I1 < I2 < I3)",
    .params = params,
    .setup = setup,
    .exact = NULL,
    .exact_doc = "none here: Euler's equations; invariants |L| and energy",
};
