/* mb_external.h -- outside integrators driven through the external-program protocol,
 * versions 1 (a run per invocation) and 2 (a batch of runs per invocation)
 * (doc/external.md), one concept per file:
 *
 *   adapter_spec.c        the integrator spec external:NAME[key=value,...]
 *   adapter_descriptor.c  NAME.adapter descriptors (mb_ini.h) and their search path
 *   adapter_requires.c    the programs and interpreter modules a descriptor requires
 *   run_description.c     run.json: problem, nodes, force models, times (jansson)
 *   run_flat.c            run.txt: the flat form of run.json, from the same tree
 *   adapter_process.c     one execution: private directory, process group, time limit
 *   trajectory_read.c     trajectory.csv: parsing and validation over a buffer
 *   trajectory_npy.c      trajectory.npy: the binary form (NumPy .npy 1.0) over a buffer
 *   trajectory_check.c    a trajectory against the run asked: row 0, stale rows
 *   external_run.c        one run of a case through an adapter, start to trajectory
 *   external_batch.c      several runs through one invocation (protocol 2)
 *
 * Nothing here trusts the outside program: every defect it can produce (missing, not
 * executable, crash, hang, no file, wrong shape, wrong times, non-numbers) ends as a
 * reason string naming the adapter and the defect, never as a number. */
#ifndef MB_EXTERNAL_H
#define MB_EXTERNAL_H

#include <stddef.h>

#include "mb_forces.h"
#include "mb_nodes.h"
#include "mb_problem.h"
#include "mb_system.h"

#define MB_EXTERNAL_PROTOCOL 2      /* the highest spoken; 1 is spoken too */
#define MB_BATCH_RUNS "runs.json"   /* protocol 2: the descriptions, argument 1 */
#define MB_BATCH_DIR "trajectories" /* protocol 2: K.csv, K.declined or K.failed, argument 2 */
#define MB_BATCH_FLAT "runs.txt"    /* protocol 2: the flat form of runs.json, beside it */
#define MB_EXTERNAL_PREFIX "external:"
#define MB_EXTERNAL_MAX_OPTIONS 16
#define MB_EXTERNAL_REASON 1024   /* a reason's bytes with its NUL (MB_RUN_MESSAGE); longer:
                                      cut, ending with "...[cut]" (mb_text.h) */

/* ---- spec: external:NAME[key=value,...] ---- */
typedef struct mb_external_spec {
    char name[64];
    size_t n_options;
    char keys[MB_EXTERNAL_MAX_OPTIONS][64];
    char values[MB_EXTERNAL_MAX_OPTIONS][128];
} mb_external_spec;

/* 1 when spec begins with "external:". */
int mb_external_is_spec(const char *spec);
/* Parse; MB_EINVAL with a message naming the defect. */
int mb_external_spec_parse(const char *spec, mb_external_spec *out);
/* external:NAME[k=v,...] with the options in the order given, blanks removed. */
int mb_external_spec_canonical(const mb_external_spec *spec, char *out, size_t size);

/* ---- descriptors ---- */
typedef struct mb_adapter {
    char name[64];
    char path[4096];                  /* the descriptor file */
    char dir[4096];                   /* its directory */
    int protocol;                     /* 1: run.json trajectory.csv; 2: runs.json trajectories */
    size_t argc;
    char **argv;                      /* command words, NULL-terminated */
    double timeout;                   /* seconds, > 0 */
    size_t n_requires;
    char **requires;
    int mid_step;                     /* velocities = mid-step */
    int order;                        /* order = P: nominal order of the package's schemes
                                         (translation), 0 when not declared */
    unsigned formats;                 /* trajectory = ...: MB_TRAJECTORY_CSV | _NPY */
    size_t n_options;
    char **options;
    char summary[256];
} mb_adapter;

/* The trajectory files an adapter writes (its descriptor's `trajectory` key) and the one a
 * run asks for: npy when the adapter writes only npy, or writes both and the system has at
 * least MB_NPY_MIN_NODES nodes (a many-body run); csv otherwise (doc/external.md, 4b). */
#define MB_TRAJECTORY_CSV 1u
#define MB_TRAJECTORY_NPY 2u
#define MB_NPY_MIN_NODES 64
/* "csv" or "npy" */
const char *mb_external_trajectory_format(const mb_adapter *a, size_t n_nodes);

