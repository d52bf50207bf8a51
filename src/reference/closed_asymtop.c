/* closed_asymtop.c -- the torque-free asymmetric top (Euler-Poinsot) in closed form.
 *
 * Principal moments I1 < I2 < I3 (other orders are mapped to this one by a signed
 * permutation P with det P = +1, so the frame stays right-handed).  Euler's equations
 *   I1 w1' = (I2 - I3) w2 w3,  I2 w2' = (I3 - I1) w3 w1,  I3 w3' = (I1 - I2) w1 w2
 * conserve 2E = sum I_i w_i^2 and M^2 = sum I_i^2 w_i^2.  Written without cancellation:
 *   2 E I3 - M^2 = I1 (I3 - I1) w1^2 + I2 (I3 - I2) w2^2             (s13 >= 0)
 *   M^2 - 2 E I1 = I2 (I2 - I1) w2^2 + I3 (I3 - I1) w3^2             (s31 >= 0)
 *   M^2 - 2 E I2 = I3 (I3 - I2) w3^2 - I1 (I2 - I1) w1^2
 * Landau & Lifshitz, Mechanics, section 37 (u = lambda t + u0, m = k^2):
 *   M^2 > 2 E I2:  w1 = A1 cn u,  w2 = A2 sn u,  w3 = A3 dn u,
 *       A1^2 = s13 / (I1 (I3-I1)), A2^2 = s13 / (I2 (I3-I2)), A3^2 = s31 / (I3 (I3-I1)),
 *       lambda^2 = (I3-I2) s31 / (I1 I2 I3),  m = (I2-I1) s13 / ((I3-I2) s31);
 *   M^2 < 2 E I2:  w1 = A1 dn u,  w2 = A2 sn u,  w3 = A3 cn u, the same with 1 <-> 3:
 *       A2^2 = s31 / (I2 (I2-I1)),  lambda^2 = (I2-I1) s13 / (I1 I2 I3),
 *       m = (I3-I2) s31 / ((I2-I1) s13).
 * Signs: substituting into Euler's equations gives I2 A2 lambda = (I3 - I1) A1 A3, so with
 * lambda > 0 and the amplitude of the cn factor taken positive (cn(u + 2K) = -cn u absorbs
 * the sign), the dn amplitude carries sign(w_dn(0)) and A2 the same sign.  The phase u0 is
 * F(phi0 | k) with sn u0 = sin phi0, cn u0 = cos phi0 (gsl_sf_ellint_F, modulus k).
 * gsl_sf_elljac_e takes the PARAMETER m = k^2; gsl_sf_ellint_Kcomp/F take the MODULUS k.
 * The body angular velocity has period 4 K / lambda (one full flip cycle).
 *
 * Orientation (L&L eqs. 37.13-37.14): in a frame whose z axis is L, the z-x-z Euler angles
 * of the body satisfy L_body = M (sin th sin psi, sin th cos psi, cos th), so theta and psi
 * follow algebraically from L_body(t) = I w(t), and the precession angle obeys
 *   phi' = M (I1 w1^2 + I2 w2^2) / (I1^2 w1^2 + I2^2 w2^2),
 * a 2K/lambda-periodic function of time.  phi(t) = phi0 + (1/lambda) int g(u) du is
 * evaluated as whole periods times one period integral plus a remainder, each by adaptive
 * Gauss-Kronrod quadrature (gsl_integration_qag, 61 points, relative tolerance 1e-13) -- a quadrature of the closed
 * form, in place of L&L's theta-function expression.  q = qL (x) qz(phi) (x) qx(theta) (x) qz(psi)
 * with qL taking global z to L/|L|. */
#include "mb_init.h"
#include "mb_closed.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_sf_elljac.h>
#include <math.h>
#include <string.h>

/* Shepperd's method: unit quaternion of a rotation matrix (row-major, a = R a~). */
static void quat_from_mat(double q[4], const double R[9])
{
    double tr = R[0] + R[4] + R[8], s;
    if (tr > 0.0) {
        s = 2.0 * sqrt(tr + 1.0);
        q[0] = 0.25 * s; q[1] = (R[7] - R[5]) / s; q[2] = (R[2] - R[6]) / s; q[3] = (R[3] - R[1]) / s;
    } else if (R[0] > R[4] && R[0] > R[8]) {
        s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / s; q[1] = 0.25 * s; q[2] = (R[1] + R[3]) / s; q[3] = (R[2] + R[6]) / s;
    } else if (R[4] > R[8]) {
        s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
        q[0] = (R[2] - R[6]) / s; q[1] = (R[1] + R[3]) / s; q[2] = 0.25 * s; q[3] = (R[5] + R[7]) / s;
    } else {
        s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
        q[0] = (R[3] - R[1]) / s; q[1] = (R[2] + R[6]) / s; q[2] = (R[5] + R[7]) / s; q[3] = 0.25 * s;
    }
}

