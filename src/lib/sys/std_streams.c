/* The standard streams at the start and the end of a program. */
#define _GNU_SOURCE /* fopencookie */

#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool stdout_was_closed;
/* The errno of the first write to stdout that failed, 0 for none. stdio
 * keeps only a flag: by the time the program looks (at its end, after
 * other calls), the reason is gone, and "Input/output error" would stand
 * for a full disk. */
static int stdout_errno;

/* stdout's writes, through which every byte the program prints goes. */
static ssize_t write_stdout(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    size_t done = 0;
    while (done < size) {
        const ssize_t n = write(STDOUT_FILENO, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (stdout_errno == 0)
                stdout_errno = n < 0 ? errno : ENOSPC;
            return done > 0 ? (ssize_t)done : -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* stdout replaced by a stream over descriptor 1 that notes why a write
 * failed; buffered as stdio buffers it (by lines on a terminal). Left as
 * it was where the stream cannot be made. */
static void watch_stdout(void)
{
    static const cookie_io_functions_t io = {.write = write_stdout};
    FILE *watched = fopencookie(NULL, "w", io);
    if (watched == NULL)
        return;
    setvbuf(watched, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
    fflush(stdout);
    stdout = watched;
}

void heat2d_process_start(void)
{
    /* In order: open() takes the lowest free number, so each reopened
     * stream gets its own. */
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (got >= 0 && got != fd) /* cannot happen: the lower ones are open */
            close(got);
        if (fd == 1)
            stdout_was_closed = true;
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    /* Ignored by whoever started us, SIGCHLD would have the kernel reap
     * our children itself: their exit statuses lost. */
    signal(SIGCHLD, SIG_DFL);
    watch_stdout();
    heat2d_cleanup_install();
    heat2d_die_with_bench();
}

int heat2d_stdout_status(heat2d_error *err)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return heat2d_fail(err, "cannot write to standard output: %s",
                           strerror(stdout_errno ? stdout_errno
                                    : errno      ? errno
                                                 : EIO));
    if (stdout_was_closed)
        return heat2d_fail(err, "standard output was closed: the output was lost");
    return 0;
}
