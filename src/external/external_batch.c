/* external_batch.c -- several runs through one invocation of an adapter (protocol 2,
 * doc/external.md, section 2b).
 *
 * A package that takes a second to start (a Python interpreter importing its modules, a
 * DEM program reading its plug-ins) spends most of a short run starting.  An adapter of
 * protocol 2 is executed once for a list of runs: motionbench writes runs.json (every
 * run's description, as run.json, with its "id" K and "trajectory" trajectories/K.csv, or
 * K.npy when its trajectory_format is npy) and its flat form runs.txt, makes the directory
 * trajectories/ and executes COMMAND... runs.json trajectories.  The adapter answers each
 * run by writing that file (a trajectory in the other format is refused), or
 * trajectories/K.declined (one
 * line: why it declines that run), or trajectories/K.failed (one line: what went wrong).
 *
 * Nothing of the batch is trusted more than a single run: the directory must hold only
 * answers to runs that were asked (an unknown name, a run answered twice, anything that is
 * not a regular file fails the batch), and every trajectory is read and checked against
 * its own run's request -- its times, its initial state, its stale rows
 * (trajectory_check.c) -- so trajectories handed back under each other's numbers fail
 * wherever the runs differ in time step or initial state. */
#include "mb_external.h"
#include "mb_input.h"
#include "mb_status.h"
#include "mb_text.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct mb_external_batch {
    const mb_external_run *runs;
    size_t n;
    mb_adapter *adapter;
    char dir[4096];
    char what[300];               /* names the batch when its directory is kept */
    char last[200];               /* the last lines of adapter.log, for runs left unanswered */
    unsigned char *answer;        /* per run: an answer_kind */
};

enum answer_kind { ANSWER_NONE = 0, ANSWER_CSV, ANSWER_DECLINED, ANSWER_FAILED, ANSWER_NPY };
static const char *const answer_suffix[5] = { "", "csv", "declined", "failed", "npy" };

/* The trajectory run k is asked for: "csv" or "npy" (mb_external_trajectory_format). */
static const char *format_of(const mb_external_batch *b, size_t k)
{
    return mb_external_trajectory_format(b->adapter, b->runs[k].sys->nodes->n);
}

/* Every run must name the same descriptor; the first run's checks stand for all (options
 * are checked per run: each run has its own spec). */
static mb_process_status prepare_all(mb_external_batch *b, char *reason, size_t size)
{
    mb_external_spec spec;
    for (size_t k = 0; k < b->n; k++) {
        mb_adapter *a = NULL;
        mb_process_status ps = mb_external_prepare(&b->runs[k], &spec, &a, reason, size);
        if (ps == MB_PROCESS_OK && b->adapter && strcmp(a->path, b->adapter->path) != 0) {
            mb_text_format(reason, size, "adapter %s: a batch of runs of two descriptors (%s)",
                           spec.name, a->path);
            ps = MB_PROCESS_FAILED;
        }
        if (ps != MB_PROCESS_OK || b->adapter) {
            mb_adapter_free(a);
            if (ps != MB_PROCESS_OK)
                return ps;
        } else {
            b->adapter = a;
        }
    }
    if (b->adapter->protocol != 2) {
        mb_text_format(reason, size, "adapter %s: protocol %d runs one run per invocation",
                       b->adapter->name, b->adapter->protocol);
        return MB_PROCESS_FAILED;
    }
    return MB_PROCESS_OK;
}

static mb_process_status describe_all(mb_external_batch *b, char *reason, size_t size)
{
    mb_run_description *d = calloc(b->n, sizeof *d);
    mb_external_spec *specs = calloc(b->n, sizeof *specs);
    char path[4200];
    int s = d && specs ? MB_SUCCESS : MB_ENOMEM;
    for (size_t k = 0; k < b->n && s == MB_SUCCESS; k++) {
        const mb_external_run *r = &b->runs[k];
        s = mb_external_spec_parse(r->integrator, &specs[k]);
        d[k] = (mb_run_description){ r->case_name, r->integrator, &specs[k], r->problem,
                                     r->params, r->sys, r->dt, r->t_end, r->steps,
                                     r->sample_every > 0 ? r->sample_every : 1, r->rotation,
                                     format_of(b, k) };
    }
    if (s == MB_SUCCESS)
        s = mb_run_descriptions_write_batch(d, b->n, b->dir);
    free(d);
    free(specs);
    snprintf(path, sizeof path, "%s/%s", b->dir, MB_BATCH_DIR);
    if (s == MB_SUCCESS && mkdir(path, 0700) != 0)
        s = MB_EIO;
    if (s != MB_SUCCESS) {
        mb_text_format(reason, size, "adapter %s: %s", b->adapter->name,
                       s == MB_EIO && errno ? strerror(errno) : mb_last_error());
        return MB_PROCESS_FAILED;
    }
    return MB_PROCESS_OK;
}

