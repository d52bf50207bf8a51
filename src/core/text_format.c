/* text_format.c -- text formatted into a fixed buffer, a cut marked (see mb_text.h). */
#include "mb_text.h"

#include <stdio.h>
#include <string.h>

/* UTF-8: a continuation byte is 10xxxxxx; a character is at most 4 bytes, so a cut backs
 * off over at most 3 of them (RFC 3629, section 3). */
#define UTF8_MAX_CONTINUATION 3

static int continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

void mb_text_mark_cut(char *buf, size_t size)
{
    const size_t mark = sizeof MB_TEXT_CUT_MARK - 1;
    if (size == 0)
        return;
    if (size <= mark) {                /* not even the mark fits: its beginning */
        memcpy(buf, MB_TEXT_CUT_MARK, size - 1);
        buf[size - 1] = '\0';
        return;
    }
    size_t keep = size - 1 - mark;     /* the text's first bytes kept */
    size_t len = strnlen(buf, size - 1);
    if (keep > len)
        keep = len;
    /* buf[keep] is the first byte dropped: a continuation byte there would split a
     * character, whose first byte then goes too */
    for (int k = 0; k < UTF8_MAX_CONTINUATION && keep > 0
                    && continuation((unsigned char)buf[keep]); k++)
        keep--;
    memcpy(buf + keep, MB_TEXT_CUT_MARK, mark + 1);
}

int mb_text_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
    int n = vsnprintf(buf, size, fmt, ap);
    if (size == 0)
        return n;
    if (n < 0)                         /* nothing of the text: the mark alone */
        buf[0] = '\0';
    if (n < 0 || (size_t)n >= size)    /* n bytes did not fit in size - 1 */
        mb_text_mark_cut(buf, size);
    return n;
}

int mb_text_format(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = mb_text_vformat(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

const char *mb_text_clip(char *buf, size_t size, const char *text)
{
    mb_text_format(buf, size, "%s", text);
    return buf;
}
