/* solfec.c -- the `solfec` scheme: Solfec-1.0 constrained rigid-body time stepping
 * (seed 003; T. Koziara and N. Bicanic, "Simple and efficient integration of rigid
 * rotations suitable for constraint solvers", IJNME 81 (2010) 1073-1092; Solfec-1.0
 * bod.c BODY_Dynamic_Step_Begin / _End).
 *
 * Body k: u = [Omega (body frame); v], A = diag(J, m I), Lambda the rotation (body ->
 * global), T the body torque, F the force, both at (q(t+h/2), u(t)).
 *   begin  DR = exp[(h/2) Omega(t)],  Lambda(t+h/2) = Lambda(t) DR,  x(t+h/2) = x + h/2 v
 *          W05 = J^-1 [DR^T J Omega(t) + (h/2) T]          (mid-step spin estimate)
 *          u~ = u(t) + h A^-1 [T - W05 x J W05 ; F]         (free velocity, eq. u2 with R = 0)
 *          aux = DR^T J Omega(t) + h T                      (rig-neg, rig-imp)
 *   solve  U = B + W R, C(U, R) = 0 (mb_locdyn.h, mb_consolver.h) at q(t+h/2);
 *          u1 = u~ + h A^-1 H^T R;  x(t+h) = x(t+h/2) + h/2 v1
 *   end    rig-pos:  Omega(t+h) = Omega1,  Lambda(t+h) = Lambda(t+h/2) exp[(h/2) Omega1]
 *          rig-neg:  DR1 = exp[(h/2) Omega1], Lambda(t+h) = Lambda(t+h/2) DR1,
 *                    Omega(t+h) = J^-1 DR1^T (aux + h r_ang)      (r_ang = angular H^T R)
 *          rig-imp:  solve exp[(h/2) W] J W = aux + h r_ang for W (fixed-point iteration;
 *                    Solfec uses Newton), Omega(t+h) = W, Lambda(t+h) = Lambda(t+h/2) exp[(h/2) W]
 * rig-neg and rig-imp both give Lambda(t+h) J Omega(t+h) = Lambda(t) J Omega(t)
 * + h Lambda(t+h/2) (T + r_ang): the spatial angular momentum balance is exact.
 * rig-pos keeps the velocity the constraints saw, and its energy drifts up; rig-neg's
 * energy drifts down; rig-imp shows no drift (measured; it keeps |J Omega| = |aux|).
 * A zero principal moment means no rotation about that axis (J^-1 taken as 0).
 * Bodies with inverse mass 0 do not move.  Blocked-axis bits are not used.
 * Double only (no MPFR twin). */
#include "mb_consolver.h"
#include "mb_contact_detect.h"
#include "mb_locdyn.h"
#include "mb_scene.h"
#include "mb_stepper.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SF_POS = 0, SF_NEG = 1, SF_IMP = 2 };

typedef struct sf_state {
    int rotation;
    mb_solver_opts sopt;
    int refuse_redundant;           /* redundant = refuse */
    double rank_tol;
    int rank_pending;               /* the bilateral set changed: rank it after assembly */
    size_t n;
    mb_nodes *work;                 /* mid-step configuration for the force evaluation */
    double *Lambda, *xm, *qm, *Jinv, *minv, *u, *ufree, *du, *aux, *dq;
    double *xn, *qn, *On;           /* new state, committed at the end */
    mb_locdyn *L;
    mb_con *cand;
    size_t capcand;
    int bilateral_in;
    mb_stepper_stats st;
} sf_state;

