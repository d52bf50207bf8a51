/* clump_free.c -- a free-spinning clump of 2-4 spheres, no forces (torque-free rigid body).
 * Member centres in the construction frame (s = spacing):
 *   c0 = (0, 0, 0), c1 = (s, 0, 0), c2 = (0.4 s, 0.8 s, 0), c3 = (0.3 s, 0.2 s, 0.7 s),
 * radii from the list `radii`.  Mass properties by mb_clump_build (Steiner sum, or grid
 * sampling at `resolution` cells per smallest radius when members overlap; mb_clump.h).
 * The clump node is placed with its construction frame at the origin turned by the
 * rotation vector (rot_x, rot_y, rot_z): q = Quaternion(rot) (x) q_principal; its initial
 * angular velocity is (omega_x, omega_y, omega_z) in the global frame, an on-step value,
 * and its angular momentum L = R I R^T omega (global), both set as a scene sets a body's
 * global angular_velocity (mb_scene_place_body: the clump is the scene of doc/scenes.md,
 * "Problems that are scenes").  Invariants: L and the kinetic
 * energy.  No closed form in general (the asymmetric top needs elliptic functions):
 * referenced by the ODE / MPFR engines. */
#include "mb_clump.h"
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "count", MB_OPT_INT, "3", 2, 4, NULL, "number of member spheres, 2..4" },
    { "radii", MB_OPT_STRING, "0.01,0.008,0.006,0.005", 0, 0, NULL,
      "comma-separated member radii (m), > 0; the first `count` are used" },
    { "spacing", MB_OPT_DOUBLE, "0.012", 1e-9, 1e3, NULL, "layout scale s of the member centres (m)" },
    { "density", MB_OPT_DOUBLE, "2500", 1e-6, 1e6, NULL, "density (kg/m^3)" },
    { "resolution", MB_OPT_INT, "16", 1, 256, NULL,
      "grid cells per smallest radius for overlapping members, 1..256" },
    { "omega_x", MB_OPT_DOUBLE, "0.5", -1e6, 1e6, NULL, "initial angular velocity x (rad/s, global)" },
    { "omega_y", MB_OPT_DOUBLE, "7", -1e6, 1e6, NULL, "initial angular velocity y (rad/s, global)" },
    { "omega_z", MB_OPT_DOUBLE, "0.3", -1e6, 1e6, NULL, "initial angular velocity z (rad/s, global)" },
    { "rot_x", MB_OPT_DOUBLE, "0.3", -1e3, 1e3, NULL, "initial orientation, rotation vector x (rad)" },
    { "rot_y", MB_OPT_DOUBLE, "-0.2", -1e3, 1e3, NULL, "initial orientation, rotation vector y (rad)" },
    { "rot_z", MB_OPT_DOUBLE, "0.5", -1e3, 1e3, NULL, "initial orientation, rotation vector z (rad)" },
    MB_OPTION_END
};

/* Parse the first n radii of "r0,r1,..." into r. */
static int parse_radii(const char *text, long n, double *r)
{
    const char *p = text;
    for (long i = 0; i < n; i++) {
        char *end;
        errno = 0;
        r[i] = strtod(p, &end);
        if (end == p || errno != 0 || !(r[i] > 0.0) || !isfinite(r[i]))
            MB_ERROR(MB_EDOM, "problem 'clump-free': parameter 'radii' = '%s': value %ld is not "
                              "a radius > 0 (need %ld values for count = %ld)", text, i + 1, n, n);
        while (*end == ' ')
            end++;
        if (i + 1 == n && *end != ',' && *end != '\0')
            MB_ERROR(MB_EINVAL, "problem 'clump-free': parameter 'radii' = '%s': value %ld is "
                                "followed by '%s' (expected ',' or the end)", text, i + 1, end);
        if (i + 1 < n) {
            if (*end != ',')
                MB_ERROR(MB_EINVAL, "problem 'clump-free': parameter 'radii' = '%s' has %ld "
                                    "value(s), count = %ld needs %ld", text, i + 1, n, n);
            end++;
        }
        p = end;
    }
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    long n = mb_options_int(p, "count");
    double r[4], s = mb_options_double(p, "spacing");
    int st = parse_radii(mb_options_string(p, "radii"), n, r);
    if (st != MB_SUCCESS)
        return st;
    const double c[12] = { 0, 0, 0, s, 0, 0, 0.4 * s, 0.8 * s, 0, 0.3 * s, 0.2 * s, 0.7 * s };
    mb_clump *cl;
    st = mb_clump_build(c, r, (size_t)n, mb_options_double(p, "density"), MB_CLUMP_AUTO,
                        (int)mb_options_int(p, "resolution"), &cl);
    if (st != MB_SUCCESS)
        return st;
    mb_system *sys = mb_system_alloc(1);
    if (sys == NULL) {
        mb_clump_free(cl);
        return MB_ENOMEM;
    }
    mb_nodes *nd = sys->nodes;
    const double rot[3] = { mb_options_double(p, "rot_x"), mb_options_double(p, "rot_y"),
                            mb_options_double(p, "rot_z") };
    const double origin[3] = { 0, 0, 0 };
    double q0[4];
    mb_q_from_rotvec(q0, rot);
    st = mb_clump_place(cl, nd, 0, origin, q0);
    const double radius = mb_clump_bounding_radius(cl);
    mb_clump_free(cl);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    /* the spin as a scene's global angular_velocity: w~ = R^T w, w = R w~, L = R I w~ */
    mb_scene_pose pose;
    mb_scene_pose_init(&pose);
    pose.mass = nd->mass[0];
    memcpy(pose.inertia, &nd->inertia[0], sizeof pose.inertia);
    memcpy(pose.x, &nd->x[0], sizeof pose.x);
    memcpy(pose.q, &nd->q[0], sizeof pose.q);
    pose.radius = radius;
    pose.spin_form = MB_SPIN_OMEGA;
    mb_v3_set(pose.spin, mb_options_double(p, "omega_x"), mb_options_double(p, "omega_y"),
              mb_options_double(p, "omega_z"));
    mb_scene_place_body(nd, 0, &pose);
    *out = sys;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_clump_free = {
    .name = "clump-free",
    .summary = "a torque-free spinning clump of 2-4 spheres (aspherical rigid body)",
    .params = params,
    .setup = setup,
};
