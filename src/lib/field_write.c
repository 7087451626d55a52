/* Writing a field file: "nx ny", then one %24.16E value a line, through a
 * temporary file renamed over the target, so that no reader and no
 * interruption ever leaves half a file. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* realpath */

#include "heat2d.h"
#include "real_format.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef NAME_MAX
#define HEAT2D_NAME_MAX NAME_MAX
#else
#define HEAT2D_NAME_MAX 255 /* POSIX leaves NAME_MAX undefined where it varies */
#endif

#define WRITE_CHUNK_LINES 1024

/* Writes and closes stream; on any failure returns errno's value. */
static int write_values(FILE *stream, size_t nx, size_t ny, const double *field)
{
    if (fprintf(stream, "%zu %zu\n", nx, ny) < 0)
        return errno ? errno : EIO;
    char chunk[WRITE_CHUNK_LINES * (E16_WIDTH + 1)];
    size_t n = nx * ny;
    for (size_t i = 0; i < n;) {
        size_t lines = n - i < WRITE_CHUNK_LINES ? n - i : WRITE_CHUNK_LINES;
        char *c = chunk;
        for (size_t l = 0; l < lines; ++l) {
            heat2d_format_e16(field[i + l], c);
            c[E16_WIDTH] = '\n';
            c += E16_WIDTH + 1;
        }
        size_t bytes = (size_t)(c - chunk);
        if (fwrite(chunk, 1, bytes, stream) != bytes)
            return errno ? errno : EIO;
        i += lines;
    }
    if (fflush(stream) != 0)
        return errno ? errno : EIO;
    return 0;
}

/* Writes header and values to fd and closes it; 0, or the errno of the
 * first failure. */
static int write_to_fd(int fd, size_t nx, size_t ny, const double *field)
{
    FILE *stream = fdopen(fd, "w");
    if (!stream) {
        int e = errno;
        close(fd);
        return e;
    }
    /* Large writes: the file is about 25 bytes a cell. */
    static const size_t buffer_size = (size_t)1 << 20;
    char *buffer = malloc(buffer_size);
    if (buffer)
        setvbuf(stream, buffer, _IOFBF, buffer_size);
    errno = 0;
    int e = write_values(stream, nx, ny, field);
    errno = 0;
    if (fclose(stream) != 0 && !e)
        e = errno ? errno : EIO;
    free(buffer);
    return e;
}

/* Name of the temporary file next to target: target + ".tmp.XXXXXX", or,
 * when that would be longer than a file name may be, a fixed short name in
 * the same directory. */
static char *temp_name_for(const char *target)
{
    static const char suffix[] = ".tmp.XXXXXX";
    static const char short_name[] = "heat2d.tmp.XXXXXX";
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    size_t len = strlen(target);
    bool fits = len - dir_len + sizeof suffix - 1 <= HEAT2D_NAME_MAX;
    char *tmp = malloc(len + sizeof suffix + sizeof short_name);
    if (!tmp)
        return NULL;
    if (fits) {
        memcpy(tmp, target, len);
        memcpy(tmp + len, suffix, sizeof suffix);
    } else {
        memcpy(tmp, target, dir_len);
        memcpy(tmp + dir_len, short_name, sizeof short_name);
    }
    return tmp;
}

/* The temporary file being written, for the handler below; NULL when none. */
static char *volatile pending_tmp;

/* SIGINT, SIGTERM or SIGHUP in the middle of a write: remove the temporary
 * file, then die of the signal as the process would have (unlink, signal
 * and raise are async-signal-safe). */
static void remove_pending_and_die(int sig)
{
    char *tmp = pending_tmp;
    if (tmp != NULL)
        unlink(tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])

/* Installs the handler for the signals whose action is the default one (a
 * program's own handler, or an ignored signal, is left alone); saved[]
 * receives what to restore. */
static void guard_temp_file(char *tmp, struct sigaction saved[N_CLEANUP_SIGNALS])
{
    pending_tmp = tmp;
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = remove_pending_and_die;
    sigemptyset(&act.sa_mask);
    for (size_t k = 0; k < N_CLEANUP_SIGNALS; ++k) {
        saved[k].sa_handler = SIG_ERR;
        struct sigaction old;
        if (sigaction(cleanup_signals[k], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
            sigaction(cleanup_signals[k], &act, &saved[k]) != 0)
            saved[k].sa_handler = SIG_ERR;
    }
}

static void unguard_temp_file(const struct sigaction saved[N_CLEANUP_SIGNALS])
{
    for (size_t k = 0; k < N_CLEANUP_SIGNALS; ++k)
        if (saved[k].sa_handler != SIG_ERR)
            sigaction(cleanup_signals[k], &saved[k], NULL);
    pending_tmp = NULL;
}

int heat2d_field_write(const char *path, size_t nx, size_t ny, const double *field,
                       heat2d_error *err)
{
    if (nx != 0 && ny > SIZE_MAX / nx)
        return heat2d_fail(err, "cannot write field file '%s': %zux%zu cells overflow", path, nx,
                           ny);
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(EISDIR));
        if (!S_ISREG(st.st_mode)) {
            /* A device or a pipe (/dev/null, /dev/stdout): written in
             * place. Renaming a new file over it would replace the device
             * node itself, which root may do: /dev/null would become a
             * field file. */
            int fd = open(path, O_WRONLY | O_CLOEXEC);
            int e = fd < 0 ? errno : write_to_fd(fd, nx, ny, field);
            if (e)
                return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(e));
            return 0;
        }
    }
    /* Through a symbolic link, the file it names is replaced, not the link
     * (a dangling link has no such file and is replaced itself). */
    char *resolved = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        resolved = realpath(path, NULL);
    char *tmp = temp_name_for(resolved ? resolved : path);
    if (!tmp) {
        free(resolved);
        return heat2d_fail(err, "cannot write field file '%s': out of memory", path);
    }

    /* A temporary name in the same directory, renamed over the target at
     * the end: a reader never sees half a file, and a failure leaves none
     * (the old file, if any, is untouched), nor does an interruption. */
    struct sigaction saved[N_CLEANUP_SIGNALS];
    guard_temp_file(tmp, saved);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        unguard_temp_file(saved);
        free(tmp);
        free(resolved);
        return heat2d_fail(err, "cannot create field file '%s': %s", path, strerror(e));
    }
    /* mkstemp makes the file 0600; give it the mode fopen would have, so
     * that the result looks like any other file the user writes. Reading
     * the umask means setting it, briefly; field files are written by a
     * single thread at the end of a run. */
    mode_t mask = umask(0);
    umask(mask);
    int e = 0;
    if (fchmod(fd, (mode_t)0666 & ~mask) != 0) {
        e = errno;
        close(fd);
    } else {
        e = write_to_fd(fd, nx, ny, field);
    }
    if (!e && rename(tmp, resolved ? resolved : path) != 0) {
        e = errno;
        unlink(tmp);
        unguard_temp_file(saved);
        free(tmp);
        free(resolved);
        return heat2d_fail(err, "cannot rename field file to '%s': %s", path, strerror(e));
    }
    if (e)
        unlink(tmp);
    unguard_temp_file(saved);
    free(tmp);
    free(resolved);
    if (e)
        return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(e));
    return 0;
}
