/* contact_neighbours.c -- sphere contacts of every law found through the shared neighbour
 * list (mb_contact.h, mb_contact_use_neighbours; doc/dem.md "Many spheres").
 *
 * A contact model in neighbour mode holds its walls (sphere-plane pairs added before the
 * list was attached) followed by one candidate pair per pair of the list, in the list's
 * (i, j) lexicographic order.  Every pair in contact is in the list: a contact needs
 * |x_j - x_i| < r_i + r_j <= 2 r_max <= cutoff (checked when the list is attached), and the
 * list holds every pair closer than cutoff while no sphere has moved skin/2 since its
 * build (mb_neighbour.h).  The pairs are made again after each build of the list (by this
 * model or by another interaction sharing it); the contact history of a frictional law
 * is keyed by the pair's (i, j): a merge of the old and new sorted pair sequences carries
 * each surviving pair's xi over, O(pairs).  The per-pair coefficients are those of pairs
 * added by hand (contact_pairs.c), so the forces are bit for bit those of the same model
 * with every pair of spheres added by hand in (i, j) order: pairs outside the list are
 * apart and add nothing.
 *
 * Periodic boxes and deforming cells: each pair carries the periods p of the image of j
 * found at the build (minimum image, mb_neighbour_image); the list is rebuilt before any
 * pair distance changed by skin, and an image within cutoff is the unique one within
 * cutoff + skin (widths > 2 (cutoff + skin)), so that image stays the one that can touch.
 * In a deforming cell its shift H p and velocity L H p follow the cell (follow_cell). */
#include "contact_set.h"
#include "mb_cell.h"
#include "mb_status.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every node a sphere of finite radius > 0 and finite mass > 0; the largest radius. */
static int spheres_valid(const struct contact_set *set, const mb_nodes *s, double *rmax)
{
    *rmax = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        if (!(isfinite(s->radius[i]) && s->radius[i] > 0.0))
            MB_ERROR(MB_EDOM, "%s: node %zu needs a finite radius > 0 to be a sphere of the "
                     "neighbour list (got %g)", set->type->name, i, s->radius[i]);
        if (!(isfinite(s->mass[i]) && s->mass[i] > 0.0))
            MB_ERROR(MB_EDOM, "%s: node %zu needs a finite mass > 0 to be a sphere of the "
                     "neighbour list (got %g)", set->type->name, i, s->mass[i]);
        *rmax = fmax(*rmax, s->radius[i]);
    }
    return MB_SUCCESS;
}

int mb_contact_use_neighbours(void *model, const mb_nodes *s, mb_neighbour_list *nl)
{
    struct contact_set *set = model;
    if (nl == NULL)
        MB_ERROR(MB_EINVAL, "%s: no neighbour list given", set->type->name);
    if (set->nl != NULL)
        MB_ERROR(MB_EINVAL, "%s: a neighbour list is attached already", set->type->name);
    for (size_t m = 0; m < set->count; m++)
        if (!set->items[m].plane)
            MB_ERROR(MB_EINVAL, "%s: sphere pair %zu-%zu was added by hand; a model takes its "
                     "sphere pairs either by hand or from a neighbour list", set->type->name,
                     set->items[m].i, set->items[m].j);
    double rmax;
    int st = spheres_valid(set, s, &rmax);
    if (st != MB_SUCCESS)
        return st;
    if (2.0 * rmax > mb_neighbour_cutoff(nl))
        MB_ERROR(MB_EDOM, "%s: the neighbour list's cutoff %g is below the largest contact "
                 "distance 2 r_max = %g: contacts would be missed", set->type->name,
                 mb_neighbour_cutoff(nl), 2.0 * rmax);
    set->nl = mb_neighbour_retain(nl);
    set->nwalls = set->count;
    set->nodes = s->n;
    set->builds_seen = 0;   /* the first sync makes the pairs (builds >= 1 by then) */
    return MB_SUCCESS;
}

/* periodic hook of every contact type (mb_forces.h): a set in neighbour mode whose list is
 * a periodic box or a deforming cell acts across the faces (minimum image) and so
 * conserves no angular momentum; fixed pairs and open lists act in open space. */
int mb_contact_set_periodic(const void *params)
{
    const struct contact_set *set = params;
    double box[3];
    return set->nl != NULL && mb_neighbour_box(set->nl, box) != 0;
}

