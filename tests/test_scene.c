/* test_scene.c -- the scene sections: every body, force, constraint and obstacle type as
 * built by mb_scene_build, against closed forms (mass properties of the shapes, a tensor
 * rebuilt from its diagonalisation, the three orientation forms, the spin forms, the
 * body-frame torque R T~, symbolic Jacobians).  Error messages of malformed scenes are
 * in the catalogue tests/data/bad/scene-*.case (test_case_file). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mb_clump.h"
#include "mb_force_constant.h"
#include "mb_force_expr.h"
#include "mb_mpfr_reference.h"
#include "mb_problem.h"
#include "mb_force_torque.h"
#include "mb_scene.h"
#include "mb_scene_build.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "mb_test_scene_text.h"
#include "mb_vec.h"

static mb_system *build(const char *text)
{
    mb_system *sys = NULL;
    int st = mb_test_scene_text(text, &sys);
    cr_assert_eq(st, MB_SUCCESS, "%s", mb_last_error());
    return sys;
}

static int build_fails(const char *text, const char *fragment)
{
    mb_system *sys = NULL;
    int st = mb_test_scene_text(text, &sys);
    cr_expect_null(sys);
    cr_expect_not_null(strstr(mb_last_error(), fragment), "%s", mb_last_error());
    return st;
}

/* mass properties: m = rho V and the textbook moments (exact to a few ulps) */
Test(scene, shapes_mass_properties)
{
    mb_system *sys = build("[body s]\ntype = sphere\nradius = 0.3\ndensity = 2000\n"
                           "[body b]\ntype = box\nhalf_extents = 0.5, 0.2, 0.1\ndensity = 1000\n"
                           "[body e]\ntype = ellipsoid\nsemi_axes = 1, 2, 3\nmass = 5\n"
                           "[body p]\ntype = point\nmass = 2\n");
    const mb_nodes *n = sys->nodes;
    double ms = 2000 * 4.0 / 3.0 * M_PI * 0.027, mb = 1000 * 8 * 0.5 * 0.2 * 0.1;
    cr_expect_float_eq(n->mass[0], ms, 1e-14 * ms);
    cr_expect_float_eq(n->inertia[0], 0.4 * ms * 0.09, 1e-14);
    cr_expect_float_eq(n->mass[1], mb, 1e-14 * mb);
    cr_expect_float_eq(n->inertia[3], mb / 3 * (0.04 + 0.01), 1e-14);
    cr_expect_float_eq(n->inertia[4], mb / 3 * (0.25 + 0.01), 1e-14);
    cr_expect_float_eq(n->inertia[5], mb / 3 * (0.25 + 0.04), 1e-14);
    cr_expect_float_eq(n->inertia[6], 5.0 / 5 * (4 + 9), 1e-14);
    cr_expect_float_eq(n->inertia[8], 5.0 / 5 * (1 + 4), 1e-14);
    cr_expect_eq(n->mass[3], 2.0);
    cr_expect_float_eq(n->radius[1], sqrt(0.25 + 0.04 + 0.01), 1e-15);
    mb_system_free(sys);
}

/* inertia = I1, I2, I3 out of order is taken as written (no sorting) */
Test(scene, principal_moments_in_any_order)
{
    mb_system *sys = build("[body r]\ntype = box\nhalf_extents = 1, 1, 1\nmass = 1\n"
                           "inertia = 2, 1, 0.6666666666666666\nangular_velocity_body = 0, 3, 0\n");
    cr_expect_eq(sys->nodes->inertia[0], 2.0);
    cr_expect_eq(sys->nodes->inertia[1], 1.0);
    cr_expect_float_eq(sys->nodes->angmom[1], 3.0, 1e-15);
    mb_system_free(sys);
}

/* a full tensor T = Q diag(3, 1, 2) Q^T (Q: 0.4 rad about (1, 2, 2)/3, in the frame of an
 * orientation 0.7 rad about z): R(q) diag(I) R(q)^T must give back R_user T R_user^T */
