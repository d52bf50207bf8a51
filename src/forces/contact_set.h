/* contact_set.h -- private layout shared by the contact models (see mb_contact.h):
 * the candidate pair list and the law's parameters.  Not installed. */
#ifndef MB_CONTACT_SET_H
#define MB_CONTACT_SET_H

#include "mb_contact.h"
#include "mb_neighbour.h"

#include <mpfr.h>
#include <stdint.h>

struct contact_pair {
    /* the fields a force evaluation reads of every pair, in the first 64 bytes */
    size_t i, j;
    double k, c;          /* linear: kn and dashpot c; Hertz: K and C (mb_contact.h) */
    /* frictional laws: tangential stiffness and dashpot, k_t = kt delta^{e/2},
     * gamma_t = ct delta^{e/4} with e = 0 (linear) or 1 (Hertz-Mindlin); rolling arm
     * mu_r R* */
    double kt, ct, roll;
    int plane;            /* 1: sphere i against the plane (p, n); 2 + b: sphere i against
                           * the static box b of the set (a wall whose plane follows the
                           * sphere, mb_contact_wall_plane) */
    /* periodic image of sphere j (neighbour mode): the pair's separation is
     * x_j + shift - x_i, shift = H p for the periods p of the image (a box's axes or a
     * deforming cell's sides), and the image moves at v_j + vshift, vshift = L H p in a
     * cell of velocity gradient L (zero in a fixed box); zero for pairs added by hand */
    int imaged;
    double shift[3], vshift[3], period[3];
    double p[3], n[3];
    double meff, reff;    /* effective mass m*, effective radius R* */
};

/* The periodic images of a set in neighbour mode (contact_neighbours.c) whose periods p
 * are each -1, 0 or +1, one entry for each pattern of p (each zero with its sign, which
 * the shift's zeros keep): the shift and velocity of that image, equal bit for bit to
 * those of every pair record with these periods (the same function of p computes both),
 * so that the rows' kernel reads them from this table -- a few lines that stay in the L1
 * cache -- instead of from each imaged pair's record, whose shift lies beyond the hot
 * 64 bytes in a line of its own, brought from memory for every imaged pair of a large
 * packing.  imaged[p] of list pair p: 0 no image, 1 + the entry, or CONTACT_IMAGE_RECORD
 * for periods beyond +-1 (positions not wrapped: the record is read). */
#define CONTACT_IMAGES 64
#define CONTACT_IMAGE_RECORD 255
struct contact_image {
    double shift[3], vshift[3], period[3];
};

/* A static box of a set: centre, rotation (global = R body, row-major) and half-extents. */
struct contact_box {
    double x[3], R[9], half[3];
};

/* Which normal force a law uses. */
enum contact_normal { CONTACT_NORMAL_LINEAR, CONTACT_NORMAL_HERTZ };

/* The contact history of a frictional law (contact_history.c): per pair the elastic
 * tangential displacement xi at the base time level and at the candidate level, for the
 * double and the MPFR instances separately (each its own run).  Mutable behind the const
 * parameters a force evaluation receives. */
struct contact_history;

struct contact_set {
    const mb_force_type *type;    /* mb_force_contact_linear or mb_force_contact_hertz */
    mb_contact_linear_params lin;
    mb_contact_hertz_params hz;
    int attractive;
    enum contact_normal normal;
    int friction;                 /* 1: a tangential law (mb_contact_friction_params) */
    mb_contact_friction_params fr;
    struct contact_history *hist; /* frictional laws: the contact history */
    size_t count, cap;
    struct contact_pair *items;
    size_t nboxes;                /* the static boxes of the sphere-box pairs */
    struct contact_box *boxes;
    /* neighbour mode (contact_neighbours.c): the sphere pairs are the pairs of the shared
     * list nl, items[nwalls .. count) in the list's (i, j) order after the walls
     * items[0 .. nwalls); rebuilt from the list whenever it was rebuilt (builds_seen) */
    mb_neighbour_list *nl;
    size_t nwalls, nodes;
    unsigned long builds_seen;
    size_t *old_ij;               /* 2 cap entries: (i, j) of the previous build's pairs */
    size_t *from;                 /* cap entries: old index of each new pair, or SIZE_MAX */
    unsigned char *imaged;        /* cap entries: the image code of list pair p (items[nwalls
                                   * + p]): 0, 1 + its entry in images, or
                                   * CONTACT_IMAGE_RECORD (struct contact_image) */
    struct contact_image images[CONTACT_IMAGES];
    uint64_t images_used;         /* bit e: images[e] holds the image of some pair */
    /* 1 when every sphere pair of the list has the coefficients k, c, kt, ct, roll of
     * items[nwalls] (a monodisperse packing): the evaluation reads them once */
    int uniform;
};

