/* mb_nodes.h -- the structure-of-arrays node store (DESIGN 3), in double and in MPFR.
 *
 * mb_nodes holds doubles; mb_nodes_mpfr holds MPFR numbers of one precision and is what
 * the same-scheme twins integrate.  Both come from one template (mb_nodes_struct.h,
 * nodes_source.c).  Translation and rotation state live side by side; forces and torques
 * are those of the current time.  Quaternions are unit, (w, x, y, z), body to global. */
#ifndef MB_NODES_H
#define MB_NODES_H

#include <stddef.h>
#include <mpfr.h>

/* Blocking flags: a blocked degree of freedom gets zero acceleration. */
enum {
    MB_BLOCK_X = 1, MB_BLOCK_Y = 2, MB_BLOCK_Z = 4,
    MB_BLOCK_RX = 8, MB_BLOCK_RY = 16, MB_BLOCK_RZ = 32,
    MB_BLOCK_ALL = 63
};

#define BASE_DOUBLE
#include "templates_on.h"
#include "mb_nodes_struct.h"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "mb_nodes_struct.h"
#include "templates_off.h"
#undef BASE_MPFR

/* Conversions between the two bases (values rounded to nearest). */
int mb_nodes_mpfr_set_from_double(mb_nodes_mpfr *dst, const mb_nodes *src);
int mb_nodes_mpfr_get_double(mb_nodes *dst, const mb_nodes_mpfr *src);

#endif
