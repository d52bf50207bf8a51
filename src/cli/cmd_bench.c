/* cmd_bench.c -- `motionbench bench NAME [ARGS]`: dispatch to the benchmarks listed in
 * benches.def (one line per benchmark, so contributors add theirs without touching this
 * file). */
#include "bench_cpus.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const struct bench {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} benches[] = {
#define MB_BENCH(name, fn, summary) { name, fn, summary },
#include "benches.def"
#undef MB_BENCH
    { NULL, NULL, NULL }
};

static void bench_usage(FILE *out)
{
    fprintf(out, "usage: motionbench bench NAME [--help | bench options]\n\nbenchmarks:\n");
    for (const struct bench *b = benches; b->name; b++)
        fprintf(out, "  %-16s %s\n", b->name, b->summary);
    fprintf(out, "\n'motionbench bench NAME --help' lists a benchmark's options.\n"
                 "Exit status: 0 the benchmark's check passed, 1 it failed, 2 usage error.\n");
}

int mb_cmd_bench(int argc, char **argv)
{
    if (argc < 2) {
        bench_usage(stderr);
        return MB_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        bench_usage(stdout);
        return MB_EXIT_OK;
    }
    for (const struct bench *b = benches; b->name; b++)
        if (!strcmp(argv[1], b->name)) {
            int st = b->run(argc - 1, argv + 1);
            fflush(stdout);
            mb_bench_cpus_report(stdout);
            return st;
        }
    fprintf(stderr, "motionbench bench: unknown benchmark '%s'\n", argv[1]);
    bench_usage(stderr);
    return MB_EXIT_USAGE;
}
