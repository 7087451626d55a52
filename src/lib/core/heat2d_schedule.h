/* When snapshots fall (every cfg->output_every steps and after the last),
 * written once, and the loop that runs a method's steps between them: a
 * method supplies how it advances its field and how it copies a snapshot
 * to the host, and nothing else of the schedule. */
#ifndef HEAT2D_SCHEDULE_H
#define HEAT2D_SCHEDULE_H

#include "heat2d_config.h"
#include "heat2d_error.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The end of the segment of steps that starts after `done` of `steps`:
 * the first snapshot step after done (the next multiple of every, or the
 * last step where that comes first); with every 0 (no snapshots), steps. */
size_t heat2d_next_snapshot(size_t done, size_t steps, size_t every);

/* Whether the field after `done` of `steps` steps is a snapshot: done a
 * multiple of every, or the last step; never with every 0. */
bool heat2d_is_snapshot_step(size_t done, size_t steps, size_t every);

/* How many snapshots a run of `steps` steps takes: one per multiple of
 * every and one after the last step, which may be both. */
size_t heat2d_snapshot_count(size_t steps, size_t every);

/* A method's two parts of heat2d_run_segments, on its own state: advance
 * moves the field count (>= 1) steps on; copy brings the field after
 * `done` steps to the host and hands it over (heat2d_hand_snapshot). Each
 * returns 0 to go on, or non-zero to stop the run: -1 with err for a
 * failure, or a value of the method's own (a field that went non-finite). */
typedef int (*heat2d_advance_fn)(void *method, size_t count, heat2d_error *err);
typedef int (*heat2d_copy_fn)(void *method, size_t done, heat2d_error *err);

/* cfg->steps steps as segments that end at the snapshot steps: advance
 * over each segment, copy at the end of each but the last. The snapshot
 * after the last step is the method's, after this returns (for most, the
 * read-back of the final field); a run without snapshots is one segment.
 * With cfg->progress, it is called after each copy, and with
 * cfg->progress_pieces each segment is advanced in pieces, the progress
 * called after each (heat2d_config.h).
 * Returns 0, or the first non-zero value of advance or copy. */
int heat2d_run_segments(const heat2d_config *cfg, heat2d_advance_fn advance, heat2d_copy_fn copy,
                        void *method, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_SCHEDULE_H */
