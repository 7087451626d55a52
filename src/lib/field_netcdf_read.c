/* Reading a NetCDF field, or one record of a series, back into doubles:
 * the variable u over (y, x) or (time, y, x), held to the text reader's
 * checks. A record whose step is unset is one a killed run cut short. */
#define _POSIX_C_SOURCE 200809L
#include "field_netcdf.h"
#include "netcdf_schema.h"

#include <errno.h>
#include <math.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_fail(heat2d_error *err, const char *name, int status)
{
    return heat2d_fail(err, "cannot read field file '%s': %s", name, nc_strerror(status));
}

/* The record of step `want` in the series' step variable, or why not. */
static int find_record(int ncid, const char *name, size_t records, size_t want, size_t *record,
                       heat2d_error *err)
{
    int var;
    int status = nc_inq_varid(ncid, HEAT2D_NC_STEP, &var);
    if (status != NC_NOERR)
        return heat2d_fail(err, "%s: a series without a '%s' variable (not heat2d's)", name,
                           HEAT2D_NC_STEP);
    double *steps = malloc((records ? records : 1) * sizeof *steps);
    if (steps == NULL)
        return heat2d_fail(err, "%s: cannot allocate %zu steps", name, records);
    status = records ? nc_get_var_double(ncid, var, steps) : NC_NOERR;
    if (status != NC_NOERR) {
        free(steps);
        return read_fail(err, name, status);
    }
    size_t whole = 0;
    double first = 0, last = 0;
    int rc = -1;
    for (size_t r = 0; r < records; ++r) {
        /* An unset step reads as the fill value: a record cut short. */
        if (!(steps[r] >= 1 && steps[r] < 1e18))
            continue;
        first = whole++ == 0 ? steps[r] : first;
        last = steps[r];
        if (steps[r] == (double)want) {
            *record = r;
            rc = 0;
        }
    }
    free(steps);
    if (rc == 0)
        return 0;
    if (whole == 0)
        return heat2d_fail(err, "%s holds no record of step %zu (it holds no records)", name, want);
    return heat2d_fail(err, "%s holds no record of step %zu (%zu records, steps %.0f to %.0f)",
                       name, want, whole, first, last);
}

/* The field's shape from u's dimensions (y, x last), checked as a text
 * header is. */
static int shape(int ncid, int var, const char *name, int *ndims, size_t *records, size_t *ny,
                 size_t *nx, heat2d_error *err)
{
    int dims[NC_MAX_VAR_DIMS];
    int status = nc_inq_varndims(ncid, var, ndims);
    if (status == NC_NOERR && (*ndims < 2 || *ndims > 3))
        return heat2d_fail(err, "%s: '%s' has %d dimensions, not (y, x) or (time, y, x)", name,
                           HEAT2D_NC_FIELD, *ndims);
    if (status == NC_NOERR)
        status = nc_inq_vardimid(ncid, var, dims);
    size_t len[3] = {1, 1, 1};
    for (int k = 0; status == NC_NOERR && k < *ndims; ++k)
        status = nc_inq_dimlen(ncid, dims[k], &len[3 - *ndims + k]);
    if (status != NC_NOERR)
        return read_fail(err, name, status);
    *records = len[0];
    *ny = len[1];
    *nx = len[2];
    if (*nx < HEAT2D_MIN_SIDE || *ny < HEAT2D_MIN_SIDE)
        return heat2d_fail(err, "%s: too small dimensions %zux%zu", name, *nx, *ny);
    if (*nx > (SIZE_MAX / sizeof(double)) / *ny)
        return heat2d_fail(err, "%s: dimensions %zux%zu too large (nx*ny overflows)", name, *nx,
                           *ny);
    return 0;
}

static int read_values(int ncid, int var, const char *name, int ndims, size_t record,
                       heat2d_field *field, heat2d_error *err)
{
    const size_t n = field->nx * field->ny;
    const char *limit_source;
    const uint64_t limit = heat2d_memory_limit(&limit_source);
    if (limit != 0 && (uint64_t)n * sizeof(double) > limit) {
        char text[128];
        return heat2d_fail(err, "%s: %zux%zu values need %.3g GB, more than %s", name, field->nx,
                           field->ny, (double)n * sizeof(double) / 1e9,
                           heat2d_memory_limit_text(text, sizeof text, limit, limit_source));
    }
    field->values = malloc(n * sizeof(double));
    if (field->values == NULL)
        return heat2d_fail(err, "%s: cannot allocate %zux%zu values", name, field->nx, field->ny);
    heat2d_advise_huge_pages(field->values, n * sizeof(double));
    const size_t start[3] = {record, 0, 0};
    const size_t count[3] = {1, field->ny, field->nx};
    const int off = ndims == 3 ? 0 : 1;
    int status = nc_get_vara_double(ncid, var, start + off, count + off, field->values);
    if (status != NC_NOERR)
        return read_fail(err, name, status);
    for (size_t k = 0; k < n; ++k)
        if (!isfinite(field->values[k]))
            return heat2d_fail(err, "%s: non-finite value at cell (%zu, %zu)", name, k % field->nx,
                               k / field->nx);
    return 0;
}

static int locked_read(const char *spec, heat2d_field *field, heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    char path[4096];
    size_t step = 0;
    const bool record = heat2d_netcdf_record_spec(spec, path, sizeof path, &step);
    if (!record)
        snprintf(path, sizeof path, "%s", spec);
    /* A missing or unreadable file in the system's words, as for a text
     * field (the library's errno is that of its last probe). */
    struct stat st;
    if (stat(path, &st) != 0 || access(path, R_OK) != 0)
        return heat2d_fail(err, "cannot open field file '%s': %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(EISDIR));
    int ncid;
    int status = nc_open(path, NC_NOWRITE, &ncid);
    if (status != NC_NOERR)
        return read_fail(err, path, status);
    int var, ndims = 0, rc;
    size_t records = 0, r = 0;
    status = nc_inq_varid(ncid, HEAT2D_NC_FIELD, &var);
    if (status != NC_NOERR)
        rc = heat2d_fail(err, "%s: no variable '%s' (not a heat2d field)", path, HEAT2D_NC_FIELD);
    else
        rc = shape(ncid, var, path, &ndims, &records, &field->ny, &field->nx, err);
    if (rc == 0 && ndims == 3 && !record)
        rc = heat2d_fail(err, "%s is a series of %zu records: name one as %s:STEP", path, records,
                         path);
    else if (rc == 0 && ndims == 2 && record)
        rc = heat2d_fail(err, "%s is a field, not a series: name it without :%zu", path, step);
    if (rc == 0 && record)
        rc = find_record(ncid, path, records, step, &r, err);
    if (rc == 0)
        rc = read_values(ncid, var, spec, ndims, r, field, err);
    nc_close(ncid);
    if (rc != 0)
        heat2d_field_free(field);
    return rc;
}

int heat2d_netcdf_read(const char *spec, heat2d_field *field, heat2d_error *err)
{
    heat2d_nc_lock();
    const int rc = locked_read(spec, field, err);
    heat2d_nc_unlock();
    return rc;
}
