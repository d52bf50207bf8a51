/* mb_ini.h -- the one reader of INI text: case files, scene documents and adapter
 * descriptors (doc/cases.md, "The INI policy").
 *
 * inih parses; a reader in front of it applies one policy to every file and keeps the
 * true line of everything it hands on (the Debian build of inih reports no line numbers):
 *  - only a regular file within the cap of its kind is read (mb_input.h); a UTF-8 byte-order mark at its start is
 *    skipped, a UTF-16 or UTF-32 one is refused;
 *  - LF, CR LF and a lone CR end a line; a NUL byte is refused with its line and column;
 *  - a line holds at most MB_INI_MAX_LINE characters, its end not counted (inih's line
 *    buffer of 200 bytes less the line end and the terminating NUL); a longer line is
 *    refused with its true length, except a comment line, whose rest is dropped;
 *  - a line whose first non-blank character is ';' or '#' is a comment; ';' after a blank
 *    starts a comment at the end of a key's line or of a continuation line;
 *  - [NAME] opens a section (blanks around NAME ignored); a section given twice is
 *    refused naming both lines; a key before the first section is refused;
 *  - KEY = VALUE: the key ends at the first '=' outside brackets, so a key may hold
 *    "name[k=v].metric" or "external:NAME.metric"; ':' does not separate a key from its
 *    value; an empty key or an empty value is refused; a key given twice in one section is
 *    refused naming both lines;
 *  - a line that starts with a blank right after a key's line (or its continuation)
 *    continues that value, joined with one blank; the entry keeps the line of its key.
 * Every error is recorded as "PATH:LINE: message" with MB_EINVAL. */
#ifndef MB_INI_H
#define MB_INI_H

#include "mb_input.h"

#include <stddef.h>

#define MB_INI_MAX_LINE 198

typedef struct mb_ini_entry {
    char *key, *value;
    int line;                   /* the line of the key */
    int used;                   /* set by the reader's users (unused keys are reported) */
    size_t value_len, value_cap; /* continuation lines append in amortized O(1) */
} mb_ini_entry;

typedef struct mb_ini_section {
    char *name;                 /* blanks around it removed */
    int line;
    size_t n, cap;
    mb_ini_entry *items;        /* in the order of the file */
} mb_ini_section;

typedef struct mb_ini_doc {
    char *path;
    size_t n, cap;
    mb_ini_section *sec;        /* in the order of the file, no name twice */
    size_t index_cap;           /* open-addressing index of (section, key), private */
    size_t *index;
    size_t n_keys;
    struct mb_ini_ref { size_t sec, item; } *refs;
} mb_ini_doc;

/* Read the file at path under the policy above, opened as an input of that kind
 * (mb_input_open: a regular file within the kind's cap).  MB_EINVAL "path:line: ..." on
 * bad text; the opener's message and status when the file cannot be opened or read. */
int mb_ini_read(const char *path, mb_input_kind kind, mb_ini_doc **out);
/* The same policy over text in memory (len bytes); name stands for the path in messages. */
int mb_ini_read_text(const char *name, const char *text, size_t len, mb_ini_doc **out);
void mb_ini_free(mb_ini_doc *d);

/* The section of that name, or NULL. */
mb_ini_section *mb_ini_section_find(const mb_ini_doc *d, const char *name);
/* The entry of key in the section of that name, or NULL (O(1): hashed). */
mb_ini_entry *mb_ini_find(const mb_ini_doc *d, const char *section, const char *key);

/* s past its leading white space (isspace), its trailing white space cut off in place:
 * the reader's trimming of keys, values and section names, for the readers of parts of a
 * value (a case's lists). */
char *mb_ini_trim(char *s);

/* Record "PATH:LINE: message" with MB_EINVAL; returns MB_EINVAL. */
int mb_ini_fail(const mb_ini_doc *d, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