Test(scene, inertia_tensor_is_diagonalised_into_a_proper_rotation)
{
    double Q[9], Ru[9], qq[4], qu[4], th[3] = { 0.4 / 3, 0.8 / 3, 0.8 / 3 }, tz[3] = { 0, 0, 0.7 };
    double D[3] = { 3, 1, 2 }, T[9], G[9], text_T[6];
    mb_q_from_rotvec(qq, th);
    mb_q_to_mat(Q, qq);
    mb_q_from_rotvec(qu, tz);
    mb_q_to_mat(Ru, qu);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            T[3 * r + c] = 0;
            for (int k = 0; k < 3; k++)
                T[3 * r + c] += Q[3 * r + k] * D[k] * Q[3 * c + k];
        }
    text_T[0] = T[0]; text_T[1] = T[4]; text_T[2] = T[8];
    text_T[3] = T[1]; text_T[4] = T[2]; text_T[5] = T[5];
    char text[600];
    snprintf(text, sizeof text, "[body b]\ntype = box\nhalf_extents = 1, 1, 1\nmass = 1\n"
             "inertia_tensor = %.17g, %.17g, %.17g, %.17g, %.17g, %.17g\nrotation_vector = 0, 0, 0.7\n",
             text_T[0], text_T[1], text_T[2], text_T[3], text_T[4], text_T[5]);
    mb_system *sys = build(text);
    const double *I = sys->nodes->inertia;
    cr_expect_float_eq(I[0], 1.0, 1e-14);        /* ascending */
    cr_expect_float_eq(I[1], 2.0, 1e-14);
    cr_expect_float_eq(I[2], 3.0, 1e-14);
    double R[9];
    mb_q_to_mat(R, sys->nodes->q);
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6])
               + R[2] * (R[3] * R[7] - R[4] * R[6]);
    cr_expect_float_eq(det, 1.0, 1e-14);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double built = 0, want = 0;
            for (int k = 0; k < 3; k++)
                built += R[3 * r + k] * I[k] * R[3 * c + k];
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    want += Ru[3 * r + a] * T[3 * a + b] * Ru[3 * c + b];
            G[3 * r + c] = built - want;
            cr_expect_leq(fabs(G[3 * r + c]), 1e-14, "(%d,%d): %g", r, c, G[3 * r + c]);
        }
    mb_system_free(sys);
}

/* quaternion, rotation vector and axis + angle of one rotation give one orientation */
Test(scene, three_orientation_forms_agree)
{
    double th = 1.1, a[3] = { 1, -2, 2 };      /* |a| = 3 */
    char text[800];
    snprintf(text, sizeof text,
             "[body a]\ntype = sphere\nradius = 1\nmass = 1\norientation = %.17g, %.17g, %.17g, %.17g\n"
             "[body b]\ntype = sphere\nradius = 1\nmass = 1\nrotation_vector = %.17g, %.17g, %.17g\n"
             "[body c]\ntype = sphere\nradius = 1\nmass = 1\naxis = 2, -4, 4\nangle = 1.1\n",
             cos(th / 2), sin(th / 2) / 3, -2 * sin(th / 2) / 3, 2 * sin(th / 2) / 3,
             th * a[0] / 3, th * a[1] / 3, th * a[2] / 3);
    mb_system *sys = build(text);
    for (int k = 0; k < 4; k++) {
        cr_expect_float_eq(sys->nodes->q[4 + k], sys->nodes->q[k], 1e-15);
        cr_expect_float_eq(sys->nodes->q[8 + k], sys->nodes->q[k], 1e-15);
    }
    mb_system_free(sys);
}

/* spin: global w, body w~ = R^T w, global L = R I R^T w, body L~ = I w~ */
Test(scene, four_spin_forms_agree)
{
    const char *common = "type = box\nhalf_extents = 0.3, 0.2, 0.1\nmass = 3\nrotation_vector = 0.3, -0.2, 0.9\n";
    mb_system *ref = NULL;
    char text[600];
    snprintf(text, sizeof text, "[body a]\n%sangular_velocity = 0.5, -1, 2\n", common);
    ref = build(text);
    double wb[3], Lb[3];
    mb_q_rotate_inv(wb, ref->nodes->q, ref->nodes->omega);
    for (int k = 0; k < 3; k++)
        Lb[k] = ref->nodes->inertia[k] * wb[k];
    const char *forms[3] = { "angular_velocity_body = %.17g, %.17g, %.17g\n",
                             "angular_momentum = %.17g, %.17g, %.17g\n",
                             "angular_momentum_body = %.17g, %.17g, %.17g\n" };
    const double *vals[3] = { wb, ref->nodes->angmom, Lb };
    for (int f = 0; f < 3; f++) {
        char line[200];
        snprintf(line, sizeof line, forms[f], vals[f][0], vals[f][1], vals[f][2]);
        snprintf(text, sizeof text, "[body a]\n%s%s", common, line);
        mb_system *sys = build(text);
        for (int k = 0; k < 3; k++)
            cr_expect_float_eq(sys->nodes->omega[k], ref->nodes->omega[k], 1e-14, "form %d", f);
        mb_system_free(sys);
    }
    mb_system_free(ref);
}

Test(scene, blocked_letters)
{
    mb_system *sys = build("[body a]\ntype = point\nmass = 1\nblocked = xZ\n");
    cr_expect_eq(sys->nodes->blocked[0], MB_BLOCK_X | MB_BLOCK_RZ);
    mb_system_free(sys);
}

/* a body-frame torque equals the mb_force_body_torque model's R(q) T~; a global force
 * is added as written */
