/* cmd_merge.c -- `motionbench merge SHARD_DIR... -o DIR [--quiet]`.
 *
 * Puts the shard directories written by `run --shard K/N` together into the report one
 * `run` of the whole case set writes: runs.csv, metrics.csv and checks.csv byte for byte
 * (the orders, expectations and verdicts are computed here from the merged runs), timing.csv
 * with every shard's rows (doc/cluster.md).  Shards that do not belong together are refused
 * before anything is written, naming the shard (mb_shard_merge).
 * Exit: as run's: 0 every expectation holds, 1 one failed, 2 refused, usage or I/O error. */
#include "cli.h"
#include "cli_options.h"
#include "run_summary.h"
#include "mb_cancel.h"
#include "mb_external.h"
#include "mb_output.h"
#include "mb_report.h"
#include "mb_shard.h"
#include "mb_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *out)
{
    fputs("usage: motionbench merge SHARD_DIR... -o DIR [--quiet]\n\n"
          "Merge the shard directories written by `motionbench run --shard K/N` into one\n"
          "report in DIR: runs.csv, metrics.csv and checks.csv as one run of the whole case\n"
          "set writes them (orders and expectations are evaluated here), timing.csv with\n"
          "every shard's rows, series/ when the shards kept series.\n"
          "The shards must come from this build, with the same options and the same case\n"
          "files (SHA-256), and hold every unit exactly once; otherwise merge names the\n"
          "shard, writes nothing and exits 2 (missing units are listed with their shard\n"
          "number, to run again alone).\n\n"
          "  -o, --output DIR  report directory (required; created if missing)\n"
          "  -q, --quiet       no per-case tables: only failures and the closing line\n"
          "  -h, --help        this text\n\n"
          "Exit status: 0 all expectations hold, 1 an expectation failed or a run of an\n"
          "outside program failed, 2 shards refused, usage or I/O error.\n", out);
}

typedef struct merge_args {
    const char *out;
    int quiet;
    size_t n_dirs;
    const char **dirs;
} merge_args;

/* MB_CLI_PARSED: merge, MB_CLI_HELP: help printed, < 0: error in mb_last_error */
static int parse_args(int argc, char **argv, merge_args *A)
{
    const mb_cli_option options[] = {
        { .name = "--output", .letter = 'o', .kind = MB_CLI_STRING, .dest = &A->out,
          .value = "a directory", .empty = "empty directory name",
          .flags = MB_CLI_ONCE },
        { .name = "--quiet", .letter = 'q', .kind = MB_CLI_FLAG, .dest = &A->quiet },
    };
    const mb_cli_command cmd = { "merge", options, sizeof options / sizeof *options, help,
                                 A->dirs, (size_t)argc, "shard directories" };
    int st = mb_cli_options_parse(&cmd, argc, argv, &A->n_dirs);
    if (st != MB_CLI_PARSED)
        return st;
    if (A->n_dirs == 0)
        MB_ERROR(MB_EINVAL, "give the shard directories to merge (see motionbench merge --help)");
    if (A->out == NULL)
        MB_ERROR(MB_EINVAL, "give the report directory with -o DIR");
    for (size_t k = 0; k < A->n_dirs; k++)
        if (strcmp(A->dirs[k], A->out) == 0)
            MB_ERROR(MB_EINVAL, "-o %s is one of the shards: write the report elsewhere", A->out);
    return MB_CLI_PARSED;
}

static int merge_and_write(const merge_args *A)
{
    mb_case **cases = NULL;
    mb_case_result *results = NULL;
    size_t n = 0;
    int series = 0, code = MB_EXIT_USAGE;
    mb_report_summary sum;
    mb_cancel_catch_signals();
    mb_output_catch_broken_pipe();   /* a closed stdout is a write error, not a death */
    if (mb_shard_merge(A->dirs, A->n_dirs, &cases, &n, &results, &series) != MB_SUCCESS) {
        fprintf(stderr, "motionbench: merge: %s; no report written\n", mb_last_error());
        goto done;
    }
    if (mb_report_write(A->out, results, n, series, &sum) != MB_SUCCESS) {
        mb_cli_fail("merge");
        goto done;
    }
    mb_run_summary_print(stdout, results, n, A->quiet);
    fflush(stdout);
    if (!A->quiet || sum.failed || sum.missing)
        fprintf(stderr, "motionbench: merged %zu shard%s: %zu case%s, %zu check%s: %zu failed, "
                "%zu missing; reports in %s/\n", A->n_dirs, A->n_dirs == 1 ? "" : "s", n,
                n == 1 ? "" : "s", sum.checks, sum.checks == 1 ? "" : "s", sum.failed,
                sum.missing, A->out);
    mb_run_summary_outside(stderr, &sum, A->out);
    code = mb_run_summary_exit_code(&sum);
done:
    mb_case_result_free(results, n);
    for (size_t k = 0; cases && k < n; k++)
        mb_case_free(cases[k]);
    free(cases);
    return code;
}

int mb_cmd_merge(int argc, char **argv)
{
    merge_args A = { NULL, 0, 0, calloc((size_t)argc + 1, sizeof(char *)) };
    if (A.dirs == NULL)
        return mb_cli_fail("merge");
    int p = parse_args(argc, argv, &A);
    int code = p == MB_CLI_HELP ? MB_EXIT_OK : p < 0 ? mb_cli_fail("merge") : merge_and_write(&A);
    free(A.dirs);
    mb_adapter_path_clear();
    return code;
}
