/* test_cli_options.c -- the commands' option parser (src/cli/cli_options.c): every kind
 * of value, the three spellings of an option with a value (--name VALUE, --name=VALUE,
 * -n VALUE), `--`, operands, help, and every refusal with its message naming the option
 * as spelled.  Expected values are written out by hand (3k = 3 * 1024 = 3072 bytes,
 * 1.5G = 1.5 * 2^30 = 1610612736). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "cli_options.h"
#include "mb_status.h"

static int help_printed;
static void help(FILE *out)
{
    (void)out;
    help_printed = 1;
}

/* What one parse left behind. */
typedef struct parsed {
    const char *out;
    int quiet;
    long count, jobs;
    double unit, pos;
    double size;
    char calls[128];
    const char *operands[3];
    size_t n_operands;
    int status;
} parsed;

static int collect(void *ctx, const char *option, const char *value)
{
    char *calls = ctx;
    if (!strcmp(value, "bad"))
        MB_ERROR(MB_EINVAL, "%s '%s': refused by the command", option, value);
    strcat(calls, value);
    strcat(calls, ";");
    return MB_SUCCESS;
}

/* Parse the NULL-terminated words (the command name first). */
static parsed parse(const char *const *words)
{
    static parsed P;
    memset(&P, 0, sizeof P);
    const mb_cli_option options[] = {
        { .name = "--output", .letter = 'o', .kind = MB_CLI_STRING, .dest = &P.out,
          .value = "a directory", .empty = "empty directory name",
          .flags = MB_CLI_ONCE },
        { .name = "--quiet", .letter = 'q', .kind = MB_CLI_FLAG, .dest = &P.quiet },
        { .name = "--count", .letter = 'n', .kind = MB_CLI_POSITIVE, .dest = &P.count },
        { .name = "--jobs", .letter = 'j', .kind = MB_CLI_INTEGER, .dest = &P.jobs, .min = 1,
          .max = 1024 },
        { .name = "--unit", .kind = MB_CLI_DOUBLE, .dest = &P.unit, .min = -1, .max = 1 },
        { .name = "--pos", .kind = MB_CLI_DOUBLE, .dest = &P.pos, .min = 0, .min_open = 1,
          .max = INFINITY },
        { .name = "--size", .kind = MB_CLI_SIZE, .dest = &P.size },
        { .name = "--set", .kind = MB_CLI_CALL, .call = collect, .ctx = P.calls,
          .value = "KEY=VALUE" },
    };
    const mb_cli_command cmd = { "demo", options, sizeof options / sizeof *options, help,
                                 P.operands, 3, "inputs" };
    char *argv[32];
    int argc = 0;
    while (words[argc]) {
        argv[argc] = (char *)words[argc];
        argc++;
    }
    argv[argc] = NULL;                                       /* as the C runtime gives it */
    help_printed = 0;
    P.status = mb_cli_options_parse(&cmd, argc, argv, &P.n_operands);
    return P;
}

#define PARSE(...) parse((const char *const[]){ "demo", __VA_ARGS__, NULL })

/* The parse is refused with a message holding `expected`. */
#define REFUSED(expected, ...) do { \
        parsed r_ = PARSE(__VA_ARGS__); \
        cr_assert_eq(r_.status, MB_EINVAL, "status %d for %s", r_.status, expected); \
        cr_assert(strstr(mb_last_error(), expected), "message '%s', wanted '%s'", \
                  mb_last_error(), expected); \
    } while (0)

Test(cli_options, three_spellings_of_a_value)
{
    cr_assert_str_eq(PARSE("--output", "d1").out, "d1");
    cr_assert_str_eq(PARSE("--output=d2").out, "d2");
    cr_assert_str_eq(PARSE("-o", "d3").out, "d3");
    cr_assert_str_eq(PARSE("--output=a=b").out, "a=b");      /* only the first '=' splits */
    cr_assert_str_eq(PARSE("-o", "-x").out, "-x");           /* a value may start with '-' */
}

Test(cli_options, flags_and_operands_in_any_order)
{
    parsed p = PARSE("in1", "-q", "in2", "-", "--count", "7");
    cr_assert_eq(p.status, MB_CLI_PARSED);
    cr_assert_eq(p.quiet, 1);
    cr_assert_eq(p.count, 7);
    cr_assert_eq(p.n_operands, 3);
    cr_assert_str_eq(p.operands[0], "in1");
    cr_assert_str_eq(p.operands[1], "in2");
    cr_assert_str_eq(p.operands[2], "-");                    /* a lone dash is an operand */
    cr_assert_eq(PARSE("--quiet").quiet, 1);
}

Test(cli_options, double_dash_ends_the_options)
{
    parsed p = PARSE("-q", "--", "--output", "-h");
    cr_assert_eq(p.status, MB_CLI_PARSED);
    cr_assert_null(p.out);
    cr_assert_eq(p.n_operands, 2);
    cr_assert_str_eq(p.operands[0], "--output");
    cr_assert_str_eq(p.operands[1], "-h");
    cr_assert_eq(help_printed, 0);
}

