/* Sizes, the initial state, the summary check and the run report. */
#include "heat2d_run.h"
#include "heat2d_memory.h"
#include "real_format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int heat2d_grid_bytes(size_t nx, size_t ny, size_t *bytes, heat2d_error *err)
{
    if (nx < HEAT2D_MIN_SIDE || ny < HEAT2D_MIN_SIDE)
        return heat2d_fail(err, "nx and ny must be >= %d, got %zux%zu", HEAT2D_MIN_SIDE, nx, ny);
    if (nx > SIZE_MAX / ny || nx * ny > SIZE_MAX / sizeof(double))
        return heat2d_fail(err, "grid %zux%zu is too large: nx*ny*8 bytes overflows", nx, ny);
    *bytes = nx * ny * sizeof(double);
    return 0;
}

int heat2d_array_bytes(const heat2d_config *cfg, size_t *bytes, heat2d_error *err)
{
    size_t doubles = 0;
    if (heat2d_grid_bytes(cfg->nx, cfg->ny, &doubles, err) != 0)
        return -1;
    *bytes = doubles / sizeof(double) * heat2d_precision_bytes(cfg->precision);
    return 0;
}

int heat2d_config_check(const heat2d_config *cfg, heat2d_error *err)
{
    if (!(cfg->alpha > 0.0 && cfg->alpha <= HEAT2D_MAX_ALPHA)) {
        char alpha[32];
        heat2d_format_shortest(cfg->alpha, alpha, sizeof alpha);
        return heat2d_fail(
            err, "alpha %s is unstable: explicit 5-point diffusion needs 0 < alpha <= 1/4", alpha);
    }
    if (cfg->steps == 0)
        return heat2d_fail(err, "steps must be >= 1");
    size_t bytes;
    return heat2d_grid_bytes(cfg->nx, cfg->ny, &bytes, err);
}

int heat2d_check_host_memory(size_t nx, size_t ny, heat2d_error *err)
{
    size_t bytes = 0;
    if (heat2d_grid_bytes(nx, ny, &bytes, err) != 0)
        return -1;
    /* Refuse up front what cannot fit, rather than let the kernel's
     * overcommit (or a cgroup's limit) kill the process in the middle of
     * the time loop. */
    const char *source = NULL;
    uint64_t memory = heat2d_memory_limit(&source);
    if (memory != 0 && (bytes > memory / 2)) {
        char limit[128];
        return heat2d_fail(err, "grid %zux%zu needs 2 x %.3g GB, more than %s", nx, ny,
                           (double)bytes / 1e9,
                           heat2d_memory_limit_text(limit, sizeof limit, memory, source));
    }
    return 0;
}

int heat2d_alloc_pair(const heat2d_config *cfg, double **u, double **v, heat2d_error *err)
{
    size_t bytes = 0;
    if (heat2d_check_host_memory(cfg->nx, cfg->ny, err) != 0 ||
        heat2d_grid_bytes(cfg->nx, cfg->ny, &bytes, err) != 0)
        return -1;
    *u = malloc(bytes);
    *v = malloc(bytes);
    if (*u == NULL || *v == NULL) {
        free(*u);
        free(*v);
        *u = *v = NULL;
        return heat2d_fail(err, "cannot allocate 2 x %zu bytes for a %zux%zu grid", bytes, cfg->nx,
                           cfg->ny);
    }
    return 0;
}

int heat2d_check_device_memory(const char *who, const heat2d_config *cfg, size_t free_bytes,
                               const char *device, heat2d_error *err)
{
    double needed =
        2.0 * (double)cfg->nx * (double)cfg->ny * (double)heat2d_precision_bytes(cfg->precision);
    if (free_bytes > 0 && needed > (double)free_bytes)
        return heat2d_fail(err,
                           "%s: grid %zux%zu needs 2 x %.3g GB of device memory, more than the "
                           "%.3g GB free on %s",
                           who, cfg->nx, cfg->ny, needed / 2e9, (double)free_bytes / 1e9, device);
    return 0;
}

void heat2d_free_pair(double *u, double *v)
{
    free(u);
    free(v);
}

size_t heat2d_centre_index(size_t nx, size_t ny)
{
    return ((ny + 1) / 2 - 1) * nx + ((nx + 1) / 2 - 1);
}

void heat2d_initial_state(size_t nx, size_t ny, double *u, double *v)
{
    memset(u, 0, nx * ny * sizeof(double));
    memset(v, 0, nx * ny * sizeof(double));
    u[heat2d_centre_index(nx, ny)] = 1.0;
}

void heat2d_initial_state_of(const heat2d_config *cfg, double *u, double *v)
{
    if (cfg->initial == NULL) {
        heat2d_initial_state(cfg->nx, cfg->ny, u, v);
        return;
    }
    memcpy(u, cfg->initial->values, cfg->nx * cfg->ny * sizeof(double));
    memcpy(v, cfg->initial->values, cfg->nx * cfg->ny * sizeof(double));
}

