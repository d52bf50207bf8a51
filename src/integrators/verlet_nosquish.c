/* verlet_nosquish.c -- velocity Verlet for translation with the NO_SQUISH rotation
 * integrator for rigid bodies:
 *   T. F. Miller III, M. Eleftheriou, P. Pattnaik, A. Ndirango, D. Newns and
 *   G. J. Martyna, "Symplectic quaternion scheme for biophysical molecular dynamics",
 *   J. Chem. Phys. 116 (2002) 8649.
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
 *      P_3 q = (-q3, q2, -q1, q0);
 *   3. forces and torques at the new state, then the second half kicks.
 * Second order, symplectic and time reversible; each sub-rotation is an orthogonal map of
 * q (|q| = 1 kept to round-off without normalisation) and of p; the global angular
 * momentum R(q) L~ is invariant under the free rotation, so it changes only by the
 * torque kicks (torque-free: conserved to round-off).  Velocities and angular
 * momenta are on-step.  One force evaluation per step: forces and torques at t+h (and
 * the angular momentum they belong to) are cached for the next step while the system is
 * the one the scheme left (same system, force field, node store, t and state generation,
 * mb_stepper.h; otherwise L = R I R^T omega and the loads are recomputed).  The five
 * sub-rotations have five different angles zeta (each depends on the p and q the previous
 * one left), so no sine or cosine is shared between them.  In double, sin and cos of
 * four bodies' angles are computed at once by fdlibm's kernels (mb_sincos.h, error below
 * 1 ulp, the same bits on every processor) for each |zeta| <= pi/4, by libm for a larger
 * one (lane by lane); in MPFR by mpfr_sin_cos.
 * Rotating bodies are taken sixteen at a time: their frame changes, sub-rotations and
 * omega recoveries run side by side, structure of arrays (verlet_nosquish_lanes_source.c;
 * in double four bodies at a time through the whole free rotation, in registers),
 * so the dependent chain of one body overlaps with the others'; each body gets exactly
 * the operations it gets alone.  NaN/Inf is detected as the new state is written.
 * Blocked rotations: the blocked components of the global torque
 * are zeroed; nodes with a zero principal moment do not rotate.  One template
 * (verlet_nosquish_source.c, quaternion algebra of quat_source.c) instantiated in double
 * and MPFR; the MPFR twin calls mpfr_sin_cos where double calls fdlibm's kernels or libm,
 * so at 53 bits it is not bit-identical (it is at higher precision the twin of the same scheme). */
#include "mb_compiler.h"
#include "mb_quat_lanes.h"
#include "mb_sincos.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* members shared by the double and MPFR states (first member of both) */
struct vns_common {
    unsigned long steps;
    double qnorm_err;       /* max | |q| - 1 | after the free rotation, over all steps */
};

#define BASE_DOUBLE
#include "templates_on.h"
#include "scheme_util_source.c"
#include "quat_source.c"
#include "verlet_nosquish_lanes_source.c"
#include "verlet_nosquish_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "scheme_util_source.c"
#include "quat_source.c"
#include "verlet_nosquish_lanes_source.c"
#include "verlet_nosquish_source.c"
#include "templates_off.h"
#undef BASE_MPFR

static void vns_stats(const void *vs, mb_stepper_stats *out)
{
    const struct vns_common *c = vs;
    out->steps = c->steps;
    out->quat_norm_error_max = c->qnorm_err;
}

const mb_stepper_type mb_stepper_verlet_nosquish = {
    .name = "verlet-nosquish",
    .summary = "velocity Verlet for x, v; NO_SQUISH for q, L: kick L by (h/2) tau, free rotation "
               "R3(h/2) R2(h/2) R1(h) R2(h/2) R3(h/2), kick",
    .reference = "Miller, Eleftheriou, Pattnaik, Ndirango, Newns & Martyna, J. Chem. Phys. 116 "
                 "(2002) 8649; Swope et al., J. Chem. Phys. 76 (1982) 637",
    .order = 2,
    .order_rotation = 2,
    .flags = MB_STEPPER_SYMPLECTIC | MB_STEPPER_ROTATION,
    .options = NULL,
    .alloc = vns_alloc,
    .step = vns_step,
    .stats = vns_stats,
    .free = vns_free,
    .alloc_mpfr = vns_mpfr_alloc,
    .step_mpfr = vns_mpfr_step,
    .free_mpfr = vns_mpfr_free,
};
