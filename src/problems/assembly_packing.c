/* assembly_packing.c -- seeded random non-overlapping sphere packings by random sequential
 * addition (mb_assembly.h): spheres placed one after the other at uniform random
 * positions, a position refused while it overlaps a sphere already placed.  Overlaps are
 * looked up in a grid of bins at least 2 rmax wide, so that a candidate is compared with
 * the spheres of its own and the 26 adjacent bins only: O(n) per sweep of attempts. */
#include "mb_assembly.h"
#include "mb_status.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct rsa_grid {
    size_t nb[3];
    double w[3];
    const double *L;
    const int *periodic;
    size_t *head, *next;     /* bin lists: head[bin], next[sphere]; SIZE_MAX ends a list */
};

static size_t grid_bin(const struct rsa_grid *g, const double *p, size_t c[3])
{
    for (int a = 0; a < 3; a++) {
        double s = p[a] / g->w[a];
        size_t b = s > 0.0 ? (size_t)s : 0;
        c[a] = b < g->nb[a] ? b : g->nb[a] - 1;
    }
    return (c[2] * g->nb[1] + c[1]) * g->nb[0] + c[0];
}

static double gap2(const struct rsa_grid *g, const double *p, const double *q)
{
    double d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        double d = q[a] - p[a];
        if (g->periodic[a])
            d -= g->L[a] * nearbyint(d / g->L[a]);
        d2 += d * d;
    }
    return d2;
}

/* 1 when the sphere (p, rp) overlaps one placed in the bins around p's. */
static int overlaps(const struct rsa_grid *g, const double *x, const double *r, const double *p,
                    double rp)
{
    size_t c[3];
    grid_bin(g, p, c);
    long lo[3], hi[3];
    for (int a = 0; a < 3; a++) {   /* every bin once when an axis has fewer than 3 */
        lo[a] = g->nb[a] < 3 ? 0 : -1;
        hi[a] = g->nb[a] < 3 ? (long)g->nb[a] - 1 : 1;
    }
    for (long dz = lo[2]; dz <= hi[2]; dz++)
        for (long dy = lo[1]; dy <= hi[1]; dy++)
            for (long dx = lo[0]; dx <= hi[0]; dx++) {
                const long o[3] = { dx, dy, dz };
                size_t b[3];
                int inside = 1;
                for (int a = 0; a < 3; a++) {
                    long k = g->nb[a] < 3 ? o[a] : (long)c[a] + o[a];
                    if (k < 0 || k >= (long)g->nb[a]) {
                        if (!g->periodic[a])
                            inside = 0;
                        k = (k + (long)g->nb[a]) % (long)g->nb[a];
                    }
                    b[a] = (size_t)k;
                }
                if (!inside)
                    continue;
                size_t bin = (b[2] * g->nb[1] + b[1]) * g->nb[0] + b[0];
                for (size_t j = g->head[bin]; j != SIZE_MAX; j = g->next[j]) {
                    double s = rp + r[j];
                    if (gap2(g, p, &x[3 * j]) < s * s)
                        return 1;
                }
            }
    return 0;
}

static int compare_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int check_input(size_t n, const double L[3], double rmin, double rmax,
                       unsigned long attempts, double *fraction_bound)
{
    if (n == 0)
        MB_ERROR(MB_EDOM, "packing: the number of spheres must be >= 1");
    if (!(isfinite(rmin) && rmin > 0.0 && isfinite(rmax) && rmax >= rmin))
        MB_ERROR(MB_EDOM, "packing: radii must satisfy 0 < rmin <= rmax, finite (got %g, %g)",
                 rmin, rmax);
    if (attempts == 0)
        MB_ERROR(MB_EDOM, "packing: attempts per sphere must be >= 1");
    for (int a = 0; a < 3; a++)
        if (!(isfinite(L[a]) && L[a] > 2.0 * rmax))
            MB_ERROR(MB_EDOM, "packing: box side %d must be finite and > 2 rmax = %g (got %g)",
                     a, 2.0 * rmax, L[a]);
    /* the smallest fraction the radii can give: every radius rmin */
    *fraction_bound = (double)n * 4.0 / 3.0 * M_PI * rmin * rmin * rmin / (L[0] * L[1] * L[2]);
    return MB_SUCCESS;
}

int mb_random_packing(size_t n, const double L[3], const int periodic[3], double rmin,
                      double rmax, unsigned long seed, unsigned long attempts, double *x,
                      double *r, double *fraction)
{
    double least = 0.0;
    int st = check_input(n, L, rmin, rmax, attempts, &least);
    if (st != MB_SUCCESS)
        return st;
    if (least > MB_RSA_FRACTION_MAX)
        MB_ERROR(MB_EDOM, "packing: packing fraction %g (at least, with every radius rmin) is "
                 "unreachable by random sequential addition, which jams at 0.3841 for equal "
                 "spheres (limit taken %g): a larger box or fewer spheres", least,
                 MB_RSA_FRACTION_MAX);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    struct rsa_grid g = { .L = L, .periodic = periodic };
    size_t bins = 1;
    for (int a = 0; a < 3; a++) {
        double k = floor(L[a] / (2.0 * rmax));
        g.nb[a] = k < 1.0 ? 1 : k > 1024.0 ? 1024 : (size_t)k;
        g.w[a] = L[a] / (double)g.nb[a];
        bins *= g.nb[a];
    }
    g.head = malloc(bins * sizeof *g.head);
    g.next = malloc(n * sizeof *g.next);
    if (rng == NULL || g.head == NULL || g.next == NULL) {
        gsl_rng_free(rng);
        free(g.head);
        free(g.next);
        MB_ERROR(MB_ENOMEM, "packing: cannot allocate %zu bins", bins);
    }
    gsl_rng_set(rng, seed);
    for (size_t b = 0; b < bins; b++)
        g.head[b] = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        r[i] = rmin + (rmax - rmin) * gsl_rng_uniform(rng);
    qsort(r, n, sizeof *r, compare_desc);
    double volume = 0.0;
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++) {
        unsigned long k = 0;
        double *p = &x[3 * i];
        for (; k < attempts; k++) {
            for (int a = 0; a < 3; a++) {
                double lo = periodic[a] ? 0.0 : r[i], span = periodic[a] ? L[a] : L[a] - 2.0 * r[i];
                p[a] = lo + span * gsl_rng_uniform(rng);
            }
            if (!overlaps(&g, x, r, p, r[i]))
                break;
        }
        if (k == attempts) {
            mb_error_record(MB_EDOM, __FILE__, __LINE__,
                            "packing: sphere %zu of %zu (radius %g) found no free place in %lu "
                            "attempts at packing fraction %g: the fraction asked for is "
                            "unreachable by random addition (a larger box or fewer spheres)",
                            i + 1, n, r[i], attempts, volume / (L[0] * L[1] * L[2]));
            st = MB_EDOM;
            break;
        }
        size_t c[3], bin = grid_bin(&g, p, c);
        g.next[i] = g.head[bin];
        g.head[bin] = i;
        volume += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
    }
    if (fraction)
        *fraction = volume / (L[0] * L[1] * L[2]);
    gsl_rng_free(rng);
    free(g.head);
    free(g.next);
    return st;
}
