/* ini_read.c -- the one INI reader (mb_ini.h; the policy is stated there and in
 * doc/cases.md).
 *
 * inih drives the parse: ini_parse_stream pulls lines through feed_line and calls
 * on_entry for every key and continuation line.  The Debian build of inih reports no line
 * numbers (INI_HANDLER_LINENO is 0) and no event for a section header
 * (INI_CALL_HANDLER_ON_NEW_SECTION is 0), and its fixed line buffer silently splits a long
 * line in two; so feed_line reads each line whole, applies the policy to it, classifies it
 * the way inih's ini_parse_stream (release 55) does -- comment, continuation, section
 * header, key line -- and records the section headers itself.  When on_entry runs, the
 * line counter holds the line of the entry.  Two things inih does otherwise are mended in
 * on_entry: inih ends a key at the first '=' or ':' (even inside "name[k=v]"), and keeps a
 * ';' comment in a continuation line. */
#define _GNU_SOURCE
#include "mb_ini.h"
#include "mb_input.h"
#include "mb_status.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a line of MB_INI_MAX_LINE characters, its "\n" and the NUL fit inih's buffer */
_Static_assert(MB_INI_MAX_LINE + 2 <= INI_MAX_LINE, "inih's line buffer is shorter");

typedef struct line_feed {
    FILE *file;
    mb_ini_doc *doc;
    int line;                   /* lines read so far: the current line's number */
    int error;                  /* first error (recorded), 0: none */
    int after_key;              /* a key line since the last header (inih's prev_name) */
    int continuation;           /* the current line continues the last key's value */
    size_t section;             /* index of the current section, SIZE_MAX: none yet */
    char raw[MB_INI_MAX_LINE + 2];  /* the current line without its end, truncated */
    size_t raw_len;             /* characters kept in raw */
    size_t length;              /* the line's true length */
    size_t nul_column;          /* column of its first NUL byte, 0: none */
} line_feed;

int mb_ini_fail(const mb_ini_doc *d, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s:%d: %s", d->path, line, msg);
}

/* The first error of the file: recorded, and the parse stops. */
static int refuse(line_feed *R, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(line_feed *R, int line, const char *fmt, ...)
{
    if (R->error)
        return 0;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mb_ini_fail(R->doc, line, "%s", msg);
    R->error = MB_EINVAL;
    return 0;
}

static int out_of_memory(line_feed *R)
{
    if (!R->error)
        R->error = mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "%s: out of memory",
                                   R->doc->path);
    return 0;
}

/* ---- lines ---- */

/* Read one line whole: LF, CR LF or a lone CR ends it.  Keeps the first
 * MB_INI_MAX_LINE + 1 characters (enough to know the line is too long) and counts the
 * rest.  0 at the end of the file. */
static int read_raw_line(line_feed *R)
{
    int ch = getc(R->file);
    if (ch == EOF)
        return 0;
    R->raw_len = R->length = R->nul_column = 0;
    for (; ch != EOF && ch != '\n'; ch = getc(R->file)) {
        if (ch == '\r') {
            int next = getc(R->file);
            if (next != '\n' && next != EOF)
                ungetc(next, R->file);
            break;
        }
        R->length++;
        if (ch == '\0' && R->nul_column == 0)
            R->nul_column = R->length;
        if (R->raw_len < MB_INI_MAX_LINE + 1)
            R->raw[R->raw_len++] = (char)ch;
    }
    R->raw[R->raw_len] = '\0';
    return 1;
}

/* A byte-order mark opens the first line: UTF-8's is skipped, UTF-16's (UTF-32's begins
 * alike) is refused. */
static int first_line_encoding(line_feed *R)
{
    const unsigned char *u = (const unsigned char *)R->raw;
    if (R->raw_len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
        memmove(R->raw, R->raw + 3, R->raw_len - 2);
        R->raw_len -= 3;
        R->length -= 3;
        if (R->nul_column)
            R->nul_column -= 3;
        return 1;
    }
    if (R->raw_len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
        return refuse(R, 1, "UTF-16 or UTF-32 text (save the file as UTF-8)");
    return 1;
}

/* inih's inline comment: ';' after a blank (its find_chars_or_comment). */
static char *inline_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == ';' && p > s && isspace((unsigned char)p[-1]))
            return p;
    return NULL;
}

