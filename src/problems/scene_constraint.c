/* scene_constraint.c -- [constraint NAME], [obstacle NAME] and [contact] sections of a
 * scene: the constraint field of the solfec scheme (mb_scene.h; doc/scenes.md).
 *   constraint type = fixed_point          body, point (spatial, t = 0), to = BODY (default ground)
 *   constraint type = fixed_direction      body, point, direction, to = BODY
 *   constraint type = rigid_link           body, point, to = BODY, to_point | anchor, length
 *   constraint type = prescribed_velocity  body, point, direction, velocity
 *   obstacle   type = plane                point, normal (into the free side)
 *   [contact]  friction = mu, restitution = e  (every contact)
 * Sphere and box bodies take part in contacts with their shapes; points and ellipsoids
 * do not (no contact geometry for them).  At t = 0 every body must be on the free side of
 * every plane (to MB_SCENE_TOUCH of its size) and a rigid link's given length must equal
 * the distance of its points.  The scene itself is built by the functions the solfec
 * presets use (mb_scene_place.h). */
#include "mb_contact.h"
#include "mb_contact_detect.h"
#include "mb_neighbour.h"
#include "mb_scene_assembly.h"
#include "mb_scene_contact.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const con_types[] = { "fixed_point", "fixed_direction", "rigid_link",
                                         "prescribed_velocity", NULL };
static const char *const con_keys[] = { "type", "body", "point", "to", "to_point", "anchor",
                                        "direction", "length", "velocity", NULL };
static const char *const obstacle_keys[] = { "type", "point", "normal", "material", NULL };

static int count_kind(const mb_scene_doc *d, const char *kind)
{
    int n = 0;
    for (size_t k = 0; k < d->n; k++)
        n += strcmp(d->sec[k].kind, kind) == 0;
    return n;
}

/* A body that reaches below a plane by at most this fraction of its bounding radius at
 * t = 0 is touching it, not inside it: set on the plane a hair low so that its contacts
 * are active from the first step (box-on-plane sets its box 1e-9 m low, 2.7e-9 of its
 * radius).  The solfec scheme neither deepens nor corrects such a penetration. */
#define MB_SCENE_TOUCH 1e-8

/* lowest point of body i along -n relative to the plane: signed clearance */
static double clearance(const mb_nodes *n, size_t i, const mb_scene_body *b, const mb_plane *p)
{
    double rel[3], Rn[3];
    mb_v3_sub(rel, &n->x[3 * i], p->point);
    double c = mb_v3_dot(rel, p->normal);
    if (b->type == MB_SCENE_SPHERE)
        return c - b->extent[0];
    if (b->type == MB_SCENE_BOX || b->type == MB_SCENE_ELLIPSOID) {
        mb_q_rotate_inv(Rn, &n->q[4 * i], p->normal);   /* normal in the body frame */
        double reach = 0.0;
        for (int k = 0; k < 3; k++)
            reach += b->type == MB_SCENE_BOX ? b->extent[k] * fabs(Rn[k])
                                             : b->extent[k] * b->extent[k] * Rn[k] * Rn[k];
        return c - (b->type == MB_SCENE_BOX ? reach : sqrt(reach));
    }
    return c;
}

int mb_scene_is_static(mb_scene_section *s)
{
    mb_scene_entry *t = strcmp(s->kind, "obstacle") == 0 ? mb_scene_get(s, "type") : NULL;
    return t && (strcmp(t->value, "box") == 0 || strcmp(t->value, "sphere") == 0);
}

/* a plane obstacle (keys, unit normal, material), refused when a body is inside it */
static int read_plane(const mb_scene_doc *d, mb_scene_section *s, const mb_system *sys,
                      const mb_scene_body *bodies, mb_scene_materials *M, mb_plane *out)
{
    mb_scene_entry *t = mb_scene_get(s, "type");
    mb_plane p;
    int st = mb_scene_check_keys(d, s, obstacle_keys);
    if (st)
        return st;
    if (t == NULL || strcmp(t->value, "plane") != 0)
        return mb_scene_fail(d, t ? t->line : s->line, "[obstacle %s]: type must be plane, box "
                             "or sphere", s->name);
    if ((st = mb_scene_req_vector(d, s, "point", p.point, 3)) || (st = mb_scene_req_vector(d, s, "normal", p.normal, 3)))
        return st;
    double len = mb_v3_norm(p.normal);
    if (!(len > 0))
        return mb_scene_fail(d, mb_scene_get(s, "normal")->line, "normal: zero vector");
    mb_v3_scale(p.normal, 1.0 / len, p.normal);
    for (size_t i = 0; i < sys->nodes->n; i++) {
        if (sys->nodes->inv_mass[i] == 0.0)
            continue;                          /* static bodies may cross planes */
        double c = clearance(sys->nodes, i, &bodies[i], &p);
        if (c < -MB_SCENE_TOUCH * bodies[i].radius)
            return mb_scene_fail(d, s->line, "body '%s' is inside obstacle '%s' at t = 0 "
                                 "(penetration %.3g)", mb_scene_node_name(d, i), s->name, -c);
    }
    if ((p.material = mb_scene_section_material(d, s, M)) < 0)
        return MB_EINVAL;
    *out = p;
    return MB_SUCCESS;
}

