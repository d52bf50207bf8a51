/* test_problems_euler.c -- the damped, projectile, spring-pair, spring-chain and cloth
 * problems: closed forms checked against the equations of motion, set-ups checked
 * against their documented geometry.
 *
 * A closed form is checked without any integrator: at the initial time it must equal
 * the set-up state, and at later times it must satisfy x' = v and m v' = f(x, v), with
 * f from the problem's own force field evaluated on the closed-form state and the time
 * derivatives taken by central differences of step d = 1e-4 T (T the time scale).  The
 * difference error is d^2/6 |x'''| + 2 u |x| / d, i.e. ~1e-9 relative to the scale of the
 * derivatives; 1e-6 relative is the tolerance, and a closed form with one wrong sign
 * (the negative control) misses it by orders of magnitude. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"

typedef int (*exact_fn)(const mb_options *p, double t, mb_nodes *out);

/* worst relative ODE residual of exact() over a few times in (0, T] */
static double ode_residual(const mb_system *sys, const mb_options *p, exact_fn exact, double T)
{
    size_t n = sys->nodes->n, n3 = 3 * n;
    mb_nodes *a = mb_nodes_alloc(n, 53), *b = mb_nodes_alloc(n, 53), *c = mb_nodes_alloc(n, 53);
    mb_nodes_copy(a, sys->nodes);
    mb_nodes_copy(b, sys->nodes);
    mb_nodes_copy(c, sys->nodes);
    double worst = 0.0, d = 1e-4 * T;
    for (int j = 1; j <= 5; j++) {
        double t = T * (0.137 + 0.71 * (double)j / 5.0);
        exact(p, t - d, a);
        exact(p, t + d, b);
        exact(p, t, c);
        mb_forces_eval(sys->forces, c, t);
        double vs = 0.0, fs = 0.0, rv = 0.0, rf = 0.0;
        for (size_t k = 0; k < n3; k++) {
            double xdot = (b->x[k] - a->x[k]) / (2 * d);
            double ma = c->mass[k / 3] * (b->v[k] - a->v[k]) / (2 * d);
            vs = fmax(vs, fabs(c->v[k]));
            /* force scale: the net force, or the momentum change scale m |v| / T when the
             * net force itself vanishes (terminal velocity) */
            fs = fmax(fs, fmax(fmax(fabs(c->f[k]), fabs(ma)), c->mass[k / 3] * fabs(c->v[k]) / T));
            rv = fmax(rv, fabs(xdot - c->v[k]));
            rf = fmax(rf, fabs(ma - c->f[k]));
        }
        worst = fmax(worst, fmax(rv / (vs + 1e-300), rf / (fs + 1e-300)));
    }
    mb_nodes_free(a);
    mb_nodes_free(b);
    mb_nodes_free(c);
    return worst;
}

static void check_closed_form(const char *name, const char *const *pairs, double T)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    for (const char *const *kv = pairs; *kv; kv++)
        mb_options_set_pair(in, *kv);
    cr_assert_eq(mb_problem_prepare(name, in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_not_null(pt->exact);
    mb_system *sys;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS);
    mb_nodes *e0 = mb_nodes_alloc(sys->nodes->n, 53);
    pt->exact(p, 0.0, e0);
    for (size_t k = 0; k < 3 * sys->nodes->n; k++) {
        cr_expect(fabs(e0->x[k] - sys->nodes->x[k]) <= 4 * DBL_EPSILON * (fabs(sys->nodes->x[k]) + 1),
                  "%s: x[%zu] at t = 0", name, k);
        cr_expect(fabs(e0->v[k] - sys->nodes->v[k]) <= 4 * DBL_EPSILON * (fabs(sys->nodes->v[k]) + 1),
                  "%s: v[%zu] at t = 0", name, k);
    }
    double r = ode_residual(sys, p, pt->exact, T);
    cr_expect(r <= 1e-6, "%s: closed form misses the ODE by %g (relative)", name, r);
    mb_nodes_free(e0);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
}

Test(problems, damped_all_regimes)
{
    check_closed_form("damped", (const char *const[]){ NULL }, 3.0);                 /* under */
    check_closed_form("damped", (const char *const[]){ "mass=1", "k=4", "c=4", NULL }, 3.0); /* critical, exactly */
    check_closed_form("damped", (const char *const[]){ "c=9.71", NULL }, 3.0);       /* over */
    check_closed_form("damped", (const char *const[]){ "c=5.6861", NULL }, 3.0);     /* near critical */
    check_closed_form("damped", (const char *const[]){ "c=0", NULL }, 3.0);          /* undamped */
}