static const mb_option_spec sf_options[] = {
    { "rotation", MB_OPT_CHOICE, "rig-neg", 1, 0, "rig-neg|rig-pos|rig-imp",
      "Koziara-Bicanic rotation scheme: momentum exact, energy drifts down | energy drifts "
      "up | implicit, momentum exact, no drift" },
    { "epsilon", MB_OPT_DOUBLE, "1e-12", 1e-16, 1.0, NULL,
      "Gauss-Seidel stop: ||R_new - R_old|| <= epsilon ||R||" },
    { "maxiter", MB_OPT_INT, "1000", 1, 1e7, NULL, "Gauss-Seidel sweep limit per step" },
    { "contact_solver", MB_OPT_CHOICE, "exact", 1, 0, "exact|projected-ac",
      "per-contact solver: case analysis (separation / stick / slip) or projected "
      "Alart-Curnier iteration" },
    { "redundant", MB_OPT_CHOICE, "note", 1, 0, "note|refuse",
      "redundant bilateral constraints (singular rows of W, ranked when the set changes): "
      "solve and report constraints.rank_deficiency | fail with a message" },
    MB_OPTION_END
};

static void sf_free(void *state)
{
    sf_state *s = state;
    if (s == NULL)
        return;
    mb_nodes_free(s->work);
    free(s->Lambda); free(s->xm); free(s->qm); free(s->Jinv); free(s->minv); free(s->u);
    free(s->ufree); free(s->du); free(s->aux); free(s->dq); free(s->xn); free(s->qn); free(s->On);
    mb_locdyn_free(s->L);
    free(s->cand);
    free(s);
}

static int sf_alloc(void **state, const mb_options *opts, const mb_system *sys)
{
    sf_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return MB_ENOMEM;
    const char *r = mb_options_string(opts, "rotation");
    s->rotation = !strcmp(r, "rig-pos") ? SF_POS : !strcmp(r, "rig-imp") ? SF_IMP : SF_NEG;
    s->sopt.epsilon = mb_options_double(opts, "epsilon");
    s->sopt.maxiter = (int)mb_options_int(opts, "maxiter");
    s->refuse_redundant = !strcmp(mb_options_string(opts, "redundant"), "refuse");
    s->sopt.contact_solver = !strcmp(mb_options_string(opts, "contact_solver"), "projected-ac")
                           ? MB_CONTACT_SOLVER_AC : MB_CONTACT_SOLVER_EXACT;
    s->rank_tol = 1e-10;
    size_t n = s->n = sys->nodes->n, m = n ? n : 1;
    s->work = mb_nodes_alloc(n, 53);
    s->Lambda = calloc(9 * m, sizeof(double));
    s->xm = calloc(3 * m, sizeof(double));
    s->qm = calloc(4 * m, sizeof(double));
    s->Jinv = calloc(3 * m, sizeof(double));
    s->minv = calloc(m, sizeof(double));
    s->u = calloc(6 * m, sizeof(double));
    s->ufree = calloc(6 * m, sizeof(double));
    s->du = calloc(6 * m, sizeof(double));
    s->aux = calloc(3 * m, sizeof(double));
    s->dq = calloc(4 * m, sizeof(double));
    s->xn = calloc(3 * m, sizeof(double));
    s->qn = calloc(4 * m, sizeof(double));
    s->On = calloc(3 * m, sizeof(double));
    s->L = mb_locdyn_alloc();
    mb_scene *sc = mb_scene_of(sys->forces);
    s->capcand = mb_detect_capacity(sc);  /* more contacts: the error of sf_sync_contacts */
    s->cand = calloc(s->capcand, sizeof(mb_con));
    if (!s->work || !s->Lambda || !s->xm || !s->qm || !s->Jinv || !s->minv || !s->u || !s->ufree
        || !s->du || !s->aux || !s->dq || !s->xn || !s->qn || !s->On || !s->L || !s->cand) {
        sf_free(s);
        return MB_ENOMEM;
    }
    if (sc && sc->nbodies != n) {
        sf_free(s);
        MB_ERROR(MB_EINVAL, "solfec: the constraint scene has %zu bodies, the system %zu",
                 sc->nbodies, n);
    }
    *state = s;
    return MB_SUCCESS;
}

