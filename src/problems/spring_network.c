/* spring_network.c -- particles, springs, gravity and drag of the spring-network
 * problems, placed by the scene path: a particle is a scene point body (blocked = xyz when
 * pinned), the springs are one spring set as consecutive [force] type = spring sections
 * make, then [force] type = gravity and type = drag. */
#include "mb_spring_network.h"
#include "mb_scene_place.h"
#include "mb_status.h"

void mb_spring_network_particle(mb_system *sys, size_t i, double m, const double x[3], int pinned)
{
    mb_scene_pose b;
    mb_scene_pose_init(&b);
    b.mass = m;
    for (int k = 0; k < 3; k++)
        b.x[k] = x[k];
    b.blocked = pinned ? MB_BLOCK_X | MB_BLOCK_Y | MB_BLOCK_Z : 0;
    mb_scene_place_body(sys->nodes, i, &b);
}

int mb_spring_network_spring(mb_system *sys, size_t i, size_t j, double k, double rest, double c)
{
    mb_spring sp = { .i = i, .j = j, .k = k, .rest = rest, .c = c };
    return mb_scene_add_spring(sys, &sp);
}

int mb_spring_network_finish(mb_system *sys, int status, double g, double D, mb_system **out)
{
    int st = status;
    const double gv[3] = { 0.0, -g, 0.0 };
    if (st == MB_SUCCESS)
        st = mb_scene_add_gravity(sys, gv);
    if (st == MB_SUCCESS && D > 0.0)
        st = mb_scene_add_drag(sys, D);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}
