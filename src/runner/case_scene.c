/* case_scene.c -- the case loader's side of scenes (mb_case_scene.h). */
#include "mb_case_scene.h"
#include "mb_scene_build.h"
#include "mb_scene_doc.h"
#include "mb_status.h"

#include <stdio.h>
#include <string.h>

int mb_case_scene_section(const char *name)
{
    return mb_scene_section_header(name);
}

const char *mb_case_scene_hint(const char *name, char *buf, size_t size)
{
    static const char *const kinds[] = { "body", "force", "constraint", "obstacle", "contact",
                                         "exact", NULL };
    char first[64], rest[128] = "";
    if (sscanf(name, " %63s %127[^\n]", first, rest) < 1)
        return NULL;
    const char *kind = mb_suggest(first, kinds);
    if (kind == NULL)
        return NULL;
    snprintf(buf, size, "%s%s%s", kind, rest[0] ? " " : "", rest);
    return buf;
}

int mb_case_scene_file(const mb_problem_type *pt, const char *path, int scene_line,
                       mb_options *given)
{
    if (strcmp(pt->name, "scene") != 0) {
        if (scene_line > 0)
            MB_ERROR(MB_EINVAL, "scene sections ([body], [force], ...) need problem = scene "
                     "(this case uses '%s')", pt->name);
        return MB_SUCCESS;
    }
    if (mb_options_given(given, "file"))
        return MB_SUCCESS;
    return mb_options_set(given, "file", path);
}

int mb_case_scene_located(const char *path, const char *msg)
{
    size_t n = strlen(path);
    return strncmp(msg, path, n) == 0 && msg[n] == ':';
}

int mb_case_scene_reference(const mb_problem_type *pt, const mb_options *params,
                            mb_reference_kind kind)
{
    if (strcmp(pt->name, "scene") != 0 || (kind != MB_REF_ANALYTIC && kind != MB_REF_AUTO))
        return MB_SUCCESS;
    return mb_scene_exact_check(mb_options_string(params, "file"));
}

int mb_case_scene_force_refused(const mb_problem_type *pt, const mb_options *params,
                                const char *type_name, const char *why)
{
    mb_scene_doc *d = NULL;
    if (strcmp(pt->name, "scene") != 0
        || mb_scene_doc_read(mb_options_string(params, "file"), &d) != MB_SUCCESS)
        return MB_ENOTFOUND;
    int st = MB_ENOTFOUND;
    for (size_t k = 0; k < d->n && st == MB_ENOTFOUND; k++) {
        mb_scene_section *s = &d->sec[k];
        const mb_scene_entry *type = strcmp(s->kind, "force") ? NULL : mb_scene_get(s, "type");
        if (type && strcmp(type->value, type_name) == 0)
            st = mb_scene_fail(d, s->line, "[force %s] (type = %s): %s", s->name, type_name, why);
    }
    mb_scene_doc_free(d);
    if (st == MB_ENOTFOUND)
        mb_clear_error();
    return st;
}
