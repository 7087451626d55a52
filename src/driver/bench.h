/* heat2d bench: the pieces shared by the benchmark command (cmd_bench.c),
 * its child processes (bench_child.c) and its result files (bench_output.c).
 *
 * Every trial is a separate `heat2d run` process, as in the original, so that
 * each measurement starts from a cold process (and, on a GPU, a fresh device
 * context) and one crashing method cannot take the benchmark down with it. */
#ifndef HEAT2D_BENCH_H
#define HEAT2D_BENCH_H

#include "methods.h"

#include <signal.h>

/* ---- child processes ----------------------------------------------------- */

/* The signal (SIGINT, SIGTERM) that asked the benchmark to stop, 0 if none.
 * Set by cmd_bench's handler; a running child is then ended and its trial
 * is not recorded, so trials.csv keeps only trials that finished. */
extern volatile sig_atomic_t bench_interrupted;

typedef struct bench_capture {
    char *out; /* stdout, NUL-terminated */
    size_t out_len;
    char *err; /* stderr, NUL-terminated */
    size_t err_len;
    int exit_status; /* meaningful when term_signal == 0 */
    int term_signal; /* the signal that killed it, 0 if it exited */
    double wall_s;   /* spawn to reap, monotonic clock: the original's PROCESS_S */
} bench_capture;

/* Runs argv (argv[0] is looked up on PATH when it has no '/') with stdin from
 * /dev/null, stdout and stderr captured. Returns 0 when the program ran,
 * whatever its exit status; -1 with err when it could not be started. */
int bench_spawn(char *const argv[], bench_capture *cap, heat2d_error *err);
/* The same with envp as the child's environment instead of ours. */
int bench_spawn_env(char *const argv[], char *const envp[], bench_capture *cap, heat2d_error *err);
void bench_capture_free(bench_capture *cap);
bool bench_capture_ok(const bench_capture *cap);
/* One line saying why a child failed: its last stderr line, else how it
 * ended. */
void bench_capture_why(const bench_capture *cap, char *buf, size_t size);

/* ---- what one `heat2d run` reported --------------------------------------- */

/* The child's keys that go into trials.csv (besides the ones bench knows
 * itself: method, trial, sizes, process_s). */
typedef enum bench_key {
    BK_TOTAL_S,
    BK_MASS,
    BK_CENTRE,
    BK_ENTER_S,
    BK_GPU_LOOP_S,
    BK_READBACK_S,
    BK_EXIT_S,
    BK_STEP_REGIONS_S,
    BK_CPU_LOOP_S,
    BK_DEVICE,
    BK_H2D_COUNT,
    BK_H2D_BYTES,
    BK_D2H_COUNT,
    BK_D2H_BYTES,
    BK_H2D_S,
    BK_D2H_S,
    BK_CONTEXT_S,
    BK_DEVICE_LOOP_S,
    BK_GCELLS_PER_S,
    BK_TRANSFERS,
    BK_RANKS,
    BK_DECOMP,
    BK_HALO_BYTES_PER_STEP,
    BK_PRECISION,
    BK_COUNT
} bench_key;

extern const char *const bench_key_names[BK_COUNT];

typedef struct bench_result {
    /* Each value as the child printed it, blanks trimmed; "" when absent.
     * Kept as text so that the CSV holds the child's full precision. */
    char value[BK_COUNT][128];
    double total_s;
} bench_result;

/* Reads the KEY=VALUE lines of one run and checks them: CHECK=PASS, a finite
 * non-negative TOTAL_S, every numeric key a number, and NX/NY/STEPS equal to
 * what was asked. */
int bench_parse_run(const char *text, size_t nx, size_t ny, size_t steps, bench_result *res,
                    heat2d_error *err);

/* ---- the plan and the result files ---------------------------------------- */

typedef struct bench_size {
    size_t nx;
    size_t ny;
    size_t steps;
} bench_size;

/* A method as the benchmark runs it: cuda-each twice, pageable and pinned;
 * with --precision f64,f32, each of those twice more. */
typedef struct bench_target {
    const heat2d_method *method;
    bool pinned;
    /* > 0: a distributed method run under mpirun on this many ranks (its
     * label then ends in -pRANKS); 0: one plain `heat2d run` process. */
    size_t ranks;
    /* What the method computes in (--precision); an f32 target's label ends
     * in -f32, which the method column of trials.csv leaves out (the
     * precision column tells it apart). */
    heat2d_precision precision;
    char label[48];
} bench_target;

#define BENCH_MAX_NOTES 16

typedef struct bench_run_info {
    const char *dir;
    char run_id[32]; /* YYYYMMDD-HHMMSS, also the default folder's suffix */
    char date[64];   /* local time with zone */
    char hostname[256];
    const bench_target *targets;
    size_t n_targets;
    const bench_size *sizes;
    size_t n_sizes;
    size_t warmups;
    size_t repeats;
    /* --weak: the grid per rank, NULL without; at P ranks the grid is
     * (nx*P)xNY for STEPS steps, so that cells per rank stay the same. */
    const bench_size *weak;
    /* Lines a reader must see next to the numbers: what was cut, skipped or
     * failed. */
    char notes[BENCH_MAX_NOTES][600];
    size_t n_notes;
} bench_run_info;

void bench_add_note(bench_run_info *info, const char *fmt, ...) HEAT2D_PRINTF(2, 3);

/* "NXxNY:STEPS" for lists and "NXxNY/STEPS" for prose. */
void bench_size_text(const bench_size *s, char sep, char *buf, size_t size);

/* trials.csv: opens DIR/trials.csv for appending, writing the header when the
 * file is new and refusing a file whose header is not ours (including the
 * previous ones without the ranks columns or without the precision column,
 * which the summary still reads). */
FILE *bench_csv_open(const char *dir, heat2d_error *err);
/* One row, flushed at once so that an interrupted benchmark keeps every
 * finished trial. */
int bench_csv_append(FILE *csv, const bench_run_info *info, const char *method, size_t trial,
                     const bench_size *size, const bench_result *res, double process_s,
                     heat2d_error *err);

/* Appends one block to DIR/environment.txt: the run, `heat2d info`, the GPU
 * and compilers, the bench parameters. Returns -1 when the file cannot be
 * written; a missing tool is recorded, not an error. */
int bench_write_environment(const bench_run_info *info, const char *self_exe, heat2d_error *err);

/* Measures the limits every result is a fraction of (`heat2d info
 * --bandwidth`: host copy bandwidth on all cores, and with a GPU the device
 * copy and host<->device bandwidths) and writes them to DIR/bandwidth.txt,
 * which the summary reads. */
int bench_write_limits(const bench_run_info *info, const char *self_exe, heat2d_error *err);

/* Reads every row of DIR/trials.csv (earlier runs into the same folder
 * included), writes DIR/summary.md and, when echo is non-NULL, the same text
 * to echo. */
int bench_write_summary(const bench_run_info *info, FILE *echo, heat2d_error *err);

#endif
