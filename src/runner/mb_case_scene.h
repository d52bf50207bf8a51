/* mb_case_scene.h -- what the case loader knows of scenes (case_scene.c): the scene
 * sections it leaves to the `scene` problem, and the problem's `file` parameter it fills
 * in with the case file's own path. */
#ifndef MB_CASE_SCENE_H
#define MB_CASE_SCENE_H
#include "mb_options.h"
#include "mb_problem.h"
#include "mb_reference.h"

/* 1 for [body NAME], [force NAME], [constraint NAME], [obstacle NAME], [contact]. */
int mb_case_scene_section(const char *name);
/* "did you mean" text for an unknown section that is a misspelt scene section
 * ("bdy ball" -> "body ball") written into buf, or NULL. */
const char *mb_case_scene_hint(const char *name, char *buf, size_t size);
/* For problem = scene, set file = path unless [problem] gives one; for another problem
 * with scene sections (first at scene_line, 0: none), MB_EINVAL with a message. */
int mb_case_scene_file(const mb_problem_type *pt, const char *path, int scene_line,
                       mb_options *given);
/* reference = analytic or auto on a scene: its [exact] sections must give every body a
 * closed form equal to the initial state at t = 0 (a located error otherwise). */
int mb_case_scene_reference(const mb_problem_type *pt, const mb_options *params,
                            mb_reference_kind kind);
/* For problem = scene: the first [force NAME] section whose type is the force model
 * type_name, refused with "SCENE:LINE: [force NAME] (type = T): why" (MB_EINVAL);
 * MB_ENOTFOUND when the problem is not a scene or no section has that type. */
int mb_case_scene_force_refused(const mb_problem_type *pt, const mb_options *params,
                                const char *type_name, const char *why);
/* 1 when msg starts with "path:" (a scene error that names its own line). */
int mb_case_scene_located(const char *path, const char *msg);
#endif
