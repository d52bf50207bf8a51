/* error_norms.c -- global errors at t_end against the reference (DESIGN 6):
 * max over nodes of the Euclidean norm of the difference, and the orientation error as
 * the angle of the relative rotation q_ref^-1 q_run. */
#include "mb_metrics.h"
#include "mb_vec.h"

#include <math.h>

static double max_norm_diff(const double *a, const double *b, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d0 = a[3 * i] - b[3 * i], d1 = a[3 * i + 1] - b[3 * i + 1],
               d2 = a[3 * i + 2] - b[3 * i + 2];
        double d = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
        if (!(d <= m))   /* NaN propagates */
            m = d;
    }
    return m;
}

static double max_norm(const double *a, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = sqrt(a[3 * i] * a[3 * i] + a[3 * i + 1] * a[3 * i + 1]
                        + a[3 * i + 2] * a[3 * i + 2]);
        if (d > m)
            m = d;
    }
    return m;
}

double mb_error_position(const mb_nodes *run, const mb_nodes *ref)
{
    return max_norm_diff(run->x, ref->x, run->n);
}

double mb_error_velocity(const mb_nodes *run, const mb_nodes *ref)
{
    return max_norm_diff(run->v, ref->v, run->n);
}

double mb_error_angular_velocity(const mb_nodes *run, const mb_nodes *ref)
{
    return max_norm_diff(run->omega, ref->omega, run->n);
}

/* angle of the relative rotation conj(q_ref) (x) q_run (mb_q_angle_between), the same for
 * q and -q (both represent one rotation) and accurate for small angles */
double mb_error_orientation(const mb_nodes *run, const mb_nodes *ref)
{
    double m = 0.0;
    for (size_t i = 0; i < run->n; i++) {
        double ang = mb_q_angle_between(&ref->q[4 * i], &run->q[4 * i]);
        if (!(ang <= m))
            m = ang;
    }
    return m;
}

static double at_least_tiny(double s) { return s > 0.0 ? s : 1.0; }

double mb_scale_position(const mb_nodes *ref) { return at_least_tiny(max_norm(ref->x, ref->n)); }
double mb_scale_velocity(const mb_nodes *ref) { return at_least_tiny(max_norm(ref->v, ref->n)); }
double mb_scale_angular_velocity(const mb_nodes *ref)
{
    return at_least_tiny(max_norm(ref->omega, ref->n));
}

int mb_nodes_translates(const mb_nodes *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->inv_mass[i] > 0.0)
            return 1;
    return 0;
}

/* A node rotates when it has a finite positive inertia, its rotation is not blocked, and
 * it spins or feels a torque at t = 0 (s->torque must be current). */
int mb_nodes_rotates(const mb_nodes *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const double *I = &s->inertia[3 * i], *w = &s->omega[3 * i], *T = &s->torque[3 * i];
        if (!(I[0] > 0.0 || I[1] > 0.0 || I[2] > 0.0) || !isfinite(I[0] + I[1] + I[2]))
            continue;
        if ((s->blocked[i] & (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ))
            == (MB_BLOCK_RX | MB_BLOCK_RY | MB_BLOCK_RZ))
            continue;
        if (w[0] != 0.0 || w[1] != 0.0 || w[2] != 0.0 || T[0] != 0.0 || T[1] != 0.0
            || T[2] != 0.0)
            return 1;
    }
    return 0;
}
