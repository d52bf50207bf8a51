/* scene.c -- the constraint field (shapes, planes, bilateral constraints) of a system
 * integrated by the solfec scheme; see mb_scene.h. */
#include "mb_force_models.h"
#include "mb_json.h"
#include "mb_scene.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int scene_eval(const void *params, mb_nodes *s, double t)
{
    (void)params; (void)s; (void)t;
    MB_ERROR(MB_EUNSUP, "this problem has constraints or contacts, enforced only by the "
                        "'solfec' scheme (seed 003); other schemes cannot run it");
}

static void scene_free(void *params)
{
    mb_scene *s = params;
    if (s == NULL)
        return;
    free(s->shape);
    free(s->extent);
    free(s->planes);
    free(s->bilateral);
    free(s->material);
    free(s->pair_mu);
    free(s->pair_e);
    free(s);
}

/* run.json's description (doc/external.md, section 3): the unilateral contacts of a scene
 * without bilateral constraints -- shapes, planes, Signorini normal law, Newton impact law
 * with its restitution, Coulomb friction, per pair of materials when a table is set.  A
 * scene with bilateral constraints (links, pins) stays opaque: an adapter must decline. */
static int describe_shapes(const mb_scene *sc, json_t *model)
{
    json_t *shapes = json_array();
    if (shapes == NULL || json_object_set_new(model, "shapes", shapes) != 0)
        return MB_ENOMEM;
    for (size_t b = 0; b < sc->nbodies; b++) {
        if (sc->shape[b] == MB_SHAPE_NONE)
            continue;
        json_t *o = json_object();
        int sphere = sc->shape[b] == MB_SHAPE_SPHERE;
        if (o == NULL || json_array_append_new(shapes, o) != 0
            || mb_json_set_int(o, "node", (long)b)
            || mb_json_set_str(o, "shape", sphere ? "sphere" : "box")
            || (sphere ? mb_json_set_num(o, "radius", sc->extent[3 * b])
                       : mb_json_set_vec(o, "half_extents", &sc->extent[3 * b], 3))
            || mb_json_set_int(o, "material", sc->material[b]))
            return MB_ENOMEM;
    }
    return MB_SUCCESS;
}

static int describe_planes(const mb_scene *sc, json_t *model)
{
    json_t *planes = json_array();
    if (planes == NULL || json_object_set_new(model, "planes", planes) != 0)
        return MB_ENOMEM;
    for (size_t k = 0; k < sc->nplanes; k++) {
        json_t *o = json_object();
        if (o == NULL || json_array_append_new(planes, o) != 0
            || mb_json_set_vec(o, "point", sc->planes[k].point, 3)
            || mb_json_set_vec(o, "normal", sc->planes[k].normal, 3)
            || mb_json_set_int(o, "material", sc->planes[k].material))
            return MB_ENOMEM;
    }
    return MB_SUCCESS;
}

/* "pair_laws": [{"materials": [a, b], "mu", "restitution"}] for a <= b when the scene has a
 * table of materials (then the model has no "mu" and "restitution" of its own), else [] */
static int describe_pair_laws(const mb_scene *sc, json_t *model)
{
    json_t *laws = json_array();
    if (laws == NULL || json_object_set_new(model, "pair_laws", laws) != 0)
        return MB_ENOMEM;
    for (size_t a = 0; a < sc->nmaterials; a++)
        for (size_t b = a; b < sc->nmaterials; b++) {
            double mu, e;
            mb_scene_pair_law(sc, (int)a, (int)b, &mu, &e);
            json_t *o = json_object(), *ab = json_pack("[ii]", (int)a, (int)b);
            if (o == NULL || json_array_append_new(laws, o) != 0
                || json_object_set_new(o, "materials", ab) != 0 || mb_json_set_num(o, "mu", mu)
                || mb_json_set_num(o, "restitution", e))
                return MB_ENOMEM;
        }
    return MB_SUCCESS;
}

static int scene_describe(const void *params, json_t *model)
{
    const mb_scene *sc = params;
    if (sc->nbilateral > 0)
        return mb_json_set_str(model, "model", "opaque")
               || mb_json_set_str(model, "name", "constraints") ? MB_ENOMEM : MB_SUCCESS;
    if (mb_json_set_str(model, "model", "unilateral")
        || mb_json_set_str(model, "normal_law", "signorini")
        || mb_json_set_str(model, "impact_law", "newton")
        || mb_json_set_str(model, "friction_law", "coulomb")
        || (sc->nmaterials == 0 && (mb_json_set_num(model, "restitution", sc->e)
                                    || mb_json_set_num(model, "mu", sc->mu)))
        || describe_shapes(sc, model) || describe_planes(sc, model)
        || describe_pair_laws(sc, model))
        return MB_ENOMEM;
    return MB_SUCCESS;
}

static const mb_force_type scene_type = {
    .name = "constraints",
    .eval = scene_eval,
    .free = scene_free,
    .describe = scene_describe,
};

const mb_force_type *const mb_force_scene = &scene_type;

