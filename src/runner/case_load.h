/* case_load.h -- what the files that interpret a case file share (not installed).
 *
 * The file is read by the one INI reader (mb_ini.h): its policy, its line numbers, its
 * refusal of duplicate sections and keys.  Interpreting the entries is split by section:
 *   case_file.c          the load's order, [case] and [problem], the sections allowed
 *   case_run.c           [run]: integrators, plug-ins, time steps, precision, sampling
 *   case_expectations.c  [expect] and [check]
 *   case_values.c        the messages and the value parsers the three share
 * The first error is kept with its "file:line: " (library calls made afterwards record
 * their own messages) and recorded when the load ends. */
#ifndef CASE_LOAD_H
#define CASE_LOAD_H

#include "mb_case.h"
#include "mb_ini.h"
#include "mb_metrics.h"

#define CASE_MAX_DT MB_ORDER_MAX_POINTS
#define CASE_MAX_PROBES 64          /* [run] probe times */

typedef struct case_loader {
    const char *path;
    mb_ini_doc *doc;
    int error;                  /* first error status (0: none) */
    char message[600];
    mb_case *c;
    size_t nodes;               /* node count of the problem as set up */
    int scene_line;             /* first scene section ([body NAME], ...), 0: none */
    const char *no_mpfr_force;  /* a force model of the problem without an MPFR instance */
} case_loader;

/* ---- messages (case_values.c); each returns the first error's status ---- */
int case_fail(case_loader *P, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A message that already names file:line (the scene's own errors). */
int case_fail_located(case_loader *P, const char *msg);
/* The message of a library call (mb_last_error) at a line. */
int case_fail_lib(case_loader *P, int line);
/* "unknown WHAT 'NAME'WHERE (did you mean 'X'?)" */
int case_unknown_name(case_loader *P, int line, const char *what, const char *name,
                      const char *where, const char *const *candidates);

/* ---- entries and sections ---- */
mb_ini_entry *case_entry(const case_loader *P, const char *section, const char *key);
/* The line of [section], or 1 when the file has none. */
int case_section_line(const case_loader *P, const char *section);
/* The entry of a required key, else an error at the section's line. */
int case_require(case_loader *P, const char *section, const char *key, const mb_ini_entry **out);
/* Every key of [section] is one of known (NULL-terminated), else an error with a hint. */
int case_check_keys(case_loader *P, const char *section, const char *const *known);

/* ---- values ---- */
int case_parse_positive(case_loader *P, const mb_ini_entry *e, const char *label,
                        const char *text, double *out);
int case_parse_long(case_loader *P, const mb_ini_entry *e, const char *label, const char *text,
                    long lo, long hi, long *out);
/* Split s (modified) at commas outside brackets into at most max items. */
int case_split_list(case_loader *P, const mb_ini_entry *e, char *s, char **items, int max,
                    int *count);

/* An MPFR computation (what, asked at line) on a problem with a force model that has no
 * MPFR instance is refused at load, at the scene's [force NAME] line (else at line), with
 * the advice to write instead. */
int case_refuse_mpfr(case_loader *P, int line, const char *what, const char *instead);

/* ---- sections ---- */
int case_load_run(case_loader *P);             /* case_run.c */
int case_load_expectations(case_loader *P);    /* case_expectations.c */

#endif
