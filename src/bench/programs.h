/* heat2d bench: programs of the user's (--program NAME=PATH) as targets in
 * the rotation: each trial the program itself (program.h), its field held
 * cell by cell to cpu's at the same size, its host<->device copies counted
 * by the CUDA driver where a GPU is here (the injection library, loaded
 * through CUDA_INJECTION64_PATH). */
#ifndef HEAT2D_BENCH_PROGRAMS_H
#define HEAT2D_BENCH_PROGRAMS_H

#include "bench.h"
#include "options.h"
#include "trial_read.h"

/* Each program's NAME refused where a method of the build has it, or
 * could read it as its label, or one of the n targets has it as its label
 * (the tables group rows by label). Returns 0, else the exit status,
 * having said why. */
int bench_programs_check(const bench_options *opt, const bench_target *targets, size_t n);
/* The programs' targets appended to targets, which has room for them. */
void bench_programs_add(const bench_options *opt, bench_target *targets, size_t *n);

/* Ready for the programs' trials: a scratch folder for their fields and
 * cpu's, their tolerance and time limit, and whether their copies are
 * traced (a GPU here: gpu_seen, a method ran on one, or nvidia-smi lists
 * one; and the injection library beside this heat2d), which a note says.
 * Nothing when there is no program. 0, or -1 with err. */
int bench_programs_start(const bench_options *opt, bool gpu_seen, bench_run_info *info,
                         heat2d_error *err);
/* The scratch folder gone, cpu's field freed. */
void bench_programs_end(void);

/* One run of program target t at s: its output read, its field checked
 * against cpu's, its copies where traced. Returns 0 with res and the
 * process time, or -1 with why. */
int bench_program_trial(const bench_target *t, const bench_size *s, heat2d_trial_values *res,
                        double *process_s, char *why, size_t why_size);

#endif /* HEAT2D_BENCH_PROGRAMS_H */
