/* case_file.c -- reading and validating case files (DESIGN 7, doc/cases.md).
 *
 * inih does the INI parsing.  The Debian build of inih calls the handler without line
 * numbers (INI_HANDLER_LINENO is 0), so the file is fed through ini_parse_stream with a
 * reader that counts lines; when the handler runs, the counter holds the line of the
 * entry.  The reader also sees section headers (inih reports no event for an empty
 * section) and lines longer than inih's buffer.  Entries are collected first and
 * validated afterwards, so [expect] may come before [run]. */
#include "mb_external.h"
#include "mb_case.h"
#include "mb_input.h"
#include "mb_case_scene.h"
#include "mb_metrics.h"
#include "mb_plugin.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SEC_CASE, SEC_PROBLEM, SEC_RUN, SEC_EXPECT, SEC_CHECK, SEC_COUNT };
static const char *const section_names[] = { "case", "problem", "run", "expect", "check", NULL };
static const char *const case_keys[] = { "name", "problem", "t_end", "reference", "description", NULL };
static const char *const run_keys[] = { "plugins", "integrators", "dt", "dt_range", "precision",
                                        "sample_every", "damping_signal", "error_growth",
                                        "timeout", NULL };

#define MAX_DT MB_ORDER_MAX_POINTS

typedef struct entry {
    int section;
    char *key, *value;
    size_t value_len, value_cap;  /* continuation lines append in amortized O(1) */
    int line;
} entry;

/* Open-addressing index of (section, key) -> entry, so the duplicate check of each new
 * key is O(1) and a file of n keys is read in O(n) (not O(n^2) string comparisons). */
typedef struct key_index {
    size_t cap;                 /* a power of two, or 0 */
    size_t *slot;               /* entry index + 1; 0 is an empty slot */
} key_index;

typedef struct parser {
    const char *path;
    FILE *file;
    int line;
    int indented;               /* current line starts with blank (inih continuation) */
    int section_line[SEC_COUNT];
    int error;                  /* first error status (0: none) */
    int read_errno;             /* errno of a failed read (0: none) */
    char message[600];
    size_t n, cap;
    entry *items;
    key_index index;
    int pending_cr;             /* a CR ended the last line: drop an LF that follows */
    mb_case *c;
    size_t nodes;               /* node count of the problem as set up */
    int scene_line;             /* first scene section ([body NAME], ...), 0: none */
} parser;

/* ---- errors ---- */

static int failv(parser *P, int line, const char *fmt, va_list ap)
{
    if (P->error)
        return P->error;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    snprintf(P->message, sizeof P->message, "%s:%d: %s", P->path, line, msg);
    P->error = MB_EINVAL;
    return P->error;
}

static int fail(parser *P, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser *P, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int st = failv(P, line, fmt, ap);
    va_end(ap);
    return st;
}

/* A message that already names file:line (the scene's own errors). */
static int fail_located(parser *P, const char *msg)
{
    if (P->error)
        return P->error;
    snprintf(P->message, sizeof P->message, "%s", msg);
    P->error = MB_EINVAL;
    return P->error;
}

/* Error of a library call (its message in mb_last_error) at a line. */
static int fail_lib(parser *P, int line)
{
    return fail(P, line, "%s", mb_last_error());
}

static int unknown_name(parser *P, int line, const char *what, const char *name,
                        const char *where, const char *const *candidates)
{
    const char *hint = mb_suggest(name, candidates);
    if (hint)
        return fail(P, line, "unknown %s '%s'%s (did you mean '%s'?)", what, name, where, hint);
    return fail(P, line, "unknown %s '%s'%s", what, name, where);
}

/* ---- reading ---- */

static int section_index(const char *name)
{
    for (int k = 0; section_names[k]; k++)
        if (strcmp(section_names[k], name) == 0)
            return k;
    return -1;
}

static void check_section_header(parser *P, const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '[')
        return;
    const char *close = strchr(s, ']');
    if (close == NULL)
        return;                  /* inih reports the syntax error */
    char name[64];
    const char *a = s + 1;
    while (a < close && isspace((unsigned char)*a)) a++;
    size_t len = (size_t)(close - a);
    while (len > 0 && isspace((unsigned char)a[len - 1])) len--;
    if (len >= sizeof name)
        len = sizeof name - 1;
    memcpy(name, a, len);
    name[len] = '\0';
    int k = section_index(name);
    if (k < 0 && mb_case_scene_section(name)) {
        if (P->scene_line == 0)
            P->scene_line = P->line;     /* read by the scene problem itself */
    } else if (k < 0) {
        char hint[200];
        if (mb_suggest(name, section_names) == NULL && mb_case_scene_hint(name, hint, sizeof hint))
            fail(P, P->line, "unknown section '%s' (did you mean '%s'?)", name, hint);
        else
            unknown_name(P, P->line, "section", name, "", section_names);
    } else if (P->section_line[k]) {
        fail(P, P->line, "duplicate section [%s] (first at line %d)", name, P->section_line[k]);
    } else {
        P->section_line[k] = P->line;
    }
}

/* fgets, but a NUL byte in the line is reported: fgets would hide the rest of the line
 * behind it (a truncated value accepted silently, or a short line taken for a long one).
 * A line ends at LF, CR LF or a lone CR (old Mac files); it is handed on with "\n". */
