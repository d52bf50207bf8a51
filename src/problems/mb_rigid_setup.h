/* mb_rigid_setup.h -- set-up helpers shared by the single-rigid-body problems (spin-up,
 * free-rigid-body, symmetric-top, axial-torque-top): the initial orientation from an
 * axis-angle pair and the on-step initial spin of one node.  Static inline, double. */
#ifndef MB_RIGID_SETUP_H
#define MB_RIGID_SETUP_H

#include "mb_options.h"
#include "mb_scene_place.h"
#include "mb_status.h"
#include "mb_system.h"
#include "mb_vec.h"

#include <string.h>

/* Parameter rows for the initial orientation (axis ax, ay, az; angle in rad). */
#define MB_RIGID_ORIENTATION_PARAMS \
    { "ax", MB_OPT_DOUBLE, "0.3", -1e6, 1e6, NULL, "initial orientation: rotation axis x (need not be unit)" }, \
    { "ay", MB_OPT_DOUBLE, "-0.5", -1e6, 1e6, NULL, "initial orientation: rotation axis y" }, \
    { "az", MB_OPT_DOUBLE, "0.81", -1e6, 1e6, NULL, "initial orientation: rotation axis z" }, \
    { "angle", MB_OPT_DOUBLE, "0.7", -100, 100, NULL, "initial orientation: rotation angle about the axis (rad)" }

/* q0 = Quaternion(angle * axis / |axis|) by the scene's axis + angle (mb_scene_axis_angle);
 * a zero axis is an error unless angle = 0. */
static inline int mb_rigid_orientation(const mb_options *p, double q[4])
{
    double axis[3] = { mb_options_double(p, "ax"), mb_options_double(p, "ay"),
                       mb_options_double(p, "az") };
    double angle = mb_options_double(p, "angle");
    if (mb_scene_axis_angle(axis, angle, q) != MB_SUCCESS)
        MB_ERROR(MB_EDOM, "orientation axis (ax, ay, az) = (0, 0, 0) is undefined for angle %g", angle);
    return MB_SUCCESS;
}

/* dst[0 .. n-1] = src, writing only the entries whose bits change: a large store fresh
 * from calloc keeps the zero pages of, say, the spin of its bodies at rest unwritten, so
 * no memory is committed for them (80 bytes a node for a network of points). */
static inline void mb_store_changed(double *dst, const double *src, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (memcmp(&dst[k], &src[k], sizeof(double)) != 0)
            dst[k] = src[k];
}

/* Node i gets principal moments I, orientation q, body angular velocity wb (on-step):
 * global w = R(q) wb and global L = R(q) (I wb). */
static inline void mb_rigid_set_spin(mb_nodes *s, size_t i, const double I[3], const double q[4],
                                     const double wb[3])
{
    double Lb[3] = { I[0] * wb[0], I[1] * wb[1], I[2] * wb[2] }, w[3], L[3];
    mb_nodes_set_inertia(s, i, I);
    for (int k = 0; k < 4; k++)
        s->q[4 * i + k] = q[k];
    mb_q_rotate(w, q, wb);
    mb_q_rotate(L, q, Lb);
    mb_store_changed(&s->omega[3 * i], w, 3);
    mb_store_changed(&s->angmom[3 * i], L, 3);
    if (s->vel_mid[i])
        s->vel_mid[i] = 0;
}

/* Write orientation q, body angular velocity wb, and the body at rest at the origin. */
static inline void mb_rigid_write_state(mb_nodes *out, const double I[3], const double q[4],
                                        const double wb[3])
{
    for (int k = 0; k < 3; k++)
        out->x[k] = out->v[k] = 0.0;
    mb_rigid_set_spin(out, 0, I, q, wb);
}

#endif
