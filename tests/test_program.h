/* test_program.h -- the program the C tests run (header only): $MB_PROGRAM, the built
 * program without libtool's wrapper script, which make check exports with the library path
 * it needs (tests/local.mk, tests/program.env); else the wrapper $MB_BUILDDIR/src/motionbench
 * ("." without MB_BUILDDIR). */
#ifndef MB_TEST_PROGRAM_H
#define MB_TEST_PROGRAM_H

#include <stdio.h>
#include <stdlib.h>

/* The program's path into buf (n bytes) */
static inline const char *tp_program(char *buf, size_t n)
{
    const char *p = getenv("MB_PROGRAM"), *b = getenv("MB_BUILDDIR");
    if (p != NULL && *p != '\0')
        snprintf(buf, n, "%s", p);
    else
        snprintf(buf, n, "%s/src/motionbench", b ? b : ".");
    return buf;
}

#endif
