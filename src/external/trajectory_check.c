/* trajectory_check.c -- a parsed trajectory against the run that was asked for
 * (doc/external.md, section 4): the same rules for an adapter's trajectory.csv and for the
 * files given to `score`.  Every defect is "line L: what" (row k is on line k + 2).
 *
 * Row 0 is the initial state.  Each value of row 0 (x, v, q, omega of every node) equals
 * the problem's initial state, which run.json sends with 17 significant digits (it reads
 * back as the same double), to ROW0_TOL of its quantity's scale:
 *     |value - initial| <= 2^-49 max(|initial|, S),  S = the largest |initial| of that
 *     quantity (positions, velocities, quaternions, angular velocities) over all nodes,
 * i.e. to 8 units in the last place of the quantity's scale, room for an adapter that
 * converts the state into its package's variables and back.  A quaternion may come back
 * as -q (the same rotation).
 *
 * No row repeats the previous one while the system must move.  Rows k and k + 1 with
 * every state value equal (a stale row, or rows aliasing one live buffer) are refused
 * when, in the state of row k, some free degree of freedom must change over a step h:
 *  - a position, when h |v| > MOVE_TOL max(|x|, X0) (X0: the largest |x| at t = 0): any
 *    consistent scheme displaces x by h v + O(h^2), and h |v| is then far above the
 *    spacing of doubles near x (MOVE_TOL = 1e-12 = 4500 ulps).  For mid-step velocities
 *    the argument is exact: x(t + h) - x(t) = h v(t + h/2), and equal rows make v(t + h/2)
 *    the row's velocity;
 *  - an orientation, when h |w| > MOVE_TOL (radians) in a component;
 *  - a velocity (angular velocity), when the net force (torque) on a node with finite
 *    mass (inertia) is not balanced, |f| > FORCE_TOL G with G the sum of the magnitudes
 *    of the force models' contributions (rounding leaves |f| ~ 1e-16 G at an
 *    equilibrium; FORCE_TOL = 1e-6), and h |f|/m > MOVE_TOL max(|v|, V0).  This part is
 *    skipped for problems whose constraints act outside the force field (the constrained
 *    scheme's contacts hold a body at rest against gravity); their "constraints" model
 *    cannot be evaluated alone either, and a model that cannot be evaluated ends this part
 *    without a conclusion.
 * A system at rest (a settled sphere, a still body, a node at equilibrium) may repeat
 * rows: none of these holds there. */
#include "array_scan.h"
#include "mb_external.h"
#include "mb_status.h"
#include "mb_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROW0_TOL 0x1p-49
#define MOVE_TOL 1e-12
#define FORCE_TOL 1e-6

static const char *const QUANTITY[4] = { "", "v", "q", "w" };

/* where row k is: line k + 2 of a CSV file, row k of a .npy array (tr->binary) */
static int defect(char *why, size_t size, const mb_trajectory *tr, size_t row,
                  const char *fmt, ...)
{
    va_list ap;
    int n = tr->binary ? mb_text_format(why, size, "row %zu: ", row)
                       : mb_text_format(why, size, "line %zu: ", row + 2);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < size)
        mb_text_vformat(why + n, size - (size_t)n, fmt, ap);
    va_end(ap);
    return MB_EINVAL;
}

/* Component c of quantity g (0 x, 1 v, 2 q, 3 w) in the initial store. */
static const double *initial_of(const mb_nodes *s, int g)
{
    return g == 0 ? s->x : g == 1 ? s->v : g == 2 ? s->q : s->omega;
}

static int row0_quantity(const mb_trajectory *tr, const mb_nodes *s0, int g, size_t per,
                         char *why, size_t size)
{
    size_t width = g == 2 ? 4 : 3, offset = g == 0 ? 0 : g == 1 ? 3 : g == 2 ? 6 : 10;
    const double *init = initial_of(s0, g);
    double scale = mb_max_abs(init, width * s0->n);
    for (size_t i = 0; i < tr->n_nodes; i++) {
        const double *row = &tr->values[per * i + offset], *want = &init[width * i];
        for (int sign = 1, pass = 0; pass < (g == 2 ? 2 : 1); pass++, sign = -1) {
            size_t bad = width;
            for (size_t a = 0; a < width && bad == width; a++)
                if (!(fabs(row[a] - sign * want[a]) <= ROW0_TOL * fmax(fabs(want[a]), scale)))
                    bad = a;
            if (bad == width)
                break;
            if (g != 2 || pass == 1)
                return defect(why, size, tr, 0, "row 0 is not the initial state: node %zu: %s%c = "
                              "%.17g, the problem starts at %.17g (they must agree to %.3g of "
                              "%.3g)", i, QUANTITY[g], (g == 2 ? "wxyz" : "xyz")[bad],
                              row[bad], want[bad], ROW0_TOL, fmax(fabs(want[bad]), scale));
        }
    }
    return MB_SUCCESS;
}

static int check_row0(const mb_trajectory *tr, const mb_nodes *s0, char *why, size_t size)
{
    size_t per = mb_nodes_state_size(tr->rotation);
    for (int g = 0; g < (tr->rotation ? 4 : 2); g++)
        if (row0_quantity(tr, s0, g, per, why, size) != MB_SUCCESS)
            return MB_EINVAL;
    return MB_SUCCESS;
}

static int same_row(const mb_trajectory *tr, size_t k)
{
    const double *a = &tr->values[k * tr->stride], *b = a + tr->stride;
    for (size_t c = 0; c < tr->stride; c++)
        if (!(a[c] == b[c]))
            return 0;
    return 1;
}

