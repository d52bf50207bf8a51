/* cli_options.c -- the table-driven option parser of the commands (cli_options.h).
 * One pass over argv: each argument is `--`, an option (found by long name, by
 * `--name=value` or by short letter), or an operand; an option's value is converted by
 * its kind and stored.  Every refusal names the option as the user spelled it. */
#include "cli_options.h"
#include "mb_input.h"
#include "mb_memory.h"
#include "mb_options.h"
#include "mb_status.h"
#include "mb_text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTIONS 64

/* The option of cmd that arg names (before any '='), or NULL. */
static const mb_cli_option *find(const mb_cli_command *cmd, const char *arg, size_t name_len)
{
    for (size_t k = 0; k < cmd->n_options; k++) {
        const mb_cli_option *o = &cmd->options[k];
        if (arg[1] == '-' ? strlen(o->name) == name_len && !strncmp(o->name, arg, name_len)
                          : o->letter != 0 && name_len == 2 && arg[1] == o->letter)
            return o;
    }
    return NULL;
}

static int unknown(const mb_cli_command *cmd, const char *arg, size_t name_len)
{
    const char *names[MAX_OPTIONS + 2];
    size_t n = 0;
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)name_len, arg);
    for (size_t k = 0; k < cmd->n_options && n < MAX_OPTIONS; k++)
        names[n++] = cmd->options[k].name;
    names[n++] = "--help";
    names[n] = NULL;
    const char *near = arg[1] == '-' ? mb_suggest(word, names) : NULL;
    if (near)
        MB_ERROR(MB_EINVAL, "unknown option '%s' (did you mean '%s'? see motionbench %s --help)",
                 word, near, cmd->name);
    MB_ERROR(MB_EINVAL, "unknown option '%s' (see motionbench %s --help)", word, cmd->name);
}

static int parse_positive(const char *spelled, const char *v, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno == ERANGE || x <= 0)
        MB_ERROR(MB_EINVAL, "%s '%s': give an integer > 0", spelled, v);
    *out = x;
    return MB_SUCCESS;
}

/* A whole number in [o->min, o->max] (both ends included). */
static int parse_integer(const mb_cli_option *o, const char *spelled, const char *v, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno == ERANGE || (double)x < o->min || (double)x > o->max)
        MB_ERROR(MB_EINVAL, "%s '%s': give a whole number in [%.0f, %.0f]", spelled, v, o->min,
                 o->max);
    *out = x;
    return MB_SUCCESS;
}

static int parse_double(const mb_cli_option *o, const char *spelled, const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    int in = end != v && *end == '\0';
    in = in && mb_strtod_in_range(x) && isfinite(x);
    in = in && (o->min_open ? x > o->min : x >= o->min) && x <= o->max;
    if (!in) {
        if (isinf(o->max))
            MB_ERROR(MB_EINVAL, "%s '%s': give a number %s %.17g", spelled, v,
                     o->min_open ? ">" : ">=", o->min);
        MB_ERROR(MB_EINVAL, "%s '%s': give a number in %c%.17g, %.17g]", spelled, v,
                 o->min_open ? '(' : '[', o->min, o->max);
    }
    *out = x;
    return MB_SUCCESS;
}

/* A size by the project's rule (mb_memory_parse_size), the option named first. */
static int parse_size(const char *spelled, const char *v, double *out)
{
    char why[256];
    if (mb_memory_parse_size(v, out) == MB_SUCCESS)
        return MB_SUCCESS;
    mb_text_format(why, sizeof why, "%s", mb_last_error());   /* the slot is rewritten */
    MB_ERROR(MB_EINVAL, "%s: %s", spelled, why);
}

static int store(const mb_cli_option *o, const char *spelled, const char *v)
{
    switch (o->kind) {
    case MB_CLI_STRING:
        *(const char **)o->dest = v;
        return MB_SUCCESS;
    case MB_CLI_POSITIVE:
        return parse_positive(spelled, v, (long *)o->dest);
    case MB_CLI_INTEGER:
        return parse_integer(o, spelled, v, (long *)o->dest);
    case MB_CLI_DOUBLE:
        return parse_double(o, spelled, v, (double *)o->dest);
    case MB_CLI_SIZE:
        return parse_size(spelled, v, (double *)o->dest);
    case MB_CLI_CALL:
        return o->call(o->ctx, spelled, v);
    case MB_CLI_FLAG:
        break;
    }
    *(int *)o->dest = 1;
    return MB_SUCCESS;
}

/* One option at argv[*k]; *k moves past its value. */
static int option(const mb_cli_command *cmd, int argc, char **argv, int *k, unsigned *seen)
{
    const char *arg = argv[*k], *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    const mb_cli_option *o = find(cmd, arg, name_len);
    if (o == NULL)
        return unknown(cmd, arg, name_len);
    char spelled[128];
    snprintf(spelled, sizeof spelled, "%.*s", (int)name_len, arg);
    size_t i = (size_t)(o - cmd->options);
    if ((o->flags & MB_CLI_ONCE) && seen[i])
        MB_ERROR(MB_EINVAL, "option %s is given twice (give it once)", o->name);
    seen[i] = 1;
    if (o->kind == MB_CLI_FLAG) {
        if (eq)
            MB_ERROR(MB_EINVAL, "%s takes no value", spelled);
        return store(o, spelled, NULL);
    }
    const char *v = eq ? eq + 1 : *k + 1 < argc ? argv[++*k] : NULL;
    if (v == NULL)
        MB_ERROR(MB_EINVAL, "%s needs %s", spelled, o->value ? o->value : "a value");
    if (v[0] == '\0' && o->empty)
        MB_ERROR(MB_EINVAL, "%s: %s", spelled, o->empty);
    return store(o, spelled, v);
}

int mb_cli_options_parse(const mb_cli_command *cmd, int argc, char **argv, size_t *n_operands)
{
    unsigned seen[MAX_OPTIONS] = { 0 };
    int operands_only = 0;
    *n_operands = 0;
    if (cmd->n_options > MAX_OPTIONS)
        MB_ERROR(MB_EINVAL, "motionbench %s declares %zu options (at most %d)", cmd->name,
                 cmd->n_options, MAX_OPTIONS);
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!operands_only && !strcmp(a, "--")) {
            operands_only = 1;
        } else if (!operands_only && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
            if (cmd->help)
                cmd->help(stdout);
            return MB_CLI_HELP;
        } else if (!operands_only && a[0] == '-' && a[1] != '\0') {
            int st = option(cmd, argc, argv, &k, seen);
            if (st != MB_SUCCESS)
                return st;
        } else if (*n_operands == cmd->max_operands && cmd->operands_what == NULL) {
            MB_ERROR(MB_EINVAL, "unexpected argument '%s' (see motionbench %s --help)", a,
                     cmd->name);
        } else if (*n_operands == cmd->max_operands) {
            MB_ERROR(MB_EINVAL, "at most %zu %s", cmd->max_operands, cmd->operands_what);
        } else {
            cmd->operands[(*n_operands)++] = a;
        }
    }
    return MB_CLI_PARSED;
}

int mb_cli_set_param(void *params, const char *option, const char *value)
{
    return mb_options_add_pair(params, value, option);
}

int mb_cli_trajectory_limit(void *ctx, const char *option, const char *value)
{
    double bytes;
    (void)ctx;
    if (parse_size(option, value, &bytes) != MB_SUCCESS)
        return mb_last_error_code();
    return mb_input_set_cap(MB_INPUT_TRAJECTORY, bytes < 1.0 ? 0 : bytes > 2e12 ? (size_t)2e12
                                                                 : (size_t)bytes, option);
}
