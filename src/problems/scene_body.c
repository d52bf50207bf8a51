/* scene_body.c -- one [body NAME] section of a scene into node i of a system.
 *
 * Mass properties (doc/scenes.md, "Bodies"): m = density V when density is given;
 *   sphere radius r:        V = 4/3 pi r^3,  I = 2/5 m r^2 (all axes);
 *   box half-extents a,b,c: V = 8 a b c,     I = m/3 (b^2+c^2, a^2+c^2, a^2+b^2);
 *   ellipsoid semi-axes:    V = 4/3 pi a b c, I = m/5 (b^2+c^2, a^2+c^2, a^2+b^2);
 *   point: no rotation.
 * `inertia = I1, I2, I3` replaces the principal moments (any order: the body frame is the
 * frame they are given in); `inertia_tensor = Ixx, Iyy, Izz, Ixy, Ixz, Iyz` (in the frame of
 * `orientation`) is diagonalised with gsl_eigen_symmv, I = P diag(l) P^T with det P = +1,
 * and the body (principal) frame is then q_user (x) q(P).  Moments must be positive; the
 * triangle inequality I_a <= I_b + I_c of real mass distributions is not required (Euler's
 * equations do not need it, and verification bodies such as I = (2, 1, 2/3) violate it). */
#include "mb_scene_build.h"
#include "mb_rigid_setup.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

static const char *const body_keys[] = {
    "type", "mass", "density", "radius", "half_extents", "semi_axes", "inertia",
    "inertia_tensor", "position", "velocity", "orientation", "rotation_vector", "axis",
    "angle", "angular_velocity", "angular_velocity_body", "angular_momentum",
    "angular_momentum_body", "blocked", NULL
};
static const char *const body_types[] = { "point", "sphere", "box", "ellipsoid", NULL };

