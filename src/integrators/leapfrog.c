/* leapfrog.c -- Woo's leap-frog family (seeds 002 and 000, DESIGN 4.2).
 *
 * Time levels: x, F, T, q at full steps t; v, w and the global angular momentum L at
 * mid-steps t +- h/2 (nodes->vel_mid marks nodes whose velocities are mid-step).
 *   translation   v(t+h/2) = v(t-h/2) + a(t) h,  x(t+h) = x(t) + v(t+h/2) h      (seed 002 eq. 28)
 *   step changes  the kick spans the two half steps around t: v(t+h/2) = v(t-hp/2)
 *                 + a(t) (hp + h)/2 with hp the previous step (identical to the above,
 *                 bit for bit, for constant h; keeps second order when the runner
 *                 shortens the last step or a DynDt-style control changes h)
 *   spherical     w(t+h/2) = w(t-h/2) + h T/I11, q(t+h) = Quaternion(w(t+h/2) h) (x) q(t)
 *   aspherical    Fincham's algorithm on the global L (leapfrog_source.c, 3 variants)
 *   first step    v(h/2) = v(0) + a(0) h/2 for on-step initial velocities (adj_vel0)
 *   damping       Cundall non-viscous, seed 000 eq. (34); dissipated work is tracked
 *   deforming     when the system has a cell (mb_cell.h) and cell=on, seed 002 "Motion in
 *   space         uniformly deforming space" (DESIGN 4.3), L+ = L(t+h/2), L- = L(t-hp/2):
 *                 v(t+h/2) = ImLL4hInv [LmL x(t) + IpLL4h v(t-hp/2) + a(t) hk],
 *                 ImLL4hInv = (1 - (L+ + L-) hk/4)^-1, LmL = L+ - L-,
 *                 IpLL4h = 1 + (L+ + L-) hk/4, hk = (hp + h)/2 (= h for constant steps);
 *                 spherical nodes w(t+h/2) = ... + omega_L(L+) - omega_L(L-) (deltaSpinVec)
 *                 with omega_L = 1/2 curl v_L (mb_cell_spin; the seed's sign is wrong);
 *                 aspherical nodes get no spin correction (as in the seed); the cell then
 *                 advances H and T (mb_cell_advance).  Positions are not wrapped (the
 *                 trajectory stays continuous; mb_cell_wrap gives the image in the cell).
 * Damping work.  With D_n the damping load of step n, the leap-frog kinetic energy at
 * the synchronized on-step velocities v(t_n) = (v(t_n - h/2) + v(t_n + h/2))/2 obeys
 *   K(t_n+1) - K(t_n) = (F_n + F_n+1)/2 . (x_n+1 - x_n) + O(h^2) (telescoping),
 * so the work consistent to O(h^2) is the trapezoid sum of -(D_n + D_n+1)/2 . dx_n.
 * Step n reports its share -D_n . (dx_n-1 + dx_n)/2 (only -D_0 . dx_0/2 on an adjusted
 * first step, whose previous step counts as 0); the last share -D_N . dx_N-1/2 is
 * absorbed by computing the diagnostic on-step velocity v(t_N) = v(t_N - h/2) + a h/2
 * with the undamped load (Woo's own on-step estimate in eq. 34).  The balance
 * E_kin + E_pot + W_diss - E_0 then closes to O(h^2) without drift (shown for constant
 * h); for constant loads (damped free fall) in closed form.
 * The same source (leapfrog_source.c) is instantiated in double and in MPFR.  A second
 * registered scheme, leapfrog-defect, is a negative control that reproduces two known
 * mistakes (local-frame initial angular momentum; spherical update on aspherical nodes). */
#include "mb_cell.h"
#include "mb_leapfrog.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LF_FINCHAM = 0, LF_FINCHAM_HALFSTEP = 1, LF_FINCHAM_WOO = 2 };
enum { LF_DEFECT_NONE = 0, LF_DEFECT_LOCAL_ANGMOM = 1, LF_DEFECT_SPHERICAL = 2,
       LF_DEFECT_SPIN_SIGN = 3 };

struct lf_config {
    int adj_vel0;        /* first-step adjustment for on-step initial velocities */
    double damping;      /* Cundall lambda in [0, 1) */
    int asph;            /* LF_FINCHAM* */
    int defect;          /* LF_DEFECT_* (leapfrog-defect only) */
    int cell;            /* integrate in the system's deforming cell when it has one */
};

/* Per-step coefficients of the deforming-space update (double, shared by both bases:
 * at 53 bits the MPFR twin applies the same rounded matrices). */
struct lf_cellk {
    double M[9], LmL[9], P[9];   /* ImLL4hInv, LmL, IpLL4h */
    double dspin[3];             /* omega_L(L+) - omega_L(L-) */
    double hk;                   /* kick length */
};

