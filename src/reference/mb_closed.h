/* mb_closed.h -- closed-form solutions of the reference problems (DESIGN 5).
 *
 * Plain functions: parameters and time in, state out, status returned (MB_SUCCESS, or
 * MB_EDOM with a message naming the parameter).  They are evaluated in double with GSL
 * special functions and never call a time-stepping scheme, so they can be held against
 * the schemes under test.  Conventions of DESIGN 3: quaternions q = (w, x, y, z) map
 * body (principal) coordinates to global ones; "body" vectors are in the principal
 * frame, the others global.  Each file closed_*.c states its equations. */
#ifndef MB_CLOSED_H
#define MB_CLOSED_H

#include <stddef.h>

/* ---- oscillators (closed_oscillator.c) ---- */

/* x'' = -w^2 x:  x = x0 cos wt + (v0/w) sin wt,  v = -x0 w sin wt + v0 cos wt. */
int mb_closed_harmonic(double omega, double x0, double v0, double t, double *x, double *v);

/* w0 = sqrt(k/m), zeta = c / (2 sqrt(k m)) for m x'' + c x' + k x = 0. */
int mb_closed_damped_params(double m, double k, double c, double *omega0, double *zeta);
/* x'' + 2 zeta w0 x' + w0^2 x = 0 in all three regimes, continuous through zeta = 1
 * (no cancellation near critical damping: see closed_oscillator.c). */
int mb_closed_damped(double omega0, double zeta, double x0, double v0, double t,
                     double *x, double *v);

/* ---- ballistic motion (closed_ballistic.c) ---- */

/* x'' = g:  x = x0 + v0 t + g t^2 / 2,  v = v0 + g t. */
int mb_closed_free_fall(const double g[3], const double x0[3], const double v0[3], double t,
                        double x[3], double v[3]);
/* m x'' = m g - D x'  with gamma = D / m >= 0 (gamma = 0 is free fall):
 * v = v0 e^(-gamma t) + g t phi1(-gamma t),  x = x0 + v0 t phi1(-gamma t) + g t^2 phi2(-gamma t),
 * phi1(z) = (e^z - 1)/z,  phi2(z) = (e^z - 1 - z)/z^2. */
int mb_closed_drag_projectile(double gamma, const double g[3], const double x0[3],
                              const double v0[3], double t, double x[3], double v[3]);

/* ---- rigid rotation (closed_spinup.c, closed_symtop.c, closed_asymtop.c) ---- */

typedef struct mb_closed_rigid {
    double q[4];           /* orientation */
    double omega[3];       /* angular velocity, global */
    double omega_body[3];  /* angular velocity, principal frame */
    double angmom[3];      /* angular momentum, global */
} mb_closed_rigid;

/* Spin-up about a fixed principal axis (global unit vector `axis`, moment I about it)
 * under a constant torque tau along it, initial spin omega0 about it:
 * w(t) = omega0 + (tau/I) t,  angle(t) = omega0 t + tau t^2 / (2 I),
 * q(t) = Quaternion(angle(t) axis) (x) q0. */
int mb_closed_spinup(double inertia, double torque, double omega0, const double axis[3],
                     const double q0[4], double t, mb_closed_rigid *out);

/* Torque-free symmetric top, principal moments (i_perp, i_perp, i_axial), symmetry axis =
 * body axis 3, initial orientation q0 and global angular velocity omega0:
 * q(t) = Quaternion(L t / i_perp) (x) q0 (x) Quaternion(nu t e3),
 * nu = (1/i_axial - 1/i_perp) L.e3   (body cone rotates at lambda = -nu). */
int mb_closed_symtop_free(double i_perp, double i_axial, const double q0[4],
                          const double omega0[3], double t, mb_closed_rigid *out);

/* Symmetric top under a constant torque tau about its symmetry axis (body-fixed):
 * W3(t) = W3(0) + (tau/i_axial) t, and the transverse part of the body angular
 * velocity turns by phi(t) = (i_axial - i_perp)/i_perp (W3(0) t + tau t^2 / (2 i_axial)).
 * Body angular velocity only (valid for any initial body angular velocity). */
int mb_closed_symtop_axial_torque_body(double i_perp, double i_axial, double torque,
                                       const double omega0_body[3], double t,
                                       double omega_body[3]);
/* Full state of the same top when it spins about its axis only (transverse body angular
 * velocity zero): q(t) = q0 (x) Quaternion(angle(t) e3).  With a transverse component
 * the orientation has no elementary closed form (a Landau-Zener type equation): use the
 * body angular velocity above and the ode or mpfr reference for the orientation. */
int mb_closed_symtop_axial_torque(double i_perp, double i_axial, double torque,
                                  const double q0[4], double omega0_axial, double t,
                                  mb_closed_rigid *out);

