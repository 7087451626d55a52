/* heat2d bench: its children (trials, tools, helpers), started by the
 * library's one way (child_process.h) with the bench's stop flag, and what
 * a trial reported. */
#ifndef HEAT2D_BENCH_CHILD_H
#define HEAT2D_BENCH_CHILD_H

#include "child_process.h"
#include "heat2d.h"
#include "trial_schema.h"

#include <signal.h>

/* The signal (SIGINT, SIGTERM) that asked the benchmark to stop, 0 if none.
 * Set by the command's handler; a running child is then ended and its trial
 * is not recorded, so trials.csv keeps only trials that finished. */
extern volatile sig_atomic_t bench_interrupted;

/* heat2d_child_run of argv (envp: NULL for ours; timeout_s: 0 for none),
 * ended by a stop of the bench. */
int bench_spawn(char *const argv[], char *const envp[], double timeout_s, heat2d_child_result *res,
                heat2d_error *err);

/* One trial's fields (trial_schema.h), each as text as the child printed it
 * or as the bench set it, blanks trimmed; "" when absent. Kept as text so
 * that the CSV holds the child's full precision. */
typedef struct bench_result {
    char value[HEAT2D_N_FIELDS][128];
    double total_s;
} bench_result;

/* Reads the KEY=VALUE lines of one run into res and checks them: CHECK=PASS,
 * a finite non-negative TOTAL_S, every field of the schema well formed for
 * its type, and NX/NY/STEPS equal to what was asked. */
int bench_parse_run(const char *text, size_t nx, size_t ny, size_t steps, bench_result *res,
                    heat2d_error *err);

#endif /* HEAT2D_BENCH_CHILD_H */