/* Add a directory searched before the default ones (--adapters DIR).  Not thread-safe:
 * call before running. */
int mb_adapter_path_add(const char *dir);
void mb_adapter_path_clear(void);
/* Load a descriptor file; errors are "path:line: message". */
int mb_adapter_load(const char *path, mb_adapter **out);
/* Find NAME.adapter in: the added directories, case_dir/adapters (case_dir may be NULL),
 * the source tree's adapters/, the installed pkgdatadir/adapters.  MB_ENOTFOUND with the
 * list of places searched. */
int mb_adapter_find(const char *name, const char *case_dir, mb_adapter **out);
void mb_adapter_free(mb_adapter *a);
/* Call fn for every descriptor of the added directories and the default ones (not a
 * case's), in name order per directory, the first of a name only; a = NULL for a
 * descriptor that does not load (mb_last_error() says why). */
void mb_adapter_each(void (*fn)(const char *path, const mb_adapter *a, void *user), void *user);
/* MB_EINVAL unless every key of spec is listed in a's options. */
int mb_adapter_check_options(const mb_adapter *a, const mb_external_spec *spec);
/* 1 when prog (a name, or a path with '/') is an executable file, its path in full. */
int mb_find_on_path(const char *prog, char *full, size_t size);
/* ---- requirements (adapter_requires.c) ---- */
/* 1 when a `requires` entry is PROGRAM or INTERPRETER:MODULE (MODULE a dotted Python name). */
int mb_adapter_requirement_valid(const char *entry);
/* 1 when every program of a's `requires` is found and every INTERPRETER:MODULE imports
 * (INTERPRETER -c "import MODULE", within a time limit); else 0 with the first missing one
 * and why in why ("requires python3:siconos: /usr/bin/python3 cannot import siconos
 * (ModuleNotFoundError: No module named 'siconos')"). */
int mb_adapter_check_requirements(const mb_adapter *a, char *why, size_t size);

/* ---- run.json ---- */
typedef struct mb_run_description {
    const char *case_name, *integrator;
    const mb_external_spec *spec;
    const mb_problem_type *problem;
    const mb_options *params;         /* resolved parameters of the problem */
    const mb_system *sys;             /* set up at t = 0 */
    double dt, t_end;
    long steps, sample_every;
    int rotation;
    const char *format;               /* the trajectory asked: "csv" (NULL) or "npy" */
} mb_run_description;

/* Write the description to dir/run.json and, from the same JSON tree, its flat form
 * dir/run.txt (run_flat.c). */
int mb_run_description_write(const mb_run_description *d, const char *dir);
/* Write the JSON tree root in the flat form of doc/external.md, section 3a. */
int mb_run_flat_write(const struct json_t *root, const char *path);
/* Write dir/runs.json of protocol 2 (the n descriptions, run k with "id": k and
 * "trajectory": "trajectories/k.csv") and, from the same tree, its flat form dir/runs.txt. */
int mb_run_descriptions_write_batch(const mb_run_description *d, size_t n, const char *dir);
/* Column names of a trajectory: t, then per node x,y,z,vx,vy,vz[,qw..qz,wx,wy,wz]. */
size_t mb_trajectory_columns(size_t n_nodes, int rotation);
void mb_trajectory_column_name(size_t column, int rotation, char *buf, size_t size);

/* ---- trajectory.csv ---- */
typedef struct mb_trajectory_request {
    size_t n_nodes;
    int rotation;
    /* requested times (n_times of them); times = NULL: any times, strictly increasing and
     * evenly spaced (score) */
    size_t n_times;
    const double *times;
    double dt;                        /* the tolerance on times is 1e-9 dt + 1e-12 |t| */
} mb_trajectory_request;

typedef struct mb_trajectory {
    size_t n_rows, n_nodes;
    int rotation;
    size_t stride;                    /* values per row after t: 6 or 13 per node */
    double *t;                        /* n_rows */
    double *values;                   /* n_rows * stride, node after node */
    int binary;                       /* 1: read from .npy (defects name rows, not lines) */
} mb_trajectory;

/* Parse a whole trajectory held in buf[0..len).  On a defect returns MB_EINVAL with
 * "line L: what" in why (and frees what it built). */
int mb_trajectory_parse(const char *buf, size_t len, const mb_trajectory_request *rq,
                        mb_trajectory *out, char *why, size_t why_size);
