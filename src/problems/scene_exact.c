/* scene_exact.c -- closed-form solutions written in a scene: [exact NAME] sections
 * (doc/scenes.md, "Closed forms").
 *   body = NAME; x, y, z, vx, vy, vz (required); qw, qx, qy, qz and wx, wy, wz (optional,
 *   together): expressions of t alone (libmatheval).
 * Without the orientation keys a body's orientation and angular velocity are its initial
 * ones at every t (a body that does not rotate).  The exact state is written over the
 * initial state of the scene, so static obstacles keep theirs; L = R I R^T w and q is
 * normalised.  mb_scene_exact_check verifies at load time that every body has one section
 * and that the closed form at t = 0 is the initial state. */
#include "mb_scene_build.h"
#include "mb_force_expr.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <matheval.h>
#include <string.h>

static const char *const exact_keys[] = { "body", "x", "y", "z", "vx", "vy", "vz", "qw", "qx",
                                          "qy", "qz", "wx", "wy", "wz", NULL };
static const char *const time_only[] = { "t", NULL };

/* value of the expression of key at time t (exists: checked by the caller) */
static int eval_key(const mb_scene_doc *d, mb_scene_section *s, const char *key, double t,
                    double *out)
{
    mb_scene_entry *e = mb_scene_get(s, key);
    void *ev = mb_expr_parse(e->value, time_only);
    if (ev == NULL)
        return mb_scene_fail(d, e->line, "%s: %s", key, mb_last_error());
    char *names[1] = { "t" };
    double vals[1] = { t };
    *out = evaluator_evaluate(ev, 1, names, vals);
    mb_expr_free(ev);
    if (!isfinite(*out))
        return mb_scene_fail(d, e->line, "%s = %s is not finite at t = %.17g", key, e->value, t);
    return MB_SUCCESS;
}

static int eval_keys(const mb_scene_doc *d, mb_scene_section *s, const char *const *keys, int n,
                     double t, double *out)
{
    int st = MB_SUCCESS;
    for (int k = 0; k < n && st == MB_SUCCESS; k++)
        st = eval_key(d, s, keys[k], t, &out[k]);
    return st;
}

/* the state of body i at t from its section s, written into n */
static int exact_body(const mb_scene_doc *d, mb_scene_section *s, size_t i, double t, mb_nodes *n)
{
    static const char *const lin[6] = { "x", "y", "z", "vx", "vy", "vz" };
    static const char *const rot[7] = { "qw", "qx", "qy", "qz", "wx", "wy", "wz" };
    double xv[6], qw[7];
    int st = mb_scene_check_keys(d, s, exact_keys), given = 0;
    for (int k = 0; k < 6 && st == MB_SUCCESS; k++)
        if (mb_scene_get(s, lin[k]) == NULL)
            st = mb_scene_fail(d, s->line, "[exact %s] needs '%s'", s->name, lin[k]);
    for (int k = 0; k < 7; k++)
        given += mb_scene_get(s, rot[k]) != NULL;
    if (st == MB_SUCCESS && given != 0 && given != 7)
        st = mb_scene_fail(d, s->line, "[exact %s]: give all of qw qx qy qz wx wy wz or none",
                           s->name);
    if (st || (st = eval_keys(d, s, lin, 6, t, xv)))
        return st;
    memcpy(&n->x[3 * i], xv, 3 * sizeof(double));
    memcpy(&n->v[3 * i], xv + 3, 3 * sizeof(double));
    if (given == 0)
        return MB_SUCCESS;
    if ((st = eval_keys(d, s, rot, 7, t, qw)) != MB_SUCCESS)
        return st;
    if (!(mb_q_norm(qw) > 0))
        return mb_scene_fail(d, s->line, "[exact %s]: zero quaternion at t = %.17g", s->name, t);
    mb_q_normalize(qw);
    double wb[3], Lb[3];
    memcpy(&n->q[4 * i], qw, 4 * sizeof(double));
    memcpy(&n->omega[3 * i], qw + 4, 3 * sizeof(double));
    mb_q_rotate_inv(wb, qw, qw + 4);
    for (int k = 0; k < 3; k++)
        Lb[k] = n->inertia[3 * i + k] * wb[k];
    mb_q_rotate(&n->angmom[3 * i], qw, Lb);
    return MB_SUCCESS;
}

