/* cmd_reference.c -- `motionbench reference`: the reference state of a problem at a time.
 *
 *   motionbench reference -p PROBLEM --t-end T [--set key=value]... [--method M]
 *   M = analytic | ode | mpfr[:BITS] | auto (default: analytic if the problem has a closed
 *   form, else mpfr at 256 bits)
 * Prints every node's on-step state with all significant digits of the method (17 for the
 * double methods, ceil(BITS log10 2) + 1 for mpfr, printed by mpfr_printf) and the
 * method's error estimate.  Exit 0, or 2 on bad input or a failed reference. */
#include "cli.h"
#include "cli_options.h"
#include "mb_cancel.h"
#include "mb_memory.h"
#include "mb_reference.h"
#include "mb_status.h"

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: motionbench reference -p PROBLEM --t-end T [--set key=value]...\n"
            "                             [--method analytic|ode|mpfr[:BITS]|auto]\n"
            "                             [--memory-limit SIZE]\n"
            "  Prints the reference state of PROBLEM at time T and its error estimate.\n"
            "  analytic  the problem's closed form (double)\n"
            "  ode       GSL rk8pd at tolerances 1e-12 and 1e-14; estimate = their difference\n"
            "  mpfr      Gragg-Bulirsch-Stoer extrapolation in MPFR (default 256 bits, >= 113);\n"
            "            estimate by step halving\n"
            "  auto      analytic when the problem has a closed form, else mpfr (default)\n"
            "  --memory-limit SIZE  refuse a reference whose estimated memory exceeds SIZE\n"
            "            (e.g. 8G; default: the memory available)\n"
            "  Problems and their parameters: motionbench list problems --verbose\n");
}

/* rotation is printed when any node can rotate or does */
static int has_rotation(const mb_nodes *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->aspherical[i] || s->q[4 * i] != 1.0)
            return 1;
        for (int k = 0; k < 3; k++)
            if (s->omega[3 * i + k] != 0.0 || s->angmom[3 * i + k] != 0.0)
                return 1;
    }
    return 0;
}

static void print_double_vec(const char *name, const double *a, int n)
{
    printf("  %-7s", name);
    for (int k = 0; k < n; k++)
        printf(" % .17e", a[k]);
    printf("\n");
}

static void print_mpfr_vec(const char *name, const __mpfr_struct *a, int n, int digits)
{
    printf("  %-7s", name);
    for (int k = 0; k < n; k++)
        mpfr_printf(" % .*Re", digits - 1, &a[k]);
    printf("\n");
}

static void print_double_state(const mb_nodes *s)
{
    int rot = has_rotation(s);
    for (size_t i = 0; i < s->n; i++) {
        printf("node %zu\n", i);
        print_double_vec("x", &s->x[3 * i], 3);
        print_double_vec("v", &s->v[3 * i], 3);
        if (rot) {
            print_double_vec("q", &s->q[4 * i], 4);
            print_double_vec("omega", &s->omega[3 * i], 3);
            print_double_vec("angmom", &s->angmom[3 * i], 3);
        }
    }
}

static void print_mpfr_state(const mb_nodes_mpfr *m, const mb_nodes *shape, int digits)
{
    int rot = has_rotation(shape);
    for (size_t i = 0; i < m->n; i++) {
        printf("node %zu\n", i);
        print_mpfr_vec("x", &m->x[3 * i], 3, digits);
        print_mpfr_vec("v", &m->v[3 * i], 3, digits);
        if (rot) {
            print_mpfr_vec("q", &m->q[4 * i], 4, digits);
            print_mpfr_vec("omega", &m->omega[3 * i], 3, digits);
            print_mpfr_vec("angmom", &m->angmom[3 * i], 3, digits);
        }
    }
}

struct ref_args {
    const char *problem, *method;
    double t_end;
    int have_t;
    mb_options *set;
    double memory_limit;     /* --memory-limit (0: the memory available) */
};

/* MB_CLI_PARSED: compute, MB_CLI_HELP: help printed, < 0: error in mb_last_error */
static int parse_args(int argc, char **argv, struct ref_args *a)
{
    const mb_cli_option options[] = {
        { .name = "--problem", .letter = 'p', .kind = MB_CLI_STRING, .dest = &a->problem,
          .value = "a problem name", .flags = MB_CLI_ONCE },
        { .name = "--t-end", .letter = 't', .kind = MB_CLI_DOUBLE, .dest = &a->t_end,
          .value = "a time", .flags = MB_CLI_ONCE, .min = 0.0, .max = INFINITY },
        { .name = "--set", .kind = MB_CLI_CALL, .call = mb_cli_set_param, .ctx = a->set,
          .value = "KEY=VALUE" },
        { .name = "--method", .kind = MB_CLI_STRING, .dest = &a->method,
          .value = "a method", .flags = MB_CLI_ONCE },
        { .name = "--memory-limit", .kind = MB_CLI_SIZE, .dest = &a->memory_limit,
          .value = "a size", .flags = MB_CLI_ONCE },
    };
    const mb_cli_command cmd = { "reference", options, sizeof options / sizeof *options, usage,
                                 NULL, 0, NULL };
    size_t n = 0;
    a->t_end = NAN;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    if (st != MB_CLI_PARSED)
        return st;
    a->have_t = !isnan(a->t_end);
    if (a->problem == NULL || !a->have_t)
        MB_ERROR(MB_EINVAL, "-p PROBLEM and --t-end T are required (see motionbench reference "
                 "--help)");
    return MB_CLI_PARSED;
}

/* The two header lines, printed once the reference has been computed (so a refusal
 * prints nothing on standard output). */
