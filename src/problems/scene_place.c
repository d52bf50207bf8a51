/* scene_place.c -- bodies and force models of a scene from numbers (mb_scene_place.h).
 * Shapes (doc/scenes.md, "Bodies"): sphere r: V = 4/3 pi r^3, I = 2/5 m r^2; box a, b, c:
 * V = 8abc, I = m/3 (b^2+c^2, a^2+c^2, a^2+b^2), bounding radius sqrt(a^2+b^2+c^2);
 * ellipsoid a, b, c: V = 4/3 pi abc, I = m/5 (b^2+c^2, a^2+c^2, a^2+b^2).
 * Spin conversion (doc/scenes.md, "Bodies"), with R = R(q) the body frame:
 *   w~ = R^T w (global angular velocity),  w~ = I^-1 L~ (body angular momentum),
 *   w~ = I^-1 R^T L (global angular momentum); then w = R w~ and L = R I w~ on-step. */
#include "mb_scene_place.h"
#include "mb_force_central.h"
#include "mb_force_constant.h"
#include "mb_force_torque.h"
#include "mb_rigid_setup.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <string.h>

void mb_scene_shape(mb_scene_body *b, double *volume, double Iunit[3])
{
    const double *e = b->extent;
    double a2 = e[0] * e[0], b2 = e[1] * e[1], c2 = e[2] * e[2];
    double k = b->type == MB_SCENE_BOX ? 1.0 / 3.0 : b->type == MB_SCENE_SPHERE ? 0.4 : 0.2;
    *volume = 0.0;
    mb_v3_set(Iunit, 0, 0, 0);
    b->radius = 0.0;
    if (b->type != MB_SCENE_SPHERE && b->type != MB_SCENE_BOX && b->type != MB_SCENE_ELLIPSOID)
        return;
    *volume = b->type == MB_SCENE_BOX ? 8.0 * e[0] * e[1] * e[2] : 4.0 / 3.0 * M_PI * e[0] * e[1] * e[2];
    if (b->type == MB_SCENE_SPHERE)
        mb_v3_set(Iunit, k * a2, k * a2, k * a2);
    else
        mb_v3_set(Iunit, k * (b2 + c2), k * (a2 + c2), k * (a2 + b2));
    b->radius = b->type == MB_SCENE_BOX ? sqrt(a2 + b2 + c2) : fmax(e[0], fmax(e[1], e[2]));
}

void mb_scene_pose_init(mb_scene_pose *b)
{
    memset(b, 0, sizeof *b);
    b->mass = 1.0;
    mb_v3_set(b->inertia, 1, 1, 1);
    mb_q_identity(b->q);
    b->spin_form = MB_SPIN_OMEGA_BODY;
}

void mb_scene_body_omega(const mb_scene_pose *b, double wb[3])
{
    if (b->spin_form == MB_SPIN_OMEGA || b->spin_form == MB_SPIN_MOMENTUM)
        mb_q_rotate_inv(wb, b->q, b->spin);     /* to the body frame */
    else
        mb_v3_copy(wb, b->spin);
    if (b->spin_form >= MB_SPIN_MOMENTUM)
        for (int k = 0; k < 3; k++)
            wb[k] /= b->inertia[k];             /* L~ = I w~ */
}

void mb_scene_place_body(mb_nodes *n, size_t i, const mb_scene_pose *b)
{
    double wb[3];
    mb_scene_body_omega(b, wb);
    mb_store_changed(&n->x[3 * i], b->x, 3);    /* zero pages of a fresh store stay unwritten */
    mb_store_changed(&n->v[3 * i], b->v, 3);
    if (n->blocked[i] != b->blocked)
        n->blocked[i] = b->blocked;
    mb_nodes_set_mass(n, i, b->mass);
    mb_rigid_set_spin(n, i, b->inertia, b->q, wb);
    mb_store_changed(&n->radius[i], &b->radius, 1);
}

int mb_scene_axis_angle(const double axis[3], double angle, double q[4])
{
    double n = mb_v3_norm(axis), th[3];
    if (angle == 0.0) {
        mb_q_identity(q);
        return MB_SUCCESS;
    }
    if (!(n > 0.0))
        return MB_EDOM;
    mb_v3_scale(th, angle / n, axis);
    mb_q_from_rotvec(q, th);
    return MB_SUCCESS;
}

/* a constructor that fails returns NULL with its error recorded, which mb_forces_add
 * passes on */
static int add(mb_system *sys, const mb_force_type *type, void *params)
{
    return mb_forces_add(sys->forces, type, params);
}

int mb_scene_add_gravity(mb_system *sys, const double g[3])
{
    return add(sys, mb_force_gravity, mb_gravity_new(g));
}

int mb_scene_add_drag(mb_system *sys, double D)
{
    return add(sys, mb_force_drag, mb_drag_new(D));
}

int mb_scene_add_central(mb_system *sys, double mu)
{
    return add(sys, mb_force_central, mb_central_new(mu));
}

int mb_scene_add_spring(mb_system *sys, const mb_spring *sp)
{
    mb_forces *F = sys->forces;
    if (F->count > 0 && F->items[F->count - 1].type == mb_force_springs)
        return mb_springs_add(F->items[F->count - 1].params, sp);
    void *model = mb_springs_new();
    if (model == NULL)
        return MB_ENOMEM;
    int st = mb_springs_add(model, sp);
    if (st != MB_SUCCESS) {
        mb_force_springs->free(model);
        return st;
    }
    return mb_forces_add(sys->forces, mb_force_springs, model);
}

int mb_scene_add_torque(mb_system *sys, size_t i, const double T[3], int body_frame)
{
    return body_frame ? add(sys, mb_force_body_torque, mb_body_torque_node_new(i, T))
                      : add(sys, mb_force_torque, mb_torque_node_new(i, T));
}

int mb_scene_add_force(mb_system *sys, size_t i, const double F[3], int body_frame)
{
    return body_frame ? add(sys, mb_force_body_force, mb_body_force_new(i, F))
                      : add(sys, mb_force_constant, mb_constant_force_new(i, F));
}
