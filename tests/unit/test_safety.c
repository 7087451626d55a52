/* Unit tests of the input checks and fault detection: one-line messages
 * whatever the input, the argument parsers' edges, the stability limit, the
 * seed programs' arguments, the per-step finiteness check of the host
 * kernel, and the messages of a run that turns non-finite. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "methods.h"
#include "unit_check.h"
#include "stencil_cpu.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void test_messages_are_one_line(void)
{
    heat2d_error err;
    heat2d_fail(&err, "got '%s'",
                "a\nb\tc\rd\x01"
                "e\x7f"
                "f\xc3\xa9");
    check(strcmp(err.message, "got 'a\\nb\\tc\\rd\\x01e\\x7ff\xc3\xa9'") == 0,
          "control characters escaped, UTF-8 kept: '%s'", err.message);
    /* A message longer than the buffer loses its middle, never its end
     * (the reason), never inside an escape or a UTF-8 character. */
    static char text[12000];
    for (size_t k = 0; k < 6000; ++k)
        text[k] = k % 2 ? '\n' : 'x';
    for (size_t k = 6000; k + 1 < 11000; k += 2)
        memcpy(text + k, "\xc3\xa9", 2);
    text[11000] = '\0';
    heat2d_fail(&err, "cannot write '%s': %s", text, "No such file or directory");
    size_t len = strlen(err.message);
    check(len < sizeof err.message && len >= sizeof err.message - 8, "cut message length %zu", len);
    check(strchr(err.message, '\n') == NULL, "cut message has no newline");
    check(strncmp(err.message, "cannot write 'x\\nx\\n", 20) == 0, "cut message keeps its start");
    static const char reason[] = "\xc3\xa9': No such file or directory";
    check(len > sizeof reason && strcmp(err.message + len - (sizeof reason - 1), reason) == 0,
          "cut message keeps its reason: '...%s'", err.message + len - 40);
    const char *gap = strstr(err.message, "...");
    check(gap != NULL && (gap[-1] == 'x' || (gap[-1] == 'n' && gap[-2] == '\\')) &&
              (unsigned char)gap[3] == 0xc3,
          "the cut is between whole escapes and whole characters");
    check(heat2d_fail(NULL, "%s", "ignored") == -1, "NULL err is allowed");
}

static void test_parsers(void)
{
    heat2d_error err;
    double v = -1.0;
    size_t n = 0;

    check(heat2d_parse_alpha("0.25", "--alpha", &v, &err) == 0 && v == 0.25, "alpha 1/4");
    check(heat2d_parse_alpha("0.1", "--alpha", &v, &err) == 0 && v == 0.1, "alpha 0.1");
    check(heat2d_parse_alpha("1e-300", "--alpha", &v, &err) == 0 && v == 1e-300, "tiny alpha");
    check(heat2d_parse_alpha("0.25000000000000006", "--alpha", &v, &err) != 0 &&
              strcmp(err.message, "--alpha 0.25000000000000006 is unstable: explicit 5-point "
                                  "diffusion needs alpha <= 1/4") == 0,
          "one ulp above 1/4: '%s'", err.message);
    const char *not_positive[] = {"0", "-0", "-0.1", "nan", "inf", "-inf", "", " 0.1", "0.1 ", "x"};
    for (size_t k = 0; k < sizeof not_positive / sizeof not_positive[0]; ++k) {
        char want[128];
        snprintf(want, sizeof want, "--alpha must be a positive number, got '%s'", not_positive[k]);
        check(heat2d_parse_alpha(not_positive[k], "--alpha", &v, &err) != 0 &&
                  strcmp(err.message, want) == 0,
              "alpha '%s': '%s'", not_positive[k], err.message);
    }
    check(heat2d_parse_nonneg_real(" 1", "--atol", &v, &err) != 0 &&
              strcmp(err.message, "--atol must be a non-negative number, got ' 1'") == 0,
          "leading blank refused: '%s'", err.message);
    check(heat2d_parse_nonneg_real("0", "--atol", &v, &err) == 0 && v == 0.0, "atol 0");
    check(heat2d_parse_size("007", "nx", &n, &err) == 0 && n == 7, "leading zeros");
    check(heat2d_parse_size("18446744073709551615", "nx", &n, &err) == 0 && n == SIZE_MAX,
          "SIZE_MAX parses");
    check(heat2d_parse_size("18446744073709551616", "nx", &n, &err) != 0 &&
              strcmp(err.message, "nx is too large: '18446744073709551616'") == 0,
          "2^64: '%s'", err.message);
}