Test(scene, constant_loads_in_both_frames)
{
    mb_system *sys = build("[body a]\ntype = box\nhalf_extents = 1, 1, 1\nmass = 1\n"
                           "rotation_vector = 0.3, -0.2, 0.9\n"
                           "[force t]\ntype = torque\nbody = a\nframe = body\ntorque = 0.1, -0.2, 0.45\n"
                           "[force f]\ntype = force\nbody = a\nforce = 1, 2, 3\n");
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS);
    double Tb[3] = { 0.1, -0.2, 0.45 }, want[3];
    mb_q_rotate(want, sys->nodes->q, Tb);
    for (int k = 0; k < 3; k++) {
        cr_expect_float_eq(sys->nodes->torque[k], want[k], 1e-15);
        cr_expect_eq(sys->nodes->f[k], k + 1.0);
    }
    /* the same through the existing model */
    mb_forces *F = mb_forces_alloc();
    mb_forces_add(F, mb_force_body_torque, mb_body_torque_new(Tb));
    mb_forces_eval(F, sys->nodes, 0.0);
    for (int k = 0; k < 3; k++)
        cr_expect_float_eq(sys->nodes->torque[k], want[k], 1e-15);
    mb_forces_free(F);
    mb_system_free(sys);
}

/* a constant torque acts on its body only: body b turned by pi/2 about z carries
 * R T~ = (-T~y, T~x, T~z) = (0.2, 0.1, 0.45) (round-off of cos(pi/2) = 6e-17 on |T|: 1e-15),
 * body a nothing (exactly); run.json describes it as "nodes": [1]; a torque model on a node
 * the system does not have refuses to evaluate */
Test(scene, constant_torque_acts_on_its_body_only)
{
    mb_system *sys = build("[body a]\ntype = box\nhalf_extents = 1, 1, 1\nmass = 1\n"
                           "[body b]\ntype = sphere\nradius = 0.5\nmass = 2\nposition = 4, 0, 0\n"
                           "axis = 0, 0, 1\nangle = 1.5707963267948966\n"
                           "[force t]\ntype = torque\nbody = b\nframe = body\ntorque = 0.1, -0.2, 0.45\n");
    double want[3] = { 0.2, 0.1, 0.45 };
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS);
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(sys->nodes->torque[k], 0.0);
        cr_expect_float_eq(sys->nodes->torque[3 + k], want[k], 1e-15);
    }
    const mb_force *t = &sys->forces->items[0];
    cr_assert_eq(t->type, mb_force_body_torque);
    json_t *d = json_object();
    cr_assert_eq(t->type->describe(t->params, d), MB_SUCCESS);
    json_t *nodes = json_object_get(d, "nodes");
    cr_expect(json_is_array(nodes) && json_array_size(nodes) == 1
              && json_integer_value(json_array_get(nodes, 0)) == 1);
    cr_expect_str_eq(json_string_value(json_object_get(d, "frame")), "body");
    json_decref(d);
    double T[3] = { 1, 2, 3 };
    mb_forces *F = mb_forces_alloc();
    cr_assert_eq(mb_forces_add(F, mb_force_torque, mb_torque_node_new(2, T)), MB_SUCCESS);
    cr_expect_eq(mb_forces_eval(F, sys->nodes, 0.0), MB_EINVAL);
    cr_expect_not_null(strstr(mb_last_error(), "node 2"), "%s", mb_last_error());
    mb_forces_free(F);
    mb_system_free(sys);
}

/* a body reaching below a plane by at most 1e-8 of its bounding radius touches it (box
 * half-extents 0.3, 0.2, 0.1: radius sqrt(0.14) = 0.374, so 1e-9 m is 2.7e-9 of it and
 * accepted); 1e-8 m (2.7e-8) is inside and refused */
Test(scene, touching_a_plane_is_not_inside_it)
{
    static const char *fmt = "[body box]\ntype = box\nhalf_extents = 0.3, 0.2, 0.1\nmass = 1\n"
                             "position = 0, 0, %.17g\n[obstacle floor]\ntype = plane\n"
                             "point = 0, 0, 0\nnormal = 0, 0, 1\n";
    char text[400];
    snprintf(text, sizeof text, fmt, 0.1 - 1e-9);
    mb_system *sys = build(text);
    mb_system_free(sys);
    snprintf(text, sizeof text, fmt, 0.1 - 1e-8);
    cr_expect_eq(build_fails(text, "is inside obstacle 'floor'"), MB_EINVAL);
}

