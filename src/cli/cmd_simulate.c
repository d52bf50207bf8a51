/* cmd_simulate.c -- `motionbench simulate`: run one problem with one integrator and write
 * a time-series CSV of energies and every node's on-step state.
 *
 * Columns: t, energy_kinetic (translation + rotation), energy_potential, energy_dissipated,
 * energy_total (E = kinetic + potential), energy_external (W_ext, the work of external
 * loads), energy_error (E - E0 - W_ext, the runner's d(t) of energy_track.c), then
 * n<i>_x, _y, _z, _vx, _vy, _vz per node; every value printed with %.17g so it
 * round-trips.  Velocities are on-step (mb_stepper_on_step).  The dissipated work is
 * accumulated by the trapezoid rule on the dissipated power P = mb_forces_dissipation of
 * the on-step states before and after each step:  W += h (P_n + P_{n+1}) / 2
 * (second-order accurate; exact for constant power), plus the work a history-dependent
 * law books itself (mb_forces_history_work: a frictional contact's slip).  W_ext is the
 * runner's (mb_external_work, src/metrics/external_work.c) plus the same laws' booked
 * external work (Hertz-Mindlin's stiffness change).
 * With --precision mpfr:BITS the MPFR twin of the scheme integrates a twin of the system;
 * its state is rounded to double for output.  At mpfr:53 MPFR is restricted to double's
 * exponent range, so a scheme whose two instances perform the same operations prints the
 * same bytes as the double run.  The file is written under a temporary name and renamed. */
#include "cli.h"
#include "cli_options.h"
#include "mb_timestep.h"
#include "mb_energy.h"
#include "mb_external.h"
#include "mb_number_text.h"
#include "mb_mpfr_extra.h"
#include "mb_problem.h"
#include "mb_stepper.h"
#include "mb_cancel.h"
#include "mb_input.h"
#include "mb_memory.h"
#include "mb_metrics.h"
#include "mb_output.h"
#include "mb_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct sim_args {
    const char *problem, *integrator, *output;
    double dt, t_end;           /* t_end NaN: not given */
    int have_dt;                /* --dt given */
    int dt_auto;                /* --dt auto[:DT0]: DynDt-style adaptive step */
    double dt_safety, dt_max_rel_inc;
    long every;
    long mpfr_bits;             /* 0: double */
    int stats;
    double memory_limit;        /* --memory-limit (0: the memory available) */
    double timeout;             /* --timeout of an outside program (0: its descriptor's) */
    mb_options *params;
};

static void sim_usage(FILE *out)
{
    fprintf(out,
        "usage: motionbench simulate -p PROBLEM -i SPEC --dt DT --t-end T [--set key=value]...\n"
        "                            [--every N] [-o FILE] [--precision double|mpfr:BITS] [--stats]\n"
        "                            [--memory-limit SIZE] [--adapters DIR]... [--timeout S]\n"
        "  Integrates PROBLEM (motionbench list problems) with the integrator SPEC\n"
        "  (\"name[k=v,...]\", motionbench list integrators) from t = 0 to T in steps DT (the\n"
        "  last step is shortened when T is not a multiple of DT) and writes a CSV:\n"
        "    t,energy_kinetic,energy_potential,energy_dissipated,energy_total,energy_external,\n"
        "    energy_error,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz,...   (17 significant digits,\n"
        "    on-step velocities)\n"
        "  energy_total E = kinetic + potential; energy_dissipated = trapezoid-rule integral of\n"
        "  the dissipated power; energy_external W_ext = work of external loads (as motionbench\n"
        "  run); energy_error = E - E0 - W_ext.\n"
        "  --dt auto[:DT0]   adapt the step as Woo's DynDt: start at safety x the critical step\n"
        "                    sqrt(2) min sqrt(m/k) of the initial state (or at DT0 when no spring\n"
        "                    or contact acts yet), then after every step shrink at once to\n"
        "                    safety x the critical step or grow by at most a relative max-rel-inc\n"
        "  --dt-safety S     safety factor of --dt auto, in (0, 1] (default 0.9)\n"
        "  --dt-max-rel-inc R  largest relative growth of the step per step (default 1e-4)\n"
        "  -p, --problem NAME  the problem; -i, --integrator SPEC  the integrator\n"
        "  --set key=value   problem parameter (repeatable; see list problems --verbose)\n"
        "  --every N         write every N-th step (default 1; the last step is always written)\n"
        "  -o, --output FILE output file (default: standard output)\n"
        "  --precision P     double (default) or mpfr:BITS to run the scheme's MPFR twin\n"
        "  --stats           print step/iteration counters to standard error\n"
        "  --memory-limit SIZE  refuse a run whose estimated memory exceeds SIZE (e.g. 8G;\n"
        "                    default: the memory available); rows are written as they come\n"
        "  -i external:NAME[k=v,...]  run an outside program through its adapter\n"
        "                    (doc/external.md) at the fixed step DT (T a multiple of DT);\n"
        "                    its trajectory is written as above (mid-step velocities made\n"
        "                    on-step); not with --dt auto, --precision mpfr or --stats\n"
        "  --adapters DIR    search DIR first for NAME.adapter (repeatable)\n"
        "  --timeout S       time limit of the outside program, seconds (default: its\n"
        "                    descriptor's)\n"
        "Exit status: 0 success, 2 bad usage or input, or a failed step.\n");
}

