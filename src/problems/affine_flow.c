/* affine_flow.c -- particles carried by a homogeneous flow v_L = L x in a uniformly
 * deforming periodic cell (seed 002 "Motion in uniformly deforming space", DESIGN 4.3).
 *
 * No forces act; every particle starts with the medium velocity v0 = L x0 and the medium
 * spin w0 = omega_L = 1/2 curl v_L (spherical particles).  The closed form is the flow of
 * x' = L x:  x(t) = exp(L tau) x0,  v = L x,  w = omega_L,  q = Quaternion(omega_L tau),
 * tau = t - t_switch when the flow is switched on at t_switch > 0 (particles at rest
 * before; L = 0 there), tau = t otherwise.  exp is mb_closed_affine_flow (GSL).
 * Flows:  shear     L = rate e_x e_y^T        (v_x = rate y; nilpotent, L^2 = 0)
 *         rotation  L x = rate n x x          (rigid rotation about the unit axis n)
 *         mixed     L = rate M, M a fixed awkward matrix (stretch + shear + spin).
 * The cell starts as H0 = size [e_x, 0.13 e_x + e_y, -0.08 e_y + e_z] (columns) and the
 * particles on an n^3 lattice inside it.  Observed over nodes and on-step samples:
 * fluctuation.max, the largest |v - L x| (zero for particles moving with the flow), and
 * spin.relative_max, the largest |w - omega_L| (zero for particles spinning with it). */
#include "mb_cell.h"
#include "mb_closed.h"
#include "mb_problem.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "flow", MB_OPT_CHOICE, "shear", 0, 0, "shear|rotation|mixed",
      "shear: v_x = rate y; rotation: v = rate n x x; mixed: L = rate M, M = "
      "[[0.12, 0.61, -0.23], [-0.41, -0.07, 0.37], [0.19, -0.29, -0.05]]" },
    { "rate", MB_OPT_DOUBLE, "0.7311", -1e6, 1e6, NULL, "shear rate / angular speed / scale (1/s)" },
    { "ax", MB_OPT_DOUBLE, "0.3", -1e6, 1e6, NULL, "rotation axis x component (normalised)" },
    { "ay", MB_OPT_DOUBLE, "-0.5", -1e6, 1e6, NULL, "rotation axis y component" },
    { "az", MB_OPT_DOUBLE, "0.81", -1e6, 1e6, NULL, "rotation axis z component; |n| > 0" },
    { "n", MB_OPT_INT, "2", 1, 8, NULL, "particles per cell edge (n^3 particles)" },
    { "size", MB_OPT_DOUBLE, "1.93", 1e-6, 1e6, NULL, "cell edge length (m)" },
    { "mass", MB_OPT_DOUBLE, "1.3", 1e-300, 1e300, NULL, "particle mass (kg)" },
    { "radius", MB_OPT_DOUBLE, "0.1", 1e-9, 1e6, NULL, "particle radius (m); I = 2/5 m r^2" },
    { "t_switch", MB_OPT_DOUBLE, "0", 0, 1e12, NULL,
      "flow switched on at this time (0: from the start; L piecewise constant)" },
    MB_OPTION_END
};

static const double mixed_M[9] = { 0.12, 0.61, -0.23, -0.41, -0.07, 0.37, 0.19, -0.29, -0.05 };

/* The flow's velocity gradient (the value for t >= t_switch). */
static int flow_grad(const mb_options *p, double L[9])
{
    const char *flow = mb_options_string(p, "flow");
    double rate = mb_options_double(p, "rate");
    memset(L, 0, 9 * sizeof *L);
    if (!strcmp(flow, "shear")) {
        L[1] = rate;
    } else if (!strcmp(flow, "rotation")) {
        double n[3] = { mb_options_double(p, "ax"), mb_options_double(p, "ay"),
                        mb_options_double(p, "az") };
        double nn = mb_v3_norm(n);
        if (!(nn > 0.0))
            MB_ERROR(MB_EDOM, "problem 'affine-flow': the rotation axis (ax, ay, az) must not be zero");
        double w[3];
        mb_v3_scale(w, rate / nn, n);
        /* L x = w x x:  L = [[0, -w2, w1], [w2, 0, -w0], [-w1, w0, 0]] */
        L[1] = -w[2]; L[2] = w[1];
        L[3] = w[2];  L[5] = -w[0];
        L[6] = -w[1]; L[7] = w[0];
    } else {
        for (int k = 0; k < 9; k++)
            L[k] = rate * mixed_M[k];
    }
    return MB_SUCCESS;
}

static void initial_positions(const mb_options *p, size_t i, double x[3])
{
    long n = mb_options_int(p, "n");
    double a = mb_options_double(p, "size");
    long ii = (long)i / (n * n), jj = ((long)i / n) % n, kk = (long)i % n;
    double s[3] = { (ii + 0.37) / n, (jj + 0.61) / n, (kk + 0.23) / n };
    /* x = H0 s, H0 columns a e_x, a (0.13, 1, 0), a (0, -0.08, 1) */
    x[0] = a * (s[0] + 0.13 * s[1]);
    x[1] = a * (s[1] - 0.08 * s[2]);
    x[2] = a * s[2];
}

