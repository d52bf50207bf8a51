/* contact_set.h -- private layout shared by the contact models (see mb_contact.h):
 * the candidate pair list and the law's parameters.  Not installed. */
#ifndef MB_CONTACT_SET_H
#define MB_CONTACT_SET_H

#include "mb_contact.h"

struct contact_pair {
    size_t i, j;
    int plane;            /* 1: sphere i against the plane (p, n) */
    double p[3], n[3];
    double meff, reff;    /* effective mass m*, effective radius R* */
    double k, c;          /* linear: kn and dashpot c; Hertz: K and C (mb_contact.h) */
};

struct contact_set {
    const mb_force_type *type;    /* mb_force_contact_linear or mb_force_contact_hertz */
    mb_contact_linear_params lin;
    mb_contact_hertz_params hz;
    int attractive;
    size_t count, cap;
    struct contact_pair *items;
};

/* Double kinematics of one pair: delta, approach rate, unit normal (contact_pairs.c). */
int mb_contact_pair_kinematics(const struct contact_pair *cp, const mb_nodes *s,
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
/* describe hook of both laws (mb_forces.h): {"model": "contact-linear" | "contact-hertz",
 * "attractive": bool, "pairs": [{"i", "j" | "plane": {"point", "normal"}, "k", "c"}]},
 * k and c per pair: linear kn and c (F = k delta + c delta'), Hertz K and C
 * (F = K delta^(3/2) + C delta^(1/4) delta'), mb_contact.h. */
struct json_t;
int mb_contact_set_describe(const void *params, struct json_t *model);

/* The pairs of both laws' registry samples (mb_force_models.h) on the generic store s:
 * spheres 0 and 1 overlapping by 6 % of their distance, sphere 2 against a plane of no
 * special normal by 9 % of its radius, spheres 2 and 3 by 4 % of their distance (radii of
 * s set accordingly).  Takes model (NULL passes through); NULL when a pair is refused. */
void *mb_contact_sample_pairs(void *model, mb_nodes *s);

#endif
