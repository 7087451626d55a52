/* heat2d bench: its command line. */
#ifndef HEAT2D_BENCH_OPTIONS_H
#define HEAT2D_BENCH_OPTIONS_H

#include "bench.h"

#include <stdio.h>

/* The most --program targets one bench takes. */
#define BENCH_MAX_PROGRAMS 16
/* A program's run may take this long before it is taken for hung: more
 * than the slowest method's run at the article's largest size, with its
 * field written out as text. */
#define BENCH_PROGRAM_TIMEOUT_S 600.0

typedef struct bench_options {
    const char *methods; /* NULL: every method that can run here */
    const char *sizes;   /* NULL: the ladder for this machine */
    const char *out;     /* NULL: results/HOST-RUN */
    size_t warmups;
    size_t repeats;
    double budget_s; /* --budget, 0 with --full */
    bool pinned_too;
    const char *weak; /* NULL: strong scaling only */
    /* --program NAME=PATH, in the order given; their fields' tolerance
     * against cpu's and the time limit of one run. */
    heat2d_program programs[BENCH_MAX_PROGRAMS];
    size_t n_programs;
    heat2d_tolerance program_tol;
    double program_timeout_s;
    /* Each bench list of run_options.h as given, NULL when not. */
    const char *list[HEAT2D_N_OPTIONS];
} bench_options;

/* Seconds of runs one method may take at one size by default: the whole
 * default ladder then runs in minutes on a GPU host, where the serial and
 * pageable per-step methods take about a minute a run at 8192^2. */
#define BENCH_DEFAULT_BUDGET_S 20.0

void bench_usage(FILE *stream);

/* Returns -1 to go on, else the exit status (0 after --help). */
int bench_parse_options(int argc, char **argv, bench_options *o);

#endif /* HEAT2D_BENCH_OPTIONS_H */
