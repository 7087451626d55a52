/* Fuzz target: the command-line argument parsers. The first byte picks the
 * parser; the rest, split at NUL bytes, is the argument text:
 *   0  heat2d_parse_size        (--nx, --ny, --steps, nx ny steps)
 *   1  heat2d_parse_nonneg_real (--atol, --rtol)
 *   2  heat2d_parse_alpha       (--alpha)
 *   3  heat2d_seed_args         (cpu_reference [nx [ny [steps [field_path]]]])
 *
 * Properties: a success is what the C library reads from the same text and
 * within the documented range; a failure is one line that names what was
 * wrong. */
#include "fuzz.h"
#include "heat2d.h"

#include <errno.h>
#include <math.h>

#define MAX_ARGS 8

static void check_size(const char *text)
{
    size_t value = 0;
    heat2d_error err = {{0}};
    if (heat2d_parse_size(text, "--nx", &value, &err) == 0) {
        /* Digits only, positive, and what strtoull reads. */
        FUZZ_REQUIRE(value > 0);
        for (const char *c = text; *c; ++c)
            FUZZ_REQUIRE(*c >= '0' && *c <= '9');
        errno = 0;
        FUZZ_REQUIRE(strtoull(text, NULL, 10) == value && errno == 0);
    } else {
        FUZZ_REQUIRE(fuzz_one_line(err.message));
        FUZZ_REQUIRE(strncmp(err.message, "--nx ", 5) == 0);
    }
}

static void check_nonneg(const char *text)
{
    double value = -1.0;
    heat2d_error err = {{0}};
    if (heat2d_parse_nonneg_real(text, "--atol", &value, &err) == 0) {
        FUZZ_REQUIRE(isfinite(value) && value >= 0.0);
        char *end = NULL;
        double want = strtod(text, &end);
        FUZZ_REQUIRE(*end == '\0' && memcmp(&want, &value, sizeof want) == 0);
    } else {
        FUZZ_REQUIRE(fuzz_one_line(err.message));
        FUZZ_REQUIRE(strncmp(err.message, "--atol must be a non-negative number", 36) == 0);
    }
}

static void check_alpha(const char *text)
{
    double value = -1.0;
    heat2d_error err = {{0}};
    if (heat2d_parse_alpha(text, "--alpha", &value, &err) == 0) {
        FUZZ_REQUIRE(value > 0.0 && value <= HEAT2D_MAX_ALPHA);
    } else {
        FUZZ_REQUIRE(fuzz_one_line(err.message));
        FUZZ_REQUIRE(strncmp(err.message, "--alpha ", 8) == 0);
    }
}

static void check_seed_args(int argc, char **argv)
{
    heat2d_config cfg;
    const char *path = NULL;
    heat2d_error err = {{0}};
    if (heat2d_seed_args(argc, argv, &cfg, &path, &err) == 0) {
        FUZZ_REQUIRE(argc <= 5);
        FUZZ_REQUIRE(cfg.nx >= HEAT2D_MIN_SIDE && cfg.ny >= HEAT2D_MIN_SIDE && cfg.steps >= 1);
        FUZZ_REQUIRE(cfg.alpha == HEAT2D_ALPHA && cfg.fault_nan_step == 0);
        FUZZ_REQUIRE(path == NULL ? argc <= 4 : (argc == 5 && path == argv[4] && *path != '\0'));
    } else {
        FUZZ_REQUIRE(fuzz_one_line(err.message));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned which = data[0] % 4;
    /* The arguments as C strings: a copy with a NUL after the last. */
    char *copy = malloc(size);
    if (copy == NULL)
        return 0;
    memcpy(copy, data + 1, size - 1);
    copy[size - 1] = '\0';
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    argv[argc++] = "cpu_reference";
    const char *last = copy + size - 1; /* the NUL after the last argument */
    for (char *p = copy; argc < MAX_ARGS;) {
        argv[argc++] = p;
        char *nul = p + strlen(p);
        if (nul >= last)
            break;
        p = nul + 1;
    }
    argv[argc] = NULL;
    const char *first = argc > 1 ? argv[1] : "";
    switch (which) {
    case 0:
        check_size(first);
        break;
    case 1:
        check_nonneg(first);
        break;
    case 2:
        check_alpha(first);
        break;
    default:
        check_seed_args(argc, argv);
        break;
    }
    free(copy);
    return 0;
}
