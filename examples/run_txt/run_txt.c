/* run_txt.c -- a reader of run.txt (run_txt.h): the file is read whole, each line split
 * into KEY and the text after the first blank; lines starting with '#' are comments.
 * Look-ups are linear: a description has a few dozen lines per node and force. */
#include "run_txt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct run_txt {
    char *text;            /* the file, each line's '\n' and first blank made '\0' */
    char **keys, **values;
    size_t n;
};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t size = 0, cap = 4096;
    char *buf = malloc(cap);
    for (size_t got; buf != NULL && (got = fread(buf + size, 1, cap - size - 1, f)) > 0;) {
        size += got;
        if (cap - size - 1 == 0) {
            char *grown = realloc(buf, 2 * cap);
            if (grown == NULL)
                free(buf);
            buf = grown;
            cap *= 2;
        }
    }
    if (buf != NULL)
        buf[size] = '\0';
    fclose(f);
    return buf;
}

static int add_line(run_txt *r, char *line, size_t *cap)
{
    if (line[0] == '#' || line[0] == '\0')
        return 0;
    if (r->n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        char **k = realloc(r->keys, *cap * sizeof *k), **v = k ? realloc(r->values, *cap * sizeof *v) : NULL;
        if (k)
            r->keys = k;
        if (v)
            r->values = v;
        if (k == NULL || v == NULL)
            return -1;
    }
    char *blank = strchr(line, ' ');
    r->keys[r->n] = line;
    r->values[r->n] = blank ? blank + 1 : line + strlen(line);
    if (blank)
        *blank = '\0';
    r->n++;
    return 0;
}

run_txt *run_txt_load(const char *path)
{
    run_txt *r = calloc(1, sizeof *r);
    size_t cap = 0;
    if (r == NULL || (r->text = slurp(path)) == NULL) {
        free(r);
        return NULL;
    }
    for (char *line = r->text, *end; line != NULL && *line; line = end) {
        end = strchr(line, '\n');
        if (end)
            *end++ = '\0';
        if (add_line(r, line, &cap) != 0) {
            run_txt_free(r);
            errno = ENOMEM;
            return NULL;
        }
    }
    return r;
}

void run_txt_free(run_txt *r)
{
    if (r == NULL)
        return;
    free(r->text);
    free(r->keys);
    free(r->values);
    free(r);
}

const char *run_txt_value(const run_txt *r, const char *key)
{
    for (size_t k = 0; k < r->n; k++)
        if (strcmp(r->keys[k], key) == 0)
            return r->values[k];
    return NULL;
}

int run_txt_numbers(const run_txt *r, const char *key, double *out, size_t n)
{
    const char *p = run_txt_value(r, key);
    if (p == NULL)
        return -1;
    for (size_t k = 0; k < n; k++) {
        char *end;
        out[k] = strtod(p, &end);
        if (end == p)
            return -1;
        p = end;
    }
    return *p == '\0' ? 0 : -1;
}

long run_txt_long(const run_txt *r, const char *key, long fallback)
{
    const char *p = run_txt_value(r, key);
    char *end;
    if (p == NULL || *p == '\0')
        return fallback;
    long v = strtol(p, &end, 10);
    return *end == '\0' ? v : fallback;
}
