/* cmd_score.c -- `motionbench score -p PROBLEM [--set k=v]... [--t-end T] TRAJ.csv ...`:
 * trajectories produced elsewhere, scored against the problem's reference exactly as the
 * runs of a case (doc/external.md, section 6).
 *
 * Each file is one run: it must have the columns of the problem (as `simulate` writes
 * them; energy_* columns are ignored, the rotation columns are taken when present and
 * required when the problem rotates), rows evenly spaced from t = 0, and every file the
 * same end time.  Its time step is its row spacing; several files give the orders.  The
 * files are validated before anything is scored: a defect is "FILE: line L: what", exit 2.
 * The metrics are printed; with -o DIR the report files of `run` are written there.
 * Exit: 0 every run ok, 1 a run diverged or failed, 2 bad input or usage. */
#include "cli.h"
#include "cli_options.h"
#include "mb_case.h"
#include "mb_external.h"
#include "mb_cancel.h"
#include "mb_input.h"
#include "mb_output.h"
#include "mb_report.h"
#include "mb_runner.h"
#include "mb_status.h"
#include "mb_text.h"

#include <math.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 64           /* MB_ORDER_MAX_POINTS */

static void help(FILE *out)
{
    fprintf(out,
        "usage: motionbench score -p PROBLEM [--set key=value]... [--t-end T]\n"
        "                         [--reference KIND] [--mid-step] [--trajectory-limit SIZE]\n"
        "                         [-o DIR] TRAJ.csv ...\n\n"
        "Score trajectories produced elsewhere against the reference of PROBLEM: errors at\n"
        "the end, energy and invariants recomputed from the returned states, and the orders\n"
        "over several files at different time steps.  Columns: t, then per node\n"
        "x,y,z,vx,vy,vz[,qw,qx,qy,qz,wx,wy,wz] (what simulate writes); rows evenly spaced\n"
        "from t = 0; the time step of a file is its row spacing.\n\n"
        "  -p, --problem NAME   the problem (motionbench list problems)\n"
        "      --set KEY=VALUE  a problem parameter (repeatable)\n"
        "      --t-end T        the end time every file must reach (default: its last row)\n"
        "      --reference KIND analytic | ode | mpfr | auto (default auto)\n"
        "      --mid-step       velocity columns hold v(t - dt/2), w(t - dt/2)\n"
        MB_CLI_TRAJECTORY_LIMIT_HELP
        "  -o, --output DIR     also write runs.csv, metrics.csv, checks.csv, timing.csv\n"
        "  -h, --help           this text\n\n"
        "Exit status: 0 every run ok, 1 a run diverged or failed, 2 bad input or usage.\n");
}

typedef struct score_args {
    const char *problem, *output, *reference;
    mb_options *params;
    double t_end;                /* NaN: not given */
    int mid_step;
    size_t n_files;
    const char *files[MAX_FILES];
} score_args;

/* MB_CLI_PARSED: score, MB_CLI_HELP: help printed, < 0: error in mb_last_error */
static int parse_args(int argc, char **argv, score_args *A)
{
    const mb_cli_option options[] = {
        { .name = "--problem", .letter = 'p', .kind = MB_CLI_STRING, .dest = &A->problem,
          .value = "a problem name" },
        { .name = "--output", .letter = 'o', .kind = MB_CLI_STRING, .dest = &A->output,
          .value = "a directory" },
        { .name = "--reference", .kind = MB_CLI_STRING, .dest = &A->reference,
          .value = "a reference kind" },
        { .name = "--set", .kind = MB_CLI_CALL, .call = mb_cli_set_param, .ctx = A->params,
          .value = "KEY=VALUE" },
        { .name = "--t-end", .kind = MB_CLI_DOUBLE, .dest = &A->t_end, .value = "a time",
          .min = 0.0, .min_open = 1, .max = INFINITY },
        { .name = "--mid-step", .kind = MB_CLI_FLAG, .dest = &A->mid_step },
        { .name = "--trajectory-limit", .kind = MB_CLI_CALL, .call = mb_cli_trajectory_limit,
          .value = "a size, e.g. 2G", .flags = MB_CLI_ONCE },
    };
    const mb_cli_command cmd = { "score", options, sizeof options / sizeof *options, help,
                                 A->files, MAX_FILES, "trajectory files" };
    int st = mb_cli_options_parse(&cmd, argc, argv, &A->n_files);
    if (st != MB_CLI_PARSED)
        return st;
    if (A->problem == NULL || A->n_files == 0)
        MB_ERROR(MB_EINVAL, "give -p PROBLEM and at least one trajectory file (see --help)");
    return MB_CLI_PARSED;
}