static int read_obstacle(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, mb_scene *sc,
                         const mb_scene_body *bodies, mb_scene_materials *M)
{
    mb_plane p;
    if (mb_scene_is_static(s))
        return MB_SUCCESS;                     /* a static body, read with the bodies */
    int st = read_plane(d, s, sys, bodies, M, &p);
    if (st != MB_SUCCESS)
        return st;
    if (mb_scene_place_plane(sc, p.point, p.normal, p.material) != MB_SUCCESS)
        return mb_scene_fail(d, s->line, "%s", mb_last_error());
    return MB_SUCCESS;
}

/* the other end: a body ("to") or the ground; point of the other end for links */
static int other_end(const mb_scene_doc *d, mb_scene_section *s, size_t *j)
{
    mb_scene_entry *to = mb_scene_get(s, "to");
    *j = MB_CON_GROUND;
    return to ? mb_scene_body_ref(d, to, to->value, j) : MB_SUCCESS;
}

static int read_link(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, mb_scene *sc,
                     size_t i, size_t j, const double p[3])
{
    double q[3], L;
    mb_scene_entry *tp = mb_scene_get(s, "to_point"), *an = mb_scene_get(s, "anchor"),
                   *len = mb_scene_get(s, "length");
    int st;
    if ((tp != NULL) + (an != NULL) != 1 || (j == MB_CON_GROUND && tp) || (j != MB_CON_GROUND && an))
        return mb_scene_fail(d, s->line, "[constraint %s]: a link to a body takes 'to_point', a "
                             "link to the ground 'anchor'", s->name);
    if ((st = mb_scene_vector(d, tp ? tp : an, q, 3)))
        return st;
    if (len) {
        if ((st = mb_scene_double(d, len, &L)))
            return st;
        if (fabs(L - mb_v3_dist(p, q)) > 1e-9 * fmax(1.0, L))
            return mb_scene_fail(d, len->line, "length = %.17g cannot be satisfied at t = 0: "
                                 "the points are %.17g apart", L, mb_v3_dist(p, q));
    }
    if (!(mb_v3_dist(p, q) > 0))
        return mb_scene_fail(d, s->line, "[constraint %s]: a rigid link needs two distinct points", s->name);
    if (mb_scene_rigid_link(sc, sys->nodes, i, j, p, q) != MB_SUCCESS)
        return mb_scene_fail(d, s->line, "[constraint %s]: %s", s->name, mb_last_error());
    return MB_SUCCESS;
}

