/* heat2d's own snapshot handler: each snapshot checked as the final field
 * is, and with a folder written there as DIR/step_NNNN.dat, or with a
 * .nc file appended to its series. */
#ifndef HEAT2D_SNAPSHOT_SINK_H
#define HEAT2D_SNAPSHOT_SINK_H

#include "field_netcdf.h"
#include "heat2d.h"

typedef struct heat2d_snapshot_sink {
    const heat2d_config *cfg;
    const char *dir; /* NULL: check only */
    int width;       /* digits of the step in a file name: those of cfg->steps */
    size_t threads;  /* for the check */
    double *widened; /* an f32 snapshot as doubles, for the writer */
    size_t handled;
    heat2d_netcdf_series *series; /* --save-every FILE.nc, or NULL */
    const char *series_path;
    bool scratch; /* the files go to a scratch folder, removed with the run */
    /* The series' first record is the run's initial state, written when
     * the first snapshot comes. */
    bool initial_pending;
} heat2d_snapshot_sink;

/* Ready to handle cfg's snapshots; dir (NULL for none) is the folder that
 * heat2d_series_claim (series_folder.h) readied for them. */
int heat2d_snapshot_sink_open(heat2d_snapshot_sink *sink, const heat2d_config *cfg, const char *dir,
                              heat2d_error *err);

/* The sink's snapshots appended to one NetCDF series at path (after
 * heat2d_snapshot_sink_open with no folder), as steps cfg->first_step +
 * step: a new series, whose first record is the run's initial state (not
 * in a scratch folder's, which measures the snapshots' cost alone), or,
 * with append, the series the run continues from its last record. */
int heat2d_snapshot_sink_open_series(heat2d_snapshot_sink *sink, const char *path,
                                     const heat2d_netcdf_meta *meta, bool append,
                                     heat2d_error *err);

/* A heat2d_snapshot_fn: ctx is the sink. */
int heat2d_snapshot_sink_handle(void *ctx, size_t step, const void *field,
                                const heat2d_field_stats *stats, heat2d_error *err);

void heat2d_snapshot_sink_close(heat2d_snapshot_sink *sink);

/* Closes the sink, a series marked complete when the run was: 0, or -1
 * with err when that mark could not be written. */
int heat2d_snapshot_sink_finish(heat2d_snapshot_sink *sink, bool complete, heat2d_error *err);

#endif /* HEAT2D_SNAPSHOT_SINK_H */
