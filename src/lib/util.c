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

int heat2d_vfail(heat2d_error *err, const char *fmt, va_list args)
{
    if (err == NULL)
        return -1;
    /* Messages echo file names and arguments, which may hold a newline or
     * an escape sequence; written raw they would break the one-line
     * contract (or the terminal). Escape C0 controls and DEL; leave bytes
     * >= 0x80 alone, they are UTF-8 in any name a user typed. */
    char raw[sizeof err->message];
    vsnprintf(raw, sizeof raw, fmt, args);
    size_t n = 0;
    const size_t cap = sizeof err->message;
    for (const unsigned char *c = (const unsigned char *)raw; *c != '\0'; ++c) {
        char esc[5];
        size_t len;
        if (*c >= 0x20 && *c != 0x7f) {
            esc[0] = (char)*c;
            len = 1;
        } else if (*c == '\n' || *c == '\t' || *c == '\r') {
            esc[0] = '\\';
            esc[1] = *c == '\n' ? 'n' : *c == '\t' ? 't' : 'r';
            len = 2;
        } else {
            snprintf(esc, sizeof esc, "\\x%02x", (unsigned)*c);
            len = 4;
        }
        if (n + len >= cap)
            break; /* cut short, but never mid-escape */
        memcpy(err->message + n, esc, len);
        n += len;
    }
    err->message[n] = '\0';
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

int heat2d_field_check_writable(const char *path, heat2d_error *err)
{
    /* The same cases as heat2d_field_write: a directory is refused, a
     * device or pipe is written in place, anything else through a temporary
     * file in the directory of the file (of the link's target, for a
     * symbolic link). */
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(EISDIR));
        if (!S_ISREG(st.st_mode)) {
            if (access(path, W_OK) != 0)
                return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(errno));
            return 0;
        }
    }
    char *resolved = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        resolved = realpath(path, NULL);
    const char *target = resolved ? resolved : path;
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash == NULL ? 0 : slash == target ? 1 : (size_t)(slash - target);
    char *dir = malloc(dir_len + 2);
    if (dir == NULL) {
        free(resolved);
        return heat2d_fail(err, "cannot write field file '%s': out of memory", path);
    }
    if (slash == NULL)
        strcpy(dir, ".");
    else {
        memcpy(dir, target, dir_len);
        dir[dir_len] = '\0';
    }
    /* access() on a regular file says EACCES (it has no search bit), which
     * hides what is wrong: "x.dat/f.dat" names no directory. */
    int rc = stat(dir, &st) == 0 && !S_ISDIR(st.st_mode) ? (errno = ENOTDIR, -1)
                                                         : access(dir, W_OK | X_OK);
    int e = errno;
    free(dir);
    free(resolved);
    if (rc != 0)
        return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(e));
    return 0;
}