/* Bring the pairs of a set in neighbour mode up to date with the positions of s: update
 * the list and, when it was rebuilt, make the pairs again from it and carry every
 * surviving pair's contact history over by its (i, j) (contact_neighbours.c).  Nothing
 * for a set of fixed pairs. */
int mb_contact_set_sync(const struct contact_set *set, const mb_nodes *s);
/* periodic hook of the contact types (mb_forces.h): 1 in neighbour mode on a periodic
 * box or a deforming cell (contact_neighbours.c). */
int mb_contact_set_periodic(const void *params);
/* A pair of spheres i, j with its coefficients (no checks; contact_pairs.c). */
void mb_contact_pair_make(const struct contact_set *set, const mb_nodes *s, size_t i, size_t j,
                          struct contact_pair *cp);
/* Carry the history over to a new pair order: new pair m takes the old pair from[m]'s xi
 * and k_t (base and candidate) and sliding flag, or zero when from[m] == SIZE_MAX (double
 * instance only; contact_history.c). */
int mb_contact_history_remap(struct contact_history *h, const size_t *from, size_t count);

/* The plane wall pair cp's sphere touches with its centre at x (double): for a plane its
 * own (p, n); for a sphere-box pair the plane through the box point q closest to x with
 * the unit normal n from the box towards x (mb_box_closest), so that the overlap
 * r_i - (x - q).n, the normal and the contact point are those of the sphere-box contact
 * and every wall formula holds.  Returns 1 when n stays fixed as x moves (a plane, a box
 * face), 0 when it turns with x (a box edge or vertex). */
int mb_contact_wall_plane(const struct contact_set *set, const struct contact_pair *cp,
                          const double x[3], double p[3], double n[3]);

/* Double kinematics of one pair: delta, approach rate, unit normal (contact_pairs.c). */
int mb_contact_pair_kinematics(const struct contact_set *set, const struct contact_pair *cp,
                               const mb_nodes *s,
                               double *delta, double *rate, double n[3]);
/* Add k |n_a| sum_b |n_b| (row sum of k n n^T) of one pair to the per node and axis
 * stiffness array. */
void mb_contact_pair_stiffness(const struct contact_pair *cp, double k, const double n[3],
                               double *kk);
void mb_contact_set_free(void *params);

/* A law in double, for the energy hooks of both models: the elastic energy of an overlap,
 * the force magnitude before the clamp and its elastic part, the tangent stiffness
 * dF/d delta of the elastic part. */
struct contact_law {
    double (*energy)(const struct contact_pair *cp, double delta);
    double (*force)(const struct contact_pair *cp, double delta, double rate, double *elastic);
    double (*tangent)(const struct contact_pair *cp, double delta);
};
/* The two normal laws in double (force_contact_linear.c, force_contact_hertz.c), also
 * the normal part of the frictional laws. */
extern const struct contact_law mb_contact_law_linear, mb_contact_law_hertz;
/* The loops over the pairs in contact (contact_pairs.c), one home for both laws:
 * V = sum of the elastic energies; P = sum (F - F_elastic) delta' >= 0 with F clamped as
 * the set says (the dashpot's power and, while clamped, the release of the elastic energy
 * no force carries away); the tangent stiffness of every pair added to kk as
 * mb_contact_pair_stiffness does. */
double mb_contact_set_potential(const struct contact_set *set, const mb_nodes *s,
                                const struct contact_law *law);
double mb_contact_set_dissipation(const struct contact_set *set, const mb_nodes *s,
                                  const struct contact_law *law);
void mb_contact_set_stiffness(const struct contact_set *set, const mb_nodes *s,
                              const struct contact_law *law, double *kk);
/* describe hook of every law (mb_forces.h): {"model": "contact-linear" | "contact-hertz" |
 * ..., "attractive": bool, the laws by name, "pairs": [{"i", "j" | "plane": {"point",
 * "normal"}, "k", "c", ...}]}, k and c per pair: linear kn and c (F = k delta + c delta'),
 * Hertz K and C (F = K delta^(3/2) + C delta^(1/4) delta'), mb_contact.h.  In neighbour
 * mode the model is "granular-linear" | "granular-hertz" | ... (every pair of spheres, the
 * law's parameters kn and c, the list's boundary and box) and "pairs" lists the walls only
 * (doc/external.md, section 3). */
