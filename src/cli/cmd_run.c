/* cmd_run.c -- `motionbench run [CASE|DIR ...] [-o DIR] [--jobs N] [--series] [--quiet]
 *               [--junit FILE] [--tap] [--shard K/N] [--plan N]`.
 *
 * Every case file is read and validated before anything runs; a bad file stops the
 * command with "file:line: message" and exit 2, and no report file is touched.  Then
 * every (case, integrator, dt) runs, the reports are written as a whole and a summary
 * (run_summary.h) is printed.
 * Exit: 0 every expectation holds, 1 one failed (or its metric is missing, or a run stopped
 * early where the case does not expect it), 2 bad input,
 * usage, I/O error or interruption (SIGINT/SIGTERM: the previous report stays). */
#include "cli.h"
#include "cli_options.h"
#include "junit_tap.h"
#include "run_summary.h"
#include "mb_cancel.h"
#include "mb_case.h"
#include "mb_memory.h"
#include "mb_external.h"
#include "mb_input.h"
#include "mb_output.h"
#include "mb_plot.h"
#include "mb_plugin.h"
#include "mb_reference_cache.h"
#include "mb_report.h"
#include "mb_runner.h"
#include "mb_shard.h"
#include "mb_status.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static void help(FILE *out)
{
    fprintf(out,
        "usage: motionbench run [CASE|DIR ...] [-o DIR] [--jobs N] [--series] [--quiet]\n"
        "                       [--repeat N] [--junit FILE] [--tap] [--plots]\n"
        "                       [--adapters DIR]... [--timeout SECONDS] [--plugin FILE.so]...\n"
        "                       [--plugins-in-process] [--memory-limit SIZE]\n"
        "                       [--trajectory-limit SIZE]\n"
        "                       [--shard K/N | --plan N] [--ref-cache DIR]\n\n"
        "Run case files (a DIR means every DIR/*.case, in name order); with no argument,\n"
        "every *.case of the default case library (%s/cases: the source tree's when run\n"
        "from the build tree, else the installed one; MOTIONBENCH_DATADIR overrides).\n"
        "Reports go to DIR (default reports/ of the current directory):\n"
        "runs.csv, metrics.csv, checks.csv, timing.csv, and series/ with --series.\n\n"
        "  -o, --output DIR  report directory (created if missing)\n"
        "  -j, --jobs N      parallel runs (default: number of processors)\n"
        "      --series      also write one time series per run under DIR/series/\n"
        "      --plots       also draw the plots into DIR/plots (SVG; needs gnuplot: see\n"
        "                    motionbench plot --help); the time plots come from the runs'\n"
        "                    series in memory, written to DIR/series/ only with --series\n"
        "      --repeat N    run each job N times for timing.csv (minimum and median of\n"
        "                    wall and CPU time; results come from the first run); time\n"
        "                    with --jobs 1 for figures that do not share the processor\n"
        "  -q, --quiet       no per-case tables: only failures and the closing line\n"
        "      --junit FILE  also write the verdicts as JUnit XML (one test per check)\n"
        "      --tap         print the verdicts as TAP on standard output (the summary\n"
        "                    then goes to standard error)\n"
        "      --plugin FILE load the integrators of a plugin (repeatable; doc/plugins.md)\n"
        "      --plugins-in-process  run plugin integrators in this process (faster, for\n"
        "                    debugging; a crash or exit() of the plugin then ends\n"
        "                    motionbench); by default each of their runs is a child\n"
        "                    process, and a crash fails only that run\n"
        "      --memory-limit SIZE  refuse runs whose estimated memory exceeds SIZE\n"
        "                    (e.g. 8G; default: MemAvailable, or a lower ulimit -v/-d\n"
        "                    or cgroup memory.max)\n"
        "      --adapters DIR  search DIR first for the descriptors NAME.adapter of\n"
        "                    external:NAME integrators (repeatable; doc/external.md)\n"
        MB_CLI_TRAJECTORY_LIMIT_HELP
        "      --timeout S   time limit of each run of an outside program or of a plugin\n"
        "                    integrator in its child process, seconds (overrides the\n"
        "                    case's [run] timeout and the descriptor's; plugins: 600)\n"
        "      --shard K/N   run shard K of N of the runs (balanced by estimated cost)\n"
        "                    and write a shard directory for `motionbench merge`\n"
        "                    (doc/cluster.md); exit 0 once it is written\n"
        "      --plan N      print the partition into N shards (units, estimated cost,\n"
        "                    largest over mean) and run nothing\n"
        "      --ref-cache DIR  keep ode and mpfr references in DIR and reuse them (default:\n"
        "                    the variable MOTIONBENCH_REF_CACHE; doc/cluster.md)\n"
        "  -h, --help        this text\n\n"
        "After the run: one table per case (runs finished, orders +- standard error, or the\n"
        "values its expectations name), then every failed or missing expectation with its\n"
        "value and bound.  A run that diverges or fails is a failure unless the case expects\n"
        "that status (INTEGRATOR.status = diverged).  A progress line is shown on a terminal.\n\n"
        "Exit status: 0 all expectations hold, 1 an expectation failed or a run of an\n"
        "outside program failed (skipped runs do not count),\n"
        "2 bad case file, usage, I/O error or interrupted (the previous report is kept).\n",
        mb_cli_datadir());
}

