/* nodes.c -- the node store, instantiated for double and MPFR from nodes_source.c,
 * plus conversions between the two. */
#include "mb_nodes.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The store's arrays (mb_nodes.h), in one list for allocation, release, copy and
 * conversion: X(member, numbers per node) for the arrays of numbers (REAL), and
 * Y(member, bytes per node) for the others, copied as bytes. */
#define NODES_NUMBER_ARRAYS(X)                                                            \
    X(x, 3) X(v, 3) X(f, 3) X(mass, 1) X(inv_mass, 1) X(inertia, 3) X(q, 4) X(omega, 3)  \
    X(angmom, 3) X(torque, 3)
#define NODES_BYTE_ARRAYS(Y)                                                              \
    Y(blocked, 1) Y(vel_mid, 1) Y(aspherical, 1) Y(radius, sizeof(double))

#define BASE_DOUBLE
#include "templates_on.h"
#include "nodes_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "nodes_source.c"
#include "templates_off.h"
#undef BASE_MPFR

static void set_from_double(__mpfr_struct *d, const double *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        mpfr_set_d(&d[k], a[k], MPFR_RNDN);
}

static void get_double(double *d, const __mpfr_struct *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        d[k] = mpfr_get_d(&a[k], MPFR_RNDN);
}

int mb_nodes_mpfr_set_from_double(mb_nodes_mpfr *dst, const mb_nodes *src)
{
    if (dst->n != src->n)
        MB_ERROR(MB_EINVAL, "node stores differ in size (%zu vs %zu)", dst->n, src->n);
    size_t n = src->n;
#define X(m, w) set_from_double(dst->m, src->m, (w) * n);
#define Y(m, w) memcpy(dst->m, src->m, (w) * n);
    NODES_NUMBER_ARRAYS(X) NODES_BYTE_ARRAYS(Y)
#undef X
#undef Y
    /* the inverse mass is recomputed at the twin's precision, not copied */
    for (size_t i = 0; i < n; i++) {
        if (src->inv_mass[i] == 0.0)
            mpfr_set_zero(&dst->inv_mass[i], 1);
        else
            mpfr_d_div(&dst->inv_mass[i], 1.0, &dst->mass[i], MPFR_RNDN);
    }
    dst->generation++;                  /* mb_nodes_touch of the destination's base */
    return MB_SUCCESS;
}

int mb_nodes_mpfr_get_double(mb_nodes *dst, const mb_nodes_mpfr *src)
{
    if (dst->n != src->n)
        MB_ERROR(MB_EINVAL, "node stores differ in size (%zu vs %zu)", dst->n, src->n);
    size_t n = src->n;
#define X(m, w) get_double(dst->m, src->m, (w) * n);
#define Y(m, w) memcpy(dst->m, src->m, (w) * n);
    NODES_NUMBER_ARRAYS(X) NODES_BYTE_ARRAYS(Y)
#undef X
#undef Y
    dst->generation++;                  /* mb_nodes_touch of the destination's base */
    return MB_SUCCESS;
}