/* Members shared by the double and MPFR states (first member of both). */
struct lf_common {
    struct lf_config cfg;
    double h_last;
    unsigned long steps;
    double qnorm_err;    /* max | |q| - 1 | before normalisation over all steps */
};

static const mb_option_spec lf_options[] = {
    { "adj_vel0", MB_OPT_BOOL, "on", 1, 0, NULL,
      "first step v(h/2) = v(0) + a(0) h/2: initial velocities are on-step (Woo adjVel0)" },
    { "damping", MB_OPT_DOUBLE, "0", 0.0, 0.999, NULL,
      "Cundall non-viscous damping coefficient lambda (seed 000 eq. 34)" },
    { "aspherical", MB_OPT_CHOICE, "fincham", 1, 0, "fincham|fincham-halfstep|fincham-woo",
      "rotation of aspherical nodes: seed steps 1-5 with A = R(q(t))^T; A from q(t+h/2); "
      "step 5 with R(q(t+h))" },
    { "cell", MB_OPT_BOOL, "on", 1, 0, NULL,
      "on: integrate in the system's uniformly deforming cell when it has one (seed 002); "
      "off: ignore the cell (plain leap-frog)" },
    MB_OPTION_END
};

static const mb_option_spec lf_defect_options[] = {
    { "adj_vel0", MB_OPT_BOOL, "on", 1, 0, NULL, "as for leapfrog" },
    { "damping", MB_OPT_DOUBLE, "0", 0.0, 0.999, NULL, "as for leapfrog" },
    { "aspherical", MB_OPT_CHOICE, "fincham", 1, 0, "fincham|fincham-halfstep|fincham-woo",
      "as for leapfrog" },
    { "cell", MB_OPT_BOOL, "on", 1, 0, NULL, "as for leapfrog" },
    { "defect", MB_OPT_CHOICE, "local-frame-angmom", 1, 0,
      "local-frame-angmom|spherical-rotation|seed-spin-sign",
      "the deliberate mistake: initial L = I R^T w taken as global (Woo's code), the "
      "spherical update with I11 applied to aspherical nodes, or the seed's sign of the "
      "medium spin omega_L (gives -w for v = w x x)" },
    MB_OPTION_END
};

static int lf_config_read(struct lf_config *cfg, const mb_options *opts, int negative)
{
    cfg->adj_vel0 = mb_options_bool(opts, "adj_vel0");
    cfg->damping = mb_options_double(opts, "damping");
    const char *a = mb_options_string(opts, "aspherical");
    cfg->asph = !strcmp(a, "fincham-halfstep") ? LF_FINCHAM_HALFSTEP
              : !strcmp(a, "fincham-woo") ? LF_FINCHAM_WOO : LF_FINCHAM;
    cfg->cell = mb_options_bool(opts, "cell");
    cfg->defect = LF_DEFECT_NONE;
    if (negative) {
        const char *d = mb_options_string(opts, "defect");
        cfg->defect = !strcmp(d, "spherical-rotation") ? LF_DEFECT_SPHERICAL
                    : !strcmp(d, "seed-spin-sign") ? LF_DEFECT_SPIN_SIGN : LF_DEFECT_LOCAL_ANGMOM;
    }
    if (!(cfg->damping >= 0.0 && cfg->damping < 1.0))
        MB_ERROR(MB_EDOM, "leapfrog: damping = %g must be in [0, 1)", cfg->damping);
    return MB_SUCCESS;
}

/* Kick coefficients from L- = Lm, L+ = Lp over hk (mb_cell_kick_coeffs), and the spin
 * correction omega_L(L+) - omega_L(L-) with the correct sign, or the seed's sign for
 * the seed-spin-sign defect. */
static int lf_cell_coeffs(const struct lf_config *cfg, const double Lm[9], const double Lp[9],
                          double hk, struct lf_cellk *k)
{
    int st = mb_cell_kick_coeffs(Lm, Lp, hk, k->M, k->LmL, k->P);
    if (st != MB_SUCCESS)
        return st;
    double wp[3], wm[3];
    void (*spin)(const double *, double *) =
        cfg->defect == LF_DEFECT_SPIN_SIGN ? mb_cell_spin_seed : mb_cell_spin;
    spin(Lp, wp);
    spin(Lm, wm);
    for (int j = 0; j < 3; j++)
        k->dspin[j] = wp[j] - wm[j];
    k->hk = hk;
    return MB_SUCCESS;
}

/* Coefficients of one step from t: km for mid-step nodes (L- = L(t - hp/2),
 * hk = (hp + h)/2), kf for on-step nodes of an adjusted first step (L- = L(t), hk = h/2);
 * Lm receives L(t - hp/2), the gradient of the T update. */