/* W <- J^-1 exp[-(h/2) W] a iterated to the fixed point W = r (rig-imp); 0 on failure */
static int implicit_spin(const double Jinv[3], const double a[3], double h, double W[3])
{
    for (int it = 0; it < 500; it++) {
        double th[3] = { 0.5 * h * W[0], 0.5 * h * W[1], 0.5 * h * W[2] }, q[4], b[3], Wn[3];
        mb_q_from_rotvec(q, th);
        mb_q_rotate_inv(b, q, a);
        for (int k = 0; k < 3; k++)
            Wn[k] = b[k] * Jinv[k];
        double ch = fabs(Wn[0] - W[0]) + fabs(Wn[1] - W[1]) + fabs(Wn[2] - W[2]);
        double sz = fabs(Wn[0]) + fabs(Wn[1]) + fabs(Wn[2]);
        mb_v3_copy(W, Wn);
        if (ch <= 4e-16 * sz)
            return 1;
    }
    return 0;
}

/* begin of step for body k: mid configuration, free velocity, aux */
static void sf_begin_body(sf_state *s, const mb_nodes *nd, size_t k, double h)
{
    const double *q = &nd->q[4 * k], *J = &nd->inertia[3 * k];
    double *u = &s->u[6 * k], *dq = &s->dq[4 * k], *qm = &s->qm[4 * k];
    double L0[9], th[3];
    s->minv[k] = nd->inv_mass[k];
    for (int d = 0; d < 3; d++)
        s->Jinv[3 * k + d] = nd->inv_mass[k] > 0.0 && J[d] > 0.0 ? 1.0 / J[d] : 0.0;
    mb_q_to_mat(L0, q);
    mb_m3t_mul_v(u, L0, &nd->omega[3 * k]);             /* Omega(t) = Lambda^T w */
    mb_v3_copy(u + 3, &nd->v[3 * k]);
    if (nd->inv_mass[k] == 0.0)
        memset(u, 0, 6 * sizeof(double));
    mb_v3_scale(th, 0.5 * h, u);
    mb_q_from_rotvec(dq, th);                           /* DR = exp[(h/2) Omega(t)] */
    mb_q_mul(qm, q, dq);
    mb_q_to_mat(&s->Lambda[9 * k], qm);
    for (int d = 0; d < 3; d++)
        s->xm[3 * k + d] = nd->x[3 * k + d] + 0.5 * h * u[3 + d];
}

static void sf_free_velocity(sf_state *s, const mb_nodes *nd, const mb_nodes *w, size_t k, double h)
{
    const double *J = &nd->inertia[3 * k], *u = &s->u[6 * k], *dq = &s->dq[4 * k];
    double *uf = &s->ufree[6 * k];
    double T[3], JO[3], DJO[3], W05[3], JW[3], g[3], f[3];
    mb_m3t_mul_v(T, &s->Lambda[9 * k], &w->torque[3 * k]);   /* body torque at t+h/2 */
    for (int d = 0; d < 3; d++)
        JO[d] = J[d] * u[d];
    mb_q_rotate_inv(DJO, dq, JO);                       /* DR^T J Omega(t) */
    for (int d = 0; d < 3; d++) {
        s->aux[3 * k + d] = DJO[d] + h * T[d];
        W05[d] = (DJO[d] + 0.5 * h * T[d]) * s->Jinv[3 * k + d];
        JW[d] = J[d] * W05[d];
    }
    mb_v3_cross(g, W05, JW);
    for (int d = 0; d < 3; d++) {
        f[d] = T[d] - g[d];
        uf[d] = u[d] + h * s->Jinv[3 * k + d] * f[d];
        uf[3 + d] = u[3 + d] + h * s->minv[k] * w->f[3 * k + d];
    }
}

