/* mb_closed_granular.h -- closed forms of a homogeneous cooling granular gas of smooth,
 * inelastic, equal spheres (doc/dem.md "Haff's law").
 *
 * Granular temperature T = m <v^2> / 3 (k_B = 1), number density n, diameter sigma,
 * constant normal restitution e, packing fraction phi = n pi sigma^3 / 6.
 *
 *   g(sigma)  = (1 - phi/2) / (1 - phi)^3                (Carnahan & Starling 1969: the
 *               pair correlation at contact of the hard-sphere fluid, Enskog's factor)
 *   omega(T)  = 4 sqrt(pi) n sigma^2 g(sigma) sqrt(T/m)  (Enskog collision frequency of a
 *               particle, Maxwellian velocities)
 *   dT/dt     = -(1 - e^2)/3 omega(T) T                  (energy lost per collision
 *               (m/4)(1 - e^2) g_n^2 averaged over the collision flux; Haff 1983,
 *               Brilliantov & Poeschel, "Kinetic theory of granular gases", 2004)
 *   T(t)      = T0 / (1 + t/t0)^2,   t0 = 6 / ((1 - e^2) omega(T0))      (Haff's law)
 *   collisions per particle up to t: omega(T0) t0 ln(1 + t/t0).
 * The Maxwellian is an approximation: the cooling state's second Sonine coefficient
 *   a2 = 16 (1 - e)(1 - 2 e^2) / (81 - 17 e + 30 e^2 (1 - e))
 * (van Noije & Ernst 1998, Granular Matter 1, 57, in 3-D) changes the cooling rate by the
 * factor 1 + 3 a2 / 16. */
#ifndef MB_CLOSED_GRANULAR_H
#define MB_CLOSED_GRANULAR_H

double mb_granular_chi_cs(double phi);
double mb_granular_collision_frequency(double n, double sigma, double chi, double T, double m);
double mb_haff_cooling_time(double n, double sigma, double chi, double e, double T0, double m);
double mb_haff_temperature(double T0, double t0, double t);
double mb_granular_sonine_a2(double e);

#endif
