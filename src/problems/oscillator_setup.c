/* oscillator_setup.c -- the one-node spring system of the linear oscillator problems. */
#include "mb_oscillator_setup.h"
#include "mb_status.h"

int mb_oscillator_system(double m, double k, double x0, double v0, mb_system **out)
{
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_nodes_set_mass(sys->nodes, 0, m);
    sys->nodes->x[0] = x0;
    sys->nodes->v[0] = v0;
    void *springs = mb_springs_new();
    mb_spring sp = { .i = 0, .anchored = 1, .anchor = { 0, 0, 0 }, .k = k, .rest = 0.0, .c = 0.0 };
    int st = springs ? mb_springs_add(springs, &sp) : MB_ENOMEM;
    if (st == MB_SUCCESS)
        st = mb_forces_add(sys->forces, mb_force_springs, springs);
    else if (springs)
        mb_force_springs->free(springs);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}
