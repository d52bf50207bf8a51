/* plot_thin.c -- min/max thinning of a curve for drawing (mb_plot_thin.h). */
#include "mb_plot_thin.h"

static void put(size_t *keep, size_t *m, size_t k)
{
    if (*m == 0 || keep[*m - 1] != k)
        keep[(*m)++] = k;
}

size_t mb_plot_thin(const double *t, const double *v, size_t n, size_t bins, size_t *keep)
{
    size_t m = 0;
    if (n <= 2 * bins || !(t[n - 1] > t[0])) {
        for (size_t k = 0; k < n && k < 2 * bins + 2; k++)
            keep[m++] = k;
        return m;
    }
    double w = (t[n - 1] - t[0]) / (double)bins;
    put(keep, &m, 0);
    size_t k = 1;
    for (size_t b = 0; b < bins && k < n - 1; b++) {
        double end = b + 1 == bins ? t[n - 1] : t[0] + (double)(b + 1) * w;
        size_t lo = k, hi = k, start = k;
        for (; k < n - 1 && t[k] < end; k++) {
            if (v[k] < v[lo])
                lo = k;
            if (v[k] > v[hi])
                hi = k;
        }
        if (k == start)     /* no sample in this span */
            continue;
        put(keep, &m, lo < hi ? lo : hi);
        put(keep, &m, lo < hi ? hi : lo);
    }
    put(keep, &m, n - 1);
    return m;
}