static char *read_line(parser *P, char *str, int num, size_t *length)
{
    int nul = 0;
    errno = 0;
    char *r = mb_input_read_line(P->file, str, num, &P->pending_cr, &nul, length);
    if (r == NULL && ferror(P->file) && P->read_errno == 0)
        P->read_errno = errno ? errno : EIO;
    if (r != NULL && nul)
        fail(P, P->line + 1, "NUL byte in the line (not a text file)");
    return r;
}

/* A UTF-8 byte-order mark at the start of the file is not part of the first line. */
static void skip_bom(char *str, size_t *len)
{
    static const char bom[] = "\xEF\xBB\xBF";
    if (*len >= 3 && memcmp(str, bom, 3) == 0) {
        memmove(str, str + 3, *len - 2);
        *len -= 3;
    }
}

static char *reader(char *str, int num, void *stream)
{
    parser *P = stream;
    size_t len;
    char *r = read_line(P, str, num, &len);
    if (r == NULL)
        return NULL;
    if (P->line == 0)
        skip_bom(str, &len);
    P->line++;
    if (len > 0 && str[len - 1] != '\n' && !feof(P->file)) {
        /* the rest of a long comment is dropped; any other long line is an error */
        const char *s = str + strspn(str, " \t");
        if (*s != ';' && *s != '#')
            fail(P, P->line, "line longer than %d characters (inih's line buffer)", num - 2);
        int ch;
        while ((ch = fgetc(P->file)) != EOF && ch != '\n' && ch != '\r')
            ;
        P->pending_cr = ch == '\r';
    }
    P->indented = str[0] == ' ' || str[0] == '\t';
    check_section_header(P, str);
    return r;
}

/* FNV-1a of the section number and the key */
static size_t key_hash(int section, const char *key)
{
    size_t h = (size_t)14695981039346656037ULL ^ (size_t)section;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * (size_t)1099511628211ULL;
    return h;
}

/* The slot of (section, key): the one holding it, or the empty one where it would go. */
static size_t *index_slot(const parser *P, int section, const char *key)
{
    size_t mask = P->index.cap - 1;
    for (size_t k = key_hash(section, key) & mask;; k = (k + 1) & mask) {
        size_t *slot = &P->index.slot[k];
        if (*slot == 0)
            return slot;
        const entry *e = &P->items[*slot - 1];
        if (e->section == section && strcmp(e->key, key) == 0)
            return slot;
    }
}

/* Keep the load factor at most 1/2 (the table doubles, entries are re-inserted). */
static int index_grow(parser *P)
{
    if (2 * (P->n + 1) <= P->index.cap)
        return MB_SUCCESS;
    size_t cap = P->index.cap ? 2 * P->index.cap : 64;
    size_t *slot = calloc(cap, sizeof *slot);
    if (slot == NULL)
        return fail(P, P->line, "out of memory");
    free(P->index.slot);
    P->index.slot = slot;
    P->index.cap = cap;
    for (size_t k = 0; k < P->n; k++)
        *index_slot(P, P->items[k].section, P->items[k].key) = k + 1;
    return MB_SUCCESS;
}

static const entry *find_entry(const parser *P, int section, const char *key)
{
    if (P->index.cap == 0)
        return NULL;
    size_t *slot = index_slot(P, section, key);
    return *slot ? &P->items[*slot - 1] : NULL;
}

static int push(parser *P, int section, const char *key, const char *value)
{
    if (P->n == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 32;
        entry *items = realloc(P->items, cap * sizeof *items);
        if (items == NULL)
            return fail(P, P->line, "out of memory");
        P->items = items;
        P->cap = cap;
    }
    if (index_grow(P) != MB_SUCCESS)
        return P->error;
    entry *e = &P->items[P->n];
    e->section = section;
    e->key = strdup(key);
    e->value = strdup(value);
    e->value_len = strlen(value);
    e->value_cap = e->value_len + 1;
    e->line = P->line;
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        return fail(P, P->line, "out of memory");
    }
    *index_slot(P, section, key) = P->n + 1;
    P->n++;
    return MB_SUCCESS;
}

/* inih continuation lines (indented) repeat the previous key: append with a blank.
 * The value grows geometrically, so n continuation lines cost O(total length). */
static int continue_entry(parser *P, entry *e, const char *value)
{
    size_t a = e->value_len, b = strlen(value);
    if (a + b + 2 > e->value_cap) {
        size_t cap = 2 * e->value_cap > a + b + 2 ? 2 * e->value_cap : a + b + 2;
        char *v = realloc(e->value, cap);
        if (v == NULL)
            return fail(P, P->line, "out of memory");
        e->value = v;
        e->value_cap = cap;
    }
    e->value[a] = ' ';
    memcpy(e->value + a + 1, value, b + 1);
    e->value_len = a + 1 + b;
    return MB_SUCCESS;
}

/* inih ends a key at its first '=' or ':'.  A key with an integrator spec,
 * "name[k=v].metric = x", arrives as key "name[k" and value "v].metric = x" (sep '='), and
 * "external:NAME.metric = x" as key "external" and value "NAME.metric = x" (sep ':').
 * Rejoin them and split at the first '=' after the closing bracket (which an '=' split
 * requires, and a ':' split may lack). */
