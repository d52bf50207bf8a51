/* scene_assembly.c -- [assembly NAME] sections of a scene: many spheres from one generator
 * (doc/scenes.md, "Assemblies").  The section is read into the assembly description of
 * mb_assembly.h and placed by mb_assembly_place, the code the many-body problems
 * (granular-gas, granular-column) place their spheres with:
 *   generator = lattice   lattice = sc | bcc | fcc, cells = nx, ny, nz, spacing = a,
 *                         offset (units of a), radius
 *   generator = packing   count, box = Lx, Ly, Lz | fraction (with width: W x W x H),
 *                         periodic = axes, radius | rmin + rmax, seed, attempts
 *   both                  density | mass, velocity | temperature (+ velocity_seed),
 *                         material
 * Every mistake is "file:line: message" (MB_EINVAL); a packing the generator cannot reach
 * is refused at the section's line with the generator's reason. */
#include "mb_options.h"
#include "mb_scene_assembly.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const assembly_keys[] = {
    "generator", "lattice", "cells", "spacing", "offset", "count", "box", "fraction", "width",
    "periodic", "radius", "rmin", "rmax", "seed", "attempts", "density", "mass", "velocity",
    "temperature", "velocity_seed", "material", NULL
};
static const char *const generators[] = { "lattice", "packing", NULL };
static const char *const lattices[] = { "sc", "bcc", "fcc", NULL };
static const char *const lattice_only[] = { "lattice", "cells", "spacing", "offset", NULL };
static const char *const packing_only[] = { "count", "box", "fraction", "width", "periodic",
                                            "rmin", "rmax", "seed", "attempts", NULL };

/* an integer in [lo, hi] written as a number (1e6 is 1000000) */
static int read_integer(const mb_scene_doc *d, const mb_scene_entry *e, double lo, double hi,
                        double *out)
{
    int st = mb_scene_double(d, e, out);
    if (st != MB_SUCCESS)
        return st;
    if (!(*out == floor(*out) && *out >= lo && *out <= hi))
        return mb_scene_fail(d, e->line, "%s = %s: need an integer in [%.0f, %.0f]", e->key,
                             e->value, lo, hi);
    return MB_SUCCESS;
}

static int opt_integer(const mb_scene_doc *d, mb_scene_section *s, const char *key, double lo,
                       double hi, unsigned long *out)
{
    mb_scene_entry *e = mb_scene_get(s, key);
    double v;
    int st = e ? read_integer(d, e, lo, hi, &v) : MB_SUCCESS;
    if (e && st == MB_SUCCESS)
        *out = (unsigned long)v;
    return st;
}

