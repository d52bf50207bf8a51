/* cli.h -- the commands of the motionbench program and shared helpers.
 * Exit status convention: 0 success, 1 an expectation or check failed, 2 usage or
 * input error (and any failure to run). */
#ifndef MB_CLI_H
#define MB_CLI_H

enum { MB_EXIT_OK = 0, MB_EXIT_FAIL = 1, MB_EXIT_USAGE = 2 };

int mb_cmd_list(int argc, char **argv);
int mb_cmd_run(int argc, char **argv);
int mb_cmd_check(int argc, char **argv);
int mb_cmd_reference(int argc, char **argv);
int mb_cmd_simulate(int argc, char **argv);
int mb_cmd_score(int argc, char **argv);
int mb_cmd_bench(int argc, char **argv);

/* benchmark entry points, one per line of benches.def: int fn(int argc, char **argv) */
#define MB_BENCH(name, fn, summary) int fn(int argc, char **argv);
#include "benches.def"
#undef MB_BENCH

/* Directory holding cases/ and reports/baseline/ (datadir.c). */
const char *mb_cli_datadir(void);

/* Print "motionbench: <message>" from the last library error and return exit 2. */
int mb_cli_fail(const char *context);

/* Record option (its canonical long name) in seen[0..*n); exit 2 with a message when it
 * was given before: every option is given at most once (seen holds 32 names). */
int mb_cli_once(const char **seen, int *n, const char *option, const char *command);

#endif