/* Jacobian blocks from the symbolic derivatives: f = (-2 x^3 + vy, sin(y) z, 0) */
Test(scene, expression_jacobian_is_the_symbolic_derivative)
{
    mb_system *sys = build("[body a]\ntype = point\nmass = 1\nposition = 0.7, -0.3, 1.2\nvelocity = 0, 2, 0\n"
                           "[force e]\ntype = expression\nbody = a\nfx = -2*x^3 + vy\nfy = sin(y)*z\n");
    mb_jacobian *J = mb_jacobian_alloc(1, 53);
    cr_assert_eq(mb_forces_jacobian(sys->forces, sys->nodes, J), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(J->count, 1);
    cr_expect_float_eq(J->dfdx[0], -6 * 0.49, 1e-15);
    cr_expect_float_eq(J->dfdx[4], cos(-0.3) * 1.2, 1e-15);
    cr_expect_float_eq(J->dfdx[5], sin(-0.3), 1e-15);
    cr_expect_eq(J->dfdv[1], 1.0);
    cr_expect_eq(J->dfdv[0], 0.0);
    mb_jacobian_free(J);
    mb_system_free(sys);
}

/* a potential is reported as potential energy and then no external power is booked */
Test(scene, expression_potential_and_external_power)
{
    mb_system *sys = build("[body a]\ntype = point\nmass = 1\nposition = 0.5, 0, 0\nvelocity = 1, 0, 0\n"
                           "[force spring]\ntype = expression\nbody = a\nfx = -4*x\npotential = 2*x^2\n"
                           "[force push]\ntype = expression\nbody = a\nfx = cos(t)\n");
    cr_expect_float_eq(mb_forces_potential(sys->forces, sys->nodes), 0.5, 1e-15);
    cr_expect_float_eq(mb_forces_external_power(sys->forces, sys->nodes, 0.3), cos(0.3), 1e-15);
    mb_system_free(sys);
}

/* field forces and springs: the existing models, with their potentials */
Test(scene, gravity_drag_spring_central)
{
    mb_system *sys = build("[body a]\ntype = point\nmass = 2\nposition = 3, 0, 4\nvelocity = 1, 0, 0\n"
                           "[body b]\ntype = point\nmass = 1\nposition = 3, 0, 6\n"
                           "[force g]\ntype = gravity\ng = 0, 0, -10\n"
                           "[force d]\ntype = drag\nD = 0.5\n"
                           "[force s]\ntype = spring\nbody = a\nto = b\nk = 100\nrest = 1.5\n"
                           "[force c]\ntype = central\nmu = 7\n");
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS);
    /* node a: gravity -20 z, drag -0.5 x, spring +50 z (stretched by 0.5 towards b),
     * central -7 m x / r^3 with r = 5 */
    cr_expect_float_eq(sys->nodes->f[0], -0.5 - 7 * 2 * 3 / 125.0, 1e-14);
    cr_expect_float_eq(sys->nodes->f[2], -20 + 50 - 7 * 2 * 4 / 125.0, 1e-13);
    double V = 20 * 4 + 10 * 6 + 0.5 * 100 * 0.25 - 7 * 2 / 5.0 - 7 * 1 / sqrt(45.0);
    cr_expect_float_eq(mb_forces_potential(sys->forces, sys->nodes), V, 1e-12);
    mb_system_free(sys);
}

/* every constraint kind, a plane, the contact material and shapes reach the solfec scene */
Test(scene, constraints_obstacles_contact)
{
    mb_system *sys = build("[body a]\ntype = box\nhalf_extents = 0.5, 0.1, 0.1\nmass = 1\nposition = 0, 0, 1\n"
                           "[body b]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 1, 0, 1\n"
                           "[constraint p]\ntype = fixed_point\nbody = a\npoint = -0.5, 0, 1\n"
                           "[constraint d]\ntype = fixed_direction\nbody = a\npoint = 0.5, 0, 1\ndirection = 0, 0, 2\n"
                           "[constraint l]\ntype = rigid_link\nbody = b\npoint = 1, 0, 1\nto = a\nto_point = 0.5, 0, 1\nlength = 0.5\n"
                           "[constraint v]\ntype = prescribed_velocity\nbody = b\npoint = 1, 0, 1\ndirection = 0, 1, 0\nvelocity = 0.2\n"
                           "[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 3\n"
                           "[contact]\nfriction = 0.3\nrestitution = 0.4\n");
    mb_scene *s = mb_scene_of(sys->forces);
    cr_assert_not_null(s);
    cr_expect_eq(s->nbilateral, 4);
    cr_expect_eq(s->bilateral[0].kind, MB_CON_FIXPNT);
    cr_expect_eq(s->bilateral[1].kind, MB_CON_FIXDIR);
    cr_expect_eq(s->bilateral[2].kind, MB_CON_RIGLNK);
    cr_expect_eq(s->bilateral[2].j, 0);
    cr_expect_float_eq(s->bilateral[2].value, 0.5, 1e-15);
    cr_expect_eq(s->bilateral[3].kind, MB_CON_VELODIR);
    cr_expect_eq(s->nplanes, 1);
    cr_expect_eq(s->planes[0].normal[2], 1.0);
    cr_expect_eq(s->shape[0], MB_SHAPE_BOX);
    cr_expect_eq(s->shape[1], MB_SHAPE_SPHERE);
    double mu, e;
    mb_scene_pair_law(s, s->material[0], s->planes[0].material, &mu, &e);
    cr_expect_eq(mu, 0.3);
    cr_expect_eq(e, 0.4);
    mb_system_free(sys);
}