static int lf_cell_step_coeffs(const struct lf_config *cfg, const mb_cell *cell, double t,
                               double hp, double h, struct lf_cellk *km, struct lf_cellk *kf,
                               double Lm[9], double Lp[9])
{
    double L0[9];
    mb_cell_grad(cell, t + 0.5 * h, Lp);
    mb_cell_grad(cell, t - 0.5 * hp, Lm);
    mb_cell_grad(cell, t, L0);
    int st = lf_cell_coeffs(cfg, Lm, Lp, 0.5 * (hp + h), km);
    if (st == MB_SUCCESS)
        st = lf_cell_coeffs(cfg, L0, Lp, 0.5 * h, kf);
    return st;
}

static const char *lf_name(const struct lf_config *cfg)
{
    return cfg->defect == LF_DEFECT_NONE ? "leapfrog" : "leapfrog-defect";
}

/* 1 when no byte of flags[0..n) is set / when every byte is set */
static int lf_none_set(const unsigned char *flags, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (flags[i])
            return 0;
    return 1;
}

static int lf_all_set(const unsigned char *flags, size_t n)
{
    return n == 0 || memchr(flags, 0, n) == NULL;
}

#define BASE_DOUBLE
#include "templates_on.h"
#include "scheme_util_source.c"
#include "quat_source.c"
#include "leapfrog_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "scheme_util_source.c"
#include "quat_source.c"
#include "leapfrog_source.c"
#include "templates_off.h"
#undef BASE_MPFR

static void lf_stats(const void *state, mb_stepper_stats *out)
{
    const struct lf_common *c = state;
    out->steps = c->steps;
    out->quat_norm_error_max = c->qnorm_err;
}

const mb_stepper_type mb_stepper_leapfrog = {
    .name = "leapfrog",
    .summary = "v(t+h/2) = v(t-h/2) + a(t) h;  x(t+h) = x(t) + v(t+h/2) h;  "
               "spherical q(t+h) = Quaternion(w(t+h/2) h) q(t);  aspherical: Fincham on global L "
               "(orientation order 1; 2 with aspherical=fincham-halfstep)",
    .reference = "seeds 002/000 (Woo, Motion integration; adjVel0; Cundall damping eq. 34); "
                 "Allen & Tildesley, Computer Simulation of Liquids (1989) pp. 84-89 (Fincham)",
    .order = 2,
    .order_rotation = 1,     /* default aspherical=fincham; fincham-halfstep is 2 (test_fincham) */
    .flags = MB_STEPPER_SYMPLECTIC | MB_STEPPER_HALFSTEP | MB_STEPPER_ROTATION | MB_STEPPER_CELL,
    .options = lf_options,
    .alloc = lf_alloc,
    .step = lf_step,
    .synchronize = lf_synchronize,
    .stats = lf_stats,
    .free = lf_free,
    .alloc_mpfr = lf_mpfr_alloc,
    .step_mpfr = lf_mpfr_step,
    .synchronize_mpfr = lf_mpfr_synchronize,
    .free_mpfr = lf_mpfr_free,
};

const mb_stepper_type mb_stepper_leapfrog_defect = {
    .name = "leapfrog-defect",
    .summary = "NEGATIVE CONTROL: leapfrog with local-frame initial angular momentum "
               "(defect=local-frame-angmom), spherical rotation of aspherical nodes "
               "(defect=spherical-rotation) or the seed's medium-spin sign in a deforming "
               "cell (defect=seed-spin-sign)",
    .reference = "the initialisation in Woo's Leapfrog code; misuse of seed 002's spherical update",
    .order = 2,
    .order_rotation = 1,
    .flags = MB_STEPPER_HALFSTEP | MB_STEPPER_ROTATION | MB_STEPPER_NEGATIVE | MB_STEPPER_CELL,
    .options = lf_defect_options,
    .alloc = lf_alloc_defect,
    .step = lf_step,
    .synchronize = lf_synchronize,
    .stats = lf_stats,
    .free = lf_free,
    .alloc_mpfr = lf_mpfr_alloc_defect,
    .step_mpfr = lf_mpfr_step,
    .synchronize_mpfr = lf_mpfr_synchronize,
    .free_mpfr = lf_mpfr_free,
};

/* ---- kernels exported for benchmarks (mb_leapfrog.h) ---- */

int mb_leapfrog_translate(const mb_nodes *s, double *x_out, double *v_out, double h)
{
    return lf_translate_fast(s, x_out, v_out, h, h) ? MB_EDIVERGED : MB_SUCCESS;
}

int mb_leapfrog_translate_general(const mb_nodes *s, double *x_out, double *v_out, double h,
                                  double damping, int adj_vel0, double *dissipated)
{
    struct lf_config cfg = { .adj_vel0 = adj_vel0, .damping = damping };
    double diss = 0.0;
    int bad = lf_translate_general(&cfg, s, x_out, v_out, h, h, &diss);
    if (dissipated)
        *dissipated = diss;
    return bad ? MB_EDIVERGED : MB_SUCCESS;
}