/* --dt DT (a number > 0), or --dt auto[:DT0] (DT0: initial step, used while no stiffness
 * acts). */
static int parse_dt(void *ctx, const char *option, const char *v)
{
    struct sim_args *a = ctx;
    char *end;
    a->have_dt = 1;
    a->dt_auto = strncmp(v, "auto", 4) == 0;
    if (a->dt_auto && v[4] == '\0') {
        a->dt = 0.0;
        return MB_SUCCESS;
    }
    if (a->dt_auto && v[4] != ':')
        MB_ERROR(MB_EINVAL, "%s '%s': write auto or auto:DT0", option, v);
    const char *num = a->dt_auto ? v + 5 : v;
    errno = 0;
    a->dt = strtod(num, &end);
    if (end != num && *end == '\0' && mb_strtod_in_range(a->dt) && isfinite(a->dt)
        && a->dt > 0.0)
        return MB_SUCCESS;
    if (a->dt_auto)
        MB_ERROR(MB_EINVAL, "%s auto:%s: give the initial step DT0 as a number > 0", option, num);
    MB_ERROR(MB_EINVAL, "%s '%s': give a number > 0, or auto[:DT0]", option, v);
}

/* --precision double|mpfr:BITS, by the rule of case files (mb_input.h). */
static int parse_precision(void *ctx, const char *option, const char *v)
{
    char why[256];
    if (mb_precision_parse(v, ctx) == MB_SUCCESS)
        return MB_SUCCESS;
    mb_text_format(why, sizeof why, "%s", mb_last_error());   /* the slot is rewritten */
    MB_ERROR(MB_EINVAL, "%s: %s", option, why);
}

/* --adapters DIR: searched first for the descriptor of -i external:NAME. */
static int add_adapters(void *ctx, const char *option, const char *value)
{
    (void)ctx;
    struct stat sb;
    if (stat(value, &sb) != 0 || !S_ISDIR(sb.st_mode))
        MB_ERROR(MB_EINVAL, "%s '%s': not a directory", option, value);
    return mb_adapter_path_add(value);
}

/* MB_CLI_PARSED: simulate, MB_CLI_HELP: help printed, < 0: error in mb_last_error
 * (USAGE_PRINTED: a required option is missing, said with the usage). */
