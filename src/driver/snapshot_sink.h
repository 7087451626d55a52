/* heat2d's own snapshot handler: each snapshot checked as the final field
 * is, and with a folder written there as DIR/step_NNNN.dat. */
#ifndef HEAT2D_SNAPSHOT_SINK_H
#define HEAT2D_SNAPSHOT_SINK_H

#include "heat2d.h"

typedef struct heat2d_snapshot_sink {
    const heat2d_config *cfg;
    const char *dir; /* NULL: check only */
    int width;       /* digits of the step in a file name: those of cfg->steps */
    size_t threads;  /* for the check */
    double *widened; /* an f32 snapshot as doubles, for the writer */
    size_t handled;
} heat2d_snapshot_sink;

/* Ready to handle cfg's snapshots; dir (NULL for none) is the folder that
 * heat2d_series_claim (series_folder.h) readied for them. */
int heat2d_snapshot_sink_open(heat2d_snapshot_sink *sink, const heat2d_config *cfg, const char *dir,
                              heat2d_error *err);

/* A heat2d_snapshot_fn: ctx is the sink. */
int heat2d_snapshot_sink_handle(void *ctx, size_t step, const void *field, heat2d_error *err);

void heat2d_snapshot_sink_close(heat2d_snapshot_sink *sink);

#endif /* HEAT2D_SNAPSHOT_SINK_H */
