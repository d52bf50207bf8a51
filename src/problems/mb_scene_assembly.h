/* mb_scene_assembly.h -- the many-body sections of a scene (doc/scenes.md, "Assemblies"):
 * [assembly NAME] (scene_assembly.c: many spheres from one generator of mb_assembly.h) and
 * [space] (scene_space.c: the periodic box or deforming cell the bodies live in, and the
 * neighbour list that finds their contacts).  Private to the problems module. */
#ifndef MB_SCENE_ASSEMBLY_H
#define MB_SCENE_ASSEMBLY_H
#include "mb_assembly.h"
#include "mb_scene_build.h"

/* Spheres one [assembly] section may place (and the largest lattice). */
#define MB_SCENE_ASSEMBLY_MAX 10000000

/* [assembly NAME] into a description (keys checked, values in range; the packing itself
 * is tried by mb_scene_place_assembly). */
int mb_scene_read_assembly(const mb_scene_doc *d, mb_scene_section *s, mb_assembly_spec *a);
/* The assembly into nodes s->first .. s->first + s->nodes - 1 and their shapes into
 * bodies (spheres); a packing the generator cannot reach is refused at the section's line. */
int mb_scene_place_assembly(const mb_scene_doc *d, const mb_scene_section *s,
                            const mb_assembly_spec *a, mb_system *sys, mb_scene_body *bodies);

/* The [space] section: open space (no section), a periodic box, or a deforming cell. */
typedef enum { MB_SPACE_OPEN, MB_SPACE_BOX, MB_SPACE_CELL } mb_scene_space_kind;
typedef struct mb_scene_space {
    mb_scene_space_kind kind;
    double box[3];          /* MB_SPACE_BOX: the sides of [0, L0) x [0, L1) x [0, L2) */
    double skin;            /* neighbour-list skin; < 0: the default, 0.2 x the cutoff */
    int line;               /* of the [space] section (0: none) */
    double radius_bound;    /* the largest radius the assemblies may draw (their rmax); the
                               list's cutoff is twice the larger of it and every radius */
} mb_scene_space;
/* Read [space] (if any); a cell (cell = H row by row, velocity_gradient = L row by row)
 * becomes sys->cell. */
int mb_scene_read_space(const mb_scene_doc *d, mb_system *sys, mb_scene_space *space);
/* 1 when the scene's sphere contacts go through the neighbour list: it has an
 * [assembly] or a [space] section. */
int mb_scene_uses_neighbours(const mb_scene_doc *d);
/* The neighbour list of the scene's space for pairs closer than cutoff; NULL with the
 * error recorded at the [space] line. */
struct mb_neighbour_list *mb_scene_neighbour_list(const mb_scene_doc *d, const mb_system *sys,
                                                 const mb_scene_space *space, double cutoff);
/* Every pair of spheres (nodes with a radius) closer than the sum of their radii, found
 * through a list of the scene's space with the given cutoff (>= twice the largest radius;
 * minimum image in a box or cell): refused at the line of the second sphere's section. */
int mb_scene_check_sphere_overlaps(const mb_scene_doc *d, const mb_system *sys,
                                   const mb_scene_space *space, double cutoff);
#endif
