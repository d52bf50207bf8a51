/* cell.c -- uniformly deforming periodic space (seed 002, DESIGN 4.3); see mb_cell.h for
 * the equations.  Matrices are row-major 3x3 doubles; every inverse is an LU solve
 * (gsl_linalg_LU_decomp / gsl_linalg_LU_solve). */
#include "mb_init.h"
#include "mb_cell.h"
#include "mb_status.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void m3_identity(double A[9])
{
    memset(A, 0, 9 * sizeof *A);
    A[0] = A[4] = A[8] = 1.0;
}

static void m3_mul(double R[9], const double A[9], const double B[9])
{
    double t[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            t[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
    memcpy(R, t, sizeof t);
}

static int m3_finite(const double A[9])
{
    for (int k = 0; k < 9; k++)
        if (!isfinite(A[k]))
            return 0;
    return 1;
}

/* X = A^-1 B (B has nb columns, row-major 3 x nb) by LU with partial pivoting;
 * MB_ESINGULAR when a pivot is zero or the result is not finite. */
static int m3_solve(const double A[9], const double *B, int nb, double *X, const char *what)
{
    double a[9];
    memcpy(a, A, sizeof a);
    gsl_matrix_view av = gsl_matrix_view_array(a, 3, 3);
    size_t pdata[3];
    gsl_permutation p = { 3, pdata };
    int sgn;
    mb_init();
    int st = gsl_linalg_LU_decomp(&av.matrix, &p, &sgn);
    if (st == GSL_SUCCESS && (a[0] == 0.0 || a[4] == 0.0 || a[8] == 0.0))
        st = GSL_ESING;
    for (int c = 0; st == GSL_SUCCESS && c < nb; c++) {
        double b[3] = { B[c], B[nb + c], B[2 * nb + c] }, x[3];
        gsl_vector_view bv = gsl_vector_view_array(b, 3), xv = gsl_vector_view_array(x, 3);
        st = gsl_linalg_LU_solve(&av.matrix, &p, &bv.vector, &xv.vector);
        for (int r = 0; r < 3; r++) {
            X[r * nb + c] = x[r];
            if (!isfinite(x[r]))
                st = GSL_ESING;
        }
    }
    if (st != GSL_SUCCESS)
        MB_ERROR(MB_ESINGULAR, "cell: %s is singular", what);
    return MB_SUCCESS;
}

mb_cell *mb_cell_new(const double H0[9], const double L0[9])
{
    if (!m3_finite(H0) || !m3_finite(L0))
        MB_ERROR_NULL(MB_EDOM, "cell: the cell matrix H and the velocity gradient L must be finite");
    double det = H0[0] * (H0[4] * H0[8] - H0[5] * H0[7]) - H0[1] * (H0[3] * H0[8] - H0[5] * H0[6])
               + H0[2] * (H0[3] * H0[7] - H0[4] * H0[6]);
    if (!(fabs(det) > 0.0) || !isfinite(det))
        MB_ERROR_NULL(MB_EDOM, "cell: the cell matrix H is singular (det H = %g)", det);
    mb_cell *c = calloc(1, sizeof *c);
    if (c == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cell: out of memory");
    memcpy(c->H, H0, sizeof c->H);
    m3_identity(c->T);
    memcpy(c->L0, L0, sizeof c->L0);
    memcpy(c->L1, L0, sizeof c->L1);
    memcpy(c->L, L0, sizeof c->L);
    c->kind = MB_CELL_GRAD_CONSTANT;
    c->t_switch = INFINITY;
    return c;
}

int mb_cell_set_switch(mb_cell *c, double t_switch, const double L1[9])
{
    if (!isfinite(t_switch) || !m3_finite(L1))
        MB_ERROR(MB_EDOM, "cell: switch time and gradient L1 must be finite");
    c->kind = MB_CELL_GRAD_SWITCH;
    c->t_switch = t_switch;
    memcpy(c->L1, L1, sizeof c->L1);
    return MB_SUCCESS;
}

mb_cell *mb_cell_clone(const mb_cell *c)
{
    mb_cell *d = malloc(sizeof *d);
    if (d == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cell: out of memory");
    *d = *c;
    return d;
}

void mb_cell_free(mb_cell *c)
{
    free(c);
}

void mb_cell_grad(const mb_cell *c, double t, double L[9])
{
    const double *src = (c->kind == MB_CELL_GRAD_SWITCH && t >= c->t_switch) ? c->L1 : c->L0;
    memcpy(L, src, 9 * sizeof *L);
}

int mb_cell_cayley(const double L[9], double s, double C[9])
{
    double M[9], P[9];
    m3_identity(M);
    m3_identity(P);
    for (int k = 0; k < 9; k++) {
        M[k] -= L[k] * (0.5 * s);
        P[k] += L[k] * (0.5 * s);
    }
    return m3_solve(M, P, 3, C, "1 - L h/2");
}

/* H(t+h) = (1 - L+ h/2)^-1 (1 + L+ h/2) H(t) (seed 002 eq. fixed-point, applied to H);
 * T(t+h) = T(t) + L- T(t) h (seed 002, T(0) = 1 as DESIGN 4.3 states). */
int mb_cell_advance(mb_cell *c, const double Lm[9], const double Lp[9], double h)
{
    double C[9], LT[9];
    int st = mb_cell_cayley(Lp, h, C);
    if (st != MB_SUCCESS)
        return st;
    m3_mul(c->H, C, c->H);
    m3_mul(LT, Lm, c->T);
    for (int k = 0; k < 9; k++)
        c->T[k] += LT[k] * h;
    memcpy(c->L, Lp, sizeof c->L);
    c->steps++;
    return MB_SUCCESS;
}

int mb_cell_kick_coeffs(const double Lm[9], const double Lp[9], double hk, double ImLL4hInv[9],
                        double LmL[9], double IpLL4h[9])
{
    double M[9], I[9];
    m3_identity(M);
    m3_identity(IpLL4h);
    m3_identity(I);
    for (int k = 0; k < 9; k++) {
        double s = (Lp[k] + Lm[k]) * (0.25 * hk);
        M[k] -= s;
        IpLL4h[k] += s;
        LmL[k] = Lp[k] - Lm[k];
    }
    return m3_solve(M, I, 3, ImLL4hInv, "1 - (L+ + L-) h/4");
}

/* omega_L,k = 1/2 eps_kij d_i v_j = 1/2 eps_kij L_ji */
void mb_cell_spin(const double L[9], double w[3])
{
    w[0] = 0.5 * (L[7] - L[5]);
    w[1] = 0.5 * (L[2] - L[6]);
    w[2] = 0.5 * (L[3] - L[1]);
}

static int levi_civita(int i, int j, int k)
{
    return (i - j) * (j - k) * (k - i) / 2;
}

/* The seed's index formula, literally: W = (L - L^T)/2, omega_L,k = 1/2 eps_ijk W_ij. */
void mb_cell_spin_seed(const double L[9], double w[3])
{
    for (int k = 0; k < 3; k++) {
        w[k] = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double W = 0.5 * (L[3 * i + j] - L[3 * j + i]);
                w[k] += 0.5 * levi_civita(i, j, k) * W;
            }
    }
}

int mb_cell_wrap(const mb_cell *c, const double x[3], double s[3], double xw[3], long n[3])
{
    double u[3];
    int st = m3_solve(c->H, x, 1, u, "the cell matrix H");
    if (st != MB_SUCCESS)
        return st;
    long m[3];
    for (int k = 0; k < 3; k++) {
        double f = floor(u[k]);
        u[k] -= f;
        if (u[k] >= 1.0) {          /* -tiny - floor(-tiny) rounds to 1 */
            u[k] = 0.0;
            f += 1.0;
        }
        m[k] = (long)f;
    }
    for (int r = 0; r < 3; r++) {
        if (s)
            s[r] = u[r];
        if (xw)
            xw[r] = c->H[3 * r] * u[0] + c->H[3 * r + 1] * u[1] + c->H[3 * r + 2] * u[2];
        if (n)
            n[r] = m[r];
    }
    return MB_SUCCESS;
}

void mb_cell_wrap_velocity(const mb_cell *c, const double L[9], const long n[3],
                           const double v[3], double vw[3])
{
    double p[3];
    for (int r = 0; r < 3; r++)
        p[r] = c->H[3 * r] * (double)n[0] + c->H[3 * r + 1] * (double)n[1]
               + c->H[3 * r + 2] * (double)n[2];
    for (int r = 0; r < 3; r++)
        vw[r] = v[r] - (L[3 * r] * p[0] + L[3 * r + 1] * p[1] + L[3 * r + 2] * p[2]);
}

void mb_cell_fluctuation(const double L[9], const double x[3], const double v[3], double vf[3])
{
    for (int r = 0; r < 3; r++)
        vf[r] = v[r] - (L[3 * r] * x[0] + L[3 * r + 1] * x[1] + L[3 * r + 2] * x[2]);
}

double mb_cell_volume(const mb_cell *c)
{
    const double *H = c->H;
    return fabs(H[0] * (H[4] * H[8] - H[5] * H[7]) - H[1] * (H[3] * H[8] - H[5] * H[6])
                + H[2] * (H[3] * H[7] - H[4] * H[6]));
}