static int rejoin_key(parser *P, const char *name, char sep, const char *value, char *key,
                      size_t ksize, const char **val)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%c%s", name, sep, value);
    const char *close = strchr(full, ']');
    const char *from = close ? close : sep == ':' ? full : NULL;
    const char *eq = from ? strchr(from, '=') : NULL;
    if (eq == NULL || (size_t)(eq - full) >= ksize) {
        fail(P, P->line, "'%s': write INTEGRATOR[k=v,...].METRIC = EXPECTATION", full);
        return 0;
    }
    size_t len = (size_t)(eq - full);
    while (len > 0 && (full[len - 1] == ' ' || full[len - 1] == '\t'))
        len--;
    memcpy(key, full, len);
    key[len] = '\0';
    eq++;
    while (*eq == ' ' || *eq == '\t')
        eq++;
    *val = value + (eq - full - strlen(name) - 1);
    return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    parser *P = user;
    if (P->error)
        return 0;
    char key[512];
    if (strcmp(name, "external") == 0 && strchr(value, '=')) {
        if (!rejoin_key(P, name, ':', value, key, sizeof key, &value))
            return 0;
        name = key;
    } else if (strchr(name, '[') && !strchr(name, ']')) {
        if (!rejoin_key(P, name, '=', value, key, sizeof key, &value))
            return 0;
        name = key;
    }
    if (section[0] == '\0') {
        fail(P, P->line, "'%s' is outside any section (start with [case])", name);
        return 0;
    }
    int sec = section_index(section);
    if (sec < 0)
        return mb_case_scene_section(section);  /* scene entries: the scene's; else reported */
    if (P->n > 0 && P->indented) {
        entry *last = &P->items[P->n - 1];
        if (last->section == sec && strcmp(last->key, name) == 0)
            return continue_entry(P, last, value) == MB_SUCCESS;
    }
    const entry *dup = find_entry(P, sec, name);
    if (dup) {
        fail(P, P->line, "duplicate key '%s' in [%s] (first at line %d)", name, section,
             dup->line);
        return 0;
    }
    if (value[0] == '\0') {
        fail(P, P->line, "'%s' has an empty value", name);
        return 0;
    }
    return push(P, sec, name, value) == MB_SUCCESS;
}

/* Only a regular file is read (mb_input.h): a device never ends, a FIFO may block. */
static int open_regular(parser *P)
{
    P->file = mb_input_open(P->path, MB_INPUT_CASE);
    return P->file ? MB_SUCCESS : mb_last_error_code();
}

static int read_file(parser *P)
{
    if (open_regular(P) != MB_SUCCESS)
        return mb_last_error_code();
    int r = ini_parse_stream(reader, P, handler, P);
    if (!P->error && P->read_errno) {    /* a directory, an I/O error: not an empty file */
        fclose(P->file);
        MB_ERROR(MB_EIO, "%s: cannot read: %s", P->path, strerror(P->read_errno));
    }
    fclose(P->file);
    if (P->error)
        return P->error;
    if (r > 0)
        return fail(P, r, "syntax error: expected [section], key = value or a comment");
    if (r < 0)
        return fail(P, 1, "cannot parse (inih status %d)", r);
    return MB_SUCCESS;
}

static int section_or_first_line(const parser *P, int sec)
{
    return P->section_line[sec] ? P->section_line[sec] : 1;
}

static int require(parser *P, int sec, const char *key, const entry **out)
{
    *out = find_entry(P, sec, key);
    if (*out == NULL)
        return fail(P, section_or_first_line(P, sec), "[%s] lacks the key '%s'",
                    section_names[sec], key);
    return MB_SUCCESS;
}

/* ---- values ---- */

static int parse_positive(parser *P, const entry *e, const char *label, const char *text,
                          double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == text || *end != '\0' || !mb_strtod_in_range(v) || !isfinite(v))
        return fail(P, e->line, "%s = '%s' is not a number", label, text);
    if (!(v > 0.0))
        return fail(P, e->line, "%s = %s must be > 0", label, text);
    *out = v;
    return MB_SUCCESS;
}

static int parse_long(parser *P, const entry *e, const char *label, const char *text, long lo,
                      long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (end == text || *end != '\0' || errno == ERANGE)
        return fail(P, e->line, "%s = '%s' is not a whole number", label, text);
    if (v < lo || v > hi)
        return fail(P, e->line, "%s = %ld is out of range [%ld, %ld]", label, v, lo, hi);
    *out = v;
    return MB_SUCCESS;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    return s;
}

/* Split a list at commas outside brackets (commas inside "name[k=v,k=v]" belong to the
 * spec).  Returns the number of items (up to max) written into items (pointers into s). */
static int split_list(parser *P, const entry *e, char *s, char **items, int max, int *count)
{
    int depth = 0, n = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '[') depth++;
        if (*p == ']') depth--;
        if (depth < 0)
            return fail(P, e->line, "%s: unbalanced ']'", e->key);
        if ((*p == ',' && depth == 0) || *p == '\0') {
            int end = *p == '\0';
            *p = '\0';
            if (n == max)
                return fail(P, e->line, "%s: more than %d items", e->key, max);
            items[n] = trim(start);
            if (items[n][0] == '\0')
                return fail(P, e->line, "%s: empty item in the list", e->key);
            n++;
            if (end)
                break;
            start = p + 1;
        }
    }
    if (depth != 0)
        return fail(P, e->line, "%s: unbalanced '['", e->key);
    *count = n;
    return MB_SUCCESS;
}

