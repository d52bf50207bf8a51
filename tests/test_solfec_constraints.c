/* test_solfec_constraints.c -- every constraint law of the solfec scheme after a step,
 * friction on an incline and Newton restitution, against hand-derived values.
 *
 * Constraint checks rebuild the mid-step configuration from the seed's own kinematics
 * (Lambda(t+h/2) = Lambda(t) exp[(h/2) Omega(t)], x(t+h/2) = x + h/2 v) and evaluate the
 * point velocities v + w x a with global vectors (not through the operator H).  With
 * rotation=rig-pos the end-of-step velocity is the one the constraints saw.  Gauss-Seidel
 * stops at ||dR|| <= 1e-13 ||R||; with W entries O(h) the velocity residual is of order
 * 1e-13 |U|, so 1e-9 m/s is a wide margin that still catches any wrong reaction. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_scene.h"
#include "mb_stepper.h"
#include "mb_vec.h"

static mb_system *bodies(size_t n, const double g[3])
{
    mb_system *sys = mb_system_alloc(n);
    for (size_t k = 0; k < n; k++) {
        double I[3] = { 0.41 + 0.1 * k, 0.57, 0.83 };
        mb_nodes_set_mass(sys->nodes, k, 2.385 + k);
        mb_nodes_set_inertia(sys->nodes, k, I);
    }
    if (g)
        cr_assert_eq(mb_forces_add(sys->forces, mb_force_gravity, mb_gravity_new(g)), MB_SUCCESS);
    return sys;
}

static mb_scene *scene(mb_system *sys, double mu, double e)
{
    mb_scene *s = mb_scene_new(sys->nodes->n, mu, e);
    cr_assert_eq(mb_forces_add(sys->forces, mb_force_scene, s), MB_SUCCESS);
    return s;
}

/* mid-step point (pos) and end-of-step point velocity (vel) of body arm A */
static void mid_point(const mb_nodes *before, const mb_nodes *after, size_t k, const double A[3],
                      double h, double pos[3], double vel[3])
{
    double O0[3], th[3], dq[4], qm[4], a[3], w[3], wa[3];
    mb_q_rotate_inv(O0, &before->q[4 * k], &before->omega[3 * k]);
    mb_v3_scale(th, 0.5 * h, O0);
    mb_q_from_rotvec(dq, th);
    mb_q_mul(qm, &before->q[4 * k], dq);
    mb_q_rotate(a, qm, A);
    for (int d = 0; d < 3; d++)
        pos[d] = before->x[3 * k + d] + 0.5 * h * before->v[3 * k + d] + a[d];
    double O1[3];
    mb_q_rotate_inv(O1, &after->q[4 * k], &after->omega[3 * k]);
    mb_q_rotate(w, qm, O1);
    mb_v3_cross(wa, w, a);
    mb_v3_add(vel, &after->v[3 * k], wa);
}

