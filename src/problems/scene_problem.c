/* scene_problem.c -- the `scene` problem: a system described entirely by the [body],
 * [force], [constraint], [obstacle] and [contact] sections of a case file (doc/scenes.md).
 * Its one parameter `file` names the file holding those sections; the case loader fills
 * it in with the case file itself.  A closed form may be written in [exact NAME] sections
 * (scene_exact.c): with them reference = analytic (or auto) compares with it; without them
 * the case loader refuses analytic and auto.  The ode reference integrates the force field of any
 * scene without constraints (as for every problem); the mpfr reference refuses scenes
 * whose forces have no MPFR instance (expression forces); scenes with constraints or
 * obstacles are run by the solfec scheme and have no reference (reference = none):
 * their cases check conserved quantities and the observed solver figures. */
#include "mb_problem.h"
#include "mb_scene_build.h"
#include "mb_solfec_problem.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>

static const mb_option_spec params[] = {
    { "file", MB_OPT_STRING, "", 0, 0, NULL,
      "file with the scene sections (a case file: set by the case loader); empty: the "
      "built-in example, a spinning ball thrown under gravity with its closed form" },
    MB_OPTION_END
};

int mb_scene_build(const char *path, mb_system **out)
{
    mb_scene_doc *d;
    int st = mb_scene_doc_read(path, &d);
    *out = NULL;
    if (st != MB_SUCCESS)
        return st;
    size_t n = 0, nb = 0;
    for (size_t k = 0; k < d->n; k++) {
        nb += strcmp(d->sec[k].kind, "body") == 0;
        n += strcmp(d->sec[k].kind, "body") == 0 || mb_scene_is_static(&d->sec[k]);
    }
    if (nb == 0) {
        st = mb_scene_fail(d, 1, "the scene has no [body NAME] section");
        mb_scene_doc_free(d);
        return st;
    }
    mb_system *sys = mb_system_alloc(n);
    mb_scene_body *bodies = calloc(n, sizeof *bodies);
    if (sys == NULL || bodies == NULL)
        st = MB_ENOMEM;
    for (size_t k = 0, i = 0; k < d->n && st == MB_SUCCESS; k++)
        if (strcmp(d->sec[k].kind, "body") == 0) {
            st = mb_scene_read_body(d, &d->sec[k], sys, i, &bodies[i]);
            i++;
        }
    for (size_t k = 0, i = nb; k < d->n && st == MB_SUCCESS; k++)   /* static bodies last */
        if (mb_scene_is_static(&d->sec[k])) {
            st = mb_scene_read_static(d, &d->sec[k], sys, i, &bodies[i]);
            i++;
        }
    if (st == MB_SUCCESS)
        st = mb_scene_read_forces(d, sys);
    if (st == MB_SUCCESS)
        st = mb_scene_read_constraints(d, sys, bodies);
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
    .summary = "a system described in the case file: [body], [force], [constraint], [obstacle], [contact]",
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
