/* mb_cell.h -- uniformly deforming periodic space (seed 002 "Motion in uniformly deforming
 * space" and "Periodic space"; DESIGN 4.3).
 *
 * A cell is a parallelepiped at the origin: H holds its side vectors as columns (3x3,
 * row-major, H[3 r + c]).  The space moves with the homogeneous velocity field
 * v_L = L x; the velocity gradient L(t) is a prescribed function of time (constant, or
 * piecewise constant with one switch) sampled at mid-steps by the integrator.  The cell
 * is advanced once per step with the mid-step gradients L- = L(t - h/2), L+ = L(t + h/2):
 *   H(t+h) = (1 - L+ h/2)^-1 (1 + L+ h/2) H(t)                  (Cayley / Crank-Nicolson)
 *   T(t+h) = T(t) + L- T(t) h,   T(0) = 1                         (accumulated transformation)
 * Matrices here are double; 3x3 inverses are LU solves with GSL.
 *
 * Medium angular velocity.  omega_L = 1/2 curl v_L, component-wise
 *   omega_L,k = 1/2 eps_kij L_ji,
 * which is +w for the rigid rotation v = w x x.  The seed's formula omega_L,k =
 * 1/2 eps_ijk W_ij with W = (L - L^T)/2 gives -w (the sign of Woo's Levi-Civita helper);
 * it is kept as mb_cell_spin_seed for the negative controls only. */
#ifndef MB_CELL_H
#define MB_CELL_H

typedef enum { MB_CELL_GRAD_CONSTANT, MB_CELL_GRAD_SWITCH } mb_cell_grad_kind;

typedef struct mb_cell {
    double H[9];          /* side vectors as columns */
    double T[9];          /* accumulated transformation, identity at the start */
    double L[9];          /* velocity gradient of the last step, L(t - h/2) (Woo gradV) */
    mb_cell_grad_kind kind;
    double L0[9];         /* gradient for t < t_switch (every t when constant) */
    double L1[9];         /* gradient for t >= t_switch */
    double t_switch;
    unsigned long steps;
} mb_cell;

/* A cell with sides H0 and constant gradient L0 (NULL on a non-finite entry or a
 * singular H0, with a message). */
mb_cell *mb_cell_new(const double H0[9], const double L0[9]);
/* Piecewise-constant gradient: L0 before t_switch, L1 from t_switch on. */
int mb_cell_set_switch(mb_cell *c, double t_switch, const double L1[9]);
mb_cell *mb_cell_clone(const mb_cell *c);
void mb_cell_free(mb_cell *c);

/* L(t) of the prescribed time function. */
void mb_cell_grad(const mb_cell *c, double t, double L[9]);
/* Advance H and T by one step h with L- and L+ (equations above); stores L+ as c->L.
 * MB_ESINGULAR when 1 - L+ h/2 is singular (H and T then untouched). */
int mb_cell_advance(mb_cell *c, const double Lm[9], const double Lp[9], double h);

/* C = (1 - L s/2)^-1 (1 + L s/2) (GSL LU); MB_ESINGULAR when singular. */
int mb_cell_cayley(const double L[9], double s, double C[9]);
/* Coefficients of the velocity update of seed 002 over a kick of length hk
 * (hk = h for constant steps):
 *   v(t+h/2) = ImLL4hInv [ LmL x(t) + IpLL4h v(t-h/2) + a(t) hk ]
 *   ImLL4hInv = (1 - (L+ + L-) hk/4)^-1,  LmL = L+ - L-,  IpLL4h = 1 + (L+ + L-) hk/4. */
int mb_cell_kick_coeffs(const double Lm[9], const double Lp[9], double hk, double ImLL4hInv[9],
                        double LmL[9], double IpLL4h[9]);

/* omega_L = 1/2 curl (L x): +w for L x = w x x (see above). */
void mb_cell_spin(const double L[9], double w[3]);
/* NEGATIVE CONTROL: the seed's omega_L,k = 1/2 eps_ijk W_ij, W = (L - L^T)/2 (gives -w). */
void mb_cell_spin_seed(const double L[9], double w[3]);

/* Canonical coordinates s = H^-1 x reduced to [0, 1)^3, the wrapped point xw = H s and
 * the integer periods n (x = xw + H n); any output may be NULL. */
int mb_cell_wrap(const mb_cell *c, const double x[3], double s[3], double xw[3], long n[3]);
/* Velocity of the image that wrapping produces: v - L H n (the fluctuation velocity
 * v - L x is periodic, the medium velocity is not). */
void mb_cell_wrap_velocity(const mb_cell *c, const double L[9], const long n[3],
                           const double v[3], double vw[3]);
/* Fluctuation velocity v_f = v - L x. */
void mb_cell_fluctuation(const double L[9], const double x[3], const double v[3], double vf[3]);
/* Cell volume |det H|. */
double mb_cell_volume(const mb_cell *c);

#endif