typedef struct paths {
    size_t n, cap;
    char **items;
} paths;

static int add_path(paths *P, const char *p)
{
    if (P->n == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 16;
        char **it = realloc(P->items, cap * sizeof *it);
        if (it == NULL)
            MB_ERROR(MB_ENOMEM, "out of memory");
        P->items = it;
        P->cap = cap;
    }
    if ((P->items[P->n] = strdup(p)) == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    P->n++;
    return MB_SUCCESS;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with_case(const char *s)
{
    size_t n = strlen(s);
    return n > 5 && strcmp(s + n - 5, ".case") == 0;
}

static int add_dir(paths *P, const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        MB_ERROR(MB_EIO, "%s: cannot open directory: %s", dir, strerror(errno));
    size_t first = P->n;
    struct dirent *e;
    int st = MB_SUCCESS;
    while (st == MB_SUCCESS && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !ends_with_case(e->d_name))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        st = add_path(P, path);
    }
    closedir(d);
    if (st == MB_SUCCESS && P->n == first)
        MB_ERROR(MB_ENOTFOUND, "%s: no *.case file", dir);
    qsort(P->items + first, P->n - first, sizeof *P->items, by_name);
    return st;
}

static int add_argument(paths *P, const char *arg)
{
    struct stat sb;
    if (stat(arg, &sb) != 0)
        MB_ERROR(MB_EIO, "%s: %s", arg, strerror(errno));
    return S_ISDIR(sb.st_mode) ? add_dir(P, arg) : add_path(P, arg);
}

static void free_paths(paths *P)
{
    for (size_t k = 0; k < P->n; k++)
        free(P->items[k]);
    free(P->items);
}

static int load_cases(const paths *P, mb_case **cases)
{
    for (size_t k = 0; k < P->n; k++) {
        if (mb_case_load(P->items[k], &cases[k]) != MB_SUCCESS)
            return MB_EINVAL;
        for (size_t j = 0; j < k; j++)
            if (strcmp(cases[j]->name, cases[k]->name) == 0)
                MB_ERROR(MB_EINVAL, "%s: case name '%s' is already used by %s", P->items[k],
                         cases[k]->name, cases[j]->path);
    }
    return MB_SUCCESS;
}

typedef struct run_args {
    const char *out, *junit;
    int jobs, series, quiet, tap, repeat, plots, plugins_in_process;
    paths files;
    double memory_limit;         /* bytes; 0: the memory available */
    double timeout;              /* --timeout, 0: not given */
    unsigned shard, n_shards;    /* --shard K/N (K from 1), n_shards 0: not given */
    unsigned plan;               /* --plan N, 0: not given */
    paths adapters, plugins;     /* as given, for the shard manifest */
    const char *ref_cache;       /* --ref-cache, else MOTIONBENCH_REF_CACHE, else NULL */
} run_args;

/* --plugin FILE: its integrators registered now (a bad file stops the parse). */
static int load_plugin(void *ctx, const char *option, const char *value)
{
    (void)option;
    run_args *A = ctx;
    if (mb_plugin_load(value) != MB_SUCCESS)
        return mb_last_error_code();
    return add_path(&A->plugins, value);
}

/* --adapters DIR: searched first for adapter descriptors. */
static int add_adapters(void *ctx, const char *option, const char *value)
{
    run_args *A = ctx;
    struct stat sb;
    if (stat(value, &sb) != 0 || !S_ISDIR(sb.st_mode))
        MB_ERROR(MB_EINVAL, "%s '%s': not a directory", option, value);
    if (mb_adapter_path_add(value) != MB_SUCCESS)
        return mb_last_error_code();
    return add_path(&A->adapters, value);
}

static int parse_shard(void *ctx, const char *option, const char *value)
{
    (void)option;
    run_args *A = ctx;
    return mb_shard_parse(value, &A->shard, &A->n_shards);
}

/* The options' combinations, and the reference cache (the option, else the variable). */
static int check_combinations(run_args *A)
{
    if (A->ref_cache == NULL && getenv("MOTIONBENCH_REF_CACHE")
        && getenv("MOTIONBENCH_REF_CACHE")[0] != '\0')
        A->ref_cache = getenv("MOTIONBENCH_REF_CACHE");
    if (A->ref_cache && mb_reference_cache_set(A->ref_cache) != MB_SUCCESS)
        return mb_last_error_code();
    if (A->plan && A->n_shards)
        MB_ERROR(MB_EINVAL, "--plan and --shard exclude each other (--plan runs nothing)");
    if (A->n_shards && (A->junit || A->tap || A->plots))
        MB_ERROR(MB_EINVAL, "--shard writes a shard, not a report: give --junit, --tap and "
                 "--plots to motionbench merge");
    return MB_SUCCESS;
}

/* MB_CLI_PARSED: run, MB_CLI_HELP: help printed, < 0: error in mb_last_error.  Case
 * files and directories are the operands, expanded in order (a directory: its *.case). */
static int parse_args(int argc, char **argv, run_args *A)
{
    long jobs = A->jobs, repeat = A->repeat, plan = 0;
    const mb_cli_option options[] = {
        { .name = "--output", .letter = 'o', .kind = MB_CLI_STRING, .dest = &A->out,
          .value = "a directory", .empty = "empty directory name", .flags = MB_CLI_ONCE },
        { .name = "--jobs", .letter = 'j', .kind = MB_CLI_INTEGER, .dest = &jobs,
          .value = "a number", .flags = MB_CLI_ONCE, .min = 1, .max = 1024 },
        { .name = "--plugin", .kind = MB_CLI_CALL, .call = load_plugin, .ctx = A,
          .value = "a shared object file" },
        { .name = "--plugins-in-process", .kind = MB_CLI_FLAG, .dest = &A->plugins_in_process },
        { .name = "--junit", .kind = MB_CLI_STRING, .dest = &A->junit, .value = "a file name",
          .empty = "empty file name" },
        { .name = "--repeat", .kind = MB_CLI_INTEGER, .dest = &repeat, .value = "a number",
          .min = 1, .max = MB_RUNNER_MAX_REPEAT },
        { .name = "--tap", .kind = MB_CLI_FLAG, .dest = &A->tap },
        { .name = "--plots", .kind = MB_CLI_FLAG, .dest = &A->plots },
        { .name = "--memory-limit", .kind = MB_CLI_SIZE, .dest = &A->memory_limit,
          .value = "a size, e.g. 8G", .flags = MB_CLI_ONCE },
        { .name = "--adapters", .kind = MB_CLI_CALL, .call = add_adapters, .ctx = A,
          .value = "a directory" },
        { .name = "--trajectory-limit", .kind = MB_CLI_CALL, .call = mb_cli_trajectory_limit,
          .value = "a size, e.g. 2G", .flags = MB_CLI_ONCE },
        { .name = "--timeout", .kind = MB_CLI_DOUBLE, .dest = &A->timeout,
          .value = "a number of seconds", .flags = MB_CLI_ONCE, .min = 0.0, .min_open = 1,
          .max = 1e9 },
        { .name = "--shard", .kind = MB_CLI_CALL, .call = parse_shard, .ctx = A,
          .value = "K/N, e.g. 2/5", .flags = MB_CLI_ONCE },
        { .name = "--plan", .kind = MB_CLI_INTEGER, .dest = &plan,
          .value = "a number of shards", .flags = MB_CLI_ONCE, .min = 1, .max = MB_SHARD_MAX },
        { .name = "--ref-cache", .kind = MB_CLI_STRING, .dest = &A->ref_cache,
          .value = "a directory", .empty = "empty directory name", .flags = MB_CLI_ONCE },
        { .name = "--series", .kind = MB_CLI_FLAG, .dest = &A->series },
        { .name = "--quiet", .letter = 'q', .kind = MB_CLI_FLAG, .dest = &A->quiet },
    };
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    if (operands == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    const mb_cli_command cmd = { "run", options, sizeof options / sizeof *options, help,
                                 operands, (size_t)argc, NULL };
    size_t n = 0;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    for (size_t k = 0; st == MB_CLI_PARSED && k < n; k++)
        st = add_argument(&A->files, operands[k]);
    free(operands);
    if (st != MB_CLI_PARSED)
        return st;
    A->jobs = (int)jobs;
    A->repeat = (int)repeat;
    A->plan = (unsigned)plan;
    return check_combinations(A);
}

/* The JUnit file (prepared into *junit, not yet in place) and the TAP lines. */
static int ci_outputs(const run_args *A, const mb_case_result *results, size_t n,
                      mb_output *junit)
{
    if (!A->junit && !A->tap)
        return MB_SUCCESS;
    mb_ci_log L = { 0, 0, NULL };
    int st = mb_run_summary_ci(&L, results, n);
    if (st == MB_SUCCESS && A->junit)
        st = mb_ci_prepare_junit(&L, A->junit, "motionbench run", junit);
    if (st == MB_SUCCESS && A->tap)
        mb_ci_write_tap(&L, stdout);
    mb_ci_free(&L);
    return st;
}

/* DIR/plots can be written and gnuplot is there: what --plots needs, known before the
 * report is replaced (the plots are drawn from the report once it is in place). */
static int plots_possible(const char *out)
{
    char dir[4200], gnuplot[4096];
    snprintf(dir, sizeof dir, "%s/plots", out);
    struct stat sb;
    int exists = lstat(dir, &sb) == 0;
    if (exists && !S_ISDIR(sb.st_mode))
        MB_ERROR(MB_EINVAL, "%s is not a directory (%s): --plots draws into it",
                 dir, mb_file_kind_name(sb.st_mode));
    const char *parent = exists ? dir : out;   /* out exists: the report is prepared */
    if (access(parent, W_OK) != 0)
        MB_ERROR(MB_EIO, "%s: cannot write: %s (--plots draws into it)", parent,
                 strerror(errno));
    return mb_gnuplot_find(gnuplot, sizeof gnuplot);
}

/* Every output but the report files, complete and checked: the JUnit file, TAP and the
 * summary on standard output (flushed: a full disk is known here), the plots' directory. */
static int write_outputs(const run_args *A, const mb_case_result *results, size_t n,
                         mb_output *junit)
{
    if (ci_outputs(A, results, n, junit) != MB_SUCCESS)
        return mb_last_error_code();
    mb_run_summary_print(A->tap ? stderr : stdout, results, n, A->quiet);
    if (A->plots && plots_possible(A->out) != MB_SUCCESS)
        return mb_last_error_code();
    return mb_output_flush_stdout();
}

/* Rename the report and the JUnit file into place with the signals held; a request
 * that came before drops them both (the previous files stay). */
static int commit_outputs(const run_args *A, mb_report_files *files, mb_output *junit)
{
    mb_cancel_hold(1);
    int st;
    if (mb_cancel_requested()) {
        mb_report_discard(files);
        if (A->junit)
            mb_output_close(junit, 0);
        st = mb_report_interrupted();
    } else {
        st = mb_report_commit(files);
        if (A->junit && mb_output_close(junit, st == MB_SUCCESS) != MB_SUCCESS)
            st = mb_last_error_code();
    }
    mb_cancel_hold(0);
    return st;
}

/* A failure before anything was replaced: say so, and drop what standard output still
 * holds so that the exit does not report it twice. */
static void fail_kept(void)
{
    if (mb_cancel_requested())   /* the failure is the signal's doing (EINTR) */
        mb_report_interrupted();
    const char *why = mb_last_error();
    fprintf(stderr, "motionbench: run: %s%s\n", why,
            strstr(why, "previous report is kept") ? "" : "; the previous report is kept");
    __fpurge(stdout);
    clearerr(stdout);
}

/* Refuse, before anything runs, what would not fit: the estimate of the runs held at
 * once (mb_memory.h) against --memory-limit or the memory available. */
static int check_memory(const run_args *A, mb_case *const *cases, size_t n)
{
    size_t wc, wd;
    mb_memory_estimate w;
    double kept;
    /* --plots keeps the series in memory for the plots against time */
    double need = mb_memory_estimate_cases(cases, n, A->jobs, A->series || A->plots, &wc, &wd,
                                           &w, &kept);
    double limit;
    const char *source;
    if (mb_memory_limit(A->memory_limit, &limit, &source) != MB_SUCCESS)
        return mb_last_error_code();
    if (need <= limit)
        return MB_SUCCESS;
    size_t runs = 0;
    for (size_t i = 0; i < n; i++)
        runs += cases[i]->n_integrators * cases[i]->n_dt;
    int at_once = (size_t)A->jobs < runs ? A->jobs : (int)runs;
    char what[4200];
    snprintf(what, sizeof what, "%s (%zu nodes) at dt = %g", cases[wc]->path, cases[wc]->nodes,
             cases[wc]->dt[wd]);
    return mb_memory_refuse(need, limit, source, at_once, what, &w, kept);
}

/* --plan N: every shard's units and estimated cost, and the largest over the mean. */
static int print_plan(const run_args *A, mb_case *const *cases, size_t n)
{
    unsigned *of;
    double *cost, total = 0.0, largest = 0.0;
    if (mb_shard_partition(cases, n, A->plan, &of, &cost) != MB_SUCCESS)
        return mb_cli_fail("run");
    size_t n_units = mb_units_count(cases, n);
    size_t *count = calloc(A->plan, sizeof *count);
    for (size_t u = 0; count && u < n_units; u++)
        count[of[u]]++;
    printf("shard,units,estimated_cost\n");
    for (unsigned s = 0; s < A->plan; s++) {
        printf("%u/%u,%zu,%.6g\n", s + 1, A->plan, count ? count[s] : 0, cost[s]);
        total += cost[s];
        largest = cost[s] > largest ? cost[s] : largest;
    }
    fprintf(stderr, "motionbench: %zu units in %u shards; largest shard's estimated cost over "
            "the mean: %.4f\n", n_units, A->plan,
            total > 0.0 ? largest / (total / (double)A->plan) : 1.0);
    free(count);
    free(of);
    free(cost);
    return MB_EXIT_OK;
}

/* --shard K/N: the flags of the runs of shard K (report order). */
static unsigned char *shard_selection(const run_args *A, mb_case *const *cases, size_t n)
{
    unsigned *of;
    if (mb_shard_partition(cases, n, A->n_shards, &of, NULL) != MB_SUCCESS)
        return NULL;
    size_t n_units = mb_units_count(cases, n);
    unsigned char *select = calloc(n_units ? n_units : 1, 1);
    for (size_t u = 0; select && u < n_units; u++)
        select[u] = of[u] == A->shard - 1;
    free(of);
    if (select == NULL)
        mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "out of memory");
    return select;
}

static int write_shard(const run_args *A, mb_case *const *cases, size_t n,
                       const mb_case_result *results, const unsigned char *select)
{
    mb_shard_options so = { A->series, A->timeout, A->adapters.n,
                            (const char *const *)A->adapters.items, A->plugins.n,
                            (const char *const *)A->plugins.items };
    if (mb_shard_write(A->out, cases, n, results, A->shard - 1, A->n_shards, &so, select)
        != MB_SUCCESS)
        return mb_cli_fail("run");
    size_t mine = 0, all = mb_units_count(cases, n);
    for (size_t u = 0; u < all; u++)
        mine += select[u] != 0;
    if (!A->quiet)
        fprintf(stderr, "motionbench: shard %u/%u: %zu of %zu runs; shard written to %s/ "
                "(merge with motionbench merge)\n", A->shard, A->n_shards, mine, all, A->out);
    return MB_EXIT_OK;
}

/* The options of the command that reach every case: --timeout and --plugins-in-process. */
static void apply_case_options(const run_args *A, mb_case **cases, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (A->timeout > 0.0)
            cases[k]->external_timeout = A->timeout;
        cases[k]->plugins_in_process = A->plugins_in_process;
    }
}

