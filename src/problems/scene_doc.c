/* scene_doc.c -- the scene sections of a case file with their lines (mb_scene_doc.h).
 * The file is read by the one INI reader (mb_ini.h: its policy, its positions); sections
 * that are not scene sections ([case], [run], ...) are the case loader's and are skipped
 * here. */
#include "mb_scene_doc.h"
#include "mb_options.h"
#include "mb_ini.h"
#include "mb_input.h"
#include "mb_status.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scene of the problem's default parameters (file = ""): a spinning ball thrown under
 * gravity, with its closed form (uniform acceleration; an isotropic body spins at constant
 * w = 2 about z, so q = (cos t, 0, 0, sin t)). */
static const char builtin_scene[] =
    "[body ball]\ntype = sphere\nradius = 0.1\nmass = 0.5\nposition = 0, 0, 1\n"
    "velocity = 1, 0.5, 3\nangular_velocity = 0, 0, 2\n"
    "[force gravity]\ntype = gravity\ng = 0, 0, -9.81\n"
    "[exact ball]\nbody = ball\nx = t\ny = 0.5*t\nz = 1 + 3*t - 4.905*t^2\nvx = 1\nvy = 0.5\n"
    "vz = 3 - 9.81*t\nqw = cos(t)\nqx = 0\nqy = 0\nqz = sin(t)\nwx = 0\nwy = 0\nwz = 2\n";

static const char *const kinds[] = { "body", "force", "constraint", "obstacle", "contact", "exact",
                                     "assembly", "space", NULL };

int mb_scene_fail(const mb_scene_doc *d, int line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s:%d: %s", d->path, line, msg);
}

/* split "kind NAME" (kind alone for [contact]); 0 when not a scene section, -1 when a
 * scene section has more than one word for its name */
static int split_header(const char *header, char kind[16], char name[64])
{
    char k[16] = "", n[64] = "", extra[8] = "";
    int got = sscanf(header, " %15s %63s %7s", k, n, extra);
    for (int i = 0; kinds[i]; i++)
        if (got >= 1 && strcmp(k, kinds[i]) == 0) {
            strcpy(kind, k);
            strcpy(name, got >= 2 ? n : "");
            return got <= 2 ? 1 : -1;
        }
    return 0;
}

int mb_scene_section_header(const char *name)
{
    char k[16], n[64];
    return split_header(name, k, n) != 0;
}

/* One scene section of the INI document: its entries stay the document's. */
static int add_section(mb_scene_doc *d, mb_ini_section *from)
{
    char kind[16], name[64];
    int is_scene = split_header(from->name, kind, name);
    if (is_scene == 0)
        return MB_SUCCESS;                  /* [case], [run], ...: the case loader's */
    if (is_scene < 0)
        return mb_scene_fail(d, from->line, "section [%s]: write [KIND NAME], one word for "
                             "the name", from->name);
    if (strcmp(kind, "space") == 0 && name[0] != '\0')
        return mb_scene_fail(d, from->line, "section [%s]: [space] takes no name (one space "
                             "per scene)", from->name);
    if (strcmp(kind, "contact") != 0 && strcmp(kind, "space") != 0 && name[0] == '\0')
        return mb_scene_fail(d, from->line, "section [%s] needs a name: [%s NAME]", kind, kind);
    for (size_t k = 0; k < d->n; k++)       /* "[body  a]" and "[body a]" are one body */
        if (!strcmp(d->sec[k].kind, kind) && !strcmp(d->sec[k].name, name))
            return mb_scene_fail(d, from->line, "duplicate section [%s] (first at line %d)",
                                 from->name, d->sec[k].line);
    mb_scene_section *sec = realloc(d->sec, (d->n + 1) * sizeof *sec);
    if (sec == NULL)
        return MB_ENOMEM;
    d->sec = sec;
    mb_scene_section *s = &sec[d->n++];
    memset(s, 0, sizeof *s);
    strcpy(s->kind, kind);
    strcpy(s->name, name);
    s->line = from->line;
    s->n = from->n;
    s->items = from->items;
    return MB_SUCCESS;
}

void mb_scene_doc_free(mb_scene_doc *d)
{
    if (d == NULL)
        return;
    free(d->sec);
    mb_ini_free(d->ini);
    free(d);
}

int mb_scene_doc_read(const char *path, mb_scene_doc **out)
{
    *out = NULL;
    mb_scene_doc *d = calloc(1, sizeof *d);
    if (d == NULL)
        return MB_ENOMEM;
    int st = path[0] == '\0'
        ? mb_ini_read_text("(built-in scene)", builtin_scene, sizeof builtin_scene - 1, &d->ini)
        : mb_ini_read(path, MB_INPUT_SCENE, &d->ini);
    if (st == MB_SUCCESS) {
        d->path = d->ini->path;
        for (size_t k = 0; k < d->ini->n && st == MB_SUCCESS; k++)
            st = add_section(d, &d->ini->sec[k]);
    }
    if (st != MB_SUCCESS) {
        mb_scene_doc_free(d);
        return st;
    }
    *out = d;
    return MB_SUCCESS;
}

mb_scene_entry *mb_scene_get(mb_scene_section *s, const char *key)
{
    for (size_t k = 0; k < s->n; k++)
        if (strcmp(s->items[k].key, key) == 0) {
            s->items[k].used = 1;
            return &s->items[k];
        }
    return NULL;
}