static int grow(void *pp, size_t count, size_t size)
{
    void **p = pp;
    void *q = realloc(*p, (count ? count : 1) * size);
    if (q == NULL)
        MB_ERROR(MB_ENOMEM, "contact pairs: cannot allocate %zu pairs", count);
    *p = q;
    return MB_SUCCESS;
}

/* items, old_ij, from and imaged for count pairs (walls kept at the front of items). */
static int reserve(struct contact_set *set, size_t count)
{
    if (count <= set->cap && set->old_ij != NULL)
        return MB_SUCCESS;
    size_t cap = count + count / 4 + 8;
    if (grow(&set->items, cap, sizeof *set->items) != MB_SUCCESS
        || grow(&set->old_ij, 2 * cap, sizeof *set->old_ij) != MB_SUCCESS
        || grow(&set->from, cap, sizeof *set->from) != MB_SUCCESS
        || grow(&set->imaged, cap, sizeof *set->imaged) != MB_SUCCESS)
        return MB_ENOMEM;
    set->cap = cap;
    return MB_SUCCESS;
}

/* (old_ij[2q], old_ij[2q + 1]) < (i, j) lexicographically */
static int before(const size_t *old_ij, size_t q, size_t i, size_t j)
{
    return old_ij[2 * q] < i || (old_ij[2 * q] == i && old_ij[2 * q + 1] < j);
}

/* 1 when every sphere pair has the coefficients of the first (bit for bit). */
static int coefficients_uniform(const struct contact_set *set)
{
    const struct contact_pair *a = &set->items[set->nwalls];
    for (size_t m = set->nwalls + 1; m < set->count; m++) {
        const struct contact_pair *b = &set->items[m];
        if (memcmp(&a->k, &b->k, sizeof a->k) || memcmp(&a->c, &b->c, sizeof a->c)
            || memcmp(&a->kt, &b->kt, sizeof a->kt) || memcmp(&a->ct, &b->ct, sizeof a->ct)
            || memcmp(&a->roll, &b->roll, sizeof a->roll))
            return 0;
    }
    return 1;
}

/* The shift H p of the image of periods p with the cell's current sides (as the list's
 * minimum image computes it) and its velocity L H p, the medium velocity of the image's
 * offset, L the cell's gradient of the last step (the velocities a leap-frog holds are
 * of its mid-step). */
static void image_follow(const mb_neighbour_list *nl, const mb_cell *cell,
                         const double period[3], double shift[3], double vshift[3])
{
    mb_neighbour_shift(nl, period, shift);
    for (int a = 0; a < 3; a++)
        vshift[a] = cell->L[3 * a] * shift[0] + cell->L[3 * a + 1] * shift[1]
                    + cell->L[3 * a + 2] * shift[2];
}

/* In a deforming cell the images move: every imaged pair's record and every entry of the
 * image table follow the cell (image_follow).  Nothing in a fixed box (vshift stays 0). */
static void follow_cell(struct contact_set *set)
{
    const mb_cell *cell = mb_neighbour_cell(set->nl);
    if (cell == NULL)
        return;
    for (size_t m = set->nwalls; m < set->count; m++) {
        struct contact_pair *cp = &set->items[m];
        if (cp->imaged)
            image_follow(set->nl, cell, cp->period, cp->shift, cp->vshift);
    }
    for (int e = 0; e < CONTACT_IMAGES; e++)
        if (set->images_used >> e & 1u) {
            struct contact_image *im = &set->images[e];
            image_follow(set->nl, cell, im->period, im->shift, im->vshift);
        }
}

/* The image code of a pair of periods p (contact_set.h): per axis -1, -0, +0, +1 as 0..3,
 * 1 + the three in base 4; CONTACT_IMAGE_RECORD when some |p_a| > 1. */
static unsigned char image_code(const double period[3])
{
    unsigned code = 0;
    for (int a = 2; a >= 0; a--) {
        const double p = period[a];
        unsigned digit;
        if (p == -1.0)
            digit = 0;
        else if (p == 0.0)
            digit = signbit(p) ? 1 : 2;
        else if (p == 1.0)
            digit = 3;
        else
            return CONTACT_IMAGE_RECORD;
        code = 4 * code + digit;
    }
    return (unsigned char)(1 + code);
}

/* Pair cp's image code, its shift and velocity entered in the table at the first pair of
 * each code (the others have the same, computed by the same function of the periods). */