static void print_header(const mb_problem_type *pt, double t)
{
    printf("problem %s\nt       %.17g\n", pt->name, t);
}

/* The estimate of the method's memory (mb_memory.h) for `nodes` nodes against
 * --memory-limit or the memory available. */
static int fits_in_memory(const struct ref_args *a, size_t nodes, mb_reference_kind kind,
                          long mpfr_bits)
{
    mb_memory_estimate e;
    mb_memory_estimate_reference(nodes, kind, mpfr_bits, &e);
    char what[160];
    snprintf(what, sizeof what, "-p %s (%zu node%s) --method %s", a->problem, nodes,
             nodes == 1 ? "" : "s", a->method);
    return mb_memory_check(&e, a->memory_limit, what);
}

/* The problem built into *sys once its memory estimate fits, before the method allocates
 * anything: checked before the build when the size follows from the parameters
 * (mb_problem_type.nodes), else on the built system. */
static int build_within_memory(const struct ref_args *a, const mb_problem_type *pt,
                               const mb_options *params, mb_reference_kind kind,
                               long mpfr_bits, mb_system **sys)
{
    *sys = NULL;
    int st = pt->nodes ? fits_in_memory(a, pt->nodes(params), kind, mpfr_bits) : MB_SUCCESS;
    if (st == MB_SUCCESS)
        st = pt->setup(params, sys);
    if (st == MB_SUCCESS && !pt->nodes)
        st = fits_in_memory(a, (*sys)->nodes->n, kind, mpfr_bits);
    return st;
}

static int run_mpfr(const struct ref_args *a, const mb_problem_type *pt,
                    const mb_options *params, long bits)
{
    double t = a->t_end;
    mb_system *sys = NULL;
    if (build_within_memory(a, pt, params, MB_REF_MPFR, bits, &sys) != MB_SUCCESS) {
        mb_system_free(sys);
        return mb_cli_fail("reference");
    }
    mb_nodes_mpfr *m;
    double err;
    if (mb_reference_state_mpfr(pt, params, t, bits, &m, &err) != MB_SUCCESS) {
        mb_system_free(sys);
        return mb_cli_fail("reference");
    }
    mb_nodes *shape = mb_nodes_alloc(m->n, 53);
    mb_nodes_mpfr_get_double(shape, m);
    int digits = (int)ceil((double)bits * log10(2.0)) + 1;
    print_header(pt, t);
    printf("method  mpfr (%ld bits, Gragg-Bulirsch-Stoer extrapolation, %d digits)\n", bits, digits);
    printf("error_estimate %.3e  (max abs over x, v, q, L; step halving)\n", err);
    /* rotation is shown if the problem's initial state or the result rotates */
    print_mpfr_state(m, has_rotation(sys->nodes) ? sys->nodes : shape, digits);
    mb_nodes_free(shape);
    mb_system_free(sys);
    mb_nodes_mpfr_free(m);
    return MB_EXIT_OK;
}

static int run_double(const struct ref_args *a, const mb_problem_type *pt,
                      const mb_options *params, const mb_reference_request *req,
                      mb_reference_kind kind)
{
    double t = a->t_end;
    mb_system *sys = NULL;
    if (build_within_memory(a, pt, params, kind, 0, &sys) != MB_SUCCESS) {
        mb_system_free(sys);
        return mb_cli_fail("reference");
    }
    mb_nodes *out = mb_nodes_alloc(sys->nodes->n, 53);
    mb_nodes_copy(out, sys->nodes);
    mb_reference_kind used;
    double err;
    int st = mb_reference_state(pt, params, req, t, out, &used, &err);
    if (st == MB_SUCCESS) {
        print_header(pt, t);
        if (used == MB_REF_ANALYTIC)
            printf("method  analytic (closed form in double: %s)\n",
                   pt->exact_doc ? pt->exact_doc : pt->name);
        else
            printf("method  ode (GSL odeiv2 rk8pd, tolerances 1e-12 and 1e-14)\n");
        if (used == MB_REF_ANALYTIC)
            printf("error_estimate %.3e  (closed form in double: change over one ulp of t, plus one ulp of the state)\n", err);
        else
            printf("error_estimate %.3e  (max abs over x, v, q, L; two tolerances)\n", err);
        print_double_state(out);
    }
    mb_nodes_free(out);
    mb_system_free(sys);
    return st == MB_SUCCESS ? MB_EXIT_OK : mb_cli_fail("reference");
}

int mb_cmd_reference(int argc, char **argv)
{
    struct ref_args a = { NULL, "auto", 0.0, 0, mb_options_new(), 0.0 };
    int rc = parse_args(argc, argv, &a);
    if (rc != MB_CLI_PARSED) {
        mb_options_free(a.set);
        return rc == MB_CLI_HELP ? MB_EXIT_OK : mb_cli_fail("reference");
    }
    const mb_problem_type *pt;
    mb_options *params = NULL;
    mb_reference_request req;
    if (mb_problem_prepare(a.problem, a.set, &pt, &params) != MB_SUCCESS
        || mb_reference_parse(a.method, &req) != MB_SUCCESS) {
        mb_options_free(a.set);
        mb_options_free(params);
        return mb_cli_fail("reference");
    }
    mb_reference_kind kind = mb_reference_resolve(pt, req.kind);
    mb_cancel_catch_signals();   /* SIGINT/SIGTERM stop the integration: exit 2 */
    if (kind == MB_REF_MPFR)
        rc = run_mpfr(&a, pt, params, req.mpfr_bits);
    else
        rc = run_double(&a, pt, params, &req, kind);
    mb_options_free(a.set);
    mb_options_free(params);
    return rc;
}
