/* case_run.c -- the [run] section of a case file (DESIGN 7, doc/cases.md): plug-ins,
 * integrators, time steps (a list or a geometric range, each dividing t_end), precision,
 * sampling, the damping signal, error growth, the time limit of outside programs, mass
 * properties and probe times. */
#include "case_load.h"
#include "mb_external.h"
#include "mb_input.h"
#include "mb_plugin.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const run_keys[] = { "plugins", "integrators", "dt", "dt_range", "precision",
                                        "sample_every", "damping_signal", "error_growth",
                                        "timeout", "mass_properties", "probe", "statistics_from",
                                        "reversibility", "outside_rows", NULL };

/* An outside program: its options are checked against its descriptor when the descriptor
 * is found; a missing descriptor fails the runs, not the case file (doc/external.md). */
static int check_external(case_loader *P, const mb_ini_entry *e, const char *full)
{
    mb_external_spec x;
    mb_adapter *a = NULL;
    char dir[4096];
    const char *slash = strrchr(P->path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - P->path) : 1, slash ? P->path : ".");
    if (P->c->precision_bits > 0)
        return case_fail(P, e->line, "integrator '%s': an outside program has no MPFR twin", full);
    if (mb_external_spec_parse(full, &x) != MB_SUCCESS)
        return case_fail_lib(P, e->line);
    char root[3800];
    if (mb_external_private_root(root, sizeof root) != MB_SUCCESS)
        return case_fail_lib(P, e->line);
    int s = mb_adapter_find(x.name, dir, &a);
    if (s == MB_SUCCESS)
        s = mb_adapter_check_options(a, &x);
    mb_adapter_free(a);
    if (s != MB_SUCCESS && s != MB_ENOTFOUND)
        return case_fail_lib(P, e->line);
    mb_clear_error();
    return MB_SUCCESS;
}

static int add_integrator(case_loader *P, const mb_ini_entry *e, const char *spec)
{
    mb_case *c = P->c;
    char full[520], name[128];
    if (mb_case_canonical_spec(spec, full, sizeof full) != MB_SUCCESS)
        return case_fail_lib(P, e->line);
    if (mb_external_is_spec(full)) {
        for (size_t k = 0; k < c->n_integrators; k++)
            if (strcmp(c->integrators[k], full) == 0)
                return case_fail(P, e->line, "integrator '%s' is listed twice", full);
        if (check_external(P, e, full) != MB_SUCCESS)
            return P->error;
        if ((c->integrators[c->n_integrators] = strdup(full)) == NULL)
            return case_fail(P, e->line, "out of memory");
        c->n_integrators++;
        return MB_SUCCESS;
    }
    snprintf(name, sizeof name, "%.*s", (int)strcspn(full, "["), full);
    const mb_stepper_type *type = mb_stepper_find(name);
    for (size_t k = 0; k < c->n_integrators; k++)
        if (strcmp(c->integrators[k], full) == 0)
            return case_fail(P, e->line, "integrator '%s' is listed twice", full);
    if (c->precision_bits > 0 && type->alloc_mpfr == NULL) {
        const mb_ini_entry *p = case_entry(P, "run", "precision");
        return case_fail(P, p ? p->line : e->line, "precision = mpfr:%ld: integrator '%s' has no "
                         "MPFR twin", c->precision_bits, type->name);
    }
    c->integrators[c->n_integrators] = strdup(full);
    if (c->integrators[c->n_integrators] == NULL)
        return case_fail(P, e->line, "out of memory");
    c->n_integrators++;
    return MB_SUCCESS;
}

/* plugins = FILE.so, ...: shared objects of scheme types (mb_plugin.h), loaded before the
 * integrators are read; a relative path is taken from the case file's directory. */
static int load_plugin(case_loader *P, const mb_ini_entry *e, const char *file)
{
    char path[4096];
    const char *slash = strrchr(P->path, '/');
    if (file[0] == '/')
        snprintf(path, sizeof path, "%s", file);
    else if (slash)
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - P->path), P->path, file);
    else
        snprintf(path, sizeof path, "./%s", file);
    if (mb_plugin_load(path) != MB_SUCCESS)
        return case_fail_lib(P, e->line);
    return MB_SUCCESS;
}

static int load_plugins(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "plugins");
    if (e == NULL)
        return MB_SUCCESS;
    char *copy = strdup(e->value), *items[16];
    int n = 0;
    if (copy == NULL)
        return case_fail(P, e->line, "out of memory");
    if (case_split_list(P, e, copy, items, 16, &n) == MB_SUCCESS)
        for (int k = 0; k < n && !P->error; k++)
            load_plugin(P, e, items[k]);
    free(copy);
    return P->error;
}

