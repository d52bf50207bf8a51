/* test_scene_presets.c -- the built-in problems that are special cases of a scene build
 * their systems through the scene path (mb_scene_place.h): each preset, with its default
 * parameters, and the same system written as scene sections give identical node stores
 * (every array compared exactly) and the same force field (the same models in the same
 * order with equal parameters as the models describe them, and bit-equal forces, torques
 * and potential energy when evaluated on the common initial state).  The expected values
 * are the preset's own documented defaults, written out as the scene text a user would
 * write; nothing is taken from the code under test. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mb_problem.h"
#include "mb_scene.h"
#include "mb_scene_build.h"
#include "mb_status.h"
#include "mb_test_scene_text.h"

static mb_system *scene(const char *text)
{
    mb_system *sys = NULL;
    int st = mb_test_scene_text(text, &sys);
    cr_assert_eq(st, MB_SUCCESS, "%s", mb_last_error());
    return sys;
}

/* the problem of a spec "name" or "name[k=v,...]", set up with those parameters */
static mb_system *preset(const char *spec)
{
    const mb_problem_type *pt;
    mb_options *given, *params;
    mb_system *sys = NULL;
    char *name;
    cr_assert_eq(mb_spec_split(spec, &name, &given), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(mb_problem_prepare(name, given, &pt, &params), MB_SUCCESS, "%s", mb_last_error());
    cr_assert_eq(pt->setup(params, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_options_free(params);
    mb_options_free(given);
    free(name);
    return sys;
}

static void same_array(const char *what, const double *a, const double *b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        cr_expect(a[k] == b[k], "%s[%zu]: preset %.17g, scene %.17g", what, k, a[k], b[k]);
}

/* every array; the radius only with_radius (a preset's rigid body has no shape, radius 0,
 * where a scene body has the radius of its shape) */
static void same_nodes(const mb_nodes *a, const mb_nodes *b, int with_radius)
{
    size_t n = a->n;
    cr_assert_eq(n, b->n);
    same_array("x", a->x, b->x, 3 * n);
    same_array("v", a->v, b->v, 3 * n);
    same_array("mass", a->mass, b->mass, n);
    same_array("inv_mass", a->inv_mass, b->inv_mass, n);
    same_array("inertia", a->inertia, b->inertia, 3 * n);
    same_array("q", a->q, b->q, 4 * n);
    same_array("omega", a->omega, b->omega, 3 * n);
    same_array("angmom", a->angmom, b->angmom, 3 * n);
    if (with_radius)
        same_array("radius", a->radius, b->radius, n);
    cr_expect_eq(memcmp(a->blocked, b->blocked, n), 0);
    cr_expect_eq(memcmp(a->vel_mid, b->vel_mid, n), 0);
    cr_expect_eq(memcmp(a->aspherical, b->aspherical, n), 0);
}

/* the same models with equal described parameters, and the same evaluation */
static void same_forces(mb_system *a, mb_system *b)
{
    cr_assert_eq(a->forces->count, b->forces->count);
    for (size_t k = 0; k < a->forces->count; k++) {
        const mb_force *fa = &a->forces->items[k], *fb = &b->forces->items[k];
        cr_expect_eq(fa->type, fb->type, "model %zu: %s and %s", k, fa->type->name, fb->type->name);
        if (fa->type == fb->type && fa->type->describe) {
            json_t *ja = json_object(), *jb = json_object();
            cr_assert_eq(fa->type->describe(fa->params, ja), MB_SUCCESS);
            cr_assert_eq(fb->type->describe(fb->params, jb), MB_SUCCESS);
            char *ta = json_dumps(ja, JSON_SORT_KEYS), *tb = json_dumps(jb, JSON_SORT_KEYS);
            cr_expect(json_equal(ja, jb), "model %zu: %s vs %s", k, ta, tb);
            free(ta);
            free(tb);
            json_decref(ja);
            json_decref(jb);
        }
    }
    cr_assert_eq(mb_forces_eval(a->forces, a->nodes, 0.0), MB_SUCCESS);
    cr_assert_eq(mb_forces_eval(b->forces, b->nodes, 0.0), MB_SUCCESS);
    same_array("f", a->nodes->f, b->nodes->f, 3 * a->nodes->n);
    same_array("torque", a->nodes->torque, b->nodes->torque, 3 * a->nodes->n);
    double va = mb_forces_potential(a->forces, a->nodes), vb = mb_forces_potential(b->forces, b->nodes);
    cr_expect(va == vb, "potential: preset %.17g, scene %.17g", va, vb);
}

/* the preset and the scene: the same nodes (the radius only with_radius) and force field */
static void preset_is_scene_radius(const char *name, const char *text, int with_radius)
{
    mb_system *a = preset(name), *b = scene(text);
    same_nodes(a->nodes, b->nodes, with_radius);
    same_forces(a, b);
    mb_system_free(a);
    mb_system_free(b);
}

static void preset_is_scene(const char *name, const char *text)
{
    preset_is_scene_radius(name, text, 1);
}

/* free-fall: mass 1.7 at z0 = 10.3 with v0 = (0.83, 0, 2.385), g = 9.81 along -z */
Test(scene_presets, free_fall)
{
    preset_is_scene("free-fall", "[body p]\ntype = point\nmass = 1.7\nposition = 0, 0, 10.3\n"
                                 "velocity = 0.83, 0, 2.385\n"
                                 "[force g]\ntype = gravity\ng = 0, 0, -9.81\n");
}

/* projectile: mass 0.145 from (0, 1.83) at (31.7, 12.9), g along -y, drag D = 0.0213 */
Test(scene_presets, projectile)
{
    preset_is_scene("projectile", "[body p]\ntype = point\nmass = 0.145\nposition = 0, 1.83, 0\n"
                                  "velocity = 31.7, 12.9, 0\n"
                                  "[force g]\ntype = gravity\ng = 0, -9.81, 0\n"
                                  "[force air]\ntype = drag\nD = 0.0213\n");
}

/* kepler: mu = 1, a = 1, e = 0.6, started at periapsis x = a (1 - e) = 0.4 with the
 * periapsis speed sqrt(mu (1 + e) / (a (1 - e))) = sqrt(1.6 / 0.4) = 2 */
Test(scene_presets, kepler)
{
    preset_is_scene("kepler", "[body p]\ntype = point\nmass = 1\nposition = 0.4, 0, 0\n"
                              "velocity = 0, 2, 0\n"
                              "[force sun]\ntype = central\nmu = 1\n");
}

/* harmonic: m = 1 on a spring k = 1 of rest length 0 to the origin, x0 = 1, v0 = 0 */
Test(scene_presets, harmonic)
{
    preset_is_scene("harmonic", "[body p]\ntype = point\nmass = 1\nposition = 1, 0, 0\n"
                                "[force s]\ntype = spring\nbody = p\nanchor = 0, 0, 0\nk = 1\n");
}

/* spring-pair: m0 = 1.3 at the origin with u0 = 0.21, m1 = 0.77 at d = 0.37 with
 * u1 = -0.55, k = 43.1, rest 0 */
Test(scene_presets, spring_pair)
{
    preset_is_scene("spring-pair", "[body a]\ntype = point\nmass = 1.3\nvelocity = 0.21, 0, 0\n"
                                   "[body b]\ntype = point\nmass = 0.77\nposition = 0.37, 0, 0\n"
                                   "velocity = -0.55, 0, 0\n"
                                   "[force s]\ntype = spring\nbody = a\nto = b\nk = 43.1\nrest = 0\n");
}

/* a rigid preset: the same node but its radius, the same force field */
static void rigid_preset_is_scene(const char *name, const char *text)
{
    preset_is_scene_radius(name, text, 0);
}

/* symmetric-top: I = (1.7, 1.7, 3.1), w~ = (0.6, -0.35, 2.385), turned by 0.7 rad about
 * (0.3, -0.5, 0.81), mass 1 (the preset's body has no other mass) */
Test(scene_presets, symmetric_top)
{
    rigid_preset_is_scene("symmetric-top", "[body top]\ntype = sphere\nradius = 1\nmass = 1\n"
                          "inertia = 1.7, 1.7, 3.1\naxis = 0.3, -0.5, 0.81\nangle = 0.7\n"
                          "angular_velocity_body = 0.6, -0.35, 2.385\n");
}

/* free-rigid-body: I = (1.3, 2.385, 3.7), w~ = (0.9, 0.35, -0.6), the same orientation */
Test(scene_presets, free_rigid_body)
{
    rigid_preset_is_scene("free-rigid-body", "[body b]\ntype = sphere\nradius = 1\nmass = 1\n"
                          "inertia = 1.3, 2.385, 3.7\naxis = 0.3, -0.5, 0.81\nangle = 0.7\n"
                          "angular_velocity_body = 0.9, 0.35, -0.6\n");
}

/* free-rigid-body with given = momentum: w1..w3 are the body angular momentum L~ */
Test(scene_presets, free_rigid_body_momentum)
{
    rigid_preset_is_scene("free-rigid-body[given=momentum,w1=0.4,w2=-1.1,w3=2.5,angle=-2.2]",
                          "[body b]\ntype = sphere\nradius = 1\nmass = 1\n"
                          "inertia = 1.3, 2.385, 3.7\naxis = 0.3, -0.5, 0.81\nangle = -2.2\n"
                          "angular_momentum_body = 0.4, -1.1, 2.5\n");
}

/* The torque presets: the scene's [force] type = torque is the torque model on the one
 * body (mb_force_torque or mb_force_body_torque on node 0), the same model and node as
 * the preset's, so describe and evaluation agree exactly. */

/* spin-up: a sphere m = 1.3, r = 0.25, I = 2/5 m r^2 = 0.0325, spun at w0 = 1.1 along
 * n = T/|T|, T = (0.03, -0.02, 0.07) */
Test(scene_presets, spin_up)
{
    double T[3] = { 0.03, -0.02, 0.07 }, Tn = sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]);
    double I = 0.4 * 1.3 * 0.25 * 0.25;
    char text[600];
    snprintf(text, sizeof text, "[body s]\ntype = sphere\nradius = 0.25\nmass = 1.3\n"
             "inertia = %.17g, %.17g, %.17g\nangular_velocity = %.17g, %.17g, %.17g\n"
             "[force t]\ntype = torque\nbody = s\ntorque = 0.03, -0.02, 0.07\n",
             I, I, I, 1.1 * (T[0] / Tn), 1.1 * (T[1] / Tn), 1.1 * (T[2] / Tn));
    preset_is_scene("spin-up", text);
}

/* axial-torque-top: I = (1.7, 1.7, 3.1), w~ = (0.6, -0.35, 1.2), the same orientation,
 * torque tau = 0.45 about the body axis e3 */
Test(scene_presets, axial_torque_top)
{
    rigid_preset_is_scene("axial-torque-top",
                          "[body top]\ntype = sphere\nradius = 1\nmass = 1\n"
                          "inertia = 1.7, 1.7, 3.1\naxis = 0.3, -0.5, 0.81\nangle = 0.7\n"
                          "angular_velocity_body = 0.6, -0.35, 1.2\n"
                          "[force t]\ntype = torque\nbody = top\ntorque = 0, 0, 0.45\nframe = body\n");
}

/* The solfec presets: the constraint scene compared field by field (shapes, extents,
 * planes with their materials, bilateral templates, contact law tables and the material
 * of every node); the number of differing fields, each logged. */
static int differ(const char *what, size_t k, double a, double b)
{
    if (a == b || (isnan(a) && isnan(b)))
        return 0;
    cr_log_info("%s[%zu]: preset %.17g, scene %.17g", what, k, a, b);
    return 1;
}

static int scene_differences(const mb_scene *a, const mb_scene *b)
{
    int d = differ("nbodies", 0, (double)a->nbodies, (double)b->nbodies)
          + differ("nplanes", 0, (double)a->nplanes, (double)b->nplanes)
          + differ("nbilateral", 0, (double)a->nbilateral, (double)b->nbilateral)
          + differ("nmaterials", 0, (double)a->nmaterials, (double)b->nmaterials);
    if (d)
        return d;
    for (size_t i = 0; i < a->nbodies; i++) {
        d += differ("shape", i, a->shape[i], b->shape[i]) + differ("material", i, a->material[i], b->material[i]);
        for (int k = 0; k < 3; k++)
            d += differ("extent", 3 * i + k, a->extent[3 * i + k], b->extent[3 * i + k]);
    }
    for (size_t p = 0; p < a->nplanes; p++) {
        d += differ("plane.material", p, a->planes[p].material, b->planes[p].material);
        for (int k = 0; k < 3; k++)
            d += differ("plane.point", p, a->planes[p].point[k], b->planes[p].point[k])
               + differ("plane.normal", p, a->planes[p].normal[k], b->planes[p].normal[k]);
    }
    for (size_t c = 0; c < a->nbilateral; c++) {
        const mb_con *x = &a->bilateral[c], *y = &b->bilateral[c];
        d += differ("con.kind", c, x->kind, y->kind) + differ("con.i", c, (double)x->i, (double)y->i)
           + differ("con.j", c, (double)x->j, (double)y->j) + differ("con.value", c, x->value, y->value)
           + differ("con.key", c, (double)x->key, (double)y->key);
        for (int k = 0; k < 3; k++)
            d += differ("con.Ai", c, x->Ai[k], y->Ai[k]) + differ("con.Aj", c, x->Aj[k], y->Aj[k])
               + differ("con.dir", c, x->dir[k], y->dir[k]);
    }
    for (int m = 0; m < 2; m++)
        for (int n = 0; n < 2; n++) {       /* the law of every pair of materials and planes */
            double mua, ea, mub, eb;
            mb_scene_pair_law(a, m, n, &mua, &ea);
            mb_scene_pair_law(b, m, n, &mub, &eb);
            d += differ("mu", 2 * (size_t)m + (size_t)n, mua, mub) + differ("e", 2 * (size_t)m + (size_t)n, ea, eb);
            if (a->nmaterials < 2)
                return d;
        }
    return d;
}

/* the same models in the same order, and bit-equal forces and potential of every model
 * but the constraint scene (whose eval refuses: only the solfec scheme enforces it) */
static void same_forces_but_scene(mb_system *a, mb_system *b)
{
    cr_assert_eq(a->forces->count, b->forces->count);
    for (size_t k = 0; k < a->forces->count; k++) {
        const mb_force *fa = &a->forces->items[k], *fb = &b->forces->items[k];
        cr_assert_eq(fa->type, fb->type, "model %zu: %s and %s", k, fa->type->name, fb->type->name);
        if (fa->type == mb_force_scene)
            continue;
        for (mb_nodes *n = a->nodes; n != NULL; n = n == a->nodes ? b->nodes : NULL) {
            memset(n->f, 0, 3 * n->n * sizeof(double));
            memset(n->torque, 0, 3 * n->n * sizeof(double));
        }
        cr_assert_eq(fa->type->eval(fa->params, a->nodes, 0.0), MB_SUCCESS);
        cr_assert_eq(fb->type->eval(fb->params, b->nodes, 0.0), MB_SUCCESS);
        same_array("f", a->nodes->f, b->nodes->f, 3 * a->nodes->n);
        same_array("torque", a->nodes->torque, b->nodes->torque, 3 * a->nodes->n);
        if (fa->type->potential)
            cr_expect(fa->type->potential(fa->params, a->nodes) == fb->type->potential(fb->params, b->nodes));
    }
}

static int solfec_differences(const char *name, const char *text)
{
    mb_system *a = preset(name), *b = scene(text);
    same_nodes(a->nodes, b->nodes, 1);
    same_forces_but_scene(a, b);
    const mb_scene *sa = mb_scene_of(a->forces), *sb = mb_scene_of(b->forces);
    cr_assert(sa != NULL && sb != NULL, "both have a constraint scene");
    int d = scene_differences(sa, sb);
    mb_system_free(a);
    mb_system_free(b);
    return d;
}

/* box-on-plane: m = 2.385, half-extents (0.3, 0.2, 0.1), I = m/3 (b^2 + c^2, a^2 + c^2,
 * a^2 + b^2), its bottom 1e-9 below the plane z = 0, v0 = 1.7 along x, mu = 0.35, g = 9.81 */
static void box_on_plane_text(char *text, size_t size, double mu)
{
    double m = 2.385, a = 0.3, b = 0.2, c = 0.1;
    snprintf(text, size, "[body box]\ntype = box\nhalf_extents = 0.3, 0.2, 0.1\nmass = 2.385\n"
             "inertia = %.17g, %.17g, %.17g\nposition = 0, 0, %.17g\nvelocity = 1.7, 0, 0\n"
             "[force g]\ntype = gravity\ng = 0, 0, -9.81\n"
             "[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 1\n"
             "[contact]\nfriction = %.17g\n",
             m * (b * b + c * c) / 3.0, m * (a * a + c * c) / 3.0, m * (a * a + b * b) / 3.0,
             c - 1e-9, mu);
}

Test(scene_presets, box_on_plane)
{
    char text[800];
    box_on_plane_text(text, sizeof text, 0.35);
    cr_expect_eq(solfec_differences("box-on-plane", text), 0);
}

/* bouncing-sphere: m = 0.73, r = 0.15, I = 2/5 m r^2, lowest point 1.27 above the plane
 * z = 0, frictionless, e = 0.63, g = 9.81 */
static void bouncing_sphere_text(char *text, size_t size, double e)
{
    double I = 0.4 * 0.73 * 0.15 * 0.15;
    snprintf(text, size, "[body ball]\ntype = sphere\nradius = 0.15\nmass = 0.73\n"
             "inertia = %.17g, %.17g, %.17g\nposition = 0, 0, %.17g\n"
             "[force g]\ntype = gravity\ng = 0, 0, -9.81\n"
             "[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 1\n"
             "[contact]\nrestitution = %.17g\n", I, I, I, 0.15 + 1.27, e);
}

Test(scene_presets, bouncing_sphere)
{
    char text[800];
    bouncing_sphere_text(text, sizeof text, 0.63);
    cr_expect_eq(solfec_differences("bouncing-sphere", text), 0);
}

/* pendulum-link: a ball m = 1.37 of radius l/10, I = 2/5 m (l/10)^2, on a rigid link of
 * length l = 0.843 to the origin, released at theta0 = 1.1 from the downward vertical:
 * centre (l sin theta0, 0, -l cos theta0); g = 9.81 */
static void pendulum_link_text(char *text, size_t size, const double anchor[3])
{
    double l = 0.843, th = 1.1, m = 1.37, I = 0.4 * m * 0.01 * l * l;
    snprintf(text, size, "[body ball]\ntype = sphere\nradius = %.17g\nmass = 1.37\n"
             "inertia = %.17g, %.17g, %.17g\nposition = %.17g, 0, %.17g\n"
             "[force g]\ntype = gravity\ng = 0, 0, -9.81\n"
             "[constraint link]\ntype = rigid_link\nbody = ball\npoint = %.17g, 0, %.17g\n"
             "anchor = %.17g, %.17g, %.17g\n", 0.1 * l, I, I, I, l * sin(th), -l * cos(th),
             l * sin(th), -l * cos(th), anchor[0], anchor[1], anchor[2]);
}

Test(scene_presets, pendulum_link)
{
    char text[1000];
    pendulum_link_text(text, sizeof text, (double[3]){ 0, 0, 0 });
    cr_expect_eq(solfec_differences("pendulum-link", text), 0);
}

/* negative controls: the comparison sees a different law and a different constraint */
Test(scene_presets, solfec_controls)
{
    char text[1000];
    box_on_plane_text(text, sizeof text, 0.3);
    cr_expect_eq(solfec_differences("box-on-plane", text), 1, "friction 0.3 against 0.35");
    bouncing_sphere_text(text, sizeof text, 0.5);
    cr_expect_eq(solfec_differences("bouncing-sphere", text), 1, "restitution 0.5 against 0.63");
    pendulum_link_text(text, sizeof text, (double[3]){ 0, 0, 0.01 });
    cr_expect_gt(solfec_differences("pendulum-link", text), 1, "anchor moved: length and arm");
}
