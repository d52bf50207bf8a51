/* mb_spring_network.h -- the common end of the spring-network problems (spring-chain,
 * cloth): their springs, gravity -g along y and, for D > 0, linear drag. */
#ifndef MB_SPRING_NETWORK_H
#define MB_SPRING_NETWORK_H

#include "mb_system.h"

/* Add springs (owned from here on: freed on failure), gravity (0, -g, 0) and drag D > 0 to
 * sys.  status is the status of building springs so far: on any failure sys is freed and
 * the status returned; on success *out = sys. */
int mb_spring_network_finish(mb_system *sys, void *springs, int status, double g, double D,
                             mb_system **out);

#endif
