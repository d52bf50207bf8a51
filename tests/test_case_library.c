/* test_case_library.c -- the default case library (every .case file of cases/): every
 * file parses, names are unique, and together the cases reach every registered problem and every
 * registered integrator except the negative controls (MB_STEPPER_NEGATIVE), so no scheme
 * or problem is left without a question asked of it.  Negative control: the coverage
 * check run on the library without the cases of one problem / one integrator reports
 * exactly that one as missing. */
#include "mb_case.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CASES 256

static mb_case *cases[MAX_CASES];
static size_t n_cases;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_library(void)
{
    char dir[1024];
    const char *s = getenv("MB_SRCDIR");
    snprintf(dir, sizeof dir, "%s/cases", s ? s : MB_SRCDIR);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    char *names[MAX_CASES];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".case") == 0) {
            cr_assert_lt(n, (size_t)MAX_CASES);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t k = 0; k < n; k++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        mb_case *c = NULL;
        int st = mb_case_load(path, &c);
        cr_assert_eq(st, MB_SUCCESS, "%s: %s", names[k], mb_last_error());
        cases[n_cases++] = c;
        free(names[k]);
    }
    cr_assert_gt(n_cases, 20, "the library has %zu cases", n_cases);
}

static void free_library(void)
{
    for (size_t k = 0; k < n_cases; k++)
        mb_case_free(cases[k]);
    n_cases = 0;
}

/* the scheme name of a canonical spec "name[k=v,...]" */
static int spec_is(const char *spec, const char *name)
{
    size_t n = strlen(name);
    return strncmp(spec, name, n) == 0 && (spec[n] == '\0' || spec[n] == '[');
}

/* 1 when case c is used (skip == c leaves it out) and runs problem / integrator */
static int problem_reached(const char *problem, const mb_case *skip)
{
    for (size_t k = 0; k < n_cases; k++)
        if (cases[k] != skip && strcmp(cases[k]->problem->name, problem) == 0)
            return 1;
    return 0;
}

static int integrator_reached(const char *name, const char *skip_name)
{
    for (size_t k = 0; k < n_cases; k++)
        for (size_t i = 0; i < cases[k]->n_integrators; i++)
            if (spec_is(cases[k]->integrators[i], name)
                && !(skip_name && spec_is(cases[k]->integrators[i], skip_name)))
                return 1;
    return 0;
}

/* Names of registered problems no case reaches, written into out; returns the count. */
static size_t missing_problems(const mb_case *skip, char *out, size_t size)
{
    size_t missing = 0;
    out[0] = '\0';
    for (const mb_problem_type *const *p = mb_problems(); *p; p++)
        if (!problem_reached((*p)->name, skip)) {
            missing++;
            strncat(out, (*p)->name, size - strlen(out) - 2);
            strncat(out, " ", size - strlen(out) - 1);
        }
    return missing;
}

static size_t missing_integrators(const char *skip_name, char *out, size_t size)
{
    size_t missing = 0;
    out[0] = '\0';
    for (const mb_stepper_type *const *s = mb_steppers(); *s; s++)
        if (!((*s)->flags & MB_STEPPER_NEGATIVE) && !integrator_reached((*s)->name, skip_name)) {
            missing++;
            strncat(out, (*s)->name, size - strlen(out) - 2);
            strncat(out, " ", size - strlen(out) - 1);
        }
    return missing;
}

TestSuite(case_library, .init = load_library, .fini = free_library);

Test(case_library, names_are_unique)
{
    for (size_t a = 0; a < n_cases; a++)
        for (size_t b = a + 1; b < n_cases; b++)
            cr_expect_str_neq(cases[a]->name, cases[b]->name, "%s and %s", cases[a]->path,
                              cases[b]->path);
}

Test(case_library, every_case_expects_something)
{
    for (size_t k = 0; k < n_cases; k++)
        cr_expect_gt(cases[k]->n_expect, 0, "%s has no [expect] entry", cases[k]->path);
}

Test(case_library, every_problem_is_reached)
{
    char missing[2048];
    cr_expect_eq(missing_problems(NULL, missing, sizeof missing), 0,
                 "problems without a case: %s", missing);
}

Test(case_library, every_integrator_is_reached)
{
    char missing[2048];
    cr_expect_eq(missing_integrators(NULL, missing, sizeof missing), 0,
                 "integrators without a case: %s", missing);
}

/* negative control: leave out every case of one problem; the check must name it */
Test(case_library, coverage_check_flags_a_removed_problem)
{
    const mb_case *only = NULL;
    size_t count = 0;
    for (size_t k = 0; k < n_cases; k++)
        if (strcmp(cases[k]->problem->name, "spring-pair") == 0) {
            only = cases[k];
            count++;
        }
    cr_assert_eq(count, 1, "expected one spring-pair case, found %zu", count);
    char missing[2048];
    cr_expect_eq(missing_problems(only, missing, sizeof missing), 1);
    cr_expect_str_eq(missing, "spring-pair ");
}

/* negative control: ignore one integrator's runs everywhere; the check must name it */
Test(case_library, coverage_check_flags_a_removed_integrator)
{
    char missing[2048];
    cr_expect_eq(missing_integrators("implicit-euler-newton", missing, sizeof missing), 1);
    cr_expect_str_eq(missing, "implicit-euler-newton ");
}
