/* force_springs.c -- Hookean springs between nodes and to anchors, with rest length and
 * an optional dashpot along the spring (seed 004: f0 = k (x1 - x0), f1 = -f0). */
#include "mb_forces.h"
#include "mb_force_models.h"
#include "linsys_sink_chain.h"
#include "linsys_sink_pass.h"
#include "mb_json.h"
#include "mb_linsys_sink.h"
#include "mb_status.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* What every pass over the springs reads of a spring, 40 bytes: its nodes, j =
 * SPRING_ANCHOR for a spring to an anchor, and k, L, c -- copies of its record's values.
 * The passes of a step read these records instead of the 120-byte mb_spring (of which they
 * read 48 bytes, and the cache lines around them): 80 bytes a spring in the two passes of
 * the implicit assembly where the records took about 210 (doc/performance-history.md,
 * "The springs' hot records, f set by their pass").  The whole record stays in items[], read
 * for an anchor or arms only. */
struct spring_hot {
    size_t i, j;
    double k, rest, c;
};

#define SPRING_ANCHOR SIZE_MAX

/* The springs; hot[m] the hot fields of items[m].  marks[m]: SPRING_ARMS when the spring
 * has arms; SPRING_FIRST_I (_J) when no earlier spring has node i (j) of spring m (the
 * pass that sets the forces writes them there, springs_eval_keep_set); and for the
 * folding of the implicit assembly (mb_linsys_sink_fold) which spring is the last on each
 * node: bit SPRING_LAST_I (_J) when no later spring has node i (j) of spring m; last[r] =
 * 1 + the last spring on node r, 0 none; touched nodes have a spring, all below top.
 * in_order: 1 while spring m joins nodes m and m + 1 for every m, none to an anchor or with
 * arms -- a chain in node order, whose passes of the implicit assembly may be the chain's
 * own (springs_keep_chain, springs_blocks_chain). */
struct spring_set {
    size_t count, cap;
    mb_spring *items;
    struct spring_hot *hot;     /* cap */
    unsigned char *marks;       /* cap */
    size_t *last, nlast;        /* nlast nodes */
    size_t touched, top;
    size_t with_arms;           /* springs with arms: the only ones that write torques */
    int in_order;               /* a chain in node order (above) */
};

#define SPRING_LAST_I 1u
#define SPRING_LAST_J 2u
#define SPRING_ARMS 4u
#define SPRING_FIRST_I 8u
#define SPRING_FIRST_J 16u

/* 1 when the spring's force and blocks use its direction n = d / l (a rest length or a
 * dashpot); the linear spring L = c = 0 needs neither n nor l */
static inline int springs_has_direction(const struct spring_hot *sp)
{
    return sp->rest != 0.0 || sp->c != 0.0;
}

/* 1 for a spring to an anchor (its record's anchored) */
static inline int springs_anchored(const struct spring_hot *sp)
{
    return sp->j == SPRING_ANCHOR;
}

/* what a pass over the springs does with their forces (springs_pass) */
#define SPRINGS_ADD 1           /* added to f */
#define SPRINGS_SET 2           /* written from +0 on each node's first spring */

/* The form of a spring's blocks (springs_block_terms): K = k I and Dv = 0 (L = c = 0);
 * K = beta n n^T + alpha I and Dv = 0 (c = 0); the dashpot's K and Dv = c n n^T */
enum { SPRINGS_LINEAR, SPRINGS_ELASTIC, SPRINGS_DASHPOT };

#define BASE_DOUBLE
#include "templates_on.h"
#include "quat_source.c"
#include "force_springs_source.c"
#include "templates_off.h"
#undef BASE_DOUBLE

#define BASE_MPFR
#include "templates_on.h"
#include "quat_source.c"
#include "force_springs_source.c"
#include "templates_off.h"
#undef BASE_MPFR

/* V = sum 1/2 k (l - L)^2 */
static double springs_potential(const void *params, const mb_nodes *s)
{
    const struct spring_set *set = params;
    struct mbq_scratch q;
    struct springs_scratch w = { .q = &q };
    double e = 0.0;
    for (size_t m = 0; m < set->count; m++) {
        springs_geometry(&set->hot[m], &set->items[m], s, &w, 0, set->items[m].has_arms);
        double stretch = w.l[0] - set->items[m].rest;
        e += 0.5 * set->items[m].k * stretch * stretch;
    }
    return e;
}

/* P = sum c (dv . n)^2 */
static double springs_dissipation(const void *params, const mb_nodes *s)
{
    const struct spring_set *set = params;
    struct mbq_scratch q;
    struct springs_scratch w = { .q = &q };
    double p = 0.0;
    for (size_t m = 0; m < set->count; m++) {
        const mb_spring *sp = &set->items[m];
        if (sp->c == 0.0
            || springs_geometry(&set->hot[m], sp, s, &w, 1, sp->has_arms) != MB_SUCCESS)
            continue;
        springs_dv_dot_n(&w);
        p += sp->c * w.a[0] * w.a[0];
    }
    return p;
}

