/* mb_force_expr.h -- force and torque on one node given by expressions of time and
 * state (force_expr.c), parsed and differentiated by GNU libmatheval.
 *
 * Variables an expression may use (mb_expr_variables): t; x, y, z (position); vx, vy, vz
 * (velocity); wx, wy, wz (global angular velocity); r11 .. r33 (the rotation matrix R(q),
 * body to global, row-major).  A potential V may be given (a function of x, y, z and the
 * r entries only); the model then reports V as its potential energy and no external
 * power for the force, and the caller is expected to have checked f = -grad V
 * (mb_expr_force_check).  A V that uses an r entry is the torque's potential too: the
 * torque's power is then not external either, and the caller is expected to have checked
 * tau = -dV/dtheta (mb_expr_torque_check) at several orientations.
 * Without V the model reports the external power f.v + tau.w, so the energy balance
 * stays exact either way.  df/dx and df/dv come from evaluator_derivative.  The model
 * has no MPFR instance (libmatheval evaluates in double): the mpfr reference refuses a
 * system that uses it. */
#ifndef MB_FORCE_EXPR_H
#define MB_FORCE_EXPR_H
#include "mb_forces.h"

extern const mb_force_type *const mb_force_expr;

/* NULL-terminated list of the variable names above. */
const char *const *mb_expr_variables(void);

/* Parse text (thread-safe: libmatheval's parser is not re-entrant, calls are serialised).
 * NULL with MB_EINVAL recorded when it does not parse or uses a name outside allowed
 * (the message names the first unknown variable). */
void *mb_expr_parse(const char *text, const char *const *allowed);
void mb_expr_free(void *expr);

/* A model on node `node` with the given parsed expressions (any may be NULL: zero); it
 * takes ownership of them.  f[3], tau[3], V. */
void *mb_expr_force_new(size_t node, void *f[3], void *tau[3], void *V);

/* Largest |f + grad V| at the state s (time t), relative to max(|f|, |grad V|, 1), by
 * symbolic gradients: the consistency check of a potential given with a force. */
double mb_expr_force_check(const void *model, const mb_nodes *s, double t);

/* 1 when the model's V uses an r entry (it is then the torque's potential). */
int mb_expr_force_potential_turns(const void *model);
/* Largest |tau - tau_V| at the state s (time t), relative to max(|tau|, |tau_V|, 1), with
 * tau the torque expressions and tau_V = -dV/dtheta = sum_j (dV/dR)_j x R_j (symbolic
 * derivatives in r_ij; force_expr.c); both are returned. */
double mb_expr_torque_check(const void *model, const mb_nodes *s, double t, double tau[3],
                            double tau_V[3]);
#endif
