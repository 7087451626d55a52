/* Fuzz target: the command-line argument parsers. The first byte picks the
 * parser; the rest, split at NUL bytes, is the argument text:
 *   0  heat2d_parse_size        (--nx, --ny, --steps, nx ny steps)
 *   1  heat2d_parse_nonneg_real (--atol, --rtol)
 *   2  heat2d_parse_alpha       (--alpha)
 *   3  heat2d_seed_args         (cpu_reference [nx [ny [steps [field_path]]]])
 *   4  the run options' parsers (run_options.h), the row picked by the
 *      argument's length: a count or a choice of names
 *
 * Properties: a success is what the C library reads from the same text and
 * within the documented range; a failure is one line that names what was
 * wrong. */
#include "fuzz.h"
#include "heat2d.h"
#include "run_options.h"

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

/* A value a row's parser accepts is written back by its text to what
 * parses to the same value; a refusal is one line. */
static void check_run_option(const char *text)
{
    const heat2d_option_def *rows[HEAT2D_N_OPTIONS];
    size_t n = 0;
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k)
        if (heat2d_run_options[k].parse != NULL)
            rows[n++] = &heat2d_run_options[k];
    if (n == 0)
        return;
    const heat2d_option_def *o = rows[strlen(text) % n];
    size_t value = 0;
    heat2d_error err = {{0}};
    if (o->parse(o, text, &value, &err) == 0) {
        char back[128];
        o->text(o, value, back, sizeof back);
        size_t again = 0;
        FUZZ_REQUIRE(o->parse(o, back, &again, &err) == 0 && again == value);
    } else {
        FUZZ_REQUIRE(fuzz_one_line(err.message));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned which = data[0] % 5;
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
    case 3:
        check_seed_args(argc, argv);
        break;
    default:
        check_run_option(first);
        break;
    }
    free(copy);
    return 0;
}