/* a box turned 45 degrees about y reaches 0.5 sqrt(2) below its centre: inside a floor
 * 0.7 below, clear of one 0.71 below (the clearance uses the rotated extents) */
Test(scene, rotated_box_against_a_plane)
{
    const char *fmt = "[body a]\ntype = box\nhalf_extents = 0.5, 0.5, 0.5\nmass = 1\nposition = 0, 0, %g\n"
                      "rotation_vector = 0, 0.7853981633974483, 0\n"
                      "[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 1\n";
    char text[400];
    snprintf(text, sizeof text, fmt, 0.70);
    cr_expect_eq(build_fails(text, "inside obstacle 'floor'"), MB_EINVAL);
    snprintf(text, sizeof text, fmt, 0.71);
    mb_system_free(build(text));
}

/* a user-placed clump has the mass properties of mb_clump_build for the same members, and
 * its node sits at origin + R(q0) X with q = q0 (x) q_principal */
Test(scene, clump_members_placed_by_the_user)
{
    double c[9] = { 0, 0, 0, 0.012, 0, 0, 0.0048, 0.0096, 0 }, r[3] = { 0.01, 0.008, 0.006 };
    mb_clump *cl;
    cr_assert_eq(mb_clump_build(c, r, 3, 2500, MB_CLUMP_AUTO, 16, &cl), MB_SUCCESS);
    mb_system *sys = build("[body k]\ntype = clump\ndensity = 2500\n"
                           "spheres = 0, 0, 0, 0.01 | 0.012, 0, 0, 0.008 | 0.0048, 0.0096, 0, 0.006\n"
                           "position = 1, 2, 3\nrotation_vector = 0.3, -0.2, 0.5\n");
    mb_nodes *ref = mb_nodes_alloc(1, 53);
    double q0[4], origin[3] = { 1, 2, 3 };
    mb_q_from_rotvec(q0, (double[3]){ 0.3, -0.2, 0.5 });
    cr_assert_eq(mb_clump_place(cl, ref, 0, origin, q0), MB_SUCCESS);
    cr_expect_eq(sys->nodes->mass[0], ref->mass[0]);
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(sys->nodes->inertia[k], ref->inertia[k]);
        cr_expect_eq(sys->nodes->x[k], ref->x[k]);
    }
    for (int k = 0; k < 4; k++)
        cr_expect_eq(sys->nodes->q[k], ref->q[k]);
    mb_nodes_free(ref);
    mb_clump_free(cl);
    mb_system_free(sys);
}

/* the default clump-free problem is a special case of a scene: the same members, pose
 * and spin written as sections give the identical node */
Test(scene, clump_free_problem_as_a_scene)
{
    const mb_problem_type *pt;
    mb_options *params;
    cr_assert_eq(mb_problem_prepare("clump-free", NULL, &pt, &params), MB_SUCCESS);
    mb_system *ref;
    cr_assert_eq(pt->setup(params, &ref), MB_SUCCESS);
    mb_system *sys = build("[body k]\ntype = clump\ndensity = 2500\n"
                           "spheres = 0, 0, 0, 0.01 | 0.012, 0, 0, 0.008 | 0.0048, 0.0096, 0, 0.006\n"
                           "rotation_vector = 0.3, -0.2, 0.5\nangular_velocity = 0.5, 7, 0.3\n");
    for (int k = 0; k < 3; k++) {
        cr_expect_float_eq(sys->nodes->x[k], ref->nodes->x[k], 1e-18);
        cr_expect_float_eq(sys->nodes->omega[k], ref->nodes->omega[k], 1e-15);
        cr_expect_float_eq(sys->nodes->angmom[k], ref->nodes->angmom[k], 1e-15 * fabs(ref->nodes->angmom[k]) + 1e-25);
        cr_expect_eq(sys->nodes->inertia[k], ref->nodes->inertia[k]);
    }
    cr_expect_eq(sys->nodes->mass[0], ref->nodes->mass[0]);
    mb_system_free(sys);
    mb_system_free(ref);
    mb_options_free(params);
}