/* ---- sections ---- */

static int check_keys(parser *P, int sec, const char *const *known)
{
    for (size_t k = 0; k < P->n; k++) {
        const entry *e = &P->items[k];
        if (e->section != sec)
            continue;
        int ok = 0;
        for (const char *const *n = known; *n; n++)
            ok |= strcmp(*n, e->key) == 0;
        if (!ok) {
            char where[32];
            snprintf(where, sizeof where, " in [%s]", section_names[sec]);
            return unknown_name(P, e->line, "key", e->key, where, known);
        }
    }
    return MB_SUCCESS;
}

static int valid_case_name(const char *s)
{
    if (*s == '\0' || *s == '.')
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
            return 0;
    return 1;
}

/* The line of the [problem] entry a library message names, else the section line. */
static int problem_error_line(const parser *P)
{
    const char *msg = mb_last_error();
    for (size_t k = 0; k < P->n; k++) {
        const entry *e = &P->items[k];
        if (e->section != SEC_PROBLEM)
            continue;
        char a[160], b[160];
        snprintf(a, sizeof a, "'%s'", e->key);
        snprintf(b, sizeof b, " %s = ", e->key);
        if (strstr(msg, a) || strstr(msg, b))
            return e->line;
    }
    return section_or_first_line(P, SEC_PROBLEM);
}

static int load_problem(parser *P, const entry *problem)
{
    mb_case *c = P->c;
    const mb_problem_type *pt = mb_problem_find(problem->value);
    if (pt == NULL) {
        const char *names[128];
        size_t n = 0;
        for (const mb_problem_type *const *p = mb_problems(); *p && n < 127; p++)
            names[n++] = (*p)->name;
        names[n] = NULL;
        return unknown_name(P, problem->line, "problem", problem->value, "", names);
    }
    mb_options *given = mb_options_new();
    if (given == NULL)
        return fail(P, problem->line, "out of memory");
    for (size_t k = 0; k < P->n; k++)
        if (P->items[k].section == SEC_PROBLEM
            && mb_options_set(given, P->items[k].key, P->items[k].value) != MB_SUCCESS) {
            mb_options_free(given);
            return fail_lib(P, P->items[k].line);
        }
    int st = mb_case_scene_file(pt, P->path, P->scene_line, given);
    if (st != MB_SUCCESS) {
        mb_options_free(given);
        return fail(P, P->scene_line ? P->scene_line : problem->line, "%s", mb_last_error());
    }
    st = mb_problem_prepare(pt->name, given, &c->problem, &c->params);
    mb_options_free(given);
    if (st != MB_SUCCESS)
        return fail_lib(P, problem_error_line(P));
    if (c->problem->nodes) {    /* its size from its parameters: nothing built yet */
        P->nodes = c->nodes = c->problem->nodes(c->params);
        return MB_SUCCESS;
    }
    /* build it once: parameter combinations the setup rejects are input errors too */
    mb_system *sys = NULL;
    st = c->problem->setup(c->params, &sys);
    if (st != MB_SUCCESS && mb_case_scene_located(P->path, mb_last_error()))
        return fail_located(P, mb_last_error());
    if (st != MB_SUCCESS)
        return fail(P, section_or_first_line(P, SEC_PROBLEM), "problem '%s': %s",
                    pt->name, mb_last_error());
    P->nodes = sys->nodes->n;
    c->nodes = P->nodes;
    mb_system_free(sys);
    return MB_SUCCESS;
}

static int load_case_section(parser *P)
{
    mb_case *c = P->c;
    const entry *name, *problem, *t_end;
    if (!P->section_line[SEC_CASE])
        return fail(P, 1, "missing section [case]");
    if (check_keys(P, SEC_CASE, case_keys) || require(P, SEC_CASE, "name", &name)
        || require(P, SEC_CASE, "problem", &problem) || require(P, SEC_CASE, "t_end", &t_end))
        return P->error;
    if (!valid_case_name(name->value))
        return fail(P, name->line, "name = '%s': use letters, digits, '-', '_' and '.'",
                    name->value);
    c->name = strdup(name->value);
    const entry *d = find_entry(P, SEC_CASE, "description");
    c->description = strdup(d ? d->value : "");
    if (parse_positive(P, t_end, "t_end", t_end->value, &c->t_end))
        return P->error;
    const entry *ref = find_entry(P, SEC_CASE, "reference");
    c->has_reference = !(ref && strcmp(ref->value, "none") == 0);
    if (mb_reference_parse(ref && c->has_reference ? ref->value : "auto", &c->reference)
        != MB_SUCCESS)
        return fail_lib(P, ref->line);
    if (load_problem(P, problem))
        return P->error;
    if (c->reference.kind == MB_REF_ANALYTIC && c->problem->exact == NULL)
        return fail(P, ref->line, "reference = analytic: problem '%s' has no closed form "
                    "(use ode, mpfr or auto)", c->problem->name);
    if (c->has_reference
        && mb_case_scene_reference(c->problem, c->params, c->reference.kind) != MB_SUCCESS)
        return mb_case_scene_located(P->path, mb_last_error())
             ? fail_located(P, mb_last_error()) : fail_lib(P, ref ? ref->line : problem->line);
    return MB_SUCCESS;
}

