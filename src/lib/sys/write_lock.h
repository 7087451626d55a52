/* One heat2d writer at a time for a file that a run writes from its start
 * to its end (a NetCDF series): a lock file beside it, held by the writer
 * for the whole run (see write_lock.c). */
#ifndef HEAT2D_WRITE_LOCK_H
#define HEAT2D_WRITE_LOCK_H

#include "heat2d_config.h"

#include <limits.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

typedef struct heat2d_write_lock {
    int fd;   /* -1: not held */
    int slot; /* the lock file's cleanup slot (process_guard.h), or -1 */
    char path[PATH_MAX];
} heat2d_write_lock;

/* Takes the lock of final, the file's real name (a link resolved: see
 * heat2d_file_final_name); name is the file as the user named it. 0, or -1
 * with err: "NAME is being written by another heat2d run (pid N)" when one
 * holds it, "cannot write WHAT 'NAME': ..." when the lock file cannot be
 * made. The lock file goes with the lock, on a fatal signal too. */
int heat2d_write_lock_take(heat2d_write_lock *lock, const char *final, const char *name,
                           const char *what, heat2d_error *err);

/* Removes the lock file and lets the lock go; nothing when not held. */
void heat2d_write_lock_drop(heat2d_write_lock *lock);

/* 0 when no heat2d run holds the lock of path (as the user named it), or
 * this process does (a run appending to a series reads it whole first),
 * else -1 with "PATH is being written by another heat2d run (pid N)".
 * Takes nothing: the ranks of one job may all ask at once. */
int heat2d_write_lock_check(const char *path, heat2d_error *err);

#endif
