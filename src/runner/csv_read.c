/* csv_read.c -- reading RFC 4180 records (quoted fields, doubled quotes, CRLF or LF). */
#include "mb_baseline.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>

typedef struct buf { char *s; size_t n, cap; } buf;

static int put(buf *b, int c)
{
    if (b->n + 1 >= b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        char *s = realloc(b->s, cap);
        if (s == NULL)
            return -1;
        b->s = s;
        b->cap = cap;
    }
    b->s[b->n++] = (char)c;
    b->s[b->n] = '\0';
    return 0;
}

static char *take(buf *b)
{
    char *s = b->s ? b->s : strdup("");
    b->s = NULL;
    b->n = b->cap = 0;
    return s;
}

int mb_csv_read_record(FILE *f, char **fields, int max)
{
    int n = 0, c = fgetc(f), quoted = 0, bad = 0;
    if (c == EOF)
        return 0;
    buf b = { NULL, 0, 0 };
    for (;; c = fgetc(f)) {
        if (quoted) {
            if (c == EOF || c == '\0') { bad = 1; break; }
            if (c == '"') {
                int d = fgetc(f);
                if (d == '"') { if (put(&b, '"')) bad = 1; continue; }
                quoted = 0;
                c = d;
            } else {
                if (put(&b, c)) bad = 1;
                continue;
            }
        }
        if (c == '"' && b.n == 0) { quoted = 1; continue; }
        if (c == ',' || c == '\n' || c == EOF || c == '\r') {
            if (c == '\r' && (c = fgetc(f)) != '\n') { bad = 1; break; }
            if (n == max) { bad = 1; break; }
            fields[n++] = take(&b);
            if (c != ',')
                break;
            continue;
        }
        if (c == '"' || c == '\0') { bad = 1; break; }   /* a NUL would truncate the field */
        if (put(&b, c)) { bad = 1; break; }
    }
    free(b.s);
    if (bad) {
        for (int k = 0; k < n; k++)
            free(fields[k]);
        return -1;
    }
    return n;
}
