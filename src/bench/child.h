/* heat2d bench: running a child process with its output captured, and
 * reading what a `heat2d run` child reported. */
#ifndef HEAT2D_BENCH_CHILD_H
#define HEAT2D_BENCH_CHILD_H

#include "heat2d.h"
#include "trial_schema.h"

#include <signal.h>

/* The signal (SIGINT, SIGTERM) that asked the benchmark to stop, 0 if none.
 * Set by the command's handler; a running child is then ended and its trial
 * is not recorded, so trials.csv keeps only trials that finished. */
extern volatile sig_atomic_t bench_interrupted;
/* The process group of the child running now (its pid), 0 when none: the
 * stop signal's handler ends it at once. */
extern volatile sig_atomic_t bench_child_group;

typedef struct bench_capture {
    char *out; /* stdout, NUL-terminated */
    size_t out_len;
    bool out_cut; /* stdout was past the 1 MiB kept, and its rest dropped */
    char *err;    /* stderr, NUL-terminated: its last 1 MiB */
    size_t err_len;
    int exit_status; /* meaningful when term_signal == 0 */
    int term_signal; /* the signal that killed it, 0 if it exited */
    bool timed_out;  /* it ran past its time limit, and its group was killed */
    double timeout_s;
    double wall_s; /* spawn to reap, monotonic clock: the original's PROCESS_S */
} bench_capture;

/* The program that bench_spawn runs for argv0: argv0 itself when it names
 * a path, else the first executable regular file of that name on PATH (an
 * empty entry the working directory; no PATH: /bin:/usr/bin), into path.
 * Returns 0, or an errno. */
int bench_find_program(const char *argv0, char *path, size_t size);

/* Runs argv (argv[0] is looked up on PATH when it has no '/') with stdin from
 * /dev/null, stdout and stderr captured, in a process group of its own that
 * a stop signal ends (bench_interrupted), and on Linux killed by the kernel
 * should the bench die. Returns 0 when the program ran, whatever its exit
 * status; -1 with err when it could not be started. */
int bench_spawn(char *const argv[], bench_capture *cap, heat2d_error *err);
/* The same with envp as the child's environment instead of ours. */
int bench_spawn_env(char *const argv[], char *const envp[], bench_capture *cap, heat2d_error *err);
/* The same with a time limit: past timeout_s seconds the child's group is
 * killed and cap->timed_out set. */
int bench_spawn_limited(char *const argv[], double timeout_s, bench_capture *cap,
                        heat2d_error *err);
void bench_capture_free(bench_capture *cap);
bool bench_capture_ok(const bench_capture *cap);
/* One line saying why a child failed: its last stderr line, else how it
 * ended. */
void bench_capture_why(const bench_capture *cap, char *buf, size_t size);

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
