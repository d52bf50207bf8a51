/* forces.c -- the force field of a system: a list of models summed in order. */
#include "array_scan.h"
#include "mb_forces.h"
#include "mb_linsys_sink.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

mb_forces *mb_forces_alloc(void)
{
    mb_forces *F = calloc(1, sizeof *F);
    if (F != NULL && (F->counts = calloc(1, sizeof *F->counts)) == NULL) {
        free(F);
        F = NULL;
    }
    if (F == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a force field");
    return F;
}

void mb_forces_free(mb_forces *F)
{
    if (F == NULL)
        return;
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->free)
            F->items[m].type->free(F->items[m].params);
    free(F->items);
    free(F->counts);
    free(F);
}

mb_forces_counts mb_forces_get_counts(const mb_forces *F)
{
    return *F->counts;
}

void mb_forces_count_evaluation(const mb_forces *F)
{
    F->counts->evaluations++;
}

int mb_forces_periodic(const mb_forces *F)
{
    for (size_t k = 0; k < F->count; k++)
        if (F->items[k].type->periodic && F->items[k].type->periodic(F->items[k].params))
            return 1;
    return 0;
}

int mb_forces_add(mb_forces *F, const mb_force_type *type, void *params)
{
    if (params == NULL) {
        /* a constructor that returns NULL has recorded why (bad parameter, memory):
         * pass that on rather than replacing it */
        int code = mb_last_error_code();
        if (code != MB_SUCCESS)
            return code;
        MB_ERROR(MB_ENOMEM, "force model '%s' has no parameters", type->name);
    }
    if (F->count == F->cap) {
        size_t cap = F->cap ? 2 * F->cap : 4;
        mb_force *items = realloc(F->items, cap * sizeof *items);
        if (items == NULL) {
            type->free(params);
            MB_ERROR(MB_ENOMEM, "cannot grow the force field");
        }
        F->items = items;
        F->cap = cap;
    }
    F->items[F->count].type = type;
    F->items[F->count].params = params;
    F->count++;
    return MB_SUCCESS;
}

/* 1 when some model of F may write torques. */
static int field_writes_torque(const mb_forces *F)
{
    for (size_t m = 0; m < F->count; m++) {
        const mb_force_type *type = F->items[m].type;
        if (!type->torque_free
            && !(type->torque_free_params && type->torque_free_params(F->items[m].params)))
            return 1;
    }
    return 0;
}

/* Sum the models into s->f, which the first model sets when it can (eval_set). */
static int sum_forces(const mb_forces *F, mb_nodes *s, double t)
{
    size_t first = 0;
    if (F->count > 0 && F->items[0].type->eval_set != NULL) {
        int st = F->items[0].type->eval_set(F->items[0].params, s, t);
        if (st != MB_SUCCESS)
            return st;
        first = 1;
    } else {
        memset(s->f, 0, 3 * s->n * sizeof(double));
    }
    for (size_t m = first; m < F->count; m++) {
        int st = F->items[m].type->eval(F->items[m].params, s, t);
        if (st != MB_SUCCESS)
            return st;
    }
    return MB_SUCCESS;
}

static int diverged(double t)
{
    MB_ERROR(MB_EDIVERGED, "force or torque is NaN or Inf at t = %.17g", t);
}

int mb_forces_check(const mb_nodes *s, double t)
{
    if (!mb_all_finite(s->f, 3 * s->n) || !mb_all_finite(s->torque, 3 * s->n))
        return diverged(t);
    return MB_SUCCESS;
}

/* Every torque of s +0: written only where it is not already (a read, not a write, on
 * the steps of a torque-free field). */
static void torques_to_pos_zero(mb_nodes *s, int torque_zero)
{
    if (!torque_zero || !mb_all_pos_zero(s->torque, 3 * s->n))
        memset(s->torque, 0, 3 * s->n * sizeof(double));
}

int mb_forces_eval_unchecked(const mb_forces *F, mb_nodes *s, double t, int *torque_zero)
{
    F->counts->evaluations++;
    *torque_zero = !field_writes_torque(F);
    torques_to_pos_zero(s, *torque_zero);
    return sum_forces(F, s, t);
}

