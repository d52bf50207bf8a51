/* mb_neighbour.h -- the one neighbour list of a many-body system, shared by every pair
 * interaction (pair potentials and sphere contact laws alike), after LAMMPS's neighbor.cpp.
 *
 * Build (O(n)): positions are sorted into bins (cells) of side >= cutoff + skin by a
 * counting sort; for each particle i the 27 bins around its own (fewer when a periodic
 * axis has fewer than 3 bins, each distinct bin once) are scanned and every j > i with
 *   |x_j - x_i| < cutoff + skin   (minimum image on periodic axes)
 * is kept.  The result is a Verlet half list in compressed rows: the neighbours of i are
 * neigh[first[i] .. first[i+1]-1], ascending.  The pair order is therefore (i, j)
 * lexicographic with i < j: the order of the brute-force double loop, whatever the bins,
 * so sums over the list are bit for bit those of the all-pairs loop over the same pairs,
 * and reports are byte-identical whatever --jobs is.
 *
 * Rebuild criterion (Verlet 1967; Allen & Tildesley, "Computer Simulation of Liquids",
 * 2nd ed., section 5.3): the list built at positions x0 holds every pair closer than
 * cutoff + skin at x0.  While every particle has moved less than skin/2 from x0, a pair
 * now closer than cutoff was closer than cutoff + skin at the build (triangle inequality:
 * the distance changed by at most skin), so it is in the list.  mb_neighbour_update
 * rebuilds as soon as some |x_i - x0_i| > skin/2.
 *
 * Boundaries: open (box NULL: bins over the bounding box of the positions), or an
 * orthogonal periodic box [0, L0) x [0, L1) x [0, L2) with the minimum image convention;
 * positions need not be wrapped.  Each periodic side must exceed 2 (cutoff + skin), so
 * that at most one image of j lies within cutoff + skin of i.
 *
 * Deforming periodic cell (mb_cell.h; mb_neighbour_new_cell): the parallelepiped of the
 * cell's side vectors H, read at every update, so that sheared periodic assemblies are
 * possible.  Bins are laid in cell coordinates s = H^-1 x in [0, 1), nb_a = floor(w_a /
 * (cutoff + skin)) along axis a, w_a = 1/|row a of H^-1| the width between opposite faces,
 * so each bin is at least cutoff + skin thick and the 27 bins around a particle's hold
 * every particle within cutoff + skin.  The minimum image is d + H p with p = -round(H^-1
 * d): for |d + H p| < w_min / 2 every |(H^-1 (d + H p))_a| < 1/2, so rounding finds that
 * image and it is unique; every width must stay above 2 (cutoff + skin) (checked at each
 * update; a cell sheared too far is refused with its width named).  The images move with
 * the cell: |x_j + H p - x_i| changes by at most 2 max|dx| + |dH p| <= 2 max|dx| +
 * sum_a |dH_a| (dH_a the change of side a since the build, p in {-1, 0, 1}^3), so the
 * rebuild criterion becomes max|dx| > skin/2 - sum_a |dH_a| / 2.
 *
 * Memory: after the first build the arrays only grow when a build finds more pairs than
 * their capacity (first build: 1.25 x the pairs found); mb_neighbour_stats counts the
 * allocations so that a caller can check there were none in its loop. */
#ifndef MB_NEIGHBOUR_H
#define MB_NEIGHBOUR_H

#include <stddef.h>
#include <stdint.h>

typedef struct mb_neighbour_list mb_neighbour_list;

/* A neighbour's index in the list: 32 bits, as LAMMPS's, so that the pair loops stream
 * 4 bytes a pair instead of 8; a build of more than MB_NEIGHBOUR_MAX_N particles is
 * refused (MB_EDOM, naming n and the limit). */
typedef uint32_t mb_neighbour_index;
#define MB_NEIGHBOUR_MAX_N ((size_t)UINT32_MAX)

typedef struct mb_neighbour_stats {
    unsigned long builds;        /* list builds so far */
    unsigned long allocations;   /* (re)allocations of the list's arrays so far */
    unsigned long candidates;    /* distances computed by the last build */
    size_t pairs;                /* pairs in the list */
    size_t bins[3];              /* bins per axis of the last build */
} mb_neighbour_stats;

