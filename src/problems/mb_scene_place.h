/* mb_scene_place.h -- the one path from numbers to a system, shared by the scene sections
 * (scene_body.c, scene_force.c, scene_constraint.c) and the built-in problems that are
 * special cases of a scene (doc/scenes.md, "Problems that are scenes"): a body's shape,
 * mass, principal moments, state and spin given one of four ways into node i, the scene
 * force models, the solfec constraint scene (shapes, plane obstacles, contact laws) and
 * the DEM contact models (linear spring-dashpot and Hertz laws, sphere and plane pairs).
 * Private to the problems module. */
#ifndef MB_SCENE_PLACE_H
#define MB_SCENE_PLACE_H
#include "mb_scene.h"
#include "mb_system.h"

enum { MB_SCENE_POINT = 0, MB_SCENE_SPHERE = 1, MB_SCENE_BOX = 2, MB_SCENE_ELLIPSOID = 3,
       MB_SCENE_CLUMP = 4 };

/* The shape of a body: type, extents (sphere radius in extent[0..2], box half-extents,
 * ellipsoid semi-axes), mass, principal moments and bounding radius. */
typedef struct mb_scene_body {
    int type;               /* MB_SCENE_* */
    double mass, inertia[3], extent[3], radius;
} mb_scene_body;

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

/* Volume and unit-mass principal moments of the shape b->type, b->extent (zero for a
 * point; a clump is built by the clump code), and its bounding radius into b->radius. */
void mb_scene_shape(mb_scene_body *b, double *volume, double Iunit[3]);

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
/* A spring joins the spring set that is the last model of sys->forces, if it is one (so
 * consecutive [force] type = spring sections, and a preset's springs added one after the
 * other, make one model), else a new spring set. */
int mb_scene_add_spring(mb_system *sys, const mb_spring *sp);
/* A constant torque T on node i, in the global frame or (body_frame) fixed in its body
 * frame, R(q) T (mb_force_torque.h). */
int mb_scene_add_torque(mb_system *sys, size_t i, const double T[3], int body_frame);
/* A constant force F on node i, in the global frame or (body_frame) fixed in its body
 * frame, R(q) F (mb_force_constant.h). */
int mb_scene_add_force(mb_system *sys, size_t i, const double F[3], int body_frame);

/* The solfec constraint scene of sys, on sys->forces, with the contact shapes of its
 * bodies[0 .. n-1] (spheres and boxes; points, ellipsoids and clumps take part in no
 * contact).  No contact law yet: mb_scene_place_laws.  NULL with a recorded error. */
mb_scene *mb_scene_place_solfec(mb_system *sys, const mb_scene_body *bodies);
/* A plane obstacle through point with the normal into the free side, of material m. */
int mb_scene_place_plane(mb_scene *sc, const double point[3], const double normal[3], int m);
/* The Signorini-Coulomb laws: symmetric count x count tables of mu and e over the
 * materials, and the material of every node. */
int mb_scene_place_laws(mb_scene *sc, size_t count, const double *mu, const double *e,
                        const int *node_material);
/* A system of one body (its shape, which sets the bounding radius, and its state placed
 * by mb_scene_place_body) under gravity g, with its solfec constraint scene and one
 * Signorini law (mu, e) for every contact: what the sections [body], [force] type =
 * gravity and [contact] build, and the common set-up of the solfec presets.  On failure
 * *sys is NULL. */
int mb_scene_place_solfec_body(const mb_scene_body *body, const mb_scene_pose *pose,
                               const double g[3], double mu, double e, mb_system **sys,
                               mb_scene **sc);
/* The plane obstacle z = 0, normal +z, of the default material; on failure *sys is freed
 * and set to NULL. */
int mb_scene_place_floor(mb_system **sys, mb_scene *sc);

/* A DEM normal contact law (scene_place_dem.c): linear spring-dashpot, kn with the dashpot
 * c or (by_ratio) the damping ratio zeta, or Hertz, young and poisson with the Tsuji ratio
 * zeta; attractive = 0 clamps the normal force at zero (no pull). */
typedef struct mb_scene_dem_law {
    int hertz, by_ratio, attractive;
    double kn, c, zeta, young, poisson;
    int friction;                           /* 1: frictional (mb_contact_friction_params) */
    double mu, kt_ratio, zeta_t, mu_roll;
} mb_scene_dem_law;
/* The model of law L for sphere pairs (wall = 0) or for spheres on planes and static
 * spheres (wall = 1, which sets E* of the Hertz law), added to sys->forces; NULL with a
 * recorded error. */
void *mb_scene_place_dem_model(mb_system *sys, const mb_scene_dem_law *L, int wall);
/* Sphere i against sphere j (point NULL), or against the plane through point with the
 * normal into the free side, in the model of mb_scene_place_dem_model. */
int mb_scene_place_dem_pair(mb_system *sys, void *model, size_t i, size_t j, const double *point,
                            const double *normal);
#endif