/* Stiffness of each axis for the time-step estimate (mb_timestep.h): the Gershgorin row
 * sum of the elastic block K = k (1 - L/l) I + k (L/l) n n^T (force_springs_source.c),
 *   k_a = |k (1 - L/l) + k (L/l) n_a^2| + k (L/l) |n_a| sum_{b != a} |n_b|,
 * k on every axis for L = 0 (K = k I) or a zero-length spring (direction undefined). */
static void springs_stiffness(const void *params, const mb_nodes *s, double *kk)
{
    const struct spring_set *set = params;
    struct mbq_scratch q;
    struct springs_scratch w = { .q = &q };
    for (size_t m = 0; m < set->count; m++) {
        const mb_spring *sp = &set->items[m];
        int has_dir = sp->rest != 0.0
                      && springs_geometry(&set->hot[m], sp, s, &w, 1, sp->has_arms) == MB_SUCCESS;
        double r = has_dir ? sp->rest / w.l[0] : 0.0;
        for (int a = 0; a < 3; a++) {
            double ka = sp->k;
            if (has_dir) {
                double off = 0.0;
                for (int b = 0; b < 3; b++)
                    if (b != a)
                        off += fabs(w.n[b]);
                ka = fabs(sp->k * (1.0 - r) + sp->k * r * w.n[a] * w.n[a])
                     + sp->k * r * fabs(w.n[a]) * off;
            }
            kk[3 * sp->i + a] += ka;
            if (!sp->anchored)
                kk[3 * sp->j + a] += ka;
        }
    }
}

static void springs_free(void *params)
{
    struct spring_set *set = params;
    if (set) {
        free(set->items);
        free(set->hot);
        free(set->marks);
        free(set->last);
        free(set);
    }
}

/* {"model": "springs", "springs": [{"i", "j" | "anchor", "k", "rest", "c"}, ...]} */
static int springs_describe(const void *params, json_t *model)
{
    const struct spring_set *set = params;
    json_t *list = json_array();
    if (list == NULL || json_object_set_new(model, "springs", list) != 0
        || mb_json_set_str(model, "model", "springs"))
        return MB_ENOMEM;
    for (size_t m = 0; m < set->count; m++) {
        const mb_spring *sp = &set->items[m];
        json_t *o = json_object();
        if (o == NULL || json_array_append_new(list, o) != 0 || mb_json_set_int(o, "i", (long)sp->i)
            || (sp->anchored ? mb_json_set_vec(o, "anchor", sp->anchor, 3)
                             : mb_json_set_int(o, "j", (long)sp->j))
            || mb_json_set_num(o, "k", sp->k) || mb_json_set_num(o, "rest", sp->rest)
            || mb_json_set_num(o, "c", sp->c))
            return MB_ENOMEM;
    }
    return MB_SUCCESS;
}

/* a spring writes a torque only through an arm */
static int springs_torque_free(const void *params)
{
    return ((const struct spring_set *)params)->with_arms == 0;
}

static const mb_force_type springs_type = {
    .name = "springs",
    .eval = springs_eval,
    .eval_mpfr = springs_mpfr_eval,
    .potential = springs_potential,
    .dissipation = springs_dissipation,
    .jacobian = springs_jacobian,
    .jacobian_mpfr = springs_mpfr_jacobian,
    .eval_jacobian = springs_eval_jacobian,
    .eval_jacobian_mpfr = springs_mpfr_eval_jacobian,
    .eval_keep = springs_eval_keep,
    .blocks_kept = springs_blocks_kept,
    .forms_rhs_by_node = springs_forms_rhs,
    .eval_keep_set = springs_eval_keep_set,
    .reports_nodes_done = 1,
    .torque_free_params = springs_torque_free,
    .stiffness = springs_stiffness,
    .free = springs_free,
    .describe = springs_describe,
};

const mb_force_type *const mb_force_springs = &springs_type;