/* A list for pairs closer than cutoff with a skin (cutoff > 0 and skin >= 0 finite);
 * box = NULL for open boundaries, else the three periodic side lengths, each finite and
 * > 2 (cutoff + skin).  NULL with MB_EDOM recorded on a bad parameter. */
mb_neighbour_list *mb_neighbour_new(double cutoff, double skin, const double *box);
/* A list in the deforming periodic cell `cell` (not owned; it must outlive the list),
 * whose sides are read at every update; NULL with MB_EDOM when a width is not above
 * 2 (cutoff + skin). */
struct mb_cell;
mb_neighbour_list *mb_neighbour_new_cell(double cutoff, double skin, const struct mb_cell *cell);
/* The list's deforming cell, or NULL. */
const struct mb_cell *mb_neighbour_cell(const mb_neighbour_list *nl);
/* Sharing: every pair interaction that uses the list (pair potentials, contact laws)
 * retains it; mb_neighbour_free releases one owner and frees the list with the last. */
mb_neighbour_list *mb_neighbour_retain(mb_neighbour_list *nl);
void mb_neighbour_free(mb_neighbour_list *nl);

/* Build the list at positions x (3n, finite; MB_EDOM names the first non-finite one, or
 * n above MB_NEIGHBOUR_MAX_N before x is read). */
int mb_neighbour_build(mb_neighbour_list *nl, const double *x, size_t n);
/* Rebuild when n changed, at the first call, or when some particle moved more than
 * skin/2 since the last build (above); *rebuilt (may be NULL) says whether it did. */
int mb_neighbour_update(mb_neighbour_list *nl, const double *x, size_t n, int *rebuilt);
/* 1 when some particle of x moved more than skin/2 since the last build (or there was
 * none, or n changed): the list may then miss a pair closer than cutoff. */
int mb_neighbour_stale(const mb_neighbour_list *nl, const double *x, size_t n);
/* The checked mode: scan every pair of x closer than cutoff (by the bins, O(n)) and
 * return MB_EFAILED, naming the first pair missing from the list with its distance, when
 * the list lacks one (positions moved beyond the skin without a rebuild); MB_SUCCESS
 * when none is missing. */
int mb_neighbour_verify(mb_neighbour_list *nl, const double *x, size_t n);

/* The half list: neighbours of i are neigh[first[i]] ... neigh[first[i+1] - 1] (i < j,
 * ascending); first has n + 1 entries.  Valid until the next build. */
const size_t *mb_neighbour_first(const mb_neighbour_list *nl);
const mb_neighbour_index *mb_neighbour_neigh(const mb_neighbour_list *nl);
size_t mb_neighbour_count(const mb_neighbour_list *nl);
double mb_neighbour_cutoff(const mb_neighbour_list *nl);
double mb_neighbour_skin(const mb_neighbour_list *nl);
/* 1 with the three side lengths in box for a periodic box; 2 for a deforming cell (its
 * sides: mb_neighbour_cell); 0 (box zeroed) for open boundaries. */
int mb_neighbour_box(const mb_neighbour_list *nl, double box[3]);
/* d = x_j - x_i, reduced to the minimum image on periodic axes. */
void mb_neighbour_delta(const mb_neighbour_list *nl, const double *x, size_t i, size_t j,
                        double d[3]);
/* The periodic image of j nearest to i: its periods p (integers; the box's axes or the
 * cell's sides) and shift, x_j - x_i + shift[a] being mb_neighbour_delta's d[a] bit for
 * bit (zero on open axes).  In a deforming cell shift = H p with the sides of the last
 * update. */
void mb_neighbour_image(const mb_neighbour_list *nl, const double *x, size_t i, size_t j,
                        double shift[3], double periods[3]);
/* The shift of the image of periods p: H p with the sides of the last update (box: the
 * sides times p; zero on open axes). */
void mb_neighbour_shift(const mb_neighbour_list *nl, const double periods[3], double shift[3]);
mb_neighbour_stats mb_neighbour_get_stats(const mb_neighbour_list *nl);
/* The list's space in the words of run.json (doc/external.md, section 3): "boundary" =
 * "open" | "periodic" (with "box": the three sides of [0, L0) x [0, L1) x [0, L2)) |
 * "deforming-cell" (the cell is the system's deforming-cell model), and the bench's own
 * search parameters "neighbour_cutoff" and "skin", added to the JSON object model. */
struct json_t;
int mb_neighbour_describe(const mb_neighbour_list *nl, struct json_t *model);

#endif