enum { USAGE_PRINTED = 2 };
static int parse_args(int argc, char **argv, struct sim_args *a)
{
    const mb_cli_option options[] = {
        { .name = "--problem", .letter = 'p', .kind = MB_CLI_STRING, .dest = &a->problem,
          .value = "a problem name", .flags = MB_CLI_ONCE },
        { .name = "--integrator", .letter = 'i', .kind = MB_CLI_STRING, .dest = &a->integrator,
          .value = "an integrator", .flags = MB_CLI_ONCE },
        { .name = "--output", .letter = 'o', .kind = MB_CLI_STRING, .dest = &a->output,
          .value = "a file name", .flags = MB_CLI_ONCE },
        { .name = "--dt", .kind = MB_CLI_CALL, .call = parse_dt, .ctx = a,
          .value = "a time step or auto[:DT0]", .flags = MB_CLI_ONCE },
        { .name = "--dt-safety", .kind = MB_CLI_DOUBLE, .dest = &a->dt_safety,
          .value = "a number", .flags = MB_CLI_ONCE, .min = 0.0, .min_open = 1, .max = 1.0 },
        { .name = "--dt-max-rel-inc", .kind = MB_CLI_DOUBLE, .dest = &a->dt_max_rel_inc,
          .value = "a number", .flags = MB_CLI_ONCE, .min = 0.0, .max = INFINITY },
        { .name = "--t-end", .kind = MB_CLI_DOUBLE, .dest = &a->t_end, .value = "a time",
          .flags = MB_CLI_ONCE, .min = 0.0, .max = INFINITY },
        { .name = "--every", .kind = MB_CLI_INTEGER, .dest = &a->every, .value = "a number",
          .flags = MB_CLI_ONCE, .min = 1, .max = 1e9 },
        { .name = "--precision", .kind = MB_CLI_CALL, .call = parse_precision,
          .ctx = &a->mpfr_bits, .value = "double or mpfr:BITS", .flags = MB_CLI_ONCE },
        { .name = "--memory-limit", .kind = MB_CLI_SIZE, .dest = &a->memory_limit,
          .value = "a size, e.g. 8G", .flags = MB_CLI_ONCE },
        { .name = "--set", .kind = MB_CLI_CALL, .call = mb_cli_set_param, .ctx = a->params,
          .value = "KEY=VALUE" },
        { .name = "--stats", .kind = MB_CLI_FLAG, .dest = &a->stats },
        { .name = "--adapters", .kind = MB_CLI_CALL, .call = add_adapters, .ctx = NULL,
          .value = "a directory" },
        { .name = "--timeout", .kind = MB_CLI_DOUBLE, .dest = &a->timeout,
          .value = "a number of seconds", .flags = MB_CLI_ONCE, .min = 0.0, .min_open = 1,
          .max = 1e9 },
    };
    const mb_cli_command cmd = { "simulate", options, sizeof options / sizeof *options,
                                 sim_usage, NULL, 0, NULL };
    size_t n = 0;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    if (st != MB_CLI_PARSED)
        return st;
    if (!a->problem || !a->integrator || !a->have_dt || isnan(a->t_end)) {
        fprintf(stderr, "motionbench: simulate: -p, -i, --dt and --t-end are required\n");
        sim_usage(stderr);
        return USAGE_PRINTED;
    }
    if (!a->dt_auto && a->t_end / a->dt > 1e9)
        MB_ERROR(MB_EINVAL, "--t-end / --dt = %g steps is more than 1e9", a->t_end / a->dt);
    return MB_CLI_PARSED;
}

/* Columns: energies, then per node position and velocity and, for schemes that integrate
 * rotation, orientation quaternion (w, x, y, z) and global angular velocity. */
static void write_header(FILE *f, size_t n, int rotation)
{
    fprintf(f, "t,energy_kinetic,energy_potential,energy_dissipated,energy_total,"
            "energy_external,energy_error");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, ",n%zu_x,n%zu_y,n%zu_z,n%zu_vx,n%zu_vy,n%zu_vz", i, i, i, i, i, i);
        if (rotation)
            fprintf(f, ",n%zu_qw,n%zu_qx,n%zu_qy,n%zu_qz,n%zu_wx,n%zu_wy,n%zu_wz",
                    i, i, i, i, i, i, i);
    }
    fputc('\n', f);
}

