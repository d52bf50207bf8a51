/* scene_problem.c -- the `scene` problem: a system described entirely by the [body],
 * [assembly], [space], [force], [constraint], [obstacle] and [contact] sections of a case
 * file (doc/scenes.md).
 * Its one parameter `file` names the file holding those sections; the case loader fills
 * it in with the case file itself.  A closed form may be written in [exact NAME] sections
 * (scene_exact.c): with them reference = analytic (or auto) compares with it; without them
 * the case loader refuses analytic and auto.  The ode reference integrates the force field of any
 * scene without constraints (as for every problem); the mpfr reference refuses scenes
 * whose forces have no MPFR instance (expression forces); scenes with constraints or
 * obstacles are run by the solfec scheme and have no reference (reference = none):
 * their cases check conserved quantities and the observed solver figures. */
#include "mb_problem.h"
#include "mb_scene_assembly.h"
#include "mb_solfec_problem.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "file", MB_OPT_STRING, "", 0, 0, NULL,
      "file with the scene sections (a case file: set by the case loader); empty: the "
      "built-in example, a spinning ball thrown under gravity with its closed form" },
    MB_OPTION_END
};

static size_t count_kind(const mb_scene_doc *d, const char *kind)
{
    size_t n = 0;
    for (size_t k = 0; k < d->n; k++)
        n += strcmp(d->sec[k].kind, kind) == 0;
    return n;
}

/* Number the nodes: [body] sections in file order, then the spheres of every [assembly]
 * in file order, then the static obstacles; each section's first node and count. */
static int number_nodes(const mb_scene_doc *d, mb_assembly_spec *specs, size_t *n, size_t *nb)
{
    size_t i = 0, a = 0;
    *nb = 0;
    for (int pass = 0; pass < 3; pass++)
        for (size_t k = 0; k < d->n; k++) {
            mb_scene_section *s = &d->sec[k];
            int body = strcmp(s->kind, "body") == 0, assembly = strcmp(s->kind, "assembly") == 0;
            if (!(pass == 0 ? body : pass == 1 ? assembly : mb_scene_is_static(s)))
                continue;
            s->first = i;
            s->nodes = 1;
            if (assembly && count_kind(d, "exact") > 0)
                return mb_scene_fail(d, s->line, "[assembly %s]: closed forms ([exact]) are "
                                     "written for single bodies; a scene with an assembly has "
                                     "none", s->name);
            if (assembly) {
                int st = mb_scene_read_assembly(d, s, &specs[a]);
                if (st != MB_SUCCESS)
                    return st;
                s->nodes = mb_assembly_count(&specs[a++]);
            }
            *nb += body;
            i += s->nodes;
        }
    if (i == 0)
        return mb_scene_fail(d, 1, "the scene has no [body NAME] or [assembly NAME] section");
    *n = i;
    return MB_SUCCESS;
}

/* every body, assembly and static obstacle into its nodes */
static int place_nodes(const mb_scene_doc *d, const mb_assembly_spec *specs, mb_system *sys,
                       mb_scene_body *bodies)
{
    int st = MB_SUCCESS;
    size_t a = 0;
    for (size_t k = 0; k < d->n && st == MB_SUCCESS; k++) {
        mb_scene_section *s = &d->sec[k];
        if (strcmp(s->kind, "body") == 0)
            st = mb_scene_read_body(d, s, sys, s->first, &bodies[s->first]);
        else if (strcmp(s->kind, "assembly") == 0)
            st = mb_scene_place_assembly(d, s, &specs[a++], sys, bodies);
        else if (mb_scene_is_static(s))
            st = mb_scene_read_static(d, s, sys, s->first, &bodies[s->first]);
    }
    return st;
}

int mb_scene_build(const char *path, mb_system **out)
{
    mb_scene_doc *d;
    int st = mb_scene_doc_read(path, &d);
    *out = NULL;
    if (st != MB_SUCCESS)
        return st;
    size_t n = 0, nb = 0;
    mb_assembly_spec *specs = calloc(count_kind(d, "assembly") + 1, sizeof *specs);
    st = specs ? number_nodes(d, specs, &n, &nb) : MB_ENOMEM;
    mb_system *sys = st == MB_SUCCESS ? mb_system_alloc(n) : NULL;
    mb_scene_body *bodies = st == MB_SUCCESS ? calloc(n, sizeof *bodies) : NULL;
    if (st == MB_SUCCESS && (sys == NULL || bodies == NULL))
        st = MB_ENOMEM;
    mb_scene_space space;
    if (st == MB_SUCCESS)
        st = place_nodes(d, specs, sys, bodies);
    if (st == MB_SUCCESS)
        st = mb_scene_read_space(d, sys, &space);
    for (size_t a = 0; st == MB_SUCCESS && a < count_kind(d, "assembly"); a++)
        space.radius_bound = fmax(space.radius_bound, specs[a].rmax);
    if (st == MB_SUCCESS)
        st = mb_scene_read_forces(d, sys);
    if (st == MB_SUCCESS)
        st = mb_scene_read_constraints(d, sys, bodies, &space);
    free(specs);
    free(bodies);
    mb_scene_doc_free(d);
    if (st != MB_SUCCESS) {
        mb_system_free(sys);
        return st;
    }
    *out = sys;
    return MB_SUCCESS;
}

static int setup(const mb_options *p, mb_system **sys)
{
    return mb_scene_build(mb_options_string(p, "file"), sys);
}

static int exact(const mb_options *p, double t, mb_nodes *out)
{
    return mb_scene_exact(mb_options_string(p, "file"), t, out);
}

/* observer: the solver figures of a constrained scene (nothing otherwise) */
typedef struct scene_obs { const mb_system *sys; } scene_obs;

static int observe_begin(void **ctx, const mb_options *params, const mb_system *sys)
{
    (void)params;
    scene_obs *o = malloc(sizeof *o);
    if (o == NULL)
        return MB_ENOMEM;
    o->sys = sys;
    *ctx = o;
    return MB_SUCCESS;
}

static int observe_step(void *ctx, const mb_system *sys, const mb_nodes *on_step)
{
    (void)on_step;
    ((scene_obs *)ctx)->sys = sys;
    return MB_SUCCESS;
}

static int observe_end(void *ctx, mb_observation *out)
{
    scene_obs *o = ctx;
    out->count = 0;
    mb_solfec_observe_solver(o->sys, out);
    free(o);
    return MB_SUCCESS;
}

const mb_problem_type mb_problem_scene = {
    .name = "scene",
    .summary = "a system described in the case file: [body], [assembly], [space], [force], [constraint], "
               "[obstacle], [contact]",
    .params = params,
    .setup = setup,
    .exact = exact,
    .exact_doc = "the [exact NAME] sections of the scene: x, y, z, vx, vy, vz (and qw .. qz, "
                 "wx .. wz) as expressions of t",
    .flags = 0,
    .observe_begin = observe_begin,
    .observe_step = observe_step,
    .observe_end = observe_end,
    .not_a_scene = "it is the scene path itself: its system is whatever scene it reads",
};
