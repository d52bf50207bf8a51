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
        "(default REPORT_DIR/html): index.html with a summary per integrator across the\n"
        "cases, the verdicts (failed expectations first), the cases with their\n"
        "descriptions, per case the orders with standard errors, flags and pairwise\n"
        "orders, the expectations, the references used, and the plots: the SVG files of\n"
        "REPORT_DIR/plots, used as they are when run --plots drew them from these results,\n"
        "else drawn there (into DIR/plots when DIR is outside REPORT_DIR).  Publish\n"
        "REPORT_DIR (or DIR) as it is.\n\n"
        "  -o, --output DIR  where the report goes\n"
        "  -h, --help        this text\n\n"
        "Exit status: 0 written, 2 usage, unreadable report, gnuplot missing or failing.\n");
}

int mb_cmd_report(int argc, char **argv)
{
    const char *dir, *out;
    char buf[4096];
    int p = mb_cli_report_args(argc, argv, "report", help, "html", buf, sizeof buf, &dir, &out);
    if (p != 0)
        return p == 1 ? MB_EXIT_OK : MB_EXIT_USAGE;
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
