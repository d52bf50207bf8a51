/* test_ini_read.c -- the one INI reader (mb_ini.h): each rule of its policy, the true line
 * of every section, entry and error, and every error message once.  The expected lines
 * and lengths are counted by hand from the texts below (they do not come from the
 * reader). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_ini.h"
#include "mb_status.h"

static mb_ini_doc *read_ok(const char *text, size_t len)
{
    mb_ini_doc *d = NULL;
    int st = mb_ini_read_text("t.ini", text, len, &d);
    cr_assert_eq(st, MB_SUCCESS, "%s", mb_last_error());
    cr_assert_not_null(d);
    return d;
}

static void expect_entry(const mb_ini_doc *d, const char *section, const char *key,
                         const char *value, int line)
{
    const mb_ini_entry *e = mb_ini_find(d, section, key);
    cr_assert_not_null(e, "[%s] %s missing", section, key);
    cr_expect_str_eq(e->value, value, "[%s] %s", section, key);
    cr_expect_eq(e->line, line, "[%s] %s at line %d, expected %d", section, key, e->line, line);
}

/* The text is refused with exactly this message. */
static void expect_refused(const char *text, size_t len, const char *message)
{
    mb_ini_doc *d = (mb_ini_doc *)0x1;
    cr_expect_eq(mb_ini_read_text("t.ini", text, len, &d), MB_EINVAL, "accepted: %s", message);
    cr_expect_null(d);
    cr_expect_str_eq(mb_last_error(), message);
}

#define TEXT(s) s, sizeof s - 1

Test(ini_read, sections_entries_and_lines)
{
    mb_ini_doc *d = read_ok(TEXT("; a comment\n# another\n\n[ case ]\nname = a b  \n"
                                 "t_end=2.5 ; inline comment\nurl = a;b\n[run]\n"
                                 "leapfrog[k=1,m=2].order = 2 +- 0.1\n"
                                 "external:peer.error = < 1\n[empty]\n"));
    cr_assert_eq(d->n, 3);
    cr_expect_str_eq(d->sec[0].name, "case");
    cr_expect_eq(d->sec[0].line, 4);
    cr_expect_eq(d->sec[1].line, 8);
    cr_expect_str_eq(d->sec[2].name, "empty");     /* a section without keys is kept */
    cr_expect_eq(d->sec[2].line, 11);
    cr_expect_eq(d->sec[2].n, 0);
    expect_entry(d, "case", "name", "a b", 5);
    expect_entry(d, "case", "t_end", "2.5", 6);
    expect_entry(d, "case", "url", "a;b", 7);      /* ';' not after a blank is text */
    expect_entry(d, "run", "leapfrog[k=1,m=2].order", "2 +- 0.1", 9);
    expect_entry(d, "run", "external:peer.error", "< 1", 10);
    cr_expect_null(mb_ini_find(d, "run", "name"));
    cr_expect_null(mb_ini_find(d, "nowhere", "name"));
    cr_expect_eq(d->sec[0].items[1].line, 6, "entries in the order of the file");
    mb_ini_free(d);
}

Test(ini_read, line_ends_and_bom)
{
    /* LF, CR LF and a lone CR each end one line: the keys are on lines 2, 3, 4 and 5 */
    mb_ini_doc *d = read_ok(TEXT("\xEF\xBB\xBF[s]\r\na = 1\r\nb = 2\rc = 3\nd = 4\r"));
    expect_entry(d, "s", "a", "1", 2);
    expect_entry(d, "s", "b", "2", 3);
    expect_entry(d, "s", "c", "3", 4);
    expect_entry(d, "s", "d", "4", 5);
    cr_expect_eq(d->sec[0].line, 1, "the byte-order mark is not part of line 1");
    mb_ini_free(d);
    d = read_ok(TEXT("[s]\r\r\na = 1"));    /* CR, then CR LF: an empty line 2; no end */
    expect_entry(d, "s", "a", "1", 3);
    mb_ini_free(d);
}

Test(ini_read, continuation_lines)
{
    mb_ini_doc *d = read_ok(TEXT("[s]\nlist = a,\n    b, ; comment\n\tc\nnext = 1\n[t]\n"
                                 "  indented = 2\n"));
    expect_entry(d, "s", "list", "a, b, c", 2);    /* joined with one blank, its key's line */
    expect_entry(d, "s", "next", "1", 5);
    /* right after a header an indented line is a key, not a continuation */
    expect_entry(d, "t", "indented", "2", 7);
    mb_ini_free(d);
}