static mb_stepper *stepper(mb_system *sys)
{
    mb_stepper *st = mb_stepper_alloc("solfec[rotation=rig-pos,epsilon=1e-13]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    return st;
}

static void spin(mb_system *sys, size_t k)
{
    double w[3] = { 0.7, -1.3, 2.1 }, v[3] = { 0.3, 0.25, -0.4 }, th[3] = { 0.2, 0.5, -0.3 };
    mb_q_from_rotvec(&sys->nodes->q[4 * k], th);
    mb_v3_copy(&sys->nodes->omega[3 * k], w);
    mb_v3_copy(&sys->nodes->v[3 * k], v);
}

/* One step of the system; returns the pre-step copy. */
static mb_nodes *step(mb_system *sys, double h)
{
    mb_nodes *before = mb_nodes_alloc(sys->nodes->n, 53);
    mb_nodes_copy(before, sys->nodes);
    mb_stepper *st = stepper(sys);
    cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_stats s;
    mb_stepper_get_stats(st, &s);
    cr_log_info("GS sweeps %lu, merit %.3g", s.constraint_sweeps, s.residual_max);
    cr_assert_eq(s.not_converged, 0);
    mb_stepper_free(st);
    return before;
}

static const double G[3] = { 0.0, 0.0, -9.81 };

Test(solfec_constraints, fixed_point_holds_the_point)
{
    double h = 0.01, p[3] = { 0.31, -0.12, 0.27 }, pos[3], vel[3];
    mb_system *sys = bodies(1, G);
    spin(sys, 0);
    mb_scene *s = scene(sys, 0, 0);
    cr_assert_eq(mb_scene_fix_point(s, sys->nodes, 0, MB_CON_GROUND, p), MB_SUCCESS);
    double A[3];
    mb_q_rotate_inv(A, &sys->nodes->q[0], (double[3]){ p[0], p[1], p[2] });
    mb_nodes *b = step(sys, h);
    mid_point(b, sys->nodes, 0, A, h, pos, vel);
    /* target: the mid-step error removed at t+h: vel = -(pos - p)/(h/2) */
    for (int d = 0; d < 3; d++)
        cr_assert_float_eq(vel[d], -(pos[d] - p[d]) / (0.5 * h), 1e-9, "axis %d: %.17g", d, vel[d]);
    mb_nodes_free(b);
    mb_system_free(sys);
}

Test(solfec_constraints, fixed_direction_and_prescribed_velocity)
{
    double h = 0.01, p[3] = { 0.2, 0.1, -0.15 }, q[3] = { -0.25, 0.3, 0.1 }, n1[3] = { 0.3, -0.2, 0.9 },
           n2[3] = { 1.0, 0.4, 0.0 }, vbar = 0.737, pos[3], vel[3], pos2[3], vel2[3];
    mb_system *sys = bodies(1, G);
    spin(sys, 0);
    mb_scene *s = scene(sys, 0, 0);
    cr_assert_eq(mb_scene_fix_direction(s, sys->nodes, 0, MB_CON_GROUND, p, n1), MB_SUCCESS);
    cr_assert_eq(mb_scene_velocity_direction(s, sys->nodes, 0, q, n2, vbar), MB_SUCCESS);
    double A[3], B[3];
    mb_q_rotate_inv(A, &sys->nodes->q[0], p);
    mb_q_rotate_inv(B, &sys->nodes->q[0], q);
    mb_nodes *b = step(sys, h);
    mid_point(b, sys->nodes, 0, A, h, pos, vel);
    mid_point(b, sys->nodes, 0, B, h, pos2, vel2);
    double u1[3], u2[3], d[3];
    mb_v3_scale(u1, 1.0 / mb_v3_norm(n1), n1);
    mb_v3_scale(u2, 1.0 / mb_v3_norm(n2), n2);
    mb_v3_sub(d, pos, p);
    cr_assert_float_eq(mb_v3_dot(vel, u1), -mb_v3_dot(d, u1) / (0.5 * h), 1e-9);
    cr_assert_float_eq(mb_v3_dot(vel2, u2), vbar, 1e-9, "%.17g", mb_v3_dot(vel2, u2));
    mb_nodes_free(b);
    mb_system_free(sys);
}

Test(solfec_constraints, rigid_link_between_two_bodies)
{
    double h = 0.01, pa[3] = { 0.1, 0.0, 0.2 }, pb[3] = { 1.3, 0.4, -0.2 }, pos[3], vel[3], pos2[3], vel2[3];
    mb_system *sys = bodies(2, G);
    spin(sys, 0);
    mb_v3_set(&sys->nodes->x[3], 1.4, 0.5, 0.0);
    mb_v3_set(&sys->nodes->v[3], -0.2, 0.9, 0.3);
    mb_scene *s = scene(sys, 0, 0);
    cr_assert_eq(mb_scene_rigid_link(s, sys->nodes, 1, 0, pb, pa), MB_SUCCESS);
    double L = mb_v3_dist(pa, pb), A[3], B[3], db[3];
    mb_q_rotate_inv(A, &sys->nodes->q[0], pa);
    mb_v3_sub(db, pb, &sys->nodes->x[3]);
    mb_q_rotate_inv(B, &sys->nodes->q[4], db);
    mb_nodes *b = step(sys, h);
    mid_point(b, sys->nodes, 0, A, h, pos, vel);
    mid_point(b, sys->nodes, 1, B, h, pos2, vel2);
    double d[3], rv[3];
    mb_v3_sub(d, pos2, pos);
    mb_v3_sub(rv, vel2, vel);
    double l = mb_v3_norm(d);
    cr_assert_float_eq(mb_v3_dot(rv, d) / l, -(l - L) / (0.5 * h), 1e-9);
    mb_nodes_free(b);
    mb_system_free(sys);
}

/* Box (half-extents 0.3, 0.2, 0.1) on the plane z = 0 under gravity tilted by theta:
 * below the friction angle atan(mu) it sticks; above, it slides with
 * a = g (sin theta - mu cos theta), and the trapezoidal position update of the scheme
 * is exact for constant acceleration: v = a t, x = a t^2 / 2. */
static mb_system *incline(double theta, double mu)
{
    double g = 9.81, gv[3] = { g * sin(theta), 0.0, -g * cos(theta) }, half[3] = { 0.3, 0.2, 0.1 },
           o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    mb_system *sys = bodies(1, gv);
    sys->nodes->x[2] = 0.1 - 1e-9;          /* the bottom face just touching */
    mb_scene *s = scene(sys, mu, 0.0);
    cr_assert_eq(mb_scene_set_box(s, 0, half), MB_SUCCESS);
    cr_assert_eq(mb_scene_add_plane(s, o, n), MB_SUCCESS);
    return sys;
}

static void run(mb_system *sys, double h, int steps)
{
    mb_stepper *st = mb_stepper_alloc("solfec[epsilon=1e-13]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    for (int k = 0; k < steps; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper_stats s;
    mb_stepper_get_stats(st, &s);
    cr_log_info("%d steps: GS sweeps %lu (mean %.1f), not converged %lu, merit max %.3g", steps,
                s.constraint_sweeps, (double)s.constraint_sweeps / steps, s.not_converged,
                s.residual_max);
    mb_stepper_free(st);
}

Test(solfec_friction, block_sticks_below_the_friction_angle)
{
    double mu = 0.4, theta = 0.8 * atan(mu), h = 0.01;
    mb_system *sys = incline(theta, mu);
    run(sys, h, 100);
    cr_assert_leq(fabs(sys->nodes->x[0]), 1e-9, "x = %.3g", sys->nodes->x[0]);
    cr_assert_leq(mb_v3_norm(sys->nodes->v), 1e-9, "|v| = %.3g", mb_v3_norm(sys->nodes->v));
    cr_assert_leq(mb_v3_norm(sys->nodes->omega), 1e-9);
    mb_system_free(sys);
}

Test(solfec_friction, block_slides_above_the_friction_angle)
{
    double mu = 0.4, theta = 1.3 * atan(mu), h = 0.01, g = 9.81, t = 1.0;
    mb_system *sys = incline(theta, mu);
    run(sys, h, 100);
    double a = g * (sin(theta) - mu * cos(theta));
    cr_log_info("v = %.15g, a t = %.15g; x = %.15g, a t^2/2 = %.15g", sys->nodes->v[0], a * t,
                sys->nodes->x[0], 0.5 * a * t * t);
    cr_assert_float_eq(sys->nodes->v[0], a * t, 1e-9 * a * t);
    cr_assert_float_eq(sys->nodes->x[0], 0.5 * a * t * t, 1e-9 * a * t);
    cr_assert_leq(fabs(sys->nodes->v[1]) + fabs(sys->nodes->v[2]), 1e-9);
    cr_assert_leq(mb_v3_norm(sys->nodes->omega), 1e-9);
    mb_system_free(sys);
}

/* Negative control: with the friction law dropped (mu = 0) the same block must
 * accelerate at g sin(theta), which the sliding check above would reject. */
Test(solfec_friction, frictionless_control_is_flagged)
{
    double mu = 0.4, theta = 1.3 * atan(mu), h = 0.01, g = 9.81;
    mb_system *sys = incline(theta, 0.0);
    run(sys, h, 100);
    double a = g * (sin(theta) - mu * cos(theta));
    cr_assert_gt(fabs(sys->nodes->v[0] - a), 1e-3);
    cr_assert_float_eq(sys->nodes->v[0], g * sin(theta), 1e-9);
    mb_system_free(sys);
}

/* Newton impact law: a sphere hitting the plane z = 0 with normal velocity -vn (no
 * gravity, mu = 0) leaves with e vn; the tangential velocity is untouched. */
static void bounce(double e, double expect_factor)
{
    double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 }, h = 0.01, vn = 2.385;
    mb_system *sys = bodies(1, NULL);
    sys->nodes->x[2] = 0.5 + 0.01;
    mb_v3_set(sys->nodes->v, 0.7, 0.0, -vn);
    mb_scene *s = scene(sys, 0.0, e);
    cr_assert_eq(mb_scene_set_sphere(s, 0, 0.5), MB_SUCCESS);
    cr_assert_eq(mb_scene_add_plane(s, o, n), MB_SUCCESS);
    run(sys, h, 1);
    cr_assert_float_eq(sys->nodes->v[2], expect_factor * vn, 1e-12, "v_z = %.17g", sys->nodes->v[2]);
    cr_assert_float_eq(sys->nodes->v[0], 0.7, 1e-15);
    mb_system_free(sys);
}

Test(solfec_restitution, newton_law_is_exact)
{
    bounce(0.63, 0.63);
    bounce(0.0, 0.0);
    bounce(1.0, 1.0);
}

Test(solfec_restitution, contact_signorini_with_gravity_and_friction)
{
    /* resting sphere pushed sideways: no penetration velocity, R_n = m g, sliding */
    double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 }, h = 0.01, mu = 0.3, g = 9.81;
    mb_system *sys = bodies(1, G);
    sys->nodes->x[2] = 0.5 - 1e-9;
    mb_v3_set(sys->nodes->v, 1.7, 0.0, 0.0);
    mb_scene *s = scene(sys, mu, 0.0);
    cr_assert_eq(mb_scene_set_sphere(s, 0, 0.5), MB_SUCCESS);
    cr_assert_eq(mb_scene_add_plane(s, o, n), MB_SUCCESS);
    run(sys, h, 1);
    cr_assert_leq(fabs(sys->nodes->v[2]), 1e-12, "v_z = %.3g", sys->nodes->v[2]);
    cr_assert_lt(s->stats.merit_max, 1e-9);
    (void)g;
    mb_system_free(sys);
}

