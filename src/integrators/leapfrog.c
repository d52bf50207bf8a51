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
 *   aspherical    Fincham's algorithm on the global L (fincham_source.c, 3 variants)
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
 * The same source (leapfrog_source.c) is instantiated in double and in MPFR.  Its
 * negative control, leapfrog-defect, lives in leapfrog_defect.c. */
#include "leapfrog_common.h"
#include "mb_leapfrog.h"

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

/* ---- the on-step estimate, shared with outside programs' trajectories (mb_leapfrog.h) ---- */

int mb_leapfrog_synchronize_nodes(const mb_forces *F, mb_nodes *on, double t, double h,
                                  int rotation)
{
    if (lf_none_set(on->vel_mid, on->n))
        return MB_SUCCESS;
    int st = mb_forces_eval(F, on, t);
    if (st != MB_SUCCESS)
        return st;
    struct lf_config cfg = { .asph = LF_FINCHAM };
    struct lf_rot r;
    lf_rot_init(&r, on->prec);
    for (size_t i = 0; i < on->n; i++)
        if (on->vel_mid[i])
            lf_sync_node(&cfg, &r, on, i, 0.5 * h, NULL, rotation);
    lf_rot_clear(&r);
    return MB_SUCCESS;
}

/* ---- kernels exported for benchmarks (mb_leapfrog.h) ---- */

int mb_leapfrog_translate(const mb_nodes *s, double *x_out, double *v_out, double h)
{
    return lf_translate_fast(s, x_out, v_out, h, h, lf_step_streams(s->n, 0)) ? MB_EDIVERGED
                                                                           : MB_SUCCESS;
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
