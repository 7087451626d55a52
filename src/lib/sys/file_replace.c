/* Writing a file the user named, without destroying what is not ours.
 *   - A stream (a device, a FIFO, a socket, or a descriptor named as
 *     /dev/stdout, /dev/fd/N, /proc/self/fd/N) is written in place.
 *     Through a named descriptor the write goes to that very descriptor
 *     (a duplicate shares its offset and O_APPEND): opening the name anew
 *     would start at offset 0 and overwrite a redirected log.
 *   - A regular file is written to a temporary name in its directory and
 *     renamed over the target, so that no reader and no interruption ever
 *     sees half a file; an existing one only if the user could write it,
 *     and the new one keeps its mode (and, where allowed, its owner).
 *   - A symbolic link: the file it names is replaced, not the link. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* realpath */

#include "file_replace.h"
#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef NAME_MAX
#define HEAT2D_NAME_MAX NAME_MAX
#else
#define HEAT2D_NAME_MAX 255 /* POSIX leaves NAME_MAX undefined where it varies */
#endif

int heat2d_file_named_descriptor(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    static const char *const prefixes[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; ++k) {
        size_t len = strlen(prefixes[k]);
        if (strncmp(path, prefixes[k], len) != 0)
            continue;
        const char *digits = path + len;
        if (*digits < '0' || *digits > '9')
            return -1;
        char *end;
        long fd = strtol(digits, &end, 10);
        return *end == '\0' && fd <= INT_MAX ? (int)fd : -1;
    }
    return -1;
}

typedef enum { TARGET_STREAM, TARGET_DESCRIPTOR, TARGET_FILE } target_kind;

typedef struct {
    target_kind kind;
    int fd;         /* TARGET_DESCRIPTOR */
    bool exists;    /* TARGET_FILE */
    struct stat st; /* of the existing file */
    char *resolved; /* a link's target, or NULL */
} target;

/* Classifies path; 0, or -1 with err set (a folder, a read-only file, a
 * closed descriptor, a folder that cannot take the temporary file). */
static int classify(const char *path, const char *what, target *t, heat2d_error *err)
{
    *t = (target){.kind = TARGET_FILE, .fd = -1};
    t->fd = heat2d_file_named_descriptor(path);
    if (t->fd >= 0) {
        if (fcntl(t->fd, F_GETFD) == -1)
            return heat2d_fail(err, "cannot write %s '%s': %s", what, path, strerror(errno));
        t->kind = TARGET_DESCRIPTOR;
        return 0;
    }
    if (stat(path, &t->st) == 0) {
        if (S_ISDIR(t->st.st_mode))
            return heat2d_fail(err, "cannot write %s '%s': %s", what, path, strerror(EISDIR));
        if (!S_ISREG(t->st.st_mode)) {
            if (access(path, W_OK) != 0)
                return heat2d_fail(err, "cannot write %s '%s': %s", what, path, strerror(errno));
            t->kind = TARGET_STREAM;
            return 0;
        }
        /* Root passes access(); the mode says what the user meant. */
        if (access(path, W_OK) != 0 || (t->st.st_mode & 0222) == 0)
            return heat2d_fail(err, "cannot write %s '%s': it is read-only (mode %03o)", what, path,
                               (unsigned)(t->st.st_mode & 0777));
        t->exists = true;
    }
    struct stat link;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode))
        t->resolved = realpath(path, NULL);
    const char *name = t->resolved ? t->resolved : path;
    const char *slash = strrchr(name, '/');
    size_t dir_len = slash == NULL ? 0 : slash == name ? 1 : (size_t)(slash - name);
    char *dir = malloc(dir_len + 2);
    if (dir == NULL) {
        free(t->resolved);
        return heat2d_fail(err, "cannot write %s '%s': out of memory", what, path);
    }
    if (slash == NULL)
        strcpy(dir, ".");
    else {
        memcpy(dir, name, dir_len);
        dir[dir_len] = '\0';
    }
    /* access() on a regular file says EACCES (it has no search bit), which
     * hides what is wrong: "x.dat/f.dat" names no directory. */
    struct stat dst;
    int rc = stat(dir, &dst) == 0 && !S_ISDIR(dst.st_mode) ? (errno = ENOTDIR, -1)
                                                           : access(dir, W_OK | X_OK);
    int e = errno;
    free(dir);
    if (rc != 0) {
        free(t->resolved);
        t->resolved = NULL;
        return heat2d_fail(err, "cannot write %s '%s': %s", what, path, strerror(e));
    }
    return 0;
}

int heat2d_file_check_replaceable(const char *path, const char *what, heat2d_error *err)
{
    target t;
    if (classify(path, what, &t, err) != 0)
        return -1;
    free(t.resolved);
    return 0;
}

