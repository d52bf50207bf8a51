/* closed_symtop.c -- symmetric tops (principal moments I_perp, I_perp, I_axial; the
 * symmetry axis is body axis 3) free of torque and under a constant axial body torque.
 *
 * Torque-free: L is constant in space and L3 = L.e3 = I_axial W3 is constant.  With
 * omega = L / I_perp + nu e3, nu = (1/I_axial - 1/I_perp) L3 (omega = R I^-1 R^T L), the
 * orientation is the product of a rotation about L at rate |L|/I_perp and a body rotation
 * about e3 at rate nu:
 *   R(t) = exp([L] t / I_perp) R0 exp([e3] nu t)   i.e.
 *   q(t) = Quaternion(L t / I_perp) (x) q0 (x) Quaternion(nu t e3)
 * (R' = [L/I_perp + nu R e3] R = [omega] R).  In the body the transverse angular velocity
 * turns about e3 at lambda = -nu = (I_axial - I_perp) W3 / I_perp.
 *
 * Constant body torque tau about e3: Euler's equations give I_axial W3' = tau and
 * W1' = -lambda(t) W2, W2' = lambda(t) W1 with lambda(t) = (I_axial - I_perp) W3(t)/I_perp,
 * so W3(t) = W3(0) + tau t / I_axial and (W1, W2) turns by
 *   phi(t) = (I_axial - I_perp)/I_perp (W3(0) t + tau t^2 / (2 I_axial)).
 * The orientation is elementary only for a pure axial spin (W1 = W2 = 0):
 *   q(t) = q0 (x) Quaternion(angle(t) e3),  angle(t) = W3(0) t + tau t^2 / (2 I_axial). */
#include "mb_closed.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>

static int check_moments(double i_perp, double i_axial)
{
    if (!(i_perp > 0.0) || !(i_axial > 0.0) || !isfinite(i_perp) || !isfinite(i_axial))
        MB_ERROR(MB_EDOM, "symmetric top: moments must be finite and > 0 (got %g, %g)",
                 i_perp, i_axial);
    return MB_SUCCESS;
}

/* r = rotation of a about e3 by angle */
static void rot_z(double r[3], double angle, const double a[3])
{
    double c = cos(angle), s = sin(angle);
    double x = c * a[0] - s * a[1], y = s * a[0] + c * a[1];
    r[0] = x; r[1] = y; r[2] = a[2];
}

int mb_closed_symtop_free(double i_perp, double i_axial, const double q0[4],
                          const double omega0[3], double t, mb_closed_rigid *out)
{
    int st = check_moments(i_perp, i_axial);
    if (st != MB_SUCCESS)
        return st;
    double wb0[3], Lb0[3], L[3], th[3], qa[4], qb[4], tmp[4];
    mb_q_rotate_inv(wb0, q0, omega0);
    Lb0[0] = i_perp * wb0[0];
    Lb0[1] = i_perp * wb0[1];
    Lb0[2] = i_axial * wb0[2];
    mb_q_rotate(L, q0, Lb0);
    double nu = (1.0 / i_axial - 1.0 / i_perp) * Lb0[2];
    mb_v3_scale(th, t / i_perp, L);
    mb_q_from_rotvec(qa, th);
    mb_v3_set(th, 0.0, 0.0, nu * t);
    mb_q_from_rotvec(qb, th);
    mb_q_mul(tmp, qa, q0);
    mb_q_mul(out->q, tmp, qb);
    /* body: L~(t) = Rz(-nu t) L~(0), omega~ = I^-1 L~ */
    double Lb[3];
    rot_z(Lb, -nu * t, Lb0);
    out->omega_body[0] = Lb[0] / i_perp;
    out->omega_body[1] = Lb[1] / i_perp;
    out->omega_body[2] = Lb[2] / i_axial;
    mb_q_rotate(out->omega, out->q, out->omega_body);
    mb_v3_copy(out->angmom, L);
    return MB_SUCCESS;
}

int mb_closed_symtop_axial_torque_body(double i_perp, double i_axial, double torque,
                                       const double omega0_body[3], double t,
                                       double omega_body[3])
{
    int st = check_moments(i_perp, i_axial);
    if (st != MB_SUCCESS)
        return st;
    double phi = (i_axial - i_perp) / i_perp
                 * (omega0_body[2] * t + 0.5 * torque / i_axial * t * t);
    rot_z(omega_body, phi, omega0_body);
    omega_body[2] = omega0_body[2] + torque / i_axial * t;
    return MB_SUCCESS;
}

int mb_closed_symtop_axial_torque(double i_perp, double i_axial, double torque,
                                  const double q0[4], double omega0_axial, double t,
                                  mb_closed_rigid *out)
{
    int st = check_moments(i_perp, i_axial);
    if (st != MB_SUCCESS)
        return st;
    double angle = omega0_axial * t + 0.5 * torque / i_axial * t * t;
    double th[3] = { 0.0, 0.0, angle }, dq[4];
    mb_q_from_rotvec(dq, th);
    mb_q_mul(out->q, q0, dq);
    mb_v3_set(out->omega_body, 0.0, 0.0, omega0_axial + torque / i_axial * t);
    mb_q_rotate(out->omega, out->q, out->omega_body);
    mb_v3_scale(out->angmom, i_axial, out->omega);
    return MB_SUCCESS;
}