Test(problems, projectile_with_and_without_drag)
{
    check_closed_form("projectile", (const char *const[]){ NULL }, 2.0);
    check_closed_form("projectile", (const char *const[]){ "D=0", NULL }, 2.0);
    check_closed_form("projectile", (const char *const[]){ "D=1e-9", NULL }, 2.0);
    check_closed_form("projectile", (const char *const[]){ "D=3.7", NULL }, 2.0);
}

Test(problems, spring_pair_linear_and_rest_length)
{
    check_closed_form("spring-pair", (const char *const[]){ NULL }, 0.5);
    check_closed_form("spring-pair", (const char *const[]){ "rest=0.29", NULL }, 0.5);
}

/* With a rest length L > 0 the closed form r - L = (d - L) cos wt + ((u1 - u0)/w) sin wt
 * holds only until the particles meet (r = 0): the spring's direction n = (x1 - x0)/|..|
 * flips there, the force field follows it and the harmonic formula does not (the ODE
 * reference at t = 0.4 put particle 0 at x = -0.32, the formula at -0.77).  Defaults with
 * u1 = -5 and L = 0.3: amplitude 0.556 > L, so they meet.  The meeting time is found
 * here by scanning r(t) (step 1e-5 s) and bisecting; exact() must hold before it (ODE
 * residual) and refuse after it, naming the rest length. */