static unsigned char image_enter(struct contact_set *set, const struct contact_pair *cp)
{
    if (!cp->imaged)
        return 0;
    const unsigned char code = image_code(cp->period);
    if (code == CONTACT_IMAGE_RECORD || (set->images_used >> (code - 1) & 1u))
        return code;
    struct contact_image *im = &set->images[code - 1];
    memcpy(im->shift, cp->shift, sizeof im->shift);
    memcpy(im->vshift, cp->vshift, sizeof im->vshift);
    memcpy(im->period, cp->period, sizeof im->period);
    set->images_used |= (uint64_t)1 << (code - 1);
    return code;
}

/* The pairs made again from the list: walls kept first, then every listed pair with its
 * image shift, and for each the index of the same (i, j) among the previous pairs (merge
 * of two ascending sequences: the previous build's (i, j), saved first, and the list). */
static int pairs_from_list(struct contact_set *set, const mb_nodes *s)
{
    const mb_neighbour_list *nl = set->nl;
    size_t count = set->nwalls + mb_neighbour_count(nl), old_count = set->count;
    if (reserve(set, count > old_count ? count : old_count) != MB_SUCCESS)
        return MB_ENOMEM;
    const size_t old_pairs = old_count - set->nwalls;
    for (size_t q = 0; q < old_pairs; q++) {
        set->old_ij[2 * q] = set->items[set->nwalls + q].i;
        set->old_ij[2 * q + 1] = set->items[set->nwalls + q].j;
    }
    for (size_t m = 0; m < set->nwalls; m++)
        set->from[m] = m;
    const size_t *first = mb_neighbour_first(nl);
    const mb_neighbour_index *neigh = mb_neighbour_neigh(nl);
    size_t m = set->nwalls, q = 0;
    set->images_used = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t p = first[i]; p < first[i + 1]; p++, m++) {
            size_t j = neigh[p];
            struct contact_pair *cp = &set->items[m];
            mb_contact_pair_make(set, s, i, j, cp);
            mb_neighbour_image(nl, s->x, i, j, cp->shift, cp->period);
            cp->imaged = cp->period[0] != 0.0 || cp->period[1] != 0.0 || cp->period[2] != 0.0;
            set->imaged[p] = image_enter(set, cp);
            while (q < old_pairs && before(set->old_ij, q, i, j))
                q++;
            set->from[m] = q < old_pairs && set->old_ij[2 * q] == i
                                   && set->old_ij[2 * q + 1] == j ? set->nwalls + q : SIZE_MAX;
        }
    set->count = count;
    set->uniform = count > set->nwalls && coefficients_uniform(set);
    follow_cell(set);
    return set->friction ? mb_contact_history_remap(set->hist, set->from, count) : MB_SUCCESS;
}

int mb_contact_set_sync(const struct contact_set *cset, const mb_nodes *s)
{
    struct contact_set *set = (struct contact_set *)cset;   /* the pairs are mutable state */
    if (set->nl == NULL)
        return MB_SUCCESS;
    if (s->n != set->nodes)
        MB_ERROR(MB_EINVAL, "%s: the neighbour list was attached for %zu spheres, evaluated "
                 "on %zu", set->type->name, set->nodes, s->n);
    int st = mb_neighbour_update(set->nl, s->x, s->n, NULL);
    if (st != MB_SUCCESS)
        return st;
    unsigned long builds = mb_neighbour_get_stats(set->nl).builds;
    if (builds == set->builds_seen) {
        follow_cell(set);
        return MB_SUCCESS;
    }
    st = pairs_from_list(set, s);
    if (st == MB_SUCCESS)
        set->builds_seen = builds;
    return st;
}

int mb_contact_pair_nodes(const void *model, size_t m, size_t *i, size_t *j, int *plane)
{
    const struct contact_set *set = model;
    if (m >= set->count)
        MB_ERROR(MB_EINVAL, "contact %zu out of range (%zu contacts)", m, set->count);
    *i = set->items[m].i;
    *j = set->items[m].j;
    *plane = set->items[m].plane != 0;
    return MB_SUCCESS;
}

size_t mb_contact_bytes_per_pair(int friction)
{
    size_t history = 2 * (6 * sizeof(double) + 1);   /* xi at two levels, sliding; remap copy */
    return sizeof(struct contact_pair) + 3 * sizeof(size_t) + 1 + (friction ? history : 0);
}
