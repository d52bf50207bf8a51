/* spring_pair.c -- seed 004's two particles joined by one Hookean spring, moving along x:
 *   f0 = k (l - L) n,  f1 = -f0,   n = (x1 - x0)/l   (L = 0: f0 = k (x1 - x0)).
 * Closed form: the centre of mass X = (m0 x0 + m1 x1)/M moves uniformly, and the
 * separation r = x1 - x0 obeys mu r'' = -k (r - L), mu = m0 m1 / M, so with w = sqrt(k/mu)
 *   r(t) - L = (d - L) cos wt + ((u1 - u0)/w) sin wt,
 *   x0 = X - (m1/M) r,   x1 = X + (m0/M) r.
 * For L > 0 this holds while r stays positive (the particles do not pass each other);
 * for L = 0 the force is linear and the closed form holds for all t.  Writing
 * r - L = A cos(wt - phi), A = |(d - L, (u1 - u0)/w)|, phi = atan2((u1 - u0)/w, d - L),
 * r first reaches 0 (when A >= L) at w t_m = phi + acos(-L/A); exact() refuses t >= t_m. */
#include "mb_problem.h"
#include "mb_scene_place.h"
#include "mb_status.h"

#include <math.h>

static const mb_option_spec params[] = {
    { "m0", MB_OPT_DOUBLE, "1.3", 1e-300, 1e300, NULL, "mass of particle 0 (kg), > 0" },
    { "m1", MB_OPT_DOUBLE, "0.77", 1e-300, 1e300, NULL, "mass of particle 1 (kg), > 0" },
    { "k", MB_OPT_DOUBLE, "43.1", 0, 1e300, NULL, "spring stiffness (N/m), >= 0" },
    { "rest", MB_OPT_DOUBLE, "0", 0, 1e300, NULL,
      "rest length L (m), >= 0; 0 is the seed's linear spring" },
    { "d", MB_OPT_DOUBLE, "0.37", 1e-300, 1e300, NULL,
      "initial separation x1 - x0 along x (m), > 0 (particle 0 starts at the origin)" },
    { "u0", MB_OPT_DOUBLE, "0.21", -1e300, 1e300, NULL, "initial x velocity of particle 0 (m/s)" },
    { "u1", MB_OPT_DOUBLE, "-0.55", -1e300, 1e300, NULL, "initial x velocity of particle 1 (m/s)" },
    MB_OPTION_END
};

/* w^2 = k (m0 + m1)/(m0 m1) must be finite (the ranges allow it to overflow) */
static int check_rate(const mb_options *p)
{
    double m0 = mb_options_double(p, "m0"), m1 = mb_options_double(p, "m1");
    double k = mb_options_double(p, "k"), M = m0 + m1, w2 = k / (m0 * m1 / M);
    if (!(isfinite(M) && isfinite(w2) && m0 * m1 / M > 0.0))
        MB_ERROR(MB_EDOM, "problem 'spring-pair': w^2 = k (m0 + m1)/(m0 m1) = %g from k = %g, "
                          "m0 = %g, m1 = %g is out of the double range", w2, k, m0, m1);
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **out)
{
    int st0 = check_rate(p);
    if (st0 != MB_SUCCESS)
        return st0;
    mb_system *sys = mb_system_alloc(2);
    if (sys == NULL)
        return MB_ENOMEM;
    mb_scene_pose body[2];              /* two [body] type = point */
    for (size_t i = 0; i < 2; i++) {
        mb_scene_pose_init(&body[i]);
        body[i].mass = mb_options_double(p, i ? "m1" : "m0");
        body[i].v[0] = mb_options_double(p, i ? "u1" : "u0");
    }
    body[1].x[0] = mb_options_double(p, "d");
    for (size_t i = 0; i < 2; i++)
        mb_scene_place_body(sys->nodes, i, &body[i]);
    mb_spring sp = { .i = 0, .j = 1, .k = mb_options_double(p, "k"),
                     .rest = mb_options_double(p, "rest"), .c = 0.0 };
    int st = mb_scene_add_spring(sys, &sp);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    double m0 = mb_options_double(p, "m0"), m1 = mb_options_double(p, "m1");
    double k = mb_options_double(p, "k"), L = mb_options_double(p, "rest");
    double d = mb_options_double(p, "d"), u0 = mb_options_double(p, "u0");
    double u1 = mb_options_double(p, "u1");
    int st = check_rate(p);
    if (st != MB_SUCCESS)
        return st;
    double M = m0 + m1, mu = m0 * m1 / M, w = sqrt(k / mu);
    double X = m1 * d / M + (m0 * u0 + m1 * u1) / M * t, V = (m0 * u0 + m1 * u1) / M;
    double c = cos(w * t), s = sin(w * t), w0 = u1 - u0;
    if (L > 0.0 && w > 0.0 && t > 0.0) {
        double A = hypot(d - L, w0 / w);
        if (A >= L) {
            double tm = (atan2(w0 / w, d - L) + acos(-L / A)) / w;
            if (t >= tm)
                MB_ERROR(MB_EDOM, "spring-pair: with rest = %g the particles meet at t = %.9g, where "
                                  "the spring's direction flips; the closed form does not hold at "
                                  "t = %g (use reference = ode or mpfr, or rest = 0)", L, tm, t);
        }
    }
    /* sin(wt)/w written as t sin(wt)/(wt) so k = 0 (w = 0) is the free-flight limit */
    double s_over_w = (w * t == 0.0) ? t : s / w;
    double r = L + (d - L) * c + w0 * s_over_w, rdot = -(d - L) * w * s + w0 * c;
    for (int a = 0; a < 6; a++)
        out->x[a] = out->v[a] = 0.0;
    out->x[0] = X - m1 / M * r;
    out->x[3] = X + m0 / M * r;
    out->v[0] = V - m1 / M * rdot;
    out->v[3] = V + m0 / M * rdot;
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_spring_pair = {
    .name = "spring-pair",
    .summary = "two particles joined by a Hookean spring along x (seed 004)",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "centre of mass uniform; r - L = (d - L) cos wt + ((u1 - u0)/w) sin wt, "
                 "w = sqrt(k (m0 + m1)/(m0 m1))",
};
