/* heat2d run's NetCDF files: what they record of the run, and the checks
 * made before it of a .nc --save or --save-every. */
#ifndef HEAT2D_RUN_NETCDF_H
#define HEAT2D_RUN_NETCDF_H

#include "field_netcdf.h"
#include "heat2d.h"

/* The command line as a shell would read it back, for history: argv[0..argc)
 * after "heat2d", each word quoted when it needs it; cut short (with
 * "...") when longer than size. */
void heat2d_run_command_line(int argc, char **argv, char *line, size_t size);

/* The meta of a run of method on cfg; the deflate level from
 * HEAT2D_NETCDF_DEFLATE (0-9) when set. 0, or -1 with err (exit 2). */
int heat2d_run_netcdf_meta(heat2d_netcdf_meta *meta, const heat2d_config *cfg, const char *method,
                           const char *command_line, heat2d_error *err);

/* Before the run: a .nc save_path or save_every needs a build with NetCDF,
 * no other run writing it (write_lock.h), a .nc save_every a file it may
 * replace, and the two may not be one file; what is already at either
 * name is judged by heat2d_file_check_kind (force: replaced whatever it
 * holds). 0, -1 with err (exit 1), or -2 with err (exit 2: the command
 * line is at odds with itself). */
int heat2d_run_netcdf_check(const char *save_path, const char *save_every, bool force,
                            heat2d_error *err);

/* Before --initial is read: *first_step is the step of a record
 * FILE.nc:STEP (the run continues its clock), else 0. With append
 * (--append) initial_path must be a record of a series and save_every that
 * series, however spelt; without it they may not be one file. -2 with err
 * (exit 2) for either; -1 (exit 1) when another run writes the series;
 * else 0. */
int heat2d_run_initial_check(const char *initial_path, const char *save_every, bool append,
                             size_t *first_step, heat2d_error *err);

#endif
