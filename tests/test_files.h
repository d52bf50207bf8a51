/* test_files.h -- reading a whole file in a test (header only). */
#ifndef MB_TEST_FILES_H
#define MB_TEST_FILES_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

/* The bytes of the file at path, NUL-terminated (malloc'ed), their number into *len when len
 * is not NULL; NULL when the file cannot be opened. */
static inline char *tf_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n, "short read of %s", path);
    text[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return text;
}

/* The same for dir/name, which must exist. */
static inline char *tf_read_in(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = tf_read_file(path, len);
    cr_assert_not_null(text, "cannot open %s", path);
    return text;
}

#endif
