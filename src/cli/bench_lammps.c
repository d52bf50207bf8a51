/* bench_lammps.c -- LAMMPS as a benchmark peer (bench_lammps.h). */
#include "bench_lammps.h"
#include "mb_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            mb_error_record(MB_EIO, __FILE__, __LINE__, "LAMMPS's run of %ld steps, log %s, "
                            "failed", *steps, log);
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

int mb_bench_lammps_run(const char *program, const char *input, const char *log,
                        const char *vars)
{
    if (strchr(program, '\'') || strchr(input, '\'') || strchr(log, '\''))
        return -1;
    size_t size = strlen(program) + strlen(input) + strlen(log) + strlen(vars) + 128;
    char *cmd = malloc(size);
    if (cmd == NULL)
        return -1;
    snprintf(cmd, size, "OMP_NUM_THREADS=1 '%s' -in '%s' -log '%s' -screen none %s "
             "> /dev/null 2>&1", program, input, log, vars);
    int st = system(cmd);
    free(cmd);
    return st == 0 ? 0 : -1;
}