struct json_t;
int mb_contact_set_describe(const void *params, struct json_t *model);

/* The pairs of both laws' registry samples (mb_force_models.h) on the generic store s:
 * spheres 0 and 1 overlapping by 6 % of their distance, sphere 2 against a plane of no
 * special normal by 9 % of its radius, spheres 2 and 3 by 4 % of their distance (radii of
 * s set accordingly).  Takes model (NULL passes through); NULL when a pair is refused. */
void *mb_contact_sample_pairs(void *model, mb_nodes *s);

/* ---- contact history (contact_history.c) ---- */

/* The time levels of one instance's history: base tb (the last completed level, whose xi
 * is kept) and candidate tc (the latest evaluation's); NaN before the first evaluation.
 * one_level: the caller evaluates each level once (mb_contact_history_in_place), so a new
 * level is opened in place; in_place: the current level was, its candidate written over
 * its base (xc is both), which is then gone: no evaluation may come back to the level. */
struct contact_level {
    double tb, tc;
    int one_level, in_place;
};

/* The works a frictional law books at its levels (doc/dem.md, "Energy of the tangential
 * spring"): slip, the spring energy the Coulomb limit removes from the trial (with the
 * spring energy a pair still holds when it opens); stiffness, the work of Hertz-Mindlin's
 * k_t(delta) changing under a held xi. */
struct contact_works {
    double slip, stiffness;
};

/* The account one instance keeps in double of its levels, for the energy hooks and the
 * observers (which receive double states): per pair whether the candidate slid, k_t at the
 * base and the candidate (0 apart), and the works booked through tb and by the candidate
 * level alone.  The MPFR instance books from its values rounded to double (bit for bit the
 * double instance's at 53 bits) and keeps its candidate xi in double beside them (xi); the
 * double instance's xi is its xc itself (xi NULL). */
struct contact_books {
    unsigned char *sliding;
    double *ktb, *ktc;
    const double *kb;             /* k_t at the base, set at each level: ktb, or ktc itself
                                   * on a level opened in place (read before it is written) */
    double *xi;                   /* MPFR instance: xc rounded to double, 3 per pair */
    struct contact_works wb, wc;
};

struct contact_history {
    size_t cap;                   /* pairs the arrays hold */
    struct contact_level lev;     /* double instance */
    double *xb, *xc;              /* xi at tb and tc, 3 per pair */
    struct contact_books d;       /* double instance's account (cap pairs) */
    struct contact_level lev_m;   /* MPFR instance */
    mpfr_prec_t prec;             /* of the MPFR arrays; 0 until the first MPFR evaluation */
    size_t cap_m;
    __mpfr_struct *xb_m, *xc_m;
    struct contact_books m;       /* MPFR instance's account (cap_m pairs) */
    /* the account of the instance that evaluated last (&d or &m): the energy hooks and
     * mb_contact_history read it, so that an MPFR twin's energies are its own (a run
     * evaluates one instance; the round-off split, which steps both, reads no energy) */
    const struct contact_books *live;
};

/* xi of pair m in the live account, in double (contact_history.c). */
const double *mb_contact_history_xi(const struct contact_history *h, size_t m);

/* Room for count pairs in the double arrays (new pairs zero); MB_ENOMEM recorded. */
int mb_contact_history_reserve(struct contact_history **h, size_t count);
/* MPFR arrays for count pairs at precision prec; (re)made zero with their levels reset
 * when the precision or the count changed. */
int mb_contact_history_mpfr_ready(struct contact_history *h, size_t count, mpfr_prec_t prec);
void mb_contact_history_free(struct contact_history *h);
/* xi at the base level of the double instance: xb, or xc itself on a level opened in
 * place (read before the candidate is written over it, pair by pair). */
static inline double *mb_contact_history_base(struct contact_history *h)
{
    return h->lev.in_place ? h->xc : h->xb;
}
/* Move the levels to an evaluation at time t: t > tc opens a new level (*commit = 1,
 * tb = old tc: the caller makes the candidate the base -- by exchanging the arrays, or,
 * with L->one_level, by keeping it where it is and writing the new candidate over it,
 * L->in_place = 1); tb <= t <= tc re-evaluates from the base; the first evaluation sets
 * tb = tc = t with xi = 0.  *dt = t - tb.  t < tb is refused (MB_EDOM, naming the law): the
 * history before tb is gone; so is t <= tc on a level opened in place. */
int mb_contact_level_move(struct contact_level *L, double t, const char *law, int *commit,
                          double *dt);

#endif