int heat2d_initial_from(heat2d_initial *init, size_t nx, size_t ny, const double *values,
                        heat2d_error *err)
{
    *init = (heat2d_initial){.values = values};
    for (size_t j = 0; j < ny; ++j)
        for (size_t i = 0; i < nx; ++i) {
            const double x = values[j * nx + i];
            if (!isfinite(x))
                return heat2d_fail(err, "non-finite value %g at cell (%zu, %zu)", x, i, j);
            if (x != 0.0 && (i == 0 || j == 0 || i == nx - 1 || j == ny - 1))
                return heat2d_fail(err,
                                   "cell (%zu, %zu) on the boundary is %.17g, not 0 (the boundary "
                                   "is held at 0)",
                                   i, j, x);
            init->lo = x < init->lo ? x : init->lo;
            init->hi = x > init->hi ? x : init->hi;
            if (x < 0.0)
                init->mass_lo += x;
            else
                init->mass_hi += x;
        }
    init->scale = -init->lo > init->hi ? -init->lo : init->hi;
    return 0;
}

int heat2d_check_bounds(const heat2d_config *cfg, size_t step, double lo, double hi, double mass)
{
    static const heat2d_initial standard = {
        .lo = 0.0, .hi = 1.0, .mass_lo = 0.0, .mass_hi = 1.0, .scale = 1.0};
    const heat2d_initial *b = cfg->initial != NULL ? cfg->initial : &standard;
    const double slack = heat2d_precision_slack(cfg->precision, step) * b->scale;
    const double cells = (double)(cfg->nx * cfg->ny);
    /* The masses are sums of n cells, whose rounding in any order is at
     * most (n - 1) eps sum|u| (eps = 2^-53): the initial field's over
     * sum|u0| = mass_hi - mass_lo, the snapshot's over its own sum|u|,
     * never above sum|u0| (the scheme's weights are >= 0 and add up to 1).
     * Each step rounds a cell's update (six operations) within 6 eps of
     * |u| + alpha (its four neighbours' |u| + 4 |u|): over the field,
     * 6 (1 + 8 alpha) eps sum|u| <= 18 eps sum|u|. A slack of the peak
     * alone is too narrow for a spread-out field of many cells: a run
     * continued from a long run's field failed where the whole run passed. */
    const double rounding =
        (2.0 * cells + 18.0 * (double)step) * ldexp(1.0, -53) * (b->mass_hi - b->mass_lo);
    const double mass_slack = slack * cells + rounding;
    if (lo < b->lo - 1.0e-12 * b->scale - slack || hi > b->hi + 1.0e-12 * b->scale + slack)
        return 1;
    if (mass < b->mass_lo - 1.0e-12 * b->scale - mass_slack ||
        mass > b->mass_hi + 1.0e-10 * b->scale + mass_slack)
        return 2;
    return 0;
}

/* Sum in storage order (the order of the original's SUM, so that MASS
 * matches it to the last bit), min, max, centre; a non-finite cell fails. */
static int scan(size_t nx, size_t ny, const double *field, heat2d_summary *sum, heat2d_error *err)
{
    size_t n = nx * ny;
    double mass = 0.0;
    double lo = field[0];
    double hi = field[0];
    for (size_t k = 0; k < n; ++k) {
        double x = field[k];
        if (!isfinite(x)) {
            size_t i = k % nx;
            size_t j = k / nx;
            return heat2d_fail(err, "non-finite value %g at cell (%zu, %zu)", x, i, j);
        }
        mass += x;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    sum->mass = mass;
    sum->min = lo;
    sum->max = hi;
    sum->centre = field[heat2d_centre_index(nx, ny)];
    return 0;
}

int heat2d_summarise_run(const heat2d_config *cfg, const double *field, heat2d_summary *sum,
                         heat2d_error *err)
{
    if (scan(cfg->nx, cfg->ny, field, sum, err) != 0)
        return -1;
    switch (heat2d_check_bounds(cfg, cfg->steps, sum->min, sum->max, sum->mass)) {
    case 1:
        return heat2d_fail(err, "value outside physically expected bounds: min %.17g, max %.17g",
                           sum->min, sum->max);
    case 2:
        return heat2d_fail(err, "unexpected mass %.17g: unstable calculation", sum->mass);
    default:
        return 0;
    }
}

bool heat2d_find_nonfinite(size_t nx, size_t ny, const double *field, size_t *i, size_t *j)
{
    for (size_t k = 0; k < nx * ny; ++k)
        if (!isfinite(field[k])) {
            *i = k % nx;
            *j = k / nx;
            return true;
        }
    return false;
}

int heat2d_fail_nonfinite(size_t nx, size_t ny, const double *field, size_t step, heat2d_error *err)
{
    size_t i = 0, j = 0;
    if (!heat2d_find_nonfinite(nx, ny, field, &i, &j))
        return heat2d_fail(err, "non-finite value after step %zu (cell not found)", step);
    if (step == 0)
        return heat2d_fail(err, "non-finite value at cell (%zu, %zu) in the initial state", i, j);
    return heat2d_fail(err, "non-finite value at cell (%zu, %zu) after step %zu", i, j, step);
}

void heat2d_report_init(heat2d_report *rep)
{
    memset(rep, 0, sizeof *rep);
    strcpy(rep->device, "host");
    rep->context_s = -1.0;
    rep->device_loop_s = -1.0;
    rep->h2d_s = -1.0;
    rep->d2h_s = -1.0;
}

bool heat2d_device_is_host(const char *device)
{
    return strncmp(device, "host", 4) == 0 && (device[4] == '\0' || device[4] == ' ');
}

void heat2d_report_phase(heat2d_report *rep, const char *key, double seconds)
{
    if (rep->n_phases < HEAT2D_MAX_PHASES) {
        rep->phases[rep->n_phases].key = key;
        rep->phases[rep->n_phases].seconds = seconds;
        rep->n_phases++;
    }
}
