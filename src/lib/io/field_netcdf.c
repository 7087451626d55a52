/* Writing a final field as NetCDF by file_replace.c's rules, so that a .nc
 * field is replaced whole, never left half-written, as a text one: the
 * library writes file_replace's temporary file, or an image in memory
 * (nc_create_mem) that is written to a stream. */
#define _POSIX_C_SOURCE 200809L
#include "field_netcdf.h"
#include "file_replace.h"
#include "netcdf_schema.h"

#include <errno.h>
#include <netcdf.h>
#include <netcdf_mem.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool heat2d_netcdf_built(void)
{
    return true;
}

int heat2d_netcdf_check_built(const char *option, const char *path, heat2d_error *err)
{
    (void)option;
    (void)path;
    (void)err;
    return 0;
}

typedef struct field_job {
    const char *path;
    const heat2d_netcdf_meta *meta;
    const double *field;
    heat2d_error *err; /* the library's words, when it fails */
} field_job;

/* An errno value for file_replace.c: the system's cause when the call
 * left one, else EIO, with the library's words in job->err. */
static int failed(const field_job *job, int status, int saved_errno)
{
    heat2d_nc_fail(job->err, "field file", job->path, status, saved_errno);
    return saved_errno == ENOSPC || saved_errno == EDQUOT || saved_errno == EFBIG ? saved_errno
                                                                                  : EIO;
}

/* Defines and fills ncid, then closes it (into *image when given). */
static int fill(const field_job *job, int ncid, NC_memio *image)
{
    netcdf_ids ids = {.ncid = ncid};
    if (heat2d_nc_define(&ids, job->meta, false, job->path, job->err) != 0) {
        nc_abort(ncid);
        return EIO;
    }
    /* nc_put_var_double narrows an f32 run's widened values exactly. */
    errno = 0;
    int status = nc_put_var_double(ncid, ids.field, job->field);
    if (status != NC_NOERR) {
        const int e = errno;
        nc_abort(ncid);
        return failed(job, status, e);
    }
    errno = 0;
    status = image ? nc_close_memio(ncid, image) : nc_close(ncid);
    return status == NC_NOERR ? 0 : failed(job, status, errno);
}

/* The writer file_replace.c calls with the temporary file (or a stream)
 * open: a regular file is written in place by the library through its
 * descriptor's /proc name, at the disk's speed; anything else (a pipe, no
 * /proc) gets an image built in memory. */
static int write_netcdf(FILE *stream, void *ctx)
{
    const field_job *job = ctx;
    const int fd = fileno(stream);
    const uint64_t bytes =
        (uint64_t)job->meta->nx * job->meta->ny * heat2d_precision_bytes(job->meta->precision);
    const int room = fd >= 0 ? heat2d_nc_room(fd, job->path, bytes) : 0;
    if (room != 0)
        return room;
    struct stat st;
    char name[64];
    int ncid;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0 &&
        snprintf(name, sizeof name, "/proc/self/fd/%d", fd) < (int)sizeof name &&
        nc_create(name, heat2d_nc_format() | NC_CLOBBER, &ncid) == NC_NOERR)
        return fill(job, ncid, NULL);
    /* The image starts at the raw field's size: it rarely grows past it. */
    const size_t initial =
        job->meta->nx * job->meta->ny * heat2d_precision_bytes(job->meta->precision) + 65536;
    errno = 0;
    int status = nc_create_mem(job->path, heat2d_nc_format(), initial, &ncid);
    if (status != NC_NOERR)
        return failed(job, status, errno);
    NC_memio image = {0};
    int e = fill(job, ncid, &image);
    if (e == 0 && fwrite(image.memory, 1, image.size, stream) != image.size)
        e = errno ? errno : EIO;
    free(image.memory);
    return e;
}

static int locked_write_field(const char *path, const heat2d_netcdf_meta *meta, const double *field,
                              heat2d_error *err)
{
    heat2d_error why = {{0}};
    field_job job = {path, meta, field, &why};
    if (heat2d_file_replace(path, "field file", write_netcdf, &job, err) == 0)
        return 0;
    /* The library's words where the system has none to say. */
    if (why.message[0] != '\0' && strstr(err->message, strerror(EIO)) != NULL)
        *err = why;
    return -1;
}

int heat2d_netcdf_write_field(const char *path, const heat2d_netcdf_meta *meta, const double *field,
                              heat2d_error *err)
{
    if (heat2d_netcdf_meta_check(meta, err) != 0)
        return -1;
    heat2d_nc_lock();
    const int rc = locked_write_field(path, meta, field, err);
    heat2d_nc_unlock();
    return rc;
}