/* 1 when the header line of the text names the rotation column n0_qw. */
static int has_rotation_columns(const char *text)
{
    const char *end = strchr(text, '\n'), *col = strstr(text, "n0_qw");
    return col != NULL && (end == NULL || col < end);
}

/* Read and validate one file (a regular file within the cap of a trajectory, mb_input.h);
 * fill its time step and step count. */
static int load_file(const char *path, size_t n_nodes, mb_trajectory *tr, double *dt,
                     long *steps, double *t_end)
{
    char why[240], *text;
    size_t len;
    if (mb_input_read_all(path, MB_INPUT_TRAJECTORY, &text, &len) != MB_SUCCESS)
        return mb_last_error_code();
    mb_trajectory_request rq = { n_nodes, has_rotation_columns(text), 0, NULL, 0.0 };
    int st = mb_trajectory_parse(text, len, &rq, tr, why, sizeof why);
    free(text);
    if (st != MB_SUCCESS)
        MB_ERROR(MB_EINVAL, "%s: %s", path, why);
    double t0 = tr->t[0], t1 = tr->t[tr->n_rows - 1];
    *steps = (long)tr->n_rows - 1;
    *dt = t1 / (double)*steps;
    *t_end = t1;
    if (fabs(t0) > 1e-9 * *dt)
        MB_ERROR(MB_EINVAL, "%s: line 2: the first row is at t = %.17g, not 0", path, t0);
    return MB_SUCCESS;
}

static int same_end(const score_args *A, const mb_case *c, size_t j, double t_end)
{
    double want = isnan(A->t_end) ? c->t_end : A->t_end;
    if (fabs(t_end - want) > 1e-9 * c->dt[j] + 1e-12 * want)
        MB_ERROR(MB_EINVAL, "%s: ends at t = %.17g, expected %.17g (%s)", A->files[j], t_end,
                 want, isnan(A->t_end) ? "the end of the first file" : "--t-end");
    return MB_SUCCESS;
}

/* File j: read, validated against the problem's initial state sys (row 0, stale rows:
 * mb_trajectory_check), its time step set. */
static int add_file(const score_args *A, mb_case *c, const mb_system *sys, size_t j,
                    mb_trajectory *tr)
{
    double t_end = 0.0;
    char why[300];
    if (load_file(A->files[j], sys->nodes->n, tr, &c->dt[j], &c->steps[j], &t_end)
        != MB_SUCCESS)
        return MB_EINVAL;
    if (j == 0)
        c->t_end = isnan(A->t_end) ? t_end : A->t_end;
    if (same_end(A, c, j, t_end) != MB_SUCCESS)
        return MB_EINVAL;
    /* steps * dt lands on the end time, as in a case file (rows accumulated by
     * repeated addition of dt end a few ulps away from --t-end) */
    c->dt[j] = c->t_end / (double)c->steps[j];
    if (mb_trajectory_check(tr, c->problem, sys, c->dt[j], why, sizeof why) != MB_SUCCESS)
        MB_ERROR(MB_EINVAL, "%s: %s", A->files[j], why);
    return MB_SUCCESS;
}

/* The case that stands for the files: integrator "score", one dt per file. */
static int build_case(const score_args *A, mb_case *c, mb_trajectory *trs)
{
    const mb_problem_type *pt;
    char name[96];
    if (mb_problem_prepare(A->problem, A->params, &pt, &c->params) != MB_SUCCESS)
        return MB_EINVAL;
    c->problem = pt;
    snprintf(name, sizeof name, "score-%s", pt->name);
    c->name = strdup(name);
    c->integrators = calloc(1, sizeof *c->integrators);
    c->dt = calloc(A->n_files, sizeof *c->dt);
    c->steps = calloc(A->n_files, sizeof *c->steps);
    if (!c->name || !c->integrators || !c->dt || !c->steps
        || !(c->integrators[0] = strdup("score")))
        MB_ERROR(MB_ENOMEM, "out of memory");
    c->n_integrators = 1;
    c->sample_every = 1;
    c->damping_node = -1;
    c->has_reference = 1;
    if (mb_reference_parse(A->reference ? A->reference : "auto", &c->reference) != MB_SUCCESS)
        return MB_EINVAL;
    mb_system *sys = NULL;
    if (pt->setup(c->params, &sys) != MB_SUCCESS)
        return MB_EINVAL;
    int s = MB_SUCCESS;
    for (size_t j = 0; j < A->n_files && s == MB_SUCCESS; j++, c->n_dt++)
        s = add_file(A, c, sys, j, &trs[j]);
    mb_system_free(sys);
    return s;
}

