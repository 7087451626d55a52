/* heat2d run's progress line on a terminal (heat2d_progress.h): the steps
 * done, the rate and the time left, fed by the method's loop through
 * heat2d_config's progress hook. */
#ifndef HEAT2D_RUN_PROGRESS_H
#define HEAT2D_RUN_PROGRESS_H

#include "heat2d.h"

typedef struct heat2d_run_progress {
    heat2d_progress_line line;
    size_t steps;
    double cells; /* nx * ny */
    /* The first report and when it came: the rate is measured from it,
     * past the loop's start-up (a device's first launch, a first step
     * through cold memory). */
    size_t first_done;
    double first_at;
} heat2d_run_progress;

/* The line for cfg's run, and cfg's progress hook set to it where the line
 * is on (standard error a terminal; under mpirun, rank 0's). Returns 0, or
 * -1 with err (heat2d_progress_begin's). */
int heat2d_run_progress_wire(heat2d_run_progress *p, heat2d_config *cfg, heat2d_error *err);

/* The hook: done of the run's steps are done. */
void heat2d_run_progress_update(void *ctx, size_t done);

#endif /* HEAT2D_RUN_PROGRESS_H */
