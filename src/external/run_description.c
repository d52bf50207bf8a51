/* run_description.c -- run.json, the description of one run handed to an outside program
 * (doc/external.md, section 3), written with jansson; its flat form run.txt is written
 * from the same tree (run_flat.c).
 *
 * The problem's parameters are written resolved (defaults included), every node with its
 * mass, principal inertia, radius, state and blocked degrees of freedom, and every force
 * model through its describe hook (mb_forces.h): contact laws with their impact law,
 * restitution, friction and rolling resistance, the unilateral contacts of a constraint
 * scene, the pair styles on a neighbour list with their boundaries; a deforming periodic
 * cell as the model "deforming-cell" (its sides and velocity gradient); the units every
 * number is in.  A model without a describe hook and a scene with bilateral constraints are
 * written as {"model": "opaque", "name": ...} so that an adapter can decline what it cannot
 * express instead of integrating another system. */
#include "mb_external.h"
#include "mb_forces.h"
#include "mb_json.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const node_columns[13] = { "x", "y", "z", "vx", "vy", "vz", "qw", "qx",
                                              "qy", "qz", "wx", "wy", "wz" };

size_t mb_trajectory_columns(size_t n_nodes, int rotation)
{
    return 1 + n_nodes * mb_nodes_state_size(rotation);
}

void mb_trajectory_column_name(size_t column, int rotation, char *buf, size_t size)
{
    size_t per = mb_nodes_state_size(rotation);
    if (column == 0)
        snprintf(buf, size, "t");
    else
        snprintf(buf, size, "n%zu_%s", (column - 1) / per, node_columns[(column - 1) % per]);
}

static json_t *parameters(const mb_problem_type *p, const mb_options *o)
{
    json_t *obj = json_object();
    for (const mb_option_spec *s = p->params; obj && s && s->name; s++) {
        int bad;
        if (s->kind == MB_OPT_DOUBLE)
            bad = mb_json_set_num(obj, s->name, mb_options_double(o, s->name));
        else if (s->kind == MB_OPT_INT)
            bad = mb_json_set_int(obj, s->name, mb_options_int(o, s->name));
        else if (s->kind == MB_OPT_BOOL)
            bad = mb_json_set_bool(obj, s->name, mb_options_bool(o, s->name));
        else
            bad = mb_json_set_str(obj, s->name, mb_options_string(o, s->name));
        if (bad) {
            json_decref(obj);
            return NULL;
        }
    }
    return obj;
}

static void blocked_text(unsigned char b, char out[7])
{
    static const char letters[6] = { 'x', 'y', 'z', 'X', 'Y', 'Z' };
    int n = 0;
    for (int k = 0; k < 6; k++)
        if (b & (1u << k))
            out[n++] = letters[k];
    out[n] = '\0';
}