/* Torque-free asymmetric top (three distinct principal moments, any order). */
typedef struct mb_asymtop {
    /* sorted frame: I[0] < I[1] < I[2]; omega_sorted = P omega_body (P signed
     * permutation, det +1, row-major), qp its quaternion */
    double I[3], P[9], qp[4];
    int kind;              /* 0 stationary, +1 M^2 > 2 E I2 (cn, sn, dn), -1 M^2 < 2 E I2 */
    double A[3];           /* signed amplitudes in the sorted frame */
    double lambda, m, u0;  /* u = lambda t + u0; elliptic parameter m = k^2 */
    double K;              /* K(k) */
    double M;              /* |L| */
    double qL[4];          /* rotation taking global z to L/|L| */
    double phi0;           /* precession angle about L at t = 0 */
    double phi_period;     /* precession advance over one period 2K of phi' in u */
    double omega0_sorted[3];
    double q0[4];
} mb_asymtop;

/* Prepare: principal moments (distinct, > 0), initial orientation, initial body
 * angular velocity.  Rotations about a principal axis are handled as stationary. */
int mb_asymtop_init(mb_asymtop *top, const double inertia[3], const double q0[4],
                    const double omega0_body[3]);
/* Body angular velocity by Jacobi elliptic functions (gsl_sf_elljac_e, parameter m). */
void mb_asymtop_omega_body(const mb_asymtop *top, double t, double omega_body[3]);
/* Full state: orientation from the Euler angles of the body relative to L
 * (Landau & Lifshitz, Mechanics, section 37): theta, psi algebraically from L_body(t),
 * the precession angle phi by Gauss-Kronrod quadrature of
 * phi' = M (I1 w1^2 + I2 w2^2) / (I1^2 w1^2 + I2^2 w2^2) over whole periods plus a rest. */
int mb_asymtop_state(const mb_asymtop *top, double t, mb_closed_rigid *out);
/* Period 4 K(k) / lambda of the body angular velocity (one full intermediate-axis flip
 * cycle); +Inf on the separatrix and for stationary rotation. */
double mb_asymtop_flip_period(const mb_asymtop *top);
/* One-call forms. */
int mb_closed_asymtop(const double inertia[3], const double q0[4], const double omega0_body[3],
                      double t, mb_closed_rigid *out);
int mb_closed_asymtop_flip_period(const double inertia[3], const double omega0_body[3],
                                  double *period);

/* ---- Kepler orbits (closed_kepler.c) ---- */

/* E - e sin E = M solved with a GSL bracketing root solver (Brent) and Newton polish. */
int mb_closed_kepler_anomaly(double mean_anomaly, double e, double *E);
/* Orbit r'' = -mu r / |r|^3 with semi-major axis a, eccentricity 0 <= e < 1, in the
 * x-y plane, starting at periapsis (a (1 - e), 0, 0) moving towards +y. */
int mb_closed_kepler(double mu, double a, double e, double t, double x[3], double v[3]);
double mb_closed_kepler_period(double mu, double a);

/* ---- affine flow (closed_affine.c) ---- */

/* x' = L x:  x(t) = exp(L t) x0 with gsl_linalg_exponential_ss;  v = L x(t).
 * L row-major 3x3. */
int mb_closed_affine_flow(const double L[9], double t, const double x0[3], double x[3],
                          double v[3]);

/* ---- linear spring-dashpot collision (closed_contact.c) ---- */

typedef struct mb_lsd_collision {
    double omega0, zeta, omega_d;
    double duration;       /* pi / omega_d: overlap back to zero */
    double restitution;    /* exp(-zeta pi / sqrt(1 - zeta^2)) */
    double duration_force; /* end when the contact force k d + c d' reaches zero */
    double restitution_force;
} mb_lsd_collision;
/* Normal impact of effective mass m on k d + c d' (zeta < 1). */
int mb_closed_lsd_collision(double m_eff, double k, double c, mb_lsd_collision *out);
/* Overlap d(t) and its rate during contact, d(0) = 0, d'(0) = v_in > 0. */
int mb_closed_lsd_overlap(double m_eff, double k, double c, double v_in, double t,
                          double *d, double *d_dot);

/* ---- mathematical pendulum (closed_pendulum.c) ---- */

/* T = 4 sqrt(l/g) K(sin(theta0/2))  (gsl_sf_ellint_Kcomp takes the modulus). */
int mb_closed_pendulum_period(double length, double g, double theta0, double *period);
/* Released from rest at theta0 (|theta0| < pi):
 * sin(theta/2) = k sn(K - w0 t | m = k^2),  theta' = -2 k w0 cn(K - w0 t),  k = sin(theta0/2). */
int mb_closed_pendulum(double length, double g, double theta0, double t, double *theta,
                       double *theta_dot);

#endif
