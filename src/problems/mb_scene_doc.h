/* mb_scene_doc.h -- the scene sections of a case file ([body NAME], [force NAME],
 * [constraint NAME], [obstacle NAME], [contact]) read with their line numbers by the one
 * INI reader (mb_ini.h), and the
 * value parsers every scene section uses.  Every error is recorded as
 * "file:line: message" with MB_EINVAL (syntax in doc/scenes.md). */
#ifndef MB_SCENE_DOC_H
#define MB_SCENE_DOC_H
#include <stddef.h>

#include "mb_ini.h"

typedef mb_ini_entry mb_scene_entry;    /* key, value, line of the key, used */

typedef struct mb_scene_section {
    char kind[16];          /* body | force | constraint | obstacle | contact | exact |
                               assembly | space */
    char name[64];          /* "" for [contact] and [space] */
    int line;
    size_t first, nodes;    /* the nodes the section places (set by the build; 0 nodes:
                               none) */
    size_t n;
    mb_scene_entry *items;  /* the INI document's */
} mb_scene_section;

typedef struct mb_scene_doc {
    const char *path;       /* the INI document's */
    size_t n;
    mb_scene_section *sec;
    mb_ini_doc *ini;
} mb_scene_doc;

/* 1 when a section header names a scene section (the case loader skips those). */
int mb_scene_section_header(const char *name);

/* path "" reads the built-in example scene (the default of the scene problem). */
int mb_scene_doc_read(const char *path, mb_scene_doc **out);
void mb_scene_doc_free(mb_scene_doc *d);

/* The entry of key (marked used) or NULL. */
mb_scene_entry *mb_scene_get(mb_scene_section *s, const char *key);
/* Every key of s must be in known (NULL-terminated): else an error naming the line
 * with a "did you mean" hint. */
int mb_scene_check_keys(const mb_scene_doc *d, const mb_scene_section *s,
                        const char *const *known);
/* Index of the body section named name (order of the file), or -1. */
long mb_scene_body_index(const mb_scene_doc *d, const char *name);
/* Name of the body section of index i (order of the file). */
const char *mb_scene_body_name(const mb_scene_doc *d, size_t index);
/* The section that placed node i (a body, an assembly or a static obstacle; set by the
 * build), and the name of the node in messages: the section's name, "sphere K of NAME"
 * for the K-th sphere of an assembly (two names may be used in one message). */
const mb_scene_section *mb_scene_node_section(const mb_scene_doc *d, size_t i);
const char *mb_scene_node_name(const mb_scene_doc *d, size_t i);
/* Resolve a body name at entry e: index, or an error "unknown body" with a hint. */
int mb_scene_body_ref(const mb_scene_doc *d, const mb_scene_entry *e, const char *name, size_t *index);

/* Value parsers: the whole value must be the numbers (commas or blanks between), finite. */
int mb_scene_double(const mb_scene_doc *d, const mb_scene_entry *e, double *out);
int mb_scene_vector(const mb_scene_doc *d, const mb_scene_entry *e, double *out, int count);
/* Optional keys: value left unchanged and 0 returned when absent. */
int mb_scene_opt_double(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out);
int mb_scene_opt_vector(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out, int count);
/* Required keys: an error naming the section when absent. */
int mb_scene_req_double(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out);
int mb_scene_req_vector(const mb_scene_doc *d, mb_scene_section *s, const char *key, double *out, int count);
/* "file:line: " formatted error with MB_EINVAL (returns MB_EINVAL). */
int mb_scene_fail(const mb_scene_doc *d, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#endif