static int setup(const mb_options *p, mb_system **out)
{
    double L[9], zero[9] = { 0 }, w[3];
    int st = flow_grad(p, L);
    if (st != MB_SUCCESS)
        return st;
    double a = mb_options_double(p, "size"), ts = mb_options_double(p, "t_switch");
    double H0[9] = { a, 0.13 * a, 0.0, 0.0, a, -0.08 * a, 0.0, 0.0, a };
    long n = mb_options_int(p, "n");
    size_t N = (size_t)(n * n * n);
    mb_system *sys = mb_system_alloc(N);
    if (sys == NULL)
        return MB_ENOMEM;
    sys->cell = mb_cell_new(H0, ts > 0.0 ? zero : L);
    if (sys->cell == NULL || (ts > 0.0 && mb_cell_set_switch(sys->cell, ts, L) != MB_SUCCESS)) {
        mb_system_free(sys);
        return mb_last_error_code();
    }
    mb_cell_spin(ts > 0.0 ? zero : L, w);
    double m = mb_options_double(p, "mass"), r = mb_options_double(p, "radius");
    double I = 0.4 * m * r * r, Iv[3] = { I, I, I };
    if (!(isfinite(I) && I > 0.0)) {
        mb_system_free(sys);
        MB_ERROR(MB_EDOM, "problem 'affine-flow': I = 2/5 mass radius^2 = %g from mass = %g, "
                          "radius = %g is not a finite positive double", I, m, r);
    }
    for (size_t i = 0; i < N; i++) {
        double *x = &sys->nodes->x[3 * i];
        initial_positions(p, i, x);
        mb_nodes_set_mass(sys->nodes, i, m);
        mb_nodes_set_inertia(sys->nodes, i, Iv);
        sys->nodes->radius[i] = r;
        for (int k = 0; k < 3; k++) {
            sys->nodes->v[3 * i + k] = ts > 0.0 ? 0.0
                : L[3 * k] * x[0] + L[3 * k + 1] * x[1] + L[3 * k + 2] * x[2];
            sys->nodes->omega[3 * i + k] = w[k];
            sys->nodes->angmom[3 * i + k] = I * w[k];
        }
    }
    *out = sys;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double L[9], w[3], th[3], q[4];
    int st = flow_grad(p, L);
    if (st != MB_SUCCESS)
        return st;
    double tau = t - mb_options_double(p, "t_switch");
    if (!(tau >= 0.0)) {            /* before the switch: at rest */
        tau = 0.0;
        memset(L, 0, sizeof L);
    }
    mb_cell_spin(L, w);
    mb_v3_scale(th, tau, w);
    mb_q_from_rotvec(q, th);
    for (size_t i = 0; i < out->n; i++) {
        double x0[3];
        initial_positions(p, i, x0);
        st = mb_closed_affine_flow(L, tau, x0, &out->x[3 * i], &out->v[3 * i]);
        if (st != MB_SUCCESS)
            return st;
        double I = out->inertia[3 * i];
        for (int k = 0; k < 3; k++) {
            out->omega[3 * i + k] = w[k];
            out->angmom[3 * i + k] = I * w[k];
            out->q[4 * i + k] = q[k];
        }
        out->q[4 * i + 3] = q[3];
        out->vel_mid[i] = 0;
    }
    return MB_SUCCESS;
}

/* ---- observer: largest fluctuation velocity |v - L(t) x| ---- */

struct fluct { double L[9], w[3], t_switch, max, spin_max; };

static int observe_begin(void **ctx, const mb_options *p, const mb_system *sys)
{
    (void)sys;
    struct fluct *f = calloc(1, sizeof *f);
    if (f == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    int st = flow_grad(p, f->L);
    if (st != MB_SUCCESS) {
        free(f);
        return st;
    }
    f->t_switch = mb_options_double(p, "t_switch");
    mb_cell_spin(f->L, f->w);
    *ctx = f;
    return MB_SUCCESS;
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on)
{
    struct fluct *f = ctx;
    double zero[9] = { 0 }, vf[3], ws[3];
    int on_flow = sys->t >= f->t_switch;
    const double *L = on_flow ? f->L : zero, *w = on_flow ? f->w : zero;
    for (size_t i = 0; i < on->n; i++) {
        mb_cell_fluctuation(L, &on->x[3 * i], &on->v[3 * i], vf);
        double m = mb_v3_norm(vf);
        if (m > f->max || !(m == m))
            f->max = m;
        mb_v3_sub(ws, &on->omega[3 * i], w);
        m = mb_v3_norm(ws);
        if (m > f->spin_max || !(m == m))
            f->spin_max = m;
    }
    return MB_SUCCESS;
}

static int observe_end(void *ctx, mb_observation *out)
{
    struct fluct *f = ctx;
    out->count = 2;
    snprintf(out->items[0].name, sizeof out->items[0].name, "fluctuation.max");
    out->items[0].value = f->max;
    snprintf(out->items[1].name, sizeof out->items[1].name, "spin.relative_max");
    out->items[1].value = f->spin_max;
    free(f);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_affine_flow = {
    .name = "affine-flow",
    .summary = "particles carried by a homogeneous flow v = L x in a deforming periodic cell",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "x = exp(L tau) x0, v = L x, w = omega_L = 1/2 curl(L x), "
                 "q = Quaternion(omega_L tau), tau = t - t_switch",
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
    .not_a_scene = "its particles sit on a lattice in the cell's own coordinates (x = H0 s) with "
                   "the medium's velocity and spin; a scene's [space] cell takes Cartesian "
                   "lattices and packings (doc/scenes.md)",
};
