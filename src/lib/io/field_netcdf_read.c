/* Reading a NetCDF field, or one record of a series, with every size the
 * file claims checked before anything is allocated (netcdf_reader.h): the
 * variable u over (y, x) or (time, y, x), held to the text reader's checks.
 * A record whose step is unset, or whose field was never written, is one a
 * killed run or a full disk cut short. */
#define _POSIX_C_SOURCE 200809L
#include "netcdf_reader.h"
#include "netcdf_schema.h"

#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Values read at a time: what the reader holds of a field (4 MiB). */
#define SLAB_VALUES ((size_t)1 << 19)

static int read_fail(heat2d_error *err, const char *name, int status)
{
    return heat2d_fail(err, "cannot read field file '%s': %s", name, nc_strerror(status));
}

/* A number type the library converts to double (not text, not a user's
 * type), and its size in the file. */
static bool numeric_type(int ncid, nc_type type, size_t *size)
{
    return type >= NC_BYTE && type <= NC_UINT64 && type != NC_CHAR &&
           nc_inq_type(ncid, type, NULL, size) == NC_NOERR && *size > 0;
}

/* A type the reader refuses, in words. */
static const char *type_words(nc_type type)
{
    return type == NC_CHAR     ? "characters"
           : type == NC_STRING ? "strings"
           : type > NC_STRING  ? "a type of the file's own"
                               : "no known type";
}

/* The axis a dimension's name gives: 'x', 'y', or 0. */
static char axis_of(const char *name)
{
    static const char *const xs[] = {"x", "X", "lon", "longitude"};
    static const char *const ys[] = {"y", "Y", "lat", "latitude"};
    for (size_t k = 0; k < sizeof xs / sizeof *xs; ++k) {
        if (strcmp(name, xs[k]) == 0)
            return 'x';
        if (strcmp(name, ys[k]) == 0)
            return 'y';
    }
    return 0;
}

/* The variable's dimensions by name: (y, x) or (x, y), after a record
 * dimension in a series; their names into f->dims for messages. */
static int dimension_names(netcdf_file *f, const int *dims, heat2d_error *err)
{
    char names[3][NC_MAX_NAME + 1] = {"?", "?", "?"};
    size_t used = 0;
    const int shown = f->ndims < 3 ? f->ndims : 3;
    used += (size_t)snprintf(f->dims, sizeof f->dims, "(");
    for (int k = 0; k < shown; ++k) {
        if (nc_inq_dimname(f->ncid, dims[k], names[k]) != NC_NOERR)
            snprintf(names[k], sizeof names[k], "?");
        used += (size_t)snprintf(f->dims + used, sizeof f->dims - used, "%s%s", k ? ", " : "",
                                 names[k]);
    }
    snprintf(f->dims + used, sizeof f->dims - used, "%s)", f->ndims > 3 ? ", ..." : "");
    const int last = f->ndims - 1;
    const bool plain = f->ndims >= 2 && f->ndims <= 3 && axis_of(names[last]) != 0 &&
                       axis_of(names[last - 1]) != 0 &&
                       axis_of(names[last]) != axis_of(names[last - 1]) &&
                       (f->ndims == 2 || axis_of(names[0]) == 0);
    if (!plain)
        return heat2d_fail(err,
                           "%s: '%s' has %d dimension%s %s: a field is %s(y, x) or %s(x, y), a "
                           "series %s(time, y, x) or %s(time, x, y)",
                           f->path, f->name, f->ndims, f->ndims == 1 ? "" : "s", f->dims, f->name,
                           f->name, f->name, f->name);
    f->transposed = axis_of(names[last]) == 'y';
    return 0;
}

/* The variable's dimensions (named, in either order) and type, each size
 * checked: the sides as a text header's, the values against the memory
 * limit and the file's size. */