/* An outside program: its options are checked against its descriptor when the descriptor
 * is found; a missing descriptor fails the runs, not the case file (doc/external.md). */
static int check_external(parser *P, const entry *e, const char *full)
{
    mb_external_spec x;
    mb_adapter *a = NULL;
    char dir[4096];
    const char *slash = strrchr(P->path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - P->path) : 1, slash ? P->path : ".");
    if (P->c->precision_bits > 0)
        return fail(P, e->line, "integrator '%s': an outside program has no MPFR twin", full);
    if (mb_external_spec_parse(full, &x) != MB_SUCCESS)
        return fail_lib(P, e->line);
    char root[3800];
    if (mb_external_private_root(root, sizeof root) != MB_SUCCESS)
        return fail_lib(P, e->line);
    int s = mb_adapter_find(x.name, dir, &a);
    if (s == MB_SUCCESS)
        s = mb_adapter_check_options(a, &x);
    mb_adapter_free(a);
    if (s != MB_SUCCESS && s != MB_ENOTFOUND)
        return fail_lib(P, e->line);
    mb_clear_error();
    return MB_SUCCESS;
}

static int add_integrator(parser *P, const entry *e, const char *spec)
{
    mb_case *c = P->c;
    char full[520], name[128];
    if (mb_case_canonical_spec(spec, full, sizeof full) != MB_SUCCESS)
        return fail_lib(P, e->line);
    if (mb_external_is_spec(full)) {
        for (size_t k = 0; k < c->n_integrators; k++)
            if (strcmp(c->integrators[k], full) == 0)
                return fail(P, e->line, "integrator '%s' is listed twice", full);
        if (check_external(P, e, full) != MB_SUCCESS)
            return P->error;
        if ((c->integrators[c->n_integrators] = strdup(full)) == NULL)
            return fail(P, e->line, "out of memory");
        c->n_integrators++;
        return MB_SUCCESS;
    }
    snprintf(name, sizeof name, "%.*s", (int)strcspn(full, "["), full);
    const mb_stepper_type *type = mb_stepper_find(name);
    for (size_t k = 0; k < c->n_integrators; k++)
        if (strcmp(c->integrators[k], full) == 0)
            return fail(P, e->line, "integrator '%s' is listed twice", full);
    if (c->precision_bits > 0 && type->alloc_mpfr == NULL) {
        const entry *p = find_entry(P, SEC_RUN, "precision");
        return fail(P, p ? p->line : e->line, "precision = mpfr:%ld: integrator '%s' has no "
                    "MPFR twin", c->precision_bits, type->name);
    }
    c->integrators[c->n_integrators] = strdup(full);
    if (c->integrators[c->n_integrators] == NULL)
        return fail(P, e->line, "out of memory");
    c->n_integrators++;
    return MB_SUCCESS;
}

/* plugins = FILE.so, ...: shared objects of scheme types (mb_plugin.h), loaded before the
 * integrators are read; a relative path is taken from the case file's directory. */
static int load_plugin(parser *P, const entry *e, const char *file)
{
    char path[4096];
    const char *slash = strrchr(P->path, '/');
    if (file[0] == '/')
        snprintf(path, sizeof path, "%s", file);
    else if (slash)
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - P->path), P->path, file);
    else
        snprintf(path, sizeof path, "./%s", file);
    if (mb_plugin_load(path) != MB_SUCCESS)
        return fail_lib(P, e->line);
    return MB_SUCCESS;
}

static int load_plugins(parser *P)
{
    const entry *e = find_entry(P, SEC_RUN, "plugins");
    if (e == NULL)
        return MB_SUCCESS;
    char *copy = strdup(e->value), *items[16];
    int n = 0;
    if (copy == NULL)
        return fail(P, e->line, "out of memory");
    if (split_list(P, e, copy, items, 16, &n) == MB_SUCCESS)
        for (int k = 0; k < n && !P->error; k++)
            load_plugin(P, e, items[k]);
    free(copy);
    return P->error;
}

static int load_integrators(parser *P)
{
    const entry *e;
    if (require(P, SEC_RUN, "integrators", &e))
        return P->error;
    char *copy = strdup(e->value), *items[64];
    int n = 0;
    if (copy == NULL)
        return fail(P, e->line, "out of memory");
    P->c->integrators = calloc(64, sizeof(char *));
    if (P->c->integrators == NULL || split_list(P, e, copy, items, 64, &n) == MB_SUCCESS)
        for (int k = 0; k < n && !P->error; k++)
            add_integrator(P, e, items[k]);
    free(copy);
    return P->error;
}

/* Steps N = round(t_end / dt); dt must divide t_end to within rounding (1e-9 relative
 * of the quotient), so the run ends at t_end. */
