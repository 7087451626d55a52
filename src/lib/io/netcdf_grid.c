/* The grid a field's coordinate variables give (netcdf_reader.h). heat2d's
 * grid is a uniform plane of square cells, x and y ascending: a side
 * stored descending (GDAL's netCDF driver writes rasters north-up, y
 * descending, by default) is read reversed; spacing in metres (or km)
 * becomes the run's dx; what heat2d cannot honour (degrees, uneven or
 * unequal spacing, units it does not know) is refused in one line rather
 * than read as something else. */
#include "netcdf_reader.h"

#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far a step between two coordinates may be from their mean spacing,
 * relative to it, and still be one grid: float coordinates of a few
 * thousand cells round that much. */
#define SPACING_TOLERANCE 1e-4

/* A side: its coordinates' units, scale to metres (0: cells, not metres),
 * order and spacing. */
typedef struct grid_side {
    char name[NC_MAX_NAME + 1];
    char units[64], standard_name[64];
    double metres; /* metres a unit: 1 (m), 1000 (km), 0 (cell indices) */
    double spacing;
    bool descending, found;
} grid_side;

static void text_att(int ncid, int var, const char *att, char *text, size_t size)
{
    nc_type type = NC_NAT;
    size_t len = 0;
    char buf[256];
    text[0] = '\0';
    if (nc_inq_att(ncid, var, att, &type, &len) != NC_NOERR || type != NC_CHAR ||
        len >= sizeof buf || nc_get_att_text(ncid, var, att, buf) != NC_NOERR)
        return;
    buf[len] = '\0';
    snprintf(text, size, "%.*s", (int)(size - 1), buf);
}

static bool one_of(const char *text, const char *const *words)
{
    for (; *words != NULL; ++words)
        if (strcmp(text, *words) == 0)
            return true;
    return false;
}

/* The side's units into metres a unit, or the refusal: degrees say the
 * grid is on a sphere, anything else unknown is not guessed. */
static int units_of(const netcdf_file *f, grid_side *g, heat2d_error *err)
{
    static const char *const metres[] = {"m", "meter", "meters", "metre", "metres", NULL};
    static const char *const km[] = {"km",        "kilometer",  "kilometers",
                                     "kilometre", "kilometres", NULL};
    static const char *const cells[] = {"", "1", "count", "cells", NULL};
    static const char *const spherical[] = {"latitude", "longitude", "grid_latitude",
                                            "grid_longitude", NULL};
    if (strncmp(g->units, "degree", 6) == 0 || one_of(g->standard_name, spherical))
        return heat2d_fail(err,
                           "%s: its coordinate '%s' is in degrees (%s \"%s\"): heat2d computes "
                           "on a plane in metres; project the field onto a metre grid first "
                           "(e.g. gdalwarp -t_srs EPSG:32633 -of netCDF %s out.nc, UTM zone 33N)",
                           f->path, g->name, g->units[0] ? "units" : "standard_name",
                           g->units[0] ? g->units : g->standard_name, f->path);
    g->metres = one_of(g->units, metres) ? 1.0 : one_of(g->units, km) ? 1000.0 : 0.0;
    if (g->metres == 0.0 && !one_of(g->units, cells))
        return heat2d_fail(err,
                           "%s: its coordinate '%s' has units \"%s\", which heat2d does not "
                           "read: give it in m (or km), or in cells (units \"1\")",
                           f->path, g->name, g->units);
    return 0;
}

/* The side's coordinates held to a uniform grid: one direction, each step
 * within SPACING_TOLERANCE of the mean; the worst step named when not. */