/* write the closed form of every [exact] section at t into out (sys: the initial scene) */
static int exact_all(const mb_scene_doc *d, const mb_system *sys, double t, mb_nodes *out,
                     int *sections)
{
    int st = mb_nodes_copy(out, sys->nodes);
    *sections = 0;
    for (size_t k = 0; k < d->n && st == MB_SUCCESS; k++) {
        mb_scene_section *s = &d->sec[k];
        mb_scene_entry *b = strcmp(s->kind, "exact") == 0 ? mb_scene_get(s, "body") : NULL;
        size_t i;
        if (strcmp(s->kind, "exact") != 0)
            continue;
        (*sections)++;
        if (b == NULL)
            return mb_scene_fail(d, s->line, "[exact %s] needs 'body'", s->name);
        if ((st = mb_scene_body_ref(d, b, b->value, &i)) == MB_SUCCESS)
            st = exact_body(d, s, i, t, out);
    }
    return st;
}

/* the initial system of the scene and its sections */
static int open_scene(const char *path, mb_system **sys, mb_scene_doc **d)
{
    int st = mb_scene_build(path, sys);
    if (st != MB_SUCCESS)
        return st;
    if ((st = mb_scene_doc_read(path, d)) != MB_SUCCESS)
        mb_system_free(*sys);
    return st;
}

int mb_scene_exact(const char *path, double t, mb_nodes *out)
{
    mb_scene_doc *d;
    mb_system *sys;
    int sections, st = open_scene(path, &sys, &d);
    if (st != MB_SUCCESS)
        return st;
    st = exact_all(d, sys, t, out, &sections);
    if (st == MB_SUCCESS && sections == 0)
        st = mb_scene_fail(d, 1, "the scene has no [exact NAME] section (no closed form: use "
                           "reference = ode, mpfr or none)");
    mb_scene_doc_free(d);
    mb_system_free(sys);
    return st;
}

/* one [exact] per body; the closed form at t = 0 equals the initial state to 1e-12 of the
 * state's scale */
int mb_scene_exact_check(const char *path)
{
    mb_scene_doc *d;
    mb_system *sys;
    int sections, st = open_scene(path, &sys, &d);
    if (st != MB_SUCCESS)
        return st;
    size_t nb = 0;
    for (size_t k = 0; k < d->n; k++)
        nb += strcmp(d->sec[k].kind, "body") == 0;
    mb_nodes *out = mb_nodes_alloc(sys->nodes->n, 53);
    st = out ? exact_all(d, sys, 0.0, out, &sections) : MB_ENOMEM;
    if (st == MB_SUCCESS && sections == 0)
        st = mb_error_record(MB_EUNSUP, __FILE__, __LINE__, "the scene has no [exact NAME] "
                             "section (no closed form): use reference = ode, mpfr or none");
    for (size_t i = 0; i < nb && st == MB_SUCCESS; i++) {
        int count = 0, line = 0;
        for (size_t k = 0; k < d->n; k++) {
            mb_scene_entry *b = strcmp(d->sec[k].kind, "exact") == 0 ? mb_scene_get(&d->sec[k], "body") : NULL;
            if (b && mb_scene_body_index(d, b->value) == (long)i) {
                count++;
                line = d->sec[k].line;
            }
        }
        if (count != 1)
            st = mb_scene_fail(d, count ? line : 1, "body '%s' needs exactly one [exact] section "
                               "(has %d)", mb_scene_body_name(d, i), count);
        double scale = 0.0, diff = 0.0;
        for (int k = 0; k < 3 && st == MB_SUCCESS; k++) {
            const double *a[4] = { &sys->nodes->x[3 * i], &sys->nodes->v[3 * i], &sys->nodes->omega[3 * i], &sys->nodes->q[4 * i] };
            const double *b[4] = { &out->x[3 * i], &out->v[3 * i], &out->omega[3 * i], &out->q[4 * i] };
            for (int m = 0; m < 4; m++) {
                scale = fmax(scale, fabs(a[m][k]));
                diff = fmax(diff, fabs(a[m][k] - b[m][k]));
            }
        }
        diff = fmax(diff, fabs(sys->nodes->q[4 * i + 3] - out->q[4 * i + 3]));
        if (st == MB_SUCCESS && diff > 1e-12 * fmax(scale, 1.0))
            st = mb_scene_fail(d, line, "the closed form of body '%s' at t = 0 differs from its "
                               "initial state by %.3g", mb_scene_body_name(d, i), diff);
    }
    mb_nodes_free(out);
    mb_scene_doc_free(d);
    mb_system_free(sys);
    return st;
}
