/* NetCDF as a field format (field_format.h): a name that ends in .nc
 * (netcdf_spec.c), a file of NetCDF's classic or HDF5 formats, written and
 * read through field_netcdf.h (refusals naming the fix in a build without
 * the library). */
#include "field_format.h"

#include <string.h>

static int netcdf_reads(const char *spec, heat2d_error *err)
{
    heat2d_netcdf_spec parsed;
    return heat2d_netcdf_spec_parse(spec, &parsed, err);
}

static heat2d_holds netcdf_sniff(const char *path, const unsigned char *head, size_t n)
{
    static const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    const bool classic =
        n >= 4 && memcmp(head, "CDF", 3) == 0 && (head[3] == 1 || head[3] == 2 || head[3] == 5);
    if (!classic && (n < sizeof hdf5 || memcmp(head, hdf5, sizeof hdf5) != 0))
        return HEAT2D_HOLDS_OTHER;
    return heat2d_netcdf_is_heat2d(path) ? HEAT2D_HOLDS_OURS : HEAT2D_HOLDS_FOREIGN;
}

static int netcdf_write(const char *path, size_t nx, size_t ny, const double *field,
                        const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    (void)nx;
    (void)ny;
    return heat2d_netcdf_write_field(path, meta, field, err);
}

static int netcdf_series_open(void **series, const char *path, const heat2d_config *cfg,
                              const heat2d_netcdf_meta *meta, bool append, heat2d_error *err)
{
    heat2d_netcdf_series *s = NULL;
    const int rc = append ? heat2d_netcdf_series_open_append(&s, path, meta, cfg->first_step, err)
                          : heat2d_netcdf_series_open(&s, path, meta, err);
    *series = s;
    return rc;
}

static int netcdf_series_append(void *series, size_t step, const void *cells, heat2d_error *err)
{
    return heat2d_netcdf_series_append(series, step, cells, err);
}

static int netcdf_series_close(void *series, bool complete, heat2d_error *err)
{
    return heat2d_netcdf_series_close(series, complete, err);
}

/* A series: one file, a record a snapshot, the initial state first. */
static const heat2d_series_format netcdf_series = {
    .keeps = "records",
    .initial_record = true,
    .open = netcdf_series_open,
    .append = netcdf_series_append,
    .close = netcdf_series_close,
};

const heat2d_field_format heat2d_format_netcdf = {
    .name = "netcdf",
    .holds = "a heat2d NetCDF file",
    .foreign = "NetCDF data that heat2d did not write (or cannot open)",
    .writes = heat2d_netcdf_path,
    .reads = netcdf_reads,
    .sniff = netcdf_sniff,
    .write = netcdf_write,
    .read = heat2d_netcdf_read_facts,
    .series = &netcdf_series,
};
