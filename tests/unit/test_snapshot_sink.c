/* Unit tests of heat2d's own snapshot handler (snapshot_sink.h): every
 * snapshot held to the field's invariants, in f64 and f32, on fields small
 * enough for one thread and large enough for several, with the odd cell
 * (a NaN, an infinity, a value out of bounds) at the first cell, in the
 * middle, in the cells a lane loop leaves to its tail, and at the last;
 * each once scanned by the handler and once with its invariants handed
 * over, as a method that finds them on the device does: the same verdict
 * and the same line. */
#include "snapshot_sink.h"
#include "unit_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether the snapshots come with their invariants (found here by
 * heat2d_field_stats_add, where a GPU method finds them on the device). */
static bool given_stats;

/* Handles one snapshot of nx x ny cells, all value but cell k set to odd
 * (k == SIZE_MAX: none odd); returns the handler's status, message in err. */
static int handle_one(heat2d_precision precision, size_t nx, size_t ny, double value, size_t k,
                      double odd, heat2d_error *err)
{
    const heat2d_config cfg = {
        .nx = nx, .ny = ny, .steps = 10, .alpha = 0.1, .precision = precision, .output_every = 5};
    const size_t n = nx * ny;
    void *field = malloc(n * (precision == HEAT2D_F32 ? sizeof(float) : sizeof(double)));
    if (field == NULL) {
        check(false, "cannot allocate %zu cells", n);
        return -1;
    }
    for (size_t c = 0; c < n; ++c) {
        const double x = c == k ? odd : value;
        if (precision == HEAT2D_F32)
            ((float *)field)[c] = (float)x;
        else
            ((double *)field)[c] = x;
    }
    heat2d_snapshot_sink sink;
    int rc = heat2d_snapshot_sink_open(&sink, &cfg, NULL, err);
    if (rc == 0) {
        heat2d_field_stats stats = heat2d_field_stats_empty();
        heat2d_field_stats_add(&stats, field, precision == HEAT2D_F32, 0, n);
        rc = heat2d_snapshot_sink_handle(&sink, 5, field, given_stats ? &stats : NULL, err);
    }
    heat2d_snapshot_sink_close(&sink);
    free(field);
    return rc;
}

static void test_field(heat2d_precision precision, size_t nx, size_t ny)
{
    const char *p = precision == HEAT2D_F32 ? "f32" : "f64";
    const size_t n = nx * ny;
    /* The mass stays 1 at most: each cell 1/(2n). */
    const double value = 0.5 / (double)n;
    heat2d_error err = {{0}};
    check(handle_one(precision, nx, ny, value, SIZE_MAX, 0.0, &err) == 0,
          "%s %zux%zu: a sound snapshot passes (%s)", p, nx, ny, err.message);
    const size_t cells[] = {0, n / 2 + 3, n - 5, n - 1};
    for (size_t c = 0; c < sizeof cells / sizeof cells[0]; ++c) {
        const size_t k = cells[c];
        char want[128];
        snprintf(want, sizeof want, "snapshot after step 5: non-finite value at cell (%zu, %zu)",
                 k % nx, k / nx);
        const double odd[] = {NAN, INFINITY, -INFINITY};
        for (size_t o = 0; o < 3; ++o) {
            memset(&err, 0, sizeof err);
            check(handle_one(precision, nx, ny, value, k, odd[o], &err) != 0 &&
                      strcmp(err.message, want) == 0,
                  "%s %zux%zu, %g at cell %zu: '%s', got '%s'", p, nx, ny, odd[o], k, want,
                  err.message);
        }
        memset(&err, 0, sizeof err);
        check(handle_one(precision, nx, ny, value, k, 2.0, &err) != 0 &&
                  strstr(err.message,
                         "snapshot after step 5: value outside physically expected bounds") ==
                      err.message &&
                  strstr(err.message, "max 2") != NULL,
              "%s %zux%zu, 2 at cell %zu: out of bounds, got '%s'", p, nx, ny, k, err.message);
        memset(&err, 0, sizeof err);
        check(handle_one(precision, nx, ny, value, k, -0.5, &err) != 0 &&
                  strstr(err.message, "min -0.5") != NULL,
              "%s %zux%zu, -0.5 at cell %zu: out of bounds, got '%s'", p, nx, ny, k, err.message);
    }
    /* Every cell 1 is within bounds, but its mass is n. */
    memset(&err, 0, sizeof err);
    check(handle_one(precision, nx, ny, 1.0, SIZE_MAX, 0.0, &err) != 0 &&
              strstr(err.message, "snapshot after step 5: unexpected mass ") == err.message,
          "%s %zux%zu, all cells 1: the mass, got '%s'", p, nx, ny, err.message);
}