/* a value of a word list, with a "did you mean" hint */
static int read_word(const mb_scene_doc *d, mb_scene_section *s, const char *key,
                     const char *const *words, int *out)
{
    mb_scene_entry *e = mb_scene_get(s, key);
    if (e == NULL)
        return mb_scene_fail(d, s->line, "[assembly %s] needs '%s'", s->name, key);
    for (int k = 0; words[k]; k++)
        if (strcmp(e->value, words[k]) == 0) {
            *out = k;
            return MB_SUCCESS;
        }
    const char *hint = mb_suggest(e->value, words);
    char list[64] = "";
    for (int k = 0; words[k]; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? " | " : "", words[k]);
    return mb_scene_fail(d, e->line, "%s = %s: unknown %s (use %s)%s%s%s", key, e->value, key,
                         list, hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
}

/* keys that belong to the other generator are refused, not ignored */
static int refuse_keys(const mb_scene_doc *d, mb_scene_section *s, const char *const *keys,
                       const char *generator)
{
    for (int k = 0; keys[k]; k++) {
        mb_scene_entry *e = mb_scene_get(s, keys[k]);
        if (e)
            return mb_scene_fail(d, e->line, "'%s' does not apply to generator = %s", keys[k],
                                 generator);
    }
    return MB_SUCCESS;
}

static int read_lattice(const mb_scene_doc *d, mb_scene_section *s, mb_assembly_spec *a)
{
    int kind, st = read_word(d, s, "lattice", lattices, &kind);
    double cells[3];
    if (st || (st = refuse_keys(d, s, packing_only, "lattice"))
        || (st = mb_scene_req_vector(d, s, "cells", cells, 3))
        || (st = mb_scene_req_double(d, s, "spacing", &a->spacing))
        || (st = mb_scene_opt_vector(d, s, "offset", a->offset, 3))
        || (st = mb_scene_req_double(d, s, "radius", &a->rmin)))
        return st;
    a->lattice = (mb_lattice_kind)kind;
    a->rmax = a->rmin;
    mb_scene_entry *c = mb_scene_get(s, "cells");
    for (int k = 0; k < 3; k++) {
        if (!(cells[k] == floor(cells[k]) && cells[k] >= 1 && cells[k] <= MB_SCENE_ASSEMBLY_MAX))
            return mb_scene_fail(d, c->line, "cells = %s: need three integers >= 1", c->value);
        a->cells[k] = (size_t)cells[k];
    }
    size_t n = mb_assembly_count(a);
    if (n == 0 || n > MB_SCENE_ASSEMBLY_MAX)
        return mb_scene_fail(d, c->line, "cells = %s: %g sites (basis x cells) exceed %d",
                             c->value, cells[0] * cells[1] * cells[2] * (double)mb_lattice_basis(a->lattice),
                             MB_SCENE_ASSEMBLY_MAX);
    if (!(a->spacing > 0))
        return mb_scene_fail(d, mb_scene_get(s, "spacing")->line, "spacing = %g: need a > 0",
                             a->spacing);
    return MB_SUCCESS;
}

/* periodic = letters of xyz (or none) */
static int read_periodic(const mb_scene_doc *d, mb_scene_section *s, int periodic[3])
{
    mb_scene_entry *e = mb_scene_get(s, "periodic");
    if (e == NULL || strcmp(e->value, "none") == 0)
        return MB_SUCCESS;
    for (const char *p = e->value; *p; p++) {
        const char *at = strchr("xyz", *p);
        if (at == NULL || periodic[at - "xyz"])
            return mb_scene_fail(d, e->line, "periodic = %s: write the periodic axes once each, "
                                 "letters of xyz (or none)", e->value);
        periodic[at - "xyz"] = 1;
    }
    return MB_SUCCESS;
}

static int read_radii(const mb_scene_doc *d, mb_scene_section *s, mb_assembly_spec *a)
{
    mb_scene_entry *r = mb_scene_get(s, "radius"), *lo = mb_scene_get(s, "rmin");
    mb_scene_entry *hi = mb_scene_get(s, "rmax");
    int st;
    if (r && (lo || hi))
        return mb_scene_fail(d, r->line, "give 'radius' (equal spheres) or 'rmin' and 'rmax' "
                             "(polydisperse), not both");
    if (r) {
        st = mb_scene_double(d, r, &a->rmin);
        a->rmax = a->rmin;
    } else if (!lo || !hi) {
        return mb_scene_fail(d, s->line, "[assembly %s] needs 'radius', or 'rmin' and 'rmax'",
                             s->name);
    } else if ((st = mb_scene_double(d, lo, &a->rmin)) == MB_SUCCESS) {
        st = mb_scene_double(d, hi, &a->rmax);
    }
    if (st == MB_SUCCESS && !(a->rmin > 0 && a->rmax >= a->rmin))
        return mb_scene_fail(d, (r ? r : hi)->line, "radii %g, %g: need 0 < rmin <= rmax",
                             a->rmin, a->rmax);
    return st;
}

/* the region: box = Lx, Ly, Lz, or fraction (a cube; with width W: W x W x H) */
static int read_region(const mb_scene_doc *d, mb_scene_section *s, mb_assembly_spec *a)
{
    mb_scene_entry *box = mb_scene_get(s, "box"), *f = mb_scene_get(s, "fraction");
    mb_scene_entry *w = mb_scene_get(s, "width");
    double fraction, width = 0.0;
    int st;
    if ((box != NULL) == (f != NULL))
        return mb_scene_fail(d, box ? box->line : s->line, "[assembly %s]: give the region as "
                             "'box' or as 'fraction' (with an optional 'width'), one of them",
                             s->name);
    if (box)
        return w ? mb_scene_fail(d, w->line, "'width' goes with 'fraction', not 'box'")
                 : mb_scene_vector(d, box, a->box, 3);
    if ((st = mb_scene_double(d, f, &fraction)) || (w && (st = mb_scene_double(d, w, &width))))
        return st;
    if (w && !(width > 0))
        return mb_scene_fail(d, w->line, "width = %s: need W > 0", w->value);
    if (mb_packing_region(a->count, a->rmin, a->rmax, fraction, width, a->box) != MB_SUCCESS)
        return mb_scene_fail(d, f->line, "fraction = %s: %s", f->value, mb_last_error());
    return MB_SUCCESS;
}

static int read_packing(const mb_scene_doc *d, mb_scene_section *s, mb_assembly_spec *a)
{
    mb_scene_entry *c = mb_scene_get(s, "count");
    double count;
    int st = refuse_keys(d, s, lattice_only, "packing");
    if (st)
        return st;
    if (c == NULL)
        return mb_scene_fail(d, s->line, "[assembly %s] needs 'count'", s->name);
    if ((st = read_integer(d, c, 1, MB_SCENE_ASSEMBLY_MAX, &count)))
        return st;
    a->count = (size_t)count;
    a->seed = 1;
    a->attempts = 100000;
    if ((st = read_radii(d, s, a)) || (st = read_periodic(d, s, a->periodic))
        || (st = opt_integer(d, s, "seed", 0, 4294967295.0, &a->seed))
        || (st = opt_integer(d, s, "attempts", 1, 1e9, &a->attempts)))
        return st;
    return read_region(d, s, a);
}

/* density | mass; velocity | temperature (+ velocity_seed, default seed + 1) */
static int read_matter(const mb_scene_doc *d, mb_scene_section *s, mb_assembly_spec *a)
{
    mb_scene_entry *rho = mb_scene_get(s, "density"), *m = mb_scene_get(s, "mass");
    mb_scene_entry *v = mb_scene_get(s, "velocity"), *T = mb_scene_get(s, "temperature");
    int st;
    if ((rho != NULL) == (m != NULL))
        return mb_scene_fail(d, rho ? rho->line : s->line, "[assembly %s]: give 'density' or "
                             "'mass' (of every sphere), one of them", s->name);
    if ((st = mb_scene_double(d, rho ? rho : m, rho ? &a->density : &a->mass)))
        return st;
    if (!((rho ? a->density : a->mass) > 0))
        return mb_scene_fail(d, (rho ? rho : m)->line, "%s = %s: need a value > 0",
                             (rho ? rho : m)->key, (rho ? rho : m)->value);
    if (v && T)
        return mb_scene_fail(d, T->line, "give 'velocity' (every sphere) or 'temperature' "
                             "(thermal velocities), not both");
    if (v)
        return mb_scene_vector(d, v, a->velocity, 3);
    a->velocity_seed = a->seed + 1;
    if (T == NULL) {
        mb_scene_entry *vs = mb_scene_get(s, "velocity_seed");
        return vs ? mb_scene_fail(d, vs->line, "'velocity_seed' goes with 'temperature'")
                  : MB_SUCCESS;
    }
    if ((st = mb_scene_double(d, T, &a->temperature))
        || (st = opt_integer(d, s, "velocity_seed", 0, 4294967295.0, &a->velocity_seed)))
        return st;
    if (!(a->temperature > 0))
        return mb_scene_fail(d, T->line, "temperature = %s: need T > 0", T->value);
    if (mb_assembly_count(a) < 2)
        return mb_scene_fail(d, T->line, "temperature: thermal velocities need at least two "
                             "spheres (the momentum is removed)");
    return MB_SUCCESS;
}

int mb_scene_read_assembly(const mb_scene_doc *d, mb_scene_section *s, mb_assembly_spec *a)
{
    int generator, st = mb_scene_check_keys(d, s, assembly_keys);
    memset(a, 0, sizeof *a);
    if (st || (st = read_word(d, s, "generator", generators, &generator)))
        return st;
    a->generator = generator == 0 ? MB_ASSEMBLY_LATTICE : MB_ASSEMBLY_PACKING;
    st = generator == 0 ? read_lattice(d, s, a) : read_packing(d, s, a);
    return st ? st : read_matter(d, s, a);
}

int mb_scene_place_assembly(const mb_scene_doc *d, const mb_scene_section *s,
                            const mb_assembly_spec *a, mb_system *sys, mb_scene_body *bodies)
{
    if (mb_assembly_place(a, sys->nodes, s->first) != MB_SUCCESS)
        return mb_scene_fail(d, s->line, "[assembly %s]: %s", s->name, mb_last_error());
    for (size_t i = s->first; i < s->first + s->nodes; i++) {
        mb_scene_body *b = &bodies[i];
        b->type = MB_SCENE_SPHERE;
        b->mass = sys->nodes->mass[i];
        b->radius = b->extent[0] = b->extent[1] = b->extent[2] = sys->nodes->radius[i];
        for (int k = 0; k < 3; k++)
            b->inertia[k] = sys->nodes->inertia[3 * i + k];
    }
    return MB_SUCCESS;
}
