/* neighbour_list.c -- bins and the Verlet half list with its displacement criterion
 * (mb_neighbour.h states the method and its guarantees). */
#include "mb_neighbour.h"
#include "mb_cell.h"
#include "mb_json.h"
#include "mb_status.h"
#include "mb_index_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mb_neighbour_list {
    unsigned refs;         /* owners: mb_neighbour_retain adds one, mb_neighbour_free drops one */
    double cutoff, skin;
    int periodic;          /* 1: orthogonal box; 2: the deforming cell `cell` */
    double box[3];
    const mb_cell *cell;   /* not owned; its H is read at every update */
    double H[9], Hinv[9];  /* the cell's sides (columns) and inverse at the last update */
    double H0[9];          /* the cell's sides at the last build */
    /* the list */
    size_t n;              /* particles of the last build (0: none yet) */
    size_t *first;         /* n + 1 */
    mb_neighbour_index *neigh; /* pair_cap */
    size_t pair_cap, n_cap;
    double *x0;            /* 3n positions of the last build */
    /* bins, scratch of a build or a verification */
    size_t nb[3];
    double lo[3], width[3];
    size_t *bin_of;        /* n */
    size_t *bin_atoms;     /* n, particles sorted by bin, ascending within a bin */
    size_t *bin_start;     /* nbins + 1 */
    size_t bin_cap;
    mb_neighbour_stats stats;
};

static int finite_pos(double a) { return isfinite(a) && a > 0.0; }

