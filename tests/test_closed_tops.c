/* test_closed_tops.c -- closed forms of rigid rotation: spin-up, symmetric tops (free and
 * under an axial body torque) and the torque-free asymmetric top (Jacobi elliptic
 * functions, orientation by the Euler angles relative to L).
 *
 * Checks: Euler's equations and the kinematics q' = 1/2 (0, w) (x) q by central differences
 * (h = 1e-4: truncation h^2/6 |y'''| < 2e-8 |w|^3 S here; the orientation of the asymmetric
 * top also carries its quadrature error, ~1e-14, amplified by 1/h: 1e-10), conservation of
 * energy, |L| and the global L, periodicity and the flip of the intermediate component,
 * the symmetric limit of the asymmetric top, and a negative control (modulus passed as
 * the elliptic parameter). */
#include <criterion/criterion.h>
#include <float.h>
#include <gsl/gsl_sf_elljac.h>
#include <math.h>

#include "mb_closed.h"
#include "mb_status.h"
#include "mb_vec.h"

#define HFD 1e-4

typedef int (*rigid_fn)(const void *ctx, double t, mb_closed_rigid *out);

/* max |q'(fd) - 1/2 (0, w) (x) q| over t in [t0, t1) */
static double kinematic_residual(rigid_fn f, const void *ctx, double t0, double t1, double dt)
{
    double worst = 0.0;
    for (double t = t0; t < t1; t += dt) {
        mb_closed_rigid a, b, c;
        f(ctx, t - HFD, &a);
        f(ctx, t, &b);
        f(ctx, t + HFD, &c);
        /* q and -q are one rotation: align signs with b */
        double sa = (a.q[0] * b.q[0] + a.q[1] * b.q[1] + a.q[2] * b.q[2] + a.q[3] * b.q[3]) < 0 ? -1 : 1;
        double sc = (c.q[0] * b.q[0] + c.q[1] * b.q[1] + c.q[2] * b.q[2] + c.q[3] * b.q[3]) < 0 ? -1 : 1;
        double w4[4] = { 0.0, b.omega[0], b.omega[1], b.omega[2] }, qd[4];
        mb_q_mul(qd, w4, b.q);
        for (int k = 0; k < 4; k++)
            worst = fmax(worst, fabs((sc * c.q[k] - sa * a.q[k]) / (2 * HFD) - 0.5 * qd[k]));
    }
    return worst;
}

/* ---- spin-up ---- */

struct spin { double I, tau, w0, axis[3], q0[4]; };

static int spin_fn(const void *ctx, double t, mb_closed_rigid *out)
{
    const struct spin *s = ctx;
    return mb_closed_spinup(s->I, s->tau, s->w0, s->axis, s->q0, t, out);
}

Test(closed_tops, spinup)
{
    struct spin s = { 2.385, 0.713, -0.4, { 0.36, 0.48, 0.8 }, { 0.9, 0.2, -0.3, 0.25 } };
    mb_q_normalize(s.q0);
    mb_closed_rigid r;
    cr_assert_eq(spin_fn(&s, 1.7, &r), MB_SUCCESS);
    double w = -0.4 + 0.713 / 2.385 * 1.7;
    for (int k = 0; k < 3; k++) {
        cr_expect(fabs(r.omega[k] - w * s.axis[k]) < 1e-15);
        cr_expect(fabs(r.angmom[k] - 2.385 * w * s.axis[k]) < 1e-14);
    }
    double angle = -0.4 * 1.7 + 0.5 * 0.713 / 2.385 * 1.7 * 1.7;
    cr_expect(fabs(mb_q_angle_between(r.q, s.q0) - fabs(angle)) < 1e-14);
    double res = kinematic_residual(spin_fn, &s, 0.0, 5.0, 0.31);
    cr_expect(res < 1e-7, "kinematic residual %g", res);
    double zero[3] = { 0, 0, 0 };
    cr_expect_eq(mb_closed_spinup(2.385, 1, 0, zero, s.q0, 1, &r), MB_EDOM);
}

/* ---- symmetric tops ---- */

struct sym { double Ip, I3, q0[4], w0[3]; };