/* Two fixed points at one material point: 6 bilateral rows of rank 3.  By default the
 * consistent singular system is solved (the point stays where it was, up to the
 * O(h^2) position error of the fixed-point target) and the deficiency 3 is noted. */
Test(solfec_constraints, redundant_constraints_are_solved_and_noted)
{
    double p[3] = { 0.31, -0.12, 0.27 }, A[3], pt[3];
    mb_system *sys = bodies(1, G);
    spin(sys, 0);
    mb_scene *s = scene(sys, 0, 0);
    cr_assert_eq(mb_scene_fix_point(s, sys->nodes, 0, MB_CON_GROUND, p), MB_SUCCESS);
    cr_assert_eq(mb_scene_fix_point(s, sys->nodes, 0, MB_CON_GROUND, p), MB_SUCCESS);
    mb_q_rotate_inv(A, sys->nodes->q, (double[3]){ p[0] - sys->nodes->x[0],
                    p[1] - sys->nodes->x[1], p[2] - sys->nodes->x[2] });
    mb_stepper *st = stepper(sys);
    for (int k = 0; k < 100; k++)
        cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(s->stats.bilateral_rows, 6);
    cr_assert_eq(s->stats.rank_deficiency, 3);
    cr_assert_eq(s->stats.not_converged, 0);
    mb_q_rotate(pt, sys->nodes->q, A);
    for (int d = 0; d < 3; d++)
        pt[d] += sys->nodes->x[d];
    /* the pinned point drifts by the target's position error, O(h^2 |w|^2 |A|) < 1e-3 */
    cr_assert_lt(mb_v3_dist(pt, p), 1e-3, "pinned point moved by %g", mb_v3_dist(pt, p));
    mb_stepper_free(st);
    mb_system_free(sys);
}

