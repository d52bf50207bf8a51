/* mb_scene_contact.h -- contact laws per pair of materials in a scene (scene_contact.c).
 * Private to the problems module. */
#ifndef MB_SCENE_CONTACT_H
#define MB_SCENE_CONTACT_H
#include "mb_options.h"
#include "mb_scene_doc.h"
#include "mb_scene_place.h"
#include "mb_system.h"

#define MB_SCENE_MATERIALS_MAX 16
#define MB_SCENE_LAWS_MAX 64

typedef struct mb_scene_materials {
    size_t count;
    char names[MB_SCENE_MATERIALS_MAX][64];
} mb_scene_materials;

enum { MB_LAW_SIGNORINI = 1, MB_LAW_LINEAR = 2, MB_LAW_HERTZ = 3 };

typedef struct mb_scene_law {
    mb_scene_section *section;
    int kind;                /* MB_LAW_* */
    int ma, mb;              /* materials of the pair; -1, -1: the default law */
    double mu, e;            /* signorini */
    mb_scene_dem_law dem;    /* linear and hertz */
    void *model[2];          /* DEM models made from it: sphere pairs, walls */
} mb_scene_law;

/* Index of a material name (added when new); -1 when the table is full. */
int mb_scene_material(mb_scene_materials *M, const char *name);
/* Material of a body or obstacle section ("default" without a `material` key). */
int mb_scene_section_material(const mb_scene_doc *d, mb_scene_section *s, mb_scene_materials *M);
/* Every [contact] section; all Signorini or all DEM. */
int mb_scene_read_laws(const mb_scene_doc *d, mb_scene_materials *M, mb_scene_law *out, size_t *count);
/* The law of a pair of materials (its own, else the default; NULL: none). */
const mb_scene_law *mb_scene_law_of(const mb_scene_law *laws, size_t count, int a, int b);
/* Symmetric M->count^2 tables of mu and e (0 where no law applies). */
int mb_scene_signorini_tables(const mb_scene_law *laws, size_t count, const mb_scene_materials *M,
                              double *mu, double *e);
/* Add sphere i against sphere j, or against the plane (point, normal), or with box_half
 * against the static box j of those half-extents, to the DEM model of L. */
int mb_scene_dem_pair(const mb_scene_doc *d, mb_system *sys, mb_scene_law *L, size_t i, size_t j,
                      const double *plane_point, const double *plane_normal,
                      const double *box_half);
#endif