/* The energies of the on-step state on; e0 the total at t = 0 */
static void write_row(FILE *f, const mb_system *sys, double t, double dissipated, double e0,
                      const mb_nodes *on, int rotation)
{
    double ek = mb_energy_kinetic_trans(on) + mb_energy_kinetic_rot(on);
    double ep = mb_forces_potential(sys->forces, on), hd, he;
    mb_forces_history_work(sys->forces, &hd, &he);
    double w_ext = sys->work.external + he;
    dissipated += hd;
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", t, ek, ep, dissipated, ek + ep,
            w_ext, ek + ep - e0 - w_ext);
    for (size_t i = 0; i < on->n; i++) {
        for (int a = 0; a < 3; a++)
            fprintf(f, ",%.17g", on->x[3 * i + a]);
        for (int a = 0; a < 3; a++)
            fprintf(f, ",%.17g", on->v[3 * i + a]);
        if (!rotation)
            continue;
        for (int a = 0; a < 4; a++)
            fprintf(f, ",%.17g", on->q[4 * i + a]);
        for (int a = 0; a < 3; a++)
            fprintf(f, ",%.17g", on->omega[3 * i + a]);
    }
    fputc('\n', f);
}

/* Number of steps and whether the last one is shortened to land on t_end. */
static long step_count(double dt, double t_end, int *shortened)
{
    double r = t_end / dt;
    long n = (long)llround(r);
    *shortened = 0;
    if (fabs(r - (double)n) > 1e-9 * (r > 1.0 ? r : 1.0)) {
        n = (long)ceil(r);
        *shortened = 1;
    }
    return n;
}

/* The time loop, for both bases: advance(), then on_step() fills `on` (double). */
struct sim_run {
    mb_system *sys;
    mb_system_mpfr *tw;
    mb_stepper *st;
    mb_nodes *on;
    mb_nodes_mpfr *on_twin;
    mb_external_work w_ext;     /* the work of external loads */
    double e0;                  /* E = kinetic + potential at t = 0 */
};

static int run_step(struct sim_run *r, double h)
{
    if (r->tw)
        return mb_stepper_step_twin(r->st, r->tw, h);
    return mb_stepper_step(r->st, r->sys, h);
}

static int run_on_step(struct sim_run *r)
{
    if (r->tw) {
        int s = mb_stepper_on_step_twin(r->st, r->tw, r->on_twin);
        return s == MB_SUCCESS ? mb_nodes_mpfr_get_double(r->on, r->on_twin) : s;
    }
    return mb_stepper_on_step(r->st, r->sys, r->on);
}

static double run_time(const struct sim_run *r) { return r->tw ? r->tw->t : r->sys->t; }

/* Work dissipated so far: force models (trapezoid rule, accumulated below) plus the
 * scheme's own damping (Cundall), which the scheme books itself. */
static double run_dissipated(const struct sim_run *r)
{
    double by_scheme = r->tw ? r->tw->dissipated_by_scheme : r->sys->dissipated_by_scheme;
    return r->sys->work.dissipated + by_scheme;
}

/* One step of h: advance, on-step state, dissipated work by the trapezoid rule. */
static int advance(struct sim_run *r, long k, double h, double *p_prev)
{
    int s = run_step(r, h);
    if (s == MB_SUCCESS)
        s = run_on_step(r);
    if (s != MB_SUCCESS) {
        fprintf(stderr, "motionbench simulate: step %ld (t = %.17g, h = %g) failed: %s\n", k,
                run_time(r), h, mb_last_error());
        return MB_EXIT_USAGE;
    }
    double p = mb_forces_dissipation(r->sys->forces, r->on);
    r->sys->work.dissipated += 0.5 * h * (*p_prev + p);
    *p_prev = p;
    r->sys->work.external = mb_external_work_step(&r->w_ext, r->sys->forces, r->on,
                                                  run_time(r), h);
    return MB_EXIT_OK;
}

/* A failed write (a full disk) or a SIGINT/SIGTERM ends the loop with exit 2; the
 * output file, if atomic, is then left as it was. */
static int stop_requested(FILE *out)
{
    if (ferror(out)) {
        fprintf(stderr, "motionbench simulate: cannot write the output: %s\n", strerror(errno));
        return MB_EXIT_USAGE;
    }
    if (mb_cancel_requested()) {
        fprintf(stderr, "motionbench simulate: interrupted; no output file was replaced\n");
        return MB_EXIT_USAGE;
    }
    return MB_EXIT_OK;
}