int mb_forces_eval_deferred(const mb_forces *F, mb_nodes *s, double t, int *torque_zero)
{
    int st = mb_forces_eval_unchecked(F, s, t, torque_zero);
    if (st != MB_SUCCESS)
        return st;
    if (!*torque_zero && !mb_all_finite(s->torque, 3 * s->n))
        return diverged(t);
    return MB_SUCCESS;
}

int mb_forces_eval_uniform(const mb_forces *F, mb_nodes *s, double t, double g[3],
                           int torques_pos_zero)
{
    if (F->count != 1 || F->items[0].type->uniform_acceleration == NULL)
        return 0;
    F->counts->evaluations++;
    if (!torques_pos_zero)
        torques_to_pos_zero(s, 1);
    F->items[0].type->uniform_acceleration(F->items[0].params, t, g);
    return 1;
}

int mb_forces_eval(const mb_forces *F, mb_nodes *s, double t)
{
    int torque_zero;
    int st = mb_forces_eval_deferred(F, s, t, &torque_zero);
    if (st == MB_SUCCESS && !mb_all_finite(s->f, 3 * s->n))
        return diverged(t);
    return st;
}

int mb_forces_mpfr_eval(const mb_forces *F, mb_nodes_mpfr *s, double t)
{
    F->counts->evaluations++;
    for (size_t k = 0; k < 3 * s->n; k++) {
        mpfr_set_zero(&s->f[k], 1);
        mpfr_set_zero(&s->torque[k], 1);
    }
    for (size_t m = 0; m < F->count; m++) {
        if (F->items[m].type->eval_mpfr == NULL)
            MB_ERROR(MB_EUNSUP, "force model '%s' has no MPFR instance", F->items[m].type->name);
        int st = F->items[m].type->eval_mpfr(F->items[m].params, s, t);
        if (st != MB_SUCCESS)
            return st;
    }
    return mb_forces_mpfr_check(s, t);
}

int mb_forces_mpfr_check(const mb_nodes_mpfr *s, double t)
{
    for (size_t k = 0; k < 3 * s->n; k++)
        if (!mpfr_number_p(&s->f[k]) || !mpfr_number_p(&s->torque[k]))
            return diverged(t);
    return MB_SUCCESS;
}

/* The MPFR store is checked whole: its steps are not the ones that need the speed. */
int mb_forces_mpfr_eval_deferred(const mb_forces *F, mb_nodes_mpfr *s, double t,
                                 int *torque_zero)
{
    *torque_zero = 0;
    return mb_forces_mpfr_eval(F, s, t);
}

double mb_forces_potential(const mb_forces *F, const mb_nodes *s)
{
    double e = 0.0;
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->potential)
            e += F->items[m].type->potential(F->items[m].params, s);
    return e;
}

double mb_forces_potential_magnitude(const mb_forces *F, const mb_nodes *s)
{
    double e = 0.0;
    for (size_t m = 0; m < F->count; m++) {
        const mb_force_type *t = F->items[m].type;
        if (t->potential_magnitude)
            e += t->potential_magnitude(F->items[m].params, s);
        else if (t->potential)
            e += fabs(t->potential(F->items[m].params, s));
    }
    return e;
}

double mb_forces_dissipation(const mb_forces *F, const mb_nodes *s)
{
    double p = 0.0;
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->dissipation)
            p += F->items[m].type->dissipation(F->items[m].params, s);
    return p;
}

int mb_forces_keeps_history(const mb_forces *F)
{
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->history_work)
            return 1;
    return 0;
}

void mb_forces_history_work(const mb_forces *F, double *dissipated, double *external)
{
    *dissipated = *external = 0.0;
    for (size_t m = 0; m < F->count; m++) {
        double d = 0.0, e = 0.0;
        if (F->items[m].type->history_work == NULL)
            continue;
        F->items[m].type->history_work(F->items[m].params, &d, &e);
        *dissipated += d;
        *external += e;
    }
}

double mb_forces_external_power(const mb_forces *F, const mb_nodes *s, double t)
{
    double p = 0.0;
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->external_power)
            p += F->items[m].type->external_power(F->items[m].params, s, t);
    return p;
}