char *mb_ini_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    return s;
}

/* ---- the document ---- */

static mb_ini_entry *entry_at(const mb_ini_doc *d, size_t ref)
{
    return &d->sec[d->refs[ref].sec].items[d->refs[ref].item];
}

/* FNV-1a of the section index and the key */
static size_t key_hash(size_t section, const char *key)
{
    size_t h = (size_t)14695981039346656037ULL ^ section;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * (size_t)1099511628211ULL;
    return h;
}

/* The slot of (section, key): the one holding it, or the empty one where it would go. */
static size_t *index_slot(const mb_ini_doc *d, size_t section, const char *key)
{
    size_t mask = d->index_cap - 1;
    for (size_t k = key_hash(section, key) & mask;; k = (k + 1) & mask) {
        size_t *slot = &d->index[k];
        if (*slot == 0)
            return slot;
        if (d->refs[*slot - 1].sec == section && strcmp(entry_at(d, *slot - 1)->key, key) == 0)
            return slot;
    }
}

/* Room for one more key: the index keeps its load factor at most 1/2. */
static int index_grow(mb_ini_doc *d)
{
    if (d->n_keys % 64 == 0) {
        struct mb_ini_ref *refs = realloc(d->refs, (d->n_keys + 64) * sizeof *refs);
        if (refs == NULL)
            return MB_ENOMEM;
        d->refs = refs;
    }
    if (2 * (d->n_keys + 1) <= d->index_cap)
        return MB_SUCCESS;
    size_t cap = d->index_cap ? 2 * d->index_cap : 64;
    size_t *slot = calloc(cap, sizeof *slot);
    if (slot == NULL)
        return MB_ENOMEM;
    free(d->index);
    d->index = slot;
    d->index_cap = cap;
    for (size_t k = 0; k < d->n_keys; k++)
        *index_slot(d, d->refs[k].sec, entry_at(d, k)->key) = k + 1;
    return MB_SUCCESS;
}

mb_ini_section *mb_ini_section_find(const mb_ini_doc *d, const char *name)
{
    for (size_t s = 0; s < d->n; s++)
        if (strcmp(d->sec[s].name, name) == 0)
            return &d->sec[s];
    return NULL;
}

mb_ini_entry *mb_ini_find(const mb_ini_doc *d, const char *section, const char *key)
{
    const mb_ini_section *s = mb_ini_section_find(d, section);
    if (s == NULL || d->index_cap == 0)
        return NULL;
    size_t *slot = index_slot(d, (size_t)(s - d->sec), key);
    return *slot ? entry_at(d, *slot - 1) : NULL;
}

static int add_section(line_feed *R, const char *name)
{
    mb_ini_doc *d = R->doc;
    const mb_ini_section *twice = mb_ini_section_find(d, name);
    if (twice)
        return refuse(R, R->line, "duplicate section [%s] (first at line %d)", name,
                      twice->line);
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        mb_ini_section *sec = realloc(d->sec, cap * sizeof *sec);
        if (sec == NULL)
            return out_of_memory(R);
        d->sec = sec;
        d->cap = cap;
    }
    mb_ini_section *s = &d->sec[d->n];
    memset(s, 0, sizeof *s);
    if ((s->name = strdup(name)) == NULL)
        return out_of_memory(R);
    s->line = R->line;
    R->section = d->n++;
    return 1;
}

static int add_entry(line_feed *R, const char *key, const char *value)
{
    mb_ini_doc *d = R->doc;
    mb_ini_section *s = &d->sec[R->section];
    if (d->index_cap) {
        size_t *slot = index_slot(d, R->section, key);
        if (*slot)
            return refuse(R, R->line, "duplicate key '%s' in [%s] (first at line %d)", key,
                          s->name, entry_at(d, *slot - 1)->line);
    }
    if (index_grow(d) != MB_SUCCESS)
        return out_of_memory(R);
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        mb_ini_entry *items = realloc(s->items, cap * sizeof *items);
        if (items == NULL)
            return out_of_memory(R);
        s->items = items;
        s->cap = cap;
    }
    mb_ini_entry *e = &s->items[s->n];
    memset(e, 0, sizeof *e);
    e->key = strdup(key);
    e->value = strdup(value);
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        return out_of_memory(R);
    }
    e->value_len = strlen(value);
    e->value_cap = e->value_len + 1;
    e->line = R->line;
    d->refs[d->n_keys] = (struct mb_ini_ref){ R->section, s->n };
    *index_slot(d, R->section, key) = ++d->n_keys;
    s->n++;
    return 1;
}