int mb_scene_check_keys(const mb_scene_doc *d, const mb_scene_section *s, const char *const *known)
{
    for (size_t k = 0; k < s->n; k++) {
        int ok = 0;
        for (const char *const *q = known; *q && !ok; q++)
            ok = strcmp(*q, s->items[k].key) == 0;
        if (ok)
            continue;
        const char *hint = mb_suggest(s->items[k].key, known);
        return mb_scene_fail(d, s->items[k].line, "unknown key '%s' in [%s%s%s]%s%s%s",
                             s->items[k].key, s->kind, s->name[0] ? " " : "", s->name,
                             hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
    }
    return MB_SUCCESS;
}

long mb_scene_body_index(const mb_scene_doc *d, const char *name)
{
    long index = 0;
    for (size_t s = 0; s < d->n; s++)
        if (strcmp(d->sec[s].kind, "body") == 0) {
            if (strcmp(d->sec[s].name, name) == 0)
                return index;
            index++;
        }
    return -1;
}

int mb_scene_body_ref(const mb_scene_doc *d, const mb_scene_entry *e, const char *name, size_t *index)
{
    long k = mb_scene_body_index(d, name);
    if (k >= 0) {
        *index = (size_t)k;
        return MB_SUCCESS;
    }
    const char *names[65];
    size_t n = 0;
    for (size_t s = 0; s < d->n && n < 64; s++)
        if (strcmp(d->sec[s].kind, "body") == 0)
            names[n++] = d->sec[s].name;
    names[n] = NULL;
    const char *hint = mb_suggest(name, names);
    return mb_scene_fail(d, e->line, "%s: unknown body '%s'%s%s%s", e->key, name,
                         hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
}

/* Past the separator after a component: blanks, at most one comma, blanks.  0 when the
 * comma is followed by another comma or by the end (an empty component). */
static int next_component(const char **p)
{
    const char *s = *p + strspn(*p, " \t");
    if (*s == ',') {
        s++;
        s += strspn(s, " \t");
        int empty = *s == ',' || *s == '\0';
        if (empty)
            return 0;
    }
    *p = s;
    return 1;
}

int mb_scene_vector(const mb_scene_doc *d, const mb_scene_entry *e, double *out, int count)
{
    const char *p = e->value;
    for (int k = 0; k < count; k++) {
        if (k > 0 && !next_component(&p))
            return mb_scene_fail(d, e->line, "%s = %s: empty component %d (one comma between "
                                 "numbers)", e->key, e->value, k + 1);
        while (isspace((unsigned char)*p))
            p++;
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || !mb_strtod_in_range(v) || !isfinite(v))
            return mb_scene_fail(d, e->line, "%s = %s: expected %d finite number%s", e->key,
                                 e->value, count, count == 1 ? "" : "s (comma separated)");
        out[k] = v;
        p = end;
    }
    if (!next_component(&p))
        return mb_scene_fail(d, e->line, "%s = %s: empty component %d (one comma between "
                             "numbers)", e->key, e->value, count + 1);
    if (*p != '\0')
        return mb_scene_fail(d, e->line, "%s = %s: expected %d number%s, found more", e->key,
                             e->value, count, count == 1 ? "" : "s");
    return MB_SUCCESS;
}

int mb_scene_double(const mb_scene_doc *d, const mb_scene_entry *e, double *out)
{
    return mb_scene_vector(d, e, out, 1);
}

int mb_scene_opt_vector(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out, int count)
{
    mb_scene_entry *e = mb_scene_get(s, key);
    return e ? mb_scene_vector(d, e, out, count) : MB_SUCCESS;
}

int mb_scene_opt_double(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out)
{
    return mb_scene_opt_vector(d, s, key, out, 1);
}

int mb_scene_req_vector(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out, int count)
{
    mb_scene_entry *e = mb_scene_get(s, key);
    if (e == NULL)
        return mb_scene_fail(d, s->line, "[%s %s] needs '%s'", s->kind, s->name, key);
    return mb_scene_vector(d, e, out, count);
}

int mb_scene_req_double(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out)
{
    return mb_scene_req_vector(d, s, key, out, 1);
}

const char *mb_scene_body_name(const mb_scene_doc *d, size_t index)
{
    for (size_t s = 0; s < d->n; s++)
        if (strcmp(d->sec[s].kind, "body") == 0 && index-- == 0)
            return d->sec[s].name;
    return "?";
}

const mb_scene_section *mb_scene_node_section(const mb_scene_doc *d, size_t i)
{
    for (size_t s = 0; s < d->n; s++)
        if (d->sec[s].nodes > 0 && i >= d->sec[s].first && i - d->sec[s].first < d->sec[s].nodes)
            return &d->sec[s];
    return &d->sec[0];
}

const char *mb_scene_node_name(const mb_scene_doc *d, size_t i)
{
    static _Thread_local char name[2][112];
    static _Thread_local int turn;
    const mb_scene_section *s = mb_scene_node_section(d, i);
    char *out = name[turn ^= 1];
    if (strcmp(s->kind, "assembly") == 0)
        snprintf(out, sizeof name[0], "sphere %zu of %s", i - s->first + 1, s->name);
    else
        snprintf(out, sizeof name[0], "%s", s->name);
    return out;
}
