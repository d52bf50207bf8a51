/* mb_text.h -- text formatted into a fixed buffer, a cut marked (internal).
 *
 * A run's message, an outside program's reason and the error record hold their text in
 * buffers of fixed size.  A text longer than its buffer is cut, and a cut text ends with
 * MB_TEXT_CUT_MARK, so that a reader can tell it is incomplete: the last bytes are
 * replaced by the mark, the text before it is the text's own first bytes, and the cut
 * never falls inside a UTF-8 character (it backs off to the character's first byte, by at
 * most three bytes), so a valid UTF-8 text stays valid.  The buffer is always terminated.
 *
 * The mark is "...[cut]": "..." alone is real text here ("name[k=v,...]", ", ..."), the
 * bracketed word is not.  A text that fits is written as vsnprintf writes it, unmarked,
 * up to size - 1 bytes.  (doc/hardening.md, "Texts of fixed size") */
#ifndef MB_TEXT_H
#define MB_TEXT_H

#include <stdarg.h>
#include <stddef.h>

#define MB_TEXT_CUT_MARK "...[cut]"

/* vsnprintf into buf[size], marked when cut: returns the length of the whole text (as
 * vsnprintf; the text was cut when it is >= size).  A format that fails (< 0) leaves
 * the mark alone.  size 0 writes nothing; a buffer shorter than the mark holds its
 * beginning. */
int mb_text_vformat(char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
int mb_text_format(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* text in buf[size], cut and marked when longer: returns buf, to be inserted with "%s"
 * where an inserted text is bounded to leave room for what follows it. */
const char *mb_text_clip(char *buf, size_t size, const char *text);
/* Mark buf[size], which holds the first size - 1 bytes of a longer text, cut by other
 * means (fgets): its end from the mark's place on is replaced by the mark, the cut backed
 * off to a UTF-8 character's first byte. */
void mb_text_mark_cut(char *buf, size_t size);

#endif
