/* test_status.c -- the thread-local error record behind MB_ERROR (mb_status.h): message,
 * code and source location of the last error, cleared by mb_clear_error, and private to
 * the thread that recorded it. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mb_status.h"

static int fails_here(int *line)
{
    *line = __LINE__ + 1;
    MB_ERROR(MB_EDOM, "k = %d is out of range", 7);
}

Test(status, record_has_message_code_and_location)
{
    mb_clear_error();
    int line;
    cr_expect_eq(fails_here(&line), MB_EDOM);
    cr_expect_str_eq(mb_last_error(), "k = 7 is out of range");
    cr_expect_eq(mb_last_error_code(), MB_EDOM);
    char where[256];
    snprintf(where, sizeof where, "%s:%d", __FILE__, line);
    cr_expect_str_eq(mb_last_error_location(), where);
    mb_clear_error();
    cr_expect_str_eq(mb_last_error(), "");
    cr_expect_str_eq(mb_last_error_location(), "");
    cr_expect_eq(mb_last_error_code(), MB_SUCCESS);
}

static void *record_elsewhere(void *arg)
{
    (void)arg;
    mb_error_record(MB_EIO, "elsewhere.c", 3, "another thread");
    return NULL;
}

Test(status, record_is_private_to_its_thread)
{
    mb_clear_error();
    mb_error_record(MB_EINVAL, "here.c", 1, "this thread");
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, record_elsewhere, NULL), 0);
    pthread_join(th, NULL);
    cr_expect_str_eq(mb_last_error(), "this thread");
    cr_expect_str_eq(mb_last_error_location(), "here.c:1");
    cr_expect_eq(mb_last_error_code(), MB_EINVAL);
}

/* The record holds 1023 bytes: a longer message keeps its first 1015 and ends with the
 * cut mark "...[cut]" (mb_text.h); one of exactly 1023 bytes is whole (control). */
Test(status, long_message_is_cut_with_the_mark)
{
    static char text[3000], want[1024];
    memset(text, 'e', sizeof text - 1);
    memset(want, 'e', 1015);
    memcpy(want + 1015, "...[cut]", 9);
    mb_error_record(MB_EINVAL, "here.c", 1, "%s", text);
    cr_expect_eq(strlen(mb_last_error()), 1023);
    cr_expect_str_eq(mb_last_error(), want);
    text[1023] = '\0';
    mb_error_record(MB_EINVAL, "here.c", 1, "%s", text);
    cr_expect_str_eq(mb_last_error(), text, "a text of the record's capacity is not marked");
}