static int even(const netcdf_file *f, grid_side *g, const double *v, size_t n, heat2d_error *err)
{
    const double mean = (v[n - 1] - v[0]) / (double)(n - 1);
    size_t worst = 0;
    double off = 0.0;
    for (size_t k = 0; k + 1 < n; ++k) {
        const double d = fabs(v[k + 1] - v[k] - mean);
        if (!(d <= off)) {
            off = d;
            worst = k;
        }
    }
    if (!(mean != 0.0) || !isfinite(mean) || !(off <= SPACING_TOLERANCE * fabs(mean)))
        return heat2d_fail(err,
                           "%s: its coordinate '%s' is not evenly spaced: %.9g between %s[%zu] = "
                           "%.9g and %s[%zu] = %.9g, against %.9g on average (heat2d's grid is "
                           "uniform: each step within %g of the mean, relative)",
                           f->path, g->name, v[worst + 1] - v[worst], g->name, worst, v[worst],
                           g->name, worst + 1, v[worst + 1], mean, SPACING_TOLERANCE);
    g->descending = mean < 0.0;
    /* In metres, to 12 digits: 10 from (v[n-1] - v[0]) / (n - 1) is 10,
     * as the user would type it. */
    char text[32];
    snprintf(text, sizeof text, "%.12g", fabs(mean) * g->metres);
    g->spacing = strtod(text, NULL);
    return 0;
}

/* The coordinate variable of dimension dim (n long), if the file has one:
 * a variable of the dimension's name over it alone, of numbers. */
static int side(const netcdf_file *f, int dim, size_t n, grid_side *g, heat2d_error *err)
{
    memset(g, 0, sizeof *g);
    int var = -1, ndims = 0, vdim = -1;
    nc_type type = NC_NAT;
    if (nc_inq_dimname(f->ncid, dim, g->name) != NC_NOERR ||
        nc_inq_varid(f->ncid, g->name, &var) != NC_NOERR ||
        nc_inq_varndims(f->ncid, var, &ndims) != NC_NOERR || ndims != 1 ||
        nc_inq_vardimid(f->ncid, var, &vdim) != NC_NOERR || vdim != dim ||
        nc_inq_vartype(f->ncid, var, &type) != NC_NOERR || type < NC_BYTE || type == NC_CHAR ||
        type > NC_UINT64)
        return 0; /* no coordinate variable: cell indices */
    g->found = true;
    text_att(f->ncid, var, "units", g->units, sizeof g->units);
    text_att(f->ncid, var, "standard_name", g->standard_name, sizeof g->standard_name);
    if (units_of(f, g, err) != 0)
        return -1;
    double *v = malloc(n * sizeof *v);
    if (v == NULL)
        return heat2d_fail(err, "%s: cannot allocate its coordinate '%s'", f->path, g->name);
    const int status = nc_get_var_double(f->ncid, var, v);
    int rc = status == NC_NOERR ? even(f, g, v, n, err)
                                : heat2d_fail(err, "cannot read field file '%s': %s", f->path,
                                              nc_strerror(status));
    free(v);
    return rc;
}

int heat2d_nc_grid(netcdf_file *f, heat2d_netcdf_facts *facts, heat2d_error *err)
{
    grid_side x, y;
    if (side(f, f->dim_x, f->nx, &x, err) != 0 || side(f, f->dim_y, f->ny, &y, err) != 0)
        return -1;
    f->flip_x = x.descending;
    f->flip_y = y.descending;
    facts->flip_x = x.descending;
    facts->flip_y = y.descending;
    if (x.spacing > 0.0 && y.spacing > 0.0 &&
        !(fabs(x.spacing - y.spacing) <= SPACING_TOLERANCE * x.spacing))
        return heat2d_fail(err,
                           "%s: its cells are %.9g m along '%s' and %.9g m along '%s': heat2d's "
                           "cells are square (one dx)",
                           f->path, x.spacing, x.name, y.spacing, y.name);
    facts->spacing = x.spacing > 0.0 ? x.spacing : y.spacing;
    /* heat2d's own dx beside coordinates that another tool rewrote (a
     * regridded or relabelled copy): the file holds two cell sizes, and
     * neither is taken on trust. */
    if (facts->dx > 0.0 && facts->spacing > 0.0 &&
        !(fabs(facts->dx - facts->spacing) <= SPACING_TOLERANCE * facts->spacing))
        return heat2d_fail(err,
                           "%s: its dx attribute is %.9g m but its coordinates are %.9g m apart: "
                           "make them agree first (e.g. ncatted -O -a dx,global,o,d,%.9g %s)",
                           f->path, facts->dx, facts->spacing, facts->spacing, f->path);
    return 0;
}
