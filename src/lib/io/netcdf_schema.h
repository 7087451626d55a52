/* What heat2d's field files and series hold in NetCDF, shared by their
 * writers (field_netcdf.c, field_netcdf_series.c) and checked by the reader:
 * dimensions, coordinates, the field variable and the attributes. */
#ifndef HEAT2D_NETCDF_SCHEMA_H
#define HEAT2D_NETCDF_SCHEMA_H

#include "field_netcdf.h"

#define HEAT2D_NC_FIELD "u"
#define HEAT2D_NC_STEP  "step"
#define HEAT2D_NC_TIME  "time"
/* CF's time unit and its reference: a run's clock starts there (no
 * calendar date is meant: the reference is the time origin readers need). */
#define HEAT2D_NC_TIME_UNITS "seconds since 1970-01-01 00:00:00"

/* The ids a definition hands back. */
typedef struct netcdf_ids {
    int ncid;
    int field; /* u(y, x), or u(time, y, x) in a series */
    int step;  /* step(time), NC_INT, a series only */
    int time;  /* time(time) in seconds, a series only */
} netcdf_ids;

/* The time of step `step`: step * dt seconds, 1 s a step without dt, in
 * the units of meta's time (seconds unless a series continued says
 * otherwise). */
double heat2d_nc_time_of(const heat2d_netcdf_meta *meta, size_t step);

/* meta's time units: its own, else HEAT2D_NC_TIME_UNITS. */
const char *heat2d_nc_time_units(const heat2d_netcdf_meta *meta);

/* The NetCDF-C library is not thread-safe: every entry of field_netcdf.h
 * holds this lock (compare reads its files on two threads). */
void heat2d_nc_lock(void);
void heat2d_nc_unlock(void);

/* The create mode: NetCDF-4 where the library has HDF5, else CDF5, else
 * the 64-bit-offset classic format. */
int heat2d_nc_format(void);

/* Defines dimensions, coordinates (written too), the field variable and
 * the attributes in an ncid just created, and leaves define mode. series:
 * with the unlimited time dimension. what: "field file" or "series". */
int heat2d_nc_define(netcdf_ids *ids, const heat2d_netcdf_meta *meta, bool series, const char *path,
                     heat2d_error *err);

/* 0 when the file system holding the open descriptor fd (or, with fd -1,
 * the folder of path) has room for bytes more (and some for the library's
 * own metadata), else ENOSPC; EFBIG when the file would outgrow the
 * process's file-size limit. HDF5 1.10 left with a file it could not flush
 * crashes at exit, or in nc_abort, so a write that cannot fit is refused
 * before the library tries (a compressed write that would fit is refused
 * too). */
int heat2d_nc_room(int fd, const char *path, uint64_t bytes);

/* After a failed NetCDF call status: "cannot write WHAT 'PATH': REASON",
 * REASON the system's error where the call left one that says more than
 * the library's (a full disk is "No space left on device"). Returns -1. */
int heat2d_nc_fail(heat2d_error *err, const char *what, const char *path, int status,
                   int saved_errno);

#endif
