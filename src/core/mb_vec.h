/* mb_vec.h -- double-precision 3-vectors, unit quaternions and 3x3 matrices.
 *
 * Conventions (DESIGN 3): a quaternion is q = (w, x, y, z) stored as double[4];
 * R(q) maps body (principal) coordinates to global ones, a = R(q) a~; A = R(q)^T maps
 * global to body.  Matrices are row-major double[9].  Used by references, geometry and
 * set-up code; the schemes themselves use the template layer (templates_on.h). */
#ifndef MB_VEC_H
#define MB_VEC_H

#include <math.h>

static inline void mb_v3_set(double r[3], double x, double y, double z) { r[0] = x; r[1] = y; r[2] = z; }
static inline void mb_v3_copy(double r[3], const double a[3]) { r[0] = a[0]; r[1] = a[1]; r[2] = a[2]; }
static inline void mb_v3_add(double r[3], const double a[3], const double b[3])
{ r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; r[2] = a[2] + b[2]; }
static inline void mb_v3_sub(double r[3], const double a[3], const double b[3])
{ r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; r[2] = a[2] - b[2]; }
static inline void mb_v3_scale(double r[3], double s, const double a[3])
{ r[0] = s * a[0]; r[1] = s * a[1]; r[2] = s * a[2]; }
static inline void mb_v3_axpy(double r[3], double s, const double a[3])
{ r[0] += s * a[0]; r[1] += s * a[1]; r[2] += s * a[2]; }
static inline double mb_v3_dot(const double a[3], const double b[3])
{ return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline double mb_v3_norm(const double a[3]) { return sqrt(mb_v3_dot(a, a)); }
static inline void mb_v3_cross(double r[3], const double a[3], const double b[3])
{
    double t0 = a[1] * b[2] - a[2] * b[1];
    double t1 = a[2] * b[0] - a[0] * b[2];
    double t2 = a[0] * b[1] - a[1] * b[0];
    r[0] = t0; r[1] = t1; r[2] = t2;
}
/* Angle (rad, in [0, pi]) between two vectors: atan2(|a x b|, a.b), accurate near 0 and
 * pi where acos of the normalised dot product is not. */
static inline double mb_v3_angle(const double a[3], const double b[3])
{
    double c[3];
    mb_v3_cross(c, a, b);
    return atan2(mb_v3_norm(c), mb_v3_dot(a, b));
}
static inline double mb_v3_dist(const double a[3], const double b[3])
{
    double d[3];
    mb_v3_sub(d, a, b);
    return mb_v3_norm(d);
}

/* Hamilton product r = a (x) b (r may alias a or b). */
static inline void mb_q_mul(double r[4], const double a[4], const double b[4])
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    r[0] = w; r[1] = x; r[2] = y; r[3] = z;
}
static inline double mb_q_norm(const double q[4])
{ return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]); }
static inline void mb_q_normalize(double q[4])
{
    double n = mb_q_norm(q);
    q[0] /= n; q[1] /= n; q[2] /= n; q[3] /= n;
}
static inline void mb_q_identity(double q[4]) { q[0] = 1; q[1] = q[2] = q[3] = 0; }

/* Quaternion(theta) = (cos(|theta|/2), sin(|theta|/2) theta/|theta|) for a rotation
 * vector theta; below |theta| = 1e-4 the Taylor form (error < |theta|^6/46080 relative)
 * avoids 0/0. */
static inline void mb_q_from_rotvec(double q[4], const double th[3])
{
    double a = mb_v3_norm(th), s;
    if (a < 1e-4) {
        double a2 = a * a;
        q[0] = 1.0 - a2 / 8.0 + a2 * a2 / 384.0;
        s = 0.5 - a2 / 48.0 + a2 * a2 / 3840.0; /* sin(a/2)/a */
    } else {
        q[0] = cos(0.5 * a);
        s = sin(0.5 * a) / a;
    }
    q[1] = s * th[0]; q[2] = s * th[1]; q[3] = s * th[2];
}

/* Rotation angle (rad, in [0, pi]) of the relative rotation r = conj(a) (x) b between two
 * unit quaternions: 2 atan2(|r_vec|, |r_w|), accurate for small and large angles alike and
 * the same for b and -b (one rotation).  The one home of this angle (error.orientation,
 * tests); the MPFR twin's is mb_twin's. */
static inline double mb_q_angle_between(const double a[4], const double b[4])
{
    double w = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    double x = a[0] * b[1] - a[1] * b[0] - (a[2] * b[3] - a[3] * b[2]);
    double y = a[0] * b[2] - a[2] * b[0] - (a[3] * b[1] - a[1] * b[3]);
    double z = a[0] * b[3] - a[3] * b[0] - (a[1] * b[2] - a[2] * b[1]);
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

/* R(q), row-major: a = R a~. */
static inline void mb_q_to_mat(double R[9], const double q[4])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z);     R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y);     R[7] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}

/* r = R a and r = R^T a. */
static inline void mb_m3_mul_v(double r[3], const double R[9], const double a[3])
{
    double t0 = R[0] * a[0] + R[1] * a[1] + R[2] * a[2];
    double t1 = R[3] * a[0] + R[4] * a[1] + R[5] * a[2];
    double t2 = R[6] * a[0] + R[7] * a[1] + R[8] * a[2];
    r[0] = t0; r[1] = t1; r[2] = t2;
}
static inline void mb_m3t_mul_v(double r[3], const double R[9], const double a[3])
{
    double t0 = R[0] * a[0] + R[3] * a[1] + R[6] * a[2];
    double t1 = R[1] * a[0] + R[4] * a[1] + R[7] * a[2];
    double t2 = R[2] * a[0] + R[5] * a[1] + R[8] * a[2];
    r[0] = t0; r[1] = t1; r[2] = t2;
}
/* J += m (|d|^2 1 - d d^T): the inertia about the origin of a point mass m at d, the
 * parallel-axis (Steiner) term of a body whose centre is d from the reference point
 * (Goldstein, Poole, Safko, "Classical Mechanics", 3rd ed., 5.3). */
static inline void mb_m3_add_point_inertia(double J[9], double m, const double d[3])
{
    double d2 = mb_v3_dot(d, d);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            J[3 * a + b] += m * ((a == b ? d2 : 0.0) - d[a] * d[b]);
}
/* Rotate a body vector to global (R a~) and a global vector to body (R^T a). */
static inline void mb_q_rotate(double r[3], const double q[4], const double a[3])
{ double R[9]; mb_q_to_mat(R, q); mb_m3_mul_v(r, R, a); }
static inline void mb_q_rotate_inv(double r[3], const double q[4], const double a[3])
{ double R[9]; mb_q_to_mat(R, q); mb_m3t_mul_v(r, R, a); }

#endif
