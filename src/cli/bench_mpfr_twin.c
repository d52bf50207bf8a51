/* bench_mpfr_twin.c -- `motionbench bench mpfr-twin`: what a same-scheme twin costs.
 *
 *   motionbench bench mpfr-twin [-p PROBLEM] [--set key=value]... [-i INTEGRATOR]...
 *                               [--bits 53,113,256] [--dt H] [--min-time S]
 * For every integrator with an MPFR twin (or those given with -i), the problem is set up,
 * the double scheme and its twin are stepped from the same state with the same dt, and
 * the CPU time per step (CLOCK_PROCESS_CPUTIME_ID) of each is measured over batches of
 * steps repeated until min-time seconds (default 0.2) have passed; the ratio twin/double
 * is printed per precision.  At 53 bits the twin runs in double's exponent range as in
 * the bit-identity tests.  Exit 0, 2 on bad input. */
#include "cli.h"
#include "bench_cpus.h"
#include "cli_options.h"
#include "mb_mpfr_extra.h"
#include "mb_problem.h"
#include "mb_status.h"
#include "mb_stepper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BITS 8
#define MAX_SCHEMES 64

static double cpu_now(void)
{
    struct timespec ts;
    mb_bench_cpus_note();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct bench_args {
    const char *problem;
    mb_options *set;
    const char *schemes[MAX_SCHEMES];
    size_t n_schemes;
    long bits[MAX_BITS];
    size_t n_bits;
    double dt, min_time;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: motionbench bench mpfr-twin [-p PROBLEM] [--set key=value]... [-i INTEGRATOR]...\n"
            "                                   [--bits 53,113,256] [--dt H] [--min-time S]\n"
            "  CPU cost of one MPFR twin step relative to one double step of the same scheme,\n"
            "  per precision.  Defaults: problem harmonic, every scheme with a twin, dt 1e-3,\n"
            "  0.2 s of stepping per measurement.\n");
}

/* --bits B1,B2,...: up to MAX_BITS precisions in [53, 100000]. */
static int parse_bits(void *ctx, const char *option, const char *text)
{
    struct bench_args *a = ctx;
    char *copy = strdup(text), *save = NULL;
    if (copy == NULL)
        MB_ERROR(MB_ENOMEM, "%s: out of memory", option);
    a->n_bits = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        long b = strtol(tok, &end, 10);
        if (*end != '\0' || b < 53 || b > 100000 || a->n_bits == MAX_BITS) {
            a->n_bits = 0;
            break;
        }
        a->bits[a->n_bits++] = b;
    }
    free(copy);
    if (a->n_bits == 0)
        MB_ERROR(MB_EINVAL, "%s '%s': give up to %d precisions in [53, 100000] separated by "
                 "commas", option, text, MAX_BITS);
    return MB_SUCCESS;
}

/* -i INTEGRATOR (repeatable, at most MAX_SCHEMES). */
static int add_scheme(void *ctx, const char *option, const char *name)
{
    struct bench_args *a = ctx;
    if (a->n_schemes == MAX_SCHEMES)
        MB_ERROR(MB_EINVAL, "%s: at most %d integrators", option, MAX_SCHEMES);
    a->schemes[a->n_schemes++] = name;
    return MB_SUCCESS;
}

/* 0: measure, 1: help printed, -1: error printed */
static int parse_args(int argc, char **argv, struct bench_args *a)
{
    const mb_cli_option options[] = {
        { .name = "--problem", .letter = 'p', .kind = MB_CLI_STRING, .dest = &a->problem,
          .value = "a problem name" },
        { .name = "--set", .kind = MB_CLI_CALL, .call = mb_cli_set_param, .ctx = a->set,
          .value = "KEY=VALUE" },
        { .name = "--integrator", .letter = 'i', .kind = MB_CLI_CALL, .call = add_scheme,
          .ctx = a, .value = "an integrator" },
        { .name = "--bits", .kind = MB_CLI_CALL, .call = parse_bits, .ctx = a,
          .value = "precisions" },
        { .name = "--dt", .kind = MB_CLI_DOUBLE, .dest = &a->dt, .value = "a step",
          .min = 0.0, .min_open = 1, .max = 1e6 },
        { .name = "--min-time", .kind = MB_CLI_DOUBLE, .dest = &a->min_time, .value = "seconds",
          .min = 0.0, .min_open = 1, .max = 1e6 },
    };
    const mb_cli_command cmd = { "bench mpfr-twin", options, sizeof options / sizeof *options,
                                 usage, NULL, 0, NULL };
    size_t n = 0;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    if (st < 0)
        fprintf(stderr, "motionbench bench mpfr-twin: %s\n", mb_last_error());
    return st == MB_CLI_HELP ? 1 : st == MB_CLI_PARSED ? 0 : -1;
}