static void q_conj(double r[4], const double q[4]) { r[0] = q[0]; r[1] = -q[1]; r[2] = -q[2]; r[3] = -q[3]; }

static void q_axis(double q[4], int axis, double angle)
{
    q[0] = cos(0.5 * angle);
    q[1] = q[2] = q[3] = 0.0;
    q[1 + axis] = sin(0.5 * angle);
}

/* Signed permutation P (det +1) with sorted = P body, moments sorted ascending. */
static void sort_frame(mb_asymtop *top, const double inertia[3])
{
    int idx[3] = { 0, 1, 2 };
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (inertia[idx[b]] < inertia[idx[a]]) {
                int tmp = idx[a]; idx[a] = idx[b]; idx[b] = tmp;
            }
    memset(top->P, 0, sizeof top->P);
    for (int a = 0; a < 3; a++) {
        top->P[3 * a + idx[a]] = 1.0;
        top->I[a] = inertia[idx[a]];
    }
    /* parity of the permutation: flip the last row of an odd one */
    int inversions = (idx[0] > idx[1]) + (idx[0] > idx[2]) + (idx[1] > idx[2]);
    if (inversions % 2)
        top->P[6 + idx[2]] = -1.0;
    quat_from_mat(top->qp, top->P);
}

/* w (sorted frame) at parameter u */
static void omega_sorted_at(const mb_asymtop *top, double u, double w[3])
{
    double sn, cn, dn;
    if (isfinite(top->K) && top->K > 0.0)
        u = fmod(u, 4.0 * top->K);
    gsl_sf_elljac_e(u, top->m, &sn, &cn, &dn);
    if (top->kind > 0) {
        w[0] = top->A[0] * cn; w[1] = top->A[1] * sn; w[2] = top->A[2] * dn;
    } else {
        w[0] = top->A[0] * dn; w[1] = top->A[1] * sn; w[2] = top->A[2] * cn;
    }
}

/* phi'(u) = M (I1 w1^2 + I2 w2^2) / (I1^2 w1^2 + I2^2 w2^2) */
static double phi_rate(double u, void *params)
{
    const mb_asymtop *top = params;
    double w[3];
    omega_sorted_at(top, u, w);
    double a = top->I[0] * w[0] * w[0], b = top->I[1] * w[1] * w[1];
    return top->M * (a + b) / (top->I[0] * a + top->I[1] * b);
}

static int integrate_phi(const mb_asymtop *top, double u1, double u2, double *out)
{
    if (u1 == u2) {
        *out = 0.0;
        return MB_SUCCESS;
    }
    mb_init();
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(500);
    if (ws == NULL)
        MB_ERROR(MB_ENOMEM, "asymmetric top: out of memory");
    gsl_function f = { phi_rate, (void *)top };
    double err;
    /* epsrel 1e-13: qag refuses relative tolerances below 50 DBL_EPSILON with epsabs = 0 */
    *out = 0.0;
    err = GSL_POSINF;
    int st = gsl_integration_qag(&f, u1, u2, 0.0, 1e-13, 500, GSL_INTEG_GAUSS61, ws, out, &err);
    gsl_integration_workspace_free(ws);
    /* qag may stop on "round-off detected" once the estimate is at round-off level */
    if (st != GSL_SUCCESS && !(err <= 1e-12 * fabs(*out)))
        MB_ERROR(MB_EFAILED, "asymmetric top: precession quadrature failed (%s, error %g)",
                 gsl_strerror(st), err);
    return MB_SUCCESS;
}

