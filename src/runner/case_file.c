/* case_file.c -- loading a case file (DESIGN 7, doc/cases.md): the order of the load,
 * the sections a case may hold, [case] and [problem].
 *
 * The one INI reader (mb_ini.h) reads the file -- its policy for BOM, NUL bytes, line ends,
 * long lines, continuation lines, duplicate sections and keys, and the true line of every
 * entry -- so this file and the others of case_load.h only interpret entries.  They are
 * interpreted after the whole file is read, so [expect] may come before [run]. */
#include "case_load.h"
#include "mb_case_scene.h"
#include "mb_status.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const section_names[] = { "case", "problem", "run", "expect", "check", NULL };
static const char *const case_keys[] = { "name", "problem", "t_end", "reference", "description",
                                         NULL };

/* Every section is one of section_names or a scene section (read by the scene problem);
 * the first unknown one is refused with a hint. */
static int check_sections(case_loader *P)
{
    const mb_ini_doc *d = P->doc;
    for (size_t s = 0; s < d->n; s++) {
        const char *name = d->sec[s].name;
        int line = d->sec[s].line, known = 0;
        for (int k = 0; section_names[k]; k++)
            known |= strcmp(section_names[k], name) == 0;
        if (known)
            continue;
        if (mb_case_scene_section(name)) {
            if (P->scene_line == 0)
                P->scene_line = line;
            continue;
        }
        char hint[200];
        if (mb_suggest(name, section_names) == NULL && mb_case_scene_hint(name, hint, sizeof hint))
            return case_fail(P, line, "unknown section '%s' (did you mean '%s'?)", name, hint);
        return case_unknown_name(P, line, "section", name, "", section_names);
    }
    return MB_SUCCESS;
}

static int valid_case_name(const char *s)
{
    if (*s == '\0' || *s == '.')
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
            return 0;
    return 1;
}

/* The line of the [problem] entry a library message names, else the section line. */
static int problem_error_line(const case_loader *P)
{
    const char *msg = mb_last_error();
    const mb_ini_section *s = mb_ini_section_find(P->doc, "problem");
    for (size_t k = 0; s && k < s->n; k++) {
        const mb_ini_entry *e = &s->items[k];
        char a[160], b[160];
        snprintf(a, sizeof a, "'%s'", e->key);
        snprintf(b, sizeof b, " %s = ", e->key);
        if (strstr(msg, a) || strstr(msg, b))
            return e->line;
    }
    return case_section_line(P, "problem");
}

static int load_problem(case_loader *P, const mb_ini_entry *problem)
{
    mb_case *c = P->c;
    const mb_problem_type *pt = mb_problem_find(problem->value);
    if (pt == NULL) {
        const char *names[128];
        size_t n = 0;
        for (const mb_problem_type *const *p = mb_problems(); *p && n < 127; p++)
            names[n++] = (*p)->name;
        names[n] = NULL;
        return case_unknown_name(P, problem->line, "problem", problem->value, "", names);
    }
    mb_options *given = mb_options_new();
    if (given == NULL)
        return case_fail(P, problem->line, "out of memory");
    const mb_ini_section *s = mb_ini_section_find(P->doc, "problem");
    for (size_t k = 0; s && k < s->n; k++)
        if (mb_options_set(given, s->items[k].key, s->items[k].value) != MB_SUCCESS) {
            mb_options_free(given);
            return case_fail_lib(P, s->items[k].line);
        }
    int st = mb_case_scene_file(pt, P->path, P->scene_line, given);
    if (st != MB_SUCCESS) {
        mb_options_free(given);
        return case_fail(P, P->scene_line ? P->scene_line : problem->line, "%s", mb_last_error());
    }
    st = mb_problem_prepare(pt->name, given, &c->problem, &c->params);
    mb_options_free(given);
    if (st != MB_SUCCESS)
        return case_fail_lib(P, problem_error_line(P));
    if (c->problem->nodes) {    /* its size from its parameters: nothing built yet */
        P->nodes = c->nodes = c->problem->nodes(c->params);
        c->links = c->problem->links ? c->problem->links(c->params) : 0;
        return MB_SUCCESS;
    }
    /* build it once: parameter combinations the setup rejects are input errors too */
    mb_system *sys = NULL;
    st = c->problem->setup(c->params, &sys);
    if (st != MB_SUCCESS && mb_case_scene_located(P->path, mb_last_error()))
        return case_fail_located(P, mb_last_error());
    if (st != MB_SUCCESS)
        return case_fail(P, case_section_line(P, "problem"), "problem '%s': %s",
                         pt->name, mb_last_error());
    P->nodes = sys->nodes->n;
    c->nodes = P->nodes;
    c->links = mb_forces_links(sys->forces);
    for (size_t m = 0; m < sys->forces->count && !P->no_mpfr_force; m++)
        if (sys->forces->items[m].type->eval_mpfr == NULL)
            P->no_mpfr_force = sys->forces->items[m].type->name;   /* static: the type's */
    mb_system_free(sys);
    return MB_SUCCESS;
}