static int sym_fn(const void *ctx, double t, mb_closed_rigid *out)
{
    const struct sym *s = ctx;
    return mb_closed_symtop_free(s->Ip, s->I3, s->q0, s->w0, t, out);
}

static void body_L(const double I[3], const mb_closed_rigid *r, double L[3])
{
    double Lb[3] = { I[0] * r->omega_body[0], I[1] * r->omega_body[1], I[2] * r->omega_body[2] };
    mb_q_rotate(L, r->q, Lb);
}

Test(closed_tops, symmetric_free)
{
    struct sym s = { 1.7, 3.1, { 0.9, 0.2, -0.3, 0.25 }, { 0.7, -1.9, 0.35 } };
    mb_q_normalize(s.q0);
    const double I[3] = { s.Ip, s.Ip, s.I3 };
    mb_closed_rigid r0, r;
    sym_fn(&s, 0.0, &r0);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(r0.omega[k] - s.w0[k]) < 1e-15, "initial omega reproduced");
    for (double t = 0.0; t < 20.0; t += 0.7) {
        sym_fn(&s, t, &r);
        double L[3];
        body_L(I, &r, L);
        cr_expect(mb_v3_dist(L, r0.angmom) < 1e-14 * 8, "t %g: L drifts by %g", t, mb_v3_dist(L, r0.angmom));
        cr_expect(fabs(r.omega_body[2] - r0.omega_body[2]) < 1e-15);
        cr_expect(fabs(hypot(r.omega_body[0], r.omega_body[1]) - hypot(r0.omega_body[0], r0.omega_body[1])) < 1e-14);
    }
    double res = kinematic_residual(sym_fn, &s, 0.0, 10.0, 0.37);
    cr_expect(res < 1e-7, "kinematic residual %g", res);
}

Test(closed_tops, symmetric_axial_torque)
{
    const double Ip = 1.7, I3 = 3.1, tau = 0.713, w0[3] = { 0.7, -1.9, 0.35 }, h = HFD;
    for (double t = 0.1; t < 8.0; t += 0.53) {
        double a[3], b[3], c[3];
        mb_closed_symtop_axial_torque_body(Ip, I3, tau, w0, t - h, a);
        mb_closed_symtop_axial_torque_body(Ip, I3, tau, w0, t, b);
        mb_closed_symtop_axial_torque_body(Ip, I3, tau, w0, t + h, c);
        /* Euler: Ip w1' = (Ip - I3) w2 w3, Ip w2' = (I3 - Ip) w3 w1, I3 w3' = tau;
         * |w| grows to ~ 2.2, |w'''| < 100: FD error < 2e-7 */
        double r1 = Ip * (c[0] - a[0]) / (2 * h) - (Ip - I3) * b[1] * b[2];
        double r2 = Ip * (c[1] - a[1]) / (2 * h) - (I3 - Ip) * b[2] * b[0];
        double r3 = I3 * (c[2] - a[2]) / (2 * h) - tau;
        cr_expect(fabs(r1) < 1e-6 && fabs(r2) < 1e-6 && fabs(r3) < 1e-9, "t %g: %g %g %g", t, r1, r2, r3);
    }
    /* pure spin: orientation about the body axis, global L' = torque along the axis */
    double q0[4] = { 0.9, 0.2, -0.3, 0.25 };
    mb_q_normalize(q0);
    mb_closed_rigid r;
    cr_assert_eq(mb_closed_symtop_axial_torque(Ip, I3, tau, q0, 0.35, 2.0, &r), MB_SUCCESS);
    double angle = 0.35 * 2 + 0.5 * tau / I3 * 4;
    cr_expect(fabs(mb_q_angle_between(r.q, q0) - angle) < 1e-14);
    double e3[3] = { 0, 0, 1 }, n[3];
    mb_q_rotate(n, q0, e3);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(r.angmom[k] - I3 * (0.35 + tau / I3 * 2) * n[k]) < 1e-14);
}

/* ---- asymmetric top ---- */

static int asym_fn(const void *ctx, double t, mb_closed_rigid *out)
{
    return mb_asymtop_state(ctx, t, out);
}

static double energy2(const double I[3], const double w[3])
{
    return I[0] * w[0] * w[0] + I[1] * w[1] * w[1] + I[2] * w[2] * w[2];
}