static int load_integrators(case_loader *P)
{
    const mb_ini_entry *e;
    if (case_require(P, "run", "integrators", &e))
        return P->error;
    char *copy = strdup(e->value), *items[64];
    int n = 0;
    if (copy == NULL)
        return case_fail(P, e->line, "out of memory");
    P->c->integrators = calloc(64, sizeof(char *));
    if (P->c->integrators == NULL || case_split_list(P, e, copy, items, 64, &n) == MB_SUCCESS)
        for (int k = 0; k < n && !P->error; k++)
            add_integrator(P, e, items[k]);
    free(copy);
    return P->error;
}

/* Steps N = round(t_end / dt); dt must divide t_end to within rounding (1e-9 relative
 * of the quotient), so the run ends at t_end. */
static int add_dt(case_loader *P, const mb_ini_entry *e, double dt, int snap)
{
    mb_case *c = P->c;
    double q = c->t_end / dt, N = nearbyint(q);
    if (N < 1.0)
        return case_fail(P, e->line, "dt = %.17g is larger than t_end = %.17g", dt, c->t_end);
    if (N > 1e10)
        return case_fail(P, e->line, "dt = %.17g needs %.3g steps to reach t_end (at most 1e10)",
                         dt, N);
    if (snap)
        dt = c->t_end / N;
    else if (fabs(q - N) > 1e-9 * N)
        return case_fail(P, e->line, "dt = %.17g does not divide t_end = %.17g (t_end/dt = %.17g); "
                         "use t_end/N", dt, c->t_end, q);
    for (size_t k = 0; k < c->n_dt; k++)
        if (c->steps[k] == (long)N)
            return case_fail(P, e->line, "dt = %.17g repeats a time step of the list (%ld steps)",
                             dt, (long)N);
    if (c->n_dt == CASE_MAX_DT)
        return case_fail(P, e->line, "more than %d time steps", CASE_MAX_DT);
    c->dt[c->n_dt] = dt;
    c->steps[c->n_dt] = (long)N;
    c->n_dt++;
    return MB_SUCCESS;
}

static int load_dt_list(case_loader *P, const mb_ini_entry *e)
{
    char *copy = strdup(e->value), *items[CASE_MAX_DT + 1];
    int n = 0;
    if (copy == NULL)
        return case_fail(P, e->line, "out of memory");
    if (case_split_list(P, e, copy, items, CASE_MAX_DT, &n) == MB_SUCCESS)
        for (int k = 0; k < n && !P->error; k++) {
            double dt;
            if (case_parse_positive(P, e, "dt", items[k], &dt) == MB_SUCCESS)
                add_dt(P, e, dt, 0);
        }
    free(copy);
    return P->error;
}

/* dt_range = a : b : n -> n values a (b/a)^(k/(n-1)), each snapped to t_end / N */
static int load_dt_range(case_loader *P, const mb_ini_entry *e)
{
    char *copy = strdup(e->value);
    if (copy == NULL)
        return case_fail(P, e->line, "out of memory");
    char *parts[3] = { copy, NULL, NULL };
    int count = 1;
    for (char *p = copy; *p; p++)
        if (*p == ':') {
            *p = '\0';
            if (count < 3)
                parts[count] = p + 1;
            count++;
        }
    double a, b;
    long n;
    if (count != 3)
        case_fail(P, e->line, "dt_range = '%s': write FIRST : LAST : COUNT", e->value);
    else if (case_parse_positive(P, e, "dt_range FIRST", mb_ini_trim(parts[0]), &a) == MB_SUCCESS
             && case_parse_positive(P, e, "dt_range LAST", mb_ini_trim(parts[1]), &b) == MB_SUCCESS
             && case_parse_long(P, e, "dt_range COUNT", mb_ini_trim(parts[2]), 2, CASE_MAX_DT,
                                &n) == MB_SUCCESS)
        for (long k = 0; k < n && !P->error; k++)
            add_dt(P, e, a * pow(b / a, (double)k / (double)(n - 1)), 1);
    free(copy);
    return P->error;
}

static int load_precision(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "precision");
    if (e == NULL || strcmp(e->value, "double") == 0)
        return MB_SUCCESS;
    if (mb_precision_parse(e->value, &P->c->precision_bits) != MB_SUCCESS)
        return case_fail_lib(P, e->line);
    if (P->c->precision_bits > 0
        && case_refuse_mpfr(P, e->line, "the MPFR twin of precision = mpfr:BITS",
                            "precision = double"))
        return P->error;
    return MB_SUCCESS;
}

