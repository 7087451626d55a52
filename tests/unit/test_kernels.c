/* Unit tests of the kernel variants that must give cpu's bits exactly: the
 * streaming-store row kernel (omp on large fields), omp with either store
 * kind, every acc-resident schedule and acc-each, every omp-target-resident
 * schedule (with its teams and thread_limit asked for too) and
 * omp-target-each. The runs start from a u
 * whose boundary is not 0 and a v of garbage (as a device array made by
 * `create` may be), so that a method that stops writing the boundary too
 * early, or never writes v's, differs from cpu. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "methods.h"
#include "unit_check.h"
#include "stencil_cpu.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Deterministic values in [0, 1): every cell different, so that a cell read
 * from the wrong place or rounded differently shows. */
static void fill(double *a, size_t n, uint64_t seed)
{
    uint64_t x = seed * 2862933555777941757ull + 3037000493ull;
    for (size_t k = 0; k < n; ++k) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        a[k] = (double)(x >> 11) / 9007199254740992.0;
    }
}

/* The streaming kernel against the plain one, bit for bit, for every row
 * width from the smallest grid up (odd and even, so that both the aligned
 * head and the odd tail occur), with v aligned to 16 bytes and off by 8,
 * over whole grids and inner bands; and the same finiteness verdict. */
static void test_stream_rows(void)
{
    for (size_t nx = HEAT2D_MIN_SIDE; nx <= 41; ++nx) {
        const size_t ny = 9;
        const size_t n = nx * ny;
        double *u = malloc(n * sizeof(double));
        double *plain = malloc((n + 1) * sizeof(double));
        double *stream = malloc((n + 1) * sizeof(double));
        if (!check(u && plain && stream, "allocation"))
            goto next;
        fill(u, n, nx);
        for (size_t shift = 0; shift < 2; ++shift) {
            const size_t bands[][2] = {{0, ny}, {2, 5}, {ny - 1, ny}};
            for (size_t b = 0; b < 3; ++b) {
                double *p = plain + shift, *s = stream + shift;
                fill(p, n, 99);
                memcpy(s, p, n * sizeof(double));
                bool ok_p = heat2d_cpu_step_rows(nx, ny, bands[b][0], bands[b][1], 0.1, u, p);
                bool ok_s =
                    heat2d_cpu_step_rows_stream(nx, ny, bands[b][0], bands[b][1], 0.1, u, s);
                check(memcmp(p, s, n * sizeof(double)) == 0,
                      "stream rows: nx=%zu shift=%zu band %zu..%zu differs", nx, shift, bands[b][0],
                      bands[b][1]);
                check(ok_p && ok_s, "stream rows: nx=%zu finite field reported non-finite", nx);
            }
        }
        /* A non-finite value anywhere: both kernels give the same verdict
         * (interior centre values are checked, the boundary is not). */
        const double bad[] = {NAN, INFINITY, -INFINITY};
        for (size_t k = 0; k < n; k += 7) {
            double keep = u[k];
            u[k] = bad[k % 3];
            bool ok_p = heat2d_cpu_step_rows(nx, ny, 0, ny, 0.1, u, plain);
            bool ok_s = heat2d_cpu_step_rows_stream(nx, ny, 0, ny, 0.1, u, stream);
            check(ok_p == ok_s, "stream rows: nx=%zu bad cell %zu: verdict %d vs %d", nx, k, ok_p,
                  ok_s);
            u[k] = keep;
        }
    next:
        free(u);
        free(plain);
        free(stream);
    }
}

/* The initial state with a boundary that is not 0: the original reads u's
 * boundary in the first step and writes 0 there from the second on, and a
 * method that skips boundary writes must still match it. */
static void initial_field(const heat2d_config *cfg, double *u)
{
    size_t nx = cfg->nx, ny = cfg->ny;
    double *scratch = malloc(nx * ny * sizeof(double));
    heat2d_initial_state(nx, ny, u, scratch != NULL ? scratch : u);
    free(scratch);
    for (size_t i = 0; i < nx; ++i) {
        u[i] = 0.25;
        u[(ny - 1) * nx + i] = 0.5;
    }
    for (size_t j = 0; j < ny; ++j) {
        u[j * nx] = 0.125;
        u[j * nx + nx - 1] = 0.75;
    }
}

