/* The record file of a program's copies (transfer_record.h): appended by
 * every process of the program, read back by the bench. Lines:
 *   HEAT2D_TRANSFER_LOADED=PID      the marker, at load
 *   HEAT2D_TRANSFER_NO_CUDA=PID     or
 *   HEAT2D_TRANSFER_UNTRACED=PID    or
 *   HEAT2D_TRANSFER_COPIES=PID, the tally's lines, HEAT2D_TRANSFER_END=PID
 * A process writes its marker before its record, so no record may come
 * before as many markers as there are records. */
#define _GNU_SOURCE
#include "transfer_record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char kLoaded[] = "HEAT2D_TRANSFER_LOADED=";
static const char *const kEnds[3] = {
    "HEAT2D_TRANSFER_NO_CUDA=", "HEAT2D_TRANSFER_UNTRACED=", "HEAT2D_TRANSFER_COPIES="};
static const char kEnd[] = "HEAT2D_TRANSFER_END=";

int heat2d_transfer_array_bytes(const char *text, uint64_t *bytes, char *why, size_t size)
{
    uint64_t v = 0;
    bool ok = text != NULL && text[0] != '\0' && strlen(text) <= 20;
    for (const char *c = text; ok && *c != '\0'; ++c) {
        const uint64_t digit = (uint64_t)(*c - '0');
        ok = *c >= '0' && *c <= '9' && v <= (UINT64_MAX - digit) / 10;
        v = v * 10 + digit;
    }
    if (!ok || v == 0) {
        snprintf(why, size, "'%.40s%s' is not a positive whole number of bytes", text ? text : "",
                 text != NULL && strlen(text) > 40 ? "..." : "");
        return -1;
    }
    *bytes = v;
    return 0;
}

static const char *kind_of(mode_t mode)
{
    return S_ISLNK(mode)    ? "a symbolic link"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a plain file";
}

/* Whether the file under fd (locked) is empty or begins with a marker. */
static bool ours(int fd, off_t bytes)
{
    char head[sizeof kLoaded - 1];
    return bytes == 0 || (pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
                          memcmp(head, kLoaded, sizeof head) == 0);
}

int heat2d_transfer_record_open(const char *path, char *why, size_t size)
{
    const size_t len = path != NULL ? strlen(path) : 0;
    if (len == 0 || len >= PATH_MAX) {
        snprintf(why, size, "the name is %zu bytes, %s", len,
                 len == 0 ? "empty" : "longer than a path may be (PATH_MAX)");
        return -1;
    }
    /* Looked at first, so that a device is never opened; the open then
     * follows no link and waits on no FIFO should the name change. */
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(why, size, "'%s' is not a regular file (%s)", path, kind_of(st.st_mode));
        return -1;
    }
    const int fd = open(
        path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(why, size, "cannot open '%s': %s", path,
                 errno == ELOOP ? "it is a symbolic link" : strerror(errno));
        return -1;
    }
    const char *bad = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        bad = "it is not a regular file";
    else if (flock(fd, LOCK_SH) != 0 || !ours(fd, st.st_size))
        bad = "it holds something other than heat2d's transfer records";
    flock(fd, LOCK_UN);
    if (bad != NULL) {
        snprintf(why, size, "'%s': %s", path, bad);
        close(fd);
        return -1;
    }
    return fd;
}

/* text appended whole under the exclusive lock. */
static int append(int fd, const char *text, size_t len, char *why, size_t size)
{
    int rc = flock(fd, LOCK_EX);
    struct stat st;
    if (rc == 0 && (fstat(fd, &st) != 0 || !ours(fd, st.st_size))) {
        errno = EPROTO; /* another writer's content since the open */
        rc = -1;
    }
    for (size_t done = 0; rc == 0 && done < len;) {
        const ssize_t n = write(fd, text + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            rc = -1;
        } else {
            done += (size_t)n;
        }
    }
    const int saved = errno;
    flock(fd, LOCK_UN);
    if (rc != 0)
        snprintf(why, size, "%s",
                 saved == EPROTO ? "it now holds something other than heat2d's "
                                   "transfer records"
                                 : strerror(saved));
    return rc;
}

int heat2d_transfer_record_loaded(int fd, pid_t pid, char *why, size_t size)
{
    char line[64];
    const int len = snprintf(line, sizeof line, "%s%ld\n", kLoaded, (long)pid);
    return append(fd, line, (size_t)len, why, size);
}

int heat2d_transfer_record_end(int fd, pid_t pid, heat2d_transfer_end end,
                               const heat2d_copy_tally *tally, char *why, size_t size)
{
    char text[1024];
    int len = snprintf(text, sizeof text, "%s%ld\n", kEnds[end], (long)pid);
    if (end == HEAT2D_TRANSFER_COPIES) {
        len += (int)heat2d_copy_tally_format(tally, text + len, sizeof text - (size_t)len);
        if ((size_t)len < sizeof text)
            len += snprintf(text + len, sizeof text - (size_t)len, "%s%ld\n", kEnd, (long)pid);
    }
    if (len <= 0 || (size_t)len >= sizeof text) {
        snprintf(why, size, "its record does not fit in %zu bytes", sizeof text);
        return -1;
    }
    return append(fd, text, (size_t)len, why, size);
}
