/* mb_constraint.h -- constraints of the Solfec-1.0 constrained dynamics (seed 003):
 * one local frame C_alpha between a slave body i and a master body j (j = MB_CON_GROUND:
 * a fixed obstacle), the kinematic operator H and the constraint law C(U, R) = 0.
 *
 * Rigid body k has generalized velocity u_k = [Omega_k (body frame); v_k], inverse
 * inertia A_k^-1 = diag(J_k^-1, m_k^-1 I).  The velocity of a material point with body
 * vector A (current arm a = Lambda A) is v + Lambda (Omega x A), so in the local frame
 * E (rows = local axes t1, t2, n, a rotation matrix)
 *     H_k = [ -E Lambda skew(A) ,  E ]           (3 x 6),   H_k u_k = E (v + Lambda(Omega x A)).
 * Local relative velocity (seed 003 eq. U):  U_alpha = H_i u_i - H_j u_j.
 * The local frame's third axis n points from the master towards the slave, so U_n > 0
 * separates and R_n > 0 pushes the slave away from the master. */
#ifndef MB_CONSTRAINT_H
#define MB_CONSTRAINT_H

#include <stddef.h>

#define MB_CON_GROUND ((size_t)-1)

typedef enum mb_con_kind {
    MB_CON_CONTACT = 0, /* Signorini + Newton restitution e + Coulomb friction mu */
    MB_CON_FIXPNT = 1,  /* U = -(p_i - p_j) / (h/2): a material point held at another */
    MB_CON_FIXDIR = 2,  /* U_n = -(p_i - p_j).n / (h/2), R_t = 0 */
    MB_CON_VELODIR = 3, /* U_n = prescribed velocity, R_t = 0 */
    MB_CON_RIGLNK = 4   /* U_n = -(|p_i - p_j| - L) / (h/2), n along the link, R_t = 0 */
} mb_con_kind;

typedef struct mb_con {
    int kind;               /* mb_con_kind */
    size_t i, j;            /* slave, master (MB_CON_GROUND: fixed obstacle) */
    double Ai[3], Aj[3];    /* body-frame arms of the constraint points (for the ground:
                               Aj is the fixed spatial point) */
    double E[9];            /* local frame, row-major, rows t1, t2, n (set by geometry) */
    double gap;             /* contact: signed distance; bilateral: position error along
                               the constrained axes is recomputed from the points */
    double mu, e;           /* contact friction and restitution */
    double value;           /* VELODIR: prescribed U_n; RIGLNK: length L */
    double dir[3];          /* FIXDIR / VELODIR: spatial direction (unit) */
    long key;               /* identity of a contact between steps (geometry pair + vertex) */
    double R[3];            /* average reaction over the step, local frame */
    double U[3];            /* local relative velocity solved for */
    double V[3];            /* local relative velocity at t (restitution) */
} mb_con;

/* Body state seen by the constraint operators (double; the stepper owns the arrays). */
typedef struct mb_body_view {
    size_t n;
    const double *Lambda;   /* 9n rotation matrices, row-major (body -> global) */
    const double *x;        /* 3n mass centres */
    const double *Jinv;     /* 3n inverse principal moments (0: no rotation) */
    const double *minv;     /* n inverse masses (0: fixed) */
} mb_body_view;

/* H_k (3 x 6, row-major) of body k at body arm A in frame E. */
void mb_con_operator_H(const mb_body_view *b, size_t k, const double A[3], const double E[9],
                       double H[18]);
/* Current spatial point of arm A of body k (ground: A itself). */
void mb_con_point(const mb_body_view *b, size_t k, const double A[3], double p[3]);
/* U = H_i u_i - H_j u_j for generalized velocities u (6n: Omega_k, v_k per body). */
void mb_con_local_velocity(const mb_body_view *b, const mb_con *c, const double *u, double U[3]);
/* Add h A^-1 H^T R (with the sign of the body's role) to du (6n). */
void mb_con_apply_reaction(const mb_body_view *b, const mb_con *c, double h, double *du);
/* Orthonormal frame with third row n (unit). */
void mb_con_frame_from_normal(const double n[3], double E[9]);
/* Refresh the frame E of a bilateral constraint from the current points. */
void mb_con_update_frame(const mb_body_view *b, mb_con *c);
/* Position error driving a bilateral constraint's target velocity (see kinds above):
 * the target U* (3 values, unused ones 0) for step h. */
void mb_con_target(const mb_body_view *b, const mb_con *c, double h, double target[3]);
const char *mb_con_kind_name(int kind);

#endif