/* Net force (torque) and the sum of each model's magnitude, per component, in s at t.
 * 0 when some model cannot be evaluated alone (then nothing is concluded). */
static int net_and_gross(const mb_forces *F, mb_nodes *s, double t, double *net, double *gross)
{
    size_t m3 = 3 * s->n;
    memset(net, 0, 4 * m3 * sizeof *net);
    for (size_t m = 0; m < F->count; m++) {
        if (F->items[m].type->eval == NULL)
            return 0;
        memset(s->f, 0, m3 * sizeof *s->f);
        memset(s->torque, 0, m3 * sizeof *s->torque);
        if (F->items[m].type->eval(F->items[m].params, s, t) != MB_SUCCESS)
            return 0;
        for (size_t k = 0; k < m3; k++) {
            net[k] += s->f[k];
            net[m3 + k] += s->torque[k];
            gross[k] += fabs(s->f[k]);
            gross[m3 + k] += fabs(s->torque[k]);
        }
    }
    return 1;
}

typedef struct motion_scales {
    double x0, v0, w0, h;
    int forces;          /* the force field describes every load (not constrained) */
} motion_scales;

/* Why the state of row k must change over a step ("" when it need not). */
static void must_move(const mb_trajectory *tr, size_t k, const mb_forces *F, mb_nodes *s,
                      double *buf, const motion_scales *m, char *why, size_t size)
{
    why[0] = '\0';
    mb_trajectory_set_state(tr, k, s);
    for (size_t c = 0; c < 3 * s->n; c++) {
        if (m->h * fabs(s->v[c]) > MOVE_TOL * fmax(fabs(s->x[c]), m->x0)) {
            mb_text_format(why, size, "node %zu moves (v%c = %.6g)", c / 3, "xyz"[c % 3], s->v[c]);
            return;
        }
        if (tr->rotation && m->h * fabs(s->omega[c]) > MOVE_TOL) {
            mb_text_format(why, size, "node %zu turns (w%c = %.6g)", c / 3, "xyz"[c % 3],
                           s->omega[c]);
            return;
        }
    }
    size_t m3 = 3 * s->n;
    double *net = buf, *gross = buf + 2 * m3;
    if (!m->forces || !net_and_gross(F, s, tr->t[k], net, gross))
        return;
    for (size_t c = 0; c < m3; c++) {
        size_t i = c / 3;
        int axis = (int)(c % 3);
        double a = fabs(net[c]) * s->inv_mass[i];
        if (!(s->blocked[i] & (1u << axis)) && fabs(net[c]) > FORCE_TOL * gross[c]
            && m->h * a > MOVE_TOL * fmax(fabs(s->v[c]), m->v0)) {
            mb_text_format(why, size, "node %zu is pushed (net force f%c = %.6g)", i, "xyz"[axis],
                           net[c]);
            return;
        }
        double I = fmax(s->inertia[c - (size_t)axis], fmax(s->inertia[c - (size_t)axis + 1],
                                                            s->inertia[c - (size_t)axis + 2]));
        if (tr->rotation && I > 0.0 && !(s->blocked[i] & (8u << axis))
            && fabs(net[m3 + c]) > FORCE_TOL * gross[m3 + c]
            && m->h * fabs(net[m3 + c]) / I > MOVE_TOL * fmax(fabs(s->omega[c]), m->w0)) {
            mb_text_format(why, size, "node %zu is twisted (net torque T%c = %.6g)", i, "xyz"[axis],
                           net[m3 + c]);
            return;
        }
    }
}

static int check_motion(const mb_trajectory *tr, const mb_problem_type *problem,
                        const mb_system *sys0, double h, char *why, size_t size)
{
    const mb_nodes *s0 = sys0->nodes;
    mb_nodes *s = mb_nodes_alloc(s0->n, 53);
    double *buf = malloc(12 * s0->n * sizeof *buf);
    int st = s && buf ? mb_nodes_copy(s, s0) : MB_ENOMEM;
    motion_scales m = { mb_max_abs(s0->x, 3 * s0->n), mb_max_abs(s0->v, 3 * s0->n),
                        mb_max_abs(s0->omega, 3 * s0->n), h,
                        !(problem->flags & MB_PROBLEM_CONSTRAINED) };
    for (size_t k = 0; st == MB_SUCCESS && k + 1 < tr->n_rows; k++) {
        char reason[160];
        if (!same_row(tr, k))
            continue;
        must_move(tr, k, sys0->forces, s, buf, &m, reason, sizeof reason);
        if (reason[0])
            st = defect(why, size, tr, k + 1, "repeats %s %zu (every state value equal) while "
                        "the system must move: %s (a stale row, or rows sharing one buffer)",
                        tr->binary ? "row" : "line", tr->binary ? k : k + 2, reason);
    }
    if (st == MB_ENOMEM)
        mb_text_format(why, size, "out of memory");
    mb_nodes_free(s);
    free(buf);
    return st;
}

int mb_trajectory_check(const mb_trajectory *tr, const mb_problem_type *problem,
                        const mb_system *sys0, double h, char *why, size_t size)
{
    if (tr->n_rows == 0 || tr->n_nodes != sys0->nodes->n)
        return MB_SUCCESS;    /* shape defects are the parser's and the replay's */
    int s = check_row0(tr, sys0->nodes, why, size);
    return s == MB_SUCCESS ? check_motion(tr, problem, sys0, h, why, size) : s;
}
