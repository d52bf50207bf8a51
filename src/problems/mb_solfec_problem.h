/* mb_solfec_problem.h -- helpers shared by the problems of the solfec scheme
 * (box-on-plane, pendulum-link, bouncing-sphere): the solver figures every observer
 * reports, read from the system's constraint scene.  Static inline, double. */
#ifndef MB_SOLFEC_PROBLEM_H
#define MB_SOLFEC_PROBLEM_H

#include "mb_contact_problem.h"
#include "mb_problem.h"
#include "mb_scene.h"

/* solver.iterations_mean, solver.merit_max, solver.not_converged of the run so far, and
 * constraints.rank_deficiency (redundant bilateral rows, a note) when there are constraints */
static inline void mb_solfec_observe_solver(const mb_system *sys, mb_observation *out)
{
    const mb_scene *s = mb_scene_of(sys->forces);
    if (s == NULL || s->stats.steps == 0)
        return;
    mb_observation_add(out, "solver.iterations_mean",
                       (double)s->stats.iterations_total / (double)s->stats.steps);
    mb_observation_add(out, "solver.merit_max", s->stats.merit_max);
    mb_observation_add(out, "solver.not_converged", (double)s->stats.not_converged);
    if (s->stats.bilateral_rows > 0)
        mb_observation_add(out, "constraints.rank_deficiency", (double)s->stats.rank_deficiency);
}

/* Add a scene (owned by sys->forces) and return it; NULL with a recorded error. */
static inline mb_scene *mb_solfec_scene(mb_system *sys, double mu, double e)
{
    mb_scene *s = mb_scene_new(sys->nodes->n, mu, e);
    if (s == NULL)
        return NULL;
    if (mb_forces_add(sys->forces, mb_force_scene, s) != MB_SUCCESS)
        return NULL;                  /* mb_forces_add has freed s */
    return s;
}

#endif