static int shape(netcdf_file *f, const char *spec, heat2d_error *err)
{
    int dims[NC_MAX_VAR_DIMS];
    nc_type type;
    int status = nc_inq_varndims(f->ncid, f->var, &f->ndims);
    if (status == NC_NOERR && (f->ndims < 0 || f->ndims > NC_MAX_VAR_DIMS))
        status = NC_EINVAL;
    if (status == NC_NOERR)
        status = nc_inq_vardimid(f->ncid, f->var, dims);
    if (status != NC_NOERR)
        return read_fail(err, f->path, status);
    if (dimension_names(f, dims, err) != 0)
        return -1;
    size_t len[3] = {1, 1, 1};
    for (int k = 0; status == NC_NOERR && k < f->ndims; ++k)
        status = nc_inq_dimlen(f->ncid, dims[k], &len[3 - f->ndims + k]);
    if (status == NC_NOERR)
        status = nc_inq_vartype(f->ncid, f->var, &type);
    if (status != NC_NOERR)
        return read_fail(err, f->path, status);
    if (!numeric_type(f->ncid, type, &f->elem))
        return heat2d_fail(err, "%s: '%s' holds %s, not numbers (integers or reals)", f->path,
                           f->name, type_words(type));
    f->dim_x = dims[f->ndims - (f->transposed ? 2 : 1)];
    f->dim_y = dims[f->ndims - (f->transposed ? 1 : 2)];
    f->records = len[0];
    f->ny = f->transposed ? len[2] : len[1];
    f->nx = f->transposed ? len[1] : len[2];
    if (f->nx < HEAT2D_MIN_SIDE || f->ny < HEAT2D_MIN_SIDE)
        return heat2d_fail(err, "%s: too small dimensions %zux%zu", f->path, f->nx, f->ny);
    if (f->nx > (SIZE_MAX / sizeof(double)) / f->ny)
        return heat2d_fail(err, "%s: dimensions %zux%zu too large (nx*ny overflows)", f->path,
                           f->nx, f->ny);
    const uint64_t cells = (uint64_t)f->nx * f->ny;
    const char *limit_source;
    const uint64_t limit = heat2d_memory_limit(&limit_source);
    if (limit != 0 && cells * sizeof(double) > limit) {
        char text[128];
        return heat2d_fail(err, "%s: %zux%zu values need %.3g GB, more than %s", spec, f->nx, f->ny,
                           (double)cells * sizeof(double) / 1e9,
                           heat2d_memory_limit_text(text, sizeof text, limit, limit_source));
    }
    f->filtered = heat2d_nc_filtered(f, f->var);
    int no_fill = 0;
    f->no_fill = nc_inq_var_fill(f->ncid, f->var, &no_fill, NULL) == NC_NOERR && no_fill;
    const uint64_t room =
        heat2d_nc_capacity(f->bytes, f->filtered ? HEAT2D_NC_MAX_RATIO : 1, f->elem);
    if (cells > room)
        return heat2d_fail(err,
                           "%s: '%s' claims %zux%zu values of %zu bytes, more than its %llu bytes "
                           "can hold (a damaged or forged header)",
                           f->path, f->name, f->nx, f->ny, f->elem, (unsigned long long)f->bytes);
    return 0;
}

/* The numbers of attribute `name` of the variable, least to most of them,
 * into values: their count, 0 when there is none, or -1 with err when it
 * holds something else, fewer or more. */
static int number_att(const netcdf_file *f, const char *name, double *values, size_t least,
                      size_t most, heat2d_error *err)
{
    nc_type type;
    size_t len = 0, size;
    if (nc_inq_att(f->ncid, f->var, name, &type, &len) != NC_NOERR)
        return 0;
    if (!numeric_type(f->ncid, type, &size))
        return heat2d_fail(err, "%s: the %s of '%s' holds %s, not numbers", f->path, name, f->name,
                           type_words(type));
    if (len < least || len > most)
        return heat2d_fail(err, "%s: the %s of '%s' holds %zu numbers, not %s", f->path, name,
                           f->name, len,
                           least < most ? "one to 8"
                           : most == 1  ? "one"
                                        : "two");
    const int status = nc_get_att_double(f->ncid, f->var, name, values);
    if (status != NC_NOERR && status != NC_ERANGE)
        return read_fail(err, f->path, status);
    return (int)len;
}

/* _Unsigned on the variable: 2^bits into *shift when it is "true" on a
 * signed integer type (on any other type readers ignore it), 0 when it is
 * "false" or absent; -1 with err when it says anything else. */