/* A continuation line: its text joins the value with one blank; n lines cost O(total
 * length) (the value grows geometrically). */
static int continue_value(line_feed *R, const char *more)
{
    mb_ini_section *s = &R->doc->sec[R->section];
    mb_ini_entry *e = &s->items[s->n - 1];
    size_t a = e->value_len, b = strlen(more);
    if (a + b + 2 > e->value_cap) {
        size_t cap = 2 * e->value_cap > a + b + 2 ? 2 * e->value_cap : a + b + 2;
        char *v = realloc(e->value, cap);
        if (v == NULL)
            return out_of_memory(R);
        e->value = v;
        e->value_cap = cap;
    }
    e->value[a] = ' ';
    memcpy(e->value + a + 1, more, b + 1);
    e->value_len = a + 1 + b;
    return 1;
}

/* ---- classifying a line, as inih does ---- */

/* [NAME]: inih takes the text up to ']' (or an inline comment) as the name. */
static int section_header(line_feed *R, char *s)
{
    char *close = s + 1;
    while (*close && *close != ']' && !(*close == ';' && isspace((unsigned char)close[-1])))
        close++;
    if (*close != ']')
        return refuse(R, R->line, "'%.60s': a section header ends with ']'", s);
    *close = '\0';
    char *name = mb_ini_trim(s + 1);
    if (*name == '\0')
        return refuse(R, R->line, "empty section name '[]'");
    R->after_key = 0;
    return add_section(R, name);
}

/* A key line must hold '=' before any inline comment. */
static int key_line(line_feed *R, const char *s)
{
    size_t len = strlen(s);
    char text[MB_INI_MAX_LINE + 2];
    memcpy(text, s, len + 1);
    char *comment = inline_comment(text);
    if (comment)
        *comment = '\0';
    if (strchr(text, '=') == NULL)
        return refuse(R, R->line, "'%.60s': expected KEY = VALUE%s", mb_ini_trim(text),
                      strchr(text, ':') ? " (':' does not separate a key from its value)" : "");
    R->after_key = 1;
    return 1;
}

static int classify(line_feed *R)
{
    char *s = R->raw;
    while (isspace((unsigned char)*s))
        s++;
    int blank = *s == '\0', comment = *s == ';' || *s == '#';
    R->continuation = !blank && !comment && s > R->raw && R->after_key;
    if (R->nul_column)
        return refuse(R, R->line, "NUL byte at column %zu (not a text file)", R->nul_column);
    if (R->length > MB_INI_MAX_LINE && !comment)
        return refuse(R, R->line, "line of %zu characters is longer than the limit of %d "
                      "(continue a long value on an indented line)", R->length,
                      MB_INI_MAX_LINE);
    if (blank || comment || R->continuation)
        return 1;
    char copy[MB_INI_MAX_LINE + 2];
    memcpy(copy, s, strlen(s) + 1);
    return *s == '[' ? section_header(R, copy) : key_line(R, s);
}

/* inih's reader: the next line, policy applied, with a "\n" (a long comment is cut). */
static char *feed_line(char *str, int num, void *stream)
{
    line_feed *R = stream;
    if (R->error)
        return NULL;
    errno = 0;
    if (!read_raw_line(R)) {
        if (ferror(R->file))
            R->error = mb_error_record(MB_EIO, __FILE__, __LINE__, "%s: cannot read: %s",
                                       R->doc->path, strerror(errno ? errno : EIO));
        return NULL;
    }
    R->line++;
    if ((R->line == 1 && !first_line_encoding(R)) || !classify(R))
        return NULL;
    size_t len = R->raw_len < (size_t)num - 2 ? R->raw_len : (size_t)num - 2;
    memcpy(str, R->raw, len);
    str[len] = '\n';
    str[len + 1] = '\0';
    return str;
}

/* ---- entries ---- */

/* Split the current line at the first '=' outside brackets (the policy), where inih
 * split at the first '=' or ':'. */
