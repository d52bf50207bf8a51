/* bench_lammps.c -- LAMMPS as a benchmark peer (bench_lammps.h). */
#include "bench_lammps.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The loop time and CPU use of the log (bench_lammps.h); MB_EIO recorded when either is
 * missing or the CPU use is not a number above 0. */
static int read_loop(const char *log, long steps, double *wall, double *pct)
{
    FILE *f = fopen(log, "r");
    if (f == NULL)
        MB_ERROR(MB_EIO, "LAMMPS log %s: cannot be read", log);
    char line[512];
    int found = 0;
    *wall = -1.0;
    while (fgets(line, sizeof line, f)) {
        double lt, c;
        int procs;
        long s;
        if (sscanf(line, "Loop time of %lf on %d procs for %ld steps", &lt, &procs, &s) == 3
            && procs == 1 && s == steps)
            *wall = lt;
        else if (*wall >= 0.0 && !found && sscanf(line, "%lf%% CPU use", &c) == 1) {
            *pct = c;
            found = 1;
        }
    }
    fclose(f);
    if (!(*wall >= 0.0))
        MB_ERROR(MB_EIO, "LAMMPS log %s: no line \"Loop time of ... on 1 procs for %ld "
                 "steps\"", log, steps);
    if (!found)
        MB_ERROR(MB_EIO, "LAMMPS log %s: no \"%% CPU use\" line after its loop time", log);
    if (!(isfinite(*pct) && *pct > 0.0))
        MB_ERROR(MB_EIO, "LAMMPS log %s: CPU use %g %% of a loop of %g s is not a CPU time",
                 log, *pct, *wall);
    return MB_SUCCESS;
}

int mb_bench_lammps_loop(const char *log, long steps, double *wall, double *cpu)
{
    double pct;
    *cpu = -1.0;
    if (read_loop(log, steps, wall, &pct) != MB_SUCCESS)
        return *wall >= 0.0 && *wall < MB_BENCH_LAMMPS_MIN_LOOP ? 1 : -1;
    if (*wall < MB_BENCH_LAMMPS_MIN_LOOP)
        return 1;
    *cpu = *wall * fmin(pct, 100.0) / 100.0;
    return 0;
}

long mb_bench_lammps_longer(long steps, double wall)
{
    double want = wall > 0.0 ? 1.25 * MB_BENCH_LAMMPS_MIN_LOOP / wall * (double)steps
                             : 10.0 * (double)steps;
    want = fmax(want, 2.0 * (double)steps);
    return want < 1e12 ? (long)ceil(want) : (long)1e12;
}

double mb_bench_lammps_charged(int (*run)(void *ctx, long steps), void *ctx, const char *log,
                               long *steps)
{
    for (;;) {
        double wall, cpu;
        if (run(ctx, *steps) != 0) {
            char why[1024];
            snprintf(why, sizeof why, "%s", mb_last_error());
            mb_error_record(MB_EIO, __FILE__, __LINE__, "LAMMPS's run of %ld steps failed: "
                            "%s", *steps, why);
            return -1.0;
        }
        int st = mb_bench_lammps_loop(log, *steps, &wall, &cpu);
        if (st < 0)
            return -1.0;
        if (st == 0)
            return cpu;
        *steps = mb_bench_lammps_longer(*steps, wall);
    }
}

/* The output file of the run whose log is `log`: `log` with ".out" appended */
static void lammps_output(const char *log, char *out, size_t size)
{
    snprintf(out, size, "%s.out", log);
}

/* The first line of file `path` that begins with "ERROR" (LAMMPS's own error, which it
 * writes to its log) into line, quoted, else its last line that is not blank; words saying
 * so when the file cannot be read or has none.  Its newline dropped. */
static void lammps_telling_line(const char *path, char *line, size_t size)
{
    snprintf(line, size, "(no line)");
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(line, size, "(cannot be read)");
        return;
    }
    char buf[400];                     /* a longer line is read in pieces */
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (strncmp(buf, "ERROR", 5) == 0) {
            snprintf(line, size, "\"%s\"", buf);
            break;
        }
        if (buf[strspn(buf, " \t")] != '\0')
            snprintf(line, size, "\"%s\"", buf);
    }
    fclose(f);
}

/* How a child that system() ran ended, in words */
static void lammps_ending(int st, char *text, size_t size)
{
    if (st == -1)
        snprintf(text, size, "could not be started");
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        snprintf(text, size, "was not found or could not be run (status 127)");
    else if (WIFEXITED(st) && WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 128 + 32)
        snprintf(text, size, "exited with status %d (the shell's word for signal %d, %s)",
                 WEXITSTATUS(st), WEXITSTATUS(st) - 128, strsignal(WEXITSTATUS(st) - 128));
    else if (WIFEXITED(st))
        snprintf(text, size, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(text, size, "was killed by signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else
        snprintf(text, size, "ended with wait status %d", st);
}

/* The message of a failed run: how it ended, the ERROR line (or last line) of its log and
 * of its output (standard output and error), and where they are kept */
static int lammps_failed(const char *program, const char *input, const char *log,
                         const char *out, int st)
{
    char ending[96], in_log[512], in_out[512];
    lammps_ending(st, ending, sizeof ending);
    lammps_telling_line(log, in_log, sizeof in_log);
    lammps_telling_line(out, in_out, sizeof in_out);
    return mb_error_record(MB_EIO, __FILE__, __LINE__,
                           "LAMMPS '%s' on '%s' %s; its log %s: %s; its output %s: %s",
                           program, input, ending, log, in_log, out, in_out);
}

int mb_bench_lammps_run(const char *program, const char *input, const char *log,
                        const char *vars)
{
    if (strchr(program, '\'') || strchr(input, '\'') || strchr(log, '\''))
        MB_ERROR(MB_EINVAL, "LAMMPS '%s' on '%s', log '%s': a path holds a single quote",
                 program, input, log);
    size_t out_size = strlen(log) + sizeof ".out";
    size_t size = strlen(program) + strlen(input) + strlen(log) + out_size + strlen(vars) + 128;
    char *cmd = malloc(size), *out = malloc(out_size);
    if (cmd == NULL || out == NULL) {
        free(cmd);
        free(out);
        MB_ERROR(MB_ENOMEM, "out of memory");
    }
    lammps_output(log, out, out_size);
    snprintf(cmd, size, "OMP_NUM_THREADS=1 '%s' -in '%s' -log '%s' -screen none %s "
             "> '%s' 2>&1", program, input, log, vars, out);
    unlink(log);                /* an earlier run's log would hide a start that wrote none */
    int st = system(cmd);
    if (st != 0 && access(log, F_OK) != 0) {    /* ended before LAMMPS wrote its log */
        char ending[96];
        lammps_ending(st, ending, sizeof ending);
        fprintf(stderr, "motionbench bench: LAMMPS '%s' on '%s' %s before writing its log "
                "(its start-up failed); starting it once more\n", program, input, ending);
        st = system(cmd);
    }
    free(cmd);
    if (st != 0)
        st = lammps_failed(program, input, log, out, st);
    else
        unlink(out);
    free(out);
    return st == 0 ? MB_SUCCESS : st;
}