static int init_elliptic(mb_asymtop *top)
{
    const double *I = top->I, *w = top->omega0_sorted;
    double s13 = I[0] * (I[2] - I[0]) * w[0] * w[0] + I[1] * (I[2] - I[1]) * w[1] * w[1];
    double s31 = I[1] * (I[1] - I[0]) * w[1] * w[1] + I[2] * (I[2] - I[0]) * w[2] * w[2];
    double d2 = I[2] * (I[2] - I[1]) * w[2] * w[2] - I[0] * (I[1] - I[0]) * w[0] * w[0];
    double phi0;
    if (d2 >= 0.0) {
        double sg = w[2] >= 0.0 ? 1.0 : -1.0;
        top->kind = 1;
        top->A[0] = sqrt(s13 / (I[0] * (I[2] - I[0])));
        top->A[1] = sg * sqrt(s13 / (I[1] * (I[2] - I[1])));
        top->A[2] = sg * sqrt(s31 / (I[2] * (I[2] - I[0])));
        top->lambda = sqrt((I[2] - I[1]) * s31 / (I[0] * I[1] * I[2]));
        top->m = (I[1] - I[0]) * s13 / ((I[2] - I[1]) * s31);
        phi0 = atan2(w[1] / top->A[1], w[0] / top->A[0]);
    } else {
        double sg = w[0] >= 0.0 ? 1.0 : -1.0;
        top->kind = -1;
        top->A[0] = sg * sqrt(s13 / (I[0] * (I[2] - I[0])));
        top->A[1] = sg * sqrt(s31 / (I[1] * (I[1] - I[0])));
        top->A[2] = sqrt(s31 / (I[2] * (I[2] - I[0])));
        top->lambda = sqrt((I[1] - I[0]) * s13 / (I[0] * I[1] * I[2]));
        top->m = (I[2] - I[1]) * s31 / ((I[1] - I[0]) * s13);
        phi0 = atan2(w[1] / top->A[1], w[2] / top->A[2]);
    }
    if (top->m > 1.0)   /* round-off at the separatrix */
        top->m = 1.0;
    double k = sqrt(top->m);
    top->K = top->m < 1.0 ? gsl_sf_ellint_Kcomp(k, GSL_PREC_DOUBLE) : GSL_POSINF;
    top->u0 = top->m < 1.0 ? gsl_sf_ellint_F(phi0, k, GSL_PREC_DOUBLE) : atanh(sin(phi0));
    return MB_SUCCESS;
}

/* theta, psi from L_body = I w (sorted frame) */
static void theta_psi(const mb_asymtop *top, const double w[3], double *theta, double *psi)
{
    double L1 = top->I[0] * w[0], L2 = top->I[1] * w[1], L3 = top->I[2] * w[2];
    *theta = atan2(hypot(L1, L2), L3);
    *psi = atan2(L1, L2);
}

static void euler_quat(double q[4], double phi, double theta, double psi)
{
    double a[4], b[4], c[4], t[4];
    q_axis(a, 2, phi);
    q_axis(b, 0, theta);
    q_axis(c, 2, psi);
    mb_q_mul(t, a, b);
    mb_q_mul(q, t, c);
}

static int init_orientation(mb_asymtop *top)
{
    double qs0[4], qpc[4], Ls[3], L[3];
    q_conj(qpc, top->qp);
    mb_q_mul(qs0, top->q0, qpc);              /* orientation of the sorted frame */
    for (int a = 0; a < 3; a++)
        Ls[a] = top->I[a] * top->omega0_sorted[a];
    mb_q_rotate(L, qs0, Ls);
    top->M = mb_v3_norm(L);
    /* qL: global z -> L/M */
    double ax[3] = { -L[1] / top->M, L[0] / top->M, 0.0 }, s = mb_v3_norm(ax);
    double ang = atan2(s, L[2] / top->M);
    if (s > 0.0) {
        mb_v3_scale(ax, ang / s, ax);
        mb_q_from_rotvec(top->qL, ax);
    } else if (L[2] > 0.0) {
        mb_q_identity(top->qL);
    } else {
        q_axis(top->qL, 0, M_PI);
    }
    /* phi0: qz(phi0) = conj(qL) (x) qs0 (x) conj(qz(psi0)) (x) conj(qx(theta0)) */
    double theta, psi, qLc[4], e[4], t1[4], t2[4], qz[4], qx[4];
    theta_psi(top, top->omega0_sorted, &theta, &psi);
    q_conj(qLc, top->qL);
    mb_q_mul(e, qLc, qs0);
    q_axis(qz, 2, -psi);
    q_axis(qx, 0, -theta);
    mb_q_mul(t1, e, qz);
    mb_q_mul(t2, t1, qx);
    top->phi0 = 2.0 * atan2(t2[3], t2[0]);
    if (isfinite(top->K))
        return integrate_phi(top, 0.0, 2.0 * top->K, &top->phi_period);
    top->phi_period = GSL_POSINF;
    return MB_SUCCESS;
}

