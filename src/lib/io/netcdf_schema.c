/* The layout of heat2d's NetCDF files (netcdf_schema.h), CF-1.8: x and y
 * in metres where the run has a cell size (else the cells' indices), a
 * series' time in CF's "seconds since" a stated reference, its step a
 * 32-bit integer variable beside it (no coordinate: CDO cannot assign one
 * that is not a dimension's, ParaView reads no 64-bit integer), long_name
 * and units on every variable, the run's parameters as attributes. */
#define _POSIX_C_SOURCE 200809L
#include "netcdf_schema.h"

#include <errno.h>
#include <limits.h>
#include <netcdf.h>
#include <netcdf_meta.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* Rows a compressed chunk: about 1 MiB of them, so that a reader of a slab
 * (ncview, a plot of a window) decompresses little beyond it. */
#define CHUNK_BYTES ((size_t)1 << 20)
/* HDF5's largest chunk is 4 GiB less one byte: a whole number of rows
 * within it. */
#define MAX_CHUNK_BYTES (((size_t)1 << 32) - 1)

static pthread_mutex_t library = PTHREAD_MUTEX_INITIALIZER;

void heat2d_nc_lock(void)
{
    pthread_mutex_lock(&library);
}

void heat2d_nc_unlock(void)
{
    pthread_mutex_unlock(&library);
}

int heat2d_nc_format(void)
{
#if NC_HAS_NC4 && NC_HAS_HDF5
    return NC_NETCDF4;
#elif defined(NC_64BIT_DATA) && NC_HAS_CDF5
    return NC_64BIT_DATA;
#else
    return NC_64BIT_OFFSET;
#endif
}

int heat2d_nc_room(int fd, const char *path, uint64_t bytes)
{
    const uint64_t margin = (uint64_t)32 << 10; /* HDF5's metadata of a record, and more */
    /* A file-size limit (ulimit -f) fails HDF5's flush as a full disk does. */
    struct rlimit limit;
    struct stat st;
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        const uint64_t size = fd >= 0 && fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
        if (size + bytes + margin > (uint64_t)limit.rlim_cur)
            return EFBIG;
    }
    struct statvfs fs;
    int rc;
    if (fd >= 0) {
        rc = fstatvfs(fd, &fs);
    } else {
        /* A file not made yet: its folder's file system. */
        char dir[4096];
        const char *slash = strrchr(path, '/');
        const size_t len = slash == NULL ? 0 : slash == path ? 1 : (size_t)(slash - path);
        if (len >= sizeof dir)
            return 0;
        memcpy(dir, slash == NULL ? "." : path, slash == NULL ? 2 : len);
        dir[slash == NULL ? 1 : len] = '\0';
        rc = statvfs(dir, &fs);
    }
    if (rc != 0 || fs.f_frsize == 0)
        return 0; /* unknown: the write itself will say */
    /* root may fill the blocks reserved for it, as its writes would. */
    const uint64_t blocks = geteuid() == 0 ? (uint64_t)fs.f_bfree : (uint64_t)fs.f_bavail;
    return blocks >= (bytes + margin) / fs.f_frsize + 1 ? 0 : ENOSPC;
}

int heat2d_nc_fail(heat2d_error *err, const char *what, const char *path, int status,
                   int saved_errno)
{
    /* HDF5 reports a failed write as "HDF error": the write's errno names
     * the cause. Only the causes a user can act on, which no library call
     * leaves behind by accident. */
    const bool system = saved_errno == ENOSPC || saved_errno == EDQUOT || saved_errno == EFBIG ||
                        saved_errno == EIO || saved_errno == EROFS;
    return heat2d_fail(err, "cannot write %s '%s': %s", what, path,
                       system ? strerror(saved_errno) : nc_strerror(status));
}

typedef struct definer {
    int ncid;
    const char *what, *path;
    heat2d_error *err;
    int status;
} definer;

/* One NetCDF call's status: false (and err set, once) on failure. */
static bool ok(definer *d, int status)
{
    if (d->status != NC_NOERR)
        return false;
    if (status == NC_NOERR)
        return true;
    d->status = status;
    heat2d_nc_fail(d->err, d->what, d->path, status, errno);
    return false;
}

static bool text_att(definer *d, int var, const char *name, const char *value)
{
    return ok(d, nc_put_att_text(d->ncid, var, name, strlen(value), value));
}

double heat2d_nc_time_of(const heat2d_netcdf_meta *meta, size_t step)
{
    const double seconds = (double)step * (meta->dt > 0.0 ? meta->dt : 1.0);
    return meta->time_unit_s > 0.0 && meta->time_unit_s != 1.0 ? seconds / meta->time_unit_s
                                                               : seconds;
}

const char *heat2d_nc_time_units(const heat2d_netcdf_meta *meta)
{
    return meta->time_units != NULL && meta->time_units[0] != '\0' ? meta->time_units
                                                                   : HEAT2D_NC_TIME_UNITS;
}