double mb_forces_external_work_exact(const mb_forces *F, const mb_nodes *from,
                                     const mb_nodes *to, double h)
{
    double w = 0.0;
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->external_work)
            w += F->items[m].type->external_work(F->items[m].params, from, to, h);
    return w;
}

double mb_forces_external_power_inexact(const mb_forces *F, const mb_nodes *s, double t)
{
    double p = 0.0;
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->external_power && !F->items[m].type->external_work)
            p += F->items[m].type->external_power(F->items[m].params, s, t);
    return p;
}

int mb_forces_has_exact_work(const mb_forces *F)
{
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->external_work)
            return 1;
    return 0;
}

int mb_forces_torque_later(const mb_forces *F)
{
    for (size_t m = 0; F != NULL && m < F->count; m++)
        if (F->items[m].type->torque_later)
            return 1;
    return 0;
}

int mb_forces_jacobian(const mb_forces *F, const mb_nodes *s, mb_jacobian *J)
{
    F->counts->jacobians++;
    mb_jacobian_clear(J);
    for (size_t m = 0; m < F->count; m++) {
        if (F->items[m].type->jacobian == NULL)
            continue;
        int st = F->items[m].type->jacobian(F->items[m].params, s, J);
        if (st != MB_SUCCESS)
            return st;
    }
    return MB_SUCCESS;
}

int mb_forces_mpfr_jacobian(const mb_forces *F, const mb_nodes_mpfr *s, mb_jacobian_mpfr *J)
{
    F->counts->jacobians++;
    mb_jacobian_mpfr_clear(J);
    for (size_t m = 0; m < F->count; m++) {
        if (F->items[m].type->jacobian == NULL)
            continue;
        if (F->items[m].type->jacobian_mpfr == NULL)
            MB_ERROR(MB_EUNSUP, "force model '%s' has no MPFR Jacobian", F->items[m].type->name);
        int st = F->items[m].type->jacobian_mpfr(F->items[m].params, s, J);
        if (st != MB_SUCCESS)
            return st;
    }
    return MB_SUCCESS;
}

int mb_forces_eval_jacobian(const mb_forces *F, mb_nodes *s, double t, mb_jacobian *J)
{
    F->counts->evaluations++;
    F->counts->jacobians++;
    memset(s->f, 0, 3 * s->n * sizeof(double));
    memset(s->torque, 0, 3 * s->n * sizeof(double));
    mb_jacobian_clear(J);
    for (size_t m = 0; m < F->count; m++) {
        const mb_force_type *type = F->items[m].type;
        void *p = F->items[m].params;
        int st;
        if (type->eval_jacobian)
            st = type->eval_jacobian(p, s, t, J);
        else if ((st = type->eval(p, s, t)) == MB_SUCCESS && type->jacobian)
            st = type->jacobian(p, s, J);
        if (st != MB_SUCCESS)
            return st;
    }
    return mb_forces_check(s, t);
}

/* The first pass of mb_forces_assemble: model m's forces, and what its blocks need -- kept
 * by the model, or its blocks appended to J and the end of its part of J kept here. */
static int forces_first_pass(const mb_force *item, size_t m, mb_nodes *s, double t,
                             mb_linsys_sink *k, mb_jacobian *J)
{
    const mb_force_type *type = item->type;
    int st;
    k->model = m;
    if (m == 0 && type->eval_keep_set)  /* f not zeroed: the first model sets it */
        return type->eval_keep_set(item->params, s, t, k);
    if (type->eval_keep)
        return type->eval_keep(item->params, s, t, k);
    if (type->diagonal_block)           /* its blocks from diagonal_block in the second */
        return type->eval(item->params, s, t);
    if (type->eval_jacobian)
        st = type->eval_jacobian(item->params, s, t, J);
    else if ((st = type->eval(item->params, s, t)) == MB_SUCCESS && type->jacobian)
        st = type->jacobian(item->params, s, J);
    size_t *end = mb_linsys_sink_keep(k, sizeof *end);
    if (end == NULL)
        MB_ERROR(MB_ENOMEM, "out of memory");
    *end = J->count;
    return st;
}