/* forces at (q(t+h/2), u(t)) into s->work; the scene model is skipped */
static int sf_forces(sf_state *s, const mb_system *sys, double t)
{
    mb_nodes *w = s->work;
    int st = mb_nodes_copy(w, sys->nodes);
    if (st != MB_SUCCESS)
        return st;
    for (size_t k = 0; k < s->n; k++) {
        mb_v3_copy(&w->x[3 * k], &s->xm[3 * k]);
        memcpy(&w->q[4 * k], &s->qm[4 * k], 4 * sizeof(double));
        mb_m3_mul_v(&w->omega[3 * k], &s->Lambda[9 * k], &s->u[6 * k]);
    }
    memset(w->f, 0, 3 * s->n * sizeof(double));
    memset(w->torque, 0, 3 * s->n * sizeof(double));
    const mb_forces *F = sys->forces;
    mb_forces_count_evaluation(F);
    for (size_t m = 0; m < F->count; m++) {
        if (F->items[m].type == mb_force_scene)
            continue;
        st = F->items[m].type->eval(F->items[m].params, w, t);
        if (st != MB_SUCCESS)
            return st;
    }
    for (size_t k = 0; k < 3 * s->n; k++)
        if (!isfinite(w->f[k]) || !isfinite(w->torque[k]))
            MB_ERROR(MB_EDIVERGED, "solfec: force or torque NaN/Inf at t = %.17g", t);
    return MB_SUCCESS;
}

static mb_diab *find_key(mb_locdyn *L, long key)
{
    for (size_t a = 0; a < L->count; a++)
        if (L->dia[a]->con.key == key && L->dia[a]->con.kind == MB_CON_CONTACT)
            return L->dia[a];
    return NULL;
}

/* insert new contacts, refresh kept ones (warm start R), remove vanished ones */
static int sf_sync_contacts(sf_state *s, const mb_scene *sc, const mb_body_view *b)
{
    size_t nc = mb_detect_contacts(sc, b, s->cand, s->capcand);
    if (nc > s->capcand)
        MB_ERROR(MB_EFAILED, "solfec: %zu contacts exceed the candidate buffer %zu", nc, s->capcand);
    for (size_t a = s->L->count; a-- > 0;) {
        mb_diab *d = s->L->dia[a];
        if (d->con.kind != MB_CON_CONTACT)
            continue;
        int keep = 0;
        for (size_t c = 0; c < nc && !keep; c++)
            keep = s->cand[c].key == d->con.key;
        if (!keep)
            mb_locdyn_remove(s->L, d);
    }
    for (size_t c = 0; c < nc; c++) {
        mb_diab *d = find_key(s->L, s->cand[c].key);
        if (d != NULL) {
            double R[3];
            memcpy(R, d->con.R, sizeof R);
            d->con = s->cand[c];
            memcpy(d->con.R, R, sizeof R);
        } else if (mb_locdyn_insert(s->L, &s->cand[c]) == NULL) {
            return MB_ENOMEM;
        }
    }
    return MB_SUCCESS;
}

/* rank of the bilateral rows, once per change of the bilateral set: recorded in the
 * scene (a note), an error only with redundant = refuse */
static int sf_rank(sf_state *s, mb_scene *sc)
{
    size_t rows, deficiency;
    int st = mb_consolver_bilateral_rank(s->L, s->rank_tol, &rows, &deficiency);
    if (st != MB_SUCCESS)
        return st;
    if (deficiency > 0 && s->refuse_redundant)
        MB_ERROR(MB_ESINGULAR, "solfec: W is singular on the %zu bilateral rows (rank deficiency "
                 "%zu, sigma <= %.3g sigma_max): redundant constraints, the reactions are "
                 "indeterminate (redundant = note solves them)", rows, deficiency, s->rank_tol);
    sc->stats.bilateral_rows = rows;
    sc->stats.rank_deficiency = deficiency;
    s->rank_pending = 0;
    return MB_SUCCESS;
}

/* assemble and solve the constraints at q(t+h/2), the reactions into s->du; the solver
 * figures go to *res (booked by sf_step only once the step is committed) */