static void test_seed_args(void)
{
    heat2d_config cfg;
    const char *path = "unset";
    heat2d_error err;
    char *none[] = {"prog", NULL};
    check(heat2d_seed_args(1, none, &cfg, &path, &err) == 0 && cfg.nx == 256 && cfg.ny == 256 &&
              cfg.steps == 80 && cfg.alpha == HEAT2D_ALPHA && path == NULL,
          "seed defaults");
    char *all[] = {"prog", "64", "48", "100", "out.dat", NULL};
    check(heat2d_seed_args(5, all, &cfg, &path, &err) == 0 && cfg.nx == 64 && cfg.ny == 48 &&
              cfg.steps == 100 && path == all[4],
          "seed arguments");
    char *many[] = {"prog", "1", "2", "3", "4", "5", NULL};
    check(heat2d_seed_args(6, many, &cfg, &path, &err) != 0 &&
              strcmp(err.message, "usage: prog [nx [ny [steps [field_path]]]]") == 0,
          "too many: '%s'", err.message);
    char *small[] = {"prog", "64", "4", NULL};
    check(heat2d_seed_args(3, small, &cfg, &path, &err) != 0 &&
              strcmp(err.message, "nx and ny must be >= 5, steps must be >= 1") == 0,
          "small: '%s'", err.message);
    char *empty[] = {"prog", "64", "64", "5", "", NULL};
    check(heat2d_seed_args(5, empty, &cfg, &path, &err) != 0 &&
              strcmp(err.message, "field_path must not be empty") == 0,
          "empty path: '%s'", err.message);
}

static void test_config_check(void)
{
    heat2d_error err;
    heat2d_config cfg = {.nx = 25, .ny = 21, .steps = 7, .alpha = HEAT2D_ALPHA};
    check(heat2d_config_check(&cfg, &err) == 0, "default config: %s", err.message);
    cfg.alpha = 0.3;
    check(heat2d_config_check(&cfg, &err) != 0 &&
              strcmp(err.message, "alpha 0.3 is unstable: explicit 5-point diffusion needs 0 < "
                                  "alpha <= 1/4") == 0,
          "library refuses alpha 0.3: '%s'", err.message);
    cfg.alpha = NAN;
    check(heat2d_config_check(&cfg, &err) != 0, "library refuses alpha NaN");
    cfg.alpha = 0.25;
    cfg.steps = 0;
    check(heat2d_config_check(&cfg, &err) != 0 && strcmp(err.message, "steps must be >= 1") == 0,
          "no steps: '%s'", err.message);
    cfg.steps = 1;
    cfg.nx = SIZE_MAX / 2;
    check(heat2d_config_check(&cfg, &err) != 0 && strstr(err.message, "overflows") != NULL,
          "overflow: '%s'", err.message);
}

/* The kernel's finiteness flag: any interior value of the field it reads
 * that is NaN or infinite, and nothing else. */
static void test_kernel_check(void)
{
    enum { NX = 9, NY = 7 };
    double u[NX * NY], v[NX * NY];
    const double special[] = {NAN, -NAN, INFINITY, -INFINITY};
    const double fine[] = {0.0, -0.0, DBL_MAX, -DBL_MAX, DBL_TRUE_MIN, DBL_MIN, 1.0};
    for (size_t j = 1; j + 1 < NY; ++j)
        for (size_t i = 1; i + 1 < NX; ++i) {
            for (size_t s = 0; s < sizeof special / sizeof special[0]; ++s) {
                memset(u, 0, sizeof u);
                u[j * NX + i] = special[s];
                bool all_rows = heat2d_cpu_step_rows(NX, NY, 0, NY, 0.1, u, v);
                /* Only the band holding row j sees it. */
                bool own = heat2d_cpu_step_rows(NX, NY, j, j + 1, 0.1, u, v);
                bool other =
                    heat2d_cpu_step_rows(NX, NY, j == 1 ? 2 : 1, j == 1 ? 3 : 2, 0.1, u, v);
                check(!all_rows && !own && other, "%g at (%zu, %zu): seen %d %d, not elsewhere %d",
                      special[s], i, j, !all_rows, !own, other);
            }
            for (size_t s = 0; s < sizeof fine / sizeof fine[0]; ++s) {
                memset(u, 0, sizeof u);
                u[j * NX + i] = fine[s];
                check(heat2d_cpu_step_rows(NX, NY, 0, NY, 0.1, u, v) &&
                          heat2d_cpu_rows_finite(NX, 0, NY, u),
                      "%g at (%zu, %zu) is finite", fine[s], i, j);
            }
        }
    /* The final check reads boundary cells too. */
    memset(u, 0, sizeof u);
    u[NX - 1] = NAN;
    check(!heat2d_cpu_rows_finite(NX, 0, 1, u) && heat2d_cpu_rows_finite(NX, 1, NY, u),
          "rows_finite sees a boundary NaN in its rows only");
}

