/* scene_body.c -- one [body NAME] section of a scene into node i of a system.
 *
 * Mass properties (doc/scenes.md, "Bodies"): m = density V when density is given;
 *   sphere radius r:        V = 4/3 pi r^3,  I = 2/5 m r^2 (all axes);
 *   box half-extents a,b,c: V = 8 a b c,     I = m/3 (b^2+c^2, a^2+c^2, a^2+b^2);
 *   ellipsoid semi-axes:    V = 4/3 pi a b c, I = m/5 (b^2+c^2, a^2+c^2, a^2+b^2);
 *   point: no rotation.
 * `inertia = I1, I2, I3` replaces the principal moments (any order: the body frame is the
 * frame they are given in); `inertia_tensor = Ixx, Iyy, Izz, Ixy, Ixz, Iyz` (in the frame of
 * `orientation`) is diagonalised as the clumps' tensors are (mb_inertia_principal:
 * gsl_eigen_symmv, I = P diag(l) P^T with det P = +1),
 * and the body (principal) frame is then q_user (x) q(P).  Moments must be positive; the
 * triangle inequality I_a <= I_b + I_c of real mass distributions is not required (Euler's
 * equations do not need it, and verification bodies such as I = (2, 1, 2/3) violate it). */
#include "mb_clump.h"
#include "mb_scene_build.h"
#include "mb_scene_place.h"
#include "mb_rigid_setup.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const body_keys[] = {
    "type", "mass", "density", "radius", "half_extents", "semi_axes", "inertia",
    "inertia_tensor", "position", "velocity", "orientation", "rotation_vector", "axis",
    "angle", "angular_velocity", "angular_velocity_body", "angular_momentum",
    "angular_momentum_body", "blocked", "spheres", "resolution", "material", NULL
};
static const char *const body_types[] = { "point", "sphere", "box", "ellipsoid", "clump", NULL };