/* Seconds of the monotonic clock since start. */
static double seconds_since(const struct timespec *start)
{
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    return (double)(end.tv_sec - start->tv_sec) + 1e-9 * (double)(end.tv_nsec - start->tv_nsec);
}

/* The report and every other output written and checked under temporary names, then
 * renamed into place.  A failure is reported (the previous report kept where nothing was
 * replaced): MB_EXIT_USAGE; else MB_EXIT_OK with the report's summary in *sum. */
static int replace_report(const run_args *A, const mb_case_result *results, size_t n,
                          mb_report_summary *sum)
{
    mb_report_files files;
    mb_output junit = { NULL, NULL, NULL };
    if (mb_report_prepare(A->out, results, n, A->series, sum, &files) != MB_SUCCESS) {
        fail_kept();
        return MB_EXIT_USAGE;
    }
    if (write_outputs(A, results, n, &junit) != MB_SUCCESS) {
        mb_report_discard(&files);
        if (A->junit && junit.path)
            mb_output_close(&junit, 0);
        fail_kept();
        return MB_EXIT_USAGE;
    }
    if (commit_outputs(A, &files, &junit) != MB_SUCCESS) {
        if (mb_last_error_code() != MB_EFAILED)
            return mb_cli_fail("run");
        fail_kept();
        return MB_EXIT_USAGE;
    }
    if (mb_cancel_requested())   /* the signal came during the commit, which completed */
        fprintf(stderr, "motionbench: run: interrupted while the reports were being renamed "
                "into place; the new report is complete\n");
    return MB_EXIT_OK;
}