void *mb_springs_new(void)
{
    struct spring_set *set = calloc(1, sizeof *set);
    if (set == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a spring set");
    return set;
}

/* room for one more spring, and for node r in the map of last springs */
static int springs_grow(struct spring_set *set, size_t r)
{
    if (set->count == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 16;
        mb_spring *items = realloc(set->items, cap * sizeof *items);
        if (items != NULL)
            set->items = items;
        struct spring_hot *hot = realloc(set->hot, cap * sizeof *hot);
        if (hot != NULL)
            set->hot = hot;
        unsigned char *marks = realloc(set->marks, cap);
        if (marks != NULL)
            set->marks = marks;
        if (items == NULL || hot == NULL || marks == NULL)
            return MB_ENOMEM;
        set->cap = cap;
    }
    if (r >= set->nlast) {
        size_t nlast = r + 1 > 2 * set->nlast ? r + 1 : 2 * set->nlast;
        size_t *last = realloc(set->last, nlast * sizeof *last);
        if (last == NULL)
            return MB_ENOMEM;
        for (size_t q = set->nlast; q < nlast; q++)
            last[q] = 0;
        set->last = last;
        set->nlast = nlast;
    }
    return MB_SUCCESS;
}

/* spring m is now the last on node r, as its end `end`: the one before loses that mark;
 * with none before, m is also the first on r */
static void springs_mark_last(struct spring_set *set, size_t m, size_t r, unsigned end)
{
    size_t before = set->last[r];
    if (before == 0) {
        set->marks[m] |= (unsigned char)(end == SPRING_LAST_I ? SPRING_FIRST_I : SPRING_FIRST_J);
        set->touched++;
        set->top = r + 1 > set->top ? r + 1 : set->top;
    } else {
        const mb_spring *p = &set->items[before - 1];
        set->marks[before - 1] &= (unsigned char)~(p->i == r ? SPRING_LAST_I : SPRING_LAST_J);
    }
    set->last[r] = m + 1;
    set->marks[m] |= (unsigned char)end;
}

/* 1 when spring sp, the m-th of its set, is link m of a chain in node order: it joins
 * nodes m and m + 1, no anchor, no arms */
static int springs_chain_link(const mb_spring *sp, size_t m)
{
    return !sp->anchored && !sp->has_arms && sp->i == m && sp->j == m + 1;
}

int mb_springs_add(void *springs, const mb_spring *sp)
{
    struct spring_set *set = springs;
    if (!(sp->k >= 0.0) || !(sp->rest >= 0.0) || !(sp->c >= 0.0) || !isfinite(sp->k)
        || !isfinite(sp->rest) || !isfinite(sp->c))
        MB_ERROR(MB_EDOM, "spring needs finite k >= 0, rest >= 0, c >= 0 (got %g, %g, %g)",
                 sp->k, sp->rest, sp->c);
    if (!sp->anchored && sp->i == sp->j)
        MB_ERROR(MB_EINVAL, "spring connects node %zu to itself", sp->i);
    size_t top = sp->anchored || sp->i > sp->j ? sp->i : sp->j;
    if (springs_grow(set, top) != MB_SUCCESS)
        MB_ERROR(MB_ENOMEM, "cannot grow the spring list");
    size_t m = set->count++;
    set->items[m] = *sp;
    set->hot[m] = (struct spring_hot){ .i = sp->i, .j = sp->anchored ? SPRING_ANCHOR : sp->j,
                                       .k = sp->k, .rest = sp->rest, .c = sp->c };
    set->with_arms += sp->has_arms != 0;
    set->marks[m] = sp->has_arms ? SPRING_ARMS : 0u;
    set->in_order = (m == 0 || set->in_order) && springs_chain_link(sp, m);
    springs_mark_last(set, m, sp->i, SPRING_LAST_I);
    if (!sp->anchored)
        springs_mark_last(set, m, sp->j, SPRING_LAST_J);
    return MB_SUCCESS;
}

size_t mb_springs_count(const void *springs) { return ((const struct spring_set *)springs)->count; }

const mb_spring *mb_springs_items(const void *springs)
{
    return ((const struct spring_set *)springs)->items;
}

/* Registry sample (mb_force_models.h): every kind of spring on the generic store -- a
 * linear one (L = c = 0), one stretched 25 % beyond its rest length with a dashpot, one to
 * an anchor compressed to 80 %, and two with arms on the rotated, spinning bodies. */
void *mb_force_sample_springs(mb_nodes *s)
{
    void *set = mb_springs_new();
    double l01 = 0.0, l23 = 0.0;
    for (int a = 0; a < 3; a++) {
        l01 += (s->x[3 + a] - s->x[a]) * (s->x[3 + a] - s->x[a]);
        l23 += (s->x[9 + a] - s->x[6 + a]) * (s->x[9 + a] - s->x[6 + a]);
    }
    const mb_spring items[] = {
        { .i = 1, .j = 2, .k = 21.9 },
        { .i = 0, .j = 1, .k = 37.3, .rest = 0.8 * sqrt(l01), .c = 0.217 },
        { .i = 3, .anchored = 1, .anchor = { 3.4, 1.3, -0.2 }, .k = 11.3, .rest = 3.1,
          .c = 0.13 },
        { .i = 2, .j = 3, .k = 17.0, .rest = 0.9 * sqrt(l23), .c = 0.09, .has_arms = 1,
          .arm_i = { 0.12, -0.05, 0.07 }, .arm_j = { -0.03, 0.08, 0.11 } },
        { .i = 0, .anchored = 1, .anchor = { -0.6, 0.4, 0.9 }, .k = 7.7, .rest = 0.35,
          .c = 0.05, .has_arms = 1, .arm_i = { 0.09, 0.04, -0.06 } },
    };
    for (size_t m = 0; set != NULL && m < sizeof items / sizeof items[0]; m++)
        if (mb_springs_add(set, &items[m]) != MB_SUCCESS) {
            springs_free(set);
            return NULL;
        }
    return set;
}
