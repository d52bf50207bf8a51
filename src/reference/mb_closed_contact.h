/* mb_closed_contact.h -- closed forms of a binary normal collision (no gravity), used by
 * the collision problems' observers, the tests and the runner.
 *
 * Linear spring-dashpot, m* d'' = -(k d + c d'), d(0) = 0, d'(0) = v (d = overlap):
 *   w0 = sqrt(k/m*), zeta = c/(2 sqrt(m* k)), beta = zeta w0, w = w0 sqrt(1 - zeta^2),
 *   d(t) = (v/w) exp(-beta t) sin(w t).
 *   Textbook (force may become attractive, contact ends at d = 0):
 *     t_c = pi / w,   e = exp(-zeta pi / sqrt(1 - zeta^2)).
 *   Clamped F >= 0 (Schwager & Poeschel, Phys. Rev. E 75, 051304, 2007): the force
 *   k d + c d' vanishes first at w t* = pi - atan2(2 beta w, w^2 - beta^2); there
 *   d'(t*) = -v exp(-beta t*) exactly, so e = exp(-beta t*).  After t* the bodies fly
 *   apart freely, so the overlap lasts t* + d(t*)/(e v) = t* + sin(w t*)/w.
 * Hertz, m* d'' = -K d^{3/2}, K = (4/3) E* sqrt(R*), undamped: energy gives
 *   d_max = (15 m* v^2 / (16 E* sqrt(R*)))^{2/5} and
 *   t_c = 2 (d_max/v) Int_0^1 dx / sqrt(1 - x^{5/2}) = (4/5) B(2/5, 1/2) d_max / v
 *       = C (m*^2 / (R* E*^2 v))^{1/5},  C = (4/5) B(2/5, 1/2) (15/16)^{2/5} = 2.8682...
 *   (substitute u = x^{5/2} in the integral to get (2/5) B(2/5, 1/2)).
 * Functions return NaN outside their domain (zeta in [0, 1), positive k, m, R, E, v). */
#ifndef MB_CLOSED_CONTACT_H
#define MB_CLOSED_CONTACT_H

/* zeta = c / (2 sqrt(m k)) */
double mb_closed_linear_zeta(double k, double meff, double c);
/* textbook law */
double mb_closed_linear_restitution(double zeta);
double mb_closed_linear_duration(double k, double meff, double zeta);
/* clamped law: force-carrying time t*, restitution, and duration of the overlap */
double mb_closed_linear_clamped_force_time(double k, double meff, double zeta);
double mb_closed_linear_clamped_restitution(double zeta);
double mb_closed_linear_clamped_duration(double k, double meff, double zeta);
/* undamped Hertz */
double mb_closed_hertz_constant(void);
double mb_closed_hertz_duration(double meff, double reff, double estar, double v);
double mb_closed_hertz_max_overlap(double meff, double reff, double estar, double v);

/* Trajectories of the overlap d and the approach rate d' = dd/dt at time tau after first
 * touch (tau < 0: approach, d = v tau; after the contact: free flight d' = -e v).
 * Linear (clamped selects the clamped law): d = (v/w) exp(-beta tau) sin(w tau) up to
 * t* (clamped) or pi/w (textbook).  Undamped Hertz: tau(d) = (d_max/v) F(d/d_max),
 * F(y) = Int_0^y dx / sqrt(1 - x^{5/2}) = (2/5) B(y^{5/2}; 2/5, 1/2) (incomplete Beta,
 * gsl_sf_beta_inc), inverted by bisection to full double precision, mirrored about
 * t_c/2, with d' = +-v sqrt(1 - (d/d_max)^{5/2}).  MB_EDOM outside the domain. */
int mb_closed_linear_overlap(double k, double meff, double zeta, int clamped, double v,
                             double tau, double *d, double *rate);
int mb_closed_hertz_overlap(double meff, double reff, double estar, double v, double tau,
                            double *d, double *rate);

#endif
