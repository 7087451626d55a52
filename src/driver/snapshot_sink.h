/* heat2d's own snapshot handler: each snapshot checked as the final field
 * is, and with --save-every appended to its series, in the format that
 * its name asks for (field_format.h). */
#ifndef HEAT2D_SNAPSHOT_SINK_H
#define HEAT2D_SNAPSHOT_SINK_H

#include "field_format.h"
#include "heat2d.h"

typedef struct heat2d_snapshot_sink {
    const heat2d_config *cfg;
    size_t threads; /* for the check */
    size_t handled;
    /* --save-every's series, through its format (field_format.h): NULL
     * for none (check only), and the series once started. */
    const heat2d_series_format *format;
    const char *series_path;
    void *series;
    bool scratch; /* the files go to a scratch folder, removed with the run */
    /* The series' first record is the run's initial state, written when
     * the first snapshot comes. */
    bool initial_pending;
} heat2d_snapshot_sink;

/* Ready to check cfg's snapshots and, with path (NULL for none), to write
 * them to the series there in the format its name asks for (a folder of
 * step files that heat2d_series_claim, series_folder.h, readied, or a
 * .nc file): 0, or -1 with err when that format writes no series. */
int heat2d_snapshot_sink_open(heat2d_snapshot_sink *sink, const heat2d_config *cfg,
                              const char *path, heat2d_error *err);

/* The series opened (on the process that is handed the snapshots), as
 * steps cfg->first_step + step: a new one, whose first record is the run's
 * initial state where its format begins with it (not in a scratch
 * folder's, which measures the snapshots' cost alone), or, with append,
 * the series the run continues from its last record. */
int heat2d_snapshot_sink_start(heat2d_snapshot_sink *sink, const heat2d_netcdf_meta *meta,
                               bool append, heat2d_error *err);

/* A heat2d_snapshot_fn: ctx is the sink. */
int heat2d_snapshot_sink_handle(void *ctx, size_t step, const void *field,
                                const heat2d_field_stats *stats, heat2d_error *err);

void heat2d_snapshot_sink_close(heat2d_snapshot_sink *sink);

/* Closes the sink, a series marked complete when the run was: 0, or -1
 * with err when that mark could not be written. */
int heat2d_snapshot_sink_finish(heat2d_snapshot_sink *sink, bool complete, heat2d_error *err);

#endif /* HEAT2D_SNAPSHOT_SINK_H */
