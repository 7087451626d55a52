/* field_netcdf.h in a build without NetCDF: every .nc path is refused with
 * one line that names the fix. */
#include "field_netcdf.h"

#define FIX                                                                                        \
    "this heat2d was built without NetCDF (install libnetcdf-dev, or run tools/setup.sh, and "     \
    "build again)"

bool heat2d_netcdf_built(void)
{
    return false;
}

int heat2d_netcdf_check_built(const char *option, const char *path, heat2d_error *err)
{
    return heat2d_fail(err, "%s %s: %s", option, path, FIX);
}

bool heat2d_netcdf_is_heat2d(const char *path)
{
    (void)path;
    return false;
}

int heat2d_netcdf_write_field(const char *path, const heat2d_netcdf_meta *meta, const double *field,
                              heat2d_error *err)
{
    (void)meta;
    (void)field;
    return heat2d_fail(err, "cannot write field file '%s': %s", path, FIX);
}

int heat2d_netcdf_series_open(heat2d_netcdf_series **series, const char *path,
                              const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    (void)meta;
    *series = NULL;
    return heat2d_fail(err, "cannot write series '%s': %s", path, FIX);
}

int heat2d_netcdf_series_open_append(heat2d_netcdf_series **series, const char *path,
                                     const heat2d_netcdf_meta *meta, size_t from, heat2d_error *err)
{
    (void)meta;
    (void)from;
    *series = NULL;
    return heat2d_fail(err, "cannot write series '%s': %s", path, FIX);
}

int heat2d_netcdf_series_append(heat2d_netcdf_series *series, size_t step, const void *values,
                                heat2d_error *err)
{
    (void)series;
    (void)step;
    (void)values;
    return heat2d_fail(err, "no NetCDF series: %s", FIX);
}

int heat2d_netcdf_series_close(heat2d_netcdf_series *series, bool complete, heat2d_error *err)
{
    (void)series;
    (void)complete;
    (void)err;
    return 0;
}

int heat2d_netcdf_read(const char *spec, heat2d_field *field, heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    return heat2d_fail(err, "cannot read field file '%s': %s", spec, FIX);
}

int heat2d_netcdf_read_facts(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                             heat2d_error *err)
{
    (void)facts;
    return heat2d_netcdf_read(spec, field, err);
}

int heat2d_netcdf_check(const char *spec, heat2d_error *err)
{
    (void)spec;
    (void)err;
    return 0;
}

int heat2d_netcdf_check_steps(const char *spec,
                              int (*step)(void *ctx, size_t step, heat2d_error *err), void *ctx,
                              heat2d_error *err)
{
    (void)step;
    (void)ctx;
    return heat2d_netcdf_check(spec, err);
}