static void print_metric(const mb_metric_value *m, const char *file)
{
    printf("%-28s %-36s ", file, m->name);
    if (m->word)
        printf("%s", m->word);
    else
        printf("%.6g", m->value);
    printf("%s%s\n", m->detail[0] ? "  # " : "", m->detail);
}

static int print_results(const score_args *A, const mb_case_result *r)
{
    int bad = 0;
    for (size_t j = 0; j < r->c->n_dt; j++) {
        const mb_run_result *u = &r->runs[j];
        mb_metric_value st = { .name = "status", .word = mb_run_status_name(u->status) };
        mb_text_format(st.detail, sizeof st.detail, "dt = %.6g, %ld steps%s%s", r->c->dt[j],
                       r->c->steps[j], u->message[0] ? ": " : "", u->message);
        print_metric(&st, A->files[j]);
        for (size_t m = 0; m < u->n_metrics; m++)
            print_metric(&u->metrics[m], A->files[j]);
        bad |= u->status != MB_RUN_OK;
    }
    for (size_t m = 0; m < r->n_agg[0]; m++)
        print_metric(&r->agg[0][m], "(all files)");
    return bad;
}

/* The report of -o under temporary names and the metrics on standard output, both
 * checked, before the report is renamed into place (signals held); a failure keeps the
 * previous report and is reported here. */
static int write_outputs(const score_args *A, mb_case_result *results)
{
    mb_report_summary sum;
    mb_report_files files = { 0, 0, NULL };
    int st = A->output ? mb_report_prepare(A->output, results, 1, 0, &sum, &files)
                       : MB_SUCCESS;
    if (st == MB_SUCCESS)
        st = mb_output_flush_stdout();
    mb_cancel_hold(1);
    if (st == MB_SUCCESS && mb_cancel_requested())
        st = mb_report_interrupted();
    if (st == MB_SUCCESS)
        st = mb_report_commit(&files);
    else
        mb_report_discard(&files);
    mb_cancel_hold(0);
    if (st != MB_SUCCESS) {
        mb_cli_fail("score");
        __fpurge(stdout);      /* reported once, not again at the exit */
        clearerr(stdout);
    }
    return st;
}

static int score(score_args *A)
{
    mb_case *c = calloc(1, sizeof *c);
    mb_trajectory *trs = calloc(A->n_files, sizeof *trs);
    const mb_trajectory **replay = calloc(A->n_files, sizeof *replay);
    mb_case_result *results = NULL;
    int code = MB_EXIT_USAGE;
    if (!c || !trs || !replay || build_case(A, c, trs) != MB_SUCCESS) {
        mb_cli_fail("score");
        goto done;
    }
    for (size_t j = 0; j < A->n_files; j++)
        replay[j] = &trs[j];
    c->replay = replay;
    c->replay_mid_step = A->mid_step;
    mb_runner_options opt = { 1, 0, 0, 1, NULL };
    mb_case *cases[1] = { c };
    if (mb_runner_run(cases, 1, &opt, &results) != MB_SUCCESS) {
        mb_cli_fail("score");
        goto done;
    }
    code = print_results(A, &results[0]) ? MB_EXIT_FAIL : MB_EXIT_OK;
    if (write_outputs(A, results) != MB_SUCCESS)
        code = MB_EXIT_USAGE;
done:
    mb_case_result_free(results, 1);
    for (size_t j = 0; trs && j < A->n_files; j++)
        mb_trajectory_free(&trs[j]);
    free(trs);
    free(replay);
    mb_case_free(c);
    return code;
}

int mb_cmd_score(int argc, char **argv)
{
    mb_cancel_catch_signals();   /* before anything can be written */
    mb_output_catch_broken_pipe();
    score_args A;
    memset(&A, 0, sizeof A);
    A.t_end = NAN;
    A.params = mb_options_new();
    if (A.params == NULL)
        return mb_cli_fail("score");
    int p = parse_args(argc, argv, &A);
    int code = p > 0 ? MB_EXIT_OK : p < 0 ? mb_cli_fail("score") : score(&A);
    mb_options_free(A.params);
    return code;
}