static int add_dt(parser *P, const entry *e, double dt, int snap)
{
    mb_case *c = P->c;
    double q = c->t_end / dt, N = nearbyint(q);
    if (N < 1.0)
        return fail(P, e->line, "dt = %.17g is larger than t_end = %.17g", dt, c->t_end);
    if (N > 1e10)
        return fail(P, e->line, "dt = %.17g needs %.3g steps to reach t_end (at most 1e10)",
                    dt, N);
    if (snap)
        dt = c->t_end / N;
    else if (fabs(q - N) > 1e-9 * N)
        return fail(P, e->line, "dt = %.17g does not divide t_end = %.17g (t_end/dt = %.17g); "
                    "use t_end/N", dt, c->t_end, q);
    for (size_t k = 0; k < c->n_dt; k++)
        if (c->steps[k] == (long)N)
            return fail(P, e->line, "dt = %.17g repeats a time step of the list (%ld steps)",
                        dt, (long)N);
    if (c->n_dt == MAX_DT)
        return fail(P, e->line, "more than %d time steps", MAX_DT);
    c->dt[c->n_dt] = dt;
    c->steps[c->n_dt] = (long)N;
    c->n_dt++;
    return MB_SUCCESS;
}

static int load_dt_list(parser *P, const entry *e)
{
    char *copy = strdup(e->value), *items[MAX_DT + 1];
    int n = 0;
    if (copy == NULL)
        return fail(P, e->line, "out of memory");
    if (split_list(P, e, copy, items, MAX_DT, &n) == MB_SUCCESS)
        for (int k = 0; k < n && !P->error; k++) {
            double dt;
            if (parse_positive(P, e, "dt", items[k], &dt) == MB_SUCCESS)
                add_dt(P, e, dt, 0);
        }
    free(copy);
    return P->error;
}

/* dt_range = a : b : n -> n values a (b/a)^(k/(n-1)), each snapped to t_end / N */
static int load_dt_range(parser *P, const entry *e)
{
    char *copy = strdup(e->value);
    if (copy == NULL)
        return fail(P, e->line, "out of memory");
    char *parts[3] = { copy, NULL, NULL };
    int count = 1;
    for (char *p = copy; *p; p++)
        if (*p == ':') {
            *p = '\0';
            if (count < 3)
                parts[count] = p + 1;
            count++;
        }
    double a, b;
    long n;
    if (count != 3)
        fail(P, e->line, "dt_range = '%s': write FIRST : LAST : COUNT", e->value);
    else if (parse_positive(P, e, "dt_range FIRST", trim(parts[0]), &a) == MB_SUCCESS
             && parse_positive(P, e, "dt_range LAST", trim(parts[1]), &b) == MB_SUCCESS
             && parse_long(P, e, "dt_range COUNT", trim(parts[2]), 2, MAX_DT, &n) == MB_SUCCESS)
        for (long k = 0; k < n && !P->error; k++)
            add_dt(P, e, a * pow(b / a, (double)k / (double)(n - 1)), 1);
    free(copy);
    return P->error;
}

static int load_precision(parser *P)
{
    const entry *e = find_entry(P, SEC_RUN, "precision");
    if (e == NULL || strcmp(e->value, "double") == 0)
        return MB_SUCCESS;
    if (mb_precision_parse(e->value, &P->c->precision_bits) != MB_SUCCESS)
        return fail_lib(P, e->line);
    return MB_SUCCESS;
}

static int load_damping_signal(parser *P)
{
    const entry *e = find_entry(P, SEC_RUN, "damping_signal");
    P->c->damping_node = -1;
    if (e == NULL)
        return MB_SUCCESS;
    char *end;
    long node = strtol(e->value, &end, 10);
    if (end == e->value || node < 0 || node > 1000000 || *end != ':' || !end[1] || end[2]
        || !strchr("xyz", end[1]))
        return fail(P, e->line, "damping_signal = '%s': write NODE:AXIS, e.g. 0:x", e->value);
    if ((size_t)node >= P->nodes)
        return fail(P, e->line, "damping_signal: node %ld does not exist (problem '%s' has %zu "
                    "node%s)", node, P->c->problem->name, P->nodes, P->nodes == 1 ? "" : "s");
    P->c->damping_node = (int)node;
    P->c->damping_axis = end[1] - 'x';
    return MB_SUCCESS;
}

/* error_growth = on | off: the growth exponent of the position error needs the
 * reference at every sample (error_growth.c) */
static int load_error_growth(parser *P)
{
    const entry *e = find_entry(P, SEC_RUN, "error_growth");
    P->c->error_growth = 0;
    if (e == NULL || strcmp(e->value, "off") == 0)
        return MB_SUCCESS;
    if (strcmp(e->value, "on") != 0)
        return fail(P, e->line, "error_growth = '%s': write on or off", e->value);
    if (!P->c->has_reference)
        return fail(P, e->line, "error_growth = on needs a reference (the case has "
                    "reference = none)");
    P->c->error_growth = 1;
    return MB_SUCCESS;
}

/* timeout = SECONDS: time limit of each run of an outside program (doc/external.md) */
static int load_timeout(parser *P)
{
    const entry *e = find_entry(P, SEC_RUN, "timeout");
    P->c->external_timeout = 0.0;
    if (e == NULL)
        return MB_SUCCESS;
    char *end;
    double t = strtod(e->value, &end);
    if (end == e->value || *end != '\0' || !(t > 0.0) || !isfinite(t))
        return fail(P, e->line, "timeout = '%s': give a number of seconds > 0", e->value);
    P->c->external_timeout = t;
    return MB_SUCCESS;
}

