/* closed_spinup.c -- spin-up of a rigid body about a fixed principal axis under a
 * constant torque along that axis.
 *
 * With n the (global, unit) principal axis, I the moment about it, tau the torque and
 * w0 the initial spin about n, the axis stays fixed and
 *   w(t) = w0 + (tau/I) t,   angle(t) = w0 t + tau t^2 / (2 I),
 *   q(t) = Quaternion(angle(t) n) (x) q0,   L = I w(t) n.
 * (Euler's equations reduce to I w' = tau because omega stays parallel to a principal
 * axis; it is the caller's duty that n is one.) */
#include "mb_closed.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>

int mb_closed_spinup(double inertia, double torque, double omega0, const double axis[3],
                     const double q0[4], double t, mb_closed_rigid *out)
{
    double len = mb_v3_norm(axis);
    if (!(inertia > 0.0) || !isfinite(inertia))
        MB_ERROR(MB_EDOM, "spin-up: moment of inertia must be finite and > 0 (got %g)", inertia);
    if (!(len > 0.0) || !isfinite(len))
        MB_ERROR(MB_EDOM, "spin-up: the axis must be a non-zero finite vector");
    double n[3], th[3], dq[4];
    mb_v3_scale(n, 1.0 / len, axis);
    double w = omega0 + torque / inertia * t;
    double angle = omega0 * t + 0.5 * torque / inertia * t * t;
    mb_v3_scale(th, angle, n);
    mb_q_from_rotvec(dq, th);
    mb_q_mul(out->q, dq, q0);
    mb_v3_scale(out->omega, w, n);
    mb_v3_scale(out->angmom, inertia * w, n);
    mb_q_rotate_inv(out->omega_body, out->q, out->omega);
    return MB_SUCCESS;
}