/* CPU seconds per step of the double scheme (twin == NULL) or of its twin. */
static int time_steps(const mb_stepper_type *type, const mb_options *opts, const mb_problem_type *pt,
                      const mb_options *params, long bits, double dt, double min_time,
                      double *per_step, unsigned long *steps)
{
    mb_system *sys = NULL;
    mb_system_mpfr *tw = NULL;
    void *state = NULL;
    int st = pt->setup(params, &sys);
    if (st != MB_SUCCESS)
        return st;
    if (bits > 0) {
        tw = mb_system_mpfr_alloc_twin(sys, (mpfr_prec_t)bits);
        st = tw ? type->alloc_mpfr(&state, opts, tw) : MB_ENOMEM;
    } else {
        st = type->alloc(&state, opts, sys);
    }
    unsigned long n = 0, batch = 16;
    double t0 = cpu_now(), el = 0.0;
    while (st == MB_SUCCESS && el < min_time) {
        for (unsigned long k = 0; k < batch && st == MB_SUCCESS; k++)
            st = bits > 0 ? type->step_mpfr(state, tw, dt) : type->step(state, sys, dt);
        n += batch;
        batch *= 2;
        el = cpu_now() - t0;
    }
    if (state)
        bits > 0 ? type->free_mpfr(state) : type->free(state);
    mb_system_mpfr_free(tw);
    mb_system_free(sys);
    *per_step = n ? el / (double)n : 0.0;
    *steps = n;
    return st;
}

static int bench_scheme(const mb_stepper_type *type, const mb_problem_type *pt,
                        const mb_options *params, const struct bench_args *a)
{
    mb_options *opts = mb_options_new();
    char what[160];
    snprintf(what, sizeof what, "integrator '%s'", type->name);
    int st = mb_options_validate(opts, type->options, what);
    double td = 0, tt;
    unsigned long nd = 0, nt;
    if (st == MB_SUCCESS)
        st = time_steps(type, opts, pt, params, 0, a->dt, a->min_time, &td, &nd);
    for (size_t b = 0; b < a->n_bits && st == MB_SUCCESS; b++) {
        mb_mpfr_range saved = { mpfr_get_emin(), mpfr_get_emax() };
        if (a->bits[b] == 53)
            saved = mb_mpfr_use_double_range();
        st = time_steps(type, opts, pt, params, a->bits[b], a->dt, a->min_time, &tt, &nt);
        mb_mpfr_restore_range(saved);
        if (st == MB_SUCCESS)
            printf("%-28s %6ld %14.1f %14.1f %10.1f\n", type->name, a->bits[b], 1e9 * td,
                   1e9 * tt, tt / td);
    }
    mb_options_free(opts);
    if (st != MB_SUCCESS)
        fprintf(stderr, "motionbench bench mpfr-twin: %s: %s\n", type->name, mb_last_error());
    return st;
}

int mb_bench_mpfr_twin(int argc, char **argv)
{
    struct bench_args a = { "harmonic", mb_options_new(), { 0 }, 0, { 53, 113, 256 }, 3, 1e-3, 0.2 };
    int rc = parse_args(argc, argv, &a);
    const mb_problem_type *pt = NULL;
    mb_options *params = NULL;
    if (rc == 0 && mb_problem_prepare(a.problem, a.set, &pt, &params) != MB_SUCCESS) {
        fprintf(stderr, "motionbench bench mpfr-twin: %s\n", mb_last_error());
        rc = -1;
    }
    const mb_stepper_type *list[MAX_SCHEMES];
    size_t n = 0;
    for (size_t k = 0; rc == 0 && k < a.n_schemes; k++) {
        const mb_stepper_type *type;
        mb_options *o;
        if (mb_stepper_parse(a.schemes[k], &type, &o) != MB_SUCCESS) {
            fprintf(stderr, "motionbench bench mpfr-twin: %s\n", mb_last_error());
            rc = -1;
        } else if (type->alloc_mpfr == NULL) {
            fprintf(stderr, "motionbench bench mpfr-twin: integrator '%s' has no MPFR twin\n", type->name);
            rc = -1;
        } else {
            list[n++] = type;
        }
        mb_options_free(o);
    }
    if (rc == 0 && a.n_schemes == 0)
        for (const mb_stepper_type *const *t = mb_steppers(); *t && n < MAX_SCHEMES; t++)
            if ((*t)->alloc_mpfr && !((*t)->flags & MB_STEPPER_NEGATIVE))
                list[n++] = *t;
    if (rc == 0) {
        printf("# motionbench bench mpfr-twin: CPU time of one step, twin / double\n");
        printf("# problem %s, dt %g, >= %g s of stepping per figure\n", pt->name, a.dt, a.min_time);
        printf("%-28s %6s %14s %14s %10s\n", "integrator", "bits", "double_ns", "twin_ns", "ratio");
        for (size_t k = 0; k < n; k++)
            if (bench_scheme(list[k], pt, params, &a) != MB_SUCCESS)
                rc = -1;
    }
    mb_options_free(a.set);
    mb_options_free(params);
    return rc > 0 ? 0 : rc < 0 ? 2 : 0;
}
