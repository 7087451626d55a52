/* What a NetCDF input says beyond its values (netcdf_reader.h): the physics
 * of the heat2d run that wrote it, so that a run continued from it keeps
 * them, and a series' time units, so that its clock goes on in them. Read
 * in the reader's child process, as everything of a file from elsewhere. */
#include "netcdf_reader.h"
#include "netcdf_schema.h"
#include "real_format.h"

#include <math.h>
#include <netcdf.h>
#include <string.h>

/* Text attribute name of var into text (size bytes, cut there): false when
 * there is none or it is not text. */
static bool text_att(int ncid, int var, const char *name, char *text, size_t size)
{
    nc_type type = NC_NAT;
    size_t len = 0;
    if (nc_inq_att(ncid, var, name, &type, &len) != NC_NOERR || type != NC_CHAR || size == 0)
        return false;
    char buf[4096];
    if (len >= sizeof buf || nc_get_att_text(ncid, var, name, buf) != NC_NOERR)
        return false;
    buf[len] = '\0';
    const size_t n = len < size ? len : size - 1;
    memcpy(text, buf, n);
    text[n] = '\0';
    return true;
}

/* A global number attribute that is one finite positive number, else 0.
 * heat2d writes doubles; a copy may hold a float (GDAL writes one where
 * the decimal fits), read as the decimal it was written from. */
static double positive_att(int ncid, const char *name)
{
    nc_type type = NC_NAT;
    size_t len = 0;
    double value = 0.0;
    if (nc_inq_att(ncid, NC_GLOBAL, name, &type, &len) != NC_NOERR || len != 1 || type == NC_CHAR ||
        type < NC_BYTE || type > NC_UINT64)
        return 0.0;
    if (type == NC_FLOAT) {
        float f = 0.0f;
        if (nc_get_att_float(ncid, NC_GLOBAL, name, &f) != NC_NOERR || !isfinite(f))
            return 0.0;
        value = heat2d_float_as_written(f);
    } else if (nc_get_att_double(ncid, NC_GLOBAL, name, &value) != NC_NOERR) {
        return 0.0;
    }
    return isfinite(value) && value > 0.0 ? value : 0.0;
}

int heat2d_nc_facts(netcdf_file *f, heat2d_netcdf_facts *facts, heat2d_error *err)
{
    memset(facts, 0, sizeof *facts);
    char source[64] = "";
    facts->heat2d = text_att(f->ncid, NC_GLOBAL, "source", source, sizeof source) &&
                    strncmp(source, "heat2d ", 7) == 0;
    if (facts->heat2d) {
        /* Its own: the run's physics, and the precision it stored. */
        facts->alpha = positive_att(f->ncid, "alpha");
        facts->dx = positive_att(f->ncid, "dx");
        facts->dt = positive_att(f->ncid, "dt");
        facts->diffusivity = positive_att(f->ncid, "diffusivity");
        nc_type type = NC_NAT;
        nc_inq_vartype(f->ncid, f->var, &type);
        facts->has_precision = type == NC_FLOAT || type == NC_DOUBLE;
        facts->precision = type == NC_FLOAT ? HEAT2D_F32 : HEAT2D_F64;
    }
    int dims[NC_MAX_VAR_DIMS], time_var = -1;
    char name[NC_MAX_NAME + 1];
    if (f->ndims == 3 && nc_inq_vardimid(f->ncid, f->var, dims) == NC_NOERR &&
        nc_inq_dimname(f->ncid, dims[0], name) == NC_NOERR &&
        nc_inq_varid(f->ncid, name, &time_var) == NC_NOERR)
        text_att(f->ncid, time_var, "units", facts->time_units, sizeof facts->time_units);
    return heat2d_nc_grid(f, facts, err);
}