mb_scene *mb_scene_new(size_t nbodies, double mu, double e)
{
    if (!(isfinite(mu) && mu >= 0.0))
        MB_ERROR_NULL(MB_EDOM, "constraint scene: friction coefficient mu = %g must be finite and >= 0", mu);
    if (!(e >= 0.0 && e <= 1.0))
        MB_ERROR_NULL(MB_EDOM, "constraint scene: restitution coefficient e = %g must be in [0, 1]", e);
    mb_scene *s = calloc(1, sizeof *s);
    if (s == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a constraint scene");
    s->nbodies = nbodies;
    s->shape = calloc(nbodies ? nbodies : 1, sizeof(int));
    s->extent = calloc(3 * (nbodies ? nbodies : 1), sizeof(double));
    s->material = calloc(nbodies ? nbodies : 1, sizeof(int));
    s->mu = mu;
    s->e = e;
    if (s->shape == NULL || s->extent == NULL || s->material == NULL) {
        scene_free(s);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a constraint scene of %zu bodies", nbodies);
    }
    return s;
}

mb_scene *mb_scene_of(const mb_forces *F)
{
    for (size_t m = 0; F && m < F->count; m++)
        if (F->items[m].type == mb_force_scene)
            return F->items[m].params;
    return NULL;
}

int mb_scene_set_sphere(mb_scene *s, size_t body, double radius)
{
    if (body >= s->nbodies || !(isfinite(radius) && radius > 0.0))
        MB_ERROR(MB_EINVAL, "sphere: body %zu of %zu, radius %g must be > 0", body, s->nbodies, radius);
    s->shape[body] = MB_SHAPE_SPHERE;
    s->extent[3 * body] = radius;
    return MB_SUCCESS;
}

int mb_scene_set_box(mb_scene *s, size_t body, const double half[3])
{
    if (body >= s->nbodies || !(half[0] > 0 && half[1] > 0 && half[2] > 0)
        || !(isfinite(half[0]) && isfinite(half[1]) && isfinite(half[2])))
        MB_ERROR(MB_EINVAL, "box: body %zu of %zu, half-extents must be finite and > 0", body,
                 s->nbodies);
    s->shape[body] = MB_SHAPE_BOX;
    memcpy(&s->extent[3 * body], half, 3 * sizeof(double));
    return MB_SUCCESS;
}

int mb_scene_add_plane(mb_scene *s, const double point[3], const double normal[3])
{
    double l = mb_v3_norm(normal);
    if (!(isfinite(l) && l > 0.0))
        MB_ERROR(MB_EINVAL, "plane: the normal must be finite and non-zero");
    if (!(isfinite(point[0]) && isfinite(point[1]) && isfinite(point[2])))
        MB_ERROR(MB_EINVAL, "plane: the point must be finite");
    if (s->nplanes == s->capplanes) {
        size_t cap = s->capplanes ? 2 * s->capplanes : 4;
        mb_plane *p = realloc(s->planes, cap * sizeof *p);
        if (p == NULL)
            return MB_ENOMEM;
        s->planes = p;
        s->capplanes = cap;
    }
    mb_plane *P = &s->planes[s->nplanes++];
    memcpy(P->point, point, sizeof P->point);
    mb_v3_scale(P->normal, 1.0 / l, normal);
    P->material = 0;
    return MB_SUCCESS;
}

/* body arm of spatial point p on body k of node store n (ground: p itself) */
static void arm(const mb_nodes *n, size_t k, const double p[3], double A[3])
{
    if (k == MB_CON_GROUND) {
        mb_v3_copy(A, p);
        return;
    }
    double d[3] = { 0, 0, 0 };
    mb_v3_sub(d, p, &n->x[3 * k]);
    mb_q_rotate_inv(A, &n->q[4 * k], d);
}

static mb_con *push(mb_scene *s, const mb_nodes *n, int kind, size_t i, size_t j,
                    const double pi[3], const double pj[3])
{
    if (i >= s->nbodies || (j != MB_CON_GROUND && j >= s->nbodies) || i == j || i >= n->n
        || (j != MB_CON_GROUND && j >= n->n)) {
        mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s constraint: bodies %zu, %zu invalid "
                     "(slave must be a body, master another body or the ground)",
                     mb_con_kind_name(kind), i, j);
        return NULL;
    }
    for (int d = 0; d < 3; d++)
        if (!isfinite(pi[d]) || !isfinite(pj[d])) {
            mb_error_record(MB_EINVAL, __FILE__, __LINE__, "%s constraint: the points must be "
                            "finite", mb_con_kind_name(kind));
            return NULL;
        }
    if (s->nbilateral == s->capbilateral) {
        size_t cap = s->capbilateral ? 2 * s->capbilateral : 4;
        mb_con *p = realloc(s->bilateral, cap * sizeof *p);
        if (p == NULL) {
            mb_error_record(MB_ENOMEM, __FILE__, __LINE__, "cannot grow the constraint list");
            return NULL;
        }
        s->bilateral = p;
        s->capbilateral = cap;
    }
    mb_con *c = &s->bilateral[s->nbilateral++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->i = i;
    c->j = j;
    c->key = (long)s->nbilateral;
    arm(n, i, pi, c->Ai);
    arm(n, j, pj, c->Aj);
    return c;
}

static int unit(double d[3], const double dir[3], const char *what)
{
    double l = mb_v3_norm(dir);
    if (!(isfinite(l) && l > 0.0))
        MB_ERROR(MB_EINVAL, "%s: the direction must be finite and non-zero", what);
    mb_v3_scale(d, 1.0 / l, dir);
    return MB_SUCCESS;
}

int mb_scene_fix_point(mb_scene *s, const mb_nodes *n, size_t i, size_t j, const double p[3])
{
    return push(s, n, MB_CON_FIXPNT, i, j, p, p) ? MB_SUCCESS : mb_last_error_code();
}

int mb_scene_fix_direction(mb_scene *s, const mb_nodes *n, size_t i, size_t j, const double p[3],
                           const double dir[3])
{
    double d[3] = { 0, 0, 0 };
    int st = unit(d, dir, "fixed-direction constraint");
    if (st != MB_SUCCESS)
        return st;
    mb_con *c = push(s, n, MB_CON_FIXDIR, i, j, p, p);
    if (c == NULL)
        return mb_last_error_code();
    mb_v3_copy(c->dir, d);
    return MB_SUCCESS;
}

int mb_scene_velocity_direction(mb_scene *s, const mb_nodes *n, size_t i, const double p[3],
                                const double dir[3], double velocity)
{
    double d[3] = { 0, 0, 0 };
    if (!isfinite(velocity))
        MB_ERROR(MB_EINVAL, "velocity-direction constraint: the velocity %g must be finite", velocity);
    int st = unit(d, dir, "velocity-direction constraint");
    if (st != MB_SUCCESS)
        return st;
    mb_con *c = push(s, n, MB_CON_VELODIR, i, MB_CON_GROUND, p, p);
    if (c == NULL)
        return mb_last_error_code();
    mb_v3_copy(c->dir, d);
    c->value = velocity;
    return MB_SUCCESS;
}

int mb_scene_rigid_link(mb_scene *s, const mb_nodes *n, size_t i, size_t j, const double pi[3],
                        const double pj[3])
{
    double L = mb_v3_dist(pi, pj);
    if (!(L > 0.0))
        MB_ERROR(MB_EINVAL, "rigid-link constraint: the two points coincide (length 0)");
    mb_con *c = push(s, n, MB_CON_RIGLNK, i, j, pi, pj);
    if (c == NULL)
        return mb_last_error_code();
    c->value = L;
    return MB_SUCCESS;
}

int mb_scene_set_materials(mb_scene *s, size_t count, const double *mu, const double *e)
{
    for (size_t k = 0; k < count * count; k++) {
        if (!(isfinite(mu[k]) && mu[k] >= 0.0) || !(e[k] >= 0.0 && e[k] <= 1.0))
            MB_ERROR(MB_EDOM, "materials: pair %zu-%zu needs mu >= 0 and e in [0, 1]",
                     k / count, k % count);
        if (mu[k] != mu[(k % count) * count + k / count] || e[k] != e[(k % count) * count + k / count])
            MB_ERROR(MB_EINVAL, "materials: the pair tables must be symmetric");
    }
    double *m = malloc(count * count * sizeof *m), *r = malloc(count * count * sizeof *r);
    if (m == NULL || r == NULL) {
        free(m);
        free(r);
        return MB_ENOMEM;
    }
    memcpy(m, mu, count * count * sizeof *m);
    memcpy(r, e, count * count * sizeof *r);
    free(s->pair_mu);
    free(s->pair_e);
    s->pair_mu = m;
    s->pair_e = r;
    s->nmaterials = count;
    return MB_SUCCESS;
}

int mb_scene_set_material(mb_scene *s, size_t body, int material)
{
    if (body >= s->nbodies || material < 0 || (size_t)material >= (s->nmaterials ? s->nmaterials : 1))
        MB_ERROR(MB_EINVAL, "material %d of body %zu: not in the table", material, body);
    s->material[body] = material;
    return MB_SUCCESS;
}

void mb_scene_pair_law(const mb_scene *s, int a, int b, double *mu, double *e)
{
    if (s->nmaterials == 0) {
        *mu = s->mu;
        *e = s->e;
        return;
    }
    *mu = s->pair_mu[(size_t)a * s->nmaterials + (size_t)b];
    *e = s->pair_e[(size_t)a * s->nmaterials + (size_t)b];
}

/* registry sample (mb_force_models.h): a sphere of every body, one plane */
void *mb_force_sample_scene(mb_nodes *s)
{
    mb_scene *sc = mb_scene_new(s->n, 0.3, 0.5);
    for (size_t i = 0; sc != NULL && i < s->n; i++)
        if (mb_scene_set_sphere(sc, i, 0.2 + 0.01 * (double)i) != MB_SUCCESS) {
            scene_free(sc);
            return NULL;
        }
    return sc;
}
