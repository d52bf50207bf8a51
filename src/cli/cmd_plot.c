/* cmd_plot.c -- `motionbench plot REPORT_DIR [-o DIR]`: the plots of a report directory
 * through gnuplot (src/report/mb_plot.h).  Exit: 0 plots written, 2 usage, unreadable
 * report, gnuplot missing or failing (said so, never skipped silently). */
#include "cli.h"
#include "mb_plot.h"
#include "mb_status.h"

#include <stdio.h>
#include <string.h>

static void help(FILE *out)
{
    fprintf(out,
        "usage: motionbench plot REPORT_DIR [-o DIR]\n\n"
        "Draw the plots of a report written by 'motionbench run' (run --series as well for\n"
        "the energy plots) with gnuplot, as PNG and SVG, into DIR (default REPORT_DIR/plots):\n"
        "  CASE__convergence-QUANTITY  error against dt (log-log), fitted order and range,\n"
        "                              points excluded from the fit drawn open\n"
        "  CASE__work-precision        error against force evaluations per run\n"
        "  CASE__energy                relative energy error against time\n"
        "Each plot's gnuplot script (.gp) and data (.dat) are kept beside it.\n\n"
        "  -o, --output DIR  where the plots go\n"
        "  -h, --help        this text\n\n"
        "gnuplot is looked up in PATH (or MB_GNUPLOT).  Exit status: 0 plots written,\n"
        "2 usage, unreadable report, gnuplot missing or failing.\n");
}

int mb_cli_plot_dir(const char *report_dir, const char *out_dir)
{
    char def[4096];
    if (out_dir == NULL) {
        snprintf(def, sizeof def, "%s/plots", report_dir);
        out_dir = def;
    }
    mb_results *r = NULL;
    if (mb_results_load(report_dir, &r) != MB_SUCCESS)
        return mb_cli_fail("plot");
    size_t n = 0;
    int st = mb_plot_report(r, out_dir, &n);
    mb_results_free(r);
    if (st != MB_SUCCESS)
        return mb_cli_fail("plot");
    fprintf(stderr, "motionbench: %zu plot%s (PNG and SVG) in %s/\n", n, n == 1 ? "" : "s",
            out_dir);
    return MB_EXIT_OK;
}

int mb_cmd_plot(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
            help(stdout);
            return MB_EXIT_OK;
        } else if (!strcmp(argv[k], "-o") || !strcmp(argv[k], "--output")) {
            if (++k == argc || argv[k][0] == '\0') {
                fprintf(stderr, "motionbench: plot: %s needs a directory\n", argv[k - 1]);
                return MB_EXIT_USAGE;
            }
            out = argv[k];
        } else if (argv[k][0] == '-' || argv[k][0] == '\0' || dir != NULL) {
            fprintf(stderr, "motionbench: plot: unexpected argument '%s' (see --help)\n",
                    argv[k]);
            return MB_EXIT_USAGE;
        } else {
            dir = argv[k];
        }
    }
    if (dir == NULL) {
        help(stderr);
        return MB_EXIT_USAGE;
    }
    return mb_cli_plot_dir(dir, out);
}