/* The coordinate along dim: the cells' centres, i * dx metres where the
 * run has a cell size (standard_name projection_x/y_coordinate, by which
 * GDAL takes them for its geotransform), else their indices (a plain
 * coordinate variable). No axis attribute: compliance-checker takes a
 * coordinate with axis X or Y for longitude or latitude unless it is a
 * projection coordinate, and ParaView's reader wraps such a grid onto a
 * sphere; heat2d's plane is neither. */
static bool coordinate(definer *d, const heat2d_netcdf_meta *meta, const char *name, int dim,
                       int *var)
{
    if (!ok(d, nc_def_var(d->ncid, name, NC_DOUBLE, 1, &dim, var)))
        return false;
    char long_name[96], standard_name[64];
    if (meta->dx > 0.0) {
        snprintf(long_name, sizeof long_name, "%s of the cell centre", name);
        snprintf(standard_name, sizeof standard_name, "projection_%s_coordinate", name);
        return text_att(d, *var, "standard_name", standard_name) &&
               text_att(d, *var, "long_name", long_name) && text_att(d, *var, "units", "m");
    }
    snprintf(long_name, sizeof long_name, "cell index along %s (cell centres, spacing 1)", name);
    return text_att(d, *var, "long_name", long_name) && text_att(d, *var, "units", "1");
}

static bool write_coordinate(definer *d, int var, size_t n, double dx)
{
    double *at = malloc((n ? n : 1) * sizeof *at);
    if (at == NULL)
        return ok(d, NC_ENOMEM);
    for (size_t k = 0; k < n; ++k)
        at[k] = dx > 0.0 ? (double)k * dx : (double)k;
    bool done = ok(d, nc_put_var_double(d->ncid, var, at));
    free(at);
    return done;
}

/* A series' time(time), in seconds since the clock's reference, and
 * step(time), the steps done. */
static bool time_and_step(definer *d, netcdf_ids *ids, const heat2d_netcdf_meta *meta, int dim_t)
{
    const char *long_name = meta->dt > 0.0 ? "simulated time (step x dt)"
                                           : "simulated time, 1 s a step (the run gave no dt)";
    return ok(d, nc_def_var(d->ncid, HEAT2D_NC_TIME, NC_DOUBLE, 1, &dim_t, &ids->time)) &&
           text_att(d, ids->time, "standard_name", "time") &&
           text_att(d, ids->time, "long_name", long_name) &&
           text_att(d, ids->time, "units", heat2d_nc_time_units(meta)) &&
           text_att(d, ids->time, "calendar", "standard") && text_att(d, ids->time, "axis", "T") &&
           ok(d, nc_def_var(d->ncid, HEAT2D_NC_STEP, NC_INT, 1, &dim_t, &ids->step)) &&
           text_att(d, ids->step, "long_name", "steps done since the initial state") &&
           text_att(d, ids->step, "units", "1");
}

/* A count as an attribute of a type every tool keeps (CDO drops 64-bit
 * integer attributes): a 32-bit int, or a double past its range. */
static bool count_att(definer *d, const char *name, size_t value)
{
    if (value <= INT_MAX) {
        const int v = (int)value;
        return ok(d, nc_put_att_int(d->ncid, NC_GLOBAL, name, NC_INT, 1, &v));
    }
    double v = (double)value;
    return ok(d, nc_put_att_double(d->ncid, NC_GLOBAL, name, NC_DOUBLE, 1, &v));
}

/* The run's cell size (m), time step (s) and diffusivity (m^2/s), each
 * where known. */
static bool physical_atts(definer *d, const heat2d_netcdf_meta *meta)
{
    return (!(meta->dx > 0.0) ||
            ok(d, nc_put_att_double(d->ncid, NC_GLOBAL, "dx", NC_DOUBLE, 1, &meta->dx))) &&
           (!(meta->dt > 0.0) ||
            ok(d, nc_put_att_double(d->ncid, NC_GLOBAL, "dt", NC_DOUBLE, 1, &meta->dt))) &&
           (!(meta->diffusivity > 0.0) ||
            ok(d, nc_put_att_double(d->ncid, NC_GLOBAL, "diffusivity", NC_DOUBLE, 1,
                                    &meta->diffusivity)));
}

/* No attribute that another tool's edit could leave stale: the sides are
 * the dimensions', a series' last step its step variable's (after ncrcat
 * or ncks -d a count would disagree with the records); a field keeps its
 * steps, which nothing else holds. */