/* The largest valid trajectory.csv of n_rows rows, in bytes: (n_rows + 1) rows of the
 * required columns and 16 energy_* ones, 64 bytes a field, plus 1 MiB. */
size_t mb_trajectory_size_limit(size_t n_nodes, int rotation, size_t n_rows);
/* The smallest valid trajectory of n_rows rows of the required columns, in bytes: as .npy
 * (npy != 0) 8 bytes a value and a 64-byte header at least; as CSV the header and the rows
 * with every field one character and its separator (2 bytes a field). */
size_t mb_trajectory_size_least(size_t n_nodes, int rotation, size_t n_rows, int npy);
/* The same rules for a NumPy .npy file of format version 1.0 (trajectory_npy.c,
 * doc/external.md section 4b): a 2-D array of '<f8' in C order whose shape is (the
 * requested rows, the columns of trajectory.csv), the header checked field by field and
 * the bytes against the shape; defects say "npy header: what", "row K: what" or "truncated:
 * ...".  out->binary is set. */
int mb_trajectory_parse_npy(const char *buf, size_t len, const mb_trajectory_request *rq,
                            mb_trajectory *out, char *why, size_t why_size);
/* The per-row rules both readers apply to row `row` of tr (already filled): its time
 * against the request (1e-9 dt + 1e-12 |t|), finite quaternions unit to 1e-6.  MB_EINVAL
 * with what is wrong in why (no location). */
int mb_trajectory_check_row(const mb_trajectory *tr, size_t row,
                            const mb_trajectory_request *rq, char *why, size_t size);
/* Read a file and parse it, as .npy when its name ends in .npy, else as CSV; a missing or
 * unreadable file is a defect too. */
int mb_trajectory_read_file(const char *path, const mb_trajectory_request *rq,
                            mb_trajectory *out, char *why, size_t why_size);
void mb_trajectory_free(mb_trajectory *tr);
/* The trajectory against the run that was asked (trajectory_check.c): row 0 is the
 * initial state of sys0 (to 2^-49 of each quantity's scale), and no row repeats the
 * previous one while the system must move there (h: the time step).  MB_EINVAL with
 * "line L: what" in why. */
int mb_trajectory_check(const mb_trajectory *tr, const mb_problem_type *problem,
                        const mb_system *sys0, double h, char *why, size_t size);
/* Put row k into the node store s (x, v, q, omega and angmom = R I R^T omega). */
void mb_trajectory_set_state(const mb_trajectory *tr, size_t k, mb_nodes *s);

/* Turn the mid-step velocities in s (row at time t, step h) into on-step ones
 * (trajectory_sync.c); s->f and s->torque are overwritten. */
int mb_trajectory_synchronize(const mb_forces *F, mb_nodes *s, double t, double h, int rotation);

/* ---- one execution ---- */
typedef enum { MB_PROCESS_OK = 0, MB_PROCESS_SKIPPED, MB_PROCESS_FAILED } mb_process_status;

/* Run the adapter's command with arguments run.json TRAJECTORY (trajectory.csv or
 * trajectory.npy; protocol 2: runs.json trajectories, trajectory unused) in dir (which holds run.json or runs.json), within timeout seconds, each file it writes capped at file_cap bytes, under
 * a keeper that kills every process it leaves (adapter_process.c).  The reason names the
 * adapter and the defect. */
mb_process_status mb_adapter_execute(const mb_adapter *a, const char *dir, double timeout,
                                     size_t file_cap, const char *trajectory, char *reason,
                                     size_t size);

/* The last non-empty lines of dir/adapter.log, at most max_lines, earliest first, joined by
 * " | ", without indentation, lines of markers alone passed over, control characters
 * blanked ("" when none): quoted in reasons (MB_ADAPTER_LOG_LINES of them for a failure,
 * 1 for a decline). */
#define MB_ADAPTER_LOG_LINES 3
void mb_adapter_log_tail(const char *dir, int max_lines, char *out, size_t size);

/* ---- one run of a case ---- */
typedef struct mb_external_run {
    const char *case_name, *case_path, *integrator;
    const mb_problem_type *problem;
    const mb_options *params;
    const mb_system *sys;             /* the problem set up at t = 0 */
    int rotation;
    double dt, t_end, timeout;        /* timeout <= 0: the descriptor's */
    long steps;
    long sample_every;                /* rows every sample_every steps and at t_end (>= 1) */
} mb_external_run;
/* The rows of a run of `steps` steps sampled every `every`: 0, every, 2 every, ... and
 * steps itself; their count. */
