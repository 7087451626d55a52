/* Whether a NetCDF-4 record's field was ever written (netcdf_reader.h),
 * from HDF5's own index of u's storage: a chunk never written has no
 * storage. heat2d writes u without filling it first, and a record whose
 * step got to the file but whose chunk did not (a full disk, a crafted
 * file) would otherwise read as whatever memory the library left in the
 * buffer. The classic formats have no such index: their records lie in
 * the file, whose size the reader has checked. */
#define _POSIX_C_SOURCE 200809L
#include "netcdf_reader.h"
#include "netcdf_schema.h"

#include <stdlib.h>

#ifdef HEAT2D_HAVE_HDF5
#include <hdf5.h>

struct netcdf_storage {
    hid_t file, set;
    const netcdf_file *f;
    H5D_layout_t layout;
    hsize_t extent[3], chunk[3];
};

void heat2d_nc_storage_close(netcdf_storage *s)
{
    if (s == NULL)
        return;
    if (s->set >= 0)
        H5Dclose(s->set);
    if (s->file >= 0)
        H5Fclose(s->file);
    free(s);
}

/* The lengths of the variable's last two dimensions, in the file's order. */
static size_t fastest(const netcdf_file *f)
{
    return f->transposed ? f->ny : f->nx;
}

static size_t slowest(const netcdf_file *f)
{
    return f->transposed ? f->nx : f->ny;
}

/* The variable's extent and layout, checked to agree with what the library
 * said. */
static int layout(netcdf_storage *s, heat2d_error *err)
{
    const netcdf_file *f = s->f;
    const hid_t space = H5Dget_space(s->set);
    const int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    if (rank == f->ndims)
        H5Sget_simple_extent_dims(space, s->extent, NULL);
    if (space >= 0)
        H5Sclose(space);
    const hid_t plist = H5Dget_create_plist(s->set);
    s->layout = plist < 0 ? H5D_LAYOUT_ERROR : H5Pget_layout(plist);
    const int chunk_rank =
        s->layout == H5D_CHUNKED ? H5Pget_chunk(plist, f->ndims, s->chunk) : f->ndims;
    if (plist >= 0)
        H5Pclose(plist);
    if (rank != f->ndims || s->extent[rank - 1] != fastest(f) ||
        s->extent[rank - 2] != slowest(f) || s->layout == H5D_LAYOUT_ERROR ||
        chunk_rank != f->ndims)
        return heat2d_fail(err, "%s: its HDF5 storage of '%s' disagrees with its header", f->path,
                           f->name);
    for (int k = 0; s->layout == H5D_CHUNKED && k < rank; ++k)
        if (s->chunk[k] == 0)
            return heat2d_fail(err, "%s: '%s' has chunks of no size", f->path, f->name);
    /* A chunk of several records, some never written, is allocated all
     * the same: whether one was written cannot be told. */
    if (s->layout == H5D_CHUNKED && rank == 3 && f->no_fill && s->chunk[0] != 1)
        return heat2d_fail(err,
                           "%s: '%s' is not filled and holds %llu records a chunk: whether a "
                           "record was written cannot be told",
                           f->path, f->name, (unsigned long long)s->chunk[0]);
    return 0;
}

