/* test_register.c -- run-time registration of scheme types (mb_stepper_register):
 * refused types and their statuses, lookups that see registered types, and concurrent
 * registration from several threads (each name registered exactly once, none lost). */
#include "mb_stepper.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int nop_alloc(void **state, const mb_options *opts, const mb_system *sys)
{
    (void)opts; (void)sys;
    *state = NULL;
    return MB_SUCCESS;
}

static int nop_step(void *state, mb_system *sys, double h)
{
    (void)state;
    sys->t += h;
    return MB_SUCCESS;
}

static void nop_free(void *state) { (void)state; }

static int nop_alloc_mpfr(void **state, const mb_options *opts, const mb_system_mpfr *sys)
{
    (void)opts; (void)sys;
    *state = NULL;
    return MB_SUCCESS;
}

#define VALID(nm) { .name = (nm), .summary = "test type", .order = 1, \
                    .alloc = nop_alloc, .step = nop_step, .free = nop_free }

Test(register, refused_types)
{
    static const mb_stepper_type no_name = { .summary = "s", .order = 1, .alloc = nop_alloc,
                                             .step = nop_step, .free = nop_free };
    static const mb_stepper_type upper = VALID("Upper"), space = VALID("two words"),
        dot = VALID("a.b"), bracket = VALID("a[b]"), digit_first = VALID("2nd"),
        empty = VALID(""), taken = VALID("leapfrog");
    static const mb_stepper_type no_step = { .name = "no-step", .summary = "s", .order = 1,
                                             .alloc = nop_alloc, .free = nop_free };
    static const mb_stepper_type no_summary = { .name = "no-summary", .order = 1,
                                                .alloc = nop_alloc, .step = nop_step,
                                                .free = nop_free };
    static const mb_stepper_type rot_without_flag = { .name = "rot-no-flag", .summary = "s",
        .order = 1, .order_rotation = 2, .alloc = nop_alloc, .step = nop_step, .free = nop_free };
    static const mb_stepper_type half_without_sync = { .name = "half-no-sync", .summary = "s",
        .order = 2, .flags = MB_STEPPER_HALFSTEP, .alloc = nop_alloc, .step = nop_step,
        .free = nop_free };
    static const mb_stepper_type partial_twin = { .name = "partial-twin", .summary = "s",
        .order = 1, .alloc = nop_alloc, .step = nop_step, .free = nop_free,
        .alloc_mpfr = nop_alloc_mpfr };
    const struct { const mb_stepper_type *t; int status; const char *says; } cases[] = {
        { NULL, MB_EINVAL, "NULL" }, { &no_name, MB_EINVAL, "no name" },
        { &upper, MB_EINVAL, "'Upper' is not a valid" },
        { &space, MB_EINVAL, "not a valid" }, { &dot, MB_EINVAL, "not a valid" },
        { &bracket, MB_EINVAL, "not a valid" }, { &digit_first, MB_EINVAL, "not a valid" },
        { &empty, MB_EINVAL, "not a valid" }, { &taken, MB_EEXIST, "already registered" },
        { &no_step, MB_EINVAL, "missing: step" }, { &no_summary, MB_EINVAL, "summary" },
        { &rot_without_flag, MB_EINVAL, "order_rotation" },
        { &half_without_sync, MB_EINVAL, "synchronize" },
        { &partial_twin, MB_EINVAL, "go together" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cr_expect_eq(mb_stepper_register(cases[k].t), cases[k].status, "case %zu", k);
        cr_expect(strstr(mb_last_error(), cases[k].says) != NULL, "case %zu: '%s'", k,
                  mb_last_error());
    }
    cr_expect_null(mb_stepper_find("no-step"));
}

Test(register, registered_type_is_found_and_usable)
{
    static const mb_stepper_type mine = VALID("test-scheme-2385");
    cr_assert_eq(mb_stepper_register(&mine), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(mb_stepper_find("test-scheme-2385"), &mine);
    int listed = 0;
    for (const mb_stepper_type *const *t = mb_steppers(); *t; t++)
        listed += *t == &mine;
    cr_expect_eq(listed, 1);
    cr_expect_eq(mb_stepper_register(&mine), MB_EEXIST, "second registration accepted");
    const mb_stepper_type *type;
    mb_options *opts;
    cr_expect_eq(mb_stepper_parse("test-scheme-2385", &type, &opts), MB_SUCCESS, "%s",
                 mb_last_error());
    cr_expect_eq(type, &mine);
    mb_options_free(opts);
}

/* 8 threads each register the same 16 names (and look them up): every name must end up
 * registered exactly once, and each thread must see MB_SUCCESS or MB_EEXIST only. */
#define THREADS 8
#define NAMES 16
static char names[NAMES][32];
static mb_stepper_type types[THREADS][NAMES];
static int successes[NAMES];
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void *register_all(void *arg)
{
    long id = (long)arg;
    for (int k = 0; k < NAMES; k++) {
        mb_stepper_type *t = &types[id][k];
        *t = (mb_stepper_type)VALID(names[k]);
        int st = mb_stepper_register(t);
        if (st == MB_SUCCESS) {
            pthread_mutex_lock(&count_lock);
            successes[k]++;
            pthread_mutex_unlock(&count_lock);
        } else if (st != MB_EEXIST) {
            return (void *)1;
        }
        if (mb_stepper_find(names[k]) == NULL)
            return (void *)2;
    }
    return NULL;
}

Test(register, concurrent_registration)
{
    for (int k = 0; k < NAMES; k++)
        snprintf(names[k], sizeof names[k], "concurrent-%d", k);
    pthread_t tid[THREADS];
    for (long i = 0; i < THREADS; i++)
        cr_assert_eq(pthread_create(&tid[i], NULL, register_all, (void *)i), 0);
    for (int i = 0; i < THREADS; i++) {
        void *ret;
        pthread_join(tid[i], &ret);
        cr_expect_null(ret, "thread %d: %ld", i, (long)ret);
    }
    for (int k = 0; k < NAMES; k++)
        cr_expect_eq(successes[k], 1, "%s registered %d times", names[k], successes[k]);
}
