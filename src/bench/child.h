/* heat2d bench: its children (trials, tools, helpers), started by the
 * library's one way (child_process.h) with the bench's stop flag; what a
 * trial reported is read by trial_read.h. */
#ifndef HEAT2D_BENCH_CHILD_H
#define HEAT2D_BENCH_CHILD_H

#include "child_process.h"
#include "heat2d.h"
#include "trial_read.h"

#include <signal.h>

/* The signal (SIGINT, SIGTERM) that asked the benchmark to stop, 0 if none.
 * Set by the command's handler; a running child is then ended and its trial
 * is not recorded, so trials.csv keeps only trials that finished. */
extern volatile sig_atomic_t bench_interrupted;

/* heat2d_child_run of argv (envp: NULL for ours; timeout_s: 0 for none),
 * ended by a stop of the bench. */
int bench_spawn(char *const argv[], char *const envp[], double timeout_s, heat2d_child_result *res,
                heat2d_error *err);

/* The children bench_spawn starts from now on get tick (and its ctx) as
 * their heat2d_child_spec's: a trial's progress line. NULL: none. */
void bench_watch_children(void (*tick)(void *ctx, double elapsed_s), void *ctx);

#endif /* HEAT2D_BENCH_CHILD_H */