size_t mb_external_row_count(long steps, long every);

/* The cap of every file an adapter writes (trajectory.csv, adapter.log, its own) in a run
 * of n_nodes over n_rows rows: max(min(mb_trajectory_size_limit, the trajectory cap), the
 * adapter-log cap) bytes, caps of mb_input.h (doc/limits.md). */
size_t mb_adapter_file_cap(size_t n_nodes, int rotation, size_t n_rows);
/* The directory private run directories are made in: TMPDIR, or /tmp when TMPDIR is
 * unset or empty.  MB_EINVAL with the reason when it is not an absolute path to a
 * directory this process can write and search. */
int mb_external_private_root(char *out, size_t size);
/* Whether a run of sys (set up at t = 0) asks for the rotation columns: its state or its
 * torques at t = 0 turn a node (mb_nodes_rotates, evaluated in scratch, a store of sys's
 * size), or a model writes torques later (mb_forces_torque_later: a frictional contact).
 * 1 when the forces cannot be evaluated: more is checked, nothing is lost. */
int mb_external_rotation(const mb_system *sys, mb_nodes *scratch);
/* Describe, execute, read back.  MB_PROCESS_OK fills tr and *mid_step. */
mb_process_status mb_external_execute(const mb_external_run *r, mb_trajectory *tr,
                                      int *mid_step, char *reason, size_t size);

/* Shared by external_run.c and external_batch.c: the spec parsed, its descriptor found,
 * its options and requirements checked (SKIPPED when a required program is missing); a
 * fresh private directory (mb_external_private_root); the trajectory at path read and
 * checked against run r (shown: its name in reasons); the directory removed, or kept and
 * named on stderr under MB_KEEP_ADAPTER_DIR. */
mb_process_status mb_external_prepare(const mb_external_run *r, mb_external_spec *spec,
                                      mb_adapter **out, char *reason, size_t size);
int mb_external_make_dir(char *dir, size_t size, const char *name, char *reason, size_t rsize);
mb_process_status mb_external_read_back(const mb_external_run *r, const mb_adapter *a,
                                        const char *path, const char *shown,
                                        mb_trajectory *tr, char *reason, size_t size);
void mb_external_release_dir(const char *dir, const char *what);

/* The protocol of the adapter that integrator (external:NAME[...]) names, its descriptor
 * searched from the case file at case_path; 0 when it cannot be loaded (its runs then fail
 * one by one with the reason).  path receives the descriptor's path. */
int mb_external_protocol_of(const char *integrator, const char *case_path, char *path,
                            size_t size);

/* ---- a batch of runs in one invocation (protocol 2, external_batch.c) ---- */
typedef struct mb_external_batch mb_external_batch;

/* Describe the n runs (one adapter, protocol 2) in runs.json, execute the adapter once
 * within the sum of the runs' time limits and check the names it left in trajectories/:
 * K.csv or K.declined for K < n, not both.  MB_PROCESS_OK: take each run's answer with
 * mb_external_batch_take; otherwise every run has the batch's status and reason.  (K.failed
 * answers a run that failed alone.) */
mb_process_status mb_external_batch_execute(const mb_external_run *runs, size_t n,
                                            mb_external_batch **out, char *reason,
                                            size_t size);
/* Run k's answer: its trajectory read and checked against run k's own request (times,
 * row 0, stale rows), or skipped with the reason in K.declined, or failed. */
mb_process_status mb_external_batch_take(mb_external_batch *b, size_t k, mb_trajectory *tr,
                                         int *mid_step, char *reason, size_t size);
/* Remove the batch's directory (kept under MB_KEEP_ADAPTER_DIR) and free it. */
void mb_external_batch_free(mb_external_batch *b);
/* One run x through its adapter, whatever the adapter's protocol: mb_external_execute for
 * protocol 1, a batch of one run for protocol 2 (simulate -i external:NAME, and each leg
 * of an outside program's round trip, src/runner/reversibility.c). */
mb_process_status mb_external_execute_one(const mb_external_run *x, mb_trajectory *tr,
                                          int *mid_step, char *reason, size_t size);

#endif