/* Fixed step dt; the last step is shortened to land on t_end. */
static int run_fixed(struct sim_run *r, const struct sim_args *a, FILE *out, int rotation,
                     double p_prev)
{
    int shortened;
    long n = step_count(a->dt, a->t_end, &shortened);
    for (long k = 1; k <= n; k++) {
        double h = (k == n && shortened) ? a->t_end - run_time(r) : a->dt;
        int rc = advance(r, k, h, &p_prev);
        if (rc != MB_EXIT_OK)
            return rc;
        if (k % a->every == 0 || k == n)
            write_row(out, r->sys, run_time(r), run_dissipated(r), r->e0, r->on, rotation);
        if ((rc = stop_requested(out)) != MB_EXIT_OK)
            return rc;
    }
    return MB_EXIT_OK;
}

/* --dt auto: Woo's DynDt (doc/dem.md, "Time step"): the first step is
 * safety x the critical step of the initial state (or DT0 while no stiffness acts), and
 * after every step the next one shrinks at once to that bound or grows by at most
 * max_rel_inc. */
static int initial_auto_step(const struct sim_run *r, const struct sim_args *a, double *dt0)
{
    double crit;
    if (mb_timestep_critical(r->sys->forces, r->on, &crit) != MB_SUCCESS)
        return mb_cli_fail("simulate: --dt auto");
    *dt0 = isfinite(crit) ? a->dt_safety * crit : a->dt;
    if (a->dt > 0.0 && a->dt < *dt0)
        *dt0 = a->dt;
    if (!(*dt0 > 0.0)) {
        fprintf(stderr, "motionbench simulate: --dt auto: no spring or contact acts at t = 0, "
                "so there is no critical step yet; give the initial step as --dt auto:DT0\n");
        return MB_EXIT_USAGE;
    }
    return MB_EXIT_OK;
}

static int run_adaptive(struct sim_run *r, const struct sim_args *a, FILE *out, int rotation,
                        double p_prev, double dt0)
{
    mb_dyndt *d = mb_dyndt_alloc(r->on->n, dt0, a->dt_safety, a->dt_max_rel_inc);
    if (d == NULL)
        return mb_cli_fail("simulate: --dt auto");
    int rc = MB_EXIT_OK;
    double h_min = INFINITY, h_max = 0.0;
    for (long k = 1; rc == MB_EXIT_OK && run_time(r) < a->t_end; k++) {
        if (k > 1000000000L) {
            fprintf(stderr, "motionbench simulate: --dt auto: more than 1e9 steps (dt %g)\n", d->dt);
            rc = MB_EXIT_USAGE;
            break;
        }
        double left = a->t_end - run_time(r), h = d->dt;
        int last = left <= h * (1.0 + 1e-12);
        if (last)
            h = left;
        rc = advance(r, k, h, &p_prev);
        if (rc == MB_EXIT_OK && mb_dyndt_update(d, r->sys->forces, r->on) != MB_SUCCESS)
            rc = mb_cli_fail("simulate: --dt auto");
        if (rc == MB_EXIT_OK && (k % a->every == 0 || last))
            write_row(out, r->sys, run_time(r), run_dissipated(r), r->e0, r->on, rotation);
        if (rc == MB_EXIT_OK)
            rc = stop_requested(out);
        if (!last) {
            h_min = h < h_min ? h : h_min;
            h_max = h > h_max ? h : h_max;
        }
        if (last)
            break;
    }
    if (rc == MB_EXIT_OK && a->stats)
        fprintf(stderr, "dt auto: steps between %.6g and %.6g, last critical step %.6g\n",
                h_min, h_max, d->last_critical);
    mb_dyndt_free(d);
    return rc;
}

