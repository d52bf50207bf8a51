/* junit_tap.h -- test outcomes for CI systems: JUnit XML and TAP (run --junit/--tap,
 * check --junit/--tap).
 *
 * One test per expectation (run) or per (case, integrator, precision, dt) of the baseline
 * (check), grouped by case: a JUnit <testsuite> per case, <testcase classname="CASE"
 * name="..."> with its <properties> (check: the metrics and their values) and a <failure>
 * whose type says what failed ("expectation" for run, "regression" for check) and that
 * carries the values and the bounds.  TAP version 13 prints one "ok N - CASE: NAME" or
 * "not ok N - ..." line per test with the reason as a YAML-less "# " comment below. */
#ifndef MB_CI_LOG_H
#define MB_CI_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "mb_output.h"

typedef struct mb_ci_test {
    char *suite;       /* the case */
    char *name;        /* integrator, dt and expectation / metric */
    char *failure;     /* NULL: passed */
    int skipped;       /* counted as skipped (JUnit <skipped/>, TAP "# SKIP") */
    const char *failure_type;    /* JUnit failure type: a static string, NULL: "expectation" */
    size_t n_properties;
    char **property_names, **property_values;
} mb_ci_test;

typedef struct mb_ci_log {
    size_t n, cap;
    mb_ci_test *tests;
} mb_ci_log;

/* Append a test (strings are copied); failure NULL for a pass.  MB_ENOMEM on failure. */
int mb_ci_add(mb_ci_log *L, const char *suite, const char *name, const char *failure,
              int skipped);
/* The JUnit failure type of the last test added ("regression"; a static string). */
void mb_ci_set_failure_type(mb_ci_log *L, const char *type);
/* A property NAME = VALUE of the last test added (JUnit <property>; strings copied).
 * MB_ENOMEM on failure. */
int mb_ci_add_property(mb_ci_log *L, const char *name, const char *value);
void mb_ci_free(mb_ci_log *L);
/* Write the JUnit XML for path into o (mb_output.h: a regular file under a temporary name
 * beside it, a device or FIFO straight through), complete and checked; the caller then
 * closes o with mb_output_close(o, 1) to rename it into place once every other output is
 * ready too, or with ok = 0 to drop it.  On failure (the reason in the message: "PATH is
 * a directory", "cannot write PATH: No space left on device") o is already closed. */
int mb_ci_prepare_junit(const mb_ci_log *L, const char *path, const char *name, mb_output *o);
void mb_ci_write_tap(const mb_ci_log *L, FILE *out);

#endif