/* Whether prepare's refusal is an offload build's "no GPU here" (its
 * message names the way to run on the host instead): the one reason a
 * method may be skipped. Any other refusal is a failure. */
static bool no_gpu_here(const heat2d_error *err)
{
    return strstr(err->message, "set ACC_DEVICE_TYPE=host") != NULL ||
           strstr(err->message, "set OMP_TARGET_OFFLOAD=DISABLED") != NULL;
}

/* Runs method m's prepare and solve directly from initial_field, with v
 * filled with garbage, as a device array made by `create` may be, and
 * returns a malloc'd copy of the result, or NULL when prepare found no GPU
 * (*skipped says so, and the line why is printed) or anything failed (a
 * failed assertion). */
static double *run_from_garbage(const heat2d_method *m, const char *label, const heat2d_config *cfg,
                                bool *skipped)
{
    size_t n = cfg->nx * cfg->ny;
    double *u = malloc(n * sizeof(double));
    double *v = malloc(n * sizeof(double));
    double *copy = NULL;
    *skipped = false;
    if (!check(u && v, "allocation"))
        goto out;
    initial_field(cfg, u);
    fill(v, n, 7);
    v[0] = NAN; /* a boundary cell that must be overwritten */
    heat2d_report rep;
    heat2d_report_init(&rep);
    heat2d_error err = {{0}};
    if (m->prepare != NULL && m->prepare(cfg, &rep, &err) != 0) {
        if (no_gpu_here(&err)) {
            skip("%s: no GPU: %s", label, err.message);
            *skipped = true;
        } else {
            check(false, "%s: prepare refused: %s", label, err.message);
        }
        goto out;
    }
    double *result = NULL;
    if (!check(m->solve(cfg, u, v, &result, &rep, &err) == 0, "%s: %s", label, err.message))
        goto out;
    copy = malloc(n * sizeof(double));
    if (check(copy != NULL, "%s: allocation of the result's copy", label))
        memcpy(copy, result, n * sizeof(double));
out:
    free(u);
    free(v);
    return copy;
}

/* Method m against cpu's field `reference`, bit for bit. Returns false when
 * it was skipped. */
static bool run_against_cpu(const heat2d_method *m, const char *label, const heat2d_config *cfg,
                            const double *reference)
{
    bool skipped;
    double *field = run_from_garbage(m, label, cfg, &skipped);
    if (field != NULL)
        check(memcmp(field, reference, cfg->nx * cfg->ny * sizeof(double)) == 0,
              "%s differs from cpu at %zux%zu/%zu", label, cfg->nx, cfg->ny, cfg->steps);
    free(field);
    return !skipped;
}

/* Method m with each of the names in turn in the environment's variable
 * (NULL ends the list), against cpu's field; stops at the first run skipped
 * for want of a GPU. */
static void run_variants(const heat2d_method *m, const char *variable, const char *const *names,
                         const heat2d_config *cfg, const double *reference)
{
    for (size_t k = 0; m != NULL && names[k] != NULL; ++k) {
        setenv(variable, names[k], 1);
        char label[96];
        const char *teams = getenv("HEAT2D_OMP_TARGET_TEAMS");
        snprintf(label, sizeof label, "%s (%s=%s%s%s)", m->name, variable, names[k],
                 teams != NULL ? ", teams " : "", teams != NULL ? teams : "");
        if (!run_against_cpu(m, label, cfg, reference))
            break;
    }
    unsetenv(variable);
}

/* The method called name, or NULL with the line that says the build has
 * none (each build's `heat2d methods` is the test's reason). */
static const heat2d_method *method_or_skip(const char *name, const char *what)
{
    const heat2d_method *m = heat2d_method_find(name);
    if (m == NULL)
        skip("%s: this build has no %s", what, name);
    return m;
}

