/* report_args.c -- the arguments "REPORT_DIR [-o DIR]" shared by `plot` and `report`. */
#include "cli.h"
#include "cli_options.h"
#include "mb_status.h"

#include <stdio.h>
#include <string.h>

int mb_cli_report_args(int argc, char **argv, const char *command, void (*help)(FILE *),
                       const char *default_sub, char *out_buf, size_t out_size,
                       const char **dir, const char **out)
{
    *dir = *out = NULL;
    const mb_cli_option options[] = {
        { .name = "--output", .letter = 'o', .kind = MB_CLI_STRING, .dest = out,
          .value = "a directory", .empty = "empty directory name" },
    };
    const mb_cli_command cmd = { command, options, 1, help, dir, 1, NULL };
    size_t n = 0;
    int st = mb_cli_options_parse(&cmd, argc, argv, &n);
    if (st == MB_CLI_HELP)
        return 1;
    if (st == MB_CLI_PARSED && n == 1 && **dir == '\0')
        st = mb_error_record(MB_EINVAL, __FILE__, __LINE__, "the report directory is empty");
    if (st != MB_CLI_PARSED)
        return mb_cli_fail(command);
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