Test(solfec_constraints, redundant_constraints_refused_on_request_leave_the_state)
{
    double p[3] = { 0.31, -0.12, 0.27 };
    mb_system *sys = bodies(1, G);
    spin(sys, 0);
    mb_scene *s = scene(sys, 0, 0);
    cr_assert_eq(mb_scene_fix_point(s, sys->nodes, 0, MB_CON_GROUND, p), MB_SUCCESS);
    cr_assert_eq(mb_scene_fix_point(s, sys->nodes, 0, MB_CON_GROUND, p), MB_SUCCESS);
    mb_nodes *before = mb_nodes_alloc(1, 53);
    mb_nodes_copy(before, sys->nodes);
    mb_stepper *st = mb_stepper_alloc("solfec[rotation=rig-pos,redundant=refuse]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_ESINGULAR);
    cr_assert_not_null(strstr(mb_last_error(), "redundant"), "%s", mb_last_error());
    cr_assert_eq(memcmp(before->x, sys->nodes->x, 3 * sizeof(double)), 0);
    cr_assert_eq(memcmp(before->q, sys->nodes->q, 4 * sizeof(double)), 0);
    cr_assert_eq(sys->t, 0.0);
    mb_stepper_free(st);
    mb_nodes_free(before);
    mb_system_free(sys);
}

Test(solfec_constraints, other_schemes_refuse_constrained_systems)
{
    mb_system *sys = bodies(1, G);
    scene(sys, 0, 0);
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_neq(mb_stepper_step(st, sys, 0.01), MB_SUCCESS);
    cr_assert_not_null(strstr(mb_last_error(), "solfec"), "%s", mb_last_error());
    mb_stepper_free(st);
    mb_system_free(sys);
}

/* Two spheres (masses 2.385 and 3.385, radii 0.4 and 0.3) meeting head-on along x with
 * restitution e, no friction, no gravity: Newton's law on the relative normal velocity,
 * u' = -e u, with momentum conserved, gives
 *   v1' = v1 - (1 + e) m2 (v1 - v2) / (m1 + m2),  v2' = v2 + (1 + e) m1 (v1 - v2) / (m1 + m2). */
Test(solfec_restitution, sphere_sphere_newton_and_momentum)
{
    double e = 0.71, h = 0.01, v1 = 1.3, v2 = -0.9, m1 = 2.385, m2 = 3.385;
    mb_system *sys = bodies(2, NULL);
    mb_v3_set(&sys->nodes->x[0], 0.0, 0.0, 0.0);
    mb_v3_set(&sys->nodes->x[3], 0.7 + 0.01, 0.0, 0.0);       /* gap 0.01 closes in a step */
    mb_v3_set(&sys->nodes->v[0], v1, 0.0, 0.0);
    mb_v3_set(&sys->nodes->v[3], v2, 0.0, 0.0);
    mb_scene *s = scene(sys, 0.0, e);
    cr_assert_eq(mb_scene_set_sphere(s, 0, 0.4), MB_SUCCESS);
    cr_assert_eq(mb_scene_set_sphere(s, 1, 0.3), MB_SUCCESS);
    run(sys, h, 1);
    cr_assert_eq(s->stats.contacts_last, 1);
    double w1 = v1 - (1 + e) * m2 * (v1 - v2) / (m1 + m2), w2 = v2 + (1 + e) * m1 * (v1 - v2) / (m1 + m2);
    cr_assert_float_eq(sys->nodes->v[0], w1, 1e-12, "%.17g vs %.17g", sys->nodes->v[0], w1);
    cr_assert_float_eq(sys->nodes->v[3], w2, 1e-12, "%.17g vs %.17g", sys->nodes->v[3], w2);
    cr_assert_float_eq(m1 * sys->nodes->v[0] + m2 * sys->nodes->v[3], m1 * v1 + m2 * v2, 1e-12);
    cr_assert_leq(mb_v3_norm(sys->nodes->omega) + mb_v3_norm(&sys->nodes->omega[3]), 1e-14);
    mb_system_free(sys);
}

/* Geometry: a tilted box resting on one edge activates exactly the two vertices of
 * that edge (gap <= 0), a sphere above the plane none. */
Test(solfec_constraints, box_vertex_detection)
{
    double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 }, half[3] = { 0.3, 0.2, 0.1 }, th[3] = { 0.0, 0.25, 0.0 };
    mb_system *sys = bodies(2, NULL);
    mb_q_from_rotvec(sys->nodes->q, th);
    /* lowest vertices: x = -a, z = -c rotated by 0.25 rad about y: z = a sin - c cos ... */
    double A[3] = { 0.3, 0.0, -0.1 }, a[3];
    mb_q_rotate(a, sys->nodes->q, A);
    double zmin = a[2];
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sz = -1; sz <= 1; sz += 2) {
            double B[3] = { sx * 0.3, 0.0, sz * 0.1 }, b[3];
            mb_q_rotate(b, sys->nodes->q, B);
            zmin = fmin(zmin, b[2]);
        }
    sys->nodes->x[2] = -zmin - 1e-12;
    mb_v3_set(&sys->nodes->x[3], 5.0, 0.0, 2.0);
    mb_scene *s = scene(sys, 0.3, 0.0);
    cr_assert_eq(mb_scene_set_box(s, 0, half), MB_SUCCESS);
    cr_assert_eq(mb_scene_set_sphere(s, 1, 0.5), MB_SUCCESS);
    cr_assert_eq(mb_scene_add_plane(s, o, n), MB_SUCCESS);
    run(sys, 1e-4, 1);
    cr_assert_eq(s->stats.contacts_last, 2);
    mb_system_free(sys);
}

