/* scene_contact.c -- [contact] and [contact NAME] sections of a scene: contact laws per
 * pair of materials (doc/scenes.md, "Contact").
 *   [contact]        the law of every pair without a law of its own
 *   [contact NAME]   between = A, B  (material names of bodies and obstacles)
 *   law = signorini  friction, restitution             (solfec: mb_scene pair tables)
 *   law = linear     kn, c | zeta, attractive           (DEM: mb_force_contact_linear)
 *   law = hertz      young, poisson, zeta, attractive   (DEM: mb_force_contact_hertz)
 *   with friction = mu (and kt_ratio, zeta_t, rolling) the DEM laws are frictional:
 *   mb_force_contact_cundall_strack and mb_force_contact_hertz_mindlin (mb_contact.h)
 * Materials are named by `material = NAME` on bodies and obstacles ("default" otherwise).
 * A scene uses Signorini laws (solfec) or DEM laws, not both.  The DEM laws act between
 * spheres and against planes; E* = E / (2 (1 - nu^2)) between two spheres of the material
 * and E / (1 - nu^2) against a rigid plane or a static sphere, as in the sphere contact
 * problems. */
#include "mb_contact.h"
#include "mb_scene_contact.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const contact_keys[] = { "between", "law", "friction", "restitution", "kn",
                                            "c", "zeta", "young", "poisson", "attractive",
                                            "kt_ratio", "zeta_t", "rolling", NULL };
static const char *const laws[] = { "signorini", "linear", "hertz", NULL };

int mb_scene_material(mb_scene_materials *M, const char *name)
{
    for (size_t k = 0; k < M->count; k++)
        if (strcmp(M->names[k], name) == 0)
            return (int)k;
    if (M->count == MB_SCENE_MATERIALS_MAX)
        return -1;
    snprintf(M->names[M->count], sizeof M->names[0], "%s", name);
    return (int)M->count++;
}

/* material of a section (body or obstacle): its `material` key or "default" */
int mb_scene_section_material(const mb_scene_doc *d, mb_scene_section *s, mb_scene_materials *M)
{
    mb_scene_entry *e = mb_scene_get(s, "material");
    int m = mb_scene_material(M, e ? e->value : "default");
    return m >= 0 ? m : mb_scene_fail(d, e ? e->line : s->line, "more than %d materials",
                                      MB_SCENE_MATERIALS_MAX);
}

static int read_yes_no(const mb_scene_doc *d, mb_scene_entry *e, int *out)
{
    *out = 0;
    if (e == NULL)
        return MB_SUCCESS;
    if (strcmp(e->value, "yes") && strcmp(e->value, "no"))
        return mb_scene_fail(d, e->line, "%s = %s: use yes or no", e->key, e->value);
    *out = strcmp(e->value, "yes") == 0;
    return MB_SUCCESS;
}

static int read_dem_params(const mb_scene_doc *d, mb_scene_section *s, mb_scene_law *L)
{
    mb_scene_entry *c = mb_scene_get(s, "c"), *z = mb_scene_get(s, "zeta");
    mb_scene_dem_law *D = &L->dem;
    D->hertz = L->kind == MB_LAW_HERTZ;
    int st = read_yes_no(d, mb_scene_get(s, "attractive"), &D->attractive);
    if (st || (z && (st = mb_scene_double(d, z, &D->zeta))) || (c && (st = mb_scene_double(d, c, &D->c))))
        return st;
    if (L->kind == MB_LAW_LINEAR) {
        if (c && z)
            return mb_scene_fail(d, z->line, "give one of 'c' (line %d) and 'zeta'", c->line);
        D->by_ratio = z != NULL;
        if ((st = mb_scene_req_double(d, s, "kn", &D->kn)))
            return st;
        if (!(D->kn > 0) || !(D->c >= 0) || !(D->zeta >= 0 && D->zeta < 1))
            return mb_scene_fail(d, s->line, "[contact%s%s]: need kn > 0, c >= 0, 0 <= zeta < 1",
                                 s->name[0] ? " " : "", s->name);
        return MB_SUCCESS;
    }
    if (c)
        return mb_scene_fail(d, c->line, "law = hertz takes zeta (Tsuji dashpot), not c");
    D->poisson = 0.3;
    if ((st = mb_scene_req_double(d, s, "young", &D->young)) || (st = mb_scene_opt_double(d, s, "poisson", &D->poisson)))
        return st;
    if (!(D->young > 0) || !(D->poisson >= 0 && D->poisson <= 0.5) || !(D->zeta >= 0 && D->zeta < 1))
        return mb_scene_fail(d, s->line, "[contact%s%s]: need young > 0, poisson in [0, 0.5], "
                             "0 <= zeta < 1", s->name[0] ? " " : "", s->name);
    return MB_SUCCESS;
}