/* 1 when a model of this type hands over no blocks */
static int forces_blockless(const mb_force_type *type)
{
    return !type->blocks_kept && !type->diagonal_block && !type->jacobian
           && !type->eval_jacobian;
}

/* The second pass: model m's blocks to the sink; *from: where its part of J begins (a
 * model without blocks has none: its part of J is empty, and its first pass may have been
 * folded into the right-hand side's, forces_last_weight) */
static int forces_second_pass(const mb_force *item, size_t m, const mb_nodes *s,
                              mb_linsys_sink *k, const mb_jacobian *J, size_t *from)
{
    k->model = m;
    if (forces_blockless(item->type))
        return MB_SUCCESS;
    if (item->type->blocks_kept)
        return item->type->blocks_kept(item->params, s, k);
    if (item->type->diagonal_block) {
        double C[9], K[9];
        item->type->diagonal_block(item->params, C, K);
        mb_linsys_sink_diagonal(k, C, K);
        return MB_SUCCESS;
    }
    size_t end = *(const size_t *)mb_linsys_sink_kept(k);
    for (size_t b = *from; b < end; b++)
        mb_linsys_sink_block(k, J->row[b], J->col[b], &J->dfdv[9 * b], &J->dfdx[9 * b]);
    *from = end;
    return MB_SUCCESS;
}

/* The diagonal fields after model m, passing over models without blocks, folded into m's
 * second pass when m reports the nodes it is done with (mb_linsys_sink_fold); returns
 * the last model so taken care of, m when none. */
static size_t forces_fold(const mb_forces *F, size_t m, mb_linsys_sink *k)
{
    size_t last = m;
    if (!F->items[m].type->blocks_kept || !F->items[m].type->reports_nodes_done)
        return m;
    for (size_t q = m + 1; q < F->count; q++) {
        const mb_force_type *type = F->items[q].type;
        if (type->diagonal_block) {
            double C[9], K[9];
            type->diagonal_block(F->items[q].params, C, K);
            if (!mb_linsys_sink_fold(k, C, K))
                break;
            last = q;
        } else if (!forces_blockless(type)) {
            break;
        }
    }
    return last;
}

size_t mb_forces_links(const mb_forces *F)
{
    size_t links = 0;
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type == mb_force_springs)
            links += mb_springs_count(F->items[m].params);
    return links;
}

/* 1 when the field's last model is a uniform acceleration without blocks (gravity after
 * the springs), whose eval adds m_i g(t) to the forces of the nodes of finite mass: it is
 * the last to add to them, so the pass forming b may add it node by node just before
 * reading them (mb_linsys_sink_rhs_weighed), with the same operations in the same order,
 * and its own pass over the forces is saved.  g = g(t) then. */
static int forces_last_weight(const mb_forces *F, double t, double g[3])
{
    if (F->count == 0)
        return 0;
    const mb_force *last = &F->items[F->count - 1];
    if (last->type->uniform_acceleration == NULL || !forces_blockless(last->type))
        return 0;
    last->type->uniform_acceleration(last->params, t, g);
    return 1;
}

/* 1 when the pass forming b (with the weight g, or none: NULL) is left to the blocks pass
 * of the field's first model, node by node (mb_linsys_sink_rhs_by_node): that model forms
 * every node's b before its first block (forms_rhs_by_node) and the storage is
 * block-tridiagonal.  Every term of b comes after that model's blocks or inside its pass
 * after the node's b (folded fields), so each entry keeps its operations and their order. */
static int forces_rhs_by_first(const mb_forces *F, size_t n, mb_linsys_sink *k,
                               const double *g)
{
    if (F->count == 0)
        return 0;
    const mb_force *first = &F->items[0];
    if (first->type->forms_rhs_by_node == NULL || !first->type->forms_rhs_by_node(first->params, n))
        return 0;
    return mb_linsys_sink_rhs_by_node(k, g);
}

int mb_forces_torque_free(const mb_forces *F)
{
    return !field_writes_torque(F);
}

int mb_forces_assemble(const mb_forces *F, mb_nodes *s, double t, mb_linsys_sink *k,
                       mb_jacobian *J)
{
    return mb_forces_assemble_known(F, s, t, k, J, 0);
}