static void test_methods_against_cpu(void)
{
    const heat2d_config cases[] = {
        {.nx = 25, .ny = 21, .steps = 1, .alpha = HEAT2D_ALPHA},
        {.nx = 25, .ny = 21, .steps = 2, .alpha = HEAT2D_ALPHA},
        {.nx = 25, .ny = 21, .steps = 7, .alpha = HEAT2D_ALPHA},
        {.nx = 26, .ny = 21, .steps = 8, .alpha = HEAT2D_ALPHA},
        /* acc-resident's columns: whole blocks only (16 interior rows, 128
         * interior columns), then a partial block both ways. */
        {.nx = 130, .ny = 18, .steps = 5, .alpha = HEAT2D_ALPHA},
        {.nx = 131, .ny = 19, .steps = 6, .alpha = HEAT2D_ALPHA},
        /* columns2's: whole blocks of lanes of two columns
         * (256 interior columns, 16 rows), then partial ones (an odd width). */
        {.nx = 258, .ny = 18, .steps = 5, .alpha = HEAT2D_ALPHA},
        {.nx = 515, .ny = 21, .steps = 6, .alpha = HEAT2D_ALPHA},
        /* Enough cells for several omp threads; odd width. */
        {.nx = 1001, .ny = 703, .steps = 37, .alpha = HEAT2D_ALPHA},
    };
    const char *const schedules[] = {
        "seed",    "collapse",       "gang-vector",    "gang-worker",  "args-gang-vector",
        "columns", "columns-fitted", "worker-columns", "warp-columns", "columns2",
        NULL};
    const char *const target_schedules[] = {"seed",    "collapse", "rows", "args-rows",
                                            "columns", "columns2", NULL};
    /* Fewer teams than strips and blocks, so that a team takes several;
     * thread_limit below a block's lanes, so that a thread takes several. */
    const char *const target_teams[] = {"1", "3", NULL};
    const char *const stores[] = {"plain", "stream", NULL};
    const heat2d_method *omp = method_or_skip("omp", "omp against cpu");
    const heat2d_method *acc =
        method_or_skip("acc-resident", "acc-resident's schedules against cpu");
    const heat2d_method *each = method_or_skip("acc-each", "acc-each against cpu");
    const heat2d_method *target =
        method_or_skip("omp-target-resident", "omp-target-resident's schedules against cpu");
    const heat2d_method *target_each =
        method_or_skip("omp-target-each", "omp-target-each against cpu");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const heat2d_config *cfg = &cases[c];
        bool skipped;
        double *reference = run_from_garbage(heat2d_method_find("cpu"), "cpu", cfg, &skipped);
        if (!check(reference != NULL, "cpu's reference at %zux%zu/%zu", cfg->nx, cfg->ny,
                   cfg->steps))
            continue;
        run_variants(omp, "HEAT2D_OMP_STORES", stores, cfg, reference);
        run_variants(acc, "HEAT2D_ACC_SCHEDULE", schedules, cfg, reference);
        if (each != NULL)
            run_against_cpu(each, "acc-each", cfg, reference);
        /* The last case is omp's, for several threads: OpenMP target's
         * nested schedules on the host start a parallel region a row or a
         * block, which a busy machine's threads take long to meet. */
        if (c + 1 < sizeof cases / sizeof cases[0]) {
            run_variants(target, "HEAT2D_OMP_TARGET_SCHEDULE", target_schedules, cfg, reference);
            setenv("HEAT2D_OMP_TARGET_THREADS", "2", 1);
            for (size_t t = 0; target_teams[t] != NULL; ++t) {
                setenv("HEAT2D_OMP_TARGET_TEAMS", target_teams[t], 1);
                run_variants(target, "HEAT2D_OMP_TARGET_SCHEDULE", target_schedules, cfg,
                             reference);
            }
            unsetenv("HEAT2D_OMP_TARGET_TEAMS");
            unsetenv("HEAT2D_OMP_TARGET_THREADS");
            if (target_each != NULL)
                run_against_cpu(target_each, "omp-target-each", cfg, reference);
        }
        free(reference);
    }
}