static int load_damping_signal(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "damping_signal");
    P->c->damping_node = -1;
    if (e == NULL)
        return MB_SUCCESS;
    char *end;
    long node = strtol(e->value, &end, 10);
    if (end == e->value || node < 0 || node > 1000000 || *end != ':' || !end[1] || end[2]
        || !strchr("xyz", end[1]))
        return case_fail(P, e->line, "damping_signal = '%s': write NODE:AXIS, e.g. 0:x", e->value);
    if ((size_t)node >= P->nodes)
        return case_fail(P, e->line, "damping_signal: node %ld does not exist (problem '%s' "
                         "has %zu node%s)", node, P->c->problem->name, P->nodes,
                         P->nodes == 1 ? "" : "s");
    P->c->damping_node = (int)node;
    P->c->damping_axis = end[1] - 'x';
    return MB_SUCCESS;
}

/* error_growth = on | off: the growth exponent of the position error needs the
 * reference at every sample (error_growth.c) */
static int load_error_growth(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "error_growth");
    P->c->error_growth = 0;
    if (e == NULL || strcmp(e->value, "off") == 0)
        return MB_SUCCESS;
    if (strcmp(e->value, "on") != 0)
        return case_fail(P, e->line, "error_growth = '%s': write on or off", e->value);
    if (!P->c->has_reference)
        return case_fail(P, e->line, "error_growth = on needs a reference (the case has "
                         "reference = none)");
    P->c->error_growth = 1;
    return MB_SUCCESS;
}

/* mass_properties = on | off: the mass.* metrics of the built bodies (mass_properties.c) */
static int load_mass_properties(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "mass_properties");
    P->c->mass_properties = 0;
    if (e == NULL || strcmp(e->value, "off") == 0)
        return MB_SUCCESS;
    if (strcmp(e->value, "on") != 0)
        return case_fail(P, e->line, "mass_properties = '%s': write on or off", e->value);
    P->c->mass_properties = 1;
    return MB_SUCCESS;
}

/* One probe time: a number in [0, t_end] on the step grid of every dt (its run keeps the
 * on-step state of that step; no state between steps is made up). */
static int check_probe_time(case_loader *P, const mb_ini_entry *e, const char *text, double t)
{
    const mb_case *c = P->c;
    for (size_t j = 0; j < c->n_dt; j++) {
        double n = t / c->dt[j], whole = nearbyint(n);
        if (fabs(n - whole) > 1e-9 * fmax(1.0, n))
            return case_fail(P, e->line, "probe = %s: not a step time of dt = %.17g (%.6g steps):"
                             " probes are taken at step times only, so each must be a whole "
                             "number of every dt", text, c->dt[j], n);
        if (whole > (double)c->steps[j])
            return case_fail(P, e->line, "probe = %s: after t_end = %.17g", text, c->t_end);
    }
    return MB_SUCCESS;
}

/* probe = T1, T2, ...: increasing times at which every run keeps its state (probes.csv) */
static int load_probes(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "probe");
    P->c->n_probes = 0;
    if (e == NULL)
        return MB_SUCCESS;
    char *copy = strdup(e->value), *items[CASE_MAX_PROBES + 1];
    int n = 0;
    P->c->probe_t = calloc(CASE_MAX_PROBES, sizeof *P->c->probe_t);
    if (copy == NULL || P->c->probe_t == NULL) {
        free(copy);
        return case_fail(P, e->line, "out of memory");
    }
    if (case_split_list(P, e, copy, items, CASE_MAX_PROBES, &n) == MB_SUCCESS)
        for (int k = 0; k < n && !P->error; k++) {
            char *end;
            double t = strtod(items[k], &end);
            if (end == items[k] || *end != '\0' || !mb_strtod_in_range(t) || !(t >= 0.0)
                || !isfinite(t))
                case_fail(P, e->line, "probe = %s: give times >= 0 (a comma list)", items[k]);
            else if (k > 0 && !(t > P->c->probe_t[k - 1]))
                case_fail(P, e->line, "probe = %s: the times must increase (after %.17g)",
                          items[k], P->c->probe_t[k - 1]);
            else if (check_probe_time(P, e, items[k], t) == MB_SUCCESS)
                P->c->probe_t[P->c->n_probes++] = t;
        }
    free(copy);
    return P->error;
}

