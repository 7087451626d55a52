/* Clocks, strict number parsing for command lines, and the seed programs'
 * positional arguments. */
#define _POSIX_C_SOURCE 200809L

#include "heat2d_args.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