static int simulate(struct sim_run *r, const struct sim_args *a, FILE *out)
{
    if (run_on_step(r) != MB_SUCCESS)
        return mb_cli_fail("simulate");
    double dt0 = 0.0;
    if (a->dt_auto) {
        int rc = initial_auto_step(r, a, &dt0);
        if (rc != MB_EXIT_OK)
            return rc;
    }
    if (mb_external_work_begin(&r->w_ext, r->sys->forces, r->on, a->dt_auto ? dt0 : a->dt)
        != MB_SUCCESS)
        return mb_cli_fail("simulate");
    r->e0 = mb_energy_kinetic_trans(r->on) + mb_energy_kinetic_rot(r->on)
            + mb_forces_potential(r->sys->forces, r->on);
    int rotation = (r->st->type->flags & MB_STEPPER_ROTATION) != 0;
    write_header(out, r->on->n, rotation);
    write_row(out, r->sys, run_time(r), run_dissipated(r), r->e0, r->on, rotation);
    double p_prev = mb_forces_dissipation(r->sys->forces, r->on);
    if (a->dt_auto)
        return run_adaptive(r, a, out, rotation, p_prev, dt0);
    return run_fixed(r, a, out, rotation, p_prev);
}

/* The estimate of the scheme's memory (mb_memory.h) against --memory-limit or the memory
 * available: before the problem is built when its size follows from its parameters
 * (mb_problem_type.nodes), else once it is built; before the scheme allocates anything. */
static int fits_in_memory(size_t nodes, size_t links, const struct sim_args *a)
{
    mb_memory_estimate e;
    mb_memory_estimate_simulate(nodes, links, a->integrator, a->mpfr_bits, &e);
    char what[160];
    snprintf(what, sizeof what, "-p %s (%zu node%s)", a->problem, nodes, nodes == 1 ? "" : "s");
    return mb_memory_check(&e, a->memory_limit, what);
}

static int prepare_run(struct sim_run *r, const struct sim_args *a)
{
    const mb_problem_type *pt;
    mb_options *p;
    if (mb_problem_prepare(a->problem, a->params, &pt, &p) != MB_SUCCESS)
        return mb_cli_fail("simulate");
    if (pt->nodes && fits_in_memory(pt->nodes(p), pt->links ? pt->links(p) : 0, a) != MB_SUCCESS) {
        mb_options_free(p);
        return mb_cli_fail("simulate");
    }
    int s = pt->setup(p, &r->sys);
    mb_options_free(p);
    if (s != MB_SUCCESS)
        return mb_cli_fail("simulate: problem setup");
    if (!pt->nodes && fits_in_memory(r->sys->nodes->n, mb_forces_links(r->sys->forces), a)
                      != MB_SUCCESS)
        return mb_cli_fail("simulate");
    r->on = mb_nodes_alloc(r->sys->nodes->n, 53);
    if (a->mpfr_bits) {
        r->tw = mb_system_mpfr_alloc_twin(r->sys, (mpfr_prec_t)a->mpfr_bits);
        r->on_twin = r->tw ? mb_nodes_mpfr_alloc(r->sys->nodes->n, (mpfr_prec_t)a->mpfr_bits) : NULL;
        r->st = r->on_twin ? mb_stepper_alloc_twin(a->integrator, r->tw) : NULL;
    } else {
        r->st = mb_stepper_alloc(a->integrator, r->sys);
    }
    if (r->st == NULL || r->on == NULL)
        return mb_cli_fail("simulate");
    return MB_EXIT_OK;
}

static void print_stats(const struct sim_run *r)
{
    mb_stepper_stats s;
    if (r->tw) {
        fprintf(stderr, "no counters: MPFR twins keep no iteration statistics\n");
        return;
    }
    mb_stepper_get_stats(r->st, &s);
    fprintf(stderr, "steps %lu, newton_iterations %lu (max %lu per step), linear_iterations %lu\n",
            s.steps, s.newton_iterations, s.max_newton_iterations, s.linear_iterations);
}

/* ---- -i external:NAME: an outside program through its adapter (doc/external.md) ---- */

/* What an outside program cannot do here: an adaptive step, an MPFR twin, counters, a
 * shortened last step (it is asked for the rows t = k DT only). */
