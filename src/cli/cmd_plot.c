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
        "Draw the plots of a report written by 'motionbench run' with gnuplot, as SVG, into\n"
        "DIR (default REPORT_DIR/plots):\n"
        "  CASE__convergence-QUANTITY  error against dt (log-log), fitted order and range,\n"
        "                              points excluded from the fit drawn open, the\n"
        "                              expected (else declared) order as a dashed slope\n"
        "  CASE__work-precision        error against force evaluations per run (outside\n"
        "                              programs: wall time, including start-up)\n"
        "  CASE__energy                |E - E0| / S against time (log axis)\n"
        "  CASE__damping               damped displacement and its peaks (damping cases)\n"
        "  CASE__angmom-*, __quat-norm, __flip  rotation invariants (rotating cases)\n"
        "The plots against time need REPORT_DIR/series/ (run --series; run --plots draws\n"
        "them from memory).  Each plot's gnuplot script (.gp) and data (.dat) are kept\n"
        "beside it; the script draws a PNG when gnuplot is given fmt=\"png\".\n\n"
        "  -o, --output DIR  where the plots go\n"
        "  -h, --help        this text\n\n"
        "gnuplot is looked up in PATH (or MB_GNUPLOT).  Exit status: 0 plots written,\n"
        "2 usage, unreadable report, gnuplot missing or failing.\n");
}

int mb_cli_plot_dir(const char *report_dir, const char *out_dir,
                    const struct mb_case_result *runs, size_t n_runs)
{
    char def[4096];
    if (out_dir == NULL) {
        snprintf(def, sizeof def, "%s/plots", report_dir);
        out_dir = def;
    }
    mb_results *r = NULL;
    if (mb_results_load(report_dir, &r) != MB_SUCCESS)
        return mb_cli_fail("plot");
    r->memory = runs;
    r->n_memory = n_runs;
    size_t n = 0;
    int st = mb_plot_report(r, out_dir, &n);
    mb_results_free(r);
    if (st != MB_SUCCESS)
        return mb_cli_fail("plot");
    fprintf(stderr, "motionbench: %zu plot%s (SVG) in %s/\n", n, n == 1 ? "" : "s", out_dir);
    return MB_EXIT_OK;
}

int mb_cmd_plot(int argc, char **argv)
{
    const char *dir, *out;
    char buf[4096];
    int p = mb_cli_report_args(argc, argv, "plot", help, "plots", buf, sizeof buf, &dir, &out);
    if (p != 0)
        return p == 1 ? MB_EXIT_OK : MB_EXIT_USAGE;
    return mb_cli_plot_dir(dir, out, NULL, 0);
}
