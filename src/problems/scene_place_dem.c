/* scene_place_dem.c -- the DEM contact models of a scene from numbers (mb_scene_place.h):
 * the normal law of a pair of materials (doc/scenes.md, "Contact") and its sphere pairs
 * and sphere-plane pairs.  The [contact] sections with law = linear | hertz
 * (scene_contact.c) and the sphere contact presets (sphere-collision, sphere-wall,
 * sphere-settle) build their contact models through these.
 *   linear: kn with the dashpot c, or with the ratio zeta (c = 2 zeta sqrt(m* kn) per pair);
 *   hertz:  E* = E / (2 (1 - nu^2)) between two spheres of the material, E / (1 - nu^2)
 *           against a rigid plane or a static sphere (wall), Tsuji ratio zeta
 * (coefficients per pair: mb_contact.h); with friction the frictional laws of the same
 * normal law (Cundall-Strack, Hertz-Mindlin) with mu, kt_ratio, zeta_t, mu_roll. */
#include "mb_scene_place.h"
#include "mb_contact.h"
#include "mb_status.h"

void *mb_scene_place_dem_model(mb_system *sys, const mb_scene_dem_law *L, int wall)
{
    void *m;
    const mb_force_type *type;
    const mb_contact_friction_params fr = { .mu = L->mu, .kt_ratio = L->kt_ratio,
                                            .zeta_t = L->zeta_t, .mu_roll = L->mu_roll };
    if (!L->hertz) {
        mb_contact_linear_params p = { .kn = L->kn, .dashpot = L->by_ratio ? MB_DASHPOT_RATIO : MB_DASHPOT_COEFF,
                                       .c = L->c, .zeta = L->zeta, .attractive = L->attractive };
        m = L->friction ? mb_contact_cundall_strack_new(&p, &fr) : mb_contact_linear_new(&p);
        type = L->friction ? mb_force_contact_cundall_strack : mb_force_contact_linear;
    } else {
        double estar = L->young / ((wall ? 1.0 : 2.0) * (1.0 - L->poisson * L->poisson));
        mb_contact_hertz_params p = { .estar = estar, .zeta = L->zeta, .attractive = L->attractive };
        m = L->friction ? mb_contact_hertz_mindlin_new(&p, &fr) : mb_contact_hertz_new(&p);
        type = L->friction ? mb_force_contact_hertz_mindlin : mb_force_contact_hertz;
    }
    /* a failed constructor returns NULL with its error recorded; mb_forces_add passes it on */
    return mb_forces_add(sys->forces, type, m) == MB_SUCCESS ? m : NULL;
}

int mb_scene_place_dem_pair(mb_system *sys, void *model, size_t i, size_t j, const double *point,
                            const double *normal)
{
    return point ? mb_contact_add_plane(model, sys->nodes, i, point, normal)
                 : mb_contact_add_spheres(model, sys->nodes, i, j);
}
