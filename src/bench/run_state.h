/* heat2d bench: the state of a running benchmark, which the trial loop,
 * the progress line and the plots share. */
#ifndef HEAT2D_BENCH_RUN_STATE_H
#define HEAT2D_BENCH_RUN_STATE_H

#include "bench.h"
#include "child.h"
#include "plot_helper.h"

#include <stdio.h>

/* Every child runs this very binary, whatever PATH or the working directory
 * say, so that a benchmark never mixes builds. */
#define BENCH_SELF_EXE "/proc/self/exe"

/* What the runs so far say about each target, for the time-left estimate. */
typedef struct target_stats {
    size_t size_index; /* of the sums below */
    double size_sum;   /* process seconds at that size */
    size_t size_runs;
    double last_total; /* TOTAL_S of its latest run, and that run's work */
    double last_work;
    double overhead_sum; /* process start and exit: PROCESS_S - TOTAL_S */
    size_t runs;
} target_stats;

/* Where a target stands at the size being run. */
typedef struct target_at_size {
    bool dropped;   /* it failed: no more runs at this size */
    bool cut;       /* its trials stopped at the time budget */
    bool no_warmup; /* its warm-ups skipped: one run costs too much */
    size_t done;    /* runs, warm-ups and trials */
    size_t trials;  /* recorded trials */
    double spent;   /* process seconds of its runs */
} target_at_size;

typedef struct bench_state {
    bench_run_info *info;
    FILE *csv;
    heat2d_progress_line line; /* on a terminal: the trial under way, the time left */
    /* The run under way (bench_progress_show), for its line's redraws. */
    size_t running_target;
    const bench_size *running_size;
    const char *running_what;
    double running_predicted; /* its predicted process seconds; < 0: unknown */
    target_at_size *at;       /* per target, for the current size */
    target_stats *stats;      /* per target */
    size_t size_index;        /* info->n_sizes for the --weak grids */
    size_t runs_done;
    size_t runs_total;
    size_t failures;
    size_t rows;             /* trials written to trials.csv by this run */
    heat2d_error ledger_err; /* why trials.csv took no more rows, when it did not */
    double started;
} bench_state;

/* ---- progress.c: the line a terminal sees, and the estimate of time left */

/* The line at the start of a run of target t at s (what: "warm-up",
 * "trial 2/5"), redrawn by bench_progress_tick while it runs. */
void bench_progress_show(bench_state *st, size_t t, const bench_size *s, const char *what);
/* heat2d_child_spec's tick for the run shown: from HEAT2D_PROGRESS_AFTER_S
 * into it, the line says how long it has run, against its prediction. */
void bench_progress_tick(void *st, double elapsed_s);
void bench_progress_clear(bench_state *st);
/* What one finished run says about its target's cost. */
void bench_progress_record(bench_state *st, size_t t, const bench_size *s,
                           const heat2d_trial_values *res, double process_s);
/* Predicted process time of one run of target t at s, the size_index-th
 * size (info->n_sizes: a --weak grid); negative when nothing is known. */
double bench_progress_predict(const bench_state *st, size_t t, const bench_size *s,
                              size_t size_index);
/* A line that stays, "heat2d: bench: ...": a failure or the start of a size. */
void bench_say(bench_state *st, const char *fmt, ...) HEAT2D_PRINTF(2, 3);

/* ---- trials.c: the trials themselves */

/* Where a distributed target runs from: mpirun's path, this binary's real
 * path (under mpirun, /proc/self/exe would name the launcher's daemon, not
 * heat2d) and the environment for mpirun's children. */
void bench_set_launcher(const char *mpirun, const char *self, char **env);

/* One run of t at s: `heat2d run` for a method, the program itself for a
 * program (programs.h). Returns 0 with res and the process time, or -1
 * with why (a TOTAL_S below the clock's resolution too: no table can
 * divide by it). */
int bench_run_child(const bench_target *t, const bench_size *s, heat2d_trial_values *res,
                    double *process_s, char *why, size_t why_size);

/* Every target at s: the warm-ups, then the trials with the order of
 * methods rotated each trial. -1 only when trials.csv cannot be written. */
int bench_trials_size(bench_state *st, const bench_size *s);
/* How many of info's targets are host stand-ins that sit out the
 * size_index-th size (one the default ladder adds for the GPU), their
 * labels comma-separated into list. */
size_t bench_host_stand_ins_at(const bench_run_info *info, size_t size_index, char *list,
                               size_t size);
/* The note on what the time budget took at s from the targets (at, one
 * a target): the trials of those it cut, the warm-up of those that ran
 * every trial without it; "" when it took nothing. */
void bench_budget_note(const bench_run_info *info, const target_at_size *at, const bench_size *s,
                       char *note, size_t size);
/* --weak: each rank count at its own grid, after the sizes. */
int bench_trials_weak(bench_state *st);
/* How many targets --weak runs at a grid of their own. */
size_t bench_weak_runs(const bench_run_info *info);

/* ---- plots.c: the final field and the pictures */

/* The run field.png shows (summary.md says which). */
#define BENCH_FIELD_SIDE  256
#define BENCH_FIELD_STEPS 400

/* cpu's final field of 256x256 after 400 steps, which field.png shows,
 * into a scratch folder of the bench's own (path: the file). */
int bench_save_field(bench_state *st, char *path, size_t size);
/* Removes that scratch folder and the field in it. */
void bench_drop_field(void);
/* Runs the plotting script over the folder; *plot_out receives its PLOT=
 * lines. Without matplotlib or the script, a note says how to get them;
 * a probe or script past its time limit is killed and the plots skipped. */
void bench_make_plots(bench_state *st, bool have_field, const char *field_path, char **plot_out);

#endif /* HEAT2D_BENCH_RUN_STATE_H */