/* The state, time and the scene's solver counters of a system, for "untouched" checks. */
static void assert_untouched(const mb_nodes *before, const mb_system *sys, const mb_scene *s)
{
    size_t n = sys->nodes->n;
    cr_assert_eq(memcmp(before->x, sys->nodes->x, 3 * n * sizeof(double)), 0);
    cr_assert_eq(memcmp(before->v, sys->nodes->v, 3 * n * sizeof(double)), 0);
    cr_assert_eq(memcmp(before->q, sys->nodes->q, 4 * n * sizeof(double)), 0);
    cr_assert_eq(memcmp(before->omega, sys->nodes->omega, 3 * n * sizeof(double)), 0);
    cr_assert_eq(memcmp(before->angmom, sys->nodes->angmom, 3 * n * sizeof(double)), 0);
    cr_assert_eq(sys->t, 0.0);
    cr_assert_eq(s->stats.steps, 0, "a failed step counted in the scene: %lu", s->stats.steps);
    cr_assert_eq(s->stats.iterations_total, 0);
}

/* A step h that is zero, negative or not finite is bad input: the scheme must say so
 * (naming the time step) instead of reporting redundant constraints or a singular
 * block, or integrating a dissipative contact law backwards, and leave the state. */
Test(solfec_constraints, bad_step_size_is_rejected_and_leaves_the_state)
{
    const double hs[] = { 0.0, -0.01, NAN, INFINITY };
    double p[3] = { 1.2, 0.0, 0.9 }, o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    for (size_t k = 0; k < sizeof hs / sizeof hs[0]; k++) {
        mb_system *sys = bodies(2, G);
        spin(sys, 0);
        mb_v3_set(&sys->nodes->x[3], 3.0, 0.0, 0.5 - 1e-9);    /* sphere 1 resting on z = 0 */
        mb_v3_set(&sys->nodes->v[3], 1.7, 0.0, 0.0);
        mb_scene *s = scene(sys, 0.3, 0.0);
        cr_assert_eq(mb_scene_rigid_link(s, sys->nodes, 0, MB_CON_GROUND, &sys->nodes->x[0], p),
                     MB_SUCCESS);
        cr_assert_eq(mb_scene_set_sphere(s, 1, 0.5), MB_SUCCESS);
        cr_assert_eq(mb_scene_add_plane(s, o, n), MB_SUCCESS);
        mb_nodes *before = mb_nodes_alloc(2, 53);
        mb_nodes_copy(before, sys->nodes);
        mb_stepper *st = stepper(sys);
        int rc = mb_stepper_step(st, sys, hs[k]);
        cr_assert_eq(rc, MB_EDOM, "h = %g: status %d (%s)", hs[k], rc, rc ? mb_last_error() : "");
        cr_assert_not_null(strstr(mb_last_error(), "time step"), "h = %g: %s", hs[k], mb_last_error());
        assert_untouched(before, sys, s);
        mb_stepper_free(st);
        mb_nodes_free(before);
        mb_system_free(sys);
    }
}

