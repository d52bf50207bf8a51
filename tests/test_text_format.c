/* test_text_format.c -- text formatted into a fixed buffer, a cut marked (mb_text.h): a text
 * longer than its buffer keeps its first bytes exactly and ends with "...[cut]"; a text of
 * exactly the buffer's capacity is whole and unmarked; a cut that would fall inside a UTF-8
 * character backs off to the character's first byte, so the result stays valid UTF-8.
 * Expected texts are written out here, and UTF-8 validity is checked by a decoder of this
 * file (RFC 3629, section 4), not by the code under test. */
#include <criterion/criterion.h>
#include <string.h>

#include "mb_text.h"

/* 1 when s is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF) */
static int utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p, len, min;
        unsigned long cp;
        if (c < 0x80) { p++; continue; }
        else if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
        else return 0;
        for (unsigned k = 1; k < len; k++) {
            if ((p[k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (p[k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        p += len;
    }
    return 1;
}

/* the decoder above tells a cut character from a whole one (its own control) */
Test(text_format, utf8_checker_controls)
{
    cr_expect(utf8_valid("abc \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
    cr_expect(!utf8_valid("abc \xC3"));
    cr_expect(!utf8_valid("abc \xE2\x82"));
    cr_expect(!utf8_valid("abc \xF0\x9F\x98"));
}

/* 26 letters into 16 bytes: 7 of them, the mark (8 bytes), the NUL */
Test(text_format, longer_text_keeps_its_first_bytes_and_ends_with_the_mark)
{
    char buf[16];
    int n = mb_text_format(buf, sizeof buf, "%s-%d", "abcdefghijklmnopqrstuvwxyz", 42);
    cr_expect_eq(n, 29, "the length of the whole text, as vsnprintf");
    cr_expect_str_eq(buf, "abcdefg...[cut]");
    cr_expect_eq(strlen(buf), 15);
}

/* a text of exactly the capacity (size - 1 bytes) is whole: no mark (control) */
Test(text_format, text_of_exactly_the_capacity_is_not_marked)
{
    char buf[16];
    int n = mb_text_format(buf, sizeof buf, "%s", "abcdefghijklmno");
    cr_expect_eq(n, 15);
    cr_expect_str_eq(buf, "abcdefghijklmno");
    /* one byte more does not fit: marked (the boundary from the other side) */
    n = mb_text_format(buf, sizeof buf, "%s", "abcdefghijklmnop");
    cr_expect_eq(n, 16);
    cr_expect_str_eq(buf, "abcdefg...[cut]");
}

/* 16-byte buffer: the cut falls after byte 7.  "abcdef" then U+00E9 (C3 A9) in bytes 6-7:
 * the cut would keep C3 alone; it backs off to byte 6. */
Test(text_format, cut_inside_a_two_byte_character_backs_off)
{
    char buf[16];
    mb_text_format(buf, sizeof buf, "%s", "abcdef\xC3\xA9xyzxyzxyzxyz");
    cr_expect_str_eq(buf, "abcdef...[cut]");
    cr_expect(utf8_valid(buf));
}

/* U+20AC (E2 82 AC) and U+1F600 (F0 9F 98 80) cut after each of their inner bytes */
Test(text_format, cut_inside_longer_characters_backs_off)
{
    char buf[16];
    mb_text_format(buf, sizeof buf, "%s", "abcde\xE2\x82\xAC" "0123456789");   /* after E2 82 */
    cr_expect_str_eq(buf, "abcde...[cut]");
    cr_expect(utf8_valid(buf));
    mb_text_format(buf, sizeof buf, "%s", "abcdef\xE2\x82\xAC" "0123456789");  /* after E2 */
    cr_expect_str_eq(buf, "abcdef...[cut]");
    cr_expect(utf8_valid(buf));
    mb_text_format(buf, sizeof buf, "%s", "abcd\xF0\x9F\x98\x80" "0123456789"); /* after 3 */
    cr_expect_str_eq(buf, "abcd...[cut]");
    cr_expect(utf8_valid(buf));
}

/* a cut on a character's boundary takes nothing more (control of the back-off) */
Test(text_format, cut_between_characters_does_not_back_off)
{
    char buf[16];
    mb_text_format(buf, sizeof buf, "%s", "abcde\xC3\xA9\xC3\xA9xyzxyzxyz");   /* C3 A9 | C3 */
    cr_expect_str_eq(buf, "abcde\xC3\xA9...[cut]");
    cr_expect(utf8_valid(buf));
    mb_text_format(buf, sizeof buf, "%s", "abcd\xE2\x82\xAC" "0123456789");     /* ... AC | 0 */
    cr_expect_str_eq(buf, "abcd\xE2\x82\xAC...[cut]");
    cr_expect(utf8_valid(buf));
}

/* buffers that cannot hold the mark keep its beginning; size 0 is left alone */
Test(text_format, tiny_buffers)
{
    char buf[8] = "unused";
    cr_expect_eq(mb_text_format(buf, 0, "%s", "abc"), 3);
    cr_expect_str_eq(buf, "unused");
    mb_text_format(buf, 4, "%s", "abcdefgh");
    cr_expect_str_eq(buf, "...");
    mb_text_format(buf, 4, "%s", "abc");
    cr_expect_str_eq(buf, "abc");
    mb_text_format(buf, 1, "%s", "abc");
    cr_expect_str_eq(buf, "");
}

/* an inserted text bounded by its own buffer: whole when it fits, else its first bytes and
 * the mark */
Test(text_format, clip_bounds_an_inserted_text)
{
    char shown[10 + sizeof "...[cut]"], out[64];
    mb_text_format(out, sizeof out, "file '%s' is odd",
                   mb_text_clip(shown, sizeof shown, "0123456789abcdefghij"));
    cr_expect_str_eq(out, "file '0123456789...[cut]' is odd");
    mb_text_format(out, sizeof out, "file '%s' is odd",
                   mb_text_clip(shown, sizeof shown, "0123456789abcdefgh"));
    cr_expect_str_eq(out, "file '0123456789abcdefgh' is odd");
}

/* a text cut by other means, filling its buffer: marked the same way */
Test(text_format, mark_cut_marks_a_filled_buffer)
{
    char buf[16];
    memcpy(buf, "abcdef\xC3\xA9xyzxyzx", 15);
    buf[15] = '\0';
    mb_text_mark_cut(buf, sizeof buf);
    cr_expect_str_eq(buf, "abcdef...[cut]");
}

/* the mark is the one the documents name */
Test(text_format, the_mark)
{
    cr_expect_str_eq(MB_TEXT_CUT_MARK, "...[cut]");
}
