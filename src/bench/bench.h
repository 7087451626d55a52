/* heat2d bench, the original's benchmark for every method this build and
 * machine can run, as a library that the heat2d program and the unit tests
 * link: the plan it runs (sizes, targets, notes) and the command itself.
 *
 * Every trial is a separate `heat2d run` process, as in the original, so that
 * each measurement starts from a cold process (and, on a GPU, a fresh device
 * context) and one crashing method cannot take the benchmark down with it. */
#ifndef HEAT2D_BENCH_H
#define HEAT2D_BENCH_H

#include "methods.h"
#include "program.h"

typedef struct bench_size {
    size_t nx;
    size_t ny;
    size_t steps;
} bench_size;

/* What a target runs: one of the build's methods, each trial a `heat2d
 * run`, or a program of the user's that speaks the original's protocol
 * (program.h), each trial the program itself, its field held to cpu's. */
typedef enum bench_target_kind { BENCH_METHOD, BENCH_PROGRAM } bench_target_kind;

/* A target as the benchmark runs it. A method with a value for each run
 * option (run_options.h): cuda-each twice, pageable and pinned; with
 * --precision f64,f32, each of those twice more;
 * value[HEAT2D_OPTION_RANKS] > 0: a distributed method run under mpirun
 * on that many ranks. A program takes no run option: its values stay
 * plain. */
typedef struct bench_target {
    bench_target_kind kind;
    const heat2d_method *method;   /* BENCH_METHOD's, else NULL */
    const heat2d_program *program; /* BENCH_PROGRAM's, else NULL */
    heat2d_option_values value;
    char label[64]; /* heat2d_method_label, or the program's NAME */
    /* A GPU method that this build or machine runs on the host (OpenACC
     * built for the host): the sizes the default ladder adds for a GPU are
     * not its (see bench_run_info's gpu_sizes_from). */
    bool host_stand_in;
} bench_target;

/* t->label from what t is. */
void bench_target_label(bench_target *t);
/* A method (of the build) that runs on several ranks; false for a program. */
bool bench_target_distributed(const bench_target *t);

#define BENCH_MAX_NOTES 32

/* A size during which other work kept cores busy (load.h). */
typedef struct bench_busy {
    bench_size size;
    double other_cores; /* on average over the size */
    unsigned cores;     /* the cores the bench could use */
} bench_busy;
#define BENCH_MAX_BUSY 16

typedef struct bench_run_info {
    const char *dir;
    /* YYYYMMDD-HHMMSS-PID-XXXX (XXXX: hex of the nanoseconds), unique to
     * one bench; also the default folder's suffix. */
    char run_id[64];
    char date[64]; /* local time with zone */
    char hostname[256];
    const bench_target *targets;
    size_t n_targets;
    const bench_size *sizes;
    size_t n_sizes;
    /* With a GPU and no --sizes: the index of the first size the ladder
     * adds for the GPU (BENCH_GPU_LADDER past BENCH_FULL_LADDER), where a
     * host stand-in would take minutes a run and answer nothing; SIZE_MAX
     * when there is none. */
    size_t gpu_sizes_from;
    size_t warmups;
    size_t repeats;
    /* Seconds of runs one target may take at one size, 0 for no limit: a
     * target whose runs there take longer gets fewer trials (at least one)
     * and no warm-up, and a note says so. */
    double budget_s;
    /* --weak: the grid per rank, NULL without; at P ranks the grid is
     * (nx*P)xNY for STEPS steps, so that cells per rank stay the same. */
    const bench_size *weak;
    /* --program's: each field held to cpu's within program_tol, each run
     * killed past program_timeout_s. */
    heat2d_tolerance program_tol;
    double program_timeout_s;
    /* Lines a reader must see next to the numbers: what was cut, skipped or
     * failed. */
    char notes[BENCH_MAX_NOTES][600];
    size_t n_notes;
    /* Notes that found no place (bench_add_note): said in the summary. */
    size_t n_notes_dropped;
    /* The sizes that ran on a busy machine (bench_load_judge), and the
     * load average when the bench started (environment.txt's LOADAVG),
     * negative when unknown. */
    bench_busy busy[BENCH_MAX_BUSY];
    size_t n_busy;
    double loadavg;
} bench_run_info;

/* A note for the reader; past BENCH_MAX_NOTES a failure still takes a
 * place and the rest are counted (n_notes_dropped). */
void bench_add_note(bench_run_info *info, const char *fmt, ...) HEAT2D_PRINTF(2, 3);
/* Whether a note says that something failed ("FAILED: ..."). */
bool bench_note_is_failure(const char *note);

/* "NXxNY:STEPS" for lists and "NXxNY/STEPS" for prose. */
void bench_size_text(const bench_size *s, char sep, char *buf, size_t size);

/* `heat2d bench ARGS`: argv[0] is "bench". Returns the exit status. */
int bench_command(int argc, char **argv);

#endif /* HEAT2D_BENCH_H */
