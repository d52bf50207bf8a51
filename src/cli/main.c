/* main.c -- the motionbench program: dispatch to one command per file.
 *
 * Copyright (C) 2026 the motionbench authors.
 * This file is part of motionbench, free software: you can redistribute it and/or modify
 * it under the terms of the GNU General Public License as published by the Free Software
 * Foundation, either version 3 of the License, or (at your option) any later version.
 * motionbench is distributed WITHOUT ANY WARRANTY; see COPYING. */
#include "cli.h"
#include "mb_init.h"
#include "mb_output.h"
#include "mb_status.h"

#include "config.h"

#include <stdio.h>
#include <string.h>

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "list", mb_cmd_list, "list integrators or problems" },
    { "run", mb_cmd_run, "run case files and write CSV reports" },
    { "merge", mb_cmd_merge, "merge the shard directories of run --shard into one report" },
    { "check", mb_cmd_check, "compare a report's metrics with a baseline" },
    { "plot", mb_cmd_plot, "draw a report's convergence, work-precision and energy plots" },
    { "report", mb_cmd_report, "write a report's HTML page with its plots" },
    { "atlas", mb_cmd_atlas, "write a report's atlas: packages against problems, in Markdown" },
    { "reference", mb_cmd_reference, "reference state of a problem at a time (analytic, ode, mpfr)" },
    { "simulate", mb_cmd_simulate, "integrate one problem, write a time-series CSV" },
    { "score", mb_cmd_score, "score trajectories produced elsewhere against a problem's reference" },
    { "bench", mb_cmd_bench, "run a named performance benchmark" },
    { NULL, NULL, NULL }
};

/* --version, in the form the GNU Coding Standards ask for. */
static void version(void)
{
    printf("motionbench %s\n"
           "Copyright (C) 2026 the motionbench authors.\n"
           "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
           "This is free software: you are free to change and redistribute it.\n"
           "There is NO WARRANTY, to the extent permitted by law.\n", PACKAGE_VERSION);
}

static void usage(FILE *out)
{
    fprintf(out, "usage: motionbench COMMAND [ARGS]\n\ncommands:\n");
    for (const struct command *c = commands; c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\n'motionbench COMMAND --help' describes each command; "
                 "'motionbench --version' prints the version.\n"
                 "Exit status: 0 success, 1 an expectation or check failed, 2 usage or input error.\n");
}

int mb_cli_fail(const char *context)
{
    if (context && *context)
        fprintf(stderr, "motionbench: %s: %s\n", context, mb_last_error());
    else
        fprintf(stderr, "motionbench: %s\n", mb_last_error());
    return MB_EXIT_USAGE;
}

/* Every command's output to standard output is checked when it is closed: a full disk
 * or a closed pipe turns the exit status into 2 with a message, never a silent 0. */
static int finish_stdout(int code)
{
    if (mb_output_close_stdout() != MB_SUCCESS) {
        fprintf(stderr, "motionbench: %s\n", mb_last_error());
        return MB_EXIT_USAGE;
    }
    return code;
}

static int dispatch(int argc, char **argv)
{
    mb_init();
    if (argc < 2) {
        usage(stderr);
        return MB_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return MB_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        version();
        return MB_EXIT_OK;
    }
    for (const struct command *c = commands; c->name; c++)
        if (strcmp(argv[1], c->name) == 0)
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "motionbench: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return MB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    return finish_stdout(dispatch(argc, argv));
}
