/* cmd_atlas.c -- `motionbench atlas REPORT_DIR [--runs-link PATH] [-o FILE]`: the atlas of a
 * report directory in Markdown (src/report/mb_atlas.h; doc/atlas.md is made by it from
 * reports/atlas/).  Exit: 0 written, 2 usage, unreadable report or findings. */
#include "cli.h"
#include "cli_options.h"
#include "mb_atlas.h"
#include "mb_report.h"
#include "mb_status.h"

#include <stdio.h>
#include <string.h>

static void help(FILE *out)
{
    fprintf(out,
        "usage: motionbench atlas REPORT_DIR [--runs-link PATH] [-o FILE]\n\n"
        "Write the atlas of a report directory written by 'motionbench run' as Markdown:\n"
        "packages as columns (the adapter of external:NAME[...], 'motionbench' for the\n"
        "built-in schemes), the report's expectations as rows (case and metric), each cell\n"
        "the verdicts of that package's integrators, linked to their lines of runs.csv.\n"
        "Expectations named in REPORT_DIR/findings.csv (case, integrator, expectation,\n"
        "finding, command) are marked as findings and listed with their commands.\n\n"
        "  --runs-link PATH  how the page links to runs.csv (default REPORT_DIR/runs.csv)\n"
        "  -o, --output FILE write the page to FILE (default: standard output)\n"
        "  -h, --help        this text\n\n"
        "doc/atlas.md: motionbench atlas reports/atlas --runs-link ../reports/atlas/runs.csv\n"
        "Exit status: 0 written, 2 usage, unreadable report or findings.\n");
}

/* The page into FILE, atomically (a reader never sees half a page). */
static int write_file(const mb_atlas *a, const char *file, const char *link, const char *cmd)
{
    char dir[4096];
    const char *slash = strrchr(file, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
    mb_atomic_file af;
    int st = mb_atomic_open(&af, dir, slash ? slash + 1 : file);
    if (st != MB_SUCCESS)
        return st;
    mb_atlas_markdown(af.f, a, link, cmd);
    st = mb_atomic_close(&af);
    if (st == MB_SUCCESS)
        st = mb_atomic_commit(&af);
    mb_atomic_discard(&af);
    return st;
}

int mb_cmd_atlas(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL, *link = NULL;
    const mb_cli_option options[] = {
        { .name = "--output", .letter = 'o', .kind = MB_CLI_STRING, .dest = &out,
          .value = "a file", .empty = "empty file name" },
        { .name = "--runs-link", .kind = MB_CLI_STRING, .dest = &link,
          .value = "a path", .empty = "empty path" },
    };
    const mb_cli_command cmd = { "atlas", options, 2, help, &dir, 1, NULL };
    size_t n = 0;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    if (st == MB_CLI_HELP)
        return MB_EXIT_OK;
    if (st != MB_CLI_PARSED)
        return mb_cli_fail("atlas");
    if (dir == NULL || *dir == '\0') {
        help(stderr);
        return MB_EXIT_USAGE;
    }
    char runs[4200], command[8600];
    snprintf(runs, sizeof runs, "%s/runs.csv", dir);
    snprintf(command, sizeof command, "motionbench atlas %s%s%s", dir,
             link ? " --runs-link " : "", link ? link : "");
    mb_results *r = NULL;
    mb_atlas *a = NULL;
    if (mb_results_load(dir, &r) != MB_SUCCESS || mb_atlas_build(r, &a) != MB_SUCCESS) {
        mb_results_free(r);
        return mb_cli_fail("atlas");
    }
    st = MB_SUCCESS;
    if (out)
        st = write_file(a, out, link ? link : runs, command);
    else
        mb_atlas_markdown(stdout, a, link ? link : runs, command);
    mb_atlas_free(a);
    mb_results_free(r);
    return st == MB_SUCCESS ? MB_EXIT_OK : mb_cli_fail("atlas");
}
