/* bench_lammps.c -- LAMMPS as a benchmark peer (bench_lammps.h). */
#include "bench_lammps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double mb_bench_lammps_loop_cpu(const char *log, long steps)
{
    FILE *f = fopen(log, "r");
    if (f == NULL)
        return -1.0;
    char line[512];
    double wall = -1.0, cpu = -1.0;
    while (fgets(line, sizeof line, f)) {
        double lt, pct;
        int procs;
        long s;
        if (sscanf(line, "Loop time of %lf on %d procs for %ld steps", &lt, &procs, &s) == 3
            && procs == 1 && s == steps)
            wall = lt;
        else if (wall >= 0.0 && cpu < 0.0 && sscanf(line, "%lf%% CPU use", &pct) == 1
                 && pct > 0.0 && pct <= 100.0)
            cpu = wall * pct / 100.0;
    }
    fclose(f);
    return cpu;
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
