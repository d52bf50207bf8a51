/* mb_quat_lanes.h -- the rotation of a 3-vector by a unit quaternion on SIMD lanes (GCC
 * vector extensions), for the double kernels that step several bodies side by side: the
 * leap-frog's Fincham pair kernel (two lanes, fincham_source.c) and verlet-nosquish's
 * four-lane kernel (verlet_nosquish_lanes_source.c).
 *
 * MB_QUAT_LANES_DEFINE_ROTATE(spec, name, lane) defines, for the vector type lane,
 *   spec void name(lane out[3], const lane q[4], const lane v[3], int sign):
 * out = R(q) v (sign +1) or R(q)^T v (sign -1), in the Rodrigues form of q v q*,
 *   u = +-(q1, q2, q3),  r = 2 (u x v),  out = (q0 r + v) + u x r.
 * Each lane performs exactly the IEEE operations of mbq rotate_signed (quat_source.c) in
 * its order, so a lane's result is that of one body alone bit for bit (the build sets
 * -ffp-contract=off: no product is fused into a sum).  The body is written once here and
 * defined per lane type, as the two kernels' widths differ; spec is the kernel's own
 * storage and inlining (static inline, or static MB_ALWAYS_INLINE where the caller's
 * vectors must stay in registers), so each kernel compiles to the code it had when it
 * wrote the rotation out itself. */
#ifndef MB_QUAT_LANES_H
#define MB_QUAT_LANES_H

#include "mb_compiler.h"

#define MB_QUAT_LANES_DEFINE_ROTATE(spec, name, lane)                                    \
    spec void name(lane out[3], const lane q[4], const lane v[3], int sign)              \
    {                                                                                    \
        lane u[3], r[3], c[3];                                                           \
        MB_UNROLL(3)                                                                     \
        for (int k = 0; k < 3; k++)                                                      \
            u[k] = sign > 0 ? q[k + 1] : -q[k + 1];                                      \
        r[0] = u[1] * v[2] - u[2] * v[1];                                                \
        r[1] = u[2] * v[0] - u[0] * v[2];                                                \
        r[2] = u[0] * v[1] - u[1] * v[0];                                                \
        MB_UNROLL(3)                                                                     \
        for (int k = 0; k < 3; k++)                                                      \
            r[k] = r[k] * 2.0;                                                           \
        c[0] = u[1] * r[2] - u[2] * r[1];                                                \
        c[1] = u[2] * r[0] - u[0] * r[2];                                                \
        c[2] = u[0] * r[1] - u[1] * r[0];                                                \
        MB_UNROLL(3)                                                                     \
        for (int k = 0; k < 3; k++)                                                      \
            out[k] = (q[0] * r[k] + v[k]) + c[k];                                        \
    }

#endif
