/* nodes.c -- the node store, instantiated for double and MPFR from nodes_source.c,
 * plus conversions between the two. */
#include "mb_nodes.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    set_from_double(dst->x, src->x, 3 * n);
    set_from_double(dst->v, src->v, 3 * n);
    set_from_double(dst->f, src->f, 3 * n);
    set_from_double(dst->mass, src->mass, n);
    /* the inverse mass is recomputed at the twin's precision, not copied */
    for (size_t i = 0; i < n; i++) {
        if (src->inv_mass[i] == 0.0)
            mpfr_set_zero(&dst->inv_mass[i], 1);
        else
            mpfr_d_div(&dst->inv_mass[i], 1.0, &dst->mass[i], MPFR_RNDN);
    }
    set_from_double(dst->inertia, src->inertia, 3 * n);
    set_from_double(dst->q, src->q, 4 * n);
    set_from_double(dst->omega, src->omega, 3 * n);
    set_from_double(dst->angmom, src->angmom, 3 * n);
    set_from_double(dst->torque, src->torque, 3 * n);
    memcpy(dst->blocked, src->blocked, n);
    memcpy(dst->vel_mid, src->vel_mid, n);
    memcpy(dst->aspherical, src->aspherical, n);
    memcpy(dst->radius, src->radius, n * sizeof(double));
    dst->generation++;                  /* mb_nodes_touch of the destination's base */
    return MB_SUCCESS;
}

int mb_nodes_mpfr_get_double(mb_nodes *dst, const mb_nodes_mpfr *src)
{
    if (dst->n != src->n)
        MB_ERROR(MB_EINVAL, "node stores differ in size (%zu vs %zu)", dst->n, src->n);
    size_t n = src->n;
    get_double(dst->x, src->x, 3 * n);
    get_double(dst->v, src->v, 3 * n);
    get_double(dst->f, src->f, 3 * n);
    get_double(dst->mass, src->mass, n);
    get_double(dst->inv_mass, src->inv_mass, n);
    get_double(dst->inertia, src->inertia, 3 * n);
    get_double(dst->q, src->q, 4 * n);
    get_double(dst->omega, src->omega, 3 * n);
    get_double(dst->angmom, src->angmom, 3 * n);
    get_double(dst->torque, src->torque, 3 * n);
    memcpy(dst->blocked, src->blocked, n);
    memcpy(dst->vel_mid, src->vel_mid, n);
    memcpy(dst->aspherical, src->aspherical, n);
    memcpy(dst->radius, src->radius, n * sizeof(double));
    dst->generation++;                  /* mb_nodes_touch of the destination's base */
    return MB_SUCCESS;
}