/* Shepperd's quaternion of a proper rotation matrix (row-major) */
static void quat_from_matrix(const double R[9], double q[4])
{
    double tr = R[0] + R[4] + R[8];
    if (tr > 0) {
        double s = 2.0 * sqrt(1.0 + tr);
        q[0] = 0.25 * s; q[1] = (R[7] - R[5]) / s; q[2] = (R[2] - R[6]) / s; q[3] = (R[3] - R[1]) / s;
    } else if (R[0] > R[4] && R[0] > R[8]) {
        double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / s; q[1] = 0.25 * s; q[2] = (R[1] + R[3]) / s; q[3] = (R[2] + R[6]) / s;
    } else if (R[4] > R[8]) {
        double s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
        q[0] = (R[2] - R[6]) / s; q[1] = (R[1] + R[3]) / s; q[2] = 0.25 * s; q[3] = (R[5] + R[7]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
        q[0] = (R[3] - R[1]) / s; q[1] = (R[2] + R[6]) / s; q[2] = (R[5] + R[7]) / s; q[3] = 0.25 * s;
    }
    mb_q_normalize(q);
}

/* principal moments I and rotation P (columns = principal axes, det +1) of a tensor */
static int diagonalise(const double T6[6], double I[3], double P[9])
{
    double A[9] = { T6[0], T6[3], T6[4], T6[3], T6[1], T6[5], T6[4], T6[5], T6[2] };
    gsl_matrix_view Am = gsl_matrix_view_array(A, 3, 3);
    gsl_vector_view ev = gsl_vector_view_array(I, 3);
    gsl_matrix_view Pm = gsl_matrix_view_array(P, 3, 3);
    gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(3);
    if (w == NULL)
        return MB_ENOMEM;
    gsl_eigen_symmv(&Am.matrix, &ev.vector, &Pm.matrix, w);
    gsl_eigen_symmv_free(w);
    gsl_eigen_symmv_sort(&ev.vector, &Pm.matrix, GSL_EIGEN_SORT_VAL_ASC);
    double det = P[0] * (P[4] * P[8] - P[5] * P[7]) - P[1] * (P[3] * P[8] - P[5] * P[6])
               + P[2] * (P[3] * P[7] - P[4] * P[6]);
    if (det < 0)
        for (int r = 0; r < 3; r++)
            P[3 * r + 2] = -P[3 * r + 2];
    return MB_SUCCESS;
}

static int type_index(const mb_scene_doc *d, const mb_scene_entry *e)
{
    for (int k = 0; body_types[k]; k++)
        if (strcmp(body_types[k], e->value) == 0)
            return k;
    const char *hint = mb_suggest(e->value, body_types);
    mb_scene_fail(d, e->line, "type = %s: unknown body type (point, sphere, box or ellipsoid)%s%s%s",
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
    double a2 = e[0] * e[0], b2 = e[1] * e[1], c2 = e[2] * e[2];
    double k = b->type == MB_SCENE_BOX ? 1.0 / 3.0 : b->type == MB_SCENE_SPHERE ? 0.4 : 0.2;
    *volume = b->type == MB_SCENE_BOX ? 8.0 * e[0] * e[1] * e[2] : 4.0 / 3.0 * M_PI * e[0] * e[1] * e[2];
    if (b->type == MB_SCENE_SPHERE)
        mb_v3_set(Iunit, k * a2, k * a2, k * a2);
    else
        mb_v3_set(Iunit, k * (b2 + c2), k * (a2 + c2), k * (a2 + b2));
    b->radius = b->type == MB_SCENE_BOX ? sqrt(a2 + b2 + c2) : fmax(e[0], fmax(e[1], e[2]));
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
        if ((st = mb_scene_vector(d, T, T6, 6)) != MB_SUCCESS || (st = diagonalise(T6, b->inertia, P)))
            return st;
        if ((st = check_moments(d, T->line, b->inertia)) != MB_SUCCESS)
            return st;
        quat_from_matrix(P, qP);
        return MB_SUCCESS;
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
        double axis[3], angle, th[3];
        if (!A || !G)
            return mb_scene_fail(d, (A ? A : G)->line, "give both 'axis' and 'angle'");
        if ((st = mb_scene_vector(d, A, axis, 3)) || (st = mb_scene_double(d, G, &angle)))
            return st;
        if (!(mb_v3_norm(axis) > 0))
            return mb_scene_fail(d, A->line, "axis: zero vector");
        mb_v3_scale(th, angle / mb_v3_norm(axis), axis);
        mb_q_from_rotvec(q, th);
    }
    return MB_SUCCESS;
}

/* body angular velocity from one of the four ways to give the spin */
static int read_spin(const mb_scene_doc *d, mb_scene_section *s, const mb_scene_body *b,
                     const double q[4], double wb[3])
{
    static const char *const keys[] = { "angular_velocity", "angular_velocity_body",
                                        "angular_momentum", "angular_momentum_body" };
    mb_scene_entry *e = NULL;
    int which = -1, st;
    double w[3];
    mb_v3_set(wb, 0, 0, 0);
    for (int k = 0; k < 4; k++) {
        mb_scene_entry *x = mb_scene_get(s, keys[k]);
        if (x && e)
            return mb_scene_fail(d, x->line, "give one of %s (line %d) and %s", e->key, e->line, x->key);
        if (x) {
            e = x;
            which = k;
        }
    }
    if (e == NULL)
        return MB_SUCCESS;
    if (b->type == MB_SCENE_POINT)
        return mb_scene_fail(d, e->line, "%s: a point does not rotate", e->key);
    if ((st = mb_scene_vector(d, e, w, 3)) != MB_SUCCESS)
        return st;
    if (which == 0 || which == 2)
        mb_q_rotate_inv(wb, q, w);          /* to the body frame */
    else
        mb_v3_copy(wb, w);
    if (which >= 2)
        for (int k = 0; k < 3; k++)
            wb[k] /= b->inertia[k];         /* L~ = I w~ */
    return MB_SUCCESS;
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
    double volume, Iunit[3], qP[4], qu[4], q[4], wb[3];
    if ((st = shape_properties(d, s, b, &volume, Iunit)) || (st = read_mass(d, s, b, volume))
        || (st = read_inertia(d, s, b, Iunit, qP)) || (st = read_orientation(d, s, qu)))
        return st;
    mb_q_mul(q, qu, qP);
    mb_nodes *n = sys->nodes;
    if ((st = mb_scene_opt_vector(d, s, "position", &n->x[3 * i], 3))
        || (st = mb_scene_opt_vector(d, s, "velocity", &n->v[3 * i], 3))
        || (st = read_spin(d, s, b, q, wb)) || (st = read_blocked(d, s, &n->blocked[i])))
        return st;
    mb_nodes_set_mass(n, i, b->mass);
    mb_rigid_set_spin(n, i, b->inertia, q, wb);
    n->radius[i] = b->radius;
    n->vel_mid[i] = 0;
    return MB_SUCCESS;
}

static const char *const static_keys[] = { "type", "radius", "half_extents", "position",
                                           "orientation", "rotation_vector", "axis", "angle", NULL };

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