static int sf_constraints(sf_state *s, mb_scene *sc, double h, mb_solver_result *res)
{
    mb_body_view b = { s->n, s->Lambda, s->xm, s->Jinv, s->minv };
    int st;
    if (!s->bilateral_in) {
        for (size_t c = 0; c < sc->nbilateral; c++)
            if (mb_locdyn_insert(s->L, &sc->bilateral[c]) == NULL)
                return MB_ENOMEM;
        s->bilateral_in = 1;
        s->rank_pending = sc->nbilateral > 0;
    }
    if ((st = sf_sync_contacts(s, sc, &b)) != MB_SUCCESS)
        return st;
    for (size_t a = 0; a < s->L->count; a++) {
        mb_diab *d = s->L->dia[a];
        mb_con_update_frame(&b, &d->con);
        mb_con_target(&b, &d->con, h, d->target);
        mb_con_local_velocity(&b, &d->con, s->u, d->con.V);
    }
    mb_locdyn_update(s->L, &b, s->ufree, h);
    if (s->rank_pending && (st = sf_rank(s, sc)) != MB_SUCCESS)
        return st;
    if ((st = mb_consolver_solve(s->L, &s->sopt, res)) != MB_SUCCESS)
        return st;
    for (size_t a = 0; a < s->L->count; a++)
        mb_con_apply_reaction(&b, &s->L->dia[a]->con, h, s->du);
    return MB_SUCCESS;
}

/* book the solver figures of a committed step in the stepper and the scene */
static void sf_book_solver(sf_state *s, mb_scene *sc, const mb_solver_result *res)
{
    s->st.constraint_sweeps += (unsigned long)res->iterations;
    s->st.not_converged += res->converged ? 0 : 1;
    s->st.residual_max = fmax(s->st.residual_max, res->merit);
    sc->stats.steps++;
    sc->stats.iterations_total += (unsigned long)res->iterations;
    sc->stats.iterations_last = res->iterations;
    sc->stats.not_converged += res->converged ? 0 : 1;
    sc->stats.merit_last = res->merit;
    sc->stats.merit_max = fmax(sc->stats.merit_max, res->merit);
    sc->stats.contacts_last = s->L->count - sc->nbilateral;
}

/* end of step for body k: positions and the rotation scheme; 0 if rig-imp fails */
static int sf_end_body(sf_state *s, const mb_nodes *nd, size_t k, double h)
{
    const double *J = &nd->inertia[3 * k];
    double *u1 = &s->ufree[6 * k], *On = &s->On[3 * k], *qn = &s->qn[4 * k];
    const double *qm = &s->qm[4 * k];
    double th[3], dq1[4], a[3];
    for (int d = 0; d < 6; d++)
        u1[d] += s->du[6 * k + d];
    for (int d = 0; d < 3; d++) {
        s->xn[3 * k + d] = s->xm[3 * k + d] + 0.5 * h * u1[3 + d];
        a[d] = s->aux[3 * k + d] + J[d] * s->du[6 * k + d];      /* aux + h r_ang */
    }
    if (nd->inv_mass[k] == 0.0) {
        memcpy(qn, &nd->q[4 * k], 4 * sizeof(double));
        mb_v3_set(On, 0, 0, 0);
        return 1;
    }
    if (s->rotation == SF_IMP) {
        mb_v3_copy(On, u1);                                     /* initial guess */
        if (!implicit_spin(&s->Jinv[3 * k], a, h, On))
            return 0;
        mb_v3_scale(th, 0.5 * h, On);
        mb_q_from_rotvec(dq1, th);
        mb_q_mul(qn, qm, dq1);
    } else {
        mb_v3_scale(th, 0.5 * h, u1);
        mb_q_from_rotvec(dq1, th);                              /* DR1 = exp[(h/2) Omega1] */
        mb_q_mul(qn, qm, dq1);
        if (s->rotation == SF_NEG) {
            double b[3];
            mb_q_rotate_inv(b, dq1, a);
            for (int d = 0; d < 3; d++)
                On[d] = b[d] * s->Jinv[3 * k + d];
        } else {
            mb_v3_copy(On, u1);
        }
    }
    double e = fabs(mb_q_norm(qn) - 1.0);
    if (e > s->st.quat_norm_error_max)
        s->st.quat_norm_error_max = e;
    mb_q_normalize(qn);
    return 1;
}

