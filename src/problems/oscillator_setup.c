/* oscillator_setup.c -- the one-node spring system of the linear oscillator problems: a
 * scene special case (a point on a spring to an anchor at the origin), built by the scene
 * path (mb_scene_place.h). */
#include "mb_oscillator_setup.h"
#include "mb_scene_place.h"
#include "mb_status.h"

int mb_oscillator_system(double m, double k, double x0, double v0, mb_system **out)
{
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_pose body;
    mb_scene_pose_init(&body);
    body.mass = m;
    body.x[0] = x0;
    body.v[0] = v0;
    mb_scene_place_body(sys->nodes, 0, &body);
    mb_spring sp = { .i = 0, .anchored = 1, .anchor = { 0, 0, 0 }, .k = k, .rest = 0.0, .c = 0.0 };
    int st = mb_scene_add_spring(sys, &sp);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}