static int unsigned_att(const netcdf_file *f, nc_type type, double *shift, heat2d_error *err)
{
    nc_type att_type;
    size_t len = 0;
    char text[8] = "";
    *shift = 0.0;
    if (nc_inq_att(f->ncid, f->var, "_Unsigned", &att_type, &len) != NC_NOERR)
        return 0;
    if (att_type != NC_CHAR || len >= sizeof text ||
        nc_get_att_text(f->ncid, f->var, "_Unsigned", text) != NC_NOERR)
        return heat2d_fail(err, "%s: the _Unsigned of '%s' is not the text true or false", f->path,
                           f->name);
    text[len] = '\0';
    const bool yes = strcasecmp(text, "true") == 0;
    if (!yes && strcasecmp(text, "false") != 0)
        return heat2d_fail(err, "%s: the _Unsigned of '%s' is '%s', not true or false", f->path,
                           f->name, text);
    const int bits = type == NC_BYTE ? 8 : type == NC_SHORT ? 16 : type == NC_INT ? 32 : 64;
    if (yes && (type == NC_BYTE || type == NC_SHORT || type == NC_INT || type == NC_INT64))
        *shift = ldexp(1.0, bits);
    return 0;
}

/* A number of the variable's own type read as _Unsigned says (raw values,
 * _FillValue, missing_value, the valid range; not scale_factor or
 * add_offset, which are of the unpacked values). */
static double unsigned_value(const netcdf_unpack *u, double raw)
{
    return raw < 0 && u->unsigned_shift > 0 ? raw + u->unsigned_shift : raw;
}

/* valid_range, else valid_min and valid_max, into u (CF: a value outside
 * them is a missing value); 0, or -1 with err. */
static int valid_atts(const netcdf_file *f, netcdf_unpack *u, heat2d_error *err)
{
    double range[2];
    const int given = number_att(f, "valid_range", range, 2, 2, err);
    const int lo = given == 0 ? number_att(f, "valid_min", &u->valid_min, 1, 1, err) : 0;
    const int hi = given == 0 ? number_att(f, "valid_max", &u->valid_max, 1, 1, err) : 0;
    if (given < 0 || lo < 0 || hi < 0)
        return -1;
    u->range = given > 0;
    u->ranged = given > 0 || lo > 0 || hi > 0;
    u->valid_min = unsigned_value(u, given > 0 ? range[0] : lo > 0 ? u->valid_min : -INFINITY);
    u->valid_max = unsigned_value(u, given > 0 ? range[1] : hi > 0 ? u->valid_max : INFINITY);
    return 0;
}

/* How the variable's values read (netcdf_unpack), from its attributes: a
 * cell holding its _FillValue or a missing_value, or outside its valid
 * range, holds no value; a cell of a float or a double holding the
 * library's fill was never written; _Unsigned makes a signed integer's
 * values unsigned; CF's scale_factor and add_offset unpack the rest. */
static int unpacking(netcdf_file *f, heat2d_error *err)
{
    netcdf_unpack *u = &f->unpack;
    nc_type type = NC_NAT;
    nc_inq_vartype(f->ncid, f->var, &type);
    *u = (netcdf_unpack){.fill = heat2d_nc_default_fill(type), .scale = 1.0, .offset = 0.0};
    if (unsigned_att(f, type, &u->unsigned_shift, err) != 0)
        return -1;
    const int fill = number_att(f, "_FillValue", &u->fill, 1, 1, err);
    const int missing = number_att(f, "missing_value", u->missing, 1, HEAT2D_NC_MAX_MISSING, err);
    const int scale = number_att(f, "scale_factor", &u->scale, 1, 1, err);
    const int offset = number_att(f, "add_offset", &u->offset, 1, 1, err);
    if (fill < 0 || missing < 0 || scale < 0 || offset < 0 || valid_atts(f, u, err) != 0)
        return -1;
    u->fill = unsigned_value(u, u->fill);
    for (int k = 0; k < missing; ++k)
        u->missing[k] = unsigned_value(u, u->missing[k]);
    u->fill_declared = fill > 0;
    u->fill_checked = fill > 0 || type == NC_FLOAT || type == NC_DOUBLE;
    u->n_missing = (size_t)missing;
    u->packed = scale > 0 || offset > 0;
    return 0;
}

/* Whether the field's values can be handed on as a raw run of the file:
 * in the file's order, unpacked, with no value but the library's fill to
 * tell apart. */
static bool raw_run_allowed(const netcdf_file *f)
{
    return !f->transposed && !f->flip_x && !f->flip_y && !f->unpack.packed &&
           !f->unpack.fill_declared && f->unpack.n_missing == 0 && !f->unpack.ranged &&
           f->unpack.unsigned_shift == 0;
}

/* Where a slab starts and how many rows and columns it takes: whole rows
 * when a row fits in a slab, else pieces of one row. */
