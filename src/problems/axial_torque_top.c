/* axial_torque_top.c -- a symmetric body (I1 = I2, I3) under a constant torque tau fixed
 * in the body along its symmetry axis e3 (global torque tau R(q) e3).
 * Euler's equations in the body frame:
 *   I3 w3~' = tau                      ->  w3~(t) = w3 + tau t / I3
 *   w1~' = -k w3~ w2~,  w2~' = k w3~ w1~, k = (I3 - I1) / I1
 *   ->  (w1~, w2~)(t) = Rot(phi(t)) (w1, w2),  phi(t) = k (w3 t + tau t^2 / (2 I3)),
 * a transverse rotation with a quadratic phase.  The body angular velocity is thus in
 * closed form.  The orientation is not elementary (the symmetry axis n and L_perp form a
 * frame turning at (L.n / I1) n + (|L_perp| / I1) m with L.n growing linearly: a
 * Landau-Zener-type linear system whose solution needs parabolic cylinder functions),
 * so exact() obtains q(t) from the closed-form w~(t) by integrating the linear kinematic
 * equation q' = 1/2 q (x) (0, w~(t)) with GSL rk8pd at absolute tolerance 1e-14 (error
 * of order 1e-13 over the default horizons; independent of every scheme under test).
 * The torque's external work is tau (w3 t + tau t^2 / (2 I3)) = I3 (w3~(t)^2 - w3^2) / 2. */
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_rigid_setup.h"
#include "mb_scene_place.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

static const mb_option_spec params[] = {
    { "I1", MB_OPT_DOUBLE, "1.7", 1e-100, 1e100, NULL, "transverse principal moment I1 = I2 (kg m^2)" },
    { "I3", MB_OPT_DOUBLE, "3.1", 1e-100, 1e100, NULL, "axial principal moment (kg m^2)" },
    { "tau", MB_OPT_DOUBLE, "0.45", -1e6, 1e6, NULL, "torque about the body symmetry axis e3 (N m)" },
    { "w1", MB_OPT_DOUBLE, "0.6", -1e6, 1e6, NULL, "initial body angular velocity about axis 1 (rad/s)" },
    { "w2", MB_OPT_DOUBLE, "-0.35", -1e6, 1e6, NULL, "initial body angular velocity about axis 2 (rad/s)" },
    { "w3", MB_OPT_DOUBLE, "1.2", -1e6, 1e6, NULL, "initial body angular velocity about the symmetry axis (rad/s)" },
    MB_RIGID_ORIENTATION_PARAMS,
    MB_OPTION_END
};

/* rk8pd steps allowed for the orientation quadrature of exact() */
enum { QUADRATURE_MAX_STEPS = 100000 };

struct top { double I1, I3, tau, w0[3]; };

static void top_params(const mb_options *p, struct top *tp)
{
    tp->I1 = mb_options_double(p, "I1");
    tp->I3 = mb_options_double(p, "I3");
    tp->tau = mb_options_double(p, "tau");
    tp->w0[0] = mb_options_double(p, "w1");
    tp->w0[1] = mb_options_double(p, "w2");
    tp->w0[2] = mb_options_double(p, "w3");
}

/* body angular velocity at time t in closed form (mb_closed_symtop_axial_torque_body,
 * closed_symtop.c) */
static int top_body_omega(const struct top *tp, double t, double wb[3])
{
    return mb_closed_symtop_axial_torque_body(tp->I1, tp->I3, tp->tau, tp->w0, t, wb);
}

/* q' = 1/2 q (x) (0, w~(t)) */
static int kinematics(double t, const double q[], double dq[], void *vp)
{
    double wb[3], pure[4], r[4];
    if (top_body_omega(vp, t, wb) != MB_SUCCESS)
        return GSL_EBADFUNC;
    pure[0] = 0.0; pure[1] = wb[0]; pure[2] = wb[1]; pure[3] = wb[2];
    mb_q_mul(r, q, pure);
    for (int k = 0; k < 4; k++)
        dq[k] = 0.5 * r[k];
    return GSL_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    struct top tp;
    top_params(p, &tp);
    double Tb[3] = { 0.0, 0.0, tp.tau };
    mb_scene_pose body;                 /* [body]: inertia, axis + angle, angular_velocity_body */
    mb_scene_pose_init(&body);
    mb_v3_set(body.inertia, tp.I1, tp.I1, tp.I3);
    mb_v3_copy(body.spin, tp.w0);
    body.spin_form = MB_SPIN_OMEGA_BODY;
    int st = mb_rigid_orientation(p, body.q);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_place_body(sys->nodes, 0, &body);
    st = mb_scene_add_torque(sys, 0, Tb, 1);      /* [force] type = torque, frame = body */
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    struct top tp;
    top_params(p, &tp);
    double I[3] = { tp.I1, tp.I1, tp.I3 }, q[4] = { 1, 0, 0, 0 }, wb[3];
    int st = mb_rigid_orientation(p, q);
    if (st != MB_SUCCESS)
        return st;
    if (t != 0.0) {
        gsl_odeiv2_system sysq = { kinematics, NULL, 4, &tp };
        gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sysq, gsl_odeiv2_step_rk8pd,
                                                             t > 0 ? 1e-3 : -1e-3, 1e-14, 0.0);
        if (d == NULL)
            MB_ERROR(MB_ENOMEM, "out of memory");
        /* a bounded amount of work: the step follows the transverse spin phi'(t), and
         * parameters in range can make it turn 1e100 times; the cap (~0.1 s) refuses those */
        gsl_odeiv2_driver_set_nmax(d, QUADRATURE_MAX_STEPS);
        double t0 = 0.0;
        int gs = gsl_odeiv2_driver_apply(d, &t0, t, q);
        gsl_odeiv2_driver_free(d);
        if (gs != GSL_SUCCESS)
            MB_ERROR(MB_EDOM, "axial-torque-top: orientation quadrature failed at t = %g (%s; "
                              "at most %d steps)",
                     t0, gsl_strerror(gs), QUADRATURE_MAX_STEPS);
        mb_q_normalize(q);
    }
    st = top_body_omega(&tp, t, wb);
    if (st != MB_SUCCESS)
        return st;
    mb_rigid_write_state(out, I, q, wb);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_axial_torque_top = {
    .name = "axial-torque-top",
    .summary = "symmetric body under a constant body-frame torque about its symmetry axis",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "w3 = w30 + tau t/I3; w~_perp rotated by (I3-I1)/I1 (w30 t + tau t^2/(2 I3)); "
                 "q by rk8pd quadrature of q' = q (0, w~)/2",
};
