/* What every heat2d program does first and last, so that nothing it writes
 * lands where the user did not ask, and nothing temporary outlives it:
 * descriptors 0-2 are never left closed, writes to a closed pipe fail with
 * EPIPE instead of killing the process, and temporary files and folders
 * are removed on any signal that ends the process. */
#ifndef HEAT2D_PROCESS_GUARD_H
#define HEAT2D_PROCESS_GUARD_H

#include "heat2d_error.h"

#include <sys/types.h>

/* Reopens closed descriptors 0, 1 and 2 on /dev/null (before anything else
 * is opened, so no file of heat2d's can take their numbers), ignores
 * SIGPIPE and SIGXFSZ (the writes fail with EPIPE or EFBIG and are
 * reported), sets SIGCHLD to its default (an ignored one, inherited,
 * would reap the children before heat2d learns how they ended), and
 * installs the cleanup handler below. Call it first. */
void heat2d_process_start(void);

/* Flushes stdout. Returns 0, or -1 with a message when stdout was closed
 * when the program started (its output went nowhere) or a write to it
 * failed (a closed pipe, a full disk). */
int heat2d_stdout_status(heat2d_error *err);

/* Paths (and one process group) that a fatal signal removes (kills) before
 * the process dies of it. The handler covers every catchable signal whose
 * default action ends the process and that was not ignored or caught when
 * heat2d_process_start ran. A folder's files are removed with it (one
 * level: heat2d's scratch folders hold no subfolders). Returns a slot for
 * heat2d_cleanup_forget, or -1 when all slots are taken (the path is then
 * simply not guarded). The path is copied. */
int heat2d_cleanup_file(const char *path);
int heat2d_cleanup_folder(const char *path);
void heat2d_cleanup_forget(int slot);

/* mkstemp and mkdtemp with the fatal signals blocked until the name made
 * is registered above (*slot), so that no signal can leave it behind. */
int heat2d_cleanup_mkstemp(char *tmpl, int *slot);
char *heat2d_cleanup_mkdtemp(char *tmpl, int *slot);

/* The fatal signals held off, then let through again: for a file made
 * and registered above in one step that mkstemp does not cover (a lock
 * file, registered once it is held). Not nested. */
void heat2d_cleanup_hold(void);
void heat2d_cleanup_release(void);

/* What a fatal signal's line, "heat2d: interrupted by signal N: TEXT",
 * says was kept (the text is copied; "" for none). */
void heat2d_cleanup_kept(const char *text);
/* No such line at all: a rank of an MPI job, which its launcher ends (and
 * reports) as a whole. */
void heat2d_cleanup_quiet(bool on);

/* Removes a folder's files, then the folder (one level, as above); the
 * fatal-signal handler's own removal, for the normal exit too. */
void heat2d_remove_folder(const char *path);

/* Where heat2d's scratch folders go: TMPDIR when set and not empty, else
 * /tmp. */
const char *heat2d_tmp_base(void);
/* A scratch folder BASE/NAME-PID-XXXXXX (NAME: "heat2d-" and a word, PID
 * this process's), made and registered as heat2d_cleanup_mkdtemp does,
 * marked and locked (heat2d_scratch_claim) while it lives, into path (size
 * bytes); 0,
 * else the errno (ENAMETOOLONG when the name does not fit), path then "".
 * BASE is swept first (heat2d_scratch_sweep), once a process, except
 * under a bench (HEAT2D_BENCH_PID), which sweeps for its trials. */
int heat2d_scratch_make(const char *base, const char *name, char *path, size_t size, int *slot);
/* A scratch folder of heat2d_scratch_make removed with its files and
 * forgotten by the handler; nothing when *slot < 0, and *slot -1 after. */
void heat2d_scratch_drop(const char *path, int *slot);

/* Scratch folders that a process killed by SIGKILL (which no handler
 * sees) left in base, removed: only those that are provably heat2d's own
 * and orphaned. A folder is removed with its files when its name is
 * heat2d-WORD-PID-SUFFIX, it is a folder (not a link) owned by this user,
 * it holds the marker heat2d_scratch_claim wrote (naming the folder, its
 * device and inode), no process PID is alive, and no one holds its lock
 * (the owner's, which the kernel drops when the owner dies, whatever its
 * pid namespace); any doubt keeps it. A folder of the user's is never
 * touched, whatever its name. Once a process (the first base asked); never
 * fails. */
void heat2d_scratch_sweep(const char *base);
/* Claims a scratch folder just made: writes its marker (.heat2d-scratch)
 * and takes its lock (flock on the folder itself, held by a close-on-exec
 * descriptor); the descriptor, or -1 where the file system has no such
 * locks (the folder is then never swept; nor is one whose marker could
 * not be written). */
int heat2d_scratch_claim(const char *path);

/* A process group sent SIGKILL by a fatal signal (a running trial); 0 for
 * none. */
void heat2d_cleanup_process_group(pid_t group);

/* Under a bench (HEAT2D_BENCH_PID names it, above this process): this
 * process gets SIGKILL when its parent dies, so that a trial, its launcher
 * and the launcher's ranks go with a bench killed by SIGKILL. A trial whose
 * bench is already gone exits 1; heat2d_process_start calls it. */
void heat2d_die_with_bench(void);

/* Installs the handler; heat2d_process_start calls it. */
void heat2d_cleanup_install(void);

#endif
