/* consolver.c -- block Gauss-Seidel over the local dynamics with per-constraint
 * solvers (see mb_consolver.h for the laws and stopping rule). */
#include "array_scan.h"
#include "mb_consolver.h"
#include "mb_contact_ac.h"
#include "mb_status.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* B~_a = B_a + sum_b W_ab R_b */
static void free_velocity(const mb_diab *d, double Bt[3])
{
    memcpy(Bt, d->B, 3 * sizeof(double));
    for (size_t o = 0; o < d->nadj; o++) {
        const double *W = d->adj[o].W, *R = d->adj[o].dia->con.R;
        for (int r = 0; r < 3; r++)
            Bt[r] += W[3 * r] * R[0] + W[3 * r + 1] * R[1] + W[3 * r + 2] * R[2];
    }
}

static void wmul(const double W[9], const double R[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = W[3 * r] * R[0] + W[3 * r + 1] * R[1] + W[3 * r + 2] * R[2];
}

/* x = W^-1 b by Cramer's rule; 0 when |det| <= 1e-13 |W|^3 */
static int solve3(const double W[9], const double b[3], double x[3])
{
    double c0 = W[4] * W[8] - W[5] * W[7], c1 = W[5] * W[6] - W[3] * W[8], c2 = W[3] * W[7] - W[4] * W[6];
    double det = W[0] * c0 + W[1] * c1 + W[2] * c2, mx = mb_max_abs(W, 9);
    if (!(fabs(det) > 1e-13 * mx * mx * mx))
        return 0;
    double inv[9] = { c0, W[2] * W[7] - W[1] * W[8], W[1] * W[5] - W[2] * W[4],
                      c1, W[0] * W[8] - W[2] * W[6], W[2] * W[3] - W[0] * W[5],
                      c2, W[1] * W[6] - W[0] * W[7], W[0] * W[4] - W[1] * W[3] };
    for (int r = 0; r < 3; r++)
        x[r] = (inv[3 * r] * b[0] + inv[3 * r + 1] * b[1] + inv[3 * r + 2] * b[2]) / det;
    return 1;
}

/* the restitution term added to the normal velocity */
static double restitution_shift(const mb_con *c)
{
    return c->e * fmin(c->V[2], 0.0);
}

/* Slip with direction d = (cos phi, sin phi): U~_n = 0 gives R_n, R_t = -mu R_n d;
 * returns the 2-D cross product d x U_t (zero when U_t is parallel to d) and writes
 * d . U_t into *along and R_n into *Rn_out; 0 when W_nn - mu W_nt.d <= 0. */
static int slip_eval(const double W[9], const double Bt[3], double mu, double phi, double *cross,
                     double *along, double *Rn_out)
{
    double d0 = cos(phi), d1 = sin(phi), den = W[8] - mu * (W[6] * d0 + W[7] * d1);
    if (!(den > 0.0))
        return 0;
    double Rn = -Bt[2] / den, Rt0 = -mu * Rn * d0, Rt1 = -mu * Rn * d1;
    double ut0 = Bt[0] + W[0] * Rt0 + W[1] * Rt1 + W[2] * Rn;
    double ut1 = Bt[1] + W[3] * Rt0 + W[4] * Rt1 + W[5] * Rn;
    *cross = d0 * ut1 - d1 * ut0;
    *along = d0 * ut0 + d1 * ut1;
    *Rn_out = Rn;
    return 1;
}

/* Contact: separation, stick, or slip.  The slip direction solves d x U_t(d) = 0 with
 * d . U_t > 0: first by fixed point (d <- U_t(d)/|U_t(d)|, accepted when the angle
 * change falls below 1e-15 within 30 iterations), else a scan of 256 angles around the circle brackets the roots, bisection
 * refines each to machine precision, and the root with the least |U_t| is kept
 * (the slip solution of a positive definite W_aa is unique when mu is small enough).
 * Without a root (the stick force outside the cone by rounding only) the stick force
 * projected radially onto the cone is taken. */
static int solve_contact(const double W[9], const double Bt[3], double mu, int scan_only, double R[3])
{
    if (Bt[2] >= 0.0) {
        R[0] = R[1] = R[2] = 0.0;
        return 1;
    }
    double mB[3] = { -Bt[0], -Bt[1], -Bt[2] }, S[3];
    if (!solve3(W, mB, S))
        return 0;
    double st = sqrt(S[0] * S[0] + S[1] * S[1]);
    if (S[2] > 0.0 && st <= mu * S[2]) {
        memcpy(R, S, sizeof S);
        return 1;
    }
    /* fast path: fixed point on the slip direction, accepted only when it converges */
    if (st > 0.0 && !scan_only) {
        double phi = atan2(-S[1], -S[0]), c, a, rn;
        for (int it = 0; it < 30; it++) {
            if (!slip_eval(W, Bt, mu, phi, &c, &a, &rn) || !(a > 0.0) || !(rn > 0.0))
                break;
            double dphi = atan2(c, a);             /* angle from d to U_t */
            phi += dphi;
            if (fabs(dphi) <= 1e-15) {
                R[0] = -mu * rn * cos(phi);
                R[1] = -mu * rn * sin(phi);
                R[2] = rn;
                return 1;
            }
        }
    }
    enum { NSCAN = 256 };
    const double two_pi = 6.283185307179586;
    double best = -1.0, best_phi = 0.0, best_Rn = 0.0;
    double p0 = 0.0, c0, a0, r0;
    int ok0 = slip_eval(W, Bt, mu, p0, &c0, &a0, &r0);
    for (int k = 1; k <= NSCAN; k++) {
        double p1 = two_pi * k / NSCAN, c1, a1, r1;
        int ok1 = slip_eval(W, Bt, mu, p1, &c1, &a1, &r1);
        if (ok0 && ok1 && ((c0 <= 0.0 && c1 >= 0.0) || (c0 >= 0.0 && c1 <= 0.0))) {
            double lo = p0, hi = p1, clo = c0, cm, am, rm, pm = p0;
            for (int it = 0; it < 80 && hi - lo > 1e-16; it++) {
                pm = 0.5 * (lo + hi);
                if (!slip_eval(W, Bt, mu, pm, &cm, &am, &rm))
                    break;
                if ((cm <= 0.0) == (clo <= 0.0))
                    lo = pm, clo = cm;
                else
                    hi = pm;
            }
            pm = 0.5 * (lo + hi);
            if (slip_eval(W, Bt, mu, pm, &cm, &am, &rm) && am > 0.0 && rm > 0.0
                && (best < 0.0 || am < best))
                best = am, best_phi = pm, best_Rn = rm;
        }
        p0 = p1, c0 = c1, a0 = a1, r0 = r1, ok0 = ok1;
    }
    if (best < 0.0) {
        /* no slip root: the stick force lies outside the cone only by rounding (slip
         * velocity ~ 0), so its radial projection onto the cone is the limit solution */
        if (!(S[2] > 0.0))
            return 0;
        R[0] = S[0] * mu * S[2] / st;
        R[1] = S[1] * mu * S[2] / st;
        R[2] = S[2];
        return 1;
    }
    R[0] = -mu * best_Rn * cos(best_phi);
    R[1] = -mu * best_Rn * sin(best_phi);
    R[2] = best_Rn;
    return 1;
}

static int solve_block(mb_diab *d, const double Bt_in[3], int method, double R[3])
{
    mb_con *c = &d->con;
    double Bt[3] = { Bt_in[0], Bt_in[1], Bt_in[2] };
    if (c->kind == MB_CON_CONTACT) {
        Bt[2] += restitution_shift(c);
        if (method == MB_CONTACT_SOLVER_AC) {
            for (int k = 0; k < 3; k++)
                R[k] = c->R[k];                  /* warm start from the last sweep */
            return mb_contact_ac_solve(d->W, Bt, c->mu, 100000, 1e-15, R) > 0;
        }
        return solve_contact(d->W, Bt, c->mu, 0, R);
    }
    if (c->kind == MB_CON_FIXPNT) {
        double rhs[3] = { d->target[0] - Bt[0], d->target[1] - Bt[1], d->target[2] - Bt[2] };
        return solve3(d->W, rhs, R);
    }
    double mx = fmax(fabs(d->W[0]), fmax(fabs(d->W[4]), fabs(d->W[8])));
    if (!(d->W[8] > 1e-13 * mx) || !(d->W[8] > 0.0))
        return 0;
    R[0] = R[1] = 0.0;
    R[2] = (d->target[2] - Bt[2]) / d->W[8];
    return 1;
}

/* Alart-Curnier natural map: m_n = R_n - max(0, R_n - rho U_n),
 * m_t = R_t - P_disk(mu R_n)(R_t - rho U_t); zero exactly at a solution. */
static double alart_curnier(const double R[3], const double U[3], double mu, double rho)
{
    double mn = R[2] - fmax(0.0, R[2] - rho * U[2]);
    double x0 = R[0] - rho * U[0], x1 = R[1] - rho * U[1], xl = sqrt(x0 * x0 + x1 * x1);
    double rad = mu * fmax(R[2], 0.0);
    if (xl > rad) {
        x0 *= rad / xl;
        x1 *= rad / xl;
    }
    double m0 = R[0] - x0, m1 = R[1] - x1;
    return sqrt(mn * mn + m0 * m0 + m1 * m1);
}

int mb_contact_local_solve(const double W[9], const double B[3], double mu, int scan_only, double R[3])
{
    return solve_contact(W, B, mu, scan_only, R) ? MB_SUCCESS
        : mb_error_record(MB_ESINGULAR, __FILE__, __LINE__, "contact block: singular W or no slip solution");
}

double mb_consolver_merit(const mb_locdyn *L)
{
    double merit = 0.0;
    for (size_t a = 0; a < L->count; a++) {
        const mb_diab *d = L->dia[a];
        const mb_con *c = &d->con;
        double Bt[3], WR[3], U[3], m = 0.0;
        free_velocity(d, Bt);
        wmul(d->W, c->R, WR);
        for (int k = 0; k < 3; k++)
            U[k] = Bt[k] + WR[k];
        if (c->kind == MB_CON_CONTACT) {
            double rho = d->W[8] > 0.0 ? 1.0 / d->W[8] : 1.0;
            U[2] += restitution_shift(c);
            m = alart_curnier(c->R, U, c->mu, rho) / rho;
        } else if (c->kind == MB_CON_FIXPNT) {
            m = sqrt((U[0] - d->target[0]) * (U[0] - d->target[0])
                     + (U[1] - d->target[1]) * (U[1] - d->target[1])
                     + (U[2] - d->target[2]) * (U[2] - d->target[2]));
        } else {
            m = fabs(U[2] - d->target[2]);
        }
        merit = fmax(merit, m);
    }
    return merit;
}

int mb_consolver_solve(mb_locdyn *L, const mb_solver_opts *o, mb_solver_result *res)
{
    res->iterations = 0;
    res->converged = 1;
    res->merit = 0.0;
    if (L->count == 0)
        return MB_SUCCESS;
    res->converged = 0;
    for (int it = 1; it <= o->maxiter; it++) {
        double dR2 = 0.0, R2 = 0.0;
        for (size_t a = 0; a < L->count; a++) {
            mb_diab *d = L->dia[a];
            double Bt[3], R[3];
            free_velocity(d, Bt);
            if (!solve_block(d, Bt, o->contact_solver, R))
                MB_ERROR(MB_ESINGULAR, "solfec: singular diagonal block W_aa of %s constraint %zu "
                         "(bodies %zu, %ld): no mass to move it along the constrained axes, "
                         "or no slip solution (projected Alart-Curnier: no convergence)",
                         mb_con_kind_name(d->con.kind), a, d->con.i,
                         d->con.j == MB_CON_GROUND ? -1L : (long)d->con.j);
            for (int k = 0; k < 3; k++) {
                double ch = R[k] - d->con.R[k];
                dR2 += ch * ch;
                R2 += R[k] * R[k];
                d->con.R[k] = R[k];
            }
        }
        res->iterations = it;
        if (!isfinite(dR2))
            MB_ERROR(MB_EDIVERGED, "solfec: Gauss-Seidel produced NaN/Inf reactions");
        if (dR2 <= o->epsilon * o->epsilon * R2) {
            res->converged = 1;
            break;
        }
    }
    res->merit = mb_consolver_merit(L);
    for (size_t a = 0; a < L->count; a++) {
        mb_diab *d = L->dia[a];
        double Bt[3], WR[3];
        free_velocity(d, Bt);
        wmul(d->W, d->con.R, WR);
        for (int k = 0; k < 3; k++)
            d->con.U[k] = Bt[k] + WR[k];
    }
    return MB_SUCCESS;
}

/* bilateral rows of constraint a: every axis of a fixed point, the normal axis of the
 * others, none for a contact; *first receives the local axis of the first row */
static int bilateral_axes(int kind, int *first)
{
    *first = kind == MB_CON_FIXPNT ? 0 : 2;
    return kind == MB_CON_CONTACT ? 0 : kind == MB_CON_FIXPNT ? 3 : 1;
}

/* The bilateral block of W, gathered from the sparse store: offset[a] is the first
 * bilateral row of constraint a (m, the row count, is returned). */
static size_t bilateral_offsets(const mb_locdyn *L, size_t *offset)
{
    size_t m = 0;
    for (size_t a = 0; a < L->count; a++) {
        int first;
        offset[a] = m;
        m += (size_t)bilateral_axes(L->dia[a]->con.kind, &first);
    }
    return m;
}

static void gather_block(gsl_matrix *A, size_t ra, int ka, int fa, size_t rb, int kb, int fb,
                         const double W[9])
{
    for (int r = 0; r < ka; r++)
        for (int c = 0; c < kb; c++)
            gsl_matrix_set(A, ra + (size_t)r, rb + (size_t)c, W[3 * (fa + r) + fb + c]);
}

static void gather_bilateral(const mb_locdyn *L, const size_t *offset, gsl_matrix *A)
{
    gsl_matrix_set_zero(A);
    for (size_t a = 0; a < L->count; a++) {
        const mb_diab *d = L->dia[a];
        int fa, ka = bilateral_axes(d->con.kind, &fa);
        if (ka == 0)
            continue;
        gather_block(A, offset[a], ka, fa, offset[a], ka, fa, d->W);
        for (size_t o = 0; o < d->nadj; o++) {
            const mb_diab *e = d->adj[o].dia;
            int fb, kb = bilateral_axes(e->con.kind, &fb);
            if (kb > 0)
                gather_block(A, offset[a], ka, fa, offset[e->index], kb, fb, d->adj[o].W);
        }
    }
}

int mb_consolver_bilateral_rank(const mb_locdyn *L, double tol, size_t *rows, size_t *deficiency)
{
    *rows = *deficiency = 0;
    if (L->count == 0)
        return MB_SUCCESS;
    size_t *offset = malloc(L->count * sizeof *offset);
    if (offset == NULL)
        return MB_ENOMEM;
    size_t m = bilateral_offsets(L, offset);
    int status = MB_SUCCESS;
    if (m > 0) {
        gsl_matrix *A = gsl_matrix_alloc(m, m), *V = gsl_matrix_alloc(m, m);
        gsl_vector *S = gsl_vector_alloc(m), *wk = gsl_vector_alloc(m);
        if (A && V && S && wk) {
            gather_bilateral(L, offset, A);
            gsl_linalg_SV_decomp(A, V, S, wk);
            double smax = gsl_vector_get(S, 0);
            for (size_t k = 0; k < m; k++)
                if (!(gsl_vector_get(S, k) > tol * smax))
                    (*deficiency)++;
            *rows = m;
        } else {
            status = MB_ENOMEM;
        }
        gsl_matrix_free(A);
        gsl_matrix_free(V);
        gsl_vector_free(S);
        gsl_vector_free(wk);
    }
    free(offset);
    return status;
}