static int read_constraint(const mb_scene_doc *d, mb_scene_section *s, mb_system *sys, mb_scene *sc)
{
    mb_scene_entry *t = mb_scene_get(s, "type"), *b = mb_scene_get(s, "body");
    double p[3], dir[3], v;
    size_t i, j;
    int st = mb_scene_check_keys(d, s, con_keys), which = -1;
    if (st)
        return st;
    for (int k = 0; t && con_types[k]; k++)
        if (strcmp(con_types[k], t->value) == 0)
            which = k;
    if (which < 0) {
        const char *hint = t ? mb_suggest(t->value, con_types) : NULL;
        return mb_scene_fail(d, t ? t->line : s->line, "[constraint %s]: type must be fixed_point, "
                             "fixed_direction, rigid_link or prescribed_velocity%s%s%s", s->name,
                             hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
    }
    if (b == NULL)
        return mb_scene_fail(d, s->line, "[constraint %s] needs 'body'", s->name);
    if ((st = mb_scene_body_ref(d, b, b->value, &i)) || (st = other_end(d, s, &j))
        || (st = mb_scene_req_vector(d, s, "point", p, 3)))
        return st;
    if (j == i)
        return mb_scene_fail(d, mb_scene_get(s, "to")->line, "to = %s: a body cannot be "
                             "constrained to itself", b->value);
    if ((which == 1 || which == 3) && (st = mb_scene_req_vector(d, s, "direction", dir, 3)))
        return st;
    if ((which == 1 || which == 3) && !(mb_v3_norm(dir) > 0))
        return mb_scene_fail(d, mb_scene_get(s, "direction")->line, "direction: zero vector");
    if (which == 2)
        return read_link(d, s, sys, sc, i, j, p);
    if (which == 3 && (st = mb_scene_req_double(d, s, "velocity", &v)))
        return st;
    st = which == 0 ? mb_scene_fix_point(sc, sys->nodes, i, j, p)
       : which == 1 ? mb_scene_fix_direction(sc, sys->nodes, i, j, p, dir)
       : mb_scene_velocity_direction(sc, sys->nodes, i, p, dir, v);
    return st == MB_SUCCESS ? st
         : mb_scene_fail(d, s->line, "[constraint %s]: %s", s->name, mb_last_error());
}

/* shapes overlapping at t = 0 (the contact geometry of the scheme, gap < 0 beyond
 * round-off of the positions) */
static int check_overlaps(const mb_scene_doc *d, const mb_system *sys, const mb_scene *sc)
{
    size_t n = sys->nodes->n, cap = mb_detect_capacity(sc);
    double *L = malloc(9 * n * sizeof *L), *Jinv = calloc(3 * n, sizeof *Jinv);
    mb_con *c = malloc(cap * sizeof *c);
    int st = MB_SUCCESS;
    if (L == NULL || Jinv == NULL || c == NULL)
        st = MB_ENOMEM;
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        mb_q_to_mat(&L[9 * i], &sys->nodes->q[4 * i]);
    mb_body_view b = { n, L, sys->nodes->x, Jinv, sys->nodes->inv_mass };
    size_t count = st == MB_SUCCESS ? mb_detect_contacts(sc, &b, c, cap) : 0;
    for (size_t k = 0; k < count && k < cap && st == MB_SUCCESS; k++) {
        double scale = fmax(sys->nodes->radius[c[k].i], 1e-300);
        if (c[k].j != MB_CON_GROUND && c[k].gap < -1e-12 * scale)
            st = mb_scene_fail(d, mb_scene_node_section(d, c[k].i)->line, "'%s' and '%s' overlap at t = 0 "
                               "(penetration %.3g)", mb_scene_node_name(d, c[k].i),
                               mb_scene_node_name(d, c[k].j), -c[k].gap);
    }
    free(L);
    free(Jinv);
    free(c);
    return st;
}

/* materials of the nodes, in node order (bodies, assemblies, then static obstacles) */
static int node_materials(const mb_scene_doc *d, mb_scene_materials *M, int *mat)
{
    for (size_t k = 0; k < d->n; k++) {
        mb_scene_section *s = &d->sec[k];
        if (s->nodes == 0)
            continue;
        int m = mb_scene_section_material(d, s, M);
        if (m < 0)
            return MB_EINVAL;
        for (size_t i = s->first; i < s->first + s->nodes; i++)
            mat[i] = m;
    }
    return MB_SUCCESS;
}

/* the solfec constraint scene: shapes, materials and their pair laws, planes, constraints */
static int build_solfec(const mb_scene_doc *d, mb_system *sys, const mb_scene_body *bodies,
                        mb_scene_materials *M, const int *mat, const mb_scene_law *laws, size_t nlaws)
{
    for (size_t i = 0; i < sys->nodes->n; i++)
        if (sys->nodes->blocked[i] && sys->nodes->inv_mass[i] > 0.0)
            return mb_scene_fail(d, mb_scene_node_section(d, i)->line, "'%s': blocked degrees of freedom "
                                 "are not honoured by the solfec scheme that constraints and "
                                 "obstacles need; hold the body with constraints instead",
                                 mb_scene_node_name(d, i));
    mb_scene *sc = mb_scene_place_solfec(sys, bodies);
    int st = sc == NULL ? mb_last_error_code() : MB_SUCCESS;
    for (size_t k = 0; k < d->n && st == MB_SUCCESS; k++) {
        mb_scene_section *s = &d->sec[k];
        if (strcmp(s->kind, "obstacle") == 0)
            st = read_obstacle(d, s, sys, sc, bodies, M);
        else if (strcmp(s->kind, "constraint") == 0)
            st = read_constraint(d, s, sys, sc);
    }
    if (st != MB_SUCCESS)
        return st;
    double mu[MB_SCENE_MATERIALS_MAX * MB_SCENE_MATERIALS_MAX], e[MB_SCENE_MATERIALS_MAX * MB_SCENE_MATERIALS_MAX];
    mb_scene_signorini_tables(laws, nlaws, M, mu, e);
    if ((st = mb_scene_place_laws(sc, M->count, mu, e, mat)) != MB_SUCCESS)
        return st;
    return check_overlaps(d, sys, sc);
}

/* overlap r_i - (x_i - p).n of sphere i with the plane p */
static double plane_overlap(const mb_system *sys, size_t i, const mb_plane *p)
{
    double g = 0.0;
    for (int k = 0; k < 3; k++)
        g += (sys->nodes->x[3 * i + k] - p->point[k]) * p->normal[k];
    return sys->nodes->radius[i] - g;
}

/* overlap r_i - distance of sphere i with the static box j (half-extents half), the
 * geometry of mb_box_closest */
static double box_overlap(const mb_system *sys, size_t i, size_t j, const double half[3])
{
    double R[9], d[3], pb[3], q[3], nb[3], dist;
    mb_q_to_mat(R, &sys->nodes->q[4 * j]);
    mb_v3_sub(d, &sys->nodes->x[3 * i], &sys->nodes->x[3 * j]);
    mb_m3t_mul_v(pb, R, d);
    mb_box_closest(half, pb, q, nb, &dist);
    return sys->nodes->radius[i] - dist;
}

/* sphere i against the static box j under law L, refused when they overlap at t = 0
 * under a frictional law (as against a plane) */
static int dem_box(const mb_scene_doc *d, mb_system *sys, mb_scene_law *L,
                   const mb_scene_body *bodies, size_t i, size_t j)
{
    double overlap = box_overlap(sys, i, j, bodies[j].extent);
    if (L->dem.friction && overlap > 1e-12 * bodies[i].radius)
        return mb_scene_fail(d, mb_scene_node_section(d, i)->line, "'%s' overlaps '%s' at "
                             "t = 0 by %.3g: a frictional contact cannot start mid-contact (its "
                             "tangential history would be unknown)", mb_scene_node_name(d, i),
                             mb_scene_node_name(d, j), overlap);
    return mb_scene_dem_pair(d, sys, L, i, j, NULL, NULL, bodies[j].extent);
}

/* DEM contact models: every pair of spheres, every sphere against every static box and
 * every sphere against every plane whose materials have a law */
static int build_dem(const mb_scene_doc *d, mb_system *sys, const mb_scene_body *bodies,
                     mb_scene_materials *M, const int *mat, mb_scene_law *laws, size_t nlaws)
{
    size_t n = sys->nodes->n;
    int st = MB_SUCCESS;
    for (size_t k = 0; k < d->n; k++)
        if (strcmp(d->sec[k].kind, "constraint") == 0)
            return mb_scene_fail(d, d->sec[k].line, "constraints need the solfec scheme and its "
                                 "Signorini laws, not DEM laws (law = linear | hertz)");
    for (size_t i = 0; i < n; i++)
        if (bodies[i].type == MB_SCENE_BOX && sys->nodes->inv_mass[i] > 0.0)
            return mb_scene_fail(d, laws[0].section->line, "the DEM laws act between spheres, "
                                 "static boxes and planes and turn no box; '%s' is a moving "
                                 "box (make it a static obstacle)", mb_scene_node_name(d, i));
    for (size_t i = 0; i < n && st == MB_SUCCESS; i++)
        for (size_t j = i + 1; j < n && st == MB_SUCCESS; j++) {
            mb_scene_law *L = (mb_scene_law *)mb_scene_law_of(laws, nlaws, mat[i], mat[j]);
            int both_static = sys->nodes->inv_mass[i] == 0.0 && sys->nodes->inv_mass[j] == 0.0;
            if (L == NULL || both_static)
                continue;
            if (bodies[i].type == MB_SCENE_SPHERE && bodies[j].type == MB_SCENE_BOX)
                st = dem_box(d, sys, L, bodies, i, j);
            else if (bodies[j].type == MB_SCENE_SPHERE && bodies[i].type == MB_SCENE_BOX)
                st = dem_box(d, sys, L, bodies, j, i);
            if (bodies[i].type != MB_SCENE_SPHERE || bodies[j].type != MB_SCENE_SPHERE)
                continue;
            if (mb_v3_dist(&sys->nodes->x[3 * i], &sys->nodes->x[3 * j]) < bodies[i].radius + bodies[j].radius)
                return mb_scene_fail(d, mb_scene_node_section(d, j)->line, "'%s' and '%s' overlap at t = 0",
                                     mb_scene_node_name(d, i), mb_scene_node_name(d, j));
            int i_static = sys->nodes->inv_mass[i] == 0.0;
            st = mb_scene_dem_pair(d, sys, L, i_static ? j : i, i_static ? i : j, NULL, NULL, NULL);
        }
    for (size_t k = 0; k < d->n && st == MB_SUCCESS; k++) {
        mb_scene_section *s = &d->sec[k];
        mb_plane p;
        if (strcmp(s->kind, "obstacle") != 0 || mb_scene_is_static(s))
            continue;
        if ((st = read_plane(d, s, sys, bodies, M, &p)) != MB_SUCCESS)
            return st;
        for (size_t i = 0; i < n && st == MB_SUCCESS; i++) {
            mb_scene_law *L = (mb_scene_law *)mb_scene_law_of(laws, nlaws, mat[i], p.material);
            if (!(L && bodies[i].type == MB_SCENE_SPHERE && sys->nodes->inv_mass[i] > 0.0))
                continue;
            if (L->dem.friction && plane_overlap(sys, i, &p) > 1e-12 * bodies[i].radius)
                return mb_scene_fail(d, mb_scene_node_section(d, i)->line, "'%s' overlaps '%s' at t = 0 "
                                     "by %.3g: a frictional contact cannot start mid-contact "
                                     "(its tangential history would be unknown)",
                                     mb_scene_node_name(d, i), s->name, plane_overlap(sys, i, &p));
            st = mb_scene_dem_pair(d, sys, L, i, i, p.point, p.normal, NULL);
        }
    }
    return st;
}

/* the one law of every pair of spheres on the neighbour list (the list cannot tell
 * materials apart), NULL with the error recorded when the spheres' materials have
 * different laws or none */
static mb_scene_law *neighbour_law(const mb_scene_doc *d, const mb_scene_materials *M,
                                   const int *mat, size_t n, mb_scene_law *laws, size_t nlaws)
{
    int present[MB_SCENE_MATERIALS_MAX] = { 0 };
    for (size_t i = 0; i < n; i++)
        present[mat[i]] = 1;
    mb_scene_law *L = (mb_scene_law *)mb_scene_law_of(laws, nlaws, mat[0], mat[0]);
    for (size_t a = 0; a < M->count; a++)
        for (size_t b = a; b < M->count; b++)
            if (present[a] && present[b] && mb_scene_law_of(laws, nlaws, (int)a, (int)b) != L) {
                mb_scene_fail(d, laws[0].section->line, "the contacts of an [assembly] or a "
                              "[space] are found by the neighbour list, which takes one law for "
                              "every pair of spheres: materials '%s' and '%s' %s", M->names[a],
                              M->names[b], L ? "have another law" : "have none");
                return NULL;
            }
    return L;
}

/* sphere i against the plane p in the walls' model of its law Lw: the spheres' model
 * itself for the linear law of the spheres (walls come first in it, before the list's
 * pairs), else a walls-only model of Lw (Hertz: E* of a wall) */
static int neighbour_wall(const mb_scene_doc *d, mb_system *sys, mb_scene_law *L,
                          mb_scene_law *Lw, size_t i, const mb_plane *p)
{
    int own = Lw == L && !Lw->dem.hertz;
    if (!own && Lw->model[1] == NULL)
        Lw->model[1] = mb_scene_place_dem_model(sys, &Lw->dem, 1);
    void *m = own ? L->model[0] : Lw->model[1];
    int st = m ? mb_scene_place_dem_pair(sys, m, i, i, p->point, p->normal) : mb_last_error_code();
    return st == MB_SUCCESS ? st : mb_scene_fail(d, Lw->section->line, "%s", mb_last_error());
}

/* DEM contacts of a scene with an [assembly] or a [space]: moving spheres only, one law for
 * every pair of them, taken from the neighbour list of the space (O(n)); walls as in
 * build_dem, added before the list (mb_contact_use_neighbours) */
static int build_dem_neighbours(const mb_scene_doc *d, mb_system *sys, const mb_scene_body *bodies,
                                mb_scene_materials *M, const int *mat, mb_scene_law *laws,
                                size_t nlaws, const mb_scene_space *space)
{
    size_t n = sys->nodes->n;
    double rmax = space->radius_bound;
    for (size_t i = 0; i < n; i++) {
        if (bodies[i].type != MB_SCENE_SPHERE || sys->nodes->inv_mass[i] == 0.0)
            return mb_scene_fail(d, mb_scene_node_section(d, i)->line, "'%s': with an [assembly] "
                                 "or a [space] the contacts are found by the neighbour list, which "
                                 "takes moving spheres only (walls: plane obstacles)",
                                 mb_scene_node_name(d, i));
        rmax = fmax(rmax, bodies[i].radius);
    }
    mb_scene_law *L = neighbour_law(d, M, mat, n, laws, nlaws);
    mb_neighbour_list *nl = L ? mb_scene_neighbour_list(d, sys, space, 2.0 * rmax) : NULL;
    int st = nl ? mb_scene_check_sphere_overlaps(d, sys, space, 2.0 * rmax) : MB_EINVAL;
    if (st == MB_SUCCESS && (L->model[0] = mb_scene_place_dem_model(sys, &L->dem, 0)) == NULL)
        st = mb_scene_fail(d, L->section->line, "%s", mb_last_error());
    for (size_t k = 0; k < d->n && st == MB_SUCCESS; k++) {
        mb_scene_section *s = &d->sec[k];
        mb_plane p;
        if (strcmp(s->kind, "obstacle") != 0)
            continue;
        if ((st = read_plane(d, s, sys, bodies, M, &p)) != MB_SUCCESS)
            break;
        for (size_t i = 0; i < n && st == MB_SUCCESS; i++) {
            mb_scene_law *Lw = (mb_scene_law *)mb_scene_law_of(laws, nlaws, mat[i], p.material);
            if (Lw == NULL)
                continue;
            if (Lw->dem.friction && plane_overlap(sys, i, &p) > 1e-12 * bodies[i].radius)
                st = mb_scene_fail(d, mb_scene_node_section(d, i)->line, "'%s' overlaps '%s' at "
                                   "t = 0 by %.3g: a frictional contact cannot start "
                                   "mid-contact (its tangential history would be unknown)",
                                   mb_scene_node_name(d, i), s->name, plane_overlap(sys, i, &p));
            else
                st = neighbour_wall(d, sys, L, Lw, i, &p);
        }
    }
    if (st == MB_SUCCESS && mb_contact_use_neighbours(L->model[0], sys->nodes, nl) != MB_SUCCESS)
        st = mb_scene_fail(d, L->section->line, "%s", mb_last_error());
    mb_neighbour_free(nl);
    return st;
}

int mb_scene_read_constraints(const mb_scene_doc *d, mb_system *sys, const mb_scene_body *bodies,
                              const mb_scene_space *space)
{
    if (count_kind(d, "constraint") + count_kind(d, "obstacle") + count_kind(d, "contact") == 0)
        return space->kind == MB_SPACE_BOX
                   ? mb_scene_fail(d, space->line, "[space] box: a periodic box is the space of "
                                   "the contacts (the neighbour list); the scene has no [contact]")
                   : MB_SUCCESS;
    mb_scene_materials M = { 0 };
    mb_scene_law laws[MB_SCENE_LAWS_MAX];
    size_t nlaws;
    mb_scene_material(&M, "default");
    int *mat = calloc(sys->nodes->n, sizeof *mat);
    if (mat == NULL)
        return MB_ENOMEM;
    int st = node_materials(d, &M, mat);
    if (st == MB_SUCCESS)
        st = mb_scene_read_laws(d, &M, laws, &nlaws);
    int dem = st == MB_SUCCESS && nlaws > 0 && laws[0].kind != MB_LAW_SIGNORINI;
    if (dem && count_kind(d, "constraint") > 0)
        st = build_dem(d, sys, bodies, &M, mat, laws, nlaws);     /* refuses the constraints */
    else if (dem && mb_scene_uses_neighbours(d))
        st = build_dem_neighbours(d, sys, bodies, &M, mat, laws, nlaws, space);
    else if (dem)
        st = build_dem(d, sys, bodies, &M, mat, laws, nlaws);
    else if (st == MB_SUCCESS && space->kind != MB_SPACE_OPEN)
        st = mb_scene_fail(d, space->line, "[space]: a periodic box or cell needs DEM contact "
                           "laws (law = linear | hertz); the solfec scheme has none");
    else if (st == MB_SUCCESS)
        st = build_solfec(d, sys, bodies, &M, mat, laws, nlaws);
    free(mat);
    return st;
}