/* statistics_from = T: the statistical metrics over the samples with t >= T
 * (doc/statistics.md); 0 <= T < t_end */
static int load_statistics(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "statistics_from");
    P->c->statistics = 0;
    P->c->statistics_from = 0.0;
    if (e == NULL)
        return MB_SUCCESS;
    char *end;
    double t = strtod(e->value, &end);
    if (end == e->value || *end != '\0' || !(t >= 0.0) || !(t < P->c->t_end))
        return case_fail(P, e->line, "statistics_from = '%s': give a time in [0, t_end = %g)",
                         e->value, P->c->t_end);
    P->c->statistics = 1;
    P->c->statistics_from = t;
    return MB_SUCCESS;
}

/* reversibility = on | off: each run also goes forward, reverses its velocities and comes
 * back (doc/statistics.md) */
static int load_reversibility(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "reversibility");
    P->c->reversibility = 0;
    if (e == NULL || strcmp(e->value, "off") == 0)
        return MB_SUCCESS;
    if (strcmp(e->value, "on") != 0)
        return case_fail(P, e->line, "reversibility = '%s': write on or off", e->value);
    P->c->reversibility = 1;
    return MB_SUCCESS;
}

/* outside_rows = steps | samples: the rows an outside program returns (doc/cases.md).
 * steps (default): every step when work integrals or an observer need it, else every
 * sample_every steps; samples: every sample_every steps whatever the case measures -- the
 * work integrals (dissipated, external) are then not measured, and an observer must need
 * the sampled states only (MB_PROBLEM_SAMPLED_OBSERVER). */
static int load_outside_rows(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "outside_rows");
    P->c->outside_samples = 0;
    if (e == NULL || strcmp(e->value, "steps") == 0)
        return MB_SUCCESS;
    if (strcmp(e->value, "samples") != 0)
        return case_fail(P, e->line, "outside_rows = '%s': write steps or samples", e->value);
    const mb_problem_type *pt = P->c->problem;
    if (pt->observe_step && !(pt->flags & MB_PROBLEM_SAMPLED_OBSERVER))
        return case_fail(P, e->line, "outside_rows = samples: the observer of problem %s needs "
                         "every step, not the samples alone", pt->name);
    P->c->outside_samples = 1;
    return MB_SUCCESS;
}

/* timeout = SECONDS: time limit of each run of an outside program (doc/external.md) */
static int load_timeout(case_loader *P)
{
    const mb_ini_entry *e = case_entry(P, "run", "timeout");
    P->c->external_timeout = 0.0;
    if (e == NULL)
        return MB_SUCCESS;
    char *end;
    double t = strtod(e->value, &end);
    if (end == e->value || *end != '\0' || !(t > 0.0) || !isfinite(t))
        return case_fail(P, e->line, "timeout = '%s': give a number of seconds > 0", e->value);
    P->c->external_timeout = t;
    return MB_SUCCESS;
}

int case_load_run(case_loader *P)
{
    mb_case *c = P->c;
    if (mb_ini_section_find(P->doc, "run") == NULL)
        return case_fail(P, 1, "missing section [run]");
    if (case_check_keys(P, "run", run_keys) || load_precision(P) || load_plugins(P)
        || load_integrators(P))
        return P->error;
    const mb_ini_entry *dt = case_entry(P, "run", "dt"), *range = case_entry(P, "run", "dt_range");
    if (dt && range)
        return case_fail(P, range->line, "give either dt or dt_range, not both (dt at line %d)",
                         dt->line);
    if (!dt && !range)
        return case_fail(P, case_section_line(P, "run"),
                         "[run] lacks the key 'dt' (or 'dt_range')");
    c->dt = calloc(CASE_MAX_DT, sizeof *c->dt);
    c->steps = calloc(CASE_MAX_DT, sizeof *c->steps);
    if (!c->dt || !c->steps)
        return case_fail(P, 1, "out of memory");
    if (dt ? load_dt_list(P, dt) : load_dt_range(P, range))
        return P->error;
    const mb_ini_entry *se = case_entry(P, "run", "sample_every");
    c->sample_every = 1;
    if (se && case_parse_long(P, se, "sample_every", se->value, 1, 1000000000L, &c->sample_every))
        return P->error;
    if (load_error_growth(P) || load_timeout(P) || load_mass_properties(P) || load_probes(P)
        || load_statistics(P) || load_reversibility(P) || load_outside_rows(P))
        return P->error;
    return load_damping_signal(P);
}