static double mom2(const double I[3], const double w[3])
{
    return I[0] * I[0] * w[0] * w[0] + I[1] * I[1] * w[1] * w[1] + I[2] * I[2] * w[2] * w[2];
}

/* max Euler-equation residual of the body angular velocity over t in [0, t1) */
static double euler_residual(const mb_asymtop *top, const double I[3], double t1)
{
    double worst = 0.0, h = HFD;
    for (double t = 0.05; t < t1; t += 0.29) {
        double a[3], b[3], c[3];
        mb_asymtop_omega_body(top, t - h, a);
        mb_asymtop_omega_body(top, t, b);
        mb_asymtop_omega_body(top, t + h, c);
        for (int k = 0; k < 3; k++) {
            int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            double r = I[k] * (c[k] - a[k]) / (2 * h) - (I[k1] - I[k2]) * b[k1] * b[k2];
            worst = fmax(worst, fabs(r));
        }
    }
    return worst;
}

static void check_asymtop(const double I[3], const double wb0[3])
{
    double q0[4] = { 0.9, 0.2, -0.3, 0.25 };
    mb_q_normalize(q0);
    mb_asymtop top;
    cr_assert_eq(mb_asymtop_init(&top, I, q0, wb0), MB_SUCCESS, "%s", mb_last_error());
    double T = mb_asymtop_flip_period(&top), E0 = energy2(I, wb0), M0 = mom2(I, wb0);
    cr_assert(isfinite(T) && T > 0);
    mb_closed_rigid r0, r, rT, rh;
    cr_assert_eq(mb_asymtop_state(&top, 0.0, &r0), MB_SUCCESS);
    cr_expect(mb_q_angle_between(r0.q, q0) < 1e-14, "initial orientation reproduced");
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(r0.omega_body[k] - wb0[k]) < 1e-14, "initial omega %d: %.17g", k, r0.omega_body[k]);
    for (double t = 0.0; t < 2.2 * T; t += 0.41) {
        cr_assert_eq(mb_asymtop_state(&top, t, &r), MB_SUCCESS);
        /* the elliptic functions at the solution's argument: sn^2 + cn^2 = dn^2 + m sn^2 = 1 */
        double sn, cn, dn;
        gsl_sf_elljac_e(top.lambda * t + top.u0, top.m, &sn, &cn, &dn);
        cr_expect(fabs(sn * sn + cn * cn - 1) < 4 * DBL_EPSILON && fabs(dn * dn + top.m * sn * sn - 1) < 4 * DBL_EPSILON);
        cr_expect(fabs(energy2(I, r.omega_body) / E0 - 1) < 1e-14, "t %g energy", t);
        cr_expect(fabs(mom2(I, r.omega_body) / M0 - 1) < 1e-14, "t %g |L|", t);
        double L[3];
        body_L(I, &r, L);
        cr_expect(mb_v3_dist(L, r0.angmom) < 1e-13 * sqrt(M0), "t %g: global L drifts by %g", t,
                  mb_v3_dist(L, r0.angmom));
        /* period 4K/lambda; the intermediate (sorted 2nd) component flips every half period */
        mb_asymtop_omega_body(&top, t + T, rT.omega_body);
        mb_asymtop_omega_body(&top, t + T / 2, rh.omega_body);
        double ws[3], wh[3];
        mb_m3_mul_v(ws, top.P, r.omega_body);
        mb_m3_mul_v(wh, top.P, rh.omega_body);
        for (int k = 0; k < 3; k++)
            cr_expect(fabs(rT.omega_body[k] - r.omega_body[k]) < 1e-13, "period, component %d", k);
        cr_expect(fabs(wh[1] + ws[1]) < 1e-13, "flip of the intermediate component");
    }
    double er = euler_residual(&top, I, 2 * T);
    cr_expect(er < 1e-7, "Euler residual %g", er);
    double kr = kinematic_residual(asym_fn, &top, 0.05, 2 * T, 0.43);
    cr_expect(kr < 1e-7, "kinematic residual %g", kr);
}

