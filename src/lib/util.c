/* Errors, clocks, strict number parsing and machine facts shared by every
 * heat2d program. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* realpath */

#include "heat2d.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

double heat2d_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int heat2d_parse_size(const char *text, const char *what, size_t *value, heat2d_error *err)
{
    /* strtoull accepts leading blanks and a sign, which a size must not have,
     * so check the first character ourselves. */
    if (text == NULL || text[0] < '0' || text[0] > '9')
        return heat2d_fail(err, "%s must be a positive integer, got '%s'", what, text ? text : "");
    errno = 0;
    char *end = NULL;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (*end != '\0')
        return heat2d_fail(err, "%s must be a positive integer, got '%s'", what, text);
    if (errno == ERANGE || parsed > SIZE_MAX)
        return heat2d_fail(err, "%s is too large: '%s'", what, text);
    if (parsed == 0)
        return heat2d_fail(err, "%s must be a positive integer, got '%s'", what, text);
    *value = (size_t)parsed;
    return 0;
}

int heat2d_parse_nonneg_real(const char *text, const char *what, double *value, heat2d_error *err)
{
    if (text == NULL || *text == '\0')
        return heat2d_fail(err, "%s must be a non-negative number, got ''", what);
    /* strtod skips leading blanks; a number option does not (as sizes). */
    char *end = NULL;
    double parsed = isspace((unsigned char)text[0]) ? NAN : strtod(text, &end);
    if (end == NULL || *end != '\0' || end == text)
        return heat2d_fail(err, "%s must be a non-negative number, got '%s'", what, text);
    if (!isfinite(parsed) || parsed < 0.0)
        return heat2d_fail(err, "%s must be a non-negative number, got '%s'", what, text);
    *value = parsed;
    return 0;
}

int heat2d_parse_alpha(const char *text, const char *what, double *value, heat2d_error *err)
{
    char *end = NULL;
    double parsed = (text == NULL || isspace((unsigned char)text[0])) ? NAN : strtod(text, &end);
    if (end == NULL || end == text || *end != '\0' || !isfinite(parsed) || !(parsed > 0.0))
        return heat2d_fail(err, "%s must be a positive number, got '%s'", what, text ? text : "");
    if (parsed > HEAT2D_MAX_ALPHA)
        return heat2d_fail(err, "%s %s is unstable: explicit 5-point diffusion needs alpha <= 1/4",
                           what, text);
    *value = parsed;
    return 0;
}

int heat2d_seed_args(int argc, char *const *argv, heat2d_config *cfg, const char **field_path,
                     heat2d_error *err)
{
    *cfg = (heat2d_config){.nx = 256, .ny = 256, .steps = 80, .alpha = HEAT2D_ALPHA};
    *field_path = NULL;
    const char *program = argc > 0 && argv[0] != NULL ? argv[0] : "prog";
    if (argc > 5)
        return heat2d_fail(err, "usage: %s [nx [ny [steps [field_path]]]]", program);
    if ((argc > 1 && heat2d_parse_size(argv[1], "nx", &cfg->nx, err) != 0) ||
        (argc > 2 && heat2d_parse_size(argv[2], "ny", &cfg->ny, err) != 0) ||
        (argc > 3 && heat2d_parse_size(argv[3], "steps", &cfg->steps, err) != 0))
        return -1;
    if (argc > 4) {
        if (argv[4] == NULL || argv[4][0] == '\0')
            return heat2d_fail(err, "field_path must not be empty");
        *field_path = argv[4];
    }
    if (cfg->nx < HEAT2D_MIN_SIDE || cfg->ny < HEAT2D_MIN_SIDE)
        return heat2d_fail(err, "nx and ny must be >= %d, steps must be >= 1", HEAT2D_MIN_SIDE);
    return 0;
}

uint64_t heat2d_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)page_size;
}