static int load_run_section(parser *P)
{
    mb_case *c = P->c;
    if (!P->section_line[SEC_RUN])
        return fail(P, 1, "missing section [run]");
    if (check_keys(P, SEC_RUN, run_keys) || load_precision(P) || load_plugins(P)
        || load_integrators(P))
        return P->error;
    const entry *dt = find_entry(P, SEC_RUN, "dt"), *range = find_entry(P, SEC_RUN, "dt_range");
    if (dt && range)
        return fail(P, range->line, "give either dt or dt_range, not both (dt at line %d)",
                    dt->line);
    if (!dt && !range)
        return fail(P, P->section_line[SEC_RUN], "[run] lacks the key 'dt' (or 'dt_range')");
    c->dt = calloc(MAX_DT, sizeof *c->dt);
    c->steps = calloc(MAX_DT, sizeof *c->steps);
    if (!c->dt || !c->steps)
        return fail(P, 1, "out of memory");
    if (dt ? load_dt_list(P, dt) : load_dt_range(P, range))
        return P->error;
    const entry *se = find_entry(P, SEC_RUN, "sample_every");
    c->sample_every = 1;
    if (se && parse_long(P, se, "sample_every", se->value, 1, 1000000000L, &c->sample_every))
        return P->error;
    if (load_error_growth(P) || load_timeout(P))
        return P->error;
    return load_damping_signal(P);
}

/* ---- [expect] and [check] ---- */

static int check_metric(parser *P, const entry *e, const char *metric)
{
    /* every metric, those problems observe included, is declared in metrics.def */
    if (mb_metric_known(metric))
        return MB_SUCCESS;
    if (mb_metric_renamed(metric))
        return fail(P, e->line, "metric '%s' is now called '%s' (doc/metrics.md, Renamed metrics)",
                    metric, mb_metric_renamed(metric));
    return unknown_name(P, e->line, "metric", metric, "", mb_metric_names());
}

/* "KEY@DT": the index of DT among the time steps (as written or as snapped), else -1 */
static int split_dt(parser *P, const entry *e, char *key, long *index)
{
    *index = -1;
    char *at = strchr(key, '@');
    if (at == NULL)
        return MB_SUCCESS;
    *at = '\0';
    char *end;
    errno = 0;
    double dt = strtod(at + 1, &end);
    if (end == at + 1 || *end != '\0' || !(dt > 0.0) || !isfinite(dt))
        return fail(P, e->line, "%s: write INTEGRATOR.METRIC@DT with DT one of the time steps",
                    e->key);
    /* steps are at most 1e10 (add_dt): compare in double, a tiny dt overflows a long */
    double steps = nearbyint(P->c->t_end / dt);
    for (size_t j = 0; j < P->c->n_dt; j++)
        if (fabs(P->c->dt[j] - dt) <= 1e-9 * dt || (double)P->c->steps[j] == steps) {
            *index = (long)j;
            return MB_SUCCESS;
        }
    return fail(P, e->line, "%s: dt = %s is not one of the time steps of [run]", e->key, at + 1);
}

/* An expectation on a metric that no run of this case can produce is a mistake in the
 * case file, found before anything runs (it would only show as "missing" afterwards). */
static int check_metric_produced(parser *P, const entry *e, const char *key,
                                 const char *metric)
{
    const mb_case *c = P->c;
    int order = strncmp(metric, "order.", 6) == 0;
    int growth = strncmp(metric, "error.growth_exponent", 21) == 0;
    int twin = !strcmp(metric, "roundoff.max_abs") || !strcmp(metric, "truncation.max_abs");
    int damping_ref = !strcmp(metric, "damping.ratio_error")
                      || !strcmp(metric, "damping.period_error");
    if (order && c->n_dt < 2)
        return fail(P, e->line, "%s: orders need at least 2 time steps (dt lists %zu)", key,
                    c->n_dt);
    if ((order || twin || damping_ref || strncmp(metric, "error.", 6) == 0)
        && !c->has_reference)
        return fail(P, e->line, "%s: needs a reference (the case has reference = none)", key);
    if (strncmp(metric, "damping.", 8) == 0 && c->damping_node < 0)
        return fail(P, e->line, "%s: needs damping_signal in [run]", key);
    if (damping_ref && (c->problem->exact == NULL || c->reference.kind == MB_REF_ODE
                        || c->reference.kind == MB_REF_MPFR))
        return fail(P, e->line, "%s: needs a closed-form reference (reference = analytic or "
                    "auto on a problem with one)", key);
    if ((!strcmp(metric, "restitution") || !strcmp(metric, "restitution_error")
         || !strcmp(metric, "contact.duration")) && c->problem->observe_end == NULL)
        return fail(P, e->line, "%s: problem '%s' observes nothing (restitution and "
                    "contact.duration come from contact problems)", key, c->problem->name);
    if (growth && !c->error_growth)
        return fail(P, e->line, "%s: needs error_growth = on in [run]", key);
    if (twin && c->precision_bits <= 0)
        return fail(P, e->line, "%s: needs precision = mpfr:BITS in [run] (the MPFR twin "
                    "splits round-off from truncation)", key);
    return MB_SUCCESS;
}

