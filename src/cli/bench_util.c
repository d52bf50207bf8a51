/* bench_util.c -- clock and size options of the step benchmarks (bench_util.h). */
#include "bench_util.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double mb_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int mb_bench_size_args(int argc, char **argv, const char *cmd, double *max_nodes,
                       double *min_time)
{
    for (int k = 1; k < argc; k++) {
        char *end = NULL;
        if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
            printf("usage: motionbench bench %s [--max-nodes N] [--min-time S]\n"
                   "  N: largest system (default %g), sizes 10^3 .. N by decades;\n"
                   "  S: seconds of measurement per size (default %g).\n",
                   cmd, *max_nodes, *min_time);
            return -1;
        }
        if (k + 1 < argc && !strcmp(argv[k], "--max-nodes")) {
            *max_nodes = strtod(argv[++k], &end);
            if (*end != '\0' || !(*max_nodes >= 1e3 && *max_nodes <= 1e8)) {
                fprintf(stderr, "motionbench bench %s: --max-nodes '%s' must be a number in [1e3, 1e8]\n",
                        cmd, argv[k]);
                return MB_EXIT_USAGE;
            }
        } else if (k + 1 < argc && !strcmp(argv[k], "--min-time")) {
            *min_time = strtod(argv[++k], &end);
            if (*end != '\0' || !(*min_time > 0.0 && *min_time <= 60.0)) {
                fprintf(stderr, "motionbench bench %s: --min-time '%s' must be in (0, 60] seconds\n",
                        cmd, argv[k]);
                return MB_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "motionbench bench %s: unexpected argument '%s' (see --help)\n", cmd, argv[k]);
            return MB_EXIT_USAGE;
        }
    }
    return 0;
}
