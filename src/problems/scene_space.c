/* scene_space.c -- the [space] section of a scene: the space its bodies live in and the
 * neighbour list that finds their sphere contacts (doc/scenes.md, "Assemblies").
 *   (no [space])                 open space
 *   box = L0, L1, L2             the periodic box [0, L0) x [0, L1) x [0, L2)
 *   cell = H (9, row by row)     the deforming periodic cell of mb_cell.h, whose sides are
 *   velocity_gradient = L (9)    the columns of H, deformed by the constant gradient L
 *   skin = s                     the neighbour-list skin (default 0.2 x the cutoff)
 * The list (mb_neighbour.h) is the one the many-body problems use; a scene takes its sphere
 * contacts from it when it has an [assembly] or a [space] section. */
#include "mb_neighbour.h"
#include "mb_scene_assembly.h"
#include "mb_status.h"

#include <math.h>
#include <string.h>

static const char *const space_keys[] = { "box", "cell", "velocity_gradient", "skin", NULL };

int mb_scene_uses_neighbours(const mb_scene_doc *d)
{
    for (size_t k = 0; k < d->n; k++)
        if (strcmp(d->sec[k].kind, "assembly") == 0 || strcmp(d->sec[k].kind, "space") == 0)
            return 1;
    return 0;
}

static mb_scene_section *space_section(const mb_scene_doc *d)
{
    for (size_t k = 0; k < d->n; k++)
        if (strcmp(d->sec[k].kind, "space") == 0)
            return &d->sec[k];
    return NULL;
}

static int read_cell(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys)
{
    double H[9], L[9] = { 0 };
    int st = mb_scene_vector(d, mb_scene_get(s, "cell"), H, 9);
    if (st || (st = mb_scene_opt_vector(d, s, "velocity_gradient", L, 9)))
        return st;
    sys->cell = mb_cell_new(H, L);
    return sys->cell ? MB_SUCCESS
                     : mb_scene_fail(d, mb_scene_get(s, "cell")->line, "%s", mb_last_error());
}

int mb_scene_read_space(const mb_scene_doc *d, mb_system *sys, mb_scene_space *space)
{
    mb_scene_section *s = space_section(d);
    memset(space, 0, sizeof *space);
    space->skin = -1.0;
    if (s == NULL)
        return MB_SUCCESS;
    space->line = s->line;
    int st = mb_scene_check_keys(d, s, space_keys);
    mb_scene_entry *box = mb_scene_get(s, "box"), *cell = mb_scene_get(s, "cell");
    mb_scene_entry *grad = mb_scene_get(s, "velocity_gradient"), *skin = mb_scene_get(s, "skin");
    if (st)
        return st;
    if (box && cell)
        return mb_scene_fail(d, cell->line, "[space]: give 'box' (a periodic box) or 'cell' (a "
                             "deforming cell), not both");
    if (grad && !cell)
        return mb_scene_fail(d, grad->line, "'velocity_gradient' deforms a 'cell'; give the "
                             "cell");
    if (skin && ((st = mb_scene_double(d, skin, &space->skin)) || !(space->skin >= 0)))
        return st ? st : mb_scene_fail(d, skin->line, "skin = %s: need skin >= 0", skin->value);
    if (box) {
        space->kind = MB_SPACE_BOX;
        if ((st = mb_scene_vector(d, box, space->box, 3)))
            return st;
        for (int a = 0; a < 3; a++)
            if (!(space->box[a] > 0))
                return mb_scene_fail(d, box->line, "box = %s: need three sides > 0", box->value);
    } else if (cell) {
        space->kind = MB_SPACE_CELL;
        return read_cell(d, s, sys);
    }
    return MB_SUCCESS;
}

mb_neighbour_list *mb_scene_neighbour_list(const mb_scene_doc *d, const mb_system *sys,
                                           const mb_scene_space *space, double cutoff)
{
    double skin = space->skin >= 0 ? space->skin : 0.2 * cutoff;
    mb_neighbour_list *nl = space->kind == MB_SPACE_CELL
                                ? mb_neighbour_new_cell(cutoff, skin, sys->cell)
                                : mb_neighbour_new(cutoff, skin, space->kind == MB_SPACE_BOX
                                                                     ? space->box : NULL);
    if (nl == NULL)
        mb_scene_fail(d, space->line ? space->line : 1, "the neighbour list of the contacts "
                      "(cutoff 2 r_max = %g, skin %g): %s", cutoff, skin, mb_last_error());
    return nl;
}

int mb_scene_check_sphere_overlaps(const mb_scene_doc *d, const mb_system *sys,
                                   const mb_scene_space *space, double cutoff)
{
    mb_scene_space tight = *space;
    tight.skin = 0.0;
    const mb_nodes *s = sys->nodes;
    mb_neighbour_list *nl = mb_scene_neighbour_list(d, sys, &tight, cutoff);
    int st = nl ? mb_neighbour_build(nl, s->x, s->n) : MB_EINVAL;
    if (nl && st != MB_SUCCESS)
        st = mb_scene_fail(d, space->line ? space->line : 1, "%s", mb_last_error());
    const size_t *first = nl ? mb_neighbour_first(nl) : NULL;
    const mb_neighbour_index *neigh = nl ? mb_neighbour_neigh(nl) : NULL;
    for (size_t i = 0; i < s->n && st == MB_SUCCESS; i++)
        for (size_t k = first[i]; k < first[i + 1] && st == MB_SUCCESS; k++) {
            size_t j = neigh[k];
            double dx[3];
            mb_neighbour_delta(nl, s->x, i, j, dx);
            double dist = sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
            if (dist < s->radius[i] + s->radius[j])
                st = mb_scene_fail(d, mb_scene_node_section(d, j)->line, "'%s' and '%s' overlap "
                                   "at t = 0 (centres %.6g apart, radii %.6g and %.6g)",
                                   mb_scene_node_name(d, i), mb_scene_node_name(d, j), dist,
                                   s->radius[i], s->radius[j]);
        }
    mb_neighbour_free(nl);
    return st;
}
