/* heat2d bench: the run's record besides its trials. */
#ifndef HEAT2D_BENCH_ENVIRONMENT_H
#define HEAT2D_BENCH_ENVIRONMENT_H

#include "bench.h"

/* Appends one block to DIR/environment.txt: the run, `heat2d info`, the GPU
 * and compilers, the load average (also into info->loadavg, which the
 * summary quotes on a busy machine), the bench parameters. Returns -1 when
 * the file cannot be written; a missing tool is recorded, not an error. */
int bench_write_environment(bench_run_info *info, const char *self_exe, heat2d_error *err);

/* A note for each optional part this build left out (`heat2d info`'s
 * LEFT_OUT= lines: the methods it would have held, why, and the fix), so
 * that the summary says which methods were not measured and why. */
void bench_note_left_out(bench_run_info *info, const char *self_exe);

/* Measures the limits every result is a fraction of (`heat2d info
 * --bandwidth`: host copy bandwidth on all cores, and with a GPU the device
 * copy and host<->device bandwidths; here, the write rate of the snapshot
 * writers' folder, heat2d_tmp_base, for files of the plan's largest field)
 * and writes them to DIR/bandwidth.txt, which the summary reads. */
int bench_write_limits(const bench_run_info *info, const char *self_exe, heat2d_error *err);

#endif /* HEAT2D_BENCH_ENVIRONMENT_H */