/* The closing lines on standard error: the runs that stopped early, the count of cases and
 * checks with the wall time since start (always when a check failed or is missing, else
 * unless --quiet), the outside programs' failures. */
static void print_closing(const run_args *A, const mb_case_result *results, size_t n,
                          const mb_report_summary *sum, const struct timespec *start)
{
    mb_run_summary_unfinished(stderr, results, n);
    double wall = seconds_since(start);
    if (!A->quiet || sum->failed || sum->missing)
        fprintf(stderr, "motionbench: %zu case%s, %zu check%s: %zu failed, %zu missing; "
                "%.1f s wall with %d job%s; reports in %s/\n", n, n == 1 ? "" : "s", sum->checks,
                sum->checks == 1 ? "" : "s", sum->failed, sum->missing, wall, A->jobs,
                A->jobs == 1 ? "" : "s", A->out);
    mb_run_summary_outside(stderr, sum, A->out);
}

/* The report of the runs in place, the closing lines, then the plots.  An exit status. */
static int write_report(const run_args *A, const mb_case_result *results, size_t n,
                        const struct timespec *start)
{
    mb_report_summary sum;
    if (replace_report(A, results, n, &sum) != MB_EXIT_OK)
        return MB_EXIT_USAGE;
    print_closing(A, results, n, &sum, start);
    int code = mb_run_summary_exit_code(&sum);
    /* plots last, from the report in place and the series of the runs in memory (gnuplot
     * and the plots' directory were checked before it was replaced: a failure now is
     * gnuplot's, reported with its log) */
    if (A->plots && mb_cli_plot_dir(A->out, NULL, results, n) != MB_EXIT_OK)
        code = MB_EXIT_USAGE;
    return code;
}

