/* cmd_report.c -- `motionbench report REPORT_DIR [-o DIR]`: the HTML report of a report
 * directory (src/report/mb_html.h).  Exit: 0 written, 2 usage, unreadable report,
 * gnuplot missing or failing. */
#include "cli.h"
#include "mb_html.h"
#include "mb_status.h"

#include <stdio.h>
#include <string.h>

static void help(FILE *out)
{
    fprintf(out,
        "usage: motionbench report REPORT_DIR [-o DIR]\n\n"
        "Write an HTML report of a report directory written by 'motionbench run' into DIR\n"
        "(default REPORT_DIR/html): index.html with the verdicts (failed expectations\n"
        "first), per case the orders with standard errors, flags and pairwise orders, the\n"
        "expectations, the references used, and the plots (drawn with gnuplot into\n"
        "DIR/plots).  The directory is self-contained: publish or open it as it is.\n\n"
        "  -o, --output DIR  where the report goes\n"
        "  -h, --help        this text\n\n"
        "Exit status: 0 written, 2 usage, unreadable report, gnuplot missing or failing.\n");
}

int mb_cmd_report(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
            help(stdout);
            return MB_EXIT_OK;
        } else if (!strcmp(argv[k], "-o") || !strcmp(argv[k], "--output")) {
            if (++k == argc || argv[k][0] == '\0') {
                fprintf(stderr, "motionbench: report: %s needs a directory\n", argv[k - 1]);
                return MB_EXIT_USAGE;
            }
            out = argv[k];
        } else if (argv[k][0] == '-' || argv[k][0] == '\0' || dir != NULL) {
            fprintf(stderr, "motionbench: report: unexpected argument '%s' (see --help)\n",
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
    char def[4096];
    if (out == NULL) {
        snprintf(def, sizeof def, "%s/html", dir);
        out = def;
    }
    mb_results *r = NULL;
    if (mb_results_load(dir, &r) != MB_SUCCESS)
        return mb_cli_fail("report");
    int st = mb_html_report(r, out);
    mb_results_free(r);
    if (st != MB_SUCCESS)
        return mb_cli_fail("report");
    fprintf(stderr, "motionbench: report in %s/index.html\n", out);
    return MB_EXIT_OK;
}