/* The sum of the runs' time limits, and the largest file cap of a run. */
static void limits(const mb_external_batch *b, double *timeout, size_t *cap)
{
    *timeout = 0.0;
    *cap = 0;
    for (size_t k = 0; k < b->n; k++) {
        const mb_external_run *r = &b->runs[k];
        size_t c = mb_adapter_file_cap(r->sys->nodes->n, r->rotation,
                                       mb_external_row_count(r->steps, r->sample_every));
        *timeout += r->timeout > 0 ? r->timeout : b->adapter->timeout;
        *cap = c > *cap ? c : *cap;
    }
}

/* K.csv, K.npy, K.declined or K.failed with K a run of the batch written in decimal
 * without leading zeros; -1 for any other name. */
static long answer_of(const char *name, size_t n, int *kind)
{
    char *end;
    if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1] != '.'))
        return -1;
    errno = 0;
    unsigned long k = strtoul(name, &end, 10);
    if (errno || k >= n)
        return -1;
    *kind = ANSWER_NONE;
    for (int a = ANSWER_CSV; a <= ANSWER_NPY; a++)
        if (end[0] == '.' && !strcmp(end + 1, answer_suffix[a]))
            *kind = a;
    return *kind == ANSWER_NONE ? -1 : (long)k;
}

/* The answers the runs asked for, in the words of a reason: "0.npy to 3.npy" when every
 * run asked one form, "K.csv or K.npy as each run asked" when they differ. */
static void answers_asked(const mb_external_batch *b, char *out, size_t size)
{
    const char *first = format_of(b, 0);
    for (size_t k = 1; k < b->n; k++)
        if (strcmp(format_of(b, k), first) != 0) {
            snprintf(out, size, "K.csv or K.npy as each run asked");
            return;
        }
    snprintf(out, size, "0.%s to %zu.%s", first, b->n - 1, first);
}

static int bad_entry(const mb_external_batch *b, const char *name, const char *what,
                     char *reason, size_t size)
{
    char asked[64], shown[80 + sizeof MB_TEXT_CUT_MARK];   /* a name's first 80 bytes */
    answers_asked(b, asked, sizeof asked);
    mb_text_format(reason, size, "adapter %s: %s/%s: %s (%zu runs were asked: %s, K.declined or "
                   "K.failed)", b->adapter->name, MB_BATCH_DIR,
                   mb_text_clip(shown, sizeof shown, name), what, b->n, asked);
    return 0;
}

/* The names the adapter left in trajectories/: each an answer to one run asked, a regular
 * file, one answer per run. */
static int survey(mb_external_batch *b, char *reason, size_t size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", b->dir, MB_BATCH_DIR);
    DIR *dir = opendir(path);
    if (dir == NULL) {
        mb_text_format(reason, size, "adapter %s: %s/ is gone: %s", b->adapter->name, MB_BATCH_DIR,
                       strerror(errno));
        return 0;
    }
    int ok = 1;
    for (struct dirent *e; ok && (e = readdir(dir)) != NULL;) {
        int kind = 0;
        struct stat sb;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        long k = answer_of(e->d_name, b->n, &kind);
        char file[4500];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        if (k < 0)
            ok = bad_entry(b, e->d_name, "not an answer to a run of the batch", reason, size);
        else if (lstat(file, &sb) != 0 || !S_ISREG(sb.st_mode))
            ok = bad_entry(b, e->d_name, "not a regular file: refused unread", reason, size);
        else if (b->answer[k] != ANSWER_NONE)
            ok = bad_entry(b, e->d_name, "run answered twice", reason, size);
        else if ((kind == ANSWER_CSV || kind == ANSWER_NPY)
                 && strcmp(answer_suffix[kind], format_of(b, (size_t)k)) != 0)
            ok = bad_entry(b, e->d_name, !strcmp(format_of(b, (size_t)k), "npy")
                           ? "the run asked for a .npy trajectory (trajectory_format)"
                           : "the run asked for a .csv trajectory (trajectory_format)",
                           reason, size);
        else
            b->answer[k] = (unsigned char)kind;
    }
    closedir(dir);
    return ok;
}