/* A step that fails after the constraint solve (here rig-imp's implicit spin equation,
 * whose fixed-point iteration diverges for h |Omega| ~ 3.5 on an anisotropic body) must
 * not count as a solved step in the scene's solver figures that observers report. */
Test(solfec_constraints, failed_step_does_not_count_in_the_solver_figures)
{
    double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    mb_system *sys = bodies(2, NULL);
    mb_v3_set(&sys->nodes->omega[0], 180.0, -300.0, 120.0);
    mb_v3_set(&sys->nodes->x[3], 3.0, 0.0, 0.5 - 1e-9);       /* one active contact */
    mb_v3_set(&sys->nodes->v[3], 0.0, 0.0, -0.3);
    mb_scene *s = scene(sys, 0.3, 0.5);
    cr_assert_eq(mb_scene_set_sphere(s, 1, 0.5), MB_SUCCESS);
    cr_assert_eq(mb_scene_add_plane(s, o, n), MB_SUCCESS);
    mb_nodes *before = mb_nodes_alloc(2, 53);
    mb_nodes_copy(before, sys->nodes);
    mb_stepper *st = mb_stepper_alloc("solfec[rotation=rig-imp]", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    cr_assert_eq(mb_stepper_step(st, sys, 0.01), MB_EMAXITER, "%s", mb_last_error());
    assert_untouched(before, sys, s);
    mb_stepper_stats ss;
    mb_stepper_get_stats(st, &ss);
    cr_assert_eq(ss.steps, 0);
    cr_assert_eq(ss.constraint_sweeps, 0, "failed step's sweeps counted: %lu", ss.constraint_sweeps);
    mb_stepper_free(st);
    mb_nodes_free(before);
    mb_system_free(sys);
}

/* The scene's set-up calls refuse non-finite or out-of-range data with a message, and a
 * master body beyond the node store (which the arm computation would read out of
 * bounds) as well as the slave. */
Test(solfec_constraints, scene_rejects_bad_input)
{
    mb_system *sys = bodies(1, NULL);
    double p[3] = { 0.1, 0.2, 0.3 }, n[3] = { 0, 0, 1 }, bad[3] = { 0.1, NAN, 0.3 },
           infn[3] = { 0, 0, INFINITY }, half[3] = { 0.3, INFINITY, 0.1 };
    cr_expect_null(mb_scene_new(1, -0.1, 0.5));
    cr_expect(strstr(mb_last_error(), "mu") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_scene_new(1, NAN, 0.5));
    cr_expect_null(mb_scene_new(1, 0.3, 1.5));
    cr_expect(strstr(mb_last_error(), "restitution") != NULL, "%s", mb_last_error());
    cr_expect_null(mb_scene_new(1, 0.3, -0.1));
    mb_scene *s = mb_scene_new(3, 0.3, 0.5);               /* 3 bodies, the store has 1 */
    cr_assert_not_null(s, "%s", mb_last_error());
    cr_expect_eq(mb_scene_set_sphere(s, 0, INFINITY), MB_EINVAL);
    cr_expect_eq(mb_scene_set_sphere(s, 0, NAN), MB_EINVAL);
    cr_expect_eq(mb_scene_set_box(s, 0, half), MB_EINVAL);
    cr_expect_neq(mb_scene_add_plane(s, bad, n), MB_SUCCESS);
    cr_expect(strstr(mb_last_error(), "plane") != NULL, "%s", mb_last_error());
    cr_expect_neq(mb_scene_add_plane(s, p, infn), MB_SUCCESS);
    cr_expect_eq(s->nplanes, 0);
    cr_expect_neq(mb_scene_fix_point(s, sys->nodes, 0, MB_CON_GROUND, bad), MB_SUCCESS);
    cr_expect_neq(mb_scene_rigid_link(s, sys->nodes, 0, 2, p, n), MB_SUCCESS);
    cr_expect(strstr(mb_last_error(), "rigid-link") != NULL, "%s", mb_last_error());
    cr_expect_neq(mb_scene_velocity_direction(s, sys->nodes, 0, p, n, NAN), MB_SUCCESS);
    cr_expect_eq(s->nbilateral, 0, "%zu bilateral constraints kept from failed calls", s->nbilateral);
    mb_force_scene->free(s);
    mb_system_free(sys);
}