static bool global_atts(definer *d, const heat2d_netcdf_meta *meta, bool series)
{
    char history[4600], source[160], title[160];
    time_t now = time(NULL);
    struct tm utc;
    char when[32] = "";
    if (gmtime_r(&now, &utc) != NULL)
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
    snprintf(history, sizeof history, "%s: heat2d %s: %s", when, meta->version,
             meta->command_line ? meta->command_line : "");
    snprintf(source, sizeof source, "heat2d %s, method %s, %s", meta->version, meta->method,
             heat2d_precision_name(meta->precision));
    snprintf(title, sizeof title, "heat2d 2-D heat diffusion, %zux%zu cells: %s", meta->nx,
             meta->ny, series ? "snapshots" : "final field");
    const double alpha = meta->alpha;
    return text_att(d, NC_GLOBAL, "Conventions", "CF-1.8") &&
           text_att(d, NC_GLOBAL, "title", title) && text_att(d, NC_GLOBAL, "history", history) &&
           text_att(d, NC_GLOBAL, "source", source) &&
           text_att(d, NC_GLOBAL, "method", meta->method) &&
           text_att(d, NC_GLOBAL, "precision", heat2d_precision_name(meta->precision)) &&
           ok(d, nc_put_att_double(d->ncid, NC_GLOBAL, "alpha", NC_DOUBLE, 1, &alpha)) &&
           physical_atts(d, meta) && (series || count_att(d, "steps", meta->steps)) &&
           (!series || text_att(d, NC_GLOBAL, "complete", "false"));
}

static bool field_var(definer *d, netcdf_ids *ids, const heat2d_netcdf_meta *meta, const int *dims,
                      int ndims)
{
    const nc_type type = meta->precision == HEAT2D_F32 ? NC_FLOAT : NC_DOUBLE;
    if (!ok(d, nc_def_var(d->ncid, HEAT2D_NC_FIELD, type, ndims, dims, &ids->field)))
        return false;
    if (heat2d_nc_format() == NC_NETCDF4) {
        const int level = meta->deflate < 0 ? HEAT2D_NETCDF_DEFAULT_DEFLATE : meta->deflate;
        const size_t row = meta->nx * heat2d_precision_bytes(meta->precision);
        /* A compressed chunk is about 1 MiB of rows; an uncompressed record
         * is one chunk, up to HDF5's limit, and with no chunk cache the
         * library writes it straight from the caller's buffer in one pass
         * (1 MiB chunks, or a record that fits the cache, went through the
         * cache first: half the file system's rate, or less). */
        const size_t target = level > 0 ? CHUNK_BYTES : MAX_CHUNK_BYTES;
        size_t rows = row >= target ? 1 : target / row;
        rows = rows > meta->ny ? meta->ny : rows;
        size_t chunks[3] = {1, rows, meta->nx};
        const size_t *chunk = ndims == 3 ? chunks : chunks + 1;
        /* A field not compressed is one contiguous write; a series'
         * records need chunks (its time dimension is unlimited). */
        const bool contiguous = ndims == 2 && level == 0;
        if (!ok(d, nc_def_var_chunking(d->ncid, ids->field, contiguous ? NC_CONTIGUOUS : NC_CHUNKED,
                                       contiguous ? NULL : chunk)) ||
            (level > 0 && !ok(d, nc_def_var_deflate(d->ncid, ids->field, 1, 1, level))) ||
            /* Every cell is written: filling each chunk first wrote every
             * record twice. A record cut short is told by its unset step. */
            !ok(d, nc_def_var_fill(d->ncid, ids->field, NC_NOFILL, NULL)) ||
            (level == 0 && !ok(d, nc_set_var_chunk_cache(d->ncid, ids->field, 0, 0, 0.0f))))
            return false;
    }
    return text_att(d, ids->field, "long_name", "temperature") &&
           text_att(d, ids->field, "units", "1");
}

int heat2d_nc_define(netcdf_ids *ids, const heat2d_netcdf_meta *meta, bool series, const char *path,
                     heat2d_error *err)
{
    definer d = {.ncid = ids->ncid,
                 .what = series ? "series" : "field file",
                 .path = path,
                 .err = err,
                 .status = NC_NOERR};
    int dim_t = -1, dim_y = -1, dim_x = -1, var_y = -1, var_x = -1;
    bool good = (!series || ok(&d, nc_def_dim(d.ncid, HEAT2D_NC_TIME, NC_UNLIMITED, &dim_t))) &&
                ok(&d, nc_def_dim(d.ncid, "y", meta->ny, &dim_y)) &&
                ok(&d, nc_def_dim(d.ncid, "x", meta->nx, &dim_x)) &&
                coordinate(&d, meta, "y", dim_y, &var_y) &&
                coordinate(&d, meta, "x", dim_x, &var_x);
    /* u before step: ParaView's reader offers the dimensions of the first
     * variable that is no coordinate, (y, x), by default. */
    const int dims[3] = {dim_t, dim_y, dim_x};
    good = good && field_var(&d, ids, meta, series ? dims : dims + 1, series ? 3 : 2) &&
           (!series || time_and_step(&d, ids, meta, dim_t)) && global_atts(&d, meta, series) &&
           /* Room in a classic header for complete's "true" and more. */
           ok(&d, nc__enddef(d.ncid, 1024, 4, 0, 4)) &&
           write_coordinate(&d, var_y, meta->ny, meta->dx) &&
           write_coordinate(&d, var_x, meta->nx, meta->dx);
    return good ? 0 : -1;
}
