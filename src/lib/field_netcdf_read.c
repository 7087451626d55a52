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
#include <netcdf_meta.h>
#if NC_VERSION_MAJOR > 4 || (NC_VERSION_MAJOR == 4 && NC_VERSION_MINOR >= 8)
#include <netcdf_filter.h>
#define HAVE_FILTER_IDS 1
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Values read at a time: what the reader holds of a field (4 MiB). */
#define SLAB_VALUES ((size_t)1 << 19)

uint64_t heat2d_nc_capacity(uint64_t bytes, uint64_t ratio, uint64_t unit)
{
    if (unit == 0)
        return UINT64_MAX;
    if (ratio != 0 && bytes > UINT64_MAX / ratio)
        return UINT64_MAX;
    return bytes * ratio / unit;
}

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

bool heat2d_nc_filtered(const netcdf_file *f, int var)
{
    if (!f->netcdf4)
        return false;
#ifdef HAVE_FILTER_IDS
    size_t filters = 0;
    return nc_inq_var_filter_ids(f->ncid, var, &filters, NULL) != NC_NOERR || filters > 0;
#else
    int shuffle = 0, deflate = 0, level = 0;
    return nc_inq_var_deflate(f->ncid, var, &shuffle, &deflate, &level) != NC_NOERR || deflate;
#endif
}

/* u's dimensions (y, x last) and type, each size checked: the sides as a
 * text header's, the values against the memory limit and the file's size. */
static int shape(netcdf_file *f, const char *spec, heat2d_error *err)
{
    int dims[NC_MAX_VAR_DIMS];
    nc_type type;
    int status = nc_inq_varndims(f->ncid, f->var, &f->ndims);
    if (status == NC_NOERR && (f->ndims < 2 || f->ndims > 3))
        return heat2d_fail(err, "%s: '%s' has %d dimensions, not (y, x) or (time, y, x)", f->path,
                           HEAT2D_NC_FIELD, f->ndims);
    if (status == NC_NOERR)
        status = nc_inq_vardimid(f->ncid, f->var, dims);
    size_t len[3] = {1, 1, 1};
    for (int k = 0; status == NC_NOERR && k < f->ndims; ++k)
        status = nc_inq_dimlen(f->ncid, dims[k], &len[3 - f->ndims + k]);
    if (status == NC_NOERR)
        status = nc_inq_vartype(f->ncid, f->var, &type);
    if (status != NC_NOERR)
        return read_fail(err, f->path, status);
    if (!numeric_type(f->ncid, type, &f->elem))
        return heat2d_fail(err, "%s: '%s' does not hold numbers (type %d)", f->path,
                           HEAT2D_NC_FIELD, (int)type);
    f->records = len[0];
    f->ny = len[1];
    f->nx = len[2];
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
                           f->path, HEAT2D_NC_FIELD, f->nx, f->ny, f->elem,
                           (unsigned long long)f->bytes);
    return 0;
}

/* u's fill value, as the library hands it (converted to double): what a
 * cell never written reads as. */
static int fill_value(const netcdf_file *f, double *fill, heat2d_error *err)
{
    nc_type type;
    size_t len = 0;
    if (nc_inq_att(f->ncid, f->var, "_FillValue", &type, &len) == NC_NOERR) {
        size_t size;
        /* One number, or reading it would write past *fill. */
        if (len != 1 || !numeric_type(f->ncid, type, &size))
            return heat2d_fail(err, "%s: '%s' has a _FillValue of %zu values, not one number",
                               f->path, HEAT2D_NC_FIELD, len);
        const int status = nc_get_att_double(f->ncid, f->var, "_FillValue", fill);
        return status == NC_NOERR || status == NC_ERANGE ? 0 : read_fail(err, f->path, status);
    }
    nc_inq_vartype(f->ncid, f->var, &type);
    switch (type) {
    case NC_BYTE:
        *fill = NC_FILL_BYTE;
        break;
    case NC_SHORT:
        *fill = NC_FILL_SHORT;
        break;
    case NC_INT:
        *fill = NC_FILL_INT;
        break;
    case NC_FLOAT:
        *fill = NC_FILL_FLOAT;
        break;
    case NC_UBYTE:
        *fill = NC_FILL_UBYTE;
        break;
    case NC_USHORT:
        *fill = NC_FILL_USHORT;
        break;
    case NC_UINT:
        *fill = NC_FILL_UINT;
        break;
    case NC_INT64:
        *fill = (double)NC_FILL_INT64;
        break;
    case NC_UINT64:
        *fill = (double)NC_FILL_UINT64;
        break;
    default:
        *fill = NC_FILL_DOUBLE;
        break;
    }
    return 0;
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

/* The values of a record (or the field), slab by slab, into the sink:
 * a cell that holds the fill value was never written, one not finite is
 * refused as the text reader refuses it. */
static int read_values(const netcdf_file *f, const netcdf_request *req, size_t record, double fill,
                       const netcdf_sink *sink, heat2d_error *err)
{
    double *buf = malloc((f->nx * f->ny < SLAB_VALUES ? f->nx * f->ny : SLAB_VALUES) * sizeof *buf);
    if (buf == NULL)
        return heat2d_fail(err, "%s: cannot allocate a slab of values", f->path);
    int rc = 0;
    slab s = {0, 0, 0, 0};
    next_slab(f, &s);
    for (; rc == 0 && s.j < f->ny; next_slab(f, &s)) {
        const size_t start[3] = {record, s.j, s.i};
        const size_t count[3] = {1, s.rows, s.cols};
        const int off = f->ndims == 3 ? 0 : 1;
        const int status = nc_get_vara_double(f->ncid, f->var, start + off, count + off, buf);
        if (status != NC_NOERR) {
            rc = read_fail(err, req->spec, status);
            break;
        }
        const size_t n = s.rows * s.cols;
        rc = heat2d_nc_check_values(req, buf, n, f->nx, s.j * f->nx + s.i, fill, err);
        if (rc == 0)
            rc = sink->values(sink->ctx, buf, n, err);
    }
    free(buf);
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
    const bool raw =
        rc == 0 && sink->extent != NULL && heat2d_nc_storage_extent(storage, record, &extent);
    heat2d_nc_storage_close(storage);
    if (rc == 0)
        rc = fill_value(f, &extent.fill, err);
    if (rc == 0)
        rc = sink->shape(sink->ctx, f->nx, f->ny, err);
    if (rc != 0)
        return -1;
    return raw ? sink->extent(sink->ctx, &extent, err)
               : read_values(f, req, record, extent.fill, sink, err);
}

/* What the request asks of the open file, its field's shape checked. */
static int read_open(netcdf_file *f, const netcdf_request *req, const netcdf_sink *sink,
                     heat2d_error *err)
{
    if (nc_inq_varid(f->ncid, HEAT2D_NC_FIELD, &f->var) != NC_NOERR)
        return heat2d_fail(err, "%s: no variable '%s' (not a heat2d field)", f->path,
                           HEAT2D_NC_FIELD);
    int format = 0;
    f->netcdf4 = nc_inq_format(f->ncid, &format) == NC_NOERR &&
                 (format == NC_FORMAT_NETCDF4 || format == NC_FORMAT_NETCDF4_CLASSIC);
    if (shape(f, req->spec, err) != 0 || (f->ndims == 3 && heat2d_nc_check_series(f, err) != 0))
        return -1;
    if (f->ndims == 3 && !req->record && req->check_only)
        return heat2d_nc_check_records(f, err);
    if (f->ndims == 3 && !req->record)
        return heat2d_fail(err, "%s is a series of %zu records: name one as %s:STEP", f->path,
                           f->records, f->path);
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