int mb_asymtop_init(mb_asymtop *top, const double inertia[3], const double q0[4],
                    const double omega0_body[3])
{
    memset(top, 0, sizeof *top);
    for (int a = 0; a < 3; a++)
        if (!(inertia[a] > 0.0) || !isfinite(inertia[a]) || !isfinite(omega0_body[a]))
            MB_ERROR(MB_EDOM, "asymmetric top: principal moments must be finite and > 0 and the "
                     "angular velocity finite (moment %d = %g)", a + 1, inertia[a]);
    if (inertia[0] == inertia[1] || inertia[1] == inertia[2] || inertia[0] == inertia[2])
        MB_ERROR(MB_EDOM, "asymmetric top: two principal moments are equal (%g, %g, %g); "
                 "use the symmetric-top closed form", inertia[0], inertia[1], inertia[2]);
    double nq = mb_q_norm(q0);
    if (!(nq > 0.0) || !isfinite(nq))
        MB_ERROR(MB_EDOM, "asymmetric top: the initial quaternion must be finite and non-zero");
    for (int a = 0; a < 4; a++)
        top->q0[a] = q0[a] / nq;
    sort_frame(top, inertia);
    mb_m3_mul_v(top->omega0_sorted, top->P, omega0_body);
    const double *w = top->omega0_sorted;
    int zeros = (w[0] == 0.0) + (w[1] == 0.0) + (w[2] == 0.0);
    if (zeros >= 2) {            /* rotation about a principal axis (or rest): stationary */
        top->kind = 0;
        top->K = GSL_POSINF;
        return MB_SUCCESS;
    }
    int st = init_elliptic(top);
    return st == MB_SUCCESS ? init_orientation(top) : st;
}

void mb_asymtop_omega_body(const mb_asymtop *top, double t, double omega_body[3])
{
    double w[3];
    if (top->kind == 0)
        mb_v3_copy(w, top->omega0_sorted);
    else
        omega_sorted_at(top, top->lambda * t + top->u0, w);
    mb_m3t_mul_v(omega_body, top->P, w);      /* body = P^T sorted */
}

double mb_asymtop_flip_period(const mb_asymtop *top)
{
    return top->kind == 0 ? GSL_POSINF : 4.0 * top->K / top->lambda;
}

static int phi_at(const mb_asymtop *top, double t, double *phi)
{
    double du = top->lambda * t, rest = du, whole = 0.0, part;
    if (isfinite(top->K)) {
        double n = floor(du / (2.0 * top->K));
        rest = du - n * 2.0 * top->K;
        whole = n * top->phi_period;
    }
    int st = integrate_phi(top, top->u0, top->u0 + rest, &part);
    *phi = top->phi0 + (whole + part) / top->lambda;
    return st;
}

int mb_asymtop_state(const mb_asymtop *top, double t, mb_closed_rigid *out)
{
    double w[3], qs[4];
    mb_asymtop_omega_body(top, t, out->omega_body);
    if (top->kind == 0) {
        double th[3], dq[4];
        mb_v3_scale(th, t, out->omega_body);
        mb_q_from_rotvec(dq, th);
        mb_q_mul(out->q, top->q0, dq);
    } else {
        double phi, theta, psi, qe[4];
        int st = phi_at(top, t, &phi);
        if (st != MB_SUCCESS)
            return st;
        mb_m3_mul_v(w, top->P, out->omega_body);
        theta_psi(top, w, &theta, &psi);
        euler_quat(qe, phi, theta, psi);
        mb_q_mul(qs, top->qL, qe);
        mb_q_mul(out->q, qs, top->qp);
    }
    double Lb[3], I_body[3];
    mb_m3t_mul_v(I_body, top->P, top->I);     /* moments back in body order (|P| entries) */
    for (int a = 0; a < 3; a++)
        Lb[a] = fabs(I_body[a]) * out->omega_body[a];
    mb_q_rotate(out->omega, out->q, out->omega_body);
    mb_q_rotate(out->angmom, out->q, Lb);
    return MB_SUCCESS;
}

int mb_closed_asymtop(const double inertia[3], const double q0[4], const double omega0_body[3],
                      double t, mb_closed_rigid *out)
{
    mb_asymtop top;
    int st = mb_asymtop_init(&top, inertia, q0, omega0_body);
    return st == MB_SUCCESS ? mb_asymtop_state(&top, t, out) : st;
}

int mb_closed_asymtop_flip_period(const double inertia[3], const double omega0_body[3],
                                  double *period)
{
    mb_asymtop top;
    const double q0[4] = { 1.0, 0.0, 0.0, 0.0 };
    int st = mb_asymtop_init(&top, inertia, q0, omega0_body);
    if (st == MB_SUCCESS)
        *period = mb_asymtop_flip_period(&top);
    return st;
}
