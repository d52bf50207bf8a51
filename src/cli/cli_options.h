/* cli_options.h -- the one option parser of the motionbench commands.
 *
 * A command declares a table of its options (long name, short letter, kind, where the
 * value goes) and its operands; mb_cli_options_parse reads argv[1..argc) against it.
 * Accepted forms: `--name VALUE`, `--name=VALUE`, `-n VALUE`, flags `--name` and `-n`,
 * `-h`/`--help` (the command's help on standard output), and `--`, after which every
 * argument is an operand.  A lone `-` is an operand.  A value is the next argument
 * whatever it looks like (`--t-end -1` is refused as a number, not as an option).
 * Numbers follow the project's rules (mb_input.h: an overflow or an underflow to zero
 * is refused; sizes: mb_memory_parse_size).
 *
 * Errors are recorded (MB_EINVAL, mb_last_error) naming the option as the user spelled
 * it; the caller prints them with mb_cli_fail and exits 2:
 *   unknown option '--outptu' (did you mean '--output'? see motionbench CMD --help)
 *   --output needs a directory
 *   -o: empty directory name
 *   --quiet takes no value
 *   --t-end 'x': give a number > 0
 *   --jobs '0': give a whole number in [1, 1024]
 *   option --output is given twice (give it once)
 *   at most 64 trajectory files
 *   unexpected argument 'x' (see motionbench CMD --help) */
#ifndef MB_CLI_OPTIONS_H
#define MB_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

typedef enum mb_cli_kind {
    MB_CLI_FLAG,      /* no value: *(int *)dest = 1 */
    MB_CLI_STRING,    /* *(const char **)dest = the value */
    MB_CLI_POSITIVE,  /* an integer > 0: *(long *)dest */
    MB_CLI_INTEGER,   /* a whole number in [min, max]: *(long *)dest */
    MB_CLI_DOUBLE,    /* a finite number in [min, max] (min excluded when min_open): *(double *)dest */
    MB_CLI_SIZE,      /* bytes > 0 with an optional K, M, G or T (mb_memory_parse_size): *(double *)dest */
    MB_CLI_CALL       /* each value handed to call(ctx, option, value); MB_SUCCESS or an error */
} mb_cli_kind;

enum {
    MB_CLI_ONCE = 1       /* a second occurrence is refused ("is given twice") */
};

typedef struct mb_cli_option {
    const char *name;          /* long name with its dashes: "--output" */
    char letter;               /* short name ('o' for -o) or 0 */
    mb_cli_kind kind;
    void *dest;                /* where the value goes (see the kinds); unused for CALL */
    const char *value;         /* what the value is, for "needs ...": "a directory" */
    const char *empty;         /* non-NULL: an empty value is refused with "OPTION: EMPTY" */
    int flags;                 /* MB_CLI_ONCE */
    double min, max;           /* MB_CLI_DOUBLE, MB_CLI_INTEGER: the range */
    int min_open;              /* MB_CLI_DOUBLE: min itself is refused */
    int (*call)(void *ctx, const char *option, const char *value);
    void *ctx;
} mb_cli_option;

typedef struct mb_cli_command {
    const char *name;                  /* "score", for "see motionbench score --help" */
    const mb_cli_option *options;
    size_t n_options;
    void (*help)(FILE *out);           /* printed on -h/--help (NULL: the caller prints) */
    const char **operands;             /* filled with the operands in order */
    size_t max_operands;
    const char *operands_what;         /* "trajectory files", for "at most N ..."; NULL:
                                        * "unexpected argument 'X'" past max_operands */
} mb_cli_command;

enum { MB_CLI_PARSED = 0, MB_CLI_HELP = 1 };

/* The call of `--set KEY=VALUE` (ctx: the mb_options of the problem parameters): each key
 * once (mb_options_add_pair). */
int mb_cli_set_param(void *params, const char *option, const char *value);
/* The call of `--trajectory-limit SIZE` (run, score; ctx unused): the cap of a trajectory
 * read back (mb_input_set_cap; doc/limits.md). */
int mb_cli_trajectory_limit(void *ctx, const char *option, const char *value);
#define MB_CLI_TRAJECTORY_LIMIT_HELP \
    "      --trajectory-limit SIZE  the largest trajectory read back (e.g. 2G; default\n" \
    "                    256M, 1K to 1T); it is held whole in memory, about twice its\n" \
    "                    size as .npy (doc/limits.md)\n"

/* Parse argv[1..argc) against cmd: MB_CLI_PARSED with *n_operands set, MB_CLI_HELP when
 * the help was printed, a negative status with the message recorded otherwise. */
int mb_cli_options_parse(const mb_cli_command *cmd, int argc, char **argv, size_t *n_operands);

#endif
