/* neighbour_brute.h -- the brute-force side of the neighbour-list tests (header only), written
 * independently of src/forces/neighbour_list.c: a small deterministic generator, the minimum
 * image in a rectangular periodic box by round(), and the nearest image in a deforming cell
 * found by trying every period p in {-2..2}^3 (no rounding, no bins). */
#ifndef MB_NEIGHBOUR_BRUTE_H
#define MB_NEIGHBOUR_BRUTE_H

#include <math.h>
#include <stddef.h>
#include <string.h>

/* uniform in [0, 1): a 64-bit LCG with Knuth's MMIX constants, the top 53 bits */
static inline double nb_uniform(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1.0p-53;
}

/* d = x_j - x_i, to its minimum image in the box of sides L (L NULL: open boundaries) */
static inline void nb_brute_delta(const double *x, const double *L, size_t i, size_t j,
                                  double d[3])
{
    for (int a = 0; a < 3; a++) {
        d[a] = x[3 * j + a] - x[3 * i + a];
        if (L)
            d[a] -= L[a] * round(d[a] / L[a]);
    }
}

/* |d| of the nearest image d = x_j - x_i + H p over p in {-2..2}^3 (H row-major, cell
 * vectors in its columns); its period into p when p is not NULL */
static inline double nb_nearest_image(const double H[9], const double *x, size_t i, size_t j,
                                      double d[3], double p[3])
{
    double best = INFINITY;
    for (int p0 = -2; p0 <= 2; p0++)
        for (int p1 = -2; p1 <= 2; p1++)
            for (int p2 = -2; p2 <= 2; p2++) {
                double e[3], r2 = 0.0;
                for (int a = 0; a < 3; a++) {
                    e[a] = x[3 * j + a] - x[3 * i + a] + H[3 * a] * p0 + H[3 * a + 1] * p1
                           + H[3 * a + 2] * p2;
                    r2 += e[a] * e[a];
                }
                if (r2 < best) {
                    best = r2;
                    memcpy(d, e, sizeof e);
                    if (p) {
                        p[0] = p0;
                        p[1] = p1;
                        p[2] = p2;
                    }
                }
            }
    return sqrt(best);
}

#endif