/* The runs of the cases read (with --shard, those of shard K) once their memory is known to
 * fit, then the shard directory or the report.  An exit status. */
static int run_loaded_cases(const run_args *A, mb_case **cases, size_t n)
{
    unsigned char *select = NULL;
    if (A->n_shards && (select = shard_selection(A, cases, n)) == NULL)
        return mb_cli_fail("run");
    if (check_memory(A, cases, n) != MB_SUCCESS) {
        free(select);
        return mb_cli_fail("run");
    }
    apply_case_options(A, cases, n);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    mb_runner_options opt = { A->jobs, !A->quiet && isatty(STDERR_FILENO),
                              A->series || A->plots,
                              A->repeat, select };
    mb_case_result *results = NULL;
    int code = MB_EXIT_USAGE;
    if (mb_runner_run(cases, n, &opt, &results) != MB_SUCCESS)
        fprintf(stderr, "motionbench: run: %s; the previous report is kept\n", mb_last_error());
    else if (select)
        code = write_shard(A, cases, n, results, select);
    else
        code = write_report(A, results, n, &start);
    mb_case_result_free(results, n);
    free(select);
    return code;
}

/* Every case file read and checked before anything runs (a bad one: exit 2, no report
 * touched), then --plan's partition or the runs.  An exit status. */
