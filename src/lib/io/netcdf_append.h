/* Appending to a series a run continues (field_netcdf_series.c): the
 * checks that the file open for writing is a complete heat2d series of the
 * run's grid, spacing, alpha and precision that ends at the run's first
 * step, and the attributes the append changes when it ends. */
#ifndef HEAT2D_NETCDF_APPEND_H
#define HEAT2D_NETCDF_APPEND_H

#include "netcdf_schema.h"

/* ncid (open for writing, verified whole by the isolated reader) checked
 * against meta and `from` (the run's first step, the series' last): 0 with
 * ids and *records (the records it holds: the next one's index), or -1
 * with err naming what differs. */
int heat2d_nc_append_check(int ncid, const heat2d_netcdf_meta *meta, size_t from, const char *path,
                           netcdf_ids *ids, size_t *records, heat2d_error *err);

/* The series' steps attribute set to meta->steps, and, in a NetCDF-4 file,
 * a line for this run put before its history: a NetCDF status. */
int heat2d_nc_append_finish(int ncid, const heat2d_netcdf_meta *meta);

#endif
