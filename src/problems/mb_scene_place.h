/* mb_scene_place.h -- the one path from numbers to a system, shared by the scene sections
 * (scene_body.c, scene_force.c) and the built-in problems that are special cases of a
 * scene (doc/scenes.md, "Problems that are scenes"): a body's mass, principal moments,
 * state and spin given one of four ways into node i, and the scene force models.  Private
 * to the problems module. */
#ifndef MB_SCENE_PLACE_H
#define MB_SCENE_PLACE_H
#include "mb_system.h"

/* How the spin of a body is given, in the order of the scene keys angular_velocity,
 * angular_velocity_body, angular_momentum, angular_momentum_body. */
enum { MB_SPIN_OMEGA = 0, MB_SPIN_OMEGA_BODY = 1, MB_SPIN_MOMENTUM = 2, MB_SPIN_MOMENTUM_BODY = 3 };

typedef struct mb_scene_pose {
    double mass, inertia[3];    /* kg; principal moments in the body frame */
    double x[3], v[3], q[4];    /* position, velocity, orientation of the body frame */
    int spin_form;              /* MB_SPIN_* */
    double spin[3];             /* the spin in that form */
    double radius;              /* bounding radius (contacts), 0 for a point */
    unsigned char blocked;      /* MB_BLOCK_* bits */
} mb_scene_pose;

/* A point of mass 1 at rest at the origin (I = 1, identity orientation, no spin). */
void mb_scene_pose_init(mb_scene_pose *b);
/* The body angular velocity w~ of the spin as given. */
void mb_scene_body_omega(const mb_scene_pose *b, double wb[3]);
/* The body into node i: mass, moments, x, v, q, and the on-step spin from the spin given
 * one way (w~ = R^T w, L~ = I w~; doc/scenes.md, "Bodies"). */
void mb_scene_place_body(mb_nodes *n, size_t i, const mb_scene_pose *b);
/* q = Quaternion(angle axis/|axis|); identity for angle = 0; a zero axis otherwise is
 * MB_EDOM (no error recorded: the caller names the input). */
int mb_scene_axis_angle(const double axis[3], double angle, double q[4]);

/* The force models of the [force] sections (scene_force.c) on sys->forces. */
int mb_scene_add_gravity(mb_system *sys, const double g[3]);
int mb_scene_add_drag(mb_system *sys, double D);
int mb_scene_add_central(mb_system *sys, double mu);
int mb_scene_add_spring(mb_system *sys, const mb_spring *sp);
#endif