int case_refuse_mpfr(case_loader *P, int line, const char *what, const char *instead)
{
    if (P->no_mpfr_force == NULL)
        return MB_SUCCESS;
    char why[300];
    snprintf(why, sizeof why, "force model '%s' has no MPFR instance: %s cannot be computed; "
             "use %s", P->no_mpfr_force, what, instead);
    if (mb_case_scene_force_refused(P->c->problem, P->c->params, P->no_mpfr_force, why)
        == MB_EINVAL)
        return case_fail_located(P, mb_last_error());
    return case_fail(P, line, "%s", why);
}

static int load_case_section(case_loader *P)
{
    mb_case *c = P->c;
    const mb_ini_entry *name, *problem, *t_end;
    if (mb_ini_section_find(P->doc, "case") == NULL)
        return case_fail(P, 1, "missing section [case]");
    if (case_check_keys(P, "case", case_keys) || case_require(P, "case", "name", &name)
        || case_require(P, "case", "problem", &problem) || case_require(P, "case", "t_end", &t_end))
        return P->error;
    if (!valid_case_name(name->value))
        return case_fail(P, name->line, "name = '%s': use letters, digits, '-', '_' and '.'",
                         name->value);
    c->name = strdup(name->value);
    const mb_ini_entry *d = case_entry(P, "case", "description");
    c->description = strdup(d ? d->value : "");
    if (case_parse_positive(P, t_end, "t_end", t_end->value, &c->t_end))
        return P->error;
    const mb_ini_entry *ref = case_entry(P, "case", "reference");
    c->has_reference = !(ref && strcmp(ref->value, "none") == 0);
    if (mb_reference_parse(ref && c->has_reference ? ref->value : "auto", &c->reference)
        != MB_SUCCESS)
        return case_fail_lib(P, ref->line);
    if (load_problem(P, problem))
        return P->error;
    if (c->reference.kind == MB_REF_MPFR
        && case_refuse_mpfr(P, ref->line, "reference = mpfr", "reference = ode"))
        return P->error;
    if (c->reference.kind == MB_REF_ANALYTIC && c->problem->exact == NULL)
        return case_fail(P, ref->line, "reference = analytic: problem '%s' has no closed form "
                         "(use ode, mpfr or auto)", c->problem->name);
    if (c->has_reference
        && mb_case_scene_reference(c->problem, c->params, c->reference.kind) != MB_SUCCESS)
        return mb_case_scene_located(P->path, mb_last_error())
             ? case_fail_located(P, mb_last_error())
             : case_fail_lib(P, ref ? ref->line : problem->line);
    return MB_SUCCESS;
}

int mb_case_load(const char *path, mb_case **out)
{
    *out = NULL;
    case_loader P;
    memset(&P, 0, sizeof P);
    P.path = path;
    P.c = calloc(1, sizeof *P.c);
    if (P.c == NULL || (P.c->path = strdup(path)) == NULL) {
        free(P.c);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    P.c->damping_node = -1;
    int st = mb_ini_read(path, MB_INPUT_CASE, &P.doc);
    if (st == MB_SUCCESS && !check_sections(&P) && !load_case_section(&P)
        && !case_load_run(&P))
        case_load_expectations(&P);
    mb_ini_free(P.doc);
    if (P.error)
        st = mb_error_record(P.error, __FILE__, __LINE__, "%s", P.message);
    if (st != MB_SUCCESS) {
        mb_case_free(P.c);
        return st;
    }
    *out = P.c;
    return MB_SUCCESS;
}

void mb_case_free(mb_case *c)
{
    if (c == NULL)
        return;
    free(c->path);
    free(c->name);
    free(c->description);
    mb_options_free(c->params);
    for (size_t k = 0; c->integrators && k < c->n_integrators; k++)
        free(c->integrators[k]);
    free(c->integrators);
    free(c->dt);
    free(c->steps);
    free(c->probe_t);
    for (size_t k = 0; k < c->n_expect; k++) {
        free(c->expect[k].integrator);
        free(c->expect[k].metric);
        free(c->expect[k].text);
    }
    free(c->expect);
    for (size_t k = 0; k < c->n_check; k++) {
        free(c->check[k].integrator);
        free(c->check[k].metric);
    }
    free(c->check);
    free(c);
}

const char *mb_case_precision_label(const mb_case *c, char *buf, size_t size)
{
    if (c->precision_bits > 0)
        snprintf(buf, size, "mpfr:%ld", c->precision_bits);
    else
        snprintf(buf, size, "double");
    return buf;
}