int heat2d_nc_storage_open(netcdf_storage **storage, const netcdf_file *f, heat2d_error *err)
{
    *storage = NULL;
    if (!f->netcdf4)
        return 0;
    netcdf_storage *s = calloc(1, sizeof *s);
    if (s == NULL)
        return heat2d_fail(err, "%s: out of memory", f->path);
    s->f = f;
    s->set = -1;
    /* The library's failures are answered here, not printed. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    s->file = H5Fopen(f->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (s->file >= 0)
        s->set = H5Dopen2(s->file, f->name, H5P_DEFAULT);
    if (s->set < 0) {
        heat2d_nc_storage_close(s);
        return heat2d_fail(err, "%s: its HDF5 storage of '%s' cannot be opened", f->path, f->name);
    }
    if (layout(s, err) != 0) {
        heat2d_nc_storage_close(s);
        return -1;
    }
    *storage = s;
    return 0;
}

static int cut_short(const netcdf_storage *s, size_t step, heat2d_error *err)
{
    if (s->f->ndims == 3)
        return heat2d_fail(err,
                           "%s: the record of step %zu was cut short (its field was never "
                           "written)",
                           s->f->path, step);
    return heat2d_fail(err, "%s: the field was cut short (it was never written)", s->f->path);
}

/* Whether storage of `size` bytes at `address` was given and lies within
 * the file: an index that points past its end (a write the disk refused)
 * was never written either. */
static bool in_file(const netcdf_storage *s, haddr_t address, hsize_t size)
{
    return address != HADDR_UNDEF && size > 0 && address <= s->f->bytes &&
           size <= s->f->bytes - address;
}

static bool chunk_written(const netcdf_storage *s, const hsize_t *offset)
{
#if H5_VERSION_GE(1, 10, 5)
    unsigned filter_mask = 0;
    haddr_t address = HADDR_UNDEF;
    hsize_t size = 0;
    return H5Dget_chunk_info_by_coord(s->set, offset, &filter_mask, &address, &size) >= 0 &&
           in_file(s, address, size);
#else
    hsize_t size = 0;
    return H5Dget_chunk_storage_size(s->set, offset, &size) >= 0 && size > 0;
#endif
}

int heat2d_nc_storage_written(netcdf_storage *s, size_t record, size_t step, heat2d_error *err)
{
    if (s == NULL)
        return 0;
    const netcdf_file *f = s->f;
    const int rank = f->ndims;
    if (rank == 3 && record >= s->extent[0])
        return cut_short(s, step, err);
    if (s->layout == H5D_CONTIGUOUS)
        return in_file(s, H5Dget_offset(s->set), H5Dget_storage_size(s->set))
                   ? 0
                   : cut_short(s, step, err);
    if (s->layout != H5D_CHUNKED)
        return 0; /* compact: held in the header itself */
    /* Every chunk over the record; the first without storage ends it, so
     * that the chunks asked about are bounded by those the file holds. */
    const hsize_t *c = s->chunk + (rank - 2);
    for (hsize_t y = 0; y < slowest(f); y += c[0])
        for (hsize_t x = 0; x < fastest(f); x += c[1]) {
            hsize_t offset[3] = {record / s->chunk[0] * s->chunk[0], y, x};
            if (!chunk_written(s, rank == 3 ? offset : offset + 1))
                return cut_short(s, step, err);
        }
    return 0;
}

/* The values' type, when it is a little-endian IEEE float of 4 or 8 bytes
 * on a little-endian host: its size, else 0. */
static size_t raw_float_bytes(hid_t set)
{
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe != 1)
        return 0;
    const hid_t type = H5Dget_type(set);
    size_t bytes = 0;
    if (type >= 0 && H5Tget_class(type) == H5T_FLOAT && H5Tget_order(type) == H5T_ORDER_LE &&
        (H5Tequal(type, H5T_IEEE_F32LE) > 0 || H5Tequal(type, H5T_IEEE_F64LE) > 0))
        bytes = H5Tget_size(type);
    if (type >= 0)
        H5Tclose(type);
    return bytes;
}

/* No filter, no user block (addresses are then the file's offsets). */
static bool plain_storage(const netcdf_storage *s)
{
    const hid_t plist = H5Dget_create_plist(s->set);
    const int filters = plist < 0 ? -1 : H5Pget_nfilters(plist);
    if (plist >= 0)
        H5Pclose(plist);
    const hid_t file_plist = H5Fget_create_plist(s->file);
    hsize_t user_block = 1;
    if (file_plist >= 0 && H5Pget_userblock(file_plist, &user_block) < 0)
        user_block = 1;
    if (file_plist >= 0)
        H5Pclose(file_plist);
    return filters == 0 && user_block == 0;
}

bool heat2d_nc_storage_extent(netcdf_storage *s, size_t record, netcdf_extent *extent)
{
    if (s == NULL || !plain_storage(s))
        return false;
    const netcdf_file *f = s->f;
    const size_t bytes = raw_float_bytes(s->set);
    haddr_t address = HADDR_UNDEF;
    hsize_t size = 0;
    if (s->layout == H5D_CONTIGUOUS) {
        address = H5Dget_offset(s->set);
        size = H5Dget_storage_size(s->set);
    } else if (s->layout == H5D_CHUNKED && s->chunk[f->ndims - 1] == fastest(f) &&
               s->chunk[f->ndims - 2] == slowest(f) && (f->ndims == 2 || s->chunk[0] == 1)) {
#if H5_VERSION_GE(1, 10, 5)
        /* One chunk holds the record, whole. */
        hsize_t offset[3] = {record, 0, 0};
        unsigned filter_mask = 0;
        if (H5Dget_chunk_info_by_coord(s->set, f->ndims == 3 ? offset : offset + 1, &filter_mask,
                                       &address, &size) < 0)
            address = HADDR_UNDEF;
#endif
    }
    if (bytes == 0 || !in_file(s, address, size) || size != (hsize_t)f->nx * f->ny * bytes)
        return false;
    extent->offset = address;
    extent->bytes = bytes;
    return true;
}

#else /* a build without HDF5's headers */

int heat2d_nc_storage_open(netcdf_storage **storage, const netcdf_file *f, heat2d_error *err)
{
    *storage = NULL;
    if (!f->netcdf4)
        return 0;
    return heat2d_fail(err,
                       "%s: this heat2d cannot tell whether a NetCDF-4 field was written (built "
                       "without HDF5's headers: install libhdf5-dev and build again)",
                       f->path);
}

int heat2d_nc_storage_written(netcdf_storage *s, size_t record, size_t step, heat2d_error *err)
{
    (void)s;
    (void)record;
    (void)step;
    (void)err;
    return 0;
}

void heat2d_nc_storage_close(netcdf_storage *s)
{
    (void)s;
}

bool heat2d_nc_storage_extent(netcdf_storage *s, size_t record, netcdf_extent *extent)
{
    (void)s;
    (void)record;
    (void)extent;
    return false;
}

#endif
