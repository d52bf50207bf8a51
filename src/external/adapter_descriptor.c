/* adapter_descriptor.c -- NAME.adapter descriptors (INI, read by the one INI reader,
 * mb_ini.h) and the search path for them (doc/external.md, section 1).
 *
 * [adapter] name, protocol and command are required; timeout, requires, velocities,
 * order, trajectory, options and summary are optional.  Every error names "file:line". */
#include "mb_external.h"
#include "mb_ini.h"
#include "mb_install_dirs.h"
#include "mb_status.h"
#include "mb_text.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MB_SRCDIR
#define MB_SRCDIR "."
#endif

#define DEFAULT_TIMEOUT 600.0
#define MAX_DIRS 32

static char *extra_dirs[MAX_DIRS];
static size_t n_extra_dirs;

int mb_adapter_path_add(const char *dir)
{
    if (n_extra_dirs == MAX_DIRS)
        MB_ERROR(MB_EINVAL, "--adapters: at most %d directories", MAX_DIRS);
    if ((extra_dirs[n_extra_dirs] = strdup(dir)) == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    n_extra_dirs++;
    return MB_SUCCESS;
}

void mb_adapter_path_clear(void)
{
    for (size_t k = 0; k < n_extra_dirs; k++)
        free(extra_dirs[k]);
    n_extra_dirs = 0;
}

void mb_adapter_free(mb_adapter *a)
{
    if (a == NULL)
        return;
    for (size_t k = 0; a->argv && k < a->argc; k++)
        free(a->argv[k]);
    for (size_t k = 0; a->requires && k < a->n_requires; k++)
        free(a->requires[k]);
    for (size_t k = 0; a->options && k < a->n_options; k++)
        free(a->options[k]);
    free(a->argv);
    free(a->requires);
    free(a->options);
    free(a);
}

/* Split text on the characters of seps into a NULL-terminated array of words. */
static int split_words(const char *text, const char *seps, char ***words, size_t *n)
{
    size_t cap = strlen(text) / 2 + 2;
    char **w = calloc(cap, sizeof *w);
    if (w == NULL)
        return MB_ENOMEM;
    *words = w;
    *n = 0;
    for (const char *p = text; *p;) {
        p += strspn(p, seps);
        size_t len = strcspn(p, seps);
        if (len == 0)
            break;
        while (len > 0 && isspace((unsigned char)p[len - 1]))
            len--;
        if ((w[*n] = strndup(p, len)) == NULL)
            return MB_ENOMEM;
        (*n)++;
        p += strcspn(p, seps);
    }
    return MB_SUCCESS;
}

typedef struct loader {
    mb_adapter *a;
    const mb_ini_doc *doc;
    int error;
} loader;

static int fail(loader *L, int line, const char *fmt, const char *what)
{
    if (!L->error) {
        char msg[300];
        mb_text_format(msg, sizeof msg, fmt, what);
        L->error = mb_ini_fail(L->doc, line, "%s", msg);
    }
    return 0;
}

static int set_timeout(loader *L, const char *value, int line)
{
    char *end;
    double t = strtod(value, &end);
    if (end == value || *end || !(t > 0.0) || !isfinite(t))
        return fail(L, line, "timeout = %s: give a number of seconds > 0", value);
    L->a->timeout = t;
    return 1;
}

/* trajectory = csv | npy | csv, npy: the files the adapter writes (section 4b) */
static int set_formats(loader *L, const char *value, int line)
{
    char **words = NULL;
    size_t n = 0;
    unsigned formats = 0;
    int ok = split_words(value, ", \t", &words, &n) == MB_SUCCESS && n > 0;
    for (size_t k = 0; ok && k < n; k++) {
        unsigned f = !strcmp(words[k], "csv") ? MB_TRAJECTORY_CSV
                     : !strcmp(words[k], "npy") ? MB_TRAJECTORY_NPY : 0u;
        ok = f != 0 && !(formats & f);
        formats |= f;
    }
    for (size_t k = 0; k < n; k++)
        free(words[k]);
    free(words);
    if (!ok)
        return fail(L, line, "trajectory = %s: write csv, npy or csv, npy (each once)", value);
    L->a->formats = formats;
    return 1;
}

static int set_key(loader *L, const char *key, const char *value, int line)
{
    mb_adapter *a = L->a;
    if (!strcmp(key, "name")) {
        if (strcmp(value, a->name) != 0)
            return fail(L, line, "name = %s must equal the file's stem", value);
    } else if (!strcmp(key, "protocol")) {
        if (strcmp(value, "1") != 0 && strcmp(value, "2") != 0)
            return fail(L, line, "protocol = %s: this motionbench speaks protocols 1 and 2",
                        value);
        a->protocol = value[0] - '0';
    } else if (!strcmp(key, "command")) {
        if (split_words(value, " \t", &a->argv, &a->argc) != MB_SUCCESS || a->argc == 0)
            return fail(L, line, "command = '%s': give a program and its arguments", value);
    } else if (!strcmp(key, "timeout")) {
        return set_timeout(L, value, line);
    } else if (!strcmp(key, "requires")) {
        if (split_words(value, ", \t", &a->requires, &a->n_requires) != MB_SUCCESS)
            return fail(L, line, "%s: out of memory", key);
        for (size_t k = 0; k < a->n_requires; k++)
            if (!mb_adapter_requirement_valid(a->requires[k]))
                return fail(L, line, "requires: '%s' is neither a program nor "
                            "INTERPRETER:MODULE with a dotted Python module name", a->requires[k]);
    } else if (!strcmp(key, "options")) {
        if (split_words(value, ", \t", &a->options, &a->n_options) != MB_SUCCESS)
            return fail(L, line, "%s: out of memory", key);
    } else if (!strcmp(key, "velocities")) {
        if (strcmp(value, "on-step") && strcmp(value, "mid-step"))
            return fail(L, line, "velocities = %s: write on-step or mid-step", value);
        a->mid_step = strcmp(value, "mid-step") == 0;
    } else if (!strcmp(key, "trajectory")) {
        return set_formats(L, value, line);
    } else if (!strcmp(key, "summary")) {
        snprintf(a->summary, sizeof a->summary, "%s", value);
    } else if (!strcmp(key, "order")) {
        char *end;
        long o = strtol(value, &end, 10);
        if (end == value || *end || o < 1 || o > 16)
            return fail(L, line, "order = %s: give the package's nominal order, 1 to 16", value);
        a->order = (int)o;
    } else {
        return fail(L, line, "unknown key '%s' (name, protocol, command, timeout, requires, "
                    "velocities, order, trajectory, options, summary)", key);
    }
    return 1;
}

/* One [adapter] section with name, protocol and command: the reader has refused a key
 * given twice, so each is set once. */
static int read_descriptor(loader *L)
{
    const mb_ini_doc *d = L->doc;
    for (size_t s = 0; s < d->n; s++)
        if (strcmp(d->sec[s].name, "adapter") != 0) {
            fail(L, d->sec[s].line, "unknown section [%s] (a descriptor has one [adapter])",
                 d->sec[s].name);
            return L->error;
        }
    const mb_ini_section *sec = mb_ini_section_find(d, "adapter");
    for (size_t k = 0; sec && k < sec->n && !L->error; k++)
        set_key(L, sec->items[k].key, sec->items[k].value, sec->items[k].line);
    if (!L->error && !(mb_ini_find(d, "adapter", "name") && mb_ini_find(d, "adapter", "protocol")
                       && mb_ini_find(d, "adapter", "command")))
        fail(L, sec ? sec->line : 1, "%s", "name, protocol and command are required in "
             "[adapter]");
    return L->error;
}

static int stem_of(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *ext = ".adapter";
    if (n <= strlen(ext) || strcmp(base + n - strlen(ext), ext) != 0)
        MB_ERROR(MB_EINVAL, "%s: a descriptor is named NAME.adapter", path);
    snprintf(out, size, "%.*s", (int)(n - strlen(ext)), base);
    return MB_SUCCESS;
}

int mb_adapter_load(const char *path, mb_adapter **out)
{
    *out = NULL;
    mb_adapter *a = calloc(1, sizeof *a);
    if (a == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    snprintf(a->path, sizeof a->path, "%s", path);
    const char *slash = strrchr(path, '/');
    char dir[4096], *abs;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    /* absolute: the command runs in another directory */
    abs = realpath(dir, NULL);
    snprintf(a->dir, sizeof a->dir, "%s", abs ? abs : dir);
    free(abs);
    a->timeout = DEFAULT_TIMEOUT;
    a->formats = MB_TRAJECTORY_CSV;
    if (stem_of(path, a->name, sizeof a->name) != MB_SUCCESS) {
        mb_adapter_free(a);
        return MB_EINVAL;
    }
    mb_ini_doc *doc = NULL;
    int st = mb_ini_read(path, MB_INPUT_DESCRIPTOR, &doc);
    if (st == MB_SUCCESS) {
        loader L = { a, doc, 0 };
        st = read_descriptor(&L);
    }
    mb_ini_free(doc);
    if (st != MB_SUCCESS) {
        mb_adapter_free(a);
        return st;
    }
    *out = a;
    return MB_SUCCESS;
}

static int try_dir(const char *dir, const char *name, mb_adapter **out, int *found)
{
    char path[8300];
    struct stat sb;
    if ((size_t)snprintf(path, sizeof path, "%s/%s.adapter", dir, name) >= sizeof path)
        return MB_SUCCESS;
    if (stat(path, &sb) != 0)
        return MB_SUCCESS;
    *found = 1;
    return mb_adapter_load(path, out);
}

int mb_adapter_find(const char *name, const char *case_dir, mb_adapter **out)
{
    char dirs[MAX_DIRS + 3][4096];
    size_t n = 0;
    for (size_t k = 0; k < n_extra_dirs; k++)
        snprintf(dirs[n++], sizeof dirs[0], "%s", extra_dirs[k]);
    if (case_dir)
        snprintf(dirs[n++], sizeof dirs[0], "%s/adapters", case_dir);
    snprintf(dirs[n++], sizeof dirs[0], "%s/adapters", MB_SRCDIR);
    snprintf(dirs[n++], sizeof dirs[0], "%s/adapters", MB_PKGDATADIR);
    *out = NULL;
    for (size_t k = 0; k < n; k++) {
        int found = 0;
        int s = try_dir(dirs[k], name, out, &found);
        if (found)
            return s;
    }
    char list[1024];
    size_t len = 0;
    for (size_t k = 0; k < n && len < sizeof list; k++)
        len += (size_t)mb_text_format(list + len, sizeof list - len, "%s%s", k ? ", " : "",
                                      dirs[k]);
    MB_ERROR(MB_ENOTFOUND, "no descriptor %s.adapter in %s", name, list);
}

int mb_adapter_check_options(const mb_adapter *a, const mb_external_spec *spec)
{
    for (size_t k = 0; k < spec->n_options; k++) {
        size_t j = 0;
        while (j < a->n_options && strcmp(a->options[j], spec->keys[k]) != 0)
            j++;
        if (j == a->n_options)
            MB_ERROR(MB_EINVAL, "adapter %s has no option '%s' (%s lists: %s%s)", a->name,
                     spec->keys[k], a->path, a->n_options ? a->options[0] : "none",
                     a->n_options > 1 ? ", ..." : "");
    }
    return MB_SUCCESS;
}

int mb_find_on_path(const char *prog, char *full, size_t size)
{
    if (strchr(prog, '/')) {
        snprintf(full, size, "%s", prog);
        return access(prog, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, ":");
        struct stat sb;
        if ((size_t)snprintf(full, size, "%.*s/%s", (int)len, len ? p : ".", prog) < size
            && stat(full, &sb) == 0 && S_ISREG(sb.st_mode) && access(full, X_OK) == 0)
            return 1;
        p += len;
        if (*p == ':')
            p++;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);    /* rows of char[128] */
}

/* The descriptor file names of one directory, sorted (none when it cannot be read). */
static size_t descriptor_names(const char *dir, char names[][128], size_t max)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while (d && n < max && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' && len > 8 && len < 128 && !strcmp(e->d_name + len - 8, ".adapter"))
            snprintf(names[n++], 128, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    return n;
}

void mb_adapter_each(void (*fn)(const char *path, const mb_adapter *a, void *user), void *user)
{
    char dirs[MAX_DIRS + 2][4096], seen[512][128], names[256][128];
    size_t n = 0, n_seen = 0;
    for (size_t k = 0; k < n_extra_dirs; k++)
        snprintf(dirs[n++], sizeof dirs[0], "%s", extra_dirs[k]);
    snprintf(dirs[n++], sizeof dirs[0], "%s/adapters", MB_SRCDIR);
    snprintf(dirs[n++], sizeof dirs[0], "%s/adapters", MB_PKGDATADIR);
    for (size_t k = 0; k < n; k++) {
        size_t m = descriptor_names(dirs[k], names, 256);
        for (size_t j = 0; j < m; j++) {
            size_t s = 0;
            while (s < n_seen && strcmp(seen[s], names[j]) != 0)
                s++;
            if (s < n_seen || n_seen == 512)
                continue;                   /* an earlier directory wins */
            memcpy(seen[n_seen++], names[j], 128);
            char path[8300];
            if ((size_t)snprintf(path, sizeof path, "%s/%s", dirs[k], names[j]) >= sizeof path)
                continue;
            mb_adapter *a = NULL;
            if (mb_adapter_load(path, &a) != MB_SUCCESS)
                a = NULL;
            fn(path, a, user);
            mb_adapter_free(a);
        }
    }
}
