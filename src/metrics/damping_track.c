/* damping_track.c -- numerical damping from successive peaks (DESIGN 6).
 *
 * A sampled signal y(t) (one coordinate of one node, oscillating about 0) is scanned for
 * positive local maxima; each is refined by the parabola through the three samples
 * around it.  With A_n the peak amplitudes and t_n their times:
 *   logarithmic decrement   delta = ln(A_0 / A_N) / N              (mean per cycle)
 *   damping.ratio           zeta  = delta / sqrt(4 pi^2 + delta^2)
 *   damping.amplitude_ratio exp(-delta) = (A_N / A_0)^(1/N)         (per cycle)
 *   period                  (t_N - t_0) / N
 * For x = A e^(-zeta w t) cos(w_d t) the peaks are one damped period 2 pi / w_d apart and
 * A_{n+1}/A_n = exp(-2 pi zeta / sqrt(1 - zeta^2)), which inverts to the formula above.
 * A growing oscillation (explicit Euler) gives delta < 0 and zeta < 0. */
#include "mb_metrics.h"
#include "mb_status.h"

#include <math.h>
#include <string.h>

void mb_damping_track_begin(mb_damping_track *tr) { memset(tr, 0, sizeof *tr); }

static void refine_peak(const double t[3], const double y[3], double *tp, double *yp)
{
    /* vertex of the parabola through three samples (equal spacing not assumed) */
    double d1 = (y[1] - y[0]) / (t[1] - t[0]), d2 = (y[2] - y[1]) / (t[2] - t[1]);
    double a = (d2 - d1) / (t[2] - t[0]);
    *tp = t[1];
    *yp = y[1];
    if (a < 0.0) {
        double b = d1 - a * (t[0] + t[1]);      /* y = a t^2 + b t + c */
        double tv = -b / (2.0 * a);
        if (tv > t[0] && tv < t[2]) {
            *tp = tv;
            *yp = y[1] + a * (tv - t[1]) * (tv - t[1]) + (b + 2.0 * a * t[1]) * (tv - t[1]);
        }
    }
}

void mb_damping_track_add(mb_damping_track *tr, double t, double y)
{
    tr->t[0] = tr->t[1]; tr->y[0] = tr->y[1];
    tr->t[1] = tr->t[2]; tr->y[1] = tr->y[2];
    tr->t[2] = t; tr->y[2] = y;
    if (++tr->seen < 3)
        return;
    if (tr->y[1] > 0.0 && tr->y[1] > tr->y[0] && tr->y[1] >= tr->y[2]
        && tr->n_peaks < MB_DAMPING_MAX_PEAKS) {
        refine_peak(tr->t, tr->y, &tr->peak_t[tr->n_peaks], &tr->peak_a[tr->n_peaks]);
        tr->n_peaks++;
    }
}

double mb_damping_ratio_of_decrement(double delta)
{
    return delta / sqrt(4.0 * M_PI * M_PI + delta * delta);
}

int mb_damping_result_of(const mb_damping_track *tr, mb_damping_result *res)
{
    res->peaks = tr->n_peaks;
    res->ratio = res->period = res->amplitude_ratio = NAN;
    if (tr->n_peaks < 2)
        MB_ERROR(MB_EINVAL, "damping: %zu positive peak(s), need 2", tr->n_peaks);
    size_t N = tr->n_peaks - 1;
    double delta = log(tr->peak_a[0] / tr->peak_a[N]) / (double)N;
    res->ratio = mb_damping_ratio_of_decrement(delta);
    res->amplitude_ratio = exp(-delta);
    res->period = (tr->peak_t[N] - tr->peak_t[0]) / (double)N;
    return MB_SUCCESS;
}