static int load_expect(parser *P, const entry *e)
{
    mb_case *c = P->c;
    const char *integrator, *metric;
    char key[512];
    long dt_index;
    snprintf(key, sizeof key, "%s", e->key);
    if (split_dt(P, e, key, &dt_index))
        return P->error;
    if (mb_case_split_key(c, key, &integrator, &metric) != MB_SUCCESS)
        return fail_lib(P, e->line);
    if (check_metric(P, e, metric))
        return P->error;
    if (dt_index >= 0 && strncmp(metric, "order.", 6) == 0)
        return fail(P, e->line, "%s: orders are fitted over all time steps (drop the @DT)",
                    e->key);
    mb_expectation *x = &c->expect[c->n_expect];
    memset(x, 0, sizeof *x);
    if (mb_expect_parse_value(e->value, x) != MB_SUCCESS)
        return fail(P, e->line, "%s: %s", e->key, mb_last_error());
    x->dt_index = dt_index;
    int word = mb_metric_is_word(metric), status = !strcmp(metric, "status");
    if (word && status && (x->op != MB_EXPECT_WORD || !mb_expect_status_word(x->word)))
        return fail(P, e->line, "%s: the status is a word: ok, diverged or failed", e->key);
    if (word && !status && (x->op != MB_EXPECT_WORD || !mb_expect_flags_word(x->word)))
        return fail(P, e->line, "%s: order flags are none, or excluded, non-monotone, "
                    "short-range joined by '+' in that order", e->key);
    if (!word && x->op == MB_EXPECT_WORD)
        return fail(P, e->line, "%s: metric '%s' is a number, not '%s'", e->key, metric,
                    x->word);
    if (check_metric_produced(P, e, e->key, metric))
        return P->error;
    x->integrator = strdup(integrator);
    x->metric = strdup(metric);
    size_t len = strlen(e->key) + strlen(e->value) + 4;
    x->text = malloc(len);
    if (!x->integrator || !x->metric || !x->text)
        return fail(P, e->line, "out of memory");
    snprintf(x->text, len, "%s = %s", e->key, e->value);
    x->line = e->line;
    c->n_expect++;
    return MB_SUCCESS;
}

static int load_check(parser *P, const entry *e)
{
    mb_case *c = P->c;
    mb_check_override *o = &c->check[c->n_check];
    memset(o, 0, sizeof *o);
    const char *integrator = NULL, *metric = e->key;
    if (!mb_metric_known(e->key)) {
        if (mb_case_split_key(c, e->key, &integrator, &metric) != MB_SUCCESS) {
            if (strchr(e->key, '.') == NULL || strncmp(e->key, "order.", 6) == 0
                || strncmp(e->key, "error.", 6) == 0)
                return unknown_name(P, e->line, "metric", e->key, "", mb_metric_names());
            return fail_lib(P, e->line);
        }
        if (check_metric(P, e, metric))
            return P->error;
    }
    if (mb_tolerance_parse(e->value, &o->tolerance) != MB_SUCCESS)
        return fail(P, e->line, "%s: %s", e->key, mb_last_error());
    o->integrator = integrator ? strdup(integrator) : NULL;
    o->metric = strdup(metric);
    o->line = e->line;
    c->n_check++;
    return MB_SUCCESS;
}

static int load_expect_and_check(parser *P)
{
    mb_case *c = P->c;
    c->expect = calloc(P->n + 1, sizeof *c->expect);
    c->check = calloc(P->n + 1, sizeof *c->check);
    if (!c->expect || !c->check)
        return fail(P, 1, "out of memory");
    for (size_t k = 0; k < P->n && !P->error; k++) {
        if (P->items[k].section == SEC_EXPECT)
            load_expect(P, &P->items[k]);
        else if (P->items[k].section == SEC_CHECK)
            load_check(P, &P->items[k]);
    }
    return P->error;
}

int mb_case_load(const char *path, mb_case **out)
{
    *out = NULL;
    parser P;
    memset(&P, 0, sizeof P);
    P.path = path;
    P.c = calloc(1, sizeof *P.c);
    if (P.c == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    P.c->damping_node = -1;
    P.c->path = strdup(path);
    int st = read_file(&P);
    if (st == MB_SUCCESS && !P.error)
        if (!load_case_section(&P) && !load_run_section(&P))
            load_expect_and_check(&P);
    for (size_t k = 0; k < P.n; k++) {
        free(P.items[k].key);
        free(P.items[k].value);
    }
    free(P.items);
    free(P.index.slot);
    if (P.error)
        st = mb_error_record(P.error, __FILE__, __LINE__, "%s", P.message);
    if (st != MB_SUCCESS) {
        mb_case_free(P.c);
        return st;
    }
    *out = P.c;
    return MB_SUCCESS;
}

void mb_case_free(mb_case *c)
{
    if (c == NULL)
        return;
    free(c->path);
    free(c->name);
    free(c->description);
    mb_options_free(c->params);
    for (size_t k = 0; c->integrators && k < c->n_integrators; k++)
        free(c->integrators[k]);
    free(c->integrators);
    free(c->dt);
    free(c->steps);
    for (size_t k = 0; k < c->n_expect; k++) {
        free(c->expect[k].integrator);
        free(c->expect[k].metric);
        free(c->expect[k].text);
    }
    free(c->expect);
    for (size_t k = 0; k < c->n_check; k++) {
        free(c->check[k].integrator);
        free(c->check[k].metric);
    }
    free(c->check);
    free(c);
}

const char *mb_case_precision_label(const mb_case *c, char *buf, size_t size)
{
    if (c->precision_bits > 0)
        snprintf(buf, size, "mpfr:%ld", c->precision_bits);
    else
        snprintf(buf, size, "double");
    return buf;
}
