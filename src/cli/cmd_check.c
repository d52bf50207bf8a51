/* cmd_check.c -- `motionbench check --baseline BASEDIR [DIR]`: the CI regression check of
 * DIR/metrics.csv (default reports/) against BASEDIR/metrics.csv (DESIGN 8).
 * Exit: 0 no regression, 1 some regression (each printed with old and new value),
 * 2 usage or unreadable/malformed files. */
#include "cli.h"
#include "mb_baseline.h"
#include "mb_status.h"

#include <stdio.h>
#include <string.h>

static void help(FILE *out)
{
    fprintf(out,
        "usage: motionbench check [--baseline BASEDIR] [DIR]\n\n"
        "Compare DIR/metrics.csv (default DIR: reports) with BASEDIR/metrics.csv.\n"
        "A regression is a baseline metric that is missing now, a changed status, or a\n"
        "value that moved by more than its tolerance (the tolerance column of the new\n"
        "metrics.csv: rel:T relative, abs:T absolute; set per case in [check]).\n"
        "Metrics that are new (not in the baseline) are listed but are not regressions.\n\n"
        "  -b, --baseline BASEDIR  directory of the baseline metrics.csv (default: the\n"
        "                          committed baseline, %s/reports/baseline)\n"
        "  -q, --quiet             print regressions only\n"
        "  -h, --help              this text\n\n"
        "Exit status: 0 no regression, 1 regressions, 2 usage or bad input.\n",
        mb_cli_datadir());
}

int mb_cmd_check(int argc, char **argv)
{
    const char *base = NULL, *dir = NULL;
    int quiet = 0;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
            help(stdout);
            return MB_EXIT_OK;
        } else if (!strcmp(argv[k], "-b") || !strcmp(argv[k], "--baseline")) {
            if (++k == argc) {
                fprintf(stderr, "motionbench: check: --baseline needs a directory\n");
                return MB_EXIT_USAGE;
            }
            if (argv[k][0] == '\0') {
                fprintf(stderr, "motionbench: check: %s: empty directory name\n", argv[k - 1]);
                return MB_EXIT_USAGE;
            }
            base = argv[k];
        } else if (!strcmp(argv[k], "-q") || !strcmp(argv[k], "--quiet")) {
            quiet = 1;
        } else if (argv[k][0] == '-') {
            fprintf(stderr, "motionbench: check: unknown option '%s' (see --help)\n", argv[k]);
            return MB_EXIT_USAGE;
        } else if (argv[k][0] == '\0') {
            fprintf(stderr, "motionbench: check: empty report directory name\n");
            return MB_EXIT_USAGE;
        } else if (dir == NULL) {
            dir = argv[k];
        } else {
            fprintf(stderr, "motionbench: check: one report directory only ('%s')\n", argv[k]);
            return MB_EXIT_USAGE;
        }
    }
    char bpath[4096], cpath[4096];
    if (base)
        snprintf(bpath, sizeof bpath, "%s/metrics.csv", base);
    else
        snprintf(bpath, sizeof bpath, "%s/reports/baseline/metrics.csv", mb_cli_datadir());
    snprintf(cpath, sizeof cpath, "%s/metrics.csv", dir ? dir : "reports");
    mb_metric_table *b = NULL, *c = NULL;
    if (mb_metric_table_read(bpath, &b) != MB_SUCCESS)
        return mb_cli_fail("check");
    if (mb_metric_table_read(cpath, &c) != MB_SUCCESS) {
        mb_metric_table_free(b);
        return mb_cli_fail("check");
    }
    mb_baseline_summary s;
    FILE *out = stdout;
    mb_baseline_compare(b, c, out, &s);
    if (!quiet || s.regressions)
        printf("%zu baseline metrics compared: %zu regression%s (%zu missing), %zu new\n",
               s.compared, s.regressions, s.regressions == 1 ? "" : "s", s.missing, s.added);
    mb_metric_table_free(b);
    mb_metric_table_free(c);
    return s.regressions ? MB_EXIT_FAIL : MB_EXIT_OK;
}
