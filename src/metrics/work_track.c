/* work_track.c -- the work of external loads that have no exact form over a step (a
 * body-frame force or torque, an expression force): the integral of their power
 * P(t) = sum of the models' external_power over the on-step states of a run sampled at
 * every step of a constant h, by Gregory's formula: the trapezoid rule with the end
 * derivatives of the Euler-Maclaurin formula replaced by finite differences, whose
 * coefficients are the Gregory coefficients |G_2|..|G_5| = 1/12, 1/24, 19/720, 3/160
 * (Hildebrand, "Introduction to Numerical Analysis", 2nd ed., ch. 5):
 *   W(nh) = h [P_0/2 + P_1 + ... + P_{n-1} + P_n/2]
 *           - h/12 (nabla P_n - Delta P_0) - h/24 (nabla^2 P_n + Delta^2 P_0)
 *           - 19h/720 (nabla^3 P_n - Delta^3 P_0) - 3h/160 (nabla^4 P_n + Delta^4 P_0)
 * with forward differences Delta^k P_0 from P_0..P_k and backward ones nabla^k P_n from
 * P_{n-k}..P_n.  Exact for polynomials of degree <= 5: the error is O(h^6) for a smooth P
 * (the trapezoid rule alone is O(h^2)), below the truncation error of every scheme of
 * order <= 5 at steps where that error is above round-off.  Before the fourth step the
 * corrections stop at the differences the samples allow (n of them); the value at step n
 * is formed afresh from the running sum, so the early, shorter corrections do not stay
 * in later values. */
#include "mb_metrics.h"

#include <math.h>
#include <string.h>

/* Gregory's end-correction coefficients c_k of the k-th differences, k = 1..4 */
static const double gregory[MB_WORK_ORDER] = { 1.0 / 12.0, 1.0 / 24.0, 19.0 / 720.0, 3.0 / 160.0 };

static const double binomial[MB_WORK_ORDER + 1][MB_WORK_ORDER + 1] = {
    { 1, 0, 0, 0, 0 }, { 1, 1, 0, 0, 0 }, { 1, 2, 1, 0, 0 }, { 1, 3, 3, 1, 0 }, { 1, 4, 6, 4, 1 }
};

void mb_work_track_begin(mb_work_track *w, double h, double p0)
{
    memset(w, 0, sizeof *w);
    w->h = h;
    w->head[0] = w->tail[0] = p0;
}

void mb_work_track_add(mb_work_track *w, double p)
{
    w->n++;
    w->sum += w->tail[0];                   /* P_0 + ... + P_{n-1} */
    memmove(&w->tail[1], &w->tail[0], MB_WORK_ORDER * sizeof(double));
    w->tail[0] = p;                         /* tail[j] = P_{n-j} */
    if (w->n <= MB_WORK_ORDER)
        w->head[w->n] = p;                  /* head[j] = P_j */
}

/* Delta^k P_0 = sum_j (-1)^(k-j) C(k, j) P_j;  nabla^k P_n = sum_j (-1)^j C(k, j) P_{n-j} */
static double forward_difference(const mb_work_track *w, int k)
{
    double d = 0.0;
    for (int j = 0; j <= k; j++)
        d += ((k - j) % 2 ? -1.0 : 1.0) * binomial[k][j] * w->head[j];
    return d;
}

static double backward_difference(const mb_work_track *w, int k)
{
    double d = 0.0;
    for (int j = 0; j <= k; j++)
        d += (j % 2 ? -1.0 : 1.0) * binomial[k][j] * w->tail[j];
    return d;
}

double mb_work_track_value(const mb_work_track *w)
{
    if (w->n == 0)
        return 0.0;
    double trapezoid = w->sum + w->tail[0] - 0.5 * (w->head[0] + w->tail[0]);
    double correction = 0.0;
    int order = w->n < MB_WORK_ORDER ? (int)w->n : MB_WORK_ORDER;
    for (int k = 1; k <= order; k++) {
        double ends = backward_difference(w, k) + (k % 2 ? -1.0 : 1.0) * forward_difference(w, k);
        correction += gregory[k - 1] * ends;
    }
    return w->h * (trapezoid - correction);
}
