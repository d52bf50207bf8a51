/* verlet_nosquish.c -- velocity Verlet for translation with the NO_SQUISH rotation
 * integrator for rigid bodies (double only):
 *   T. F. Miller III, M. Eleftheriou, P. Pattnaik, A. Ndirango, D. Newns and
 *   G. J. Martyna, "Symplectic quaternion scheme for biophysical molecular dynamics",
 *   J. Chem. Phys. 116 (2002) 8649-8659, eqs. (2.13)-(2.16) and Sec. II.C.
 * Orientation q (unit quaternion, body to global) with its conjugate momentum
 *   p = 2 S(q) (0, L~) = 2 q (x) (0, L~),   L~ = R(q)^T L the body angular momentum.
 * One step h:
 *   1. kicks:  v += (h/2) F/m,  p += (h/2) 2 S(q) (0, tau~)   (as L += (h/2) tau, global);
 *   2. drift:  x += h v;  free rotation by the symmetric splitting
 *        R3(h/2) R2(h/2) R1(h) R2(h/2) R3(h/2),
 *      where the free rotation about principal axis k for a time dt is exact:
 *        zeta = dt (p . P_k q) / (4 I_k),
 *        q <- cos(zeta) q + sin(zeta) P_k q,   p <- cos(zeta) p + sin(zeta) P_k p,
 *      P_k q = q (x) e_k:  P_1 q = (-q1, q0, q3, -q2), P_2 q = (-q2, -q3, q0, q1),
 *      P_3 q = (-q3, q2, -q1, q0)  (eq. 2.8);
 *   3. forces and torques at the new state, then the second half kicks.
 * Second order, symplectic and time reversible; each sub-rotation is an orthogonal map of
 * q (|q| = 1 kept to round-off without normalisation) and of p; the global angular
 * momentum R(q) L~ is invariant under the free rotation, so it changes only by the
 * torque kicks (torque-free: conserved to round-off).  Velocities and angular
 * momenta are on-step.  One force evaluation per step: forces and torques at t+h (and
 * the angular momentum they belong to) are cached for the next step while the system is
 * the one the scheme left (same system, force field, t, x, v, q, omega; otherwise L = R I R^T omega and the
 * loads are recomputed).  Blocked rotations: the blocked components of the global torque
 * are zeroed; nodes with a zero principal moment do not rotate. */
#include "mb_stepper.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct vns {
    size_t n;
    int have;
    const void *sys_c, *forces_c;   /* system and force field of the cache */
    double t_c;
    /* cache: state it belongs to and its loads */
    double *x_c, *v_c, *q_c, *w_c, *L_c, *f_c, *tau_c;
    /* trial state */
    double *x, *v, *q, *w, *L, *f, *tau, *vp;
    unsigned long steps;
    double qnorm_err;
};

static void vns_free(void *vs)
{
    struct vns *s = vs;
    if (s == NULL)
        return;
    double *arr[] = { s->x_c, s->v_c, s->q_c, s->w_c, s->L_c, s->f_c, s->tau_c,
                      s->x, s->v, s->q, s->w, s->L, s->f, s->tau, s->vp };
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++)
        free(arr[k]);
    free(s);
}