mb_process_status mb_external_batch_execute(const mb_external_run *runs, size_t n,
                                            mb_external_batch **out, char *reason, size_t size)
{
    mb_external_batch *b = calloc(1, sizeof *b);
    *out = b;
    reason[0] = '\0';
    if (b == NULL || n == 0 || (b->answer = calloc(n, 1)) == NULL) {
        mb_text_format(reason, size, "adapter: %s", n ? "out of memory" : "an empty batch");
        return MB_PROCESS_FAILED;
    }
    b->runs = runs;
    b->n = n;
    snprintf(b->what, sizeof b->what, "a batch of %zu runs from %.200s", n, runs[0].case_name);
    mb_process_status ps = prepare_all(b, reason, size);
    if (ps != MB_PROCESS_OK)
        return ps;
    if (mb_external_make_dir(b->dir, sizeof b->dir, b->adapter->name, reason, size)
        != MB_SUCCESS)
        return MB_PROCESS_FAILED;
    ps = describe_all(b, reason, size);
    double timeout;
    size_t cap;
    limits(b, &timeout, &cap);
    if (ps == MB_PROCESS_OK)
        ps = mb_adapter_execute(b->adapter, b->dir, timeout, cap, NULL, reason, size);
    if (ps == MB_PROCESS_OK && !survey(b, reason, size))
        ps = MB_PROCESS_FAILED;
    mb_adapter_log_tail(b->dir, MB_ADAPTER_LOG_LINES, b->last, sizeof b->last);
    return ps;
}

/* A line fgets left in line[size] without its end: cut when more of it follows. */
static int line_cut(FILE *f, const char *line, size_t size)
{
    if (strlen(line) < size - 1 || strchr(line, '\n') != NULL)
        return 0;
    int c = fgetc(f);
    return c != EOF && c != '\n' && c != '\r';
}

/* The one line of K.declined or K.failed (bounded: a longer one is cut and marked, control
 * characters blanked). */
static void answer_line(const char *path, char *out, size_t size)
{
    char line[200] = "";
    FILE *f = mb_input_open(path, MB_INPUT_ADAPTER_LOG);
    if (f == NULL)
        mb_clear_error();
    else if (fgets(line, sizeof line, f) == NULL)
        line[0] = '\0';
    else if (line_cut(f, line, sizeof line))
        mb_text_mark_cut(line, sizeof line);
    if (f)
        fclose(f);
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 32)
            *p = ' ';
    mb_text_format(out, size, "%s", line[0] ? line : "(no reason given)");
}

mb_process_status mb_external_batch_take(mb_external_batch *b, size_t k, mb_trajectory *tr,
                                         int *mid_step, char *reason, size_t size)
{
    char path[4300], shown[96], why[200];
    memset(tr, 0, sizeof *tr);
    *mid_step = b->adapter->mid_step;
    snprintf(path, sizeof path, "%s/%s/%zu.%s", b->dir, MB_BATCH_DIR, k,
             answer_suffix[b->answer[k]]);
    if (b->answer[k] == ANSWER_DECLINED || b->answer[k] == ANSWER_FAILED)
        answer_line(path, why, sizeof why);
    if (b->answer[k] == ANSWER_DECLINED) {
        mb_text_format(reason, size, "adapter %s declined: %s", b->adapter->name, why);
        return MB_PROCESS_SKIPPED;
    }
    if (b->answer[k] == ANSWER_FAILED) {
        mb_text_format(reason, size, "adapter %s: run %zu failed: %s", b->adapter->name, k, why);
        return MB_PROCESS_FAILED;
    }
    if (b->answer[k] == ANSWER_NONE) {
        mb_text_format(reason, size, "adapter %s: no %s/%zu.%s for run %zu of %zu%s%s",
                       b->adapter->name, MB_BATCH_DIR, k, format_of(b, k), k, b->n,
                       b->last[0] ? ": " : "", b->last);
        return MB_PROCESS_FAILED;
    }
    snprintf(shown, sizeof shown, "%s/%zu.%s", MB_BATCH_DIR, k, answer_suffix[b->answer[k]]);
    return mb_external_read_back(&b->runs[k], b->adapter, path, shown, tr, reason, size);
}

mb_process_status mb_external_execute_one(const mb_external_run *x, mb_trajectory *tr,
                                          int *mid_step, char *reason, size_t size)
{
    char path[4096];
    if (mb_external_protocol_of(x->integrator, x->case_path, path, sizeof path) != 2)
        return mb_external_execute(x, tr, mid_step, reason, size);
    mb_external_batch *b = NULL;
    memset(tr, 0, sizeof *tr);
    mb_process_status ps = mb_external_batch_execute(x, 1, &b, reason, size);
    if (ps == MB_PROCESS_OK)
        ps = mb_external_batch_take(b, 0, tr, mid_step, reason, size);
    mb_external_batch_free(b);
    return ps;
}

void mb_external_batch_free(mb_external_batch *b)
{
    if (b == NULL)
        return;
    if (b->dir[0])
        mb_external_release_dir(b->dir, b->what);
    mb_adapter_free(b->adapter);
    free(b->answer);
    free(b);
}
