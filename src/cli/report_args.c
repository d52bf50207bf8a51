/* report_args.c -- the arguments "REPORT_DIR [-o DIR]" shared by `plot` and `report`. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int mb_cli_report_args(int argc, char **argv, const char *command, void (*help)(FILE *),
                       const char *default_sub, char *out_buf, size_t out_size,
                       const char **dir, const char **out)
{
    *dir = *out = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "-h") || !strcmp(argv[k], "--help")) {
            help(stdout);
            return 1;
        } else if (!strcmp(argv[k], "-o") || !strcmp(argv[k], "--output")) {
            if (++k == argc || argv[k][0] == '\0') {
                fprintf(stderr, "motionbench: %s: %s needs a directory\n", command, argv[k - 1]);
                return 2;
            }
            *out = argv[k];
        } else if (argv[k][0] == '-' || argv[k][0] == '\0' || *dir != NULL) {
            fprintf(stderr, "motionbench: %s: unexpected argument '%s' (see --help)\n", command,
                    argv[k]);
            return 2;
        } else {
            *dir = argv[k];
        }
    }
    if (*dir == NULL) {
        help(stderr);
        return 2;
    }
    if (*out == NULL) {
        snprintf(out_buf, out_size, "%s/%s", *dir, default_sub);
        *out = out_buf;
    }
    return 0;
}