/* laws per pair of materials: the pair's own law, else the default [contact] */
Test(scene, signorini_laws_per_pair_of_materials)
{
    mb_system *sys = build("[body a]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 0, 0, 1\nmaterial = steel\n"
                           "[body b]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 1, 0, 1\nmaterial = rubber\n"
                           "[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 1\nmaterial = wood\n"
                           "[contact]\nfriction = 0.1\nrestitution = 0.2\n"
                           "[contact steel-wood]\nbetween = steel, wood\nfriction = 0.5\nrestitution = 0.9\n"
                           "[contact rubber-wood]\nbetween = wood, rubber\nfriction = 1.1\nrestitution = 0.3\n");
    mb_scene *s = mb_scene_of(sys->forces);
    double mu, e;
    int wood = s->planes[0].material;
    mb_scene_pair_law(s, s->material[0], wood, &mu, &e);
    cr_expect(mu == 0.5 && e == 0.9);
    mb_scene_pair_law(s, wood, s->material[1], &mu, &e);
    cr_expect(mu == 1.1 && e == 0.3);
    mb_scene_pair_law(s, s->material[0], s->material[1], &mu, &e);
    cr_expect(mu == 0.1 && e == 0.2, "default law: %g %g", mu, e);
    mb_system_free(sys);
}

/* DEM laws: a linear model for the default-glass pair, the default Hertz law against the
 * plane (E* of a wall E / (1 - nu^2)); the contact forces are the closed forms
 * F = kn delta and F = (4/3) E* sqrt(R) delta^(3/2) (no dashpot force at rest) */
Test(scene, dem_laws_per_pair_of_materials)
{
    mb_system *sys = build("[body a]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 0, 0, 0.2\n"
                           "[body b]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 1, 0, 0.5\n"
                           "[body c]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 1, 0, 0.75\nmaterial = glass\n"
                           "[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 1\n"
                           "[contact]\nlaw = hertz\nyoung = 1e7\npoisson = 0.2\n"
                           "[contact g]\nbetween = default, glass\nlaw = linear\nkn = 1000\nzeta = 0.1\n");
    cr_expect_null(mb_scene_of(sys->forces), "no solfec scene with DEM laws");
    sys->nodes->x[2] = 0.099;                 /* 1 mm into the floor */
    sys->nodes->x[8] = 0.695;                 /* 5 mm into sphere b */
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS, "%s", mb_last_error());
    double estar = 1e7 / (1 - 0.04), Fh = 4.0 / 3.0 * estar * sqrt(0.1) * pow(1e-3, 1.5);
    cr_expect_float_eq(sys->nodes->f[2], Fh, 1e-12 * Fh);
    cr_expect_float_eq(sys->nodes->f[8], 5.0, 1e-12);
    cr_expect_float_eq(sys->nodes->f[5], -5.0, 1e-12);
    mb_system_free(sys);
}

Test(scene, dem_laws_refuse_boxes_and_constraints)
{
    build_fails("[body a]\ntype = box\nhalf_extents = 1, 1, 1\nmass = 1\nposition = 0, 0, 2\n"
                "[contact]\nlaw = linear\nkn = 10\n", "'a' is a moving box");
    build_fails("[body a]\ntype = sphere\nradius = 1\nmass = 1\n"
                "[constraint p]\ntype = fixed_point\nbody = a\npoint = 0, 0, 0\n"
                "[contact]\nlaw = hertz\nyoung = 1e6\n", "constraints need the solfec scheme");
    build_fails("[body a]\ntype = sphere\nradius = 1\nmass = 1\nmaterial = x\n"
                "[contact]\nlaw = hertz\nyoung = 1e6\n"
                "[contact s]\nbetween = x, x\nfriction = 0.1\n", "not both");
}

/* a spring attached off the centre: F = k d at the attachment point, torque r x F; and
 * its potential is the one of its force and torque (central differences in x and in a
 * small rotation: dV = -f.dx, dV = -tau.e dtheta) */