static void test_nonfinite_messages(void)
{
    enum { NX = 6, NY = 5 };
    double f[NX * NY] = {0};
    size_t i = 99, j = 99;
    heat2d_error err;
    check(!heat2d_find_nonfinite(NX, NY, f, &i, &j), "all finite");
    f[3 * NX + 4] = -INFINITY;
    f[4 * NX + 1] = NAN;
    check(heat2d_find_nonfinite(NX, NY, f, &i, &j) && i == 4 && j == 3,
          "first in storage order: (%zu, %zu)", i, j);
    heat2d_fail_nonfinite(NX, NY, f, 17, &err);
    check(strcmp(err.message, "non-finite value at cell (4, 3) after step 17") == 0, "'%s'",
          err.message);
    heat2d_fail_nonfinite(NX, NY, f, 0, &err);
    check(strcmp(err.message, "non-finite value at cell (4, 3) in the initial state") == 0, "'%s'",
          err.message);
}

/* A whole run through heat2d_run_method with the hook, and without. */
static void test_run_fault_hook(void)
{
    heat2d_config cfg = {.nx = 30, .ny = 20, .steps = 10, .alpha = HEAT2D_ALPHA};
    heat2d_outcome out;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    heat2d_error err;
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        if (!m->checks_each_step)
            continue;
        setenv("HEAT2D_FAULT_NAN_AT_STEP", "7", 1);
        int rc = heat2d_run_method(m, &cfg, &out, storage, &field, &err);
        unsetenv("HEAT2D_FAULT_NAN_AT_STEP");
        check(rc != 0 && strcmp(err.message, "non-finite value at cell (28, 18) after step 7") == 0,
              "%s with a NaN after step 7: '%s'", m->name, err.message);
        rc = heat2d_run_method(m, &cfg, &out, storage, &field, &err);
        check(rc == 0, "%s without the hook: %s", m->name, rc ? err.message : "");
        if (rc == 0)
            heat2d_free_pair(storage[0], storage[1]);
    }
}

/* The device-memory refusal every GPU method shares (CUDA and OpenACC):
 * the message, and the cases that must pass. */
static void test_device_memory(void)
{
    heat2d_config cfg = {.nx = 32768, .ny = 32768, .steps = 1, .alpha = HEAT2D_ALPHA};
    heat2d_error err = {{0}};
    const size_t gb = 1000000000;
    check(heat2d_check_device_memory("cuda-resident", &cfg, 16 * gb, "GPU X", &err) == -1 &&
              strcmp(err.message, "cuda-resident: grid 32768x32768 needs 2 x 8.59 GB of device "
                                  "memory, more than the 16 GB free on GPU X") == 0,
          "device memory refusal: '%s'", err.message);
    check(heat2d_check_device_memory("cuda-resident", &cfg, 18 * gb, "GPU X", NULL) == 0,
          "17.2 GB of arrays fit in 18 GB free");
    check(heat2d_check_device_memory("acc-resident", &cfg, 0, "GPU X", NULL) == 0,
          "free memory not reported: no refusal");
}

int main(void)
{
    test_messages_are_one_line();
    test_parsers();
    test_seed_args();
    test_config_check();
    test_kernel_check();
    test_nonfinite_messages();
    test_run_fault_hook();
    test_device_memory();
    return unit_finish("test_safety");
}