static int vns_alloc(void **out, const mb_options *opts, const mb_system *sys)
{
    (void)opts;
    struct vns *s = calloc(1, sizeof *s);
    if (s == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    size_t n = sys->nodes->n, n3 = 3 * (n ? n : 1), n4 = 4 * (n ? n : 1);
    s->n = n;
    double **a3[] = { &s->x_c, &s->v_c, &s->w_c, &s->L_c, &s->f_c, &s->tau_c,
                      &s->x, &s->v, &s->w, &s->L, &s->f, &s->tau, &s->vp };
    int ok = 1;
    for (size_t k = 0; k < sizeof a3 / sizeof a3[0]; k++)
        ok = ok && (*a3[k] = calloc(n3, sizeof(double))) != NULL;
    ok = ok && (s->q_c = calloc(n4, sizeof(double))) != NULL;
    ok = ok && (s->q = calloc(n4, sizeof(double))) != NULL;
    if (!ok) {
        vns_free(s);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    *out = s;
    return MB_SUCCESS;
}

/* 1 when node i rotates: all principal moments > 0 */
static int vns_rotates(const mb_nodes *nd, size_t i)
{
    const double *I = nd->inertia + 3 * i;
    return I[0] > 0.0 && I[1] > 0.0 && I[2] > 0.0;
}

/* omega = R I^-1 R^T L */
static void vns_omega(double w[3], const double q[4], const double I[3], const double L[3])
{
    double Lb[3];
    mb_q_rotate_inv(Lb, q, L);
    Lb[0] /= I[0];
    Lb[1] /= I[1];
    Lb[2] /= I[2];
    mb_q_rotate(w, q, Lb);
}

/* loads at the trial state (x, v, q, w) into (f, tau), node store restored after */
static int vns_eval(mb_system *sys, struct vns *s, double *x, double *v, double *q, double *w,
                    double *f, double *tau, double t)
{
    mb_nodes *nd = sys->nodes;
    double *sv[6] = { nd->x, nd->v, nd->q, nd->omega, nd->f, nd->torque };
    nd->x = x; nd->v = v; nd->q = q; nd->omega = w; nd->f = f; nd->torque = tau;
    int st = mb_forces_eval(sys->forces, nd, t);
    nd->x = sv[0]; nd->v = sv[1]; nd->q = sv[2]; nd->omega = sv[3]; nd->f = sv[4];
    nd->torque = sv[5];
    (void)s;
    return st;
}

static int vns_cache_valid(const struct vns *s, const mb_system *sys)
{
    const mb_nodes *nd = sys->nodes;
    size_t n3 = 3 * s->n;
    return s->have && s->sys_c == (const void *)sys && s->forces_c == (const void *)sys->forces
        && s->t_c == sys->t
        && !memcmp(s->x_c, nd->x, n3 * sizeof(double)) && !memcmp(s->v_c, nd->v, n3 * sizeof(double))
        && !memcmp(s->w_c, nd->omega, n3 * sizeof(double))
        && !memcmp(s->q_c, nd->q, 4 * s->n * sizeof(double));
}

/* P_k q = q (x) e_k (Miller et al. eq. 2.8) */
static void vns_perm(double r[4], int k, const double q[4])
{
    switch (k) {
    case 1: r[0] = -q[1]; r[1] = q[0]; r[2] = q[3]; r[3] = -q[2]; break;
    case 2: r[0] = -q[2]; r[1] = -q[3]; r[2] = q[0]; r[3] = q[1]; break;
    default: r[0] = -q[3]; r[1] = q[2]; r[2] = -q[1]; r[3] = q[0]; break;
    }
}

/* free rotation about principal axis k (1..3) for dt (Miller et al. eqs. 2.13-2.14) */
static void vns_rotate(double q[4], double p[4], int k, double Ik, double dt)
{
    double Pq[4], Pp[4];
    vns_perm(Pq, k, q);
    vns_perm(Pp, k, p);
    double zeta = dt * (p[0] * Pq[0] + p[1] * Pq[1] + p[2] * Pq[2] + p[3] * Pq[3]) / (4.0 * Ik);
    double c = cos(zeta), sn = sin(zeta);
    for (int a = 0; a < 4; a++) {
        q[a] = c * q[a] + sn * Pq[a];
        p[a] = c * p[a] + sn * Pp[a];
    }
}

/* NO_SQUISH free rotation of node (q, global L) over h: q updated in place.  Each
 * sub-rotation turns the body about its own axis k while p = 2 q (x) (0, L~) turns with
 * it, so L~ counter-rotates and the global L = R(q) L~ is invariant (exactly, not only to
 * O(h^p)): L is left as it is instead of being recovered from p (which would only add
 * round-off of the two frame changes). */
static void vns_free_rotation(double q[4], const double L[3], const double I[3], double h)
{
    double Lb[3], p[4], pb[4];
    mb_q_rotate_inv(Lb, q, L);
    pb[0] = 0.0; pb[1] = Lb[0]; pb[2] = Lb[1]; pb[3] = Lb[2];
    mb_q_mul(p, q, pb);
    for (int a = 0; a < 4; a++)
        p[a] *= 2.0;                                   /* p = 2 S(q) (0, L~) */
    vns_rotate(q, p, 3, I[2], 0.5 * h);
    vns_rotate(q, p, 2, I[1], 0.5 * h);
    vns_rotate(q, p, 1, I[0], h);
    vns_rotate(q, p, 2, I[1], 0.5 * h);
    vns_rotate(q, p, 3, I[2], 0.5 * h);
}

/* global torque with the blocked rotational components zeroed */
static void vns_torque(double r[3], const double *tau, unsigned char blocked)
{
    for (int k = 0; k < 3; k++)
        r[k] = (blocked & (MB_BLOCK_RX << k)) ? 0.0 : tau[k];
}

static int vns_step(void *vs, mb_system *sys, double h)
{
    struct vns *s = vs;
    mb_nodes *nd = sys->nodes;
    size_t n = s->n, n3 = 3 * n;
    int st;
    if (!(h > 0.0))
        MB_ERROR(MB_EDOM, "verlet-nosquish: time step h = %g must be > 0", h);
    if (!vns_cache_valid(s, sys)) {
        s->have = 0;
        st = vns_eval(sys, s, nd->x, nd->v, nd->q, nd->omega, s->f_c, s->tau_c, sys->t);
        if (st != MB_SUCCESS)
            return st;
        for (size_t i = 0; i < n; i++) {       /* L = R I R^T omega */
            double wb[3];
            mb_q_rotate_inv(wb, nd->q + 4 * i, nd->omega + 3 * i);
            for (int k = 0; k < 3; k++)
                wb[k] *= nd->inertia[3 * i + k];
            mb_q_rotate(s->L_c + 3 * i, nd->q + 4 * i, wb);
        }
    }
    double qerr = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double *I = nd->inertia + 3 * i;
        double *x = s->x + 3 * i, *v = s->v + 3 * i, *vp = s->vp + 3 * i;
        double *q = s->q + 4 * i, *L = s->L + 3 * i, *w = s->w + 3 * i, tb[3];
        for (int k = 0; k < 3; k++) {
            double a = (nd->blocked[i] & (1u << k)) ? 0.0 : s->f_c[3 * i + k] * nd->inv_mass[i];
            v[k] = nd->v[3 * i + k] + 0.5 * h * a;             /* v(t+h/2) */
            x[k] = nd->x[3 * i + k] + h * v[k];                /* x(t+h) */
            vp[k] = nd->v[3 * i + k] + h * a;                  /* predictor for the loads */
        }
        memcpy(q, nd->q + 4 * i, 4 * sizeof(double));
        if (vns_rotates(nd, i)) {
            vns_torque(tb, s->tau_c + 3 * i, nd->blocked[i]);
            for (int k = 0; k < 3; k++)
                L[k] = s->L_c[3 * i + k] + 0.5 * h * tb[k];   /* L(t+h/2) */
            vns_free_rotation(q, L, I, h);
            qerr = fmax(qerr, fabs(mb_q_norm(q) - 1.0));
            vns_omega(w, q, I, L);                             /* estimate for the loads */
        } else {
            memcpy(L, nd->angmom + 3 * i, 3 * sizeof(double));
            memcpy(w, nd->omega + 3 * i, 3 * sizeof(double));
        }
    }
    st = vns_eval(sys, s, s->x, s->vp, s->q, s->w, s->f, s->tau, sys->t + h);
    if (st != MB_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++) {
        double *v = s->v + 3 * i, *L = s->L + 3 * i, tb[3];
        for (int k = 0; k < 3; k++) {
            double a = (nd->blocked[i] & (1u << k)) ? 0.0 : s->f[3 * i + k] * nd->inv_mass[i];
            v[k] += 0.5 * h * a;                               /* v(t+h) */
        }
        if (vns_rotates(nd, i)) {
            vns_torque(tb, s->tau + 3 * i, nd->blocked[i]);
            for (int k = 0; k < 3; k++)
                L[k] += 0.5 * h * tb[k];                       /* L(t+h) */
            vns_omega(s->w + 3 * i, s->q + 4 * i, nd->inertia + 3 * i, L);
        }
    }
    for (size_t j = 0; j < n3; j++)
        if (!isfinite(s->x[j]) || !isfinite(s->v[j]) || !isfinite(s->L[j]) || !isfinite(s->w[j]))
            MB_ERROR(MB_EDIVERGED, "verlet-nosquish: NaN or Inf at t = %.17g", sys->t + h);
    for (size_t j = 0; j < 4 * n; j++)
        if (!isfinite(s->q[j]))
            MB_ERROR(MB_EDIVERGED, "verlet-nosquish: NaN or Inf at t = %.17g", sys->t + h);
    memcpy(nd->x, s->x, n3 * sizeof(double));
    memcpy(nd->v, s->v, n3 * sizeof(double));
    memcpy(nd->q, s->q, 4 * n * sizeof(double));
    memcpy(nd->omega, s->w, n3 * sizeof(double));
    memcpy(nd->angmom, s->L, n3 * sizeof(double));
    memcpy(nd->f, s->f, n3 * sizeof(double));
    memcpy(nd->torque, s->tau, n3 * sizeof(double));
    sys->t += h;
    /* the loads at t+h and the angular momentum they go with become the cache */
    memcpy(s->x_c, nd->x, n3 * sizeof(double));
    memcpy(s->v_c, nd->v, n3 * sizeof(double));
    memcpy(s->q_c, nd->q, 4 * n * sizeof(double));
    memcpy(s->w_c, nd->omega, n3 * sizeof(double));
    memcpy(s->L_c, nd->angmom, n3 * sizeof(double));
    memcpy(s->f_c, s->f, n3 * sizeof(double));
    memcpy(s->tau_c, s->tau, n3 * sizeof(double));
    s->t_c = sys->t;
    s->sys_c = sys;
    s->forces_c = sys->forces;
    s->have = 1;
    s->steps++;
    s->qnorm_err = fmax(s->qnorm_err, qerr);
    return MB_SUCCESS;
}

static void vns_stats(const void *vs, mb_stepper_stats *out)
{
    const struct vns *s = vs;
    out->steps = s->steps;
    out->quat_norm_error_max = s->qnorm_err;
}

const mb_stepper_type mb_stepper_verlet_nosquish = {
    .name = "verlet-nosquish",
    .summary = "velocity Verlet for x, v; NO_SQUISH for q, L: kick L by (h/2) tau, free rotation "
               "R3(h/2) R2(h/2) R1(h) R2(h/2) R3(h/2), kick",
    .reference = "Miller, Eleftheriou, Pattnaik, Ndirango, Newns & Martyna, J. Chem. Phys. 116 "
                 "(2002) 8649; Swope et al., J. Chem. Phys. 76 (1982) 637",
    .order = 2,
    .flags = MB_STEPPER_SYMPLECTIC | MB_STEPPER_ROTATION,
    .options = NULL,
    .alloc = vns_alloc,
    .step = vns_step,
    .stats = vns_stats,
    .free = vns_free,
};