static json_t *node(const mb_nodes *s, size_t i)
{
    json_t *o = json_object();
    char blocked[7];
    blocked_text(s->blocked[i], blocked);
    double r = s->radius ? s->radius[i] : 0.0;
    if (o == NULL || mb_json_set_num(o, "mass", s->mass[i])
        || mb_json_set_vec(o, "inertia", &s->inertia[3 * i], 3)
        || json_object_set_new(o, "radius", r > 0.0 ? mb_json_number(r) : json_null())
        || mb_json_set_vec(o, "position", &s->x[3 * i], 3)
        || mb_json_set_vec(o, "velocity", &s->v[3 * i], 3)
        || mb_json_set_vec(o, "orientation", &s->q[4 * i], 4)
        || mb_json_set_vec(o, "angular_velocity", &s->omega[3 * i], 3)
        || mb_json_set_vec(o, "angular_momentum", &s->angmom[3 * i], 3)
        || mb_json_set_str(o, "blocked", blocked)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *opaque(const char *name)
{
    json_t *o = json_object();
    if (o && (mb_json_set_str(o, "model", "opaque") || mb_json_set_str(o, "name", name))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *force_model(const mb_force *f)
{
    if (f->type->describe == NULL)
        return opaque(f->type->name);
    json_t *o = json_object();
    if (o && f->type->describe(f->params, o) != MB_SUCCESS) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The deforming periodic cell (mb_cell.h) at t = 0: its sides (the columns of H, written
 * row-major as H itself), the velocity gradient L of the medium v = L x, and, for a
 * gradient switched at t_switch, L before and after. */
static json_t *cell_model(const mb_cell *c)
{
    json_t *o = json_object();
    int bad = o == NULL || mb_json_set_str(o, "model", "deforming-cell")
              || mb_json_set_vec(o, "sides", c->H, 9)
              || mb_json_set_vec(o, "velocity_gradient", c->L0, 9);
    if (!bad && c->kind == MB_CELL_GRAD_SWITCH)
        bad = mb_json_set_num(o, "t_switch", c->t_switch)
              || mb_json_set_vec(o, "velocity_gradient_after", c->L1, 9);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *forces(const mb_system *sys)
{
    json_t *a = json_array();
    for (size_t k = 0; a && k < sys->forces->count; k++)
        if (json_array_append_new(a, force_model(&sys->forces->items[k])) != 0) {
            json_decref(a);
            return NULL;
        }
    if (a && sys->cell && json_array_append_new(a, cell_model(sys->cell)) != 0) {
        json_decref(a);
        return NULL;
    }
    return a;
}

static json_t *time_block(const mb_run_description *d)
{
    json_t *o = json_object();
    if (o && (mb_json_set_num(o, "t0", 0.0) || mb_json_set_num(o, "dt", d->dt)
              || mb_json_set_int(o, "steps", d->steps) || mb_json_set_num(o, "t_end", d->t_end)
              || mb_json_set_int(o, "sample_every", d->sample_every))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *columns(size_t n_nodes, int rotation)
{
    json_t *a = json_array();
    size_t n = mb_trajectory_columns(n_nodes, rotation);
    for (size_t k = 0; a && k < n; k++) {
        char name[48];
        mb_trajectory_column_name(k, rotation, name, sizeof name);
        if (json_array_append_new(a, json_string(name)) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *options(const mb_external_spec *spec)
{
    json_t *o = json_object();
    for (size_t k = 0; o && k < spec->n_options; k++)
        if (mb_json_set_str(o, spec->keys[k], spec->values[k])) {
            json_decref(o);
            return NULL;
        }
    return o;
}

static json_t *nodes(const mb_nodes *s)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < s->n; i++)
        if (json_array_append_new(a, node(s, i)) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* The statement of units: every number of run.json (and of trajectory.csv) is in the
 * coherent system built on these base units (doc/external.md, section 3). */
static json_t *units(void)
{
    json_t *o = json_object();
    if (o && (mb_json_set_str(o, "length", "m") || mb_json_set_str(o, "mass", "kg")
              || mb_json_set_str(o, "time", "s") || mb_json_set_str(o, "angle", "rad")
              || mb_json_set_bool(o, "coherent", 1))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *describe(const mb_run_description *d, const char *protocol)
{
    json_t *root = json_object(), *problem = json_object();
    if (root == NULL || problem == NULL) {
        json_decref(root);
        json_decref(problem);
        return NULL;
    }
    int bad = mb_json_set_str(root, "protocol", protocol)
              || mb_json_set_str(root, "case", d->case_name)
              || mb_json_set_str(root, "integrator", d->integrator)
              || mb_json_set_str(root, "adapter", d->spec->name)
              || json_object_set_new(root, "units", units())
              || json_object_set_new(root, "options", options(d->spec))
              || json_object_set_new(root, "problem", problem)
              || mb_json_set_str(problem, "name", d->problem->name)
              || json_object_set_new(problem, "parameters", parameters(d->problem, d->params))
              || json_object_set_new(root, "time", time_block(d))
              || mb_json_set_bool(root, "rotation", d->rotation)
              || json_object_set_new(root, "columns", columns(d->sys->nodes->n, d->rotation))
              || mb_json_set_str(root, "trajectory_format", d->format ? d->format : "csv")
              || json_object_set_new(root, "nodes", nodes(d->sys->nodes))
              || json_object_set_new(root, "forces", forces(d->sys));
    if (bad) {
        json_decref(root);
        return NULL;
    }
    return root;
}

/* run.json and run.txt from one tree: the two cannot disagree */
int mb_run_description_write(const mb_run_description *d, const char *dir)
{
    char path[4200];
    json_t *root = describe(d, "motionbench-run/1");
    if (root == NULL)
        MB_ERROR(MB_ENOMEM, "run description: out of memory");
    snprintf(path, sizeof path, "%s/run.json", dir);
    /* 17 significant digits: every double is read back exactly */
    if (json_dump_file(root, path, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0) {
        json_decref(root);
        MB_ERROR(MB_EIO, "%s: cannot write the run description", path);
    }
    snprintf(path, sizeof path, "%s/run.txt", dir);
    int s = mb_run_flat_write(root, path);
    json_decref(root);
    return s;
}

/* runs.json of protocol 2: {"protocol": "motionbench-batch/2", "runs": [...]}, run k being
 * run.json's object with "id": k and "trajectory": "trajectories/k.csv" (or k.npy, as its
 * trajectory_format says) added. */
static json_t *describe_batch(const mb_run_description *d, size_t n)
{
    json_t *root = json_object(), *runs = json_array();
    int bad = root == NULL || runs == NULL
              || mb_json_set_str(root, "protocol", "motionbench-batch/2")
              || json_object_set(root, "runs", runs);
    for (size_t k = 0; k < n && !bad; k++) {
        char file[64];
        json_t *run = describe(&d[k], "motionbench-run/2");
        snprintf(file, sizeof file, "%s/%zu.%s", MB_BATCH_DIR, k, d[k].format ? d[k].format : "csv");
        bad = run == NULL || mb_json_set_int(run, "id", (long)k)
              || mb_json_set_str(run, "trajectory", file) || json_array_append(runs, run);
        json_decref(run);
    }
    json_decref(runs);
    if (bad) {
        json_decref(root);
        return NULL;
    }
    return root;
}

/* runs.json and, from the same tree, its flat form runs.txt (runs.K.KEY: run K's KEY of
 * run.txt), so that an adapter reading the flat form can speak protocol 2 too */
int mb_run_descriptions_write_batch(const mb_run_description *d, size_t n, const char *dir)
{
    char path[4200];
    json_t *root = describe_batch(d, n);
    if (root == NULL)
        MB_ERROR(MB_ENOMEM, "run descriptions: out of memory");
    snprintf(path, sizeof path, "%s/%s", dir, MB_BATCH_RUNS);
    if (json_dump_file(root, path, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0) {
        json_decref(root);
        MB_ERROR(MB_EIO, "%s: cannot write the run descriptions", path);
    }
    snprintf(path, sizeof path, "%s/%s", dir, MB_BATCH_FLAT);
    int s = mb_run_flat_write(root, path);
    json_decref(root);
    return s;
}
