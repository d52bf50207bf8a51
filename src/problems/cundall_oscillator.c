/* cundall_oscillator.c -- a mass on a zero-rest-length spring to the origin (along x),
 * released from rest at x0, integrated with Cundall's non-viscous damping, which is an
 * option of the scheme (leapfrog[damping=LAMBDA]); the parameter `lambda` must be set to
 * the same value, because the closed form depends on it.
 *
 * Closed form of the continuous damped motion (h -> 0 limit of seed 000 eq. 34):
 * the force -k x is scaled by (1 - lambda sgn(F v)).  Moving towards the origin F v > 0:
 * stiffness k (1 - lambda); moving away F v < 0: stiffness k (1 + lambda).  The motion is
 * therefore piecewise harmonic with w- = sqrt(k (1 - lambda) / m) on the inward quarter
 * and w+ = sqrt(k (1 + lambda) / m) on the outward quarter.  From a turning point at
 * amplitude A:  inward  x = A cos(w- s), reaching the origin with speed A w-;
 *               outward x = -(A w- / w+) sin(w+ s), stopping at amplitude A w- / w+.
 * Hence, with no quasi-static or small-lambda assumption for this linear spring:
 *   amplitude ratio per half cycle   sqrt((1 - lambda) / (1 + lambda)),
 *   per full cycle                   (1 - lambda) / (1 + lambda),
 *   period                           pi / w- + pi / w+,
 *   energy at successive turning points multiplied by ((1 - lambda)/(1 + lambda))^2 per
 *   cycle, the difference being the work the damping removes.
 * exact() skips whole cycles at once (t = n P + s, A -> A ((1 - lambda)/(1 + lambda))^n,
 * P = 2 (pi/(2 w-) + pi/(2 w+))) and walks the remaining quarters.
 * The leap-frog estimate of sgn(v) (v + a h/2) switches within one step of the true
 * turning point, so the discrete scheme converges to this solution at first order in h
 * (the switching error), not second. */
#include "mb_oscillator_setup.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <math.h>

static const mb_option_spec params[] = {
    { "mass", MB_OPT_DOUBLE, "2.385", 1e-300, 1e300, NULL, "mass m (kg), > 0" },
    { "k", MB_OPT_DOUBLE, "7.31", 1e-300, 1e300, NULL, "spring stiffness k (N/m), > 0" },
    { "x0", MB_OPT_DOUBLE, "0.413", -1e12, 1e12, NULL, "initial displacement, released at rest (m)" },
    { "lambda", MB_OPT_DOUBLE, "0.2", 0, 0.999, NULL,
      "Cundall damping coefficient the scheme runs with (set leapfrog[damping=] to the same)" },
    MB_OPTION_END
};

/* w-, w+ must be finite positive doubles (k/mass may overflow or underflow) */
static int check_rates(const mb_options *p)
{
    double m = mb_options_double(p, "mass"), k = mb_options_double(p, "k");
    double lambda = mb_options_double(p, "lambda");
    double wm = sqrt(k * (1.0 - lambda) / m), wp = sqrt(k * (1.0 + lambda) / m);
    if (!(isfinite(wp) && wm > 0.0))
        MB_ERROR(MB_EDOM, "problem 'cundall-oscillator': the frequencies sqrt(k (1 -+ lambda)/mass) "
                          "= %g, %g from k = %g, mass = %g are out of the double range", wm, wp, k, m);
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    int st = check_rates(p);
    if (st != MB_SUCCESS)
        return st;
    return mb_oscillator_system(mb_options_double(p, "mass"), mb_options_double(p, "k"),
                                mb_options_double(p, "x0"), 0.0, out);
}

/* Walk the quarter cycles up to t: each pair (inward, outward) is closed form. */
static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m = mb_options_double(p, "mass"), k = mb_options_double(p, "k");
    double lambda = mb_options_double(p, "lambda"), A = mb_options_double(p, "x0");
    double wm = sqrt(k * (1.0 - lambda) / m), wp = sqrt(k * (1.0 + lambda) / m);
    double qm = 0.5 * M_PI / wm, qp = 0.5 * M_PI / wp, s = t, x, v;
    if (t < 0.0)
        MB_ERROR(MB_EDOM, "cundall-oscillator: the closed form needs t >= 0 (got %g)", t);
    int st = check_rates(p);
    if (st != MB_SUCCESS)
        return st;
    /* whole cycles at once: each maps the amplitude A to A (w-/w+)^2 on the same side */
    double P = 2.0 * (qm + qp), ncyc = floor(s / P);
    if (ncyc > 0.0) {
        s = t - ncyc * P;
        if (s < 0.0) {                      /* t / P rounded up to a whole number */
            ncyc -= 1.0;
            s = t - ncyc * P;
        }
        A *= pow((wm / wp) * (wm / wp), ncyc);
    }
    for (;;) {
        if (s <= qm) {                      /* inward from the turning point A */
            x = A * cos(wm * s);
            v = -A * wm * sin(wm * s);
            break;
        }
        s -= qm;
        double B = A * wm / wp;             /* next amplitude, opposite side */
        if (s <= qp) {                      /* outward */
            x = -B * sin(wp * s);
            v = -B * wp * cos(wp * s);
            break;
        }
        s -= qp;
        A = -B;
        if (A == 0.0) {
            x = v = 0.0;
            break;
        }
    }
    for (int a = 0; a < 3; a++)
        out->x[a] = out->v[a] = 0.0;
    out->x[0] = x;
    out->v[0] = v;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_cundall_oscillator = {
    .name = "cundall-oscillator",
    .summary = "spring oscillator with Cundall non-viscous damping (scheme option damping = lambda)",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "piecewise harmonic, w-+ = sqrt(k(1-+lambda)/m); amplitude ratio per cycle (1-lambda)/(1+lambda)",
    .flags = MB_PROBLEM_SCHEME_DEPENDENT,
};