Test(scene, spring_attached_in_the_body_frame)
{
    mb_system *sys = build("[body b]\ntype = box\nhalf_extents = 1, 0.2, 0.2\nmass = 1\n"
                           "[force s]\ntype = spring\nbody = b\nattach = 1, 0, 0\nanchor = 1, 0, 2\nk = 3\n");
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_float_eq(sys->nodes->f[2], 6.0, 1e-15);
    cr_expect_float_eq(sys->nodes->torque[1], -6.0, 1e-15);
    mb_system_free(sys);
    sys = build("[body a]\ntype = box\nhalf_extents = 1, 0.2, 0.2\nmass = 1\nrotation_vector = 0.3, -0.4, 0.2\n"
                "[body b]\ntype = sphere\nradius = 0.1\nmass = 1\nposition = 0.5, 1.5, 2\nrotation_vector = -0.2, 0.1, 0.6\n"
                "[force s]\ntype = spring\nbody = a\nattach = 0.8, 0.1, -0.2\nto = b\nto_attach = 0.05, 0, 0.1\nk = 7\nrest = 0.9\n");
    mb_nodes *n = sys->nodes;
    cr_assert_eq(mb_forces_eval(sys->forces, n, 0.0), MB_SUCCESS);
    double f[6], tau[6], h = 1e-6;
    memcpy(f, n->f, sizeof f);
    memcpy(tau, n->torque, sizeof tau);
    for (int c = 0; c < 6; c++) {
        double save = n->x[c];
        n->x[c] = save + h;
        double Vp = mb_forces_potential(sys->forces, n);
        n->x[c] = save - h;
        double Vm = mb_forces_potential(sys->forces, n);
        n->x[c] = save;
        cr_expect_float_eq(-(Vp - Vm) / (2 * h), f[c], 1e-7, "f[%d]", c);
    }
    for (int body = 0; body < 2; body++)
        for (int axis = 0; axis < 3; axis++) {
            double q0[4], dq[4], th[3] = { 0, 0, 0 }, V[2];
            memcpy(q0, &n->q[4 * body], sizeof q0);
            for (int sgn = 0; sgn < 2; sgn++) {
                th[axis] = sgn ? -h : h;
                mb_q_from_rotvec(dq, th);
                mb_q_mul(&n->q[4 * body], dq, q0);     /* global rotation */
                V[sgn] = mb_forces_potential(sys->forces, n);
            }
            memcpy(&n->q[4 * body], q0, sizeof q0);
            cr_expect_float_eq(-(V[0] - V[1]) / (2 * h), tau[3 * body + axis], 1e-7,
                               "tau body %d axis %d", body, axis);
        }
    mb_system_free(sys);
}

/* a constant force is the force model on its body's node: in the body frame R(q) F~ (the
 * rotation matrix of q times F~, to rounding: 1e-15 on |F| ~ 4), in the global frame F
 * exactly; external power f . v; run.json describes it as "nodes": [0] with its frame */
Test(scene, constant_force_is_a_force_model)
{
    mb_system *sys = build("[body a]\ntype = box\nhalf_extents = 1, 1, 1\nmass = 2\n"
                           "rotation_vector = 0.3, -0.2, 0.9\nvelocity = 0.5, -1, 0.25\n"
                           "[body b]\ntype = point\nmass = 1\nposition = 5, 0, 0\n"
                           "[force fb]\ntype = force\nbody = a\nframe = body\nforce = 1, 2, 3\n"
                           "[force fg]\ntype = force\nbody = a\nforce = 0.7, 0, -0.3\n");
    cr_assert_eq(sys->forces->count, 2);
    cr_expect_eq(sys->forces->items[0].type, mb_force_body_force);
    cr_expect_eq(sys->forces->items[1].type, mb_force_constant);
    cr_assert_eq(mb_forces_eval(sys->forces, sys->nodes, 0.0), MB_SUCCESS);
    double R[9], Fb[3] = { 1, 2, 3 }, G[3] = { 0.7, 0, -0.3 }, want[3], P = 0.0;
    mb_q_to_mat(R, sys->nodes->q);
    mb_m3_mul_v(want, R, Fb);
    for (int k = 0; k < 3; k++) {
        cr_expect_float_eq(sys->nodes->f[k], want[k] + G[k], 1e-15);
        cr_expect_eq(sys->nodes->f[3 + k], 0.0, "body b carries nothing");
        cr_expect_eq(sys->nodes->torque[k], 0.0, "a force at the centre has no torque");
        P += (want[k] + G[k]) * sys->nodes->v[k];
    }
    cr_expect_float_eq(mb_forces_external_power(sys->forces, sys->nodes, 0.0), P, 1e-15);
    cr_expect_null(sys->forces->items[0].type->potential, "no potential: external work");
    json_t *j = json_object(), *want_j = json_pack("{s:s, s:[i], s:s, s:[f,f,f]}", "model", "force",
                                                   "nodes", 0, "frame", "body", "force", 1.0, 2.0, 3.0);
    cr_assert_eq(sys->forces->items[0].type->describe(sys->forces->items[0].params, j), MB_SUCCESS);
    cr_expect(json_equal(j, want_j));
    json_decref(j);
    json_decref(want_j);
    mb_system_free(sys);
}

/* The mpfr reference takes a scene with constant forces (it refused their expressions).
 * A sphere m = 1.3 spinning at w = 2.1 about z from the identity orientation carries
 * F~ = (F, 0, 0) in its body frame, so f(t) = F (cos wt, sin wt, 0), and a global G along z;
 * from rest at the origin
 *   x = F/(m w^2) (1 - cos wt),  y = F/(m w) (t - sin(wt)/w),  z = G t^2 / (2 m),
 * whose double evaluation at t = 1.3 rounds to ~1e-16; the 256-bit reference estimates its
 * error below 1e-50, so 1e-14 bounds the difference. */
