/* misbehaving_plugin.c -- plugin schemes that take down the process running them
 * (tests/test_plugin_isolation.sh, tests/hostile/catalogue).  Each is symplectic Euler for
 * translation,
 *     v+ = v + h a(x, t),   x+ = x + h v+,
 * for its first two steps; the third step misbehaves:
 *   segfaults    writes through a null pointer (SIGSEGV)
 *   aborts       calls abort() (SIGABRT)
 *   exits-zero   calls exit(0)
 *   exits-three  calls exit(3)
 *   hangs        waits for a signal forever; with MB_TEST_PID_FILE set it first writes its
 *                process id there, so that a test can check the process is gone
 *   closes-fds   closes every descriptor above 2, then steps on normally
 * The step counter is part of each run's state (hooks keep no mutable static data). */
#include "mb_plugin.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MISBEHAVE_AT 3     /* the step that misbehaves */

typedef enum { SEGFAULTS, ABORTS, EXITS_ZERO, EXITS_THREE, HANGS, CLOSES_FDS } misdeed;

typedef struct { misdeed what; long steps; } bad_state;

static int bad_alloc(misdeed what, void **state)
{
    bad_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        MB_ERROR(MB_ENOMEM, "misbehaving plugin: out of memory");
    s->what = what;
    *state = s;
    return MB_SUCCESS;
}

static void write_pid(void)
{
    const char *path = getenv("MB_TEST_PID_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
}

static void misbehave(misdeed what)
{
    switch (what) {
    case SEGFAULTS: {
        volatile int *volatile nowhere = NULL;   /* neither load nor store can be elided */
        *nowhere = 1;
        break;
    }
    case ABORTS:
        abort();
    case EXITS_ZERO:
        exit(0);
    case EXITS_THREE:
        exit(3);
    case HANGS:
        write_pid();
        for (;;)
            pause();
    case CLOSES_FDS:
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        break;
    }
}

static int bad_step(void *state, mb_system *sys, double h)
{
    bad_state *s = state;
    if (++s->steps == MISBEHAVE_AT)
        misbehave(s->what);
    mb_nodes *n = sys->nodes;
    int st = mb_forces_eval(sys->forces, n, sys->t);
    if (st != MB_SUCCESS)
        return st;      /* forces only: x, v and t untouched */
    for (size_t i = 0; i < n->n; i++)
        for (int d = 0; d < 3; d++) {
            size_t k = 3 * i + (size_t)d;
            double a = (n->blocked[i] & (MB_BLOCK_X << d)) ? 0.0 : n->f[k] * n->inv_mass[i];
            n->v[k] += h * a;
            n->x[k] += h * n->v[k];
        }
    sys->t += h;
    return MB_SUCCESS;
}

static void bad_free(void *state) { free(state); }

#define MISBEHAVING(id, NAME, what)                                                     \
    static int id##_alloc(void **state, const mb_options *opts, const mb_system *sys)  \
    {                                                                                  \
        (void)opts; (void)sys;                                                         \
        return bad_alloc(what, state);                                                 \
    }                                                                                  \
    static const mb_stepper_type id = {                                                \
        .name = NAME,                                                                  \
        .summary = "symplectic Euler that misbehaves at its third step (" NAME ")",    \
        .order = 1,                                                                    \
        .alloc = id##_alloc, .step = bad_step, .free = bad_free,                       \
    };

MISBEHAVING(segfaults, "segfaults", SEGFAULTS)
MISBEHAVING(aborts, "aborts", ABORTS)
MISBEHAVING(exits_zero, "exits-zero", EXITS_ZERO)
MISBEHAVING(exits_three, "exits-three", EXITS_THREE)
MISBEHAVING(hangs, "hangs", HANGS)
MISBEHAVING(closes_fds, "closes-fds", CLOSES_FDS)

const int mb_plugin_api_version = MB_PLUGIN_API_VERSION;

int mb_plugin_init(mb_plugin_registrar *r)
{
    const mb_stepper_type *all[] = { &segfaults, &aborts, &exits_zero, &exits_three, &hangs,
                                     &closes_fds };
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
        int st = r->register_stepper(r, all[k]);
        if (st != MB_SUCCESS)
            return st;
    }
    return MB_SUCCESS;
}