/* A snapshot of a run continued from a long run's field (mass 1 spread
 * over 360x360 cells, its peak 4e-4), its mass handed over: the mass the
 * sums' rounding may give passes, one cell's mass too many is refused. */
static int handle_continued(const heat2d_initial *init, double mass, heat2d_error *err)
{
    heat2d_config cfg = {
        .nx = 360, .ny = 360, .steps = 1, .alpha = 0.1, .output_every = 1, .initial = init};
    heat2d_field_stats stats = {
        .sum = mass, .lo = 0.0, .hi = init->hi, .nonfinite = 0, .first_nonfinite = SIZE_MAX};
    heat2d_snapshot_sink sink;
    int rc = heat2d_snapshot_sink_open(&sink, &cfg, NULL, err);
    if (rc == 0)
        rc = heat2d_snapshot_sink_handle(&sink, 1, NULL, &stats, err);
    heat2d_snapshot_sink_close(&sink);
    return rc;
}

static void test_continued(void)
{
    const size_t nx = 360, ny = 360;
    double *u0 = calloc(nx * ny, sizeof *u0);
    if (u0 == NULL) {
        check(false, "cannot allocate %zu cells", nx * ny);
        return;
    }
    /* A Gaussian of width 20 cells at the centre, its sum 1. */
    double sum = 0.0;
    for (size_t j = 1; j + 1 < ny; ++j)
        for (size_t i = 1; i + 1 < nx; ++i) {
            const double di = (double)i - 180.0, dj = (double)j - 180.0;
            u0[j * nx + i] = exp(-(di * di + dj * dj) / 800.0);
            sum += u0[j * nx + i];
        }
    for (size_t k = 0; k < nx * ny; ++k)
        u0[k] /= sum;
    heat2d_initial init;
    heat2d_error err = {{0}};
    check(heat2d_initial_from(&init, nx, ny, u0, &err) == 0, "the Gaussian is a start (%s)",
          err.message);
    /* 1e-13 more: 250 times the peak's 1e-10, a 360x360 sum's rounding. */
    check(handle_continued(&init, init.mass_hi * (1.0 + 1.0e-13), &err) == 0,
          "continued: a mass 1e-13 above the start's passes (%s)", err.message);
    memset(&err, 0, sizeof err);
    check(handle_continued(&init, init.mass_hi + 1.0e-9, &err) != 0 &&
              strstr(err.message, "snapshot after step 1: unexpected mass 1.00000000") ==
                  err.message,
          "continued: 1e-9 too much mass is refused, got '%s'", err.message);
    free(u0);
}

int main(void)
{
    test_continued();
    const heat2d_precision precisions[] = {HEAT2D_F64, HEAT2D_F32};
    for (int given = 0; given < 2; ++given) {
        given_stats = given;
        for (int p = 0; p < 2; ++p) {
            test_field(precisions[p], 5, 5);      /* 25 cells: lanes of 8 and a tail of 1 */
            test_field(precisions[p], 9, 5);      /* 45 cells: a tail of 5 */
            test_field(precisions[p], 1031, 517); /* several threads, blocks not multiples of 8 */
        }
    }
    return unit_finish("test_snapshot_sink");
}
