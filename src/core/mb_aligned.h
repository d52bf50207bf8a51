/* mb_aligned.h -- zeroed arrays on a 64-byte boundary (internal).
 *
 * calloc aligns to 16 bytes, and glibc places a large block 16 bytes past a page
 * boundary, so an array of doubles from it is not 32-byte aligned: 32-byte vector
 * stores that write around the cache (_mm256_stream_pd, leapfrog_quads.h) need that
 * alignment, and a 32-byte load from a 64-byte aligned array never straddles two cache
 * lines.  The node store's arrays and the schemes' scratch arrays come from here; they
 * are released with free(), as calloc's are, so arrays of either kind may be swapped. */
#ifndef MB_ALIGNED_H
#define MB_ALIGNED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MB_ARRAY_ALIGN 64

/* count elements of size bytes, zero-filled, 64-byte aligned (at least one element);
 * NULL when out of memory or count * size overflows. */
static inline void *mb_aligned_zeroed(size_t count, size_t size)
{
    if (count == 0)
        count = 1;
    if (size != 0 && count > (SIZE_MAX - MB_ARRAY_ALIGN) / size)
        return NULL;
    const size_t bytes = (count * size + MB_ARRAY_ALIGN - 1) / MB_ARRAY_ALIGN * MB_ARRAY_ALIGN;
    void *p = aligned_alloc(MB_ARRAY_ALIGN, bytes);
    if (p != NULL)
        memset(p, 0, bytes);
    return p;
}

#endif