static int external_usable(const struct sim_args *a, long *steps)
{
    int shortened;
    if (a->dt_auto)
        MB_ERROR(MB_EINVAL, "--dt auto: %s runs at a fixed step; give --dt DT", a->integrator);
    if (a->mpfr_bits)
        MB_ERROR(MB_EINVAL, "--precision mpfr:%ld: %s computes in its own arithmetic; give "
                 "--precision double", a->mpfr_bits, a->integrator);
    if (a->stats)
        MB_ERROR(MB_EINVAL, "--stats: %s keeps no counters motionbench can read", a->integrator);
    *steps = step_count(a->dt, a->t_end, &shortened);
    if (shortened || *steps < 1) {
        char t[32], dt[32];
        mb_number_text(t, sizeof t, a->t_end);
        mb_number_text(dt, sizeof dt, a->dt);
        MB_ERROR(MB_EINVAL, "--t-end %s is not a positive multiple of --dt %s: %s is asked for "
                 "the rows t = k DT", t, dt, a->integrator);
    }
    return MB_SUCCESS;
}

/* The rows of the trajectory as simulate writes a run: every --every-th row, the last one,
 * velocities on-step (mb_trajectory_synchronize when the adapter returns mid-step ones),
 * the dissipated work by the same trapezoid rule, the work of external loads by the same
 * tracker (mb_external_work). */
static int write_trajectory(const struct sim_args *a, mb_system *sys, const mb_trajectory *tr,
                            int mid_step, mb_nodes *on, FILE *out)
{
    double p_prev = 0.0, dissipated = 0.0, e0 = 0.0;
    mb_external_work w = { 0 };
    int rc = MB_EXIT_OK;
    write_header(out, on->n, tr->rotation);
    for (size_t k = 0; k < tr->n_rows && rc == MB_EXIT_OK; k++) {
        mb_trajectory_set_state(tr, k, on);
        if (mid_step && k > 0
            && mb_trajectory_synchronize(sys->forces, on, tr->t[k], a->dt, tr->rotation)
               != MB_SUCCESS)
            rc = mb_cli_fail("simulate");
        if (rc == MB_EXIT_OK && k == 0) {
            e0 = mb_energy_kinetic_trans(on) + mb_energy_kinetic_rot(on)
                 + mb_forces_potential(sys->forces, on);
            if (mb_external_work_begin(&w, sys->forces, on, a->dt) != MB_SUCCESS)
                rc = mb_cli_fail("simulate");
        }
        if (rc != MB_EXIT_OK)
            break;
        double p = mb_forces_dissipation(sys->forces, on);
        if (k > 0) {      /* steps of dt: the rows are at k dt (to 1e-9 dt) */
            dissipated += 0.5 * a->dt * (p_prev + p);
            sys->work.external = mb_external_work_step(&w, sys->forces, on, tr->t[k], a->dt);
        }
        p_prev = p;
        if (k == 0 || (long)k % a->every == 0 || k + 1 == tr->n_rows)
            write_row(out, sys, tr->t[k], dissipated, e0, on, tr->rotation);
        rc = stop_requested(out);
    }
    mb_external_work_free(&w);
    return rc;
}

/* Describe the run, execute the adapter, check the trajectory, then write it to the
 * output. */
