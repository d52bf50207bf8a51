/* mb_closed_rolling.h -- a solid sphere on a horizontal plane under gravity with Coulomb
 * friction mu and a constant rolling-resistance torque M (closed_rolling.c, doc/dem.md
 * "Sliding into rolling").
 *
 * The sphere (mass m, moment I, contact arm a from its centre to the contact point)
 * moves along +x with speed v0 >= 0 and spin w0 >= 0 about +y (w0 = v0/a rolls).  The
 * slip velocity of the contact point s = v - a w starts at s0 = v0 - a w0; while s != 0
 * the friction is mu m g against s (sigma = sign s0):
 *   v = v0 - sigma mu g t,   w = w0 + alpha t,   alpha = (sigma mu m g a - M)/I,
 * so s = s0 - (sigma mu g + a alpha) t vanishes at the rolling onset
 *   t* = s0/(sigma mu g + a alpha),   v* = v0 - sigma mu g t*.
 * For M = 0 and a = r, I = 2/5 m r^2: t* = 2|s0|/(7 mu g), v* = (5 v0 + 2 r w0)/7.
 * Rolling then (v = a w), the torque M slows it: m v' = F, I w' = -a F - M give
 *   v' = -d,  d = M a/(I + m a^2)  (5 M/(7 m r) = 5 mu_r g/7 for M = mu_r r m g, a = r),
 * with the friction F = -m d, which must stay within mu m g.  It stops at
 * t_s = t* + v* / d after the distance x_s - x* = v*^2/(2 d) (7 v*^2/(10 mu_r g)).
 * Assumptions checked (MB_EDOM with the reason otherwise): v0, w0 >= 0, mu > 0, the
 * spin stays > 0 while sliding (so M acts against it), rolling needs m d <= mu m g. */
#ifndef MB_CLOSED_ROLLING_H
#define MB_CLOSED_ROLLING_H

typedef struct mb_rolling_params {
    double m, I, a;       /* mass, moment of inertia, contact arm */
    double g, mu, M;      /* gravity, Coulomb coefficient, rolling torque magnitude */
    double v0, w0;        /* initial speed along +x and spin about +y */
} mb_rolling_params;

typedef struct mb_rolling_events {
    double t_onset, x_onset, v_onset, theta_onset;   /* rolling starts */
    double alpha;                                     /* spin rate while sliding */
    double decel;                                     /* d while rolling (0: M = 0) */
    double t_stop, x_stop;                            /* rolling ends (inf: M = 0) */
} mb_rolling_events;

/* The events of p; MB_EDOM with the broken assumption named. */
int mb_closed_rolling_events(const mb_rolling_params *p, mb_rolling_events *e);
/* x, v along x and the angle theta, spin w about y at time t >= 0 (at rest after t_s). */
int mb_closed_rolling_state(const mb_rolling_params *p, double t, double *x, double *v,
                            double *theta, double *w);

#endif
