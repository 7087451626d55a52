/* Errors: the message a failing call hands back (control characters
 * escaped, so that it stays one line), and the one line a program prints. */
#include "heat2d_method.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The escaped form of c into esc (at most 4 bytes); its length. Messages
 * echo file names and arguments, which may hold a newline or an escape
 * sequence; written raw they would break the one-line contract (or the
 * terminal). C0 controls and DEL are escaped; bytes >= 0x80 are left
 * alone, they are UTF-8 in any name a user typed. */
static size_t escape_byte(unsigned char c, char esc[5])
{
    if (c >= 0x20 && c != 0x7f) {
        esc[0] = (char)c;
        return 1;
    }
    if (c == '\n' || c == '\t' || c == '\r') {
        esc[0] = '\\';
        esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        return 2;
    }
    snprintf(esc, 5, "\\x%02x", (unsigned)c);
    return 4;
}

static size_t escaped_length(const unsigned char *text, size_t len)
{
    size_t n = 0;
    char esc[5];
    for (size_t k = 0; k < len; ++k)
        n += escape_byte(text[k], esc);
    return n;
}

static size_t append_escaped(char *out, size_t n, const unsigned char *text, size_t len)
{
    for (size_t k = 0; k < len; ++k)
        n += escape_byte(text[k], out + n);
    return n;
}

void heat2d_put_escaped(FILE *stream, const char *text)
{
    char esc[5];
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; ++p)
        fwrite(esc, 1, escape_byte(*p, esc), stream);
}

int heat2d_vfail(heat2d_error *err, const char *fmt, va_list args)
{
    if (err == NULL)
        return -1;
    va_list again;
    va_copy(again, args);
    int needed = vsnprintf(NULL, 0, fmt, args);
    char *raw = needed >= 0 ? malloc((size_t)needed + 1) : NULL;
    if (raw == NULL) {
        /* Out of memory (or a bad format): the fixed buffer, cut at its end. */
        vsnprintf(err->message, sizeof err->message, fmt, again);
        va_end(again);
        return -1;
    }
    vsnprintf(raw, (size_t)needed + 1, fmt, again);
    va_end(again);
    const unsigned char *text = (const unsigned char *)raw;
    size_t len = (size_t)needed;
    const size_t cap = sizeof err->message - 1;
    /* A message longer than the buffer (a long path) loses its middle, not
     * its end: the reason comes last. */
    static const char gap[] = "...";
    size_t head = len, tail_at = len;
    if (escaped_length(text, len) > cap) {
        size_t room = cap - (sizeof gap - 1), tail_room = room / 2, used = 0;
        char esc[5];
        tail_at = len;
        while (tail_at > 0 && used + escape_byte(text[tail_at - 1], esc) <= tail_room)
            used += escape_byte(text[--tail_at], esc);
        while (tail_at < len && (text[tail_at] & 0xc0) == 0x80)
            ++tail_at; /* not in the middle of a UTF-8 character */
        used = escaped_length(text + tail_at, len - tail_at);
        head = 0;
        while (head < tail_at && used + escape_byte(text[head], esc) <= room)
            used += escape_byte(text[head++], esc);
        while (head > 0 && (text[head] & 0xc0) == 0x80)
            --head;
    }
    size_t n = append_escaped(err->message, 0, text, head);
    if (head < tail_at) {
        memcpy(err->message + n, gap, sizeof gap - 1);
        n += sizeof gap - 1;
        n = append_escaped(err->message, n, text + tail_at, len - tail_at);
    }
    err->message[n] = '\0';
    free(raw);
    return -1;
}

int heat2d_fail(heat2d_error *err, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    heat2d_vfail(err, fmt, args);
    va_end(args);
    return -1;
}

static bool reports_quiet;

void heat2d_report_quiet(bool quiet)
{
    reports_quiet = quiet;
}

int heat2d_report_error(int status, const char *fmt, ...)
{
    heat2d_error err;
    va_list args;
    va_start(args, fmt);
    heat2d_vfail(&err, fmt, args);
    va_end(args);
    if (!reports_quiet)
        fprintf(stderr, "heat2d: %s\n", err.message);
    return status;
}
