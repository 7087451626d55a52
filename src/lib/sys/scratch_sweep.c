/* Scratch folders left by a heat2d that died of SIGKILL (no handler runs
 * then), found and removed by the next one. A scratch folder is named
 * heat2d-WORD-PID-SUFFIX after the process that made it, holds a marker
 * file written when it was made, and that process holds an flock on the
 * folder while it lives: the kernel drops the lock when the process dies,
 * however it dies, and it is one kernel's lock for every pid namespace
 * that shares the file system. A folder is removed only when all of its
 * evidence agrees: the name, a folder (not a link) of this user's, its
 * marker (which names the folder and its inode: a folder of the user's
 * that happens to have such a name has none, and a copy of a scratch
 * folder carries another inode's), no live process PID here, and its lock
 * free. */
#define _GNU_SOURCE /* O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC */

#include "process_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The marker's name in a scratch folder. */
#define MARKER ".heat2d-scratch"

/* The marker's one line for the folder open as fd and named name: the
 * name (with mkdtemp's random letters) and the folder's device and inode.
 * Its length, or -1. */
static int marker_text(int fd, const char *name, char *text, size_t size)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    const int n = snprintf(text, size, "heat2d scratch folder %s %ju:%ju\n", name,
                           (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
    return n > 0 && (size_t)n < size ? n : -1;
}

int heat2d_scratch_claim(const char *path)
{
    const int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    const char *slash = strrchr(path, '/');
    char text[PATH_MAX + 64];
    const int len = marker_text(fd, slash != NULL ? slash + 1 : path, text, sizeof text);
    const int marker =
        len > 0 ? openat(fd, MARKER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)
                : -1;
    bool written = marker >= 0 && write(marker, text, (size_t)len) == len;
    if (marker >= 0)
        written = close(marker) == 0 && written;
    /* Unmarked (a full disk), it is never swept: only removed at the end. */
    if (!written)
        unlinkat(fd, MARKER, 0);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether the folder open as fd, named name, holds the marker that
 * heat2d_scratch_claim wrote in it: a regular file of this user's, its
 * line naming this folder. */
static bool marked(int fd, const char *name)
{
    char want[PATH_MAX + 64], got[PATH_MAX + 64];
    const int len = marker_text(fd, name, want, sizeof want);
    const int marker = openat(fd, MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (marker < 0)
        return false;
    struct stat st;
    ssize_t n = -1;
    if (fstat(marker, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
        n = read(marker, got, sizeof got);
    close(marker);
    return len > 0 && n == len && memcmp(got, want, (size_t)len) == 0;
}

/* The PID of a name heat2d-WORD-PID-SUFFIX (WORD lower-case letters and
 * dashes, SUFFIX 6 to 16 of mkdtemp's letters, digits and '_'), else 0. */
static pid_t scratch_owner(const char *name)
{
    static const char prefix[] = "heat2d-";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0)
        return 0;
    const char *suffix = strrchr(name, '-');
    const size_t suffix_len = strlen(suffix + 1);
    if (suffix_len < 6 || suffix_len > 16 ||
        strspn(suffix + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                           "abcdefghijklmnopqrstuvwxyz0123456789_") != suffix_len)
        return 0;
    const char *digits = suffix;
    while (digits > name && digits[-1] >= '0' && digits[-1] <= '9')
        --digits;
    const size_t n_digits = (size_t)(suffix - digits);
    const char *word = name + sizeof prefix - 1;
    if (n_digits == 0 || n_digits > 9 || digits[0] == '0' || digits - 1 <= word ||
        digits[-1] != '-' ||
        strspn(word, "abcdefghijklmnopqrstuvwxyz-") < (size_t)(digits - 1 - word))
        return 0;
    return (pid_t)strtol(digits, NULL, 10);
}

/* Whether a process of that id lives here (EPERM: it does, another
 * user's). */
static bool alive(pid_t pid)
{
    return kill(pid, 0) == 0 || errno != ESRCH;
}

/* One entry of base (open as dir_fd), removed when it is an orphaned
 * scratch folder of this user's. */
static void sweep_one(int dir_fd, const char *name)
{
    const pid_t pid = scratch_owner(name);
    struct stat seen;
    if (pid <= 0 || pid == getpid() || alive(pid) ||
        fstatat(dir_fd, name, &seen, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(seen.st_mode) ||
        seen.st_uid != geteuid())
        return;
    const int fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    /* The folder looked at above, heat2d's own, and nobody's: its owner is
     * gone. */
    if (fstat(fd, &st) == 0 && st.st_dev == seen.st_dev && st.st_ino == seen.st_ino &&
        marked(fd, name) && flock(fd, LOCK_EX | LOCK_NB) == 0) {
        const int list_fd = dup(fd);
        DIR *d = list_fd >= 0 ? fdopendir(list_fd) : NULL;
        if (d == NULL && list_fd >= 0)
            close(list_fd);
        for (struct dirent *e = d != NULL ? readdir(d) : NULL; e != NULL; e = readdir(d))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlinkat(fd, e->d_name, 0); /* a subfolder (none of heat2d's) stays */
        if (d != NULL)
            closedir(d);
        unlinkat(dir_fd, name, AT_REMOVEDIR);
    }
    close(fd);
}

void heat2d_scratch_sweep(const char *base)
{
    static bool swept;
    if (swept)
        return;
    swept = true;
    DIR *d = opendir(base);
    if (d == NULL)
        return;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
        if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)
            sweep_one(dirfd(d), e->d_name);
    closedir(d);
}