int mb_forces_assemble_known(const mb_forces *F, mb_nodes *s, double t, mb_linsys_sink *k,
                             mb_jacobian *J, int torques_pos_zero)
{
    F->counts->evaluations++;
    F->counts->jacobians++;
    if (F->count == 0 || F->items[0].type->eval_keep_set == NULL)
        memset(s->f, 0, 3 * s->n * sizeof(double));     /* else the first model sets f */
    int torque_zero = !field_writes_torque(F);      /* then the torques stay +0: no check */
    if (!(torque_zero && torques_pos_zero))         /* +0 already, as the caller knows */
        torques_to_pos_zero(s, torque_zero);
    mb_jacobian_clear(J);
    double g[3];
    int weight = forces_last_weight(F, t, g);       /* then the last model's forces in the */
    size_t nfirst = F->count - (size_t)weight;      /* pass that forms b */
    int st = MB_SUCCESS;
    for (size_t m = 0; m < nfirst && st == MB_SUCCESS; m++)
        st = forces_first_pass(&F->items[m], m, s, t, k, J);
    if (st == MB_SUCCESS && !torque_zero && !mb_all_finite(s->torque, 3 * s->n))
        st = diverged(t);
    if (st != MB_SUCCESS)
        return st;
    int by_node = forces_rhs_by_first(F, s->n, k, weight ? g : NULL);
    if (!by_node && !(weight ? mb_linsys_sink_rhs_weighed(k, g) : mb_linsys_sink_rhs(k)))
        return diverged(t);             /* the forces checked while b is formed */
    size_t from = 0;
    for (size_t m = 0; m < F->count && st == MB_SUCCESS; m++) {
        size_t last = forces_fold(F, m, k);
        st = forces_second_pass(&F->items[m], m, s, k, J, &from);
        if (last > m) {             /* the models up to last: folded, or without blocks */
            mb_linsys_sink_fold_end(k);
            m = last;
        }
        if (by_node) {              /* the forces checked while the first model formed b */
            by_node = 0;
            if (!mb_linsys_sink_rhs_by_node_end(k) && st == MB_SUCCESS)
                return diverged(t);
        }
    }
    return st;
}

int mb_forces_mpfr_eval_jacobian(const mb_forces *F, mb_nodes_mpfr *s, double t,
                                 mb_jacobian_mpfr *J)
{
    F->counts->evaluations++;
    F->counts->jacobians++;
    for (size_t k = 0; k < 3 * s->n; k++) {
        mpfr_set_zero(&s->f[k], 1);
        mpfr_set_zero(&s->torque[k], 1);
    }
    mb_jacobian_mpfr_clear(J);
    for (size_t m = 0; m < F->count; m++) {
        const mb_force_type *type = F->items[m].type;
        void *p = F->items[m].params;
        if (type->eval_mpfr == NULL)
            MB_ERROR(MB_EUNSUP, "force model '%s' has no MPFR instance", type->name);
        if (type->jacobian && type->jacobian_mpfr == NULL)
            MB_ERROR(MB_EUNSUP, "force model '%s' has no MPFR Jacobian", type->name);
        int st;
        if (type->eval_jacobian_mpfr)
            st = type->eval_jacobian_mpfr(p, s, t, J);
        else if ((st = type->eval_mpfr(p, s, t)) == MB_SUCCESS && type->jacobian)
            st = type->jacobian_mpfr(p, s, J);
        if (st != MB_SUCCESS)
            return st;
    }
    for (size_t k = 0; k < 3 * s->n; k++)
        if (!mpfr_number_p(&s->f[k]) || !mpfr_number_p(&s->torque[k]))
            MB_ERROR(MB_EDIVERGED, "force or torque is NaN or Inf at t = %.17g", t);
    return MB_SUCCESS;
}

void mb_forces_stiffness(const mb_forces *F, const mb_nodes *s, double *k)
{
    memset(k, 0, 3 * s->n * sizeof(double));
    for (size_t m = 0; m < F->count; m++)
        if (F->items[m].type->stiffness)
            F->items[m].type->stiffness(F->items[m].params, s, k);
}