/* Runs write on a stream over fd and closes both; 0 or an errno value. */
static int write_through(int fd, heat2d_file_writer write, void *ctx)
{
    FILE *stream = fdopen(fd, "w");
    if (!stream) {
        int e = errno;
        close(fd);
        return e;
    }
    /* Large writes: a field file is about 25 bytes a cell. */
    static const size_t buffer_size = (size_t)1 << 20;
    char *buffer = malloc(buffer_size);
    if (buffer)
        setvbuf(stream, buffer, _IOFBF, buffer_size);
    errno = 0;
    int e = write(stream, ctx);
    if (!e && fflush(stream) != 0)
        e = errno ? errno : EIO;
    errno = 0;
    if (fclose(stream) != 0 && !e)
        e = errno ? errno : EIO;
    free(buffer);
    return e;
}

/* final_name + ".tmp.XXXXXX", or, when that would be longer than a file name
 * may be, a fixed short name in the same directory. */
static char *temp_name_for(const char *final_name)
{
    static const char suffix[] = ".tmp.XXXXXX";
    static const char short_name[] = "heat2d.tmp.XXXXXX";
    const char *slash = strrchr(final_name, '/');
    size_t dir_len = slash ? (size_t)(slash - final_name) + 1 : 0;
    size_t len = strlen(final_name);
    bool fits = len - dir_len + sizeof suffix - 1 <= HEAT2D_NAME_MAX;
    char *tmp = malloc(len + sizeof suffix + sizeof short_name);
    if (!tmp)
        return NULL;
    if (fits) {
        memcpy(tmp, final_name, len);
        memcpy(tmp + len, suffix, sizeof suffix);
    } else {
        memcpy(tmp, final_name, dir_len);
        memcpy(tmp + dir_len, short_name, sizeof short_name);
    }
    return tmp;
}

static int replace_regular(const char *path, const char *what, const target *t,
                           heat2d_file_writer write, void *ctx, heat2d_error *err)
{
    const char *final = t->resolved ? t->resolved : path;
    char *tmp = temp_name_for(final);
    if (!tmp)
        return heat2d_fail(err, "cannot write %s '%s': out of memory", what, path);
    int slot;
    int fd = heat2d_cleanup_mkstemp(tmp, &slot);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return heat2d_fail(err, "cannot create %s '%s': %s", what, path, strerror(e));
    }
    /* mkstemp makes the file 0600: give it the old file's mode, or the one
     * fopen would have given a new file. Reading the umask means setting
     * it, briefly; heat2d writes its files from one thread. */
    mode_t mode;
    if (t->exists) {
        mode = t->st.st_mode & 07777;
        if (fchown(fd, t->st.st_uid, t->st.st_gid) != 0) {
            /* Not ours to give away: the file becomes the user's. */
        }
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = (mode_t)0666 & ~mask;
    }
    int e = 0;
    if (fchmod(fd, mode) != 0) {
        e = errno;
        close(fd);
    } else {
        e = write_through(fd, write, ctx);
    }
    bool rename_failed = false;
    if (!e && rename(tmp, final) != 0) {
        e = errno;
        rename_failed = true;
    }
    if (e)
        unlink(tmp);
    heat2d_cleanup_forget(slot);
    free(tmp);
    if (rename_failed)
        return heat2d_fail(err, "cannot rename %s to '%s': %s", what, path, strerror(e));
    if (e)
        return heat2d_fail(err, "cannot write %s '%s': %s", what, path, strerror(e));
    return 0;
}

int heat2d_file_replace(const char *path, const char *what, heat2d_file_writer write, void *ctx,
                        heat2d_error *err)
{
    target t;
    if (classify(path, what, &t, err) != 0)
        return -1;
    if (t.kind == TARGET_FILE) {
        int rc = replace_regular(path, what, &t, write, ctx, err);
        free(t.resolved);
        return rc;
    }
    int fd;
    if (t.kind == TARGET_DESCRIPTOR) {
        /* What the program printed first comes first. */
        fflush(stdout);
        fflush(stderr);
        fd = fcntl(t.fd, F_DUPFD_CLOEXEC, 3);
    } else {
        /* Renaming a new file over a device would replace the node itself,
         * which root may do: /dev/null would become a field file. */
        fd = open(path, O_WRONLY | O_CLOEXEC);
    }
    int e = fd < 0 ? errno : write_through(fd, write, ctx);
    if (e)
        return heat2d_fail(err, "cannot write %s '%s': %s", what, path, strerror(e));
    return 0;
}

bool heat2d_file_final_name(const char *path, char *out, size_t size)
{
    struct stat link;
    char *resolved = lstat(path, &link) == 0 && S_ISLNK(link.st_mode) ? realpath(path, NULL) : NULL;
    const int n = snprintf(out, size, "%s", resolved != NULL ? resolved : path);
    free(resolved);
    return n >= 0 && (size_t)n < size;
}

const char *heat2d_file_kind(mode_t mode)
{
    return S_ISREG(mode)    ? "a regular file"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISLNK(mode)  ? "a symbolic link"
                            : "not a file";
}

int heat2d_file_check_regular(const char *path, heat2d_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    return heat2d_fail(err, "%s is not a regular file (%s)", path, heat2d_file_kind(st.st_mode));
}
