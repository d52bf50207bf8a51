/* mb_scene.h -- the constraint field of a system integrated by the `solfec` scheme:
 * body shapes (sphere, box), fixed planes, material (mu, e) and the bilateral
 * constraints, kept in the system's force field as a model of type mb_force_scene so
 * problems can set it up and the scheme can find it.  Its eval() refuses to run: the
 * constraints are enforced only by the solfec scheme, never silently dropped by another.
 * The scheme writes per-step solver figures into the scene for observers. */
#ifndef MB_SCENE_H
#define MB_SCENE_H

#include "mb_constraint.h"
#include "mb_forces.h"
#include "mb_system.h"

enum { MB_SHAPE_NONE = 0, MB_SHAPE_SPHERE = 1, MB_SHAPE_BOX = 2 };

typedef struct mb_plane {
    double point[3], normal[3];   /* unit normal pointing into the free half-space */
    int material;                 /* index in the material table (0 by default) */
} mb_plane;

typedef struct mb_scene_stats {
    unsigned long steps, iterations_total, not_converged;
    int iterations_last;
    double merit_last, merit_max;
    size_t contacts_last;
    size_t bilateral_rows, rank_deficiency;  /* ranked when the bilateral set changes */
} mb_scene_stats;

typedef struct mb_scene {
    size_t nbodies;
    int *shape;                   /* n: MB_SHAPE_* */
    double *extent;               /* 3n: sphere radius in [0]; box half-extents */
    mb_plane *planes;
    size_t nplanes, capplanes;
    mb_con *bilateral;            /* bilateral constraint templates */
    size_t nbilateral, capbilateral;
    double mu, e;                 /* contact material (every contact, unless a table is set) */
    int *material;                /* n: material index of each body (0 by default) */
    size_t nmaterials;            /* 0: no table, mu and e for every pair */
    double *pair_mu, *pair_e;     /* nmaterials^2, symmetric: law of a pair of materials */
    mb_scene_stats stats;
} mb_scene;

extern const mb_force_type *const mb_force_scene;

/* NULL with a recorded error when mu is not finite and >= 0, e not in [0, 1], or memory
 * runs out.  Set-up calls below refuse non-finite data with MB_EINVAL. */
mb_scene *mb_scene_new(size_t nbodies, double mu, double e);
int mb_scene_set_sphere(mb_scene *s, size_t body, double radius);
int mb_scene_set_box(mb_scene *s, size_t body, const double half[3]);
int mb_scene_add_plane(mb_scene *s, const double point[3], const double normal[3]);
/* Bilateral constraints; points are spatial at the set-up configuration sys. */
int mb_scene_fix_point(mb_scene *s, const mb_nodes *n, size_t i, size_t j, const double p[3]);
int mb_scene_fix_direction(mb_scene *s, const mb_nodes *n, size_t i, size_t j, const double p[3],
                           const double dir[3]);
int mb_scene_velocity_direction(mb_scene *s, const mb_nodes *n, size_t i, const double p[3],
                                const double dir[3], double velocity);
/* Link between point pi of body i and point pj of body j (or the ground): L = |pi - pj|. */
int mb_scene_rigid_link(mb_scene *s, const mb_nodes *n, size_t i, size_t j, const double pi[3],
                        const double pj[3]);
/* Contact laws per pair of materials: symmetric count x count tables of mu and e. */
int mb_scene_set_materials(mb_scene *s, size_t count, const double *mu, const double *e);
int mb_scene_set_material(mb_scene *s, size_t body, int material);
/* The law of a contact between materials a and b. */
void mb_scene_pair_law(const mb_scene *s, int a, int b, double *mu, double *e);
/* The scene of a system's force field, or NULL. */
mb_scene *mb_scene_of(const mb_forces *F);

#endif
