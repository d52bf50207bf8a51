/* bench_util.c -- clock and size options of the step benchmarks (bench_util.h). */
#include "bench_util.h"
#include "bench_cpus.h"
#include "cli.h"
#include "cli_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_EXTRA 8

double mb_bench_now(void)
{
    struct timespec ts;
    mb_bench_cpus_note();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int mb_bench_size_args(int argc, char **argv, const char *cmd, double *max_nodes,
                       double *min_time, const mb_cli_option *extra, size_t n_extra)
{
    mb_cli_option options[2 + MAX_EXTRA] = {
        { .name = "--max-nodes", .kind = MB_CLI_DOUBLE, .dest = max_nodes, .value = "a number",
          .min = 1e3, .max = 1e8 },
        { .name = "--min-time", .kind = MB_CLI_DOUBLE, .dest = min_time, .value = "seconds",
          .min = 0.0, .min_open = 1, .max = 60.0 },
    };
    char name[64], usage[256] = "";
    snprintf(name, sizeof name, "bench %s", cmd);
    if (n_extra > MAX_EXTRA)
        n_extra = MAX_EXTRA;
    for (size_t k = 0; k < n_extra; k++) {
        options[2 + k] = extra[k];
        size_t len = strlen(usage);
        snprintf(usage + len, sizeof usage - len, " [%s%s]", extra[k].name,
                 extra[k].kind == MB_CLI_FLAG   ? ""
                 : extra[k].kind == MB_CLI_SIZE ? " SIZE"
                                                : " PROGRAM");
    }
    const mb_cli_command command = { name, options, 2 + n_extra, NULL, NULL, 0, NULL };
    double default_nodes = *max_nodes, default_time = *min_time;
    size_t n = 0;
    int st = mb_cli_options_parse(&command, argc, argv, &n);
    if (st == MB_CLI_HELP) {
        printf("usage: motionbench bench %s [--max-nodes N] [--min-time S]%s\n"
               "  N: largest system (default %g), sizes 10^3 .. N by decades;\n"
               "  S: seconds of measurement per size (default %g).\n",
               cmd, usage, default_nodes, default_time);
        return -1;
    }
    return st == MB_CLI_PARSED ? 0 : mb_cli_fail(name);
}