Test(ini_read, long_lines)
{
    char text[1200];
    char pad[600];
    memset(pad, 'x', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    /* a comment of 601 characters is cut, not refused */
    int n = snprintf(text, sizeof text, "[s]\n;%s\na = 1\n", pad);
    mb_ini_doc *d = read_ok(text, (size_t)n);
    expect_entry(d, "s", "a", "1", 3);
    mb_ini_free(d);
    /* the limit itself: "v = " and 194 characters make 198 */
    n = snprintf(text, sizeof text, "[s]\nv = %.194s\n", pad);
    d = read_ok(text, (size_t)n);
    cr_expect_eq(strlen(mb_ini_find(d, "s", "v")->value), 194);
    mb_ini_free(d);
    n = snprintf(text, sizeof text, "[s]\nv = %.195s\nw = 1\n", pad);
    expect_refused(text, (size_t)n, "t.ini:2: line of 199 characters is longer than the limit "
                   "of 198 (continue a long value on an indented line)");
    /* a 241-character line as the last of 8: its own line, its true length */
    n = snprintf(text, sizeof text, "[a]\nb = 1\nc = 2\nd = 3\ne = 4\nf = 5\ng = 6\nsummary = %.231s\n",
                 pad);
    expect_refused(text, (size_t)n, "t.ini:8: line of 241 characters is longer than the limit "
                   "of 198 (continue a long value on an indented line)");
}

Test(ini_read, errors)
{
    expect_refused(TEXT("[s]\na = 1\nb = x\0y\n"), "t.ini:3: NUL byte at column 6 (not a text file)");
    expect_refused(TEXT("\xFF\xFE[\0s\0]\0"), "t.ini:1: UTF-16 or UTF-32 text (save the file as "
                   "UTF-8)");
    expect_refused(TEXT("[s]\na = 1\n\nb = 2\na = 3\n"),
                   "t.ini:5: duplicate key 'a' in [s] (first at line 2)");
    expect_refused(TEXT("[s]\na = 1\n[t]\n[s]\n"), "t.ini:4: duplicate section [s] (first at line 1)");
    expect_refused(TEXT("a = 1\n[s]\n"), "t.ini:1: 'a' is outside any section (start with a "
                   "[SECTION] header)");
    expect_refused(TEXT("[s]\na =\n"), "t.ini:2: 'a' has an empty value");
    expect_refused(TEXT("[s]\na = ; only a comment\n"), "t.ini:2: 'a' has an empty value");
    expect_refused(TEXT("[s]\n= 1\n"), "t.ini:2: '= 1': a key comes before '='");
    expect_refused(TEXT("[s]\nnot a pair\n"), "t.ini:2: 'not a pair': expected KEY = VALUE");
    expect_refused(TEXT("[s]\ntimeout: 5\n"), "t.ini:2: 'timeout: 5': expected KEY = VALUE "
                   "(':' does not separate a key from its value)");
    expect_refused(TEXT("[s]\n[t\n"), "t.ini:2: '[t': a section header ends with ']'");
    expect_refused(TEXT("[s]\n[ ]\n"), "t.ini:2: empty section name '[]'");
    expect_refused(TEXT("[s]\na[k=1.m = 2\n"), "t.ini:2: 'a[k=1.m = 2': a '[' of the key is not "
                   "closed (write KEY = VALUE)");
}

Test(ini_read, files)
{
    char path[] = "/tmp/test_ini_read_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    static const char text[] = "[s]\r\nk = v\r\n";
    cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    mb_ini_doc *d = NULL;
    cr_assert_eq(mb_ini_read(path, MB_INPUT_CASE, &d), MB_SUCCESS, "%s", mb_last_error());
    cr_expect_str_eq(d->path, path);
    expect_entry(d, "s", "k", "v", 2);
    mb_ini_free(d);
    unlink(path);
    cr_expect_eq(mb_ini_read("/dev/null", MB_INPUT_CASE, &d), MB_EINVAL);
    cr_expect(strstr(mb_last_error(), "/dev/null: not a regular file (character device): a case "
                     "file must be a regular file") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_ini_read("/nonexistent/x.ini", MB_INPUT_CASE, &d), MB_EIO);
}

/* n keys are read in O(n) (an index, not n^2 comparisons): 50 000 keys and one duplicate
 * at the end, found with both lines. */
Test(ini_read, many_keys)
{
    size_t cap = 50000 * 16 + 64, len = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    len += (size_t)snprintf(text + len, cap - len, "[s]\n");
    for (int k = 0; k < 50000; k++)
        len += (size_t)snprintf(text + len, cap - len, "k%d = %d\n", k, k);
    len += (size_t)snprintf(text + len, cap - len, "k7 = 0\n");
    expect_refused(text, len, "t.ini:50002: duplicate key 'k7' in [s] (first at line 9)");
    free(text);
}