static int split_key(line_feed *R, char *line, char **key, char **value)
{
    int depth = 0;
    char *eq = NULL;
    for (char *p = line; *p && eq == NULL; p++) {
        if (*p == '[')
            depth++;
        else if (*p == ']' && depth > 0)
            depth--;
        else if (*p == '=' && depth == 0)
            eq = p;
    }
    if (eq == NULL && depth > 0)
        return refuse(R, R->line, "'%.60s': a '[' of the key is not closed (write KEY = VALUE)",
                      mb_ini_trim(line));
    if (eq == NULL)
        return refuse(R, R->line, "'%.60s': no '=' outside brackets (write KEY = VALUE)",
                      mb_ini_trim(line));
    *eq = '\0';
    *key = mb_ini_trim(line);
    char *comment = inline_comment(eq + 1);
    if (comment)
        *comment = '\0';
    *value = mb_ini_trim(eq + 1);
    return 1;
}

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
    (void)section;              /* the reader keeps the sections (trimmed, with lines) */
    line_feed *R = user;
    if (R->error)
        return 0;
    char line[MB_INI_MAX_LINE + 2], *key = (char *)name, *val = (char *)value;
    memcpy(line, R->raw, R->raw_len + 1);
    if (R->continuation) {
        char *comment = inline_comment(line);
        if (comment)
            *comment = '\0';
        return continue_value(R, mb_ini_trim(line));
    }
    const char *after = line + strspn(line, " \t\v\f") + strlen(name);
    after += strspn(after, " \t\v\f");
    if ((strchr(name, '[') || *after != '=') && !split_key(R, line, &key, &val))
        return 0;
    if (R->section == SIZE_MAX)
        return refuse(R, R->line, "'%s' is outside any section (start with a [SECTION] "
                      "header)", key);
    if (*key == '\0')
        return refuse(R, R->line, "'= %s': a key comes before '='", val);
    if (*val == '\0')
        return refuse(R, R->line, "'%s' has an empty value", key);
    return add_entry(R, key, val);
}

/* ---- reading ---- */

void mb_ini_free(mb_ini_doc *d)
{
    if (d == NULL)
        return;
    for (size_t s = 0; s < d->n; s++) {
        for (size_t k = 0; k < d->sec[s].n; k++) {
            free(d->sec[s].items[k].key);
            free(d->sec[s].items[k].value);
        }
        free(d->sec[s].items);
        free(d->sec[s].name);
    }
    free(d->sec);
    free(d->index);
    free(d->refs);
    free(d->path);
    free(d);
}

static int read_stream(FILE *f, const char *path, mb_ini_doc **out)
{
    *out = NULL;
    mb_ini_doc *d = calloc(1, sizeof *d);
    if (d == NULL || (d->path = strdup(path)) == NULL) {
        free(d);
        fclose(f);
        MB_ERROR(MB_ENOMEM, "%s: out of memory", path);
    }
    line_feed R;
    memset(&R, 0, sizeof R);
    R.file = f;
    R.doc = d;
    R.section = SIZE_MAX;
    int rc = ini_parse_stream(feed_line, &R, on_entry, &R);
    fclose(f);
    /* inih's own verdict, for a line the classification above let through */
    if (!R.error && rc > 0)
        R.error = mb_ini_fail(d, rc, "syntax error: expected [SECTION], KEY = VALUE, a comment "
                              "or an indented continuation line");
    else if (!R.error && rc < 0)
        R.error = mb_ini_fail(d, 1, "cannot parse (inih status %d)", rc);
    if (R.error) {
        mb_ini_free(d);
        return R.error;
    }
    *out = d;
    return MB_SUCCESS;
}

int mb_ini_read(const char *path, mb_input_kind kind, mb_ini_doc **out)
{
    *out = NULL;
    FILE *f = mb_input_open(path, kind);
    if (f == NULL)
        return mb_last_error_code();
    return read_stream(f, path, out);
}

int mb_ini_read_text(const char *name, const char *text, size_t len, mb_ini_doc **out)
{
    *out = NULL;
    static const char blank_line[] = "\n";     /* fmemopen refuses a size of 0 */
    FILE *f = len ? fmemopen((void *)text, len, "r") : fmemopen((void *)blank_line, 1, "r");
    if (f == NULL)
        MB_ERROR(MB_ENOMEM, "%s: cannot open the text in memory", name);
    return read_stream(f, name, out);
}
