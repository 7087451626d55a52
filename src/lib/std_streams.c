/* The standard streams at the start and the end of a program. */
#define _POSIX_C_SOURCE 200809L

#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static bool stdout_was_closed;

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
    heat2d_cleanup_install();
    heat2d_die_with_bench();
}

int heat2d_stdout_status(heat2d_error *err)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return heat2d_fail(err, "cannot write to standard output: %s",
                           strerror(errno ? errno : EIO));
    if (stdout_was_closed)
        return heat2d_fail(err, "standard output was closed: the output was lost");
    return 0;
}