/* A name that is not a choice is refused, with the choices. */
static void test_bad_settings(void)
{
    heat2d_config cfg = {.nx = 25, .ny = 21, .steps = 1, .alpha = HEAT2D_ALPHA};
    heat2d_report rep;
    heat2d_error err = {{0}};
    const heat2d_method *omp = method_or_skip("omp", "omp's HEAT2D_OMP_STORES");
    if (omp != NULL) {
        setenv("HEAT2D_OMP_STORES", "fast", 1);
        heat2d_report_init(&rep);
        check(omp->prepare(&cfg, &rep, &err) != 0 &&
                  strcmp(err.message, "omp: HEAT2D_OMP_STORES=fast is not plain, stream or auto") ==
                      0,
              "omp refuses HEAT2D_OMP_STORES=fast: '%s'", err.message);
        unsetenv("HEAT2D_OMP_STORES");
        heat2d_report_init(&rep);
        check(omp->prepare(&cfg, &rep, &err) == 0 && strstr(rep.device, "streaming") == NULL,
              "omp stores plainly by default: '%s'", rep.device);
        /* auto: streaming only for a field larger than any cache (prepare
         * allocates nothing, so the size costs nothing here). */
        setenv("HEAT2D_OMP_STORES", "auto", 1);
        heat2d_report_init(&rep);
        check(omp->prepare(&cfg, &rep, &err) == 0 && strstr(rep.device, "streaming") == NULL,
              "omp auto stores 25x21 plainly: '%s'", rep.device);
        heat2d_config big = {.nx = 16384, .ny = 16384, .steps = 1, .alpha = HEAT2D_ALPHA};
        heat2d_report_init(&rep);
        check(omp->prepare(&big, &rep, &err) == 0 &&
                  (strstr(rep.device, ", streaming stores)") != NULL) == heat2d_cpu_stream_stores(),
              "omp auto streams a 16384x16384 field (4 GiB) where it can: '%s'", rep.device);
        unsetenv("HEAT2D_OMP_STORES");
    }
    const heat2d_method *acc = method_or_skip("acc-resident", "acc-resident's HEAT2D_ACC_SCHEDULE");
    if (acc != NULL) {
        setenv("HEAT2D_ACC_SCHEDULE", "fastest", 1);
        heat2d_report_init(&rep);
        check(acc->prepare(&cfg, &rep, &err) != 0 &&
                  strcmp(err.message, "acc-resident: HEAT2D_ACC_SCHEDULE=fastest is not a "
                                      "schedule (seed, collapse, gang-vector, gang-worker, "
                                      "args-gang-vector, columns, columns-fitted, "
                                      "worker-columns, warp-columns, columns2)") == 0,
              "acc-resident refuses HEAT2D_ACC_SCHEDULE=fastest: '%s'", err.message);
        unsetenv("HEAT2D_ACC_SCHEDULE");
    }
    const heat2d_method *target =
        method_or_skip("omp-target-resident", "omp-target-resident's settings");
    const struct {
        const char *variable, *value, *message;
    } refusals[] = {
        {"HEAT2D_OMP_TARGET_SCHEDULE", "fastest",
         "omp-target-resident: HEAT2D_OMP_TARGET_SCHEDULE=fastest is not a schedule (seed, "
         "collapse, rows, args-rows, columns, columns2)"},
        {"HEAT2D_OMP_TARGET_TEAMS", "0",
         "omp-target-resident: HEAT2D_OMP_TARGET_TEAMS=0 is not a positive integer"},
        {"HEAT2D_OMP_TARGET_THREADS", "-4",
         "omp-target-resident: HEAT2D_OMP_TARGET_THREADS=-4 is not a positive integer"},
        {"HEAT2D_OMP_TARGET_TEAMS", "2x",
         "omp-target-resident: HEAT2D_OMP_TARGET_TEAMS=2x is not a positive integer"},
        {"HEAT2D_OMP_TARGET_THREADS", "99999999999",
         "omp-target-resident: HEAT2D_OMP_TARGET_THREADS=99999999999 is not a positive integer"},
    };
    for (size_t k = 0; target != NULL && k < sizeof refusals / sizeof refusals[0]; ++k) {
        setenv(refusals[k].variable, refusals[k].value, 1);
        heat2d_report_init(&rep);
        err.message[0] = '\0';
        const int rc = target->prepare(&cfg, &rep, &err);
        if (rc != 0 && no_gpu_here(&err)) {
            skip("omp-target-resident's %s: no GPU: %s", refusals[k].variable, err.message);
        } else {
            check(rc != 0 && strcmp(err.message, refusals[k].message) == 0,
                  "omp-target-resident refuses %s=%s: '%s'", refusals[k].variable,
                  refusals[k].value, err.message);
        }
        unsetenv(refusals[k].variable);
    }
}

int main(void)
{
    test_stream_rows();
    test_methods_against_cpu();
    test_bad_settings();
    return unit_finish("test_kernels");
}
