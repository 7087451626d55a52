/* Child processes, one way for every command that starts them (the bench's
 * trials and helpers, the check's programs, the MPI probe): a program run
 * to its end, or a function of this one in a forked copy, with its output
 * captured and bounded, a time limit, and nothing it started left behind.
 *
 * Every child leads a process group of its own, which a stop, a time limit,
 * a flood or too many processes end as a whole, which is ended when the
 * child exits (what it started does not outlive it), and which a fatal
 * signal to this process kills first (heat2d_cleanup_process_group) until
 * the child is reaped; on Linux the kernel sends the child SIGKILL when
 * this process dies, even by SIGKILL. */
#ifndef HEAT2D_CHILD_PROCESS_H
#define HEAT2D_CHILD_PROCESS_H

#include "heat2d_error.h"

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What is kept of each stream: stdout its head (a report then refused as
 * cut short), stderr its tail (the last line says why a child failed). */
#define HEAT2D_CHILD_KEEP ((size_t)1 << 20)

typedef struct heat2d_child_spec {
    /* The program and its arguments; argv[0] is looked up on PATH when it
     * has no '/'. Unused with body. */
    char *const *argv;
    char *const *envp; /* the child's environment; NULL: this process's */
    /* Set: the child is a forked copy of this process that calls
     * body(ctx) and exits with its return value; argv[0] only names it in
     * messages. */
    int (*body)(void *ctx);
    void *ctx;
    double timeout_s; /* past it the group gets SIGKILL; 0: no limit */
    /* Non-zero while the caller is being stopped (its signal handler sets
     * it): the group gets SIGTERM at once, SIGKILL soon after. NULL: never. */
    const volatile sig_atomic_t *stop;
    bool merge_stderr; /* stderr into stdout's pipe, one stream keeping its tail */
    bool flood_stops;  /* stdout past HEAT2D_CHILD_KEEP: the group gets SIGKILL */
    /* More processes than this in the child's group at once (itself
     * included, counted a few times a second): the group gets SIGKILL. 0:
     * no bound. */
    size_t max_processes;
    /* Its output is read until the child exits, not until its pipes close
     * (a process it started may hold them for ever); then its group is
     * ended. After a failure, linger_s more seconds first, for the reason
     * a daemon of its prints late. */
    double linger_s;
    /* Called while the child runs, after each wait on its pipes (a few
     * times a second at least), with the seconds since it started: a
     * progress line. NULL: none. */
    void (*tick)(void *ctx, double elapsed_s);
    void *tick_ctx;
} heat2d_child_spec;

typedef struct heat2d_child_result {
    char *out; /* stdout (with merge_stderr both), NUL-terminated */
    size_t out_len;
    bool out_cut; /* stdout was past what is kept, and its rest dropped */
    bool flooded; /* ... and with flood_stops, the group was killed for it */
    char *err;    /* stderr, NUL-terminated: its tail */
    size_t err_len;
    int exit_status; /* meaningful when term_signal == 0 */
    int term_signal; /* the signal that killed it, 0 if it exited */
    bool timed_out;  /* it ran past its time limit, and its group was killed */
    double timeout_s;
    /* Past max_processes: the processes its group held when counted (its
     * group was killed for it); 0 when never. */
    size_t too_many;
    size_t max_processes;
    /* Processes of its group still running when it exited, which were then
     * ended (SIGKILL); 0 when none. Counted only with max_processes. */
    size_t left_running;
    double wall_s; /* start to end, monotonic clock */
} heat2d_child_result;

/* The process group of the child running now (its pid), 0 when none: a
 * stop signal's handler may end it at once (kill(-group, SIGTERM)). */
extern volatile sig_atomic_t heat2d_child_group;

/* Runs spec's child with stdin from /dev/null and its output captured
 * into res (release with heat2d_child_result_free). Returns 0 when it ran,
 * whatever its exit status; -1 with err ("cannot start NAME: REASON")
 * when it could not be started. */
int heat2d_child_run(const heat2d_child_spec *spec, heat2d_child_result *res, heat2d_error *err);
void heat2d_child_result_free(heat2d_child_result *res);

/* Exit status 0, no signal, no time limit, no flood, not too many
 * processes. */
bool heat2d_child_ok(const heat2d_child_result *res);

/* One line saying why a child failed: a time limit, a flood or too many
 * processes, else its
 * last stderr line (a heat2d child's "heat2d: " dropped) with how it
 * ended, else how it ended. */
void heat2d_child_why(const heat2d_child_result *res, char *buf, size_t size);

/* The processes of a process group that are running (zombies, which
 * have exited, are not counted), from /proc; 0 where there is none. */
size_t heat2d_group_count(pid_t group);

/* The program that a child of argv0 runs: argv0 itself when it names a
 * path, else the first executable regular file of that name on PATH (an
 * empty entry the working directory; no PATH: /bin:/usr/bin), into path.
 * Returns 0, or an errno. */
int heat2d_find_program(const char *argv0, char *path, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CHILD_PROCESS_H */
