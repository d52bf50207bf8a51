/* neighbour_list.c -- bins and the Verlet half list with its displacement criterion
 * (mb_neighbour.h states the method and its guarantees). */
#include "mb_neighbour.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mb_neighbour_list {
    unsigned refs;         /* owners: mb_neighbour_retain adds one, mb_neighbour_free drops one */
    double cutoff, skin;
    int periodic;
    double box[3];
    /* the list */
    size_t n;              /* particles of the last build (0: none yet) */
    size_t *first;         /* n + 1 */
    size_t *neigh;         /* pair_cap */
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

void mb_neighbour_delta(const mb_neighbour_list *nl, const double *x, size_t i, size_t j,
                        double d[3])
{
    for (int a = 0; a < 3; a++)
        d[a] = min_image(nl, a, x[3 * j + a] - x[3 * i + a]);
}

void mb_neighbour_image(const mb_neighbour_list *nl, const double *x, size_t i, size_t j,
                        double shift[3])
{
    /* min_image's d - L round(d/L) is d + (-(L round(d/L))) in IEEE arithmetic */
    for (int a = 0; a < 3; a++) {
        double d = x[3 * j + a] - x[3 * i + a];
        shift[a] = nl->periodic ? -(nl->box[a] * nearbyint(d / nl->box[a])) : 0.0;
    }
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
static void bin_layout(mb_neighbour_list *nl, const double *x, size_t n, double w)
{
    double ext[3];
    for (int a = 0; a < 3; a++) {
        if (nl->periodic) {
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
static int bin_particles(mb_neighbour_list *nl, const double *x, size_t n, double w)
{
    bin_layout(nl, x, n, w);
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
            b[a] = axis_bin(nl, a, x[3 * i + a]);
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
        int rc = grow(&nl->neigh, cap, sizeof(size_t), &nl->stats);
        if (rc)
            return rc;
        nl->pair_cap = cap;
    }
    nl->neigh[(*top)++] = j;
    return MB_SUCCESS;
}

/* Insertion sort of one row (rows are short: a few tens of neighbours). */
static void sort_row(size_t *r, size_t len)
{
    for (size_t a = 1; a < len; a++) {
        size_t v = r[a], b = a;
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
        if ((rc = grow(&nl->neigh, top + top / 4, sizeof(size_t), &nl->stats)))
            return rc;
        nl->pair_cap = top + top / 4;
    }
    memcpy(nl->x0, x, 3 * n * sizeof(double));
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
    double limit2 = 0.25 * nl->skin * nl->skin;   /* (skin/2)^2 */
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
    size_t lo = nl->first[i], hi = nl->first[i + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (nl->neigh[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nl->first[i + 1] && nl->neigh[lo] == j;
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
const size_t *mb_neighbour_neigh(const mb_neighbour_list *nl) { return nl->neigh; }
size_t mb_neighbour_count(const mb_neighbour_list *nl) { return nl->n ? nl->first[nl->n] : 0; }
double mb_neighbour_cutoff(const mb_neighbour_list *nl) { return nl->cutoff; }
double mb_neighbour_skin(const mb_neighbour_list *nl) { return nl->skin; }
mb_neighbour_stats mb_neighbour_get_stats(const mb_neighbour_list *nl) { return nl->stats; }
