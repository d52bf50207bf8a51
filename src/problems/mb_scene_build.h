/* mb_scene_build.h -- building a system from the scene sections of a case file
 * (scene_body.c, scene_force.c, scene_constraint.c; syntax in doc/scenes.md).  Private to
 * the problems module. */
#ifndef MB_SCENE_BUILD_H
#define MB_SCENE_BUILD_H
#include "mb_scene_doc.h"
#include "mb_scene_place.h"
#include "mb_system.h"

/* [body NAME] into node i (mass, inertia, position, velocity, orientation, spin, blocked). */
int mb_scene_read_body(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, size_t i,
                       mb_scene_body *b);
/* [obstacle NAME] of type box or sphere into node i: an immovable body (infinite mass,
 * every degree of freedom blocked) with its shape, position and orientation. */
int mb_scene_read_static(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, size_t i,
                         mb_scene_body *b);
/* 1 for an [obstacle] section that is a static body (type = box | sphere). */
int mb_scene_is_static(mb_scene_section *s);
/* Every [force NAME] into sys->forces. */
int mb_scene_read_forces(const mb_scene_doc *d, mb_system *sys);
/* [constraint NAME], [obstacle NAME] and [contact] into a solfec constraint scene (none
 * when the file has no such section), or into DEM contact models (on the neighbour list of
 * the space when the scene has an [assembly] or a [space]); checks bodies against
 * obstacles and the constraints at t = 0. */
struct mb_scene_space;
int mb_scene_read_constraints(const mb_scene_doc *d, mb_system *sys, const mb_scene_body *bodies,
                              const struct mb_scene_space *space);

/* Closed form of a scene ([exact NAME] sections) at t, over the initial state. */
int mb_scene_exact(const char *path, double t, mb_nodes *out);
/* Load-time check: one [exact] per body, equal to the initial state at t = 0. */
int mb_scene_exact_check(const char *path);
/* The whole system of a scene file. */
int mb_scene_build(const char *path, mb_system **out);
#endif
