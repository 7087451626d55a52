/* A program of the user's that speaks the original's protocol: run as
 * `PATH NX NY STEPS FIELD_FILE`, it prints KEY=VALUE lines (CHECK=PASS, a
 * TOTAL_S, its phases) and writes its final field in the original's text
 * format. The bench times it beside heat2d's methods and the check checks
 * it; both run it, read it and hold its field to cpu's here, alike. */
#ifndef HEAT2D_PROGRAM_H
#define HEAT2D_PROGRAM_H

#include "heat2d_compare.h"
#include "heat2d_error.h"
#include "trial_read.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest NAME: a label in every table. */
#define HEAT2D_PROGRAM_NAME_MAX 40

/* --program NAME=PATH as given: NAME the method column and label, PATH the
 * program's absolute path. */
typedef struct heat2d_program {
    char name[HEAT2D_PROGRAM_NAME_MAX + 1];
    char path[4096];
} heat2d_program;

/* "NAME=PATH" into p: NAME of letters, digits, '.', '_' and '-' (a letter
 * or digit first), at most HEAT2D_PROGRAM_NAME_MAX; PATH an executable
 * regular file (looked up on PATH when it holds no '/'), made absolute.
 * Messages name option ("--program"). 0, or -1 with err. */
int heat2d_program_parse(const char *option, const char *text, heat2d_program *p,
                         heat2d_error *err);

/* --program NAME=PATH (heat2d_program_parse) as list[*n], *n counted up:
 * at most max, each NAME once. 0, or -1 with err. */
int heat2d_program_add(const char *option, const char *text, heat2d_program *list, size_t *n,
                       size_t max, heat2d_error *err);

/* A time limit (--program-timeout): a positive number of seconds. 0, or -1
 * with err. */
int heat2d_parse_timeout(const char *option, const char *text, double *seconds, heat2d_error *err);

/* ATOL,RTOL, both non-negative numbers (--program-tolerance). 0, or -1
 * with err. */
int heat2d_parse_tolerance(const char *option, const char *text, heat2d_tolerance *tol,
                           heat2d_error *err);

/* One run of a program. */
typedef struct heat2d_program_run {
    size_t nx, ny, steps;
    const char *field_path;            /* its fourth argument: where it writes the field */
    char *const *envp;                 /* its environment; NULL: ours */
    double timeout_s;                  /* past it the program is killed; 0: no limit */
    const volatile sig_atomic_t *stop; /* the caller's stop flag (child_process.h) */
} heat2d_program_run;

/* The processes a program's run may hold at once, itself included: a
 * bound on what it starts (a loop of forks), far above what a port under
 * mpirun needs. */
#define HEAT2D_PROGRAM_MAX_PROCESSES 256

/* How a program's run ended, besides its values. */
typedef struct heat2d_program_ended {
    double wall_s; /* start to end */
    /* Processes it started that were still running when it exited, which
     * were then ended (its process group); 0 when none. */
    size_t left_running;
} heat2d_program_ended;

/* Runs p as run says (its stdout bounded: a flood kills it; at most
 * HEAT2D_PROGRAM_MAX_PROCESSES processes at once; its process group ended
 * when it exits), then reads its KEY=VALUE lines into values
 * (heat2d_trial_read, a program's). *ended: how it ended, also on a
 * failure. 0, or -1 with why: how it ended ("timed out after 2 s", "exit
 * status 3, nothing on stderr", "flooded its output: ...") or what its
 * output lacks ("no CHECK=PASS in its output", "TOTAL_S=x is not a finite
 * number"). */
int heat2d_program_start(const heat2d_program *p, const heat2d_program_run *run,
                         heat2d_trial_values *values, heat2d_program_ended *ended,
                         heat2d_error *why);

/* The field the program wrote at path, which must be a regular file
 * (heat2d_field_read_regular: a FIFO or a link there is refused, not
 * waited on), read as any field file (the
 * Fortran originals' numbers too), against reference (nx*ny cells, cpu's)
 * cell by cell within tol: 0, or -1 with why: the file ("its field: ..."),
 * its shape, or "its field differs from cpu's in N of M cells (atol A,
 * rtol R): the worst at i=I j=J (index K, from 0), |diff| D". cmp (may be
 * NULL) holds the comparison when the field was read. */
int heat2d_program_field_check(const char *path, size_t nx, size_t ny, const double *reference,
                               heat2d_tolerance tol, heat2d_comparison *cmp, heat2d_error *why);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_PROGRAM_H */