static int run_external(const struct sim_args *a, const mb_problem_type *pt, mb_options *p,
                        mb_system *sys, long steps)
{
    mb_nodes *on = mb_nodes_alloc(sys->nodes->n, 53);
    if (on == NULL)
        return mb_cli_fail("simulate");
    /* the adapter returns every step (sample_every 1): simulate writes the rows itself */
    mb_external_run x = { .case_name = pt->name, .case_path = NULL, .integrator = a->integrator,
                          .problem = pt, .params = p, .sys = sys,
                          .rotation = mb_external_rotation(sys, on), .dt = a->dt,
                          .t_end = a->t_end, .timeout = a->timeout, .steps = steps,
                          .sample_every = 1 };
    mb_trajectory tr;
    int mid_step = 0, rc = MB_EXIT_OK;
    char reason[MB_EXTERNAL_REASON + 256];
    mb_process_status ps = mb_external_execute_one(&x, &tr, &mid_step, reason, sizeof reason);
    if (ps != MB_PROCESS_OK) {
        fprintf(stderr, "motionbench: simulate: %s%s\n",
                ps == MB_PROCESS_SKIPPED ? "skipped: " : "", reason);
        rc = MB_EXIT_USAGE;
    } else {
        mb_output out;
        if (mb_output_open(&out, a->output) != MB_SUCCESS) {
            rc = mb_cli_fail("simulate");
        } else {
            mb_cancel_catch_signals();
            rc = write_trajectory(a, sys, &tr, mid_step, on, out.f);
            if (mb_output_close(&out, rc == MB_EXIT_OK) != MB_SUCCESS && rc == MB_EXIT_OK)
                rc = mb_cli_fail("simulate");
        }
    }
    mb_trajectory_free(&tr);
    mb_nodes_free(on);
    return rc;
}

static int simulate_external(const struct sim_args *a)
{
    const mb_problem_type *pt;
    mb_options *p = NULL;
    mb_system *sys = NULL;
    long steps = 0;
    int rc;
    if (external_usable(a, &steps) != MB_SUCCESS
        || mb_problem_prepare(a->problem, a->params, &pt, &p) != MB_SUCCESS)
        rc = mb_cli_fail("simulate");
    else if (pt->nodes && fits_in_memory(pt->nodes(p), pt->links ? pt->links(p) : 0, a)
                          != MB_SUCCESS)
        rc = mb_cli_fail("simulate");
    else if (pt->setup(p, &sys) != MB_SUCCESS)
        rc = mb_cli_fail("simulate: problem setup");
    else
        rc = run_external(a, pt, p, sys, steps);
    mb_system_free(sys);
    mb_options_free(p);
    return rc;
}

int mb_cmd_simulate(int argc, char **argv)
{
    struct sim_args a = { .every = 1, .t_end = NAN, .dt_safety = MB_DT_SAFETY_DEFAULT,
                          .dt_max_rel_inc = MB_DT_MAX_REL_INC_DEFAULT };
    struct sim_run r = { 0 };
    a.params = mb_options_new();
    int p = a.params ? parse_args(argc, argv, &a) : MB_ENOMEM;
    int rc = p == MB_CLI_HELP ? MB_EXIT_OK : p == USAGE_PRINTED ? MB_EXIT_USAGE
           : p != MB_CLI_PARSED ? mb_cli_fail("simulate") : MB_EXIT_OK;
    mb_mpfr_range saved = { 0, 0 };
    int restricted = 0;
    if (p == MB_CLI_PARSED && mb_external_is_spec(a.integrator)) {
        rc = simulate_external(&a);
        mb_options_free(a.params);
        mb_adapter_path_clear();
        return rc;
    }
    if (p == MB_CLI_PARSED && a.mpfr_bits == 53) {
        saved = mb_mpfr_use_double_range();
        restricted = 1;
    }
    if (p == MB_CLI_PARSED)
        rc = prepare_run(&r, &a);
    if (rc == MB_EXIT_OK && r.st) {
        mb_output out;
        if (mb_output_open(&out, a.output) != MB_SUCCESS)
            rc = mb_cli_fail("simulate");
        if (rc == MB_EXIT_OK) {
            mb_cancel_catch_signals();
            rc = simulate(&r, &a, out.f);
            if (mb_output_close(&out, rc == MB_EXIT_OK) != MB_SUCCESS && rc == MB_EXIT_OK)
                rc = mb_cli_fail("simulate");
        }
        if (rc == MB_EXIT_OK && a.stats)
            print_stats(&r);
    }
    mb_external_work_free(&r.w_ext);
    mb_stepper_free(r.st);
    mb_nodes_free(r.on);
    mb_nodes_mpfr_free(r.on_twin);
    mb_system_mpfr_free(r.tw);
    mb_system_free(r.sys);
    mb_options_free(a.params);
    mb_adapter_path_clear();
    if (restricted)
        mb_mpfr_restore_range(saved);
    return rc;
}