typedef struct slab {
    size_t j, i, rows, cols;
} slab;

static void next_slab(const netcdf_file *f, slab *s)
{
    if (f->nx <= SLAB_VALUES) {
        s->j += s->rows;
        s->rows = SLAB_VALUES / f->nx < f->ny - s->j ? SLAB_VALUES / f->nx : f->ny - s->j;
        s->cols = f->nx;
    } else {
        s->i += s->cols;
        if (s->i == f->nx) {
            s->i = 0;
            s->j++;
        }
        s->rows = 1;
        s->cols = f->nx - s->i < SLAB_VALUES ? f->nx - s->i : SLAB_VALUES;
    }
}

int heat2d_nc_check_values(const netcdf_request *req, const double *values, size_t n, size_t nx,
                           size_t first_cell, double fill, heat2d_error *err)
{
    size_t k = 0;
    const bool finite = !req->check_only;
    while (k < n && values[k] != fill && (!finite || isfinite(values[k])))
        ++k;
    if (k == n)
        return 0;
    const size_t i = (first_cell + k) % nx, j = (first_cell + k) / nx;
    if (values[k] != fill)
        return heat2d_fail(err, "%s: non-finite value at cell (%zu, %zu)", req->spec, i, j);
    if (req->record)
        return heat2d_fail(err,
                           "%s: the record of step %zu was cut short (cell (%zu, %zu) was never "
                           "written)",
                           req->path, req->step, i, j);
    return heat2d_fail(err, "%s: the field was cut short (cell (%zu, %zu) was never written)",
                       req->path, i, j);
}

/* A cell's raw value that holds no value: its (i, j) and why. */
static int missing_cell(const netcdf_file *f, const netcdf_request *req, double raw, size_t cell,
                        heat2d_error *err)
{
    const netcdf_unpack *u = &f->unpack;
    const size_t i = cell % f->nx, j = cell / f->nx;
    if (u->fill_checked && raw == u->fill && !u->fill_declared)
        return heat2d_nc_check_values(req, &raw, 1, f->nx, cell, u->fill, err);
    char why[160];
    if (u->fill_checked && raw == u->fill)
        snprintf(why, sizeof why, "its _FillValue %.9g", raw);
    else if (!(raw < u->valid_min) && !(raw > u->valid_max))
        snprintf(why, sizeof why, "its missing_value %.9g", raw);
    else if (u->range)
        snprintf(why, sizeof why, "%.9g, outside its valid_range %.9g to %.9g", raw, u->valid_min,
                 u->valid_max);
    else
        snprintf(why, sizeof why, "%.9g, %s its %s %.9g", raw,
                 raw < u->valid_min ? "below" : "above",
                 raw < u->valid_min ? "valid_min" : "valid_max",
                 raw < u->valid_min ? u->valid_min : u->valid_max);
    return heat2d_fail(err,
                       "%s: cell (%zu, %zu) of '%s' holds %s: a missing value, which heat2d does "
                       "not read",
                       req->spec, i, j, f->name, why);
}

/* The values as read (raw, i fastest, cells first_cell onwards), unsigned
 * where _Unsigned says so, held to the variable's fill and missing values
 * and its valid range, then unpacked in place. */
static int unpack_values(const netcdf_file *f, const netcdf_request *req, double *values, size_t n,
                         size_t first_cell, heat2d_error *err)
{
    const netcdf_unpack *u = &f->unpack;
    for (size_t k = 0; k < n; ++k) {
        values[k] = unsigned_value(u, values[k]);
        bool missing = u->fill_checked && values[k] == u->fill;
        missing = missing || values[k] < u->valid_min || values[k] > u->valid_max;
        for (size_t m = 0; m < u->n_missing; ++m)
            missing = missing || values[k] == u->missing[m];
        if (missing)
            return missing_cell(f, req, values[k], first_cell + k, err);
        if (u->packed)
            values[k] = values[k] * u->scale + u->offset;
    }
    /* The fill no longer at stake: only finiteness is left to check. */
    return heat2d_nc_check_values(req, values, n, f->nx, first_cell, NAN, err);
}

/* One slab of the record (or field), into buf, i fastest: a variable over
 * (x, y), or with a side stored descending, is read as the same cells in
 * its own order into spare, then put in heat2d's. */
