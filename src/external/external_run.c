/* external_run.c -- one run of a case through an adapter, from the descriptor to a
 * validated trajectory (doc/external.md, section 2).
 *
 * The run asks for a row every sample_every steps of its request (and at t_end); the runner
 * asks every step (1) when work integrals or an observer need it, else the case's
 * sample_every, so that a many-body run returns the samples its statistics use and not
 * every step (the case's sample_every always with outside_rows = samples:
 * mb_run_external_stride).  The private directory is removed afterwards unless
 * MB_KEEP_ADAPTER_DIR is set in the environment (then its path ends the reason, or is
 * printed on stderr). */
#define _XOPEN_SOURCE 700    /* nftw */
#include "mb_external.h"
#include "mb_input.h"
#include "mb_metrics.h"
#include "mb_status.h"
#include "mb_text.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void mb_external_release_dir(const char *dir, const char *what)
{
    const char *keep = getenv("MB_KEEP_ADAPTER_DIR");
    if (keep && *keep && strcmp(keep, "0") != 0)
        fprintf(stderr, "motionbench: %s: adapter directory kept: %s\n", what, dir);
    else
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int mb_external_private_root(char *out, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    char shown[200 + sizeof MB_TEXT_CUT_MARK];      /* its first 200 bytes in a reason */
    struct stat sb;
    if (tmp == NULL || *tmp == '\0')
        tmp = "/tmp";
    if (tmp[0] != '/')
        MB_ERROR(MB_EINVAL, "TMPDIR '%s' is not an absolute path: adapters run in a "
                 "private directory made there (give an absolute TMPDIR)",
                 mb_text_clip(shown, sizeof shown, tmp));
    if (stat(tmp, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(tmp, W_OK | X_OK) != 0)
        MB_ERROR(MB_EINVAL, "TMPDIR '%s' is not a directory this process can write: "
                 "adapters run in a private directory made there",
                 mb_text_clip(shown, sizeof shown, tmp));
    if ((size_t)snprintf(out, size, "%s", tmp) >= size)
        MB_ERROR(MB_EINVAL, "TMPDIR '%s' is too long",
                 mb_text_clip(shown, 60 + sizeof MB_TEXT_CUT_MARK, tmp));
    return MB_SUCCESS;
}

size_t mb_adapter_file_cap(size_t n_nodes, int rotation, size_t n_rows)
{
    size_t cap = mb_trajectory_size_limit(n_nodes, rotation, n_rows);
    size_t traj = mb_input_cap(MB_INPUT_TRAJECTORY), log = mb_input_cap(MB_INPUT_ADAPTER_LOG);
    cap = cap < traj ? cap : traj;
    return cap > log ? cap : log;
}

int mb_external_make_dir(char *dir, size_t size, const char *name, char *reason, size_t rsize)
{
    char root[3800];
    if (mb_external_private_root(root, sizeof root) != MB_SUCCESS) {
        mb_text_format(reason, rsize, "adapter %s: %s", name, mb_last_error());
        return MB_EINVAL;
    }
    snprintf(dir, size, "%s/motionbench-run-XXXXXX", root);
    if (mkdtemp(dir) == NULL) {
        mb_text_format(reason, rsize, "adapter %s: cannot make a private directory in %s: %s", name,
                       root, strerror(errno));
        return MB_EIO;
    }
    return MB_SUCCESS;
}

static void case_dir_of(const char *path, char *dir, size_t size)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (path == NULL)
        dir[0] = '\0';
    else if (slash)
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
    else
        snprintf(dir, size, ".");
}

/* Descriptor, options and requirements; MB_PROCESS_OK with *out set. */
static long every_of(const mb_external_run *r);

/* A run whose trajectory cannot fit under the trajectory limit (mb_input.h; --trajectory-
 * limit) fails before the adapter starts, naming the case and the sizes: its smallest
 * valid trajectory is already larger (a trajectory is read back whole into memory). */
static mb_process_status trajectory_fits(const mb_external_run *r, const mb_adapter *a,
                                         char *reason, size_t size)
{
    const char *format = mb_external_trajectory_format(a, r->sys->nodes->n);
    size_t rows = mb_external_row_count(r->steps, every_of(r));
    size_t cols = mb_trajectory_columns(r->sys->nodes->n, r->rotation);
    size_t least = mb_trajectory_size_least(r->sys->nodes->n, r->rotation, rows,
                                            strcmp(format, "npy") == 0);
    size_t limit = mb_input_cap(MB_INPUT_TRAJECTORY);
    if (least <= limit)
        return MB_PROCESS_OK;
    char name[201];
    mb_text_format(reason, size, "adapter %s: case %s, dt = %.17g: its trajectory (%zu rows of "
                   "%zu columns, .%s) is at least %zu bytes, above the trajectory limit of %zu "
                   "bytes (--trajectory-limit; the trajectory is read whole into memory, "
                   "doc/limits.md)",
                   a->name, mb_text_clip(name, sizeof name, r->case_name), r->dt, rows, cols,
                   format, least, limit);
    return MB_PROCESS_FAILED;
}

mb_process_status mb_external_prepare(const mb_external_run *r, mb_external_spec *spec,
                                      mb_adapter **out, char *reason, size_t size)
{
    char case_dir[4096];
    case_dir_of(r->case_path, case_dir, sizeof case_dir);
    *out = NULL;
    if (mb_external_spec_parse(r->integrator, spec) != MB_SUCCESS
        || mb_adapter_find(spec->name, case_dir[0] ? case_dir : NULL, out) != MB_SUCCESS
        || mb_adapter_check_options(*out, spec) != MB_SUCCESS) {
        mb_text_format(reason, size, "adapter %s: %s", spec->name[0] ? spec->name : r->integrator,
                       mb_last_error());
        return MB_PROCESS_FAILED;
    }
    char why[MB_EXTERNAL_REASON];
    if (!mb_adapter_check_requirements(*out, why, sizeof why)) {
        mb_text_format(reason, size, "adapter %s: %s", spec->name, why);
        return MB_PROCESS_SKIPPED;
    }
    return trajectory_fits(r, *out, reason, size);
}

int mb_external_protocol_of(const char *integrator, const char *case_path, char *path,
                            size_t size)
{
    mb_external_spec spec;
    mb_adapter *a = NULL;
    char case_dir[4096];
    case_dir_of(case_path, case_dir, sizeof case_dir);
    int protocol = 0;
    if (mb_external_spec_parse(integrator, &spec) == MB_SUCCESS
        && mb_adapter_find(spec.name, case_dir[0] ? case_dir : NULL, &a) == MB_SUCCESS) {
        protocol = a->protocol;
        snprintf(path, size, "%s", a->path);
    }
    mb_adapter_free(a);
    mb_clear_error();
    return protocol;
}

const char *mb_external_trajectory_format(const mb_adapter *a, size_t n_nodes)
{
    if (!(a->formats & MB_TRAJECTORY_NPY))
        return "csv";
    return !(a->formats & MB_TRAJECTORY_CSV) || n_nodes >= MB_NPY_MIN_NODES ? "npy" : "csv";
}

size_t mb_external_row_count(long steps, long every)
{
    every = every > 0 ? every : 1;
    return (size_t)(steps / every) + 1 + (steps % every != 0);
}

static long every_of(const mb_external_run *r)
{
    return r->sample_every > 0 ? r->sample_every : 1;
}

mb_process_status mb_external_read_back(const mb_external_run *r, const mb_adapter *a,
                                        const char *path, const char *shown,
                                        mb_trajectory *tr, char *reason, size_t size)
{
    long every = every_of(r);
    size_t n = mb_external_row_count(r->steps, every);
    double *times = malloc(n * sizeof *times);
    if (times == NULL) {
        mb_text_format(reason, size, "adapter %s: out of memory", a->name);
        return MB_PROCESS_FAILED;
    }
    for (size_t k = 0; k < n; k++)
        times[k] = (double)(k + 1 < n ? (long)k * every : r->steps) * r->dt;
    mb_trajectory_request rq = { r->sys->nodes->n, r->rotation, n, times, r->dt };
    char why[300];
    int s = mb_trajectory_read_file(path, &rq, tr, why, sizeof why);
    free(times);
    if (s == MB_SUCCESS) {
        s = mb_trajectory_check(tr, r->problem, r->sys, r->dt, why, sizeof why);
        if (s != MB_SUCCESS)
            mb_trajectory_free(tr);
    }
    if (s != MB_SUCCESS) {
        mb_text_format(reason, size, "adapter %s: %s: %s", a->name, shown, why);
        return MB_PROCESS_FAILED;
    }
    return MB_PROCESS_OK;
}

static mb_process_status execute_in(const mb_external_run *r, const mb_external_spec *spec,
                                    const mb_adapter *a, const char *dir, mb_trajectory *tr,
                                    char *reason, size_t size)
{
    const char *format = mb_external_trajectory_format(a, r->sys->nodes->n);
    mb_run_description d = { r->case_name, r->integrator, spec, r->problem, r->params, r->sys,
                             r->dt, r->t_end, r->steps, every_of(r), r->rotation, format };
    if (mb_run_description_write(&d, dir) != MB_SUCCESS) {
        mb_text_format(reason, size, "adapter %s: %s", a->name, mb_last_error());
        return MB_PROCESS_FAILED;
    }
    size_t cap = mb_adapter_file_cap(r->sys->nodes->n, r->rotation,
                                     mb_external_row_count(r->steps, every_of(r)));
    char name[32], path[4200];
    snprintf(name, sizeof name, "trajectory.%s", format);
    mb_process_status ps = mb_adapter_execute(a, dir, r->timeout > 0 ? r->timeout : a->timeout,
                                              cap, name, reason, size);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ps == MB_PROCESS_OK ? mb_external_read_back(r, a, path, name, tr, reason, size) : ps;
}

int mb_external_rotation(const mb_system *sys, mb_nodes *scratch)
{
    if (mb_nodes_copy(scratch, sys->nodes) != MB_SUCCESS
        || mb_forces_eval(sys->forces, scratch, 0.0) != MB_SUCCESS)
        return 1;
    return mb_nodes_rotates(scratch) || mb_forces_torque_later(sys->forces);
}

mb_process_status mb_external_execute(const mb_external_run *r, mb_trajectory *tr,
                                      int *mid_step, char *reason, size_t size)
{
    mb_external_spec spec;
    mb_adapter *a = NULL;
    memset(tr, 0, sizeof *tr);
    reason[0] = '\0';
    mb_process_status ps = mb_external_prepare(r, &spec, &a, reason, size);
    char dir[4096];
    if (ps == MB_PROCESS_OK
        && mb_external_make_dir(dir, sizeof dir, spec.name, reason, size) != MB_SUCCESS) {
        ps = MB_PROCESS_FAILED;
    } else if (ps == MB_PROCESS_OK) {
        ps = execute_in(r, &spec, a, dir, tr, reason, size);
        char what[300];
        snprintf(what, sizeof what, "%.200s, dt = %.17g", r->case_name, r->dt);
        mb_external_release_dir(dir, what);
        *mid_step = a->mid_step;
    }
    mb_adapter_free(a);
    return ps;
}
