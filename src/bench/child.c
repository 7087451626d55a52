/* heat2d bench: starting a child process and capturing its stdout and
 * stderr, both read at once so that neither pipe can stall it. */
#define _GNU_SOURCE
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A growing NUL-terminated buffer for one of the child's streams. */
typedef struct stream_buf {
    char *data;
    size_t len;
    size_t cap;
} stream_buf;

static int buf_append(stream_buf *b, const char *chunk, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (grown == NULL)
            return -1;
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, chunk, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

volatile sig_atomic_t bench_interrupted;

/* Drains both pipes until the child closes them. Both must be read at once:
 * a child that fills the stderr pipe while we block on stdout would hang. */
static int drain(pid_t pid, int out_fd, int err_fd, stream_buf *out, stream_buf *errs)
{
    bool stopping = false;
    struct pollfd fds[2] = {{.fd = out_fd, .events = POLLIN}, {.fd = err_fd, .events = POLLIN}};
    stream_buf *bufs[2] = {out, errs};
    size_t open_fds = 2;
    int rc = 0;
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno != EINTR)
                return -1;
            /* Interrupted: end the child too, then read on until it has
             * closed its pipes, so that it can be reaped. */
            if (bench_interrupted && !stopping) {
                kill(pid, SIGTERM);
                stopping = true;
            }
            continue;
        }
        for (size_t k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || fds[k].revents == 0)
                continue;
            char chunk[8192];
            ssize_t n = read(fds[k].fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n > 0 && buf_append(bufs[k], chunk, (size_t)n) != 0)
                rc = -1; /* keep reading so that the child can finish */
            if (n <= 0) {
                fds[k].fd = -1; /* poll ignores negative descriptors */
                open_fds--;
            }
        }
    }
    return rc;
}

int bench_spawn(char *const argv[], bench_capture *cap, heat2d_error *err)
{
    return bench_spawn_env(argv, environ, cap, err);
}

int bench_spawn_env(char *const argv[], char *const envp[], bench_capture *cap, heat2d_error *err)
{
    memset(cap, 0, sizeof *cap);
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0)
        return heat2d_fail(err, "cannot create a pipe: %s", strerror(errno));
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        int saved = errno;
        close(out_pipe[0]);
        close(out_pipe[1]);
        return heat2d_fail(err, "cannot create a pipe: %s", strerror(saved));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);

    double t0 = heat2d_now();
    pid_t pid;
    int rc = strchr(argv[0], '/') != NULL ? posix_spawn(&pid, argv[0], &actions, NULL, argv, envp)
                                          : posix_spawnp(&pid, argv[0], &actions, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (rc != 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        return heat2d_fail(err, "cannot start %s: %s", argv[0], strerror(rc));
    }

    stream_buf out = {0}, errs = {0};
    int drained = drain(pid, out_pipe[0], err_pipe[0], &out, &errs);
    close(out_pipe[0]);
    close(err_pipe[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            free(out.data);
            free(errs.data);
            return heat2d_fail(err, "cannot wait for %s: %s", argv[0], strerror(errno));
        }
    }
    cap->wall_s = heat2d_now() - t0;
    if (drained != 0 || buf_append(&out, "", 0) != 0 || buf_append(&errs, "", 0) != 0) {
        free(out.data);
        free(errs.data);
        return heat2d_fail(err, "out of memory reading the output of %s", argv[0]);
    }
    cap->out = out.data;
    cap->out_len = out.len;
    cap->err = errs.data;
    cap->err_len = errs.len;
    if (WIFSIGNALED(status)) {
        cap->term_signal = WTERMSIG(status);
        cap->exit_status = -1;
    } else {
        cap->exit_status = WEXITSTATUS(status);
    }
    return 0;
}

void bench_capture_free(bench_capture *cap)
{
    free(cap->out);
    free(cap->err);
    cap->out = cap->err = NULL;
}

bool bench_capture_ok(const bench_capture *cap)
{
    return cap->term_signal == 0 && cap->exit_status == 0;
}

void bench_capture_why(const bench_capture *cap, char *buf, size_t size)
{
    /* The last non-blank line of stderr is the one clear line that every
     * heat2d failure prints. */
    const char *text = cap->err != NULL ? cap->err : "";
    size_t end = strlen(text);
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ' || text[end - 1] == '\r'))
        end--;
    size_t begin = end;
    while (begin > 0 && text[begin - 1] != '\n')
        begin--;
    /* Our own children say "heat2d: "; the bench's line already does. */
    static const char prefix[] = "heat2d: ";
    if (end - begin > sizeof prefix - 1 && strncmp(text + begin, prefix, sizeof prefix - 1) == 0)
        begin += sizeof prefix - 1;
    char how[96];
    if (cap->term_signal != 0)
        snprintf(how, sizeof how, "killed by signal %d (%s)", cap->term_signal,
                 strsignal(cap->term_signal));
    else
        snprintf(how, sizeof how, "exit status %d", cap->exit_status);
    if (end > begin)
        snprintf(buf, size, "%.*s (%s)", (int)(end - begin), text + begin, how);
    else
        snprintf(buf, size, "%s, nothing on stderr", how);
}