static int read_slab(const netcdf_file *f, size_t record, const slab *s, double *buf, double *spare)
{
    const int off = f->ndims == 3 ? 0 : 1;
    if (!f->transposed && !f->flip_x && !f->flip_y) {
        const size_t start[3] = {record, s->j, s->i}, count[3] = {1, s->rows, s->cols};
        return nc_get_vara_double(f->ncid, f->var, start + off, count + off, buf);
    }
    /* The slab's first column and row as the file counts them. */
    const size_t fx = f->flip_x ? f->nx - s->i - s->cols : s->i;
    const size_t fy = f->flip_y ? f->ny - s->j - s->rows : s->j;
    size_t start[3] = {record, fy, fx}, count[3] = {1, s->rows, s->cols};
    if (f->transposed) {
        start[1] = fx, start[2] = fy, count[1] = s->cols, count[2] = s->rows;
    }
    const int status = nc_get_vara_double(f->ncid, f->var, start + off, count + off, spare);
    for (size_t jj = 0; status == NC_NOERR && jj < s->rows; ++jj)
        for (size_t ii = 0; ii < s->cols; ++ii) {
            const size_t x = f->flip_x ? s->cols - 1 - ii : ii;
            const size_t y = f->flip_y ? s->rows - 1 - jj : jj;
            buf[jj * s->cols + ii] =
                f->transposed ? spare[x * s->rows + y] : spare[y * s->cols + x];
        }
    return status;
}

/* The values of a record (or the field), slab by slab, into the sink:
 * a cell that holds the fill value was never written (or holds no value),
 * one not finite is refused as the text reader refuses it. */
static int read_values(const netcdf_file *f, const netcdf_request *req, size_t record,
                       const netcdf_sink *sink, heat2d_error *err)
{
    const size_t slab_values = f->nx * f->ny < SLAB_VALUES ? f->nx * f->ny : SLAB_VALUES;
    double *buf = malloc(slab_values * sizeof *buf);
    const bool reorder = f->transposed || f->flip_x || f->flip_y;
    double *spare = reorder ? malloc(slab_values * sizeof *spare) : NULL;
    if (buf == NULL || (reorder && spare == NULL)) {
        free(buf);
        free(spare);
        return heat2d_fail(err, "%s: cannot allocate a slab of values", f->path);
    }
    int rc = 0;
    slab s = {0, 0, 0, 0};
    next_slab(f, &s);
    for (; rc == 0 && s.j < f->ny; next_slab(f, &s)) {
        const int status = read_slab(f, record, &s, buf, spare);
        if (status != NC_NOERR) {
            rc = read_fail(err, req->spec, status);
            break;
        }
        const size_t n = s.rows * s.cols;
        rc = unpack_values(f, req, buf, n, s.j * f->nx + s.i, err);
        if (rc == 0)
            rc = sink->values(sink->ctx, buf, n, err);
    }
    free(buf);
    free(spare);
    return rc;
}

/* The record (or the field), held to having been written by the storage's
 * index, into the sink: where it is a raw run in the file and the sink
 * takes one, as that run, else read slab by slab. */
static int hand_on(const netcdf_file *f, const netcdf_request *req, size_t record,
                   const netcdf_sink *sink, heat2d_error *err)
{
    netcdf_storage *storage;
    netcdf_extent extent;
    if (heat2d_nc_storage_open(&storage, f, err) != 0)
        return -1;
    int rc = heat2d_nc_storage_written(storage, record, req->step, err);
    const bool raw = rc == 0 && sink->extent != NULL && raw_run_allowed(f) &&
                     heat2d_nc_storage_extent(storage, record, &extent);
    heat2d_nc_storage_close(storage);
    if (rc == 0)
        rc = sink->shape(sink->ctx, f->nx, f->ny, err);
    if (rc != 0)
        return -1;
    extent.fill = f->unpack.fill;
    return raw ? sink->extent(sink->ctx, &extent, err) : read_values(f, req, record, sink, err);
}

/* The variable the request names (u by default), found. */
static int find_variable(netcdf_file *f, const netcdf_request *req, heat2d_error *err)
{
    const bool named = req->var != NULL && req->var[0] != '\0';
    f->name = named ? req->var : HEAT2D_NC_FIELD;
    if (nc_inq_varid(f->ncid, f->name, &f->var) == NC_NOERR)
        return 0;
    if (!named)
        return heat2d_fail(err,
                           "%s: no variable '%s' (not a heat2d field: name its variable as "
                           "%s:VAR)",
                           f->path, HEAT2D_NC_FIELD, f->path);
    return heat2d_fail(err, "%s: no variable '%s'", f->path, f->name);
}