static int run_cases(const run_args *A)
{
    size_t n = A->files.n;
    mb_case **cases = calloc(n, sizeof *cases);
    if (cases == NULL)
        return mb_cli_fail("run");
    int code;
    if (load_cases(&A->files, cases) != MB_SUCCESS)
        code = mb_cli_fail(NULL);
    else if (A->plan)
        code = print_plan(A, cases, n);
    else
        code = run_loaded_cases(A, cases, n);
    for (size_t k = 0; k < n; k++)
        mb_case_free(cases[k]);
    free(cases);
    return code;
}

int mb_cmd_run(int argc, char **argv)
{
    mb_cancel_catch_signals();   /* before anything can be written */
    mb_output_catch_broken_pipe();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    run_args A = { .out = "reports", .jobs = cores > 0 ? (int)cores : 1, .repeat = 1 };
    int p = parse_args(argc, argv, &A);
    if (p != MB_CLI_PARSED) {
        free_paths(&A.files);
        free_paths(&A.adapters);
        free_paths(&A.plugins);
        mb_adapter_path_clear();
        return p == MB_CLI_HELP ? MB_EXIT_OK : mb_cli_fail("run");
    }
    char library[4096];
    snprintf(library, sizeof library, "%s/cases", mb_cli_datadir());
    if (A.files.n == 0 && add_dir(&A.files, library) != MB_SUCCESS) {
        free_paths(&A.files);
        free_paths(&A.adapters);
        free_paths(&A.plugins);
        return mb_cli_fail("run");
    }
    int code = run_cases(&A);
    mb_reference_cache_set(NULL);
    free_paths(&A.files);
    free_paths(&A.adapters);
    free_paths(&A.plugins);
    mb_adapter_path_clear();
    return code;
}
