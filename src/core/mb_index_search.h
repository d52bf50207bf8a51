/* mb_index_search.h -- where an index stands in an ascending run of 32-bit indices
 * (internal): the rows of the sparse matrix's pattern (its column nodes, mb_linsolve.h)
 * and of the neighbour list (its neighbours, mb_neighbour.h) are both searched by it. */
#ifndef MB_INDEX_SEARCH_H
#define MB_INDEX_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The position p in [lo, hi) with a[p] == key, a[lo .. hi) ascending; SIZE_MAX when key
 * is not there.  Bisection: O(log(hi - lo)). */
static inline size_t mb_index_find(const uint32_t *a, size_t lo, size_t hi, size_t key)
{
    const size_t end = hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((size_t)a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && (size_t)a[lo] == key ? lo : SIZE_MAX;
}

#endif