/* The step of a series' one record: 0, or -1 with err when it is unset
 * (a run cut it short). */
static int only_step(const netcdf_file *f, int step_var, size_t *step, heat2d_error *err)
{
    const size_t first = 0;
    double value = -1.0;
    if (nc_get_var1_double(f->ncid, step_var, &first, &value) != NC_NOERR ||
        !(value >= 0.0 && value < 1e18))
        return heat2d_fail(err, "%s: its one record was cut short (its step is unset)", f->path);
    *step = (size_t)value;
    return 0;
}

/* A field over (time, y, x) with one record and no step variable, as
 * xarray and most models write one state: that record, step 0. */
static int one_record(const netcdf_file *f, const netcdf_request *req, const netcdf_sink *sink,
                      heat2d_error *err)
{
    if (f->records != 1)
        return f->records == 0 ? heat2d_fail(err, "%s: '%s' has dimensions %s and no record",
                                             f->path, f->name, f->dims)
                               : heat2d_nc_check_series(f, err);
    if (req->record && req->step != 0)
        return heat2d_fail(err,
                           "%s holds one record and no '%s' variable: name it %s or %s:0, not "
                           ":%zu",
                           f->path, HEAT2D_NC_STEP, f->path, f->path, req->step);
    return hand_on(f, req, 0, sink, err);
}

/* What the request asks of the open file, its field's shape checked. */
static int read_open(netcdf_file *f, const netcdf_request *req, const netcdf_sink *sink,
                     heat2d_error *err)
{
    if (find_variable(f, req, err) != 0)
        return -1;
    int format = 0, step_var = -1;
    f->netcdf4 = nc_inq_format(f->ncid, &format) == NC_NOERR &&
                 (format == NC_FORMAT_NETCDF4 || format == NC_FORMAT_NETCDF4_CLASSIC);
    if (shape(f, req->spec, err) != 0 || unpacking(f, err) != 0)
        return -1;
    const bool stepless =
        f->ndims == 3 && nc_inq_varid(f->ncid, HEAT2D_NC_STEP, &step_var) != NC_NOERR;
    if (f->ndims == 3 && !stepless && heat2d_nc_check_series(f, err) != 0)
        return -1;
    heat2d_netcdf_facts facts;
    netcdf_request one = *req;
    if (f->ndims == 3 && !stepless && !req->record && !req->check_only && f->records == 1) {
        /* A series of one record: that record, named or not. */
        if (only_step(f, step_var, &one.step, err) != 0)
            return -1;
        one.record = true;
        req = &one;
    }
    if (heat2d_nc_facts(f, &facts, err) != 0)
        return -1;
    facts.has_step = req == &one;
    facts.step = one.step;
    if (sink->facts != NULL && sink->facts(sink->ctx, &facts, err) != 0)
        return -1;
    if (stepless)
        return one_record(f, req, sink, err);
    if (f->ndims == 3 && !req->record && req->check_only)
        return heat2d_nc_check_records(f, sink, err);
    if (f->ndims == 3 && !req->record)
        return heat2d_fail(err, "%s is a series of %zu records: name one as %s:STEP", req->spec,
                           f->records, req->spec);
    if (f->ndims == 2 && req->record)
        return heat2d_fail(err, "%s is a field, not a series: name it without :%zu", f->path,
                           req->step);
    size_t record = 0;
    if (req->record && heat2d_nc_find_record(f, req->step, &record, err) != 0)
        return -1;
    return hand_on(f, req, record, sink, err);
}

int heat2d_nc_read_checked(const netcdf_request *req, const netcdf_sink *sink, heat2d_error *err)
{
    netcdf_file f = {.path = req->path};
    struct stat st;
    if (stat(req->path, &st) != 0 || !S_ISREG(st.st_mode))
        return heat2d_fail(err, "cannot read field file '%s': not a regular file", req->path);
    f.bytes = (uint64_t)st.st_size;
    const int status = nc_open(req->path, NC_NOWRITE, &f.ncid);
    if (status != NC_NOERR)
        return read_fail(err, req->path, status);
    const int rc = read_open(&f, req, sink, err);
    nc_close(f.ncid);
    return rc;
}
