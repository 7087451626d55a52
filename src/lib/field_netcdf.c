/* Writing a final field as NetCDF: built in memory by the library
 * (nc_create_mem), then written out by file_replace.c's rules, so that a
 * .nc field is replaced whole, never left half-written, as a text one. */
#define _POSIX_C_SOURCE 200809L
#include "field_netcdf.h"
#include "file_replace.h"
#include "netcdf_schema.h"

#include <errno.h>
#include <netcdf.h>
#include <netcdf_mem.h>
#include <stdlib.h>

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

typedef struct memory_file {
    const NC_memio *image;
} memory_file;

static int write_image(FILE *stream, void *ctx)
{
    const memory_file *m = ctx;
    if (fwrite(m->image->memory, 1, m->image->size, stream) != m->image->size)
        return errno ? errno : EIO;
    return 0;
}

static int locked_write_field(const char *path, const heat2d_netcdf_meta *meta, const double *field,
                              heat2d_error *err)
{
    netcdf_ids ids = {0};
    /* The image starts at the raw field's size: it rarely grows past it. */
    const size_t initial = meta->nx * meta->ny * heat2d_precision_bytes(meta->precision) + 65536;
    int status = nc_create_mem(path, heat2d_nc_format(), initial, &ids.ncid);
    if (status != NC_NOERR)
        return heat2d_nc_fail(err, "field file", path, status, errno);
    if (heat2d_nc_define(&ids, meta, false, path, err) != 0) {
        nc_abort(ids.ncid);
        return -1;
    }
    /* nc_put_var_double narrows an f32 run's widened values exactly. */
    status = nc_put_var_double(ids.ncid, ids.field, field);
    if (status != NC_NOERR) {
        heat2d_nc_fail(err, "field file", path, status, errno);
        nc_abort(ids.ncid);
        return -1;
    }
    NC_memio image = {0};
    status = nc_close_memio(ids.ncid, &image);
    if (status != NC_NOERR) {
        free(image.memory);
        return heat2d_nc_fail(err, "field file", path, status, errno);
    }
    memory_file m = {&image};
    const int rc = heat2d_file_replace(path, "field file", write_image, &m, err);
    free(image.memory);
    return rc;
}

int heat2d_netcdf_write_field(const char *path, const heat2d_netcdf_meta *meta, const double *field,
                              heat2d_error *err)
{
    heat2d_nc_lock();
    const int rc = locked_write_field(path, meta, field, err);
    heat2d_nc_unlock();
    return rc;
}
