/* spring_network.c -- springs, gravity and drag of the spring-network problems. */
#include "mb_spring_network.h"
#include "mb_status.h"

int mb_spring_network_finish(mb_system *sys, void *springs, int status, double g, double D,
                             mb_system **out)
{
    int st = status;
    if (st == MB_SUCCESS)
        st = mb_forces_add(sys->forces, mb_force_springs, springs);
    else if (springs)
        mb_force_springs->free(springs);
    const double gv[3] = { 0.0, -g, 0.0 };
    if (st == MB_SUCCESS)
        st = mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(gv));
    if (st == MB_SUCCESS && D > 0.0)
        st = mb_forces_add(sys->forces, mb_force_drag, mb_drag_new(D));
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}
