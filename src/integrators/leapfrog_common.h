/* leapfrog_common.h -- what the leap-frog scheme (leapfrog.c) and its negative control
 * (leapfrog_defect.c) share outside the template: configuration, deforming-cell
 * coefficients, flag and exact-zero tests.  Private to those two files. */
#ifndef MB_LEAPFROG_COMMON_H
#define MB_LEAPFROG_COMMON_H

#include "array_scan.h"
#include "leapfrog_quads.h"
#include "leapfrog_rot_quads.h"
#include "leapfrog_stream.h"
#include "mb_cell.h"
#include "mb_quat_lanes.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { LF_FINCHAM = 0, LF_FINCHAM_HALFSTEP = 1, LF_FINCHAM_WOO = 2 };

struct lf_config {
    int adj_vel0;        /* first-step adjustment for on-step initial velocities */
    double damping;      /* Cundall lambda in [0, 1) */
    int asph;            /* LF_FINCHAM* */
    int control;         /* read only by a negative control's rules (leapfrog_defect.c) */
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

/* The options every leap-frog type shares (lf_options in leapfrog.c). */
static int lf_config_read(struct lf_config *cfg, const mb_options *opts)
{
    cfg->adj_vel0 = mb_options_bool(opts, "adj_vel0");
    cfg->damping = mb_options_double(opts, "damping");
    const char *a = mb_options_string(opts, "aspherical");
    cfg->asph = !strcmp(a, "fincham-halfstep") ? LF_FINCHAM_HALFSTEP
              : !strcmp(a, "fincham-woo") ? LF_FINCHAM_WOO : LF_FINCHAM;
    cfg->cell = mb_options_bool(opts, "cell");
    cfg->control = 0;
    if (!(cfg->damping >= 0.0 && cfg->damping < 1.0))
        MB_ERROR(MB_EDOM, "leapfrog: damping = %g must be in [0, 1)", cfg->damping);
    return MB_SUCCESS;
}

/* The medium spin omega_L(L) of a velocity gradient L (mb_cell.h). */
typedef void lf_spin_fn(const double *L, double *w);

/* Kick coefficients from L- = Lm, L+ = Lp over hk (mb_cell_kick_coeffs), and the spin
 * correction omega_L(L+) - omega_L(L-) with the given medium spin. */
static int lf_cell_coeffs(lf_spin_fn *spin, const double Lm[9], const double Lp[9],
                          double hk, struct lf_cellk *k)
{
    int st = mb_cell_kick_coeffs(Lm, Lp, hk, k->M, k->LmL, k->P);
    if (st != MB_SUCCESS)
        return st;
    double wp[3], wm[3];
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
static int lf_cell_step_coeffs(lf_spin_fn *spin, const mb_cell *cell, double t,
                               double hp, double h, struct lf_cellk *km, struct lf_cellk *kf,
                               double Lm[9], double Lp[9])
{
    double L0[9];
    mb_cell_grad(cell, t + 0.5 * h, Lp);
    mb_cell_grad(cell, t - 0.5 * hp, Lm);
    mb_cell_grad(cell, t, L0);
    int st = lf_cell_coeffs(spin, Lm, Lp, 0.5 * (hp + h), km);
    if (st == MB_SUCCESS)
        st = lf_cell_coeffs(spin, L0, Lp, 0.5 * h, kf);
    return st;
}

/* 1 when no byte of flags[0..n) is set / when every byte is set (a branch-free OR over
 * 8-byte words, then the tail) */
/* 1 when a step of n nodes, rotating them or not, is to write its outputs around the
 * caches (leapfrog_stream.h: the bytes it moves exceed the last-level cache); 0 where
 * the build has no streaming kernels. */
static inline int lf_step_streams(size_t n, int rotating)
{
#ifdef LF_HAVE_STREAM
    return n >= (rotating ? LF_STREAM_MIN_NODES_ROTATING : LF_STREAM_MIN_NODES);
#else
    (void)n;
    (void)rotating;
    return 0;
#endif
}

static int lf_none_set(const unsigned char *flags, size_t n)
{
    uint64_t any = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, &flags[i], sizeof word);
        any |= word;
    }
    for (; i < n; i++)
        any |= flags[i];
    return any == 0;
}

static int lf_all_set(const unsigned char *flags, size_t n)
{
    return n == 0 || memchr(flags, 0, n) == NULL;
}

/* Exact comparisons for the no-rotation path: +0 (not -0), and the same value and sign. */
static inline int lf_pos_zero(const double *a)
{
    return *a == 0.0 && !signbit(*a);
}

static inline int lf_same(const double *a, const double *b)
{
    return *a == *b && !signbit(*a) == !signbit(*b);
}

/* +0 everywhere (array_scan.h) */
static inline int lf_all_pos_zero(const double *a, size_t count)
{
    return mb_all_pos_zero(a, count);
}

static inline int lf_mpfr_all_pos_zero(const __mpfr_struct *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (!mpfr_zero_p(&a[k]) || mpfr_signbit(&a[k]))
            return 0;
    return 1;
}

static inline int lf_minus_zero(const double *a)
{
    return mb_double_bits(a) == (uint64_t)1 << 63;
}

static inline int lf_mpfr_minus_zero(mpfr_srcptr a)
{
    return mpfr_zero_p(a) && mpfr_signbit(a);
}

static inline int lf_mpfr_pos_zero(mpfr_srcptr a)
{
    return mpfr_zero_p(a) && !mpfr_signbit(a);
}

static inline int lf_mpfr_same(mpfr_srcptr a, mpfr_srcptr b)
{
    return mpfr_equal_p(a, b) && !mpfr_signbit(a) == !mpfr_signbit(b);
}

static void lf_stats(const void *state, mb_stepper_stats *out)
{
    const struct lf_common *c = state;
    out->steps = c->steps;
    out->quat_norm_error_max = c->qnorm_err;
}

#endif