/* friction = mu >= 0 makes a DEM law frictional; kt_ratio (linear: k_t/kn in (0, 1],
 * default 2/7; hertz: 4 G* / E* in [2/3, 1], default 2(1 - nu)/(2 - nu) of the poisson
 * ratio), zeta_t in [0, 1) (default 0) and rolling = mu_r >= 0 (default 0) need it. */
static int read_friction(const mb_scene_doc *d, mb_scene_section *s, mb_scene_law *L)
{
    static const char *const needs[] = { "kt_ratio", "zeta_t", "rolling", NULL };
    mb_scene_dem_law *D = &L->dem;
    mb_scene_entry *f = mb_scene_get(s, "friction");
    int st;
    if (f == NULL) {
        for (int k = 0; needs[k]; k++)
            if (mb_scene_get(s, needs[k]))
                return mb_scene_fail(d, mb_scene_get(s, needs[k])->line, "'%s' without friction: "
                                     "give friction = mu (> 0 for rolling resistance)", needs[k]);
        return MB_SUCCESS;
    }
    D->friction = 1;
    D->kt_ratio = D->hertz ? 2.0 * (1.0 - D->poisson) / (2.0 - D->poisson) : 2.0 / 7.0;
    if ((st = mb_scene_double(d, f, &D->mu)) || (st = mb_scene_opt_double(d, s, "kt_ratio", &D->kt_ratio))
        || (st = mb_scene_opt_double(d, s, "zeta_t", &D->zeta_t))
        || (st = mb_scene_opt_double(d, s, "rolling", &D->mu_roll)))
        return st;
    mb_scene_entry *kt = mb_scene_get(s, "kt_ratio"), *zt = mb_scene_get(s, "zeta_t");
    mb_scene_entry *ro = mb_scene_get(s, "rolling");
    if (!(isfinite(D->mu) && D->mu >= 0))
        return mb_scene_fail(d, f->line, "friction = %s: need a finite mu >= 0", f->value);
    if (D->hertz && !(D->kt_ratio >= MB_CONTACT_KT_RATIO_MINDLIN_MIN
                      && D->kt_ratio <= MB_CONTACT_KT_RATIO_MINDLIN_MAX))
        return mb_scene_fail(d, kt ? kt->line : s->line, "kt_ratio = %g: Hertz-Mindlin's 4 G* / E* "
                             "= 2(1 - nu)/(2 - nu) lies in [2/3, 1] for nu in [0, 0.5]", D->kt_ratio);
    if (!D->hertz && !(isfinite(D->kt_ratio) && D->kt_ratio > 0 && D->kt_ratio <= MB_CONTACT_KT_RATIO_LINEAR_MAX))
        return mb_scene_fail(d, kt ? kt->line : s->line, "kt_ratio = %g: the linear law needs "
                             "0 < kt/kn <= 1", D->kt_ratio);
    if (!(D->zeta_t >= 0 && D->zeta_t < 1))
        return mb_scene_fail(d, zt->line, "zeta_t = %s: need 0 <= zeta_t < 1", zt->value);
    if (!(isfinite(D->mu_roll) && D->mu_roll >= 0))
        return mb_scene_fail(d, ro->line, "rolling = %s: need a finite mu_r >= 0", ro->value);
    if (D->mu_roll > 0 && D->mu == 0)
        return mb_scene_fail(d, ro->line, "rolling = %s with friction = 0: rolling resistance "
                             "needs friction > 0", ro->value);
    return MB_SUCCESS;
}

