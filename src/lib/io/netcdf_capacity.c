/* How many values a NetCDF file of its size can hold, and what a value
 * never written reads as (netcdf_reader.h): the bounds every size and
 * value a file claims is held to, shared by the reader's parts and the
 * child process that runs it. */
#include "netcdf_reader.h"

#include <netcdf.h>
#include <netcdf_meta.h>
#if NC_VERSION_MAJOR > 4 || (NC_VERSION_MAJOR == 4 && NC_VERSION_MINOR >= 8)
#include <netcdf_filter.h>
#define HAVE_FILTER_IDS 1
#endif

uint64_t heat2d_nc_capacity(uint64_t bytes, uint64_t ratio, uint64_t unit)
{
    if (unit == 0)
        return UINT64_MAX;
    if (ratio != 0 && bytes > UINT64_MAX / ratio)
        return UINT64_MAX;
    return bytes * ratio / unit;
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

double heat2d_nc_default_fill(int type)
{
    switch (type) {
    case NC_BYTE:
        return NC_FILL_BYTE;
    case NC_SHORT:
        return NC_FILL_SHORT;
    case NC_INT:
        return NC_FILL_INT;
    case NC_FLOAT:
        return NC_FILL_FLOAT;
    case NC_UBYTE:
        return NC_FILL_UBYTE;
    case NC_USHORT:
        return NC_FILL_USHORT;
    case NC_UINT:
        return NC_FILL_UINT;
    case NC_INT64:
        return (double)NC_FILL_INT64;
    case NC_UINT64:
        return (double)NC_FILL_UINT64;
    default:
        return NC_FILL_DOUBLE;
    }
}