mb_neighbour_list *mb_neighbour_new(double cutoff, double skin, const double *box)
{
    if (!finite_pos(cutoff))
        MB_ERROR_NULL(MB_EDOM, "neighbour list: cutoff must be finite and > 0 (got %g)", cutoff);
    if (!(isfinite(skin) && skin >= 0.0))
        MB_ERROR_NULL(MB_EDOM, "neighbour list: skin must be finite and >= 0 (got %g)", skin);
    if (box)
        for (int a = 0; a < 3; a++)
            if (!(isfinite(box[a]) && box[a] > 2.0 * (cutoff + skin)))
                MB_ERROR_NULL(MB_EDOM,
                              "neighbour list: periodic side %d must be finite and > 2 (cutoff"
                              " + skin) = %g (got %g)", a, 2.0 * (cutoff + skin), box[a]);
    mb_neighbour_list *nl = calloc(1, sizeof *nl);
    if (nl == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a neighbour list");
    nl->refs = 1;
    nl->cutoff = cutoff;
    nl->skin = skin;
    nl->periodic = box != NULL;
    for (int a = 0; a < 3; a++)
        nl->box[a] = box ? box[a] : 0.0;
    return nl;
}

mb_neighbour_list *mb_neighbour_retain(mb_neighbour_list *nl)
{
    nl->refs++;
    return nl;
}

void mb_neighbour_free(mb_neighbour_list *nl)
{
    if (nl == NULL || --nl->refs > 0)
        return;
    free(nl->first);
    free(nl->neigh);
    free(nl->x0);
    free(nl->bin_of);
    free(nl->bin_atoms);
    free(nl->bin_start);
    free(nl);
}

/* ---- geometry ---- */

static double min_image(const mb_neighbour_list *nl, int a, double d)
{
    return nl->periodic ? d - nl->box[a] * nearbyint(d / nl->box[a]) : d;
}

/* Deforming cell: the periods p = -round(H^-1 d) of the image of d nearest in the cell's
 * coordinates; unique and the nearest image in space for |d + H p| below half the
 * cell's smallest width (checked at every build, mb_neighbour.h). */
static void cell_periods(const mb_neighbour_list *nl, const double d[3], double p[3])
{
    for (int a = 0; a < 3; a++)
        p[a] = -nearbyint(nl->Hinv[3 * a] * d[0] + nl->Hinv[3 * a + 1] * d[1]
                          + nl->Hinv[3 * a + 2] * d[2]);
}

static void cell_shift(const mb_neighbour_list *nl, const double p[3], double shift[3])
{
    for (int a = 0; a < 3; a++)
        shift[a] = nl->H[3 * a] * p[0] + nl->H[3 * a + 1] * p[1] + nl->H[3 * a + 2] * p[2];
}

void mb_neighbour_delta(const mb_neighbour_list *nl, const double *x, size_t i, size_t j,
                        double d[3])
{
    if (nl->periodic == 2) {
        double p[3], shift[3];
        for (int a = 0; a < 3; a++)
            d[a] = x[3 * j + a] - x[3 * i + a];
        cell_periods(nl, d, p);
        cell_shift(nl, p, shift);
        for (int a = 0; a < 3; a++)
            d[a] += shift[a];
        return;
    }
    for (int a = 0; a < 3; a++)
        d[a] = min_image(nl, a, x[3 * j + a] - x[3 * i + a]);
}

void mb_neighbour_image(const mb_neighbour_list *nl, const double *x, size_t i, size_t j,
                        double shift[3], double periods[3])
{
    double d[3];
    for (int a = 0; a < 3; a++)
        d[a] = x[3 * j + a] - x[3 * i + a];
    if (nl->periodic == 2) {
        cell_periods(nl, d, periods);
        cell_shift(nl, periods, shift);
        return;
    }
    /* min_image's d - L round(d/L) is d + (-(L round(d/L))) in IEEE arithmetic */
    for (int a = 0; a < 3; a++) {
        periods[a] = nl->periodic ? -nearbyint(d[a] / nl->box[a]) : 0.0;
        shift[a] = nl->periodic ? -(nl->box[a] * nearbyint(d[a] / nl->box[a])) : 0.0;
    }
}

void mb_neighbour_shift(const mb_neighbour_list *nl, const double periods[3], double shift[3])
{
    if (nl->periodic == 2) {
        cell_shift(nl, periods, shift);
        return;
    }
    for (int a = 0; a < 3; a++)
        shift[a] = nl->periodic ? nl->box[a] * periods[a] : 0.0;
}

/* ---- deforming cell ---- */

/* Hinv = adj(H) / det H (cofactors); the widths of the cell between opposite faces,
 * w_a = 1 / |row a of H^-1|.  MB_EDOM when H is singular or not finite. */
static int cell_inverse(mb_neighbour_list *nl, double w[3])
{
    const double *H = nl->cell->H;
    double *A = nl->Hinv;
    A[0] = H[4] * H[8] - H[5] * H[7];
    A[1] = H[2] * H[7] - H[1] * H[8];
    A[2] = H[1] * H[5] - H[2] * H[4];
    A[3] = H[5] * H[6] - H[3] * H[8];
    A[4] = H[0] * H[8] - H[2] * H[6];
    A[5] = H[2] * H[3] - H[0] * H[5];
    A[6] = H[3] * H[7] - H[4] * H[6];
    A[7] = H[1] * H[6] - H[0] * H[7];
    A[8] = H[0] * H[4] - H[1] * H[3];
    double det = H[0] * A[0] + H[1] * A[3] + H[2] * A[6];
    if (!(isfinite(det) && det != 0.0))
        MB_ERROR(MB_EDOM, "neighbour list: the periodic cell is singular or not finite "
                 "(det H = %g)", det);
    for (int k = 0; k < 9; k++)
        A[k] /= det;
    memcpy(nl->H, H, sizeof nl->H);
    for (int a = 0; a < 3; a++)
        w[a] = 1.0 / sqrt(A[3 * a] * A[3 * a] + A[3 * a + 1] * A[3 * a + 1]
                          + A[3 * a + 2] * A[3 * a + 2]);
    return MB_SUCCESS;
}

/* The cell's current sides read, each width above 2 (cutoff + skin): then the image of j
 * within cutoff + skin of i is unique and found by rounding (cell_periods). */
static int cell_refresh(mb_neighbour_list *nl, double w[3])
{
    int rc = cell_inverse(nl, w);
    if (rc)
        return rc;
    for (int a = 0; a < 3; a++)
        if (!(w[a] > 2.0 * (nl->cutoff + nl->skin)))
            MB_ERROR(MB_EDOM, "neighbour list: the periodic cell's width %d between opposite "
                     "faces is %g, not above 2 (cutoff + skin) = %g (the cell deformed too "
                     "far for the list)", a, w[a], 2.0 * (nl->cutoff + nl->skin));
    return MB_SUCCESS;
}

mb_neighbour_list *mb_neighbour_new_cell(double cutoff, double skin, const struct mb_cell *cell)
{
    if (cell == NULL)
        MB_ERROR_NULL(MB_EINVAL, "neighbour list: no periodic cell given");
    mb_neighbour_list *nl = mb_neighbour_new(cutoff, skin, NULL);
    if (nl == NULL)
        return NULL;
    nl->periodic = 2;
    nl->cell = cell;
    double w[3];
    if (cell_refresh(nl, w) != MB_SUCCESS) {
        mb_neighbour_free(nl);
        return NULL;
    }
    return nl;
}

/* |H - H0| summed over the columns: the largest change of an image offset H p with p in
 * {-1, 0, 1}^3 since the build (0 outside a deforming cell). */
static double cell_drift(const mb_neighbour_list *nl)
{
    if (nl->periodic != 2)
        return 0.0;
    double sum = 0.0;
    for (int c = 0; c < 3; c++) {
        double d0 = nl->cell->H[c] - nl->H0[c], d1 = nl->cell->H[3 + c] - nl->H0[3 + c];
        double d2 = nl->cell->H[6 + c] - nl->H0[6 + c];
        sum += sqrt(d0 * d0 + d1 * d1 + d2 * d2);
    }
    return sum;
}

static double dist2(const mb_neighbour_list *nl, const double *x, size_t i, size_t j)
{
    double d[3];
    mb_neighbour_delta(nl, x, i, j, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* ---- memory (every allocation after mb_neighbour_new is counted) ---- */

static int grow(void *pp, size_t count, size_t size, mb_neighbour_stats *st)
{
    void **p = pp;
    void *q = realloc(*p, (count ? count : 1) * size);
    if (q == NULL)
        MB_ERROR(MB_ENOMEM, "neighbour list: cannot allocate %zu entries", count);
    *p = q;
    st->allocations++;
    return MB_SUCCESS;
}

static int reserve_particles(mb_neighbour_list *nl, size_t n)
{
    if (n <= nl->n_cap && nl->first)
        return MB_SUCCESS;
    int rc;
    if ((rc = grow(&nl->first, n + 1, sizeof(size_t), &nl->stats)) ||
        (rc = grow(&nl->x0, 3 * n, sizeof(double), &nl->stats)) ||
        (rc = grow(&nl->bin_of, n, sizeof(size_t), &nl->stats)) ||
        (rc = grow(&nl->bin_atoms, n, sizeof(size_t), &nl->stats)))
        return rc;
    nl->n_cap = n;
    return MB_SUCCESS;
}

/* ---- bins ---- */

/* Bins of side >= w on every axis: L / floor(L / w) on a periodic axis, the bounding
 * box's extent / floor(extent / w) on an open one; at most 2 n + 27 bins in all (the
 * widest axis gets fewer, wider bins), so that sparse sets do not cost more than O(n). */
static void bin_layout(mb_neighbour_list *nl, const double *x, size_t n, double w,
                       const double width[3])
{
    double ext[3];
    for (int a = 0; a < 3; a++) {
        if (nl->periodic == 2) {
            /* cell coordinates s in [0, 1): bins of 1/nb, each w_a/nb >= w thick */
            nl->lo[a] = 0.0;
            ext[a] = 1.0;
            double k = floor(width[a] / w);
            nl->nb[a] = k >= 1.0 ? (k < 1e6 ? (size_t)k : 1000000) : 1;
            continue;
        } else if (nl->periodic) {
            nl->lo[a] = 0.0;
            ext[a] = nl->box[a];
        } else {
            double lo = x[a], hi = x[a];
            for (size_t i = 1; i < n; i++) {
                lo = fmin(lo, x[3 * i + a]);
                hi = fmax(hi, x[3 * i + a]);
            }
            nl->lo[a] = lo;
            ext[a] = hi - lo;
        }
        double k = floor(ext[a] / w);
        nl->nb[a] = k >= 1.0 ? (k < 1e6 ? (size_t)k : 1000000) : 1;
    }
    (void)width;
    while (nl->nb[0] * nl->nb[1] * nl->nb[2] > 2 * n + 27) {
        int widest = 0;
        for (int a = 1; a < 3; a++)
            if (nl->nb[a] > nl->nb[widest])
                widest = a;
        nl->nb[widest] = (nl->nb[widest] + 1) / 2;
    }
    for (int a = 0; a < 3; a++)
        nl->width[a] = ext[a] > 0.0 ? ext[a] / (double)nl->nb[a] : 1.0;
}

static size_t axis_bin(const mb_neighbour_list *nl, int a, double xa)
{
    double s = (xa - nl->lo[a]) / nl->width[a];
    if (nl->periodic)
        s -= (double)nl->nb[a] * floor(s / (double)nl->nb[a]);
    size_t b = s > 0.0 ? (size_t)s : 0;
    return b < nl->nb[a] ? b : nl->nb[a] - 1;
}

/* Counting sort of the particles by bin: bin_atoms holds them bin by bin, each bin in
 * ascending index order. */
/* The coordinate of particle i binned along axis a: x_a, or in a deforming cell its cell
 * coordinate s_a = (H^-1 x)_a (axis_bin wraps it into [0, 1)). */
static double bin_coordinate(const mb_neighbour_list *nl, const double *x, size_t i, int a)
{
    if (nl->periodic != 2)
        return x[3 * i + a];
    return nl->Hinv[3 * a] * x[3 * i] + nl->Hinv[3 * a + 1] * x[3 * i + 1]
           + nl->Hinv[3 * a + 2] * x[3 * i + 2];
}

static int bin_particles(mb_neighbour_list *nl, const double *x, size_t n, double w)
{
    double width[3] = { 0.0, 0.0, 0.0 };
    if (nl->periodic == 2) {
        int rc = cell_refresh(nl, width);
        if (rc)
            return rc;
    }
    bin_layout(nl, x, n, w, width);
    size_t nbins = nl->nb[0] * nl->nb[1] * nl->nb[2];
    if (nbins + 1 > nl->bin_cap) {
        int rc = grow(&nl->bin_start, nbins + 1, sizeof(size_t), &nl->stats);
        if (rc)
            return rc;
        nl->bin_cap = nbins + 1;
    }
    memset(nl->bin_start, 0, (nbins + 1) * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        size_t b[3];
        for (int a = 0; a < 3; a++)
            b[a] = axis_bin(nl, a, bin_coordinate(nl, x, i, a));
        nl->bin_of[i] = (b[2] * nl->nb[1] + b[1]) * nl->nb[0] + b[0];
        nl->bin_start[nl->bin_of[i] + 1]++;
    }
    for (size_t b = 0; b < nbins; b++)
        nl->bin_start[b + 1] += nl->bin_start[b];
    /* bin_start[b] is the fill pointer of bin b while filling, then shifted back */
    for (size_t i = 0; i < n; i++)
        nl->bin_atoms[nl->bin_start[nl->bin_of[i]]++] = i;
    for (size_t b = nbins; b > 0; b--)
        nl->bin_start[b] = nl->bin_start[b - 1];
    nl->bin_start[0] = 0;
    return MB_SUCCESS;
}

/* The distinct bins next to bin c along axis a (c - 1, c, c + 1; wrapped on a periodic
 * axis, clipped on an open one); returns their number. */
static int axis_stencil(const mb_neighbour_list *nl, int a, size_t c, size_t out[3])
{
    size_t nb = nl->nb[a];
    int k = 0;
    for (int o = -1; o <= 1; o++) {
        size_t b;
        if (nl->periodic)
            b = (c + nb + (size_t)(o + 1) - 1) % nb;
        else if ((o < 0 && c == 0) || (o > 0 && c + 1 >= nb))
            continue;
        else
            b = o < 0 ? c - 1 : c + (size_t)o;
        int seen = 0;
        for (int m = 0; m < k; m++)
            seen |= out[m] == b;
        if (!seen)
            out[k++] = b;
    }
    return k;
}

/* Call visit(ctx, j) for every j > i in the bins around i with |x_j - x_i|^2 < r2. */
typedef int (*near_visit)(mb_neighbour_list *nl, void *ctx, size_t j, double d2);

static int for_each_near(mb_neighbour_list *nl, const double *x, size_t i, double r2,
                         near_visit visit, void *ctx)
{
    size_t c = nl->bin_of[i], nb0 = nl->nb[0], nb1 = nl->nb[1];
    size_t c3[3] = {c % nb0, (c / nb0) % nb1, c / (nb0 * nb1)};
    size_t s[3][3];
    int k[3];
    for (int a = 0; a < 3; a++)
        k[a] = axis_stencil(nl, a, c3[a], s[a]);
    for (int z = 0; z < k[2]; z++)
        for (int y = 0; y < k[1]; y++)
            for (int xx = 0; xx < k[0]; xx++) {
                size_t b = (s[2][z] * nb1 + s[1][y]) * nb0 + s[0][xx];
                for (size_t p = nl->bin_start[b]; p < nl->bin_start[b + 1]; p++) {
                    size_t j = nl->bin_atoms[p];
                    if (j <= i)
                        continue;
                    nl->stats.candidates++;
                    double d2 = dist2(nl, x, i, j);
                    if (d2 < r2) {
                        int rc = visit(nl, ctx, j, d2);
                        if (rc)
                            return rc;
                    }
                }
            }
    return MB_SUCCESS;
}

/* ---- build ---- */

static int append_pair(mb_neighbour_list *nl, void *ctx, size_t j, double d2)
{
    (void)d2;
    size_t *top = ctx;
    if (*top == nl->pair_cap) {
        size_t cap = nl->pair_cap ? 2 * nl->pair_cap : 64;
        int rc = grow(&nl->neigh, cap, sizeof *nl->neigh, &nl->stats);
        if (rc)
            return rc;
        nl->pair_cap = cap;
    }
    nl->neigh[(*top)++] = (mb_neighbour_index)j;   /* j < n <= MB_NEIGHBOUR_MAX_N */
    return MB_SUCCESS;
}

/* Insertion sort of one row (rows are short: a few tens of neighbours). */
static void sort_row(mb_neighbour_index *r, size_t len)
{
    for (size_t a = 1; a < len; a++) {
        mb_neighbour_index v = r[a];
        size_t b = a;
        for (; b > 0 && r[b - 1] > v; b--)
            r[b] = r[b - 1];
        r[b] = v;
    }
}

static int check_finite(const double *x, size_t n)
{
    for (size_t k = 0; k < 3 * n; k++)
        if (!isfinite(x[k]))
            MB_ERROR(MB_EDOM, "neighbour list: position %zu of particle %zu is not finite (%g)",
                     k % 3, k / 3, x[k]);
    return MB_SUCCESS;
}

int mb_neighbour_build(mb_neighbour_list *nl, const double *x, size_t n)
{
    if (n > MB_NEIGHBOUR_MAX_N)
        MB_ERROR(MB_EDOM, "neighbour list: %zu particles, above the %zu its 32-bit indices "
                 "hold", n, MB_NEIGHBOUR_MAX_N);
    int rc = check_finite(x, n);
    if (rc || (rc = reserve_particles(nl, n)))
        return rc;
    double range = nl->cutoff + nl->skin;
    if ((rc = bin_particles(nl, x, n, range)))
        return rc;
    size_t top = 0;
    nl->stats.candidates = 0;
    for (size_t i = 0; i < n; i++) {
        nl->first[i] = top;
        if ((rc = for_each_near(nl, x, i, range * range, append_pair, &top))) {
            nl->n = 0;
            return rc;
        }
        sort_row(nl->neigh + nl->first[i], top - nl->first[i]);
    }
    nl->first[n] = top;
    if (nl->stats.builds == 0 && top + top / 4 > nl->pair_cap) {
        /* first build: room for 25 % more pairs, so that density fluctuations of a run
         * do not reallocate */
        if ((rc = grow(&nl->neigh, top + top / 4, sizeof *nl->neigh, &nl->stats)))
            return rc;
        nl->pair_cap = top + top / 4;
    }
    memcpy(nl->x0, x, 3 * n * sizeof(double));
    if (nl->periodic == 2)
        memcpy(nl->H0, nl->H, sizeof nl->H0);
    nl->n = n;
    nl->stats.pairs = top;
    nl->stats.builds++;
    for (int a = 0; a < 3; a++)
        nl->stats.bins[a] = nl->nb[a];
    return MB_SUCCESS;
}

/* ---- displacement criterion ---- */

int mb_neighbour_stale(const mb_neighbour_list *nl, const double *x, size_t n)
{
    if (nl->stats.builds == 0 || nl->n != n)
        return 1;
    /* a deforming cell moves the images too: |x_j + H p - x_i| changes by at most
     * 2 max |dx| + |dH p|, so the allowance skin/2 per particle shrinks by |dH p|/2 */
    double allow = 0.5 * nl->skin - 0.5 * cell_drift(nl);
    if (!(allow >= 0.0))
        return 1;
    double limit2 = allow * allow;   /* (skin/2)^2 outside a deforming cell */
    for (size_t i = 0; i < n; i++) {
        double d2 = 0.0;
        for (int a = 0; a < 3; a++) {
            double d = x[3 * i + a] - nl->x0[3 * i + a];
            d2 += d * d;
        }
        if (!(d2 <= limit2))   /* NaN counts as moved */
            return 1;
    }
    return 0;
}

int mb_neighbour_update(mb_neighbour_list *nl, const double *x, size_t n, int *rebuilt)
{
    double w[3];
    if (nl->periodic == 2) {   /* the cell's current sides for the minimum image */
        int rc = cell_refresh(nl, w);
        if (rc)
            return rc;
    }
    int stale = mb_neighbour_stale(nl, x, n);
    if (rebuilt)
        *rebuilt = stale;
    return stale ? mb_neighbour_build(nl, x, n) : MB_SUCCESS;
}

/* ---- checked mode ---- */

struct verify_ctx {
    size_t i;
    int missing;
};

static int row_has(const mb_neighbour_list *nl, size_t i, size_t j)
{
    return mb_index_find(nl->neigh, nl->first[i], nl->first[i + 1], j) != SIZE_MAX;
}

static int check_pair(mb_neighbour_list *nl, void *ctx, size_t j, double d2)
{
    struct verify_ctx *v = ctx;
    if (row_has(nl, v->i, j))
        return MB_SUCCESS;
    v->missing = 1;
    MB_ERROR(MB_EFAILED,
             "neighbour list: pair (%zu, %zu) at distance %.17g < cutoff %.17g is missing "
             "(particles moved more than skin/2 = %g since the last build)",
             v->i, j, sqrt(d2), nl->cutoff, 0.5 * nl->skin);
}

int mb_neighbour_verify(mb_neighbour_list *nl, const double *x, size_t n)
{
    if (nl->stats.builds == 0 || nl->n != n)
        MB_ERROR(MB_EINVAL, "neighbour list: verify needs a list built for these %zu particles",
                 n);
    int rc = check_finite(x, n);
    if (rc || (rc = bin_particles(nl, x, n, nl->cutoff)))
        return rc;
    unsigned long candidates = nl->stats.candidates;
    struct verify_ctx v = {0, 0};
    for (v.i = 0; v.i < n && !v.missing; v.i++)
        rc = for_each_near(nl, x, v.i, nl->cutoff * nl->cutoff, check_pair, &v);
    nl->stats.candidates = candidates;   /* the build's count stays */
    return rc;
}

/* ---- access ---- */

const size_t *mb_neighbour_first(const mb_neighbour_list *nl) { return nl->first; }
const mb_neighbour_index *mb_neighbour_neigh(const mb_neighbour_list *nl) { return nl->neigh; }
size_t mb_neighbour_count(const mb_neighbour_list *nl) { return nl->n ? nl->first[nl->n] : 0; }
double mb_neighbour_cutoff(const mb_neighbour_list *nl) { return nl->cutoff; }
double mb_neighbour_skin(const mb_neighbour_list *nl) { return nl->skin; }
int mb_neighbour_box(const mb_neighbour_list *nl, double box[3])
{
    for (int k = 0; k < 3; k++)
        box[k] = nl->periodic ? nl->box[k] : 0.0;
    return nl->periodic;
}
mb_neighbour_stats mb_neighbour_get_stats(const mb_neighbour_list *nl) { return nl->stats; }
const struct mb_cell *mb_neighbour_cell(const mb_neighbour_list *nl) { return nl->cell; }

int mb_neighbour_describe(const mb_neighbour_list *nl, json_t *model)
{
    static const char *const boundary[3] = { "open", "periodic", "deforming-cell" };
    int bad = mb_json_set_str(model, "boundary", boundary[nl->periodic])
              || (nl->periodic == 1 && mb_json_set_vec(model, "box", nl->box, 3))
              || mb_json_set_num(model, "neighbour_cutoff", nl->cutoff)
              || mb_json_set_num(model, "skin", nl->skin);
    return bad ? MB_ENOMEM : MB_SUCCESS;
}
