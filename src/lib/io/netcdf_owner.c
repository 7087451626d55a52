/* Whether a NetCDF file is one heat2d wrote: its global attribute source
 * begins "heat2d " (netcdf_schema.c writes it into fields and series
 * alike). Asked of a file about to be replaced, so that another program's
 * data under a .nc name is not. */
#define _POSIX_C_SOURCE 200809L
#include "field_netcdf.h"
#include "netcdf_schema.h"

#include <netcdf.h>
#include <string.h>

static bool locked_is_heat2d(const char *path)
{
    int ncid;
    if (nc_open(path, NC_NOWRITE, &ncid) != NC_NOERR)
        return false;
    static const char mark[] = "heat2d ";
    nc_type type;
    size_t len;
    char text[256];
    bool ours = false;
    /* nc_get_att_text reads the whole attribute: one that fits, or none. */
    if (nc_inq_att(ncid, NC_GLOBAL, "source", &type, &len) == NC_NOERR && type == NC_CHAR &&
        len >= sizeof mark - 1 && len <= sizeof text)
        ours = nc_get_att_text(ncid, NC_GLOBAL, "source", text) == NC_NOERR &&
               memcmp(text, mark, sizeof mark - 1) == 0;
    nc_close(ncid);
    return ours;
}

bool heat2d_netcdf_is_heat2d(const char *path)
{
    heat2d_nc_lock();
    const bool ours = locked_is_heat2d(path);
    heat2d_nc_unlock();
    return ours;
}
