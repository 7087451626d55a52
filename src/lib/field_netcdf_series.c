/* A series of snapshots in one NetCDF file: a record appended each
 * snapshot, the field before its step (a reader takes a record whose step
 * is unset for one cut short), then nc_sync, so that a run killed at any
 * moment leaves every record synced before it whole. */
#define _POSIX_C_SOURCE 200809L
#include "field_netcdf.h"
#include "file_replace.h"
#include "netcdf_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct heat2d_netcdf_series {
    netcdf_ids ids;
    heat2d_netcdf_meta meta;
    size_t records;
    bool failed; /* an append failed: the file is aborted, not closed */
    int fd;      /* read-only, for the room on its file system */
    uint64_t record_bytes;
    char path[4096];
};

static int locked_series_open(heat2d_netcdf_series **series, const char *path,
                              const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    *series = NULL;
    /* The library writes in place and seeks: a FIFO or a device cannot
     * hold a series, and a read-only file is the user's. */
    if (heat2d_file_check_regular(path, err) != 0 ||
        heat2d_file_check_replaceable(path, "series", err) != 0)
        return -1;
    heat2d_netcdf_series *s = calloc(1, sizeof *s);
    if (s == NULL)
        return heat2d_fail(err, "cannot write series '%s': out of memory", path);
    if (strlen(path) >= sizeof s->path) {
        free(s);
        return heat2d_fail(err, "cannot write series '%s': %s", path, strerror(ENAMETOOLONG));
    }
    strcpy(s->path, path);
    s->meta = *meta;
    /* The header and coordinates, before the library tries. */
    const int room = heat2d_nc_room(-1, path, (uint64_t)(meta->nx + meta->ny) * 8);
    if (room != 0) {
        free(s);
        return heat2d_fail(err, "cannot write series '%s': %s", path, strerror(room));
    }
    int status = nc_create(path, heat2d_nc_format() | NC_CLOBBER, &s->ids.ncid);
    if (status != NC_NOERR) {
        heat2d_nc_fail(err, "series", path, status, errno);
        free(s);
        return -1;
    }
    if (heat2d_nc_define(&s->ids, meta, true, path, err) != 0 ||
        (status = nc_sync(s->ids.ncid)) != NC_NOERR) {
        if (status != NC_NOERR)
            heat2d_nc_fail(err, "series", path, status, errno);
        /* It holds no record yet: nothing of the user's to keep. Aborted,
         * not closed: HDF5 1.10 left with a file it cannot flush (a full
         * disk) crashes trying again at exit. */
        nc_abort(s->ids.ncid);
        remove(path);
        free(s);
        return -1;
    }
    s->record_bytes = (uint64_t)meta->nx * meta->ny * heat2d_precision_bytes(meta->precision);
    s->fd = open(path, O_RDONLY | O_CLOEXEC);
    *series = s;
    return 0;
}

static int locked_series_append(heat2d_netcdf_series *s, size_t step, const void *values,
                                heat2d_error *err)
{
    const int ncid = s->ids.ncid;
    const size_t start[3] = {s->records, 0, 0};
    const size_t count[3] = {1, s->meta.ny, s->meta.nx};
    const int room = heat2d_nc_room(s->fd, s->path, s->record_bytes);
    if (room != 0)
        return heat2d_fail(err, "cannot write series '%s': %s", s->path, strerror(room));
    errno = 0;
    int status = s->meta.precision == HEAT2D_F32
                     ? nc_put_vara_float(ncid, s->ids.field, start, count, values)
                     : nc_put_vara_double(ncid, s->ids.field, start, count, values);
    const double t = (double)step;
    const long long st = (long long)step;
    if (status == NC_NOERR)
        status = nc_put_var1_double(ncid, s->ids.time, start, &t);
    if (status == NC_NOERR)
        status = nc_put_var1_longlong(ncid, s->ids.step, start, &st);
    if (status == NC_NOERR)
        status = nc_sync(ncid);
    if (status != NC_NOERR) {
        s->failed = true;
        return heat2d_nc_fail(err, "series", s->path, status, errno);
    }
    s->records++;
    return 0;
}

static int locked_series_close(heat2d_netcdf_series *s, bool complete, heat2d_error *err)
{
    if (s == NULL)
        return 0;
    const int ncid = s->ids.ncid;
    int status = NC_NOERR;
    errno = 0;
    if (complete) {
        /* NetCDF-4 has no define mode to leave; a classic file's header
         * has room for this (heat2d_nc_define reserved it). */
        status = nc_redef(ncid);
        if (status == NC_NOERR)
            status = nc_put_att_text(ncid, NC_GLOBAL, "complete", 4, "true");
        if (status == NC_NOERR)
            status = nc_enddef(ncid);
    }
    const int saved = errno;
    const int closed = s->failed ? nc_abort(ncid) : nc_close(ncid);
    if (s->fd >= 0)
        close(s->fd);
    int rc = 0;
    if (complete && (status != NC_NOERR || closed != NC_NOERR))
        rc = heat2d_nc_fail(err, "series", s->path, status != NC_NOERR ? status : closed,
                            status != NC_NOERR ? saved : errno);
    free(s);
    return rc;
}

int heat2d_netcdf_series_open(heat2d_netcdf_series **series, const char *path,
                              const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    heat2d_nc_lock();
    const int rc = locked_series_open(series, path, meta, err);
    heat2d_nc_unlock();
    return rc;
}

int heat2d_netcdf_series_append(heat2d_netcdf_series *s, size_t step, const void *values,
                                heat2d_error *err)
{
    heat2d_nc_lock();
    const int rc = locked_series_append(s, step, values, err);
    heat2d_nc_unlock();
    return rc;
}

int heat2d_netcdf_series_close(heat2d_netcdf_series *s, bool complete, heat2d_error *err)
{
    heat2d_nc_lock();
    const int rc = locked_series_close(s, complete, err);
    heat2d_nc_unlock();
    return rc;
}