static int type_index(const mb_scene_doc *d, const mb_scene_entry *e)
{
    for (int k = 0; body_types[k]; k++)
        if (strcmp(body_types[k], e->value) == 0)
            return k;
    const char *hint = mb_suggest(e->value, body_types);
    mb_scene_fail(d, e->line, "type = %s: unknown body type (point, sphere, box, ellipsoid or "
                  "clump)%s%s%s",
                  e->value, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return -1;
}

/* volume, unit-mass moments and bounding radius of the shape */
static int shape_properties(const mb_scene_doc *d, mb_scene_section *s, mb_scene_body *b,
                            double *volume, double Iunit[3])
{
    double e[3] = { 0, 0, 0 };
    int st = MB_SUCCESS;
    const char *key = b->type == MB_SCENE_SPHERE ? "radius" : b->type == MB_SCENE_BOX
                    ? "half_extents" : "semi_axes";
    *volume = 0.0;
    mb_v3_set(Iunit, 0, 0, 0);
    if (b->type == MB_SCENE_POINT)
        return MB_SUCCESS;
    if (b->type == MB_SCENE_SPHERE) {
        st = mb_scene_req_double(d, s, key, e);
        e[1] = e[2] = e[0];
    } else {
        st = mb_scene_req_vector(d, s, key, e, 3);
    }
    if (st != MB_SUCCESS)
        return st;
    if (!(e[0] > 0 && e[1] > 0 && e[2] > 0))
        return mb_scene_fail(d, mb_scene_get(s, key)->line, "%s must be > 0", key);
    memcpy(b->extent, e, sizeof e);
    mb_scene_shape(b, volume, Iunit);
    return MB_SUCCESS;
}

static int read_mass(const mb_scene_doc *d, mb_scene_section *s, mb_scene_body *b, double volume)
{
    mb_scene_entry *m = mb_scene_get(s, "mass"), *rho = mb_scene_get(s, "density");
    int st;
    if ((m == NULL) == (rho == NULL))
        return mb_scene_fail(d, s->line, "[body %s] needs one of 'mass' and 'density'", s->name);
    if (rho != NULL && b->type == MB_SCENE_POINT)
        return mb_scene_fail(d, rho->line, "density: a point has no volume, give its mass");
    const mb_scene_entry *e = m ? m : rho;
    double value;
    if ((st = mb_scene_double(d, e, &value)) != MB_SUCCESS)
        return st;
    if (!(value > 0))
        return mb_scene_fail(d, e->line, "%s = %s must be > 0", e->key, e->value);
    b->mass = m ? value : value * volume;
    return MB_SUCCESS;
}

static int check_moments(const mb_scene_doc *d, int line, const double I[3])
{
    for (int k = 0; k < 3; k++)
        if (!(I[k] > 0))
            return mb_scene_fail(d, line, "inertia is not positive definite (principal moment "
                                 "%.17g)", I[k]);
    return MB_SUCCESS;
}

/* principal moments and the extra rotation of the principal frame (identity unless a
 * tensor was given) */
static int read_inertia(const mb_scene_doc *d, mb_scene_section *s, mb_scene_body *b,
                        const double Iunit[3], double qP[4])
{
    mb_scene_entry *I = mb_scene_get(s, "inertia"), *T = mb_scene_get(s, "inertia_tensor");
    int st;
    mb_q_identity(qP);
    mb_v3_scale(b->inertia, b->mass, Iunit);
    if (I && T)
        return mb_scene_fail(d, T->line, "give one of 'inertia' (line %d) and 'inertia_tensor'",
                             I->line);
    if (I) {
        if ((st = mb_scene_vector(d, I, b->inertia, 3)) != MB_SUCCESS)
            return st;
        return check_moments(d, I->line, b->inertia);
    }
    if (T) {
        double T6[6], P[9];
        if ((st = mb_scene_vector(d, T, T6, 6)) != MB_SUCCESS)
            return st;
        double J[9] = { T6[0], T6[3], T6[4], T6[3], T6[1], T6[5], T6[4], T6[5], T6[2] };
        st = mb_inertia_principal(J, b->inertia, P, qP);
        if (st == MB_EDOM)
            return check_moments(d, T->line, b->inertia);
        return st;
    }
    if (b->type == MB_SCENE_POINT)
        mb_v3_set(b->inertia, 1, 1, 1);      /* never used: a point takes no torque */
    return MB_SUCCESS;
}

static int read_orientation(const mb_scene_doc *d, mb_scene_section *s, double q[4])
{
    mb_scene_entry *Q = mb_scene_get(s, "orientation"), *V = mb_scene_get(s, "rotation_vector"),
                   *A = mb_scene_get(s, "axis"), *G = mb_scene_get(s, "angle");
    int st, given = (Q != NULL) + (V != NULL) + (A != NULL || G != NULL);
    mb_q_identity(q);
    if (given > 1)
        return mb_scene_fail(d, s->line, "[body %s]: give one of orientation (quaternion), "
                             "rotation_vector, axis + angle", s->name);
    if (Q) {
        if ((st = mb_scene_vector(d, Q, q, 4)) != MB_SUCCESS)
            return st;
        if (!(mb_q_norm(q) > 0))
            return mb_scene_fail(d, Q->line, "orientation: zero quaternion");
        mb_q_normalize(q);
    } else if (V) {
        double th[3];
        if ((st = mb_scene_vector(d, V, th, 3)) != MB_SUCCESS)
            return st;
        mb_q_from_rotvec(q, th);
    } else if (A || G) {
        double axis[3], angle;
        if (!A || !G)
            return mb_scene_fail(d, (A ? A : G)->line, "give both 'axis' and 'angle'");
        if ((st = mb_scene_vector(d, A, axis, 3)) || (st = mb_scene_double(d, G, &angle)))
            return st;
        if (!(mb_v3_norm(axis) > 0))
            return mb_scene_fail(d, A->line, "axis: zero vector");
        mb_scene_axis_angle(axis, angle, q);
    }
    return MB_SUCCESS;
}

/* the spin, given one of four ways (converted by mb_scene_place_body) */
static int read_spin(const mb_scene_doc *d, mb_scene_section *s, const mb_scene_body *b,
                     mb_scene_pose *pose)
{
    static const char *const keys[] = { "angular_velocity", "angular_velocity_body",
                                        "angular_momentum", "angular_momentum_body" };
    mb_scene_entry *e = NULL;
    int which = MB_SPIN_OMEGA_BODY;
    for (int k = 0; k < 4; k++) {
        mb_scene_entry *x = mb_scene_get(s, keys[k]);
        if (x && e)
            return mb_scene_fail(d, x->line, "give one of %s (line %d) and %s", e->key, e->line, x->key);
        if (x) {
            e = x;
            which = k;
        }
    }
    pose->spin_form = which;
    mb_v3_set(pose->spin, 0, 0, 0);
    if (e == NULL)
        return MB_SUCCESS;
    if (b->type == MB_SCENE_POINT)
        return mb_scene_fail(d, e->line, "%s: a point does not rotate", e->key);
    return mb_scene_vector(d, e, pose->spin, 3);
}

static int read_blocked(const mb_scene_doc *d, mb_scene_section *s, unsigned char *bits)
{
    static const char letters[] = "xyzXYZ";
    mb_scene_entry *e = mb_scene_get(s, "blocked");
    *bits = 0;
    if (e == NULL)
        return MB_SUCCESS;
    for (const char *p = e->value; *p; p++) {
        const char *at = strchr(letters, *p);
        if (*p == ' ' || *p == ',')
            continue;
        if (at == NULL || *p == '\0')
            return mb_scene_fail(d, e->line, "blocked = %s: use the letters xyz (translation) "
                                 "and XYZ (rotation about global axes)", e->value);
        *bits |= (unsigned char)(1u << (at - letters));
    }
    return MB_SUCCESS;
}

/* spheres = x, y, z, r | x, y, z, r | ... (construction frame) into a clump built as the
 * clump code builds every clump (Steiner sum, or grid sampling when members overlap) */
static int read_clump(const mb_scene_doc *d, mb_scene_section *s, mb_clump **cl)
{
    mb_scene_entry *sp = mb_scene_get(s, "spheres"), *rho = mb_scene_get(s, "density"),
                   *res = mb_scene_get(s, "resolution");
    double density, resolution = 16, c[3 * 64], r[64];
    size_t count = 0;
    int st;
    *cl = NULL;
    if (sp == NULL || rho == NULL || mb_scene_get(s, "mass") || mb_scene_get(s, "inertia")
        || mb_scene_get(s, "inertia_tensor"))
        return mb_scene_fail(d, s->line, "[body %s]: a clump takes 'spheres' and 'density' (its "
                             "mass and inertia follow from them), not mass or inertia", s->name);
    if ((st = mb_scene_double(d, rho, &density)) || (res && (st = mb_scene_double(d, res, &resolution))))
        return st;
    char *text = strdup(sp->value), *save = NULL;
    if (text == NULL)
        return MB_ENOMEM;
    for (char *tok = strtok_r(text, "|", &save); tok && st == MB_SUCCESS; tok = strtok_r(NULL, "|", &save)) {
        while (*tok == ' ' || *tok == '\t')
            tok++;
        mb_scene_entry one = { .key = "spheres: member", .value = tok, .line = sp->line,
                               .used = 1 };
        double m[4];
        if (count == 64)
            st = mb_scene_fail(d, sp->line, "spheres: at most 64 members");
        else if ((st = mb_scene_vector(d, &one, m, 4)) == MB_SUCCESS) {
            memcpy(&c[3 * count], m, 3 * sizeof(double));
            r[count++] = m[3];
        }
    }
    free(text);
    if (st != MB_SUCCESS)
        return st;
    if (!(resolution >= 1 && resolution <= 256) || resolution != floor(resolution))
        return mb_scene_fail(d, res->line, "resolution must be a whole number in 1..256");
    st = mb_clump_build(c, r, count, density, MB_CLUMP_AUTO, (int)resolution, cl);
    return st == MB_SUCCESS ? st : mb_scene_fail(d, sp->line, "%s", mb_last_error());
}

/* a clump node: placed with its construction frame at `position`, turned by qu */
static int place_clump(const mb_scene_doc *d, mb_scene_section *s, mb_nodes *n, size_t i,
                       mb_scene_body *b, const double qu[4], double q[4])
{
    mb_clump *cl;
    double origin[3] = { 0, 0, 0 };
    int st = read_clump(d, s, &cl);
    if (st || (st = mb_scene_opt_vector(d, s, "position", origin, 3))) {
        mb_clump_free(cl);
        return st;
    }
    st = mb_clump_place(cl, n, i, origin, qu);
    b->mass = cl->mass;
    memcpy(b->inertia, cl->principal, sizeof b->inertia);
    b->radius = mb_clump_bounding_radius(cl);
    memcpy(q, &n->q[4 * i], 4 * sizeof(double));
    mb_clump_free(cl);
    return st;
}

int mb_scene_read_body(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, size_t i,
                       mb_scene_body *b)
{
    int st;
    mb_scene_entry *t = mb_scene_get(s, "type");
    memset(b, 0, sizeof *b);
    if ((st = mb_scene_check_keys(d, s, body_keys)) != MB_SUCCESS)
        return st;
    if (t == NULL)
        return mb_scene_fail(d, s->line, "[body %s] needs 'type' (point, sphere, box or "
                             "ellipsoid)", s->name);
    if ((b->type = type_index(d, t)) < 0)
        return MB_EINVAL;
    double volume, Iunit[3], qP[4], qu[4];
    mb_scene_pose pose;
    mb_nodes *n = sys->nodes;
    mb_scene_pose_init(&pose);
    if (b->type == MB_SCENE_CLUMP) {
        if ((st = read_orientation(d, s, qu)) || (st = place_clump(d, s, n, i, b, qu, pose.q)))
            return st;
        mb_v3_copy(pose.x, &n->x[3 * i]);
    } else {
        if ((st = shape_properties(d, s, b, &volume, Iunit)) || (st = read_mass(d, s, b, volume))
            || (st = read_inertia(d, s, b, Iunit, qP)) || (st = read_orientation(d, s, qu))
            || (st = mb_scene_opt_vector(d, s, "position", pose.x, 3)))
            return st;
        mb_q_mul(pose.q, qu, qP);
    }
    if ((st = mb_scene_opt_vector(d, s, "velocity", pose.v, 3))
        || (st = read_spin(d, s, b, &pose)) || (st = read_blocked(d, s, &pose.blocked)))
        return st;
    pose.mass = b->mass;
    memcpy(pose.inertia, b->inertia, sizeof pose.inertia);
    pose.radius = b->radius;
    mb_scene_place_body(n, i, &pose);
    return MB_SUCCESS;
}

static const char *const static_keys[] = { "type", "radius", "half_extents", "position",
                                           "orientation", "rotation_vector", "axis", "angle",
                                           "material", NULL };

int mb_scene_read_static(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, size_t i,
                         mb_scene_body *b)
{
    mb_scene_entry *t = mb_scene_get(s, "type");
    double volume, Iunit[3], q[4], one[3] = { 1, 1, 1 }, zero[3] = { 0, 0, 0 };
    int st = mb_scene_check_keys(d, s, static_keys);
    memset(b, 0, sizeof *b);
    if (st != MB_SUCCESS)
        return st;
    b->type = strcmp(t->value, "box") == 0 ? MB_SCENE_BOX : MB_SCENE_SPHERE;
    mb_nodes *n = sys->nodes;
    if ((st = shape_properties(d, s, b, &volume, Iunit)) || (st = read_orientation(d, s, q))
        || (st = mb_scene_opt_vector(d, s, "position", &n->x[3 * i], 3)))
        return st;
    b->mass = INFINITY;
    mb_nodes_set_mass(n, i, INFINITY);
    mb_rigid_set_spin(n, i, one, q, zero);
    n->radius[i] = b->radius;
    n->blocked[i] = MB_BLOCK_ALL;
    return MB_SUCCESS;
}