Test(closed_tops, asymmetric_around_major_axis)     /* M^2 > 2 E I2: cn, sn, dn */
{
    const double I[3] = { 1.3, 2.385, 3.1 }, w[3] = { 0.3, 0.5, 1.9 };
    check_asymtop(I, w);
}

Test(closed_tops, asymmetric_around_minor_axis)     /* M^2 < 2 E I2: dn, sn, cn */
{
    const double I[3] = { 1.3, 2.385, 3.1 }, w[3] = { 1.9, 0.5, 0.35 };
    check_asymtop(I, w);
}

Test(closed_tops, asymmetric_any_axis_order)        /* the signed permutation keeps det +1 */
{
    const double w[3] = { 0.7, 1.9, 0.35 };
    const double orders[6][3] = { { 1.3, 2.385, 3.1 }, { 3.1, 1.3, 2.385 }, { 1.3, 3.1, 2.385 },
                                  { 2.385, 1.3, 3.1 }, { 3.1, 2.385, 1.3 }, { 2.385, 3.1, 1.3 } };
    for (int o = 0; o < 6; o++)
        check_asymtop(orders[o], w);
}

/* Symmetric limit: I2 = I1 (1 + 1e-9) gives m ~ 1e-9; the state differs from the symmetric
 * top's by O(1e-9 t). */
Test(closed_tops, asymmetric_symmetric_limit)
{
    const double I[3] = { 1.7, 1.7 * (1 + 1e-9), 3.1 }, wb[3] = { 0.7, -1.9, 0.35 };
    double q0[4] = { 0.9, 0.2, -0.3, 0.25 }, w0[3];
    mb_q_normalize(q0);
    mb_q_rotate(w0, q0, wb);
    for (double t = 0.3; t < 10; t += 1.3) {
        mb_closed_rigid a, s;
        cr_assert_eq(mb_closed_asymtop(I, q0, wb, t, &a), MB_SUCCESS);
        mb_closed_symtop_free(1.7, 3.1, q0, w0, t, &s);
        for (int k = 0; k < 3; k++)
            cr_expect(fabs(a.omega[k] - s.omega[k]) < 1e-7, "t %g omega %d: %g", t, k, a.omega[k] - s.omega[k]);
        cr_expect(mb_q_angle_between(a.q, s.q) < 1e-7, "t %g angle %g", t, mb_q_angle_between(a.q, s.q));
    }
}

/* Negative control: the modulus k used as the parameter m breaks Euler's equations. */
Test(closed_tops, asymmetric_modulus_parameter_confusion_is_detected)
{
    const double I[3] = { 1.3, 2.385, 3.1 }, w[3] = { 1.9, 0.5, 0.35 }, q0[4] = { 1, 0, 0, 0 };
    mb_asymtop top;
    mb_asymtop_init(&top, I, q0, w);
    top.m = sqrt(top.m);
    double er = euler_residual(&top, I, 2 * mb_asymtop_flip_period(&top));
    cr_expect(er > 1e-3, "the wrong parameter went unnoticed (residual %g)", er);
}

Test(closed_tops, asymmetric_bad_input_and_stationary)
{
    const double q0[4] = { 1, 0, 0, 0 }, w[3] = { 0.3, 0.5, 1.9 };
    mb_asymtop top;
    const double Ieq[3] = { 1.3, 1.3, 3.1 }, Ineg[3] = { -1.0, 2.0, 3.0 };
    cr_expect_eq(mb_asymtop_init(&top, Ieq, q0, w), MB_EDOM);
    cr_expect_eq(mb_asymtop_init(&top, Ineg, q0, w), MB_EDOM);
    /* spin about the intermediate axis exactly: stationary (unstable but exact) */
    const double I[3] = { 1.3, 2.385, 3.1 }, w2[3] = { 0, 1.7, 0 };
    mb_closed_rigid r;
    cr_assert_eq(mb_closed_asymtop(I, q0, w2, 3.0, &r), MB_SUCCESS);
    cr_expect(fabs(r.omega_body[1] - 1.7) == 0.0 && fabs(mb_q_angle_between(r.q, q0) - (2 * M_PI - 1.7 * 3.0)) < 1e-14);
    double T;
    mb_closed_asymtop_flip_period(I, w2, &T);
    cr_expect(isinf(T));
}