Test(cli_options, help)
{
    cr_assert_eq(PARSE("x", "--help").status, MB_CLI_HELP);
    cr_assert_eq(help_printed, 1);
    cr_assert_eq(PARSE("-h").status, MB_CLI_HELP);
}

Test(cli_options, positive_integers)
{
    cr_assert_eq(PARSE("-n", "12").count, 12);
    REFUSED("--count '0': give an integer > 0", "--count", "0");
    REFUSED("-n '-3': give an integer > 0", "-n", "-3");
    REFUSED("--count '4x': give an integer > 0", "--count=4x");
    REFUSED("'99999999999999999999999': give an integer > 0", "-n", "99999999999999999999999");
}

Test(cli_options, integers_in_a_range)
{
    cr_assert_eq(PARSE("-j", "1").jobs, 1);                  /* both ends included */
    cr_assert_eq(PARSE("--jobs=1024").jobs, 1024);
    REFUSED("--jobs '0': give a whole number in [1, 1024]", "--jobs", "0");
    REFUSED("-j '1025': give a whole number in [1, 1024]", "-j", "1025");
    REFUSED("--jobs '2.5': give a whole number in [1, 1024]", "--jobs", "2.5");
    REFUSED("--jobs '': give a whole number in [1, 1024]", "--jobs", "");
    REFUSED("'99999999999999999999999': give a whole number", "-j", "99999999999999999999999");
}

Test(cli_options, doubles_in_a_range)
{
    cr_assert_eq(PARSE("--unit", "1").unit, 1.0);            /* both ends included */
    cr_assert_eq(PARSE("--unit", "-1").unit, -1.0);
    cr_assert_eq(PARSE("--unit", "4.9e-324").unit, 4.9e-324); /* subnormal: exact, kept */
    REFUSED("--unit '1.5': give a number in [-1, 1]", "--unit", "1.5");
    REFUSED("--unit '1e-400': give a number in [-1, 1]", "--unit", "1e-400"); /* underflow to 0 */
    REFUSED("--unit 'nan': give a number in [-1, 1]", "--unit", "nan");
    REFUSED("--unit '0.5x'", "--unit", "0.5x");
    cr_assert_eq(PARSE("--pos", "2.5").pos, 2.5);
    REFUSED("--pos '0': give a number > 0", "--pos", "0"); /* an open end */
    REFUSED("--pos '1e999': give a number > 0", "--pos", "1e999"); /* overflow */
    REFUSED("--pos 'inf': give a number > 0", "--pos", "inf");
}

Test(cli_options, sizes_with_suffixes)
{
    cr_assert_eq(PARSE("--size", "512").size, 512.0);
    cr_assert_eq(PARSE("--size", "3k").size, 3072.0);
    cr_assert_eq(PARSE("--size", "3K").size, 3072.0);
    cr_assert_eq(PARSE("--size", "2M").size, 2097152.0);
    cr_assert_eq(PARSE("--size", "1.5G").size, 1610612736.0);
    const char *bad[] = { "0", "-1", "k", "5x", "3kk", "", "1e999", "nan" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        REFUSED("--size: memory size", "--size", bad[k]);
}

Test(cli_options, repeated_values_in_order)
{
    parsed p = PARSE("--set", "a=1", "--set=b=2", "--set", "a=3");
    cr_assert_eq(p.status, MB_CLI_PARSED);
    cr_assert_str_eq(p.calls, "a=1;b=2;a=3;");
    REFUSED("--set 'bad': refused by the command", "--set", "bad");
}

Test(cli_options, unknown_options_with_a_hint)
{
    REFUSED("unknown option '--outptu' (did you mean '--output'? see motionbench demo --help)",
            "--outptu", "d");
    REFUSED("unknown option '--qiet' (did you mean '--quiet'?", "--qiet=1");
    REFUSED("unknown option '--zzzzzzzzzzzz' (see motionbench demo --help)", "--zzzzzzzzzzzz");
    REFUSED("unknown option '-z' (see motionbench demo --help)", "-z");
    REFUSED("unknown option '-oq'", "-oq");                  /* no bundled or glued letters */
}

Test(cli_options, missing_and_empty_values)
{
    REFUSED("--output needs a directory", "--output");
    REFUSED("-o needs a directory", "x", "-o");
    REFUSED("--output: empty directory name", "--output=");
    REFUSED("-o: empty directory name", "-o", "");
    REFUSED("--count needs a value", "--count");
    cr_assert_str_eq(PARSE("--set", "").calls, ";");          /* empty allowed where not refused */
}

Test(cli_options, once_and_no_value_for_a_flag)
{
    REFUSED("option --output is given twice (give it once)", "-o", "a", "--output=b");
    cr_assert_eq(PARSE("-q", "--quiet").status, MB_CLI_PARSED); /* repeatable flag */
    REFUSED("--quiet takes no value", "--quiet=yes");
}

Test(cli_options, operand_limit)
{
    REFUSED("at most 3 inputs", "a", "b", "c", "d");
    cr_assert_eq(PARSE("a", "b", "c").n_operands, 3);
}
