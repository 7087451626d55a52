/* How many values a NetCDF file of its size can hold (netcdf_reader.h):
 * the bound every size a file claims is held to, shared by the reader's
 * parts and the child process that runs it. */
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
