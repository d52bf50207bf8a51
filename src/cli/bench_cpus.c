/* bench_cpus.c -- the processors a benchmark's timings ran on (bench_cpus.h). */
#define _GNU_SOURCE
#include "bench_cpus.h"

#include <sched.h>
#include <stdio.h>

static mb_bench_cpus seen;      /* the clock's set: one benchmark per process */

void mb_bench_cpus_add(mb_bench_cpus *set, int cpu)
{
    if (cpu < 0)
        return;
    if (cpu >= 64)
        set->beyond = 1;
    else
        set->bits |= UINT64_C(1) << cpu;
}

mb_bench_cpus mb_bench_cpus_seen(void)
{
    return seen;
}

void mb_bench_cpus_reset(void)
{
    seen = (mb_bench_cpus){ 0, 0 };
}

void mb_bench_cpus_note(void)
{
    mb_bench_cpus_add(&seen, sched_getcpu());
}

mb_bench_cpus mb_bench_cpus_allowed(void)
{
    mb_bench_cpus set = { 0, 0 };
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0)
        return set;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mask))
            mb_bench_cpus_add(&set, c);
    return set;
}

static int cpu_in(const mb_bench_cpus *set, int c)
{
    return (int)((set->bits >> c) & 1u);
}

/* appends piece to buf at *at as snprintf would, counting what does not fit */
static void append(char *buf, size_t len, int *at, const char *piece)
{
    size_t used = (size_t)*at < len ? (size_t)*at : len;
    int n = snprintf(buf + used, len - used, "%s%s", *at > 0 ? "," : "", piece);
    if (n > 0)
        *at += n;
}

int mb_bench_cpus_format(const mb_bench_cpus *set, char *buf, size_t len)
{
    char piece[16];
    int at = 0;
    if (len > 0)
        buf[0] = '\0';
    for (int c = 0; c < 64; c++) {
        if (!cpu_in(set, c))
            continue;
        int last = c;
        while (last + 1 < 64 && cpu_in(set, last + 1))
            last++;
        if (last == c)
            snprintf(piece, sizeof piece, "%d", c);
        else
            snprintf(piece, sizeof piece, "%d-%d", c, last);
        append(buf, len, &at, piece);
        c = last;
    }
    if (set->beyond)
        append(buf, len, &at, "64+");
    return at;
}

void mb_bench_cpus_report(FILE *out)
{
    mb_bench_cpus ran = mb_bench_cpus_seen(), allowed = mb_bench_cpus_allowed();
    if (ran.bits == 0 && !ran.beyond)
        return;
    char on[256], of[256];
    mb_bench_cpus_format(&ran, on, sizeof on);
    mb_bench_cpus_format(&allowed, of, sizeof of);
    fprintf(out, "# timed on processor(s) %s of %s allowed; processors of one machine can "
            "time a step differently: pin a rerun with taskset -c N (doc/performance.md)\n",
            on, of[0] ? of : "?");
}
