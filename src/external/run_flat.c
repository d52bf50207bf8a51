/* run_flat.c -- run.txt, the flat, line-oriented form of the run description
 * (doc/external.md, section 3a), for languages without a JSON library.
 *
 * It is written from the very JSON tree that run.json is dumped from
 * (run_description.c), by one generic walk, so the two files cannot carry different
 * values.  Grammar (protocol 1):
 *   - a line starting with '#' is a comment; every other line is KEY or KEY VALUE...;
 *   - KEY is the path of the value in run.json, object keys and array indices joined by
 *     '.' (nodes.0.position, forces.1.springs.0.k); it holds no blank;
 *   - a number is written with 17 significant digits (%.17g: reads back exactly), an
 *     integer in decimal, true and false as 1 and 0, null as the word null;
 *   - a string is the rest of the line after the single blank that follows KEY (it may
 *     hold blanks; an empty string leaves KEY alone on its line);
 *   - a non-empty array of numbers, booleans or blank-free strings is one line, its
 *     elements separated by one blank;
 *   - any other array (empty, or holding objects, arrays, nulls or strings with blanks)
 *     is written KEY.count N, then its elements under KEY.0, KEY.1, ...
 * Lines follow the order of run.json.  A string holding a line break or another control
 * character cannot be written flat and fails the write (none of motionbench's names,
 * options or parameters can hold one). */
#include "mb_external.h"
#include "mb_status.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define KEY_MAX 512

static int has_control_character(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

static int is_scalar_word(const json_t *v)
{
    if (json_is_number(v) || json_is_boolean(v))
        return 1;
    return json_is_string(v) && json_string_length(v) > 0
           && strpbrk(json_string_value(v), " \t") == NULL
           && !has_control_character(json_string_value(v));
}

/* an array written on one line: non-empty, only numbers, booleans, blank-free words */
static int is_flat_array(const json_t *a)
{
    size_t k;
    json_t *v;
    if (json_array_size(a) == 0)
        return 0;
    json_array_foreach(a, k, v)
        if (!is_scalar_word(v))
            return 0;
    return 1;
}

static int put_scalar(FILE *f, const json_t *v)
{
    if (json_is_integer(v))
        return fprintf(f, "%lld", (long long)json_integer_value(v)) < 0;
    if (json_is_real(v))
        return fprintf(f, "%.17g", json_real_value(v)) < 0;
    if (json_is_boolean(v))
        return fputc(json_is_true(v) ? '1' : '0', f) == EOF;
    if (json_is_null(v))
        return fputs("null", f) == EOF;
    return fputs(json_string_value(v), f) == EOF;
}

static int put_value(FILE *f, const char *key, const json_t *v);

static int put_line(FILE *f, const char *key, const json_t *v)
{
    if (json_is_string(v) && has_control_character(json_string_value(v)))
        MB_ERROR(MB_EINVAL, "run.txt: %s: a string with a control character cannot be "
                 "written flat", key);
    if (fputs(key, f) == EOF)
        MB_ERROR(MB_EIO, "run.txt: cannot write");
    if (!(json_is_string(v) && json_string_length(v) == 0)
        && (fputc(' ', f) == EOF || put_scalar(f, v)))
        MB_ERROR(MB_EIO, "run.txt: cannot write");
    if (fputc('\n', f) == EOF)
        MB_ERROR(MB_EIO, "run.txt: cannot write");
    return MB_SUCCESS;
}

static int put_flat_array(FILE *f, const char *key, const json_t *a)
{
    size_t k;
    json_t *v;
    if (fputs(key, f) == EOF)
        MB_ERROR(MB_EIO, "run.txt: cannot write");
    json_array_foreach(a, k, v)
        if (fputc(' ', f) == EOF || put_scalar(f, v))
            MB_ERROR(MB_EIO, "run.txt: cannot write");
    if (fputc('\n', f) == EOF)
        MB_ERROR(MB_EIO, "run.txt: cannot write");
    return MB_SUCCESS;
}

static int child_key(char *out, const char *key, const char *part)
{
    int n = snprintf(out, KEY_MAX, "%s%s%s", key, key[0] ? "." : "", part);
    if (n < 0 || n >= KEY_MAX)
        MB_ERROR(MB_EINVAL, "run.txt: key %s.%s is longer than %d characters", key, part,
                 KEY_MAX - 1);
    return MB_SUCCESS;
}

static int put_records(FILE *f, const char *key, const json_t *a)
{
    char sub[KEY_MAX], index[32];
    size_t k;
    json_t *v;
    if (child_key(sub, key, "count") != MB_SUCCESS)
        return MB_EINVAL;
    if (fprintf(f, "%s %zu\n", sub, json_array_size(a)) < 0)
        MB_ERROR(MB_EIO, "run.txt: cannot write");
    json_array_foreach(a, k, v) {
        snprintf(index, sizeof index, "%zu", k);
        int s = child_key(sub, key, index);
        if (s == MB_SUCCESS)
            s = put_value(f, sub, v);
        if (s != MB_SUCCESS)
            return s;
    }
    return MB_SUCCESS;
}

static int put_object(FILE *f, const char *key, const json_t *o)
{
    char sub[KEY_MAX];
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)o, name, v) {
        if (strpbrk(name, " \t") != NULL || name[0] == '\0' || has_control_character(name))
            MB_ERROR(MB_EINVAL, "run.txt: key '%s' under '%s' cannot be written flat", name, key);
        int s = child_key(sub, key, name);
        if (s == MB_SUCCESS)
            s = put_value(f, sub, v);
        if (s != MB_SUCCESS)
            return s;
    }
    return MB_SUCCESS;
}

static int put_value(FILE *f, const char *key, const json_t *v)
{
    if (json_is_object(v))
        return put_object(f, key, v);
    if (json_is_array(v))
        return is_flat_array(v) ? put_flat_array(f, key, v) : put_records(f, key, v);
    return put_line(f, key, v);
}

int mb_run_flat_write(const json_t *root, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        MB_ERROR(MB_EIO, "%s: cannot write the flat run description", path);
    int s = MB_SUCCESS;
    if (fputs("# motionbench run description, the flat form of run.json: KEY VALUE... per "
              "line (doc/external.md)\n", f) == EOF)
        s = mb_error_record(MB_EIO, __FILE__, __LINE__, "%s: cannot write", path);
    if (s == MB_SUCCESS)
        s = put_object(f, "", root);
    if (fclose(f) != 0 && s == MB_SUCCESS)
        MB_ERROR(MB_EIO, "%s: cannot write the flat run description", path);
    return s;
}
