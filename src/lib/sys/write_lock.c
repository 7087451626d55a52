/* One writer at a time for a file a run writes from start to end. The file
 * itself cannot carry the lock: it is written under a temporary name and
 * renamed into place (a lock on the old file would not pass to the new
 * one), and HDF5 takes its own lock on the file it writes, which a second
 * lock of ours on it would trip. So the lock is a file beside it,
 * ".NAME.heat2d-lock", holding the writer's pid: an open file description
 * lock (F_OFD_SETLK), which the kernel drops when the writer dies, even by
 * SIGKILL, and which another process can test without taking it
 * (F_OFD_GETLK). The lock file is removed when the lock goes; a process
 * that took the lock of a name just removed finds its file no longer at
 * that name and tries again. */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include "write_lock.h"
#include "file_replace.h"
#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef F_OFD_SETLK /* not Linux: the process's own locks do as well here */
#define F_OFD_SETLK F_SETLK
#define F_OFD_GETLK F_GETLK
#endif

#ifdef NAME_MAX
#define HEAT2D_NAME_MAX NAME_MAX
#else
#define HEAT2D_NAME_MAX 255
#endif

/* final's lock file: ".NAME.heat2d-lock" in its folder, or, when that name
 * would be too long, one named by a hash of NAME. false when the path does
 * not fit. */
static bool lock_name(const char *final, char *out, size_t size)
{
    static const char suffix[] = ".heat2d-lock";
    const char *slash = strrchr(final, '/');
    const int dir_len = slash != NULL ? (int)(slash - final) + 1 : 0;
    const char *base = final + dir_len;
    int n;
    if (strlen(base) + sizeof suffix <= HEAT2D_NAME_MAX) {
        n = snprintf(out, size, "%.*s.%s%s", dir_len, final, base, suffix);
    } else {
        unsigned long long hash = 14695981039346656037ULL; /* FNV-1a */
        for (const char *c = base; *c != '\0'; ++c)
            hash = (hash ^ (unsigned char)*c) * 1099511628211ULL;
        n = snprintf(out, size, "%.*s.%016llx%s", dir_len, final, hash, suffix);
    }
    return n > 0 && (size_t)n < size;
}

/* The pid a lock file holds; 0 when it holds none yet (its writer has the
 * lock but has not written it: asked again for up to 50 ms). */
static long holder_pid(int fd)
{
    for (int tries = 0; tries < 50; ++tries) {
        char text[32];
        const ssize_t got = pread(fd, text, sizeof text - 1, 0);
        if (got > 0) {
            text[got] = '\0';
            const long pid = strtol(text, NULL, 10);
            if (pid > 0)
                return pid;
        }
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    return 0;
}

/* "NAME is being written by another heat2d run (pid N)ADVICE". */
static int refuse_held(const char *name, int fd, const char *advice, heat2d_error *err)
{
    const long pid = holder_pid(fd);
    if (pid > 0)
        return heat2d_fail(err, "%s is being written by another heat2d run (pid %ld)%s", name, pid,
                           advice);
    return heat2d_fail(err, "%s is being written by another heat2d run%s", name, advice);
}

/* The lock on an open lock file: 1 taken, 0 held by another, -1 failed. */
static int try_lock(int fd)
{
    struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(fd, F_OFD_SETLK, &whole) == 0)
        return 1;
    return errno == EAGAIN || errno == EACCES ? 0 : -1;
}

/* Whether fd is still the file at path (not removed by a writer that let
 * the lock go between our open and our lock). */
static bool still_there(int fd, const char *path)
{
    struct stat open_one, named;
    return fstat(fd, &open_one) == 0 && stat(path, &named) == 0 &&
           open_one.st_dev == named.st_dev && open_one.st_ino == named.st_ino;
}

/* One attempt with the fatal signals held off, so that the lock file is
 * registered for removal as soon as it is ours and never before. 1 taken,
 * 0 to try again, -1 refused or failed (err set). */
static int take_once(heat2d_write_lock *lock, const char *name, const char *what, heat2d_error *err)
{
    heat2d_cleanup_hold();
    int rc = -1;
    const int fd = open(lock->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    const int e = errno;
    const int locked = fd >= 0 ? try_lock(fd) : -1;
    if (fd < 0 || locked < 0) {
        heat2d_fail(err, "cannot write %s '%s': cannot lock it (%s): %s", what, name, lock->path,
                    strerror(fd < 0 ? e : errno));
    } else if (locked == 0) {
        refuse_held(name, fd, "; wait for it or choose another name", err);
    } else if (!still_there(fd, lock->path)) {
        rc = 0;
    } else {
        char pid[24];
        const int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) == n) {
            /* The pid is for the message only: a lock file that cannot hold
             * it still locks. */
        }
        lock->fd = fd;
        lock->slot = heat2d_cleanup_file(lock->path);
        rc = 1;
    }
    if (rc != 1 && fd >= 0)
        close(fd);
    heat2d_cleanup_release();
    return rc;
}

int heat2d_write_lock_take(heat2d_write_lock *lock, const char *final, const char *name,
                           const char *what, heat2d_error *err)
{
    lock->fd = -1;
    lock->slot = -1;
    if (!lock_name(final, lock->path, sizeof lock->path))
        return heat2d_fail(err, "cannot write %s '%s': %s", what, name, strerror(ENAMETOOLONG));
    for (int tries = 0; tries < 100; ++tries) {
        const int taken = take_once(lock, name, what, err);
        if (taken != 0)
            return taken == 1 ? 0 : -1;
    }
    return heat2d_fail(err, "cannot write %s '%s': its lock file %s keeps being replaced", what,
                       name, lock->path);
}

void heat2d_write_lock_drop(heat2d_write_lock *lock)
{
    if (lock->fd < 0)
        return;
    /* Removed while still held: whoever opened it meanwhile sees it gone. */
    unlink(lock->path);
    heat2d_cleanup_forget(lock->slot);
    close(lock->fd);
    lock->fd = -1;
    lock->slot = -1;
}

int heat2d_write_lock_check(const char *path, heat2d_error *err)
{
    char final[PATH_MAX], name[PATH_MAX];
    if (!heat2d_file_final_name(path, final, sizeof final) || !lock_name(final, name, sizeof name))
        return 0; /* the write itself will say */
    const int fd = open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    const bool held = fcntl(fd, F_OFD_GETLK, &whole) == 0 && whole.l_type != F_UNLCK &&
                      holder_pid(fd) != (long)getpid();
    const int rc = held ? refuse_held(path, fd, "", err) : 0;
    close(fd);
    return rc;
}
