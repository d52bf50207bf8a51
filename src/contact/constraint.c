/* constraint.c -- kinematic operator H of a rigid body at a constraint point, local
 * relative velocity U = H_i u_i - H_j u_j (seed 003 eq. U), the reaction's generalized
 * impulse h A^-1 H^T R, and the target velocities of the bilateral constraints. */
#include "mb_constraint.h"
#include "mb_vec.h"

#include <math.h>
#include <string.h>

const char *mb_con_kind_name(int kind)
{
    static const char *names[] = { "contact", "fixed-point", "fixed-direction",
                                   "velocity-direction", "rigid-link" };
    return kind >= 0 && kind <= MB_CON_RIGLNK ? names[kind] : "unknown";
}

void mb_con_point(const mb_body_view *b, size_t k, const double A[3], double p[3])
{
    if (k == MB_CON_GROUND) {
        p[0] = A[0]; p[1] = A[1]; p[2] = A[2];
        return;
    }
    mb_m3_mul_v(p, &b->Lambda[9 * k], A);
    for (int d = 0; d < 3; d++)
        p[d] += b->x[3 * k + d];
}

/* H = [ -E Lambda skew(A), E ]: with e_r the r-th local axis and c = Lambda^T e_r,
 * e_r . Lambda (Omega x A) = c . (Omega x A) = Omega . (A x c), so row r of the angular
 * block is A x c. */
void mb_con_operator_H(const mb_body_view *b, size_t k, const double A[3], const double E[9],
                       double H[18])
{
    for (int r = 0; r < 3; r++) {
        double c[3], w[3];
        mb_m3t_mul_v(c, &b->Lambda[9 * k], &E[3 * r]); /* c = Lambda^T e_r (body frame) */
        mb_v3_cross(w, A, c);                          /* e_r . Lambda (Omega x A) = Omega . (A x c) */
        for (int d = 0; d < 3; d++) {
            H[6 * r + d] = w[d];
            H[6 * r + 3 + d] = E[3 * r + d];
        }
    }
}

static void add_H_u(const mb_body_view *b, size_t k, const double A[3], const double E[9],
                    const double *u, double sign, double U[3])
{
    if (k == MB_CON_GROUND)
        return;
    double H[18];
    mb_con_operator_H(b, k, A, E, H);
    for (int r = 0; r < 3; r++) {
        double s = 0.0;
        for (int d = 0; d < 6; d++)
            s += H[6 * r + d] * u[6 * k + d];
        U[r] += sign * s;
    }
}

void mb_con_local_velocity(const mb_body_view *b, const mb_con *c, const double *u, double U[3])
{
    U[0] = U[1] = U[2] = 0.0;
    add_H_u(b, c->i, c->Ai, c->E, u, 1.0, U);
    add_H_u(b, c->j, c->Aj, c->E, u, -1.0, U);
}

static void add_reaction(const mb_body_view *b, size_t k, const double A[3], const double E[9],
                         const double R[3], double sign, double h, double *du)
{
    if (k == MB_CON_GROUND)
        return;
    double H[18], r[6] = { 0, 0, 0, 0, 0, 0 };
    mb_con_operator_H(b, k, A, E, H);
    for (int d = 0; d < 6; d++)
        for (int a = 0; a < 3; a++)
            r[d] += H[6 * a + d] * R[a];
    for (int d = 0; d < 3; d++) {
        du[6 * k + d] += sign * h * b->Jinv[3 * k + d] * r[d];
        du[6 * k + 3 + d] += sign * h * b->minv[k] * r[3 + d];
    }
}

void mb_con_apply_reaction(const mb_body_view *b, const mb_con *c, double h, double *du)
{
    add_reaction(b, c->i, c->Ai, c->E, c->R, 1.0, h, du);
    add_reaction(b, c->j, c->Aj, c->E, c->R, -1.0, h, du);
}

void mb_con_frame_from_normal(const double n[3], double E[9])
{
    /* t1 = the unit vector orthogonal to n built from n's smallest component axis */
    double a[3] = { 0, 0, 0 }, t1[3], t2[3];
    int m = fabs(n[0]) <= fabs(n[1]) ? (fabs(n[0]) <= fabs(n[2]) ? 0 : 2)
                                      : (fabs(n[1]) <= fabs(n[2]) ? 1 : 2);
    a[m] = 1.0;
    mb_v3_cross(t1, a, n);
    double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int d = 0; d < 3; d++)
        t1[d] /= l;
    mb_v3_cross(t2, n, t1);
    memcpy(&E[0], t1, sizeof t1);
    memcpy(&E[3], t2, sizeof t2);
    memcpy(&E[6], n, 3 * sizeof(double));
}

static void separation(const mb_body_view *b, const mb_con *c, double d[3])
{
    double pi[3], pj[3];
    mb_con_point(b, c->i, c->Ai, pi);
    mb_con_point(b, c->j, c->Aj, pj);
    for (int k = 0; k < 3; k++)
        d[k] = pi[k] - pj[k];
}

void mb_con_update_frame(const mb_body_view *b, mb_con *c)
{
    static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    double d[3], l;
    switch (c->kind) {
    case MB_CON_FIXPNT:
        memcpy(c->E, I, sizeof I);
        break;
    case MB_CON_FIXDIR:
    case MB_CON_VELODIR:
        mb_con_frame_from_normal(c->dir, c->E);
        break;
    case MB_CON_RIGLNK:
        separation(b, c, d);
        l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (l > 0.0) {
            for (int k = 0; k < 3; k++)
                d[k] /= l;
            mb_con_frame_from_normal(d, c->E);
        }
        break;
    default:
        break;            /* contacts: the geometry sets E */
    }
}

/* Position q(t+h) = q(t+h/2) + h/2 u(t+h): a separation error d at the mid-step is
 * removed at the end of the step, to first order, by the relative velocity -d/(h/2). */
void mb_con_target(const mb_body_view *b, const mb_con *c, double h, double target[3])
{
    double d[3], l, w = 2.0 / h;
    target[0] = target[1] = target[2] = 0.0;
    switch (c->kind) {
    case MB_CON_FIXPNT:
        separation(b, c, d);
        mb_m3_mul_v(target, c->E, d);
        for (int k = 0; k < 3; k++)
            target[k] *= -w;
        break;
    case MB_CON_FIXDIR:
        separation(b, c, d);
        target[2] = -w * (d[0] * c->E[6] + d[1] * c->E[7] + d[2] * c->E[8]);
        break;
    case MB_CON_VELODIR:
        target[2] = c->value;
        break;
    case MB_CON_RIGLNK:
        separation(b, c, d);
        l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        target[2] = -w * (l - c->value);
        break;
    default:
        break;
    }
}