Test(scene, mpfr_reference_takes_constant_forces)
{
    const double m = 1.3, w = 2.1, F = 0.83, G = -0.41, t = 1.3;
    mb_system *sys = build("[body s]\ntype = sphere\nradius = 0.1\nmass = 1.3\n"
                           "angular_velocity_body = 0, 0, 2.1\n"
                           "[force f]\ntype = force\nbody = s\nframe = body\nforce = 0.83, 0, 0\n"
                           "[force g]\ntype = force\nbody = s\nforce = 0, 0, -0.41\n");
    mb_nodes_mpfr *out = mb_nodes_mpfr_alloc(1, 256);
    double err;
    cr_assert_eq(mb_mpfr_reference(sys, 1, &t, &out, &err, NULL, NULL), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *o = mb_nodes_alloc(1, 53);
    mb_nodes_mpfr_get_double(o, out);
    double want[3] = { F / (m * w * w) * (1.0 - cos(w * t)), F / (m * w) * (t - sin(w * t) / w),
                       G * t * t / (2.0 * m) };
    for (int k = 0; k < 3; k++)
        cr_expect_float_eq(o->x[k], want[k], 1e-14, "x[%d] %.17g, closed form %.17g", k, o->x[k], want[k]);
    cr_expect(err < 1e-50, "error estimate %g", err);
    mb_nodes_free(o);
    mb_nodes_mpfr_free(out);
    mb_system_free(sys);
}

/* An expression force whose stiffness depends on t, f = -(2 + cos t) x on a unit mass,
 * linear in x, stepped once from x = 1, v = 0.5 at t = 0 with h = 0.1.
 *  - implicit-euler linearises at the start of the step (force and Jacobian at t,
 *    doc/integrators.md): m v+ = m v + h (f(x, t) - h k v+), so
 *    v+ = (m v - h k x) / (m + h^2 k) with k = k(0) = 3;
 *  - implicit-euler-newton solves m v+ = m v + h f(x + h v+, t + h) exactly (linear f):
 *    the same formula with k = k(h) = 2 + cos h.
 * x+ = x + h v+.  Up to the rounding of the solve: 1e-14 relative.  The two k differ by
 * about 5e-3, the two v+ by about 5e-4 (the negative control: each scheme must take its
 * own time).  Before the Jacobian had a time both schemes refused this force. */
static const char time_stiffness[] =
    "[body p]\ntype = point\nmass = 1\nposition = 1, 0, 0\nvelocity = 0.5, 0, 0\n"
    "[force k]\ntype = expression\nbody = p\nfx = -(2 + cos(t))*x\n";

static double time_stiffness_v(double h, double k)
{
    return (0.5 - h * k) / (1.0 + h * h * k);
}

static void expect_time_stiffness_step(const char *scheme, double t_jacobian, double t_other)
{
    mb_system *sys = build(time_stiffness);
    mb_stepper *st = mb_stepper_alloc(scheme, sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    const double h = 0.1;
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s: %s", scheme, mb_last_error());
    const double v = time_stiffness_v(h, 2.0 + cos(t_jacobian)), x = 1.0 + h * v;
    const double v_other = time_stiffness_v(h, 2.0 + cos(t_other));
    cr_expect(fabs(sys->nodes->v[0] - v) <= 1e-14 * fabs(v), "%s: v %.17g, closed form %.17g",
              scheme, sys->nodes->v[0], v);
    cr_expect(fabs(sys->nodes->x[0] - x) <= 1e-14 * fabs(x), "%s: x %.17g, closed form %.17g",
              scheme, sys->nodes->x[0], x);
    cr_expect(fabs(v_other - v) > 1e-4, "negative control: k(0) and k(h) not told apart");
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(scene, implicit_schemes_take_a_time_dependent_stiffness_at_their_time)
{
    expect_time_stiffness_step("implicit-euler", 0.0, 0.1);
    expect_time_stiffness_step("implicit-euler-newton", 0.1, 0.0);
}

Test(scene, a_time_dependent_jacobian_without_a_time_is_refused)
{
    mb_system *sys = build(time_stiffness);
    mb_jacobian *J = mb_jacobian_alloc(1, 53);
    cr_assert_not_null(J);
    cr_expect_eq(mb_forces_jacobian(sys->forces, sys->nodes, J), MB_EUNSUP);
    cr_expect(strstr(mb_last_error(), "depends on t") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_forces_eval_jacobian(sys->forces, sys->nodes, 0.5, J), MB_SUCCESS, "%s",
                 mb_last_error());
    cr_expect_eq(J->dfdx[0], -(2.0 + cos(0.5)));
    mb_jacobian_free(J);
    mb_system_free(sys);
}
