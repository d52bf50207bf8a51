/* cmd_list.c -- `motionbench list integrators|problems [--verbose]`. */
#include "cli.h"
#include "mb_external.h"
#include "mb_problem.h"
#include "mb_plugin.h"
#include "mb_status.h"
#include "mb_stepper.h"

#include <stdio.h>
#include <string.h>

static void print_options(const mb_option_spec *specs)
{
    for (const mb_option_spec *s = specs; s && s->name; s++) {
        printf("      %-14s = %-10s %s", s->name, s->default_value ? s->default_value : "(required)",
               s->doc);
        if (s->kind == MB_OPT_CHOICE)
            printf(" [%s]", s->choices);
        else if ((s->kind == MB_OPT_DOUBLE || s->kind == MB_OPT_INT) && s->min <= s->max)
            printf(" [%g, %g]", s->min, s->max);
        printf("\n");
    }
}

static void list_integrators(int verbose)
{
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++) {
        char rot[16] = "-";
        if ((*t)->order_rotation > 0)
            snprintf(rot, sizeof rot, "%d", (*t)->order_rotation);
        printf("%-24s orders: translation %d, rotation %s%s%s%s%s%s\n", (*t)->name, (*t)->order, rot,
               ((*t)->flags & MB_STEPPER_SYMPLECTIC) ? ", symplectic" : "",
               ((*t)->flags & MB_STEPPER_IMPLICIT) ? ", implicit" : "",
               ((*t)->flags & MB_STEPPER_HALFSTEP) ? ", half-step velocities" : "",
               (*t)->alloc_mpfr ? ", MPFR twin" : "",
               ((*t)->flags & MB_STEPPER_NEGATIVE) ? "  [negative control: deliberately wrong]" : "");
        if (!verbose && (*t)->options && (*t)->options->name) {
            printf("    options:");
            for (const mb_option_spec *o = (*t)->options; o->name; o++)
                printf(" %s=%s", o->name, o->default_value ? o->default_value : "?");
            printf("\n");
        }
        if (verbose) {
            printf("    %s\n    source: %s\n", (*t)->summary,
                   (*t)->reference ? (*t)->reference : "(not given)");
            if ((*t)->options && (*t)->options->name) {
                printf("    options:\n");
                print_options((*t)->options);
            }
        }
    }
}

/* Outside programs: the descriptors on the default search path (doc/external.md). */
static void print_adapter(const char *path, const mb_adapter *a, void *user)
{
    int verbose = *(const int *)user;
    if (a == NULL) {
        printf("%-28s broken descriptor: %s\n", path, mb_last_error());
        return;
    }
    printf("external:%-19s outside program%s%s%s\n", a->name, a->mid_step ? ", mid-step velocities" : "",
           a->summary[0] ? ": " : "", a->summary);
    if (a->n_options) {
        printf("    options:");
        for (size_t k = 0; k < a->n_options; k++)
            printf(" %s", a->options[k]);
        printf("\n");
    }
    if (verbose)
        printf("    descriptor: %s\n", path);
}

static void list_problems(int verbose)
{
    for (const mb_problem_type *const *p = mb_problems(); *p; p++) {
        printf("%-22s %s%s\n", (*p)->name, (*p)->summary, (*p)->exact ? " [closed form]" : "");
        if (verbose) {
            if ((*p)->exact_doc)
                printf("    reference: %s\n", (*p)->exact_doc);
            if ((*p)->params && (*p)->params->name) {
                printf("    parameters:\n");
                print_options((*p)->params);
            }
        }
    }
}

int mb_cmd_list(int argc, char **argv)
{
    int verbose = 0;
    const char *what = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--verbose") || !strcmp(argv[k], "-v")) {
            verbose = 1;
        } else if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
            printf("usage: motionbench list integrators|problems [--verbose] [--plugin FILE.so ...]\n"
                   "  Lists the registered schemes or test problems; --verbose adds equations,\n"
                   "  sources, options and parameters with their defaults and ranges.\n"
                   "  Orders are the nominal global orders of translation and rotation\n"
                   "  (with the default options).  --plugin loads a plugin's integrators first.\n");
            return MB_EXIT_OK;
        } else if (!strcmp(argv[k], "--plugin")) {
            if (++k == argc) {
                fprintf(stderr, "motionbench list: --plugin needs a shared object file\n");
                return MB_EXIT_USAGE;
            }
            if (mb_plugin_load(argv[k]) != MB_SUCCESS)
                return mb_cli_fail("list");
        } else if (what == NULL) {
            what = argv[k];
        } else {
            fprintf(stderr, "motionbench list: unexpected argument '%s'\n", argv[k]);
            return MB_EXIT_USAGE;
        }
    }
    if (what && !strcmp(what, "integrators")) {
        list_integrators(verbose);
        mb_adapter_each(print_adapter, &verbose);
    } else if (what && !strcmp(what, "problems")) {
        list_problems(verbose);
    } else {
        fprintf(stderr, "usage: motionbench list integrators|problems [--verbose] [--plugin FILE.so ...]\n");
        return MB_EXIT_USAGE;
    }
    return MB_EXIT_OK;
}
