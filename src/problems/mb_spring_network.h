/* mb_spring_network.h -- the common parts of the spring-network problems (spring-chain,
 * cloth), scenes of points joined by springs: their particles, springs, gravity -g along
 * y and, for D > 0, linear drag, all placed by the scene path (mb_scene_place.h). */
#ifndef MB_SPRING_NETWORK_H
#define MB_SPRING_NETWORK_H

#include "mb_system.h"

/* Node i: a point of mass m at rest at x, its translations blocked when pinned. */
void mb_spring_network_particle(mb_system *sys, size_t i, double m, const double x[3], int pinned);
/* A spring i-j of stiffness k, rest length rest and dashpot c (one spring set for all). */
int mb_spring_network_spring(mb_system *sys, size_t i, size_t j, double k, double rest, double c);
/* Add gravity (0, -g, 0) and drag D > 0 to sys.  status is the status of building the
 * springs so far: on any failure sys is freed and the status returned; on success
 * *out = sys. */
int mb_spring_network_finish(mb_system *sys, int status, double g, double D, mb_system **out);

#endif