static int sf_step(void *state, mb_system *sys, double h)
{
    sf_state *s = state;
    mb_nodes *nd = sys->nodes;
    int st;
    if (nd->n != s->n)
        MB_ERROR(MB_EINVAL, "solfec: system has %zu nodes, scheme was set up for %zu", nd->n, s->n);
    if (!(h > 0.0) || !isfinite(h))
        MB_ERROR(MB_EDOM, "solfec: time step h = %g must be finite and > 0", h);
    for (size_t k = 0; k < s->n; k++)
        sf_begin_body(s, nd, k, h);
    if ((st = sf_forces(s, sys, sys->t + 0.5 * h)) != MB_SUCCESS)
        return st;
    for (size_t k = 0; k < s->n; k++)
        sf_free_velocity(s, nd, s->work, k, h);
    memset(s->du, 0, 6 * s->n * sizeof(double));
    mb_scene *sc = mb_scene_of(sys->forces);
    mb_solver_result res;
    if (sc != NULL && (st = sf_constraints(s, sc, h, &res)) != MB_SUCCESS)
        return st;
    for (size_t k = 0; k < s->n; k++)
        if (!sf_end_body(s, nd, k, h))
            MB_ERROR(MB_EMAXITER, "solfec rig-imp: exp[(h/2) W] J W = a did not converge for "
                     "body %zu at t = %.17g (h |Omega| too large?)", k, sys->t);
    for (size_t k = 0; k < s->n; k++)
        for (int d = 0; d < 3; d++)
            if (!isfinite(s->xn[3 * k + d]) || !isfinite(s->On[3 * k + d]) || !isfinite(s->ufree[6 * k + 3 + d]))
                MB_ERROR(MB_EDIVERGED, "solfec: NaN/Inf state of body %zu at t = %.17g", k, sys->t);
    for (size_t k = 0; k < s->n; k++) {
        const double *J = &nd->inertia[3 * k], *On = &s->On[3 * k];
        double JO[3] = { J[0] * On[0], J[1] * On[1], J[2] * On[2] };
        mb_v3_copy(&nd->x[3 * k], &s->xn[3 * k]);
        mb_v3_copy(&nd->v[3 * k], &s->ufree[6 * k + 3]);
        memcpy(&nd->q[4 * k], &s->qn[4 * k], 4 * sizeof(double));
        mb_q_rotate(&nd->omega[3 * k], &nd->q[4 * k], On);
        mb_q_rotate(&nd->angmom[3 * k], &nd->q[4 * k], JO);
        mb_v3_copy(&nd->f[3 * k], &s->work->f[3 * k]);
        mb_v3_copy(&nd->torque[3 * k], &s->work->torque[3 * k]);
        nd->vel_mid[k] = 0;
    }
    if (sc != NULL)
        sf_book_solver(s, sc, &res);
    sys->t += h;
    s->st.steps++;
    return MB_SUCCESS;
}

static void sf_stats(const void *state, mb_stepper_stats *out)
{
    *out = ((const sf_state *)state)->st;
}

const mb_stepper_type mb_stepper_solfec = {
    .name = "solfec",
    .summary = "q(t+h/2) = q + h/2 u;  u(t+h) = u + A^-1 h f(q(t+h/2), u) + A^-1 h H^T R;  "
               "U = H u, C(U, R) = 0;  q(t+h) = q(t+h/2) + h/2 u(t+h)  (rotation=rig-neg|rig-pos|rig-imp)",
    .reference = "seed 003 (Solfec-1.0 theory: local dynamics); Koziara & Bicanic, IJNME 81 (2010) "
                 "1073-1092 (rigid rotations); Solfec-1.0 bod.c",
    .order = 2,
    .order_rotation = 2,     /* midpoint rotation (Koziara & Bicanic 2010) */
    .flags = MB_STEPPER_ROTATION | MB_STEPPER_IMPLICIT,
    .options = sf_options,
    .alloc = sf_alloc,
    .step = sf_step,
    .synchronize = NULL,
    .stats = sf_stats,
    .free = sf_free,
};
