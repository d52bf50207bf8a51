/* cli.h -- the commands of the motionbench program and shared helpers.
 * Exit status convention: 0 success, 1 an expectation or check failed, 2 usage or
 * input error (and any failure to run). */
#ifndef MB_CLI_H
#define MB_CLI_H

#include <stddef.h>
#include <stdio.h>

enum { MB_EXIT_OK = 0, MB_EXIT_FAIL = 1, MB_EXIT_USAGE = 2 };

int mb_cmd_list(int argc, char **argv);
int mb_cmd_run(int argc, char **argv);
int mb_cmd_merge(int argc, char **argv);
int mb_cmd_check(int argc, char **argv);
int mb_cmd_reference(int argc, char **argv);
int mb_cmd_simulate(int argc, char **argv);
int mb_cmd_score(int argc, char **argv);
int mb_cmd_bench(int argc, char **argv);
int mb_cmd_plot(int argc, char **argv);
int mb_cmd_report(int argc, char **argv);
int mb_cmd_atlas(int argc, char **argv);

/* Parse "REPORT_DIR [-o DIR]" (DIR defaults to REPORT_DIR/default_sub, written into
 * out_buf): 0 parsed, 1 help printed, 2 usage error (reported on stderr). */
int mb_cli_report_args(int argc, char **argv, const char *command, void (*help)(FILE *),
                       const char *default_sub, char *out_buf, size_t out_size,
                       const char **dir, const char **out);

/* The plots of a report directory into out_dir (NULL: REPORT_DIR/plots); the time plots
 * from the series of runs (n results, run --plots) when given, else from REPORT_DIR/series/
 * where it exists.  An exit status. */
struct mb_case_result;
int mb_cli_plot_dir(const char *report_dir, const char *out_dir,
                    const struct mb_case_result *runs, size_t n);

/* benchmark entry points, one per line of benches.def: int fn(int argc, char **argv) */
#define MB_BENCH(name, fn, summary) int fn(int argc, char **argv);
#include "benches.def"
#undef MB_BENCH

/* Directory holding cases/ and reports/baseline/ (datadir.c). */
const char *mb_cli_datadir(void);

/* Print "motionbench: <message>" from the last library error and return exit 2. */
int mb_cli_fail(const char *context);

#endif
