/* scene_place_solfec.c -- the solfec constraint scene of a system from numbers
 * (mb_scene_place.h): contact shapes of the bodies, plane obstacles and the
 * Signorini-Coulomb laws per pair of materials (doc/scenes.md, "Obstacles", "Contact").
 * The [obstacle] and [contact] sections (scene_constraint.c) and the solfec presets
 * (box-on-plane, bouncing-sphere, pendulum-link) build their scenes through these. */
#include "mb_scene_place.h"
#include "mb_solfec_problem.h"
#include "mb_status.h"

mb_scene *mb_scene_place_solfec(mb_system *sys, const mb_scene_body *bodies)
{
    mb_scene *sc = mb_solfec_scene(sys, 0.0, 0.0);
    int st = MB_SUCCESS;
    for (size_t i = 0; sc != NULL && i < sys->nodes->n && st == MB_SUCCESS; i++)
        if (bodies[i].type == MB_SCENE_SPHERE)
            st = mb_scene_set_sphere(sc, i, bodies[i].extent[0]);
        else if (bodies[i].type == MB_SCENE_BOX)
            st = mb_scene_set_box(sc, i, bodies[i].extent);
    return st == MB_SUCCESS ? sc : NULL;    /* sc stays owned by sys->forces */
}

int mb_scene_place_plane(mb_scene *sc, const double point[3], const double normal[3], int m)
{
    int st = mb_scene_add_plane(sc, point, normal);
    if (st == MB_SUCCESS)
        sc->planes[sc->nplanes - 1].material = m;
    return st;
}

int mb_scene_place_laws(mb_scene *sc, size_t count, const double *mu, const double *e,
                        const int *node_material)
{
    int st = mb_scene_set_materials(sc, count, mu, e);
    for (size_t i = 0; i < sc->nbodies && st == MB_SUCCESS; i++)
        st = mb_scene_set_material(sc, i, node_material[i]);
    return st;
}

int mb_scene_place_solfec_body(const mb_scene_body *body, const mb_scene_pose *pose,
                               const double g[3], double mu, double e, mb_system **sys,
                               mb_scene **sc)
{
    int material = 0, st;
    mb_scene_body shape = *body;
    mb_scene_pose placed = *pose;
    double volume, Iunit[3];
    mb_scene_shape(&shape, &volume, Iunit);
    placed.radius = shape.radius;
    *sys = mb_system_alloc(1);
    *sc = NULL;
    if (*sys == NULL)
        return MB_ENOMEM;
    mb_scene_place_body((*sys)->nodes, 0, &placed);
    st = mb_scene_add_gravity(*sys, g);
    if (st == MB_SUCCESS && (*sc = mb_scene_place_solfec(*sys, &shape)) == NULL)
        st = mb_last_error_code();
    if (st == MB_SUCCESS)
        st = mb_scene_place_laws(*sc, 1, &mu, &e, &material);
    if (st != MB_SUCCESS) {
        mb_system_free(*sys);
        *sys = NULL;
    }
    return st;
}

int mb_scene_place_floor(mb_system **sys, mb_scene *sc)
{
    double o[3] = { 0, 0, 0 }, n[3] = { 0, 0, 1 };
    int st = mb_scene_place_plane(sc, o, n, 0);
    if (st != MB_SUCCESS) {
        mb_system_free(*sys);
        *sys = NULL;
    }
    return st;
}
