/* Errors, clocks, strict number parsing and machine facts shared by every
 * heat2d program. */
#define _POSIX_C_SOURCE 200809L

#include "heat2d.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int heat2d_fail(heat2d_error *err, const char *fmt, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
    }
    return -1;
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
    char *end = NULL;
    double parsed = strtod(text, &end);
    if (*end != '\0' || end == text)
        return heat2d_fail(err, "%s must be a non-negative number, got '%s'", what, text);
    if (!isfinite(parsed) || parsed < 0.0)
        return heat2d_fail(err, "%s must be a non-negative number, got '%s'", what, text);
    *value = parsed;
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

int heat2d_field_check_writable(const char *path, heat2d_error *err)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) != 0)
        return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(errno));
    return 0;
}