static int read_law(const mb_scene_doc *d, mb_scene_section *s, mb_scene_materials *M, mb_scene_law *L)
{
    mb_scene_entry *law = mb_scene_get(s, "law"), *between = mb_scene_get(s, "between");
    int st = mb_scene_check_keys(d, s, contact_keys);
    memset(L, 0, sizeof *L);
    L->section = s;
    L->ma = L->mb = -1;                     /* the default law */
    if (st)
        return st;
    for (int k = 0; law && laws[k]; k++)
        if (strcmp(law->value, laws[k]) == 0)
            L->kind = k + 1;
    if (law && L->kind == 0) {
        const char *hint = mb_suggest(law->value, laws);
        return mb_scene_fail(d, law->line, "law = %s: use signorini, linear or hertz%s%s%s", law->value,
                             hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
    }
    if (L->kind == 0)
        L->kind = MB_LAW_SIGNORINI;
    if ((s->name[0] != '\0') != (between != NULL))
        return mb_scene_fail(d, s->line, "[contact NAME] takes 'between = A, B' (two materials); "
                             "[contact] alone is the law of every other pair");
    if (between) {
        char a[64], b[64], extra[2];
        if (sscanf(between->value, " %63[^, ] , %63[^, ] %1s", a, b, extra) != 2)
            return mb_scene_fail(d, between->line, "between = %s: write two material names, A, B",
                                 between->value);
        L->ma = mb_scene_material(M, a);
        L->mb = mb_scene_material(M, b);
    }
    if (L->kind == MB_LAW_SIGNORINI) {
        if ((st = mb_scene_opt_double(d, s, "friction", &L->mu)) || (st = mb_scene_opt_double(d, s, "restitution", &L->e)))
            return st;
        if (!(L->mu >= 0) || !(L->e >= 0 && L->e <= 1))
            return mb_scene_fail(d, s->line, "[contact%s%s]: need friction >= 0 and restitution in "
                                 "[0, 1]", s->name[0] ? " " : "", s->name);
        for (int k = 4; contact_keys[k]; k++)
            if (mb_scene_get(s, contact_keys[k]))
                return mb_scene_fail(d, mb_scene_get(s, contact_keys[k])->line, "'%s' belongs to "
                                     "the DEM laws (law = linear | hertz)", contact_keys[k]);
        return MB_SUCCESS;
    }
    if (mb_scene_get(s, "restitution"))
        return mb_scene_fail(d, mb_scene_get(s, "restitution")->line, "the DEM laws take no "
                             "restitution (it follows from the dashpot)");
    int st2 = read_dem_params(d, s, L);
    return st2 ? st2 : read_friction(d, s, L);
}

int mb_scene_read_laws(const mb_scene_doc *d, mb_scene_materials *M, mb_scene_law *out, size_t *count)
{
    *count = 0;
    int solfec = -1;
    for (size_t k = 0; k < d->n; k++) {
        mb_scene_section *s = &d->sec[k];
        if (strcmp(s->kind, "contact") != 0)
            continue;
        if (*count == MB_SCENE_LAWS_MAX)
            return mb_scene_fail(d, s->line, "more than %d contact laws", MB_SCENE_LAWS_MAX);
        mb_scene_law *L = &out[*count];
        int st = read_law(d, s, M, L);
        if (st != MB_SUCCESS)
            return st;
        int is_solfec = L->kind == MB_LAW_SIGNORINI;
        if (solfec >= 0 && solfec != is_solfec)
            return mb_scene_fail(d, s->line, "a scene uses Signorini laws (solfec) or DEM laws "
                                 "(linear, hertz), not both");
        solfec = is_solfec;
        for (size_t j = 0; j < *count; j++)
            if ((out[j].ma == L->ma && out[j].mb == L->mb) || (out[j].ma == L->mb && out[j].mb == L->ma))
                return mb_scene_fail(d, s->line, "a second law for the same pair (first at line %d)",
                                     out[j].section->line);
        (*count)++;
    }
    return MB_SUCCESS;
}

const mb_scene_law *mb_scene_law_of(const mb_scene_law *laws, size_t count, int a, int b)
{
    const mb_scene_law *fallback = NULL;
    for (size_t k = 0; k < count; k++) {
        if ((laws[k].ma == a && laws[k].mb == b) || (laws[k].ma == b && laws[k].mb == a))
            return &laws[k];
        if (laws[k].ma < 0)
            fallback = &laws[k];
    }
    return fallback;
}

int mb_scene_signorini_tables(const mb_scene_law *laws, size_t count, const mb_scene_materials *M,
                              double *mu, double *e)
{
    for (size_t a = 0; a < M->count; a++)
        for (size_t b = 0; b < M->count; b++) {
            const mb_scene_law *L = mb_scene_law_of(laws, count, (int)a, (int)b);
            mu[a * M->count + b] = L ? L->mu : 0.0;
            e[a * M->count + b] = L ? L->e : 0.0;
        }
    return MB_SUCCESS;
}

/* the model of law L for sphere pairs (wall 0) or walls (wall 1), made on first use */
static void *dem_model(mb_system *sys, mb_scene_law *L, int wall)
{
    if (L->model[wall] == NULL)
        L->model[wall] = mb_scene_place_dem_model(sys, &L->dem, wall);
    return L->model[wall];
}

int mb_scene_dem_pair(const mb_scene_doc *d, mb_system *sys, mb_scene_law *L, size_t i, size_t j,
                      const double *plane_point, const double *plane_normal,
                      const double *box_half)
{
    int wall = plane_point != NULL || sys->nodes->inv_mass[j] == 0.0;
    void *m = dem_model(sys, L, wall);
    int st = m == NULL ? mb_last_error_code()
             : box_half ? mb_contact_add_box(m, sys->nodes, i, j, box_half)
             : mb_scene_place_dem_pair(sys, m, i, j, plane_point, plane_normal);
    return st == MB_SUCCESS ? st : mb_scene_fail(d, L->section->line, "%s", mb_last_error());
}