Test(problems, spring_pair_rest_length_refuses_past_the_meeting)
{
    double m0 = 1.3, m1 = 0.77, k = 43.1, d = 0.37, u0 = 0.21, u1 = -5.0, L = 0.3;
    double w = sqrt(k * (m0 + m1) / (m0 * m1)), lo = 0.0, hi = 0.0;
#define R_OF(t) (L + (d - L) * cos(w * (t)) + (u1 - u0) / w * sin(w * (t)))
    for (double t = 1e-5; t < 1.0; t += 1e-5)
        if (R_OF(t) <= 0.0) {
            lo = t - 1e-5;
            hi = t;
            break;
        }
    cr_assert_gt(hi, 0.0, "the particles must meet for this test");
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi);
        if (R_OF(mid) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
#undef R_OF
    double tm = 0.5 * (lo + hi);
    cr_log_info("spring-pair rest=0.3 u1=-5: particles meet at t = %.15g", tm);
    check_closed_form("spring-pair", (const char *const[]){ "rest=0.3", "u1=-5", NULL }, tm);
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    mb_options_set_pair(in, "rest=0.3");
    mb_options_set_pair(in, "u1=-5");
    cr_assert_eq(mb_problem_prepare("spring-pair", in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes *e = mb_nodes_alloc(2, 53);
    cr_expect_eq(pt->exact(p, 0.99 * tm, e), MB_SUCCESS, "%s", mb_last_error());
    int rc = pt->exact(p, 1.01 * tm, e);
    cr_expect_eq(rc, MB_EDOM, "exact() past the meeting at %g returned %d", tm, rc);
    cr_expect(strstr(mb_last_error(), "rest") != NULL, "%s", mb_last_error());
    cr_expect_eq(pt->exact(p, 0.4, e), MB_EDOM);
    /* control: without the rest length the formula holds for all t */
    mb_options *in0 = mb_options_new(), *p0;
    mb_options_set_pair(in0, "u1=-5");
    cr_assert_eq(mb_problem_prepare("spring-pair", in0, &pt, &p0), MB_SUCCESS);
    cr_expect_eq(pt->exact(p0, 0.4, e), MB_SUCCESS, "%s", mb_last_error());
    mb_nodes_free(e);
    mb_options_free(in);
    mb_options_free(p);
    mb_options_free(in0);
    mb_options_free(p0);
}

Test(problems, harmonic)
{
    check_closed_form("harmonic", (const char *const[]){ "k=3.3", "v0=0.7", NULL }, 2.0);
}

/* Negative control: the damped closed form with the sign of gamma x0 flipped. */
static int damped_wrong(const mb_options *p, double t, mb_nodes *out)
{
    double m = mb_options_double(p, "mass"), k = mb_options_double(p, "k");
    double c = mb_options_double(p, "c"), x0 = mb_options_double(p, "x0");
    double v0 = mb_options_double(p, "v0"), g = c / (2 * m), q = k / m - g * g, w = sqrt(q);
    memset(out->x, 0, 3 * sizeof(double));
    memset(out->v, 0, 3 * sizeof(double));
    out->x[0] = exp(-g * t) * (x0 * cos(w * t) + (v0 - g * x0) * sin(w * t) / w);
    out->v[0] = exp(-g * t) * (v0 * cos(w * t) - (g * v0 + k / m * x0) * sin(w * t) / w);
    return MB_SUCCESS;
}

Test(problems, wrong_closed_form_is_caught)
{
    const mb_problem_type *pt;
    mb_options *p;
    mb_problem_prepare("damped", NULL, &pt, &p);
    mb_system *sys;
    pt->setup(p, &sys);
    double r = ode_residual(sys, p, damped_wrong, 3.0);
    cr_expect(r > 1e-3, "the wrong closed form passed (residual %g)", r);
    mb_system_free(sys);
    mb_options_free(p);
}

Test(problems, chain_geometry_and_pins)
{
    mb_system *sys = th_problem("spring-chain", (const char *const[]){ "n=23", "spacing=0.07", NULL });
    cr_expect_eq(sys->nodes->n, 23);
    cr_expect_eq(sys->nodes->blocked[0], MB_BLOCK_X | MB_BLOCK_Y | MB_BLOCK_Z);
    cr_expect_eq(sys->nodes->blocked[22], MB_BLOCK_X | MB_BLOCK_Y | MB_BLOCK_Z);
    cr_expect_eq(sys->nodes->blocked[11], 0);
    cr_expect(fabs(sys->nodes->x[3 * 22] - 22 * 0.07) <= 1e-15);
    cr_expect_eq(mb_springs_count(sys->forces->items[0].params), 22);
    mb_system_free(sys);
    sys = th_problem("spring-chain", (const char *const[]){ "n=5", "anchors=first", NULL });
    cr_expect(sys->nodes->blocked[0] != 0 && sys->nodes->blocked[4] == 0);
    mb_system_free(sys);
}

Test(problems, cloth_springs_and_pins)
{
    const size_t nx = 7, ny = 4;
    mb_system *sys = th_problem("cloth", (const char *const[]){ "nx=7", "ny=4", "pin=four", NULL });
    cr_expect_eq(sys->nodes->n, nx * ny);
    /* structural (nx-1) ny + nx (ny-1), shear 2 (nx-1)(ny-1) */
    size_t expected = (nx - 1) * ny + nx * (ny - 1) + 2 * (nx - 1) * (ny - 1);
    cr_expect_eq(mb_springs_count(sys->forces->items[0].params), expected);
    size_t pinned = 0;
    for (size_t i = 0; i < nx * ny; i++)
        pinned += sys->nodes->blocked[i] != 0;
    cr_expect_eq(pinned, 4);
    /* flat at rest: springs at rest length, so only gravity and drag act */
    mb_forces_eval(sys->forces, sys->nodes, 0.0);
    cr_expect(fabs(sys->nodes->f[3 * 10 + 1] + 0.0031 * 9.81) <= 1e-15, "f_y %g",
              sys->nodes->f[3 * 10 + 1]);
    mb_system_free(sys);
}

/* The size a problem declares from its parameters (mb_problem_type.nodes, used to refuse
 * a run too large for memory before it is built) against the system its set-up builds,
 * and against the size its documentation gives (expected, 0: the built one only): every
 * problem with the hook at its defaults, the chain and the cloth at other sizes. */
static void expect_declared_size(const char *name, const char *const *pairs, size_t expected)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    for (const char *const *kv = pairs; kv && *kv; kv++)
        cr_assert_eq(mb_options_set_pair(in, *kv), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_problem_prepare(name, in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_not_null(pt->nodes, "%s declares no size", name);
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(p, &sys), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(pt->nodes(p), sys->nodes->n, "%s: declares %zu nodes, builds %zu", name,
                 pt->nodes(p), sys->nodes->n);
    if (expected)
        cr_expect_eq(sys->nodes->n, expected, "%s: %zu nodes built, %zu documented", name,
                     sys->nodes->n, expected);
    mb_system_free(sys);
    mb_options_free(in);
    mb_options_free(p);
}

Test(problems, declared_sizes_are_the_built_sizes)
{
    size_t declaring = 0;
    for (const mb_problem_type *const *pt = mb_problems(); *pt; pt++)
        if ((*pt)->nodes) {
            expect_declared_size((*pt)->name, NULL, 0);
            declaring++;
        }
    cr_expect_geq(declaring, 2, "spring-chain and cloth declare their sizes");
    expect_declared_size("spring-chain", NULL, 16);                  /* n = 16 */
    expect_declared_size("cloth", NULL, 13 * 9);                     /* nx = 13, ny = 9 */
    expect_declared_size("spring-chain", (const char *const[]){ "n=23", NULL }, 23);
    expect_declared_size("cloth", (const char *const[]){ "nx=7", "ny=4", NULL }, 28);
    expect_declared_size("cloth", (const char *const[]){ "nx=2", "ny=31", NULL }, 62);
}

Test(problems, bad_parameters_are_rejected)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    mb_options_set(in, "kk", "3");
    cr_expect_eq(mb_problem_prepare("damped", in, &pt, &p), MB_ENOTFOUND);
    cr_expect(strstr(mb_last_error(), "did you mean 'k'") != NULL, "%s", mb_last_error());
    mb_options_free(in);
    in = mb_options_new();
    mb_options_set(in, "c", "nan");
    cr_expect_eq(mb_problem_prepare("damped", in, &pt, &p), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "c") != NULL);
    mb_options_free(in);
    in = mb_options_new();
    mb_options_set(in, "n", "1");
    cr_expect_eq(mb_problem_prepare("spring-chain", in, &pt, &p), MB_EDOM);
    mb_options_free(in);
    cr_expect_eq(mb_problem_prepare("spring-chian", NULL, &pt, &p), MB_ENOTFOUND);
    cr_expect(strstr(mb_last_error(), "did you mean 'spring-chain'") != NULL, "%s", mb_last_error());
}

/* Parameters inside their ranges whose derived rates leave the double range: w = sqrt(k/m)
 * = Inf for k = 1e300, m = 1e-300 (harmonic, damped, cundall-oscillator, spring-pair),
 * the drag rate D/m (projectile), the mean motion sqrt(mu/a^3) (kepler).  The closed
 * forms returned NaN states, cundall-oscillator's exact() never returned (zero-length
 * quarter cycles), and kepler's exact() aborted the process in GSL's default error
 * handler.  Setup and exact() must both fail with MB_EDOM naming the parameters (the
 * timeout catches a hang, a crash fails the test). */
static void refused(const char *name, const char *const *kv, const char *named)
{
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p;
    for (; *kv; kv++)
        cr_assert_eq(mb_options_set_pair(in, *kv), MB_SUCCESS);
    cr_assert_eq(mb_problem_prepare(name, in, &pt, &p), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys = NULL;
    cr_expect_eq(pt->setup(p, &sys), MB_EDOM, "%s: setup accepted", name);
    cr_expect(strstr(mb_last_error(), named) != NULL, "%s: %s", name, mb_last_error());
    mb_system_free(sys);
    mb_nodes *e = mb_nodes_alloc(2, 53);
    cr_expect_eq(pt->exact(p, 0.5, e), MB_EDOM, "%s: exact() accepted", name);
    mb_nodes_free(e);
    mb_options_free(in);
    mb_options_free(p);
}

Test(problems, derived_rates_out_of_double_range_are_refused, .timeout = 10.0)
{
    refused("harmonic", (const char *const[]){ "k=1e300", "mass=1e-300", NULL }, "mass");
    refused("damped", (const char *const[]){ "k=1e300", "mass=1e-300", NULL }, "mass");
    refused("damped", (const char *const[]){ "c=1e300", "mass=1e-300", NULL }, "mass");
    refused("cundall-oscillator", (const char *const[]){ "k=1e300", "mass=1e-300", NULL }, "mass");
    refused("spring-pair", (const char *const[]){ "k=1e300", "m0=1e-300", NULL }, "m0");
    refused("projectile", (const char *const[]){ "D=1e300", "mass=1e-300", NULL }, "mass");
    refused("kepler", (const char *const[]){ "mu=1e300", "a=1e-100", NULL }, "mu");
    /* controls: large but representable rates pass */
    check_closed_form("harmonic", (const char *const[]){ "k=1e6", "mass=1e-6", NULL }, 1e-5);
}
