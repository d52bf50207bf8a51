/* registry.c -- the list of every problem, expanded from problems.def, and lookup. */
#include "mb_init.h"
#include "mb_problem.h"
#include "mb_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB_PROBLEM(id) extern const mb_problem_type mb_problem_##id;
#include "problems.def"
#undef MB_PROBLEM

static const mb_problem_type *const registry[] = {
#define MB_PROBLEM(id) &mb_problem_##id,
#include "problems.def"
#undef MB_PROBLEM
    NULL
};

const mb_problem_type *const *mb_problems(void) { return registry; }

const mb_problem_type *mb_problem_find(const char *name)
{
    for (const mb_problem_type *const *p = registry; *p; p++)
        if (strcmp((*p)->name, name) == 0)
            return *p;
    return NULL;
}

int mb_problem_prepare(const char *name, const mb_options *params,
                       const mb_problem_type **type, mb_options **out_params)
{
    mb_init();
    *type = mb_problem_find(name);
    *out_params = NULL;
    if (*type == NULL) {
        const char *names[128];
        size_t n = 0;
        for (const mb_problem_type *const *p = registry; *p && n < 127; p++)
            names[n++] = (*p)->name;
        names[n] = NULL;
        const char *hint = mb_suggest(name, names);
        if (hint)
            MB_ERROR(MB_ENOTFOUND, "unknown problem '%s' (did you mean '%s'?)", name, hint);
        MB_ERROR(MB_ENOTFOUND, "unknown problem '%s' (see: motionbench list problems)", name);
    }
    mb_options *o = params ? mb_options_copy(params) : mb_options_new();
    if (o == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    char what[160];
    snprintf(what, sizeof what, "problem '%s'", name);
    int st = mb_options_validate(o, (*type)->params, what);
    if (st != MB_SUCCESS) {
        mb_options_free(o);
        return st;
    }
    *out_params = o;
    return MB_SUCCESS;
}
