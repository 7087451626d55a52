/* heat2d bench: starting a child process and capturing its stdout and
 * stderr, both read at once so that neither pipe can stall it.
 *
 * Every child dies with the bench: it leads a process group of its own
 * (which a stop signal or a time limit ends as a whole), and on Linux the
 * kernel sends it SIGKILL when the bench dies, even by SIGKILL. posix_spawn
 * cannot ask for the latter, hence fork and exec. */
#define _GNU_SOURCE
#include "child.h"
#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

/* How long a child past its time limit is read after SIGKILL before its
 * pipes are given up (a process outside the group may hold them). */
#define STOP_GRACE_S 2.0
/* A stop signal: the bench ends within a second, so its child has this
 * long after SIGTERM before SIGKILL, and this long after that before the
 * bench stops waiting for it (a process whose exit the kernel or a driver
 * holds up, a GPU context being torn down); the kernel reaps it later. */
#define STOP_TERM_S 0.5
#define STOP_KILL_S 0.25
/* poll's wait between looks at the stop flag and the deadline, in ms: a
 * signal that lands just before poll is seen this late at most. */
#define POLL_MS 250

volatile sig_atomic_t bench_interrupted;
volatile sig_atomic_t bench_child_group;

/* The running child's group, for the stop signals' handler (command.c) and
 * for the library's fatal-signal handler, which kills it before the bench
 * dies of any other signal (USR1, ALRM, XCPU, ...). */
static void set_child_group(pid_t group)
{
    bench_child_group = group;
    heat2d_cleanup_process_group(group);
}

/* A growing NUL-terminated buffer for one of the child's streams, bounded:
 * a helper that floods its output (or a trial's stray writes) cannot take
 * the bench's memory. Past CAPTURE_MAX, stdout keeps its head (a trial's
 * report, which is then refused as cut short) and stderr its tail (the
 * last line says why a child failed). */
#define CAPTURE_MAX ((size_t)1 << 20)

typedef struct stream_buf {
    char *data;
    size_t len;
    size_t cap;
    bool keep_tail;
    bool cut; /* bytes were dropped */
} stream_buf;

static int buf_append(stream_buf *b, const char *chunk, size_t n)
{
    if (b->len + n > CAPTURE_MAX) {
        b->cut = true;
        if (!b->keep_tail) {
            n = CAPTURE_MAX - b->len;
        } else if (n >= CAPTURE_MAX) {
            chunk += n - CAPTURE_MAX;
            n = CAPTURE_MAX;
            b->len = 0;
        } else {
            size_t drop = b->len + n - CAPTURE_MAX;
            memmove(b->data, b->data + drop, b->len - drop);
            b->len -= drop;
        }
    }
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
    if (n > 0)
        memcpy(b->data + b->len, chunk, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

/* Drains both pipes until the child's group closes them. Both must be read
 * at once: a child that fills the stderr pipe while we block on stdout would
 * hang. A stop signal ends the group (SIGTERM, SIGKILL after the grace), so
 * does the time limit (SIGKILL: a helper past it is stuck). The group is
 * signalled only here, before the leader is reaped, so that its id cannot
 * have been reused. */
static int drain(pid_t pid, int out_fd, int err_fd, double timeout_s, stream_buf *out,
                 stream_buf *errs, bool *timed_out, bool *gave_up)
{
    const double started = heat2d_now();
    double kill_at = 0.0, give_up_at = 0.0;
    bool termed = false, killed = false;
    struct pollfd fds[2] = {{.fd = out_fd, .events = POLLIN}, {.fd = err_fd, .events = POLLIN}};
    stream_buf *bufs[2] = {out, errs};
    size_t open_fds = 2;
    int rc = 0;
    while (open_fds > 0) {
        const double now = heat2d_now();
        if (bench_interrupted && !termed) {
            kill(-pid, SIGTERM);
            termed = true;
            kill_at = now + STOP_TERM_S;
        }
        const bool late = timeout_s > 0.0 && now - started >= timeout_s;
        if (!killed && (late || (termed && now >= kill_at))) {
            *timed_out = late && !termed;
            kill(-pid, SIGKILL);
            killed = true;
            give_up_at = now + (termed ? STOP_KILL_S : STOP_GRACE_S);
        }
        if (killed && now >= give_up_at) {
            *gave_up = true;
            break;
        }
        /* Stopping: looked at every 50 ms, so that the deadlines hold. */
        int ready = poll(fds, 2, termed ? 50 : POLL_MS);
        if (ready < 0 && errno != EINTR)
            return -1;
        if (ready <= 0)
            continue;
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

/* The program execve is to run: argv0 itself when it names a path, else the
 * first executable regular file of that name on our PATH, as posix_spawnp
 * looks (searched here, before fork, because the child may call only
 * async-signal-safe functions). Returns 0, or an errno. */
int bench_find_program(const char *argv0, char *path, size_t size)
{
    if (path == NULL || size == 0)
        return EINVAL;
    if (strchr(argv0, '/') != NULL) {
        snprintf(path, size, "%s", argv0);
        return 0;
    }
    const char *dirs = getenv("PATH");
    if (dirs == NULL)
        dirs = "/bin:/usr/bin";
    int why = ENOENT;
    while (true) {
        size_t len = strcspn(dirs, ":");
        /* An empty entry is the working directory. */
        if ((size_t)snprintf(path, size, "%.*s%s%s", (int)len, dirs, len ? "/" : "", argv0) <
            size) {
            struct stat st;
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                if (access(path, X_OK) == 0)
                    return 0;
                why = EACCES;
            }
        }
        if (dirs[len] == '\0')
            return why;
        dirs += len + 1;
    }
}

/* The child, from fork to exec: async-signal-safe calls only. Signals stay
 * blocked (as the parent blocked them for fork) until the handlers the
 * bench installed are reset, so that none runs in the child. */
static void exec_child(const char *path, char *const argv[], char *const envp[], pid_t parent,
                       int null_fd, int out_fd, int err_fd, int status_fd, const sigset_t *mask)
{
    struct sigaction plain;
    memset(&plain, 0, sizeof plain);
    plain.sa_handler = SIG_DFL;
    sigemptyset(&plain.sa_mask);
    for (int sig = 1; sig < NSIG; ++sig) {
        struct sigaction now;
        if (sigaction(sig, NULL, &now) == 0 && now.sa_handler != SIG_DFL &&
            now.sa_handler != SIG_IGN)
            sigaction(sig, &plain, NULL);
    }
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    /* The bench died before the line above took effect: nobody to reap. */
    if (getppid() != parent)
        _exit(127);
    if (dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        goto failed;
    sigprocmask(SIG_SETMASK, mask, NULL);
    execve(path, argv, envp);
failed:;
    int e = errno;
    ssize_t ignored = write(status_fd, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

/* fork and exec argv with the pipes as its stdout and stderr; the child's
 * pid, or -1 with errno set to why it could not be started (exec's errno
 * comes back over a close-on-exec pipe, which exec closes when it works). */
static pid_t start_child(const char *path, char *const argv[], char *const envp[], int null_fd,
                         int out_fd, int err_fd)
{
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0)
        return -1;
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        exec_child(path, argv, envp, parent, null_fd, out_fd, err_fd, status_pipe[1], &old);
    int saved = errno;
    if (pid > 0) {
        /* Both sides set the group, so that it exists whichever runs
         * first; a stop signal from now on reaches the child. */
        setpgid(pid, pid);
        set_child_group(pid);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(status_pipe[1]);
    if (pid < 0) {
        close(status_pipe[0]);
        errno = saved;
        return -1;
    }
    int exec_errno = 0;
    ssize_t n;
    while ((n = read(status_pipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR)
        continue;
    close(status_pipe[0]);
    if (n <= 0)
        return pid;
    set_child_group(0);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        continue;
    errno = exec_errno;
    return -1;
}

static int spawn(char *const argv[], char *const envp[], double timeout_s, bench_capture *cap,
                 heat2d_error *err)
{
    memset(cap, 0, sizeof *cap);
    char path[4096];
    int rc = bench_find_program(argv[0], path, sizeof path);
    if (rc != 0)
        return heat2d_fail(err, "cannot start %s: %s", argv[0], strerror(rc));
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd < 0)
        return heat2d_fail(err, "cannot open /dev/null: %s", strerror(errno));
    int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
        int saved = errno;
        for (size_t k = 0; k < 2; ++k) {
            if (out_pipe[k] >= 0)
                close(out_pipe[k]);
            if (err_pipe[k] >= 0)
                close(err_pipe[k]);
        }
        close(null_fd);
        return heat2d_fail(err, "cannot create a pipe: %s", strerror(saved));
    }

    double t0 = heat2d_now();
    pid_t pid = start_child(path, argv, envp, null_fd, out_pipe[1], err_pipe[1]);
    int saved = errno;
    close(null_fd);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (pid < 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        return heat2d_fail(err, "cannot start %s: %s", argv[0], strerror(saved));
    }

    stream_buf out = {0}, errs = {.keep_tail = true};
    bool gave_up = false;
    int drained =
        drain(pid, out_pipe[0], err_pipe[0], timeout_s, &out, &errs, &cap->timed_out, &gave_up);
    close(out_pipe[0]);
    close(err_pipe[0]);
    set_child_group(0);
    /* A child given up on was sent SIGKILL: it is not waited for. */
    int status = 0;
    pid_t reaped;
    while ((reaped = waitpid(pid, &status, gave_up ? WNOHANG : 0)) < 0) {
        if (errno != EINTR) {
            free(out.data);
            free(errs.data);
            return heat2d_fail(err, "cannot wait for %s: %s", argv[0], strerror(errno));
        }
    }
    cap->wall_s = heat2d_now() - t0;
    cap->timeout_s = timeout_s;
    if (drained != 0 || buf_append(&out, "", 0) != 0 || buf_append(&errs, "", 0) != 0) {
        free(out.data);
        free(errs.data);
        return heat2d_fail(err, "out of memory reading the output of %s", argv[0]);
    }
    cap->out = out.data;
    cap->out_len = out.len;
    cap->err = errs.data;
    cap->err_len = errs.len;
    cap->out_cut = out.cut;
    if (reaped == 0) {
        cap->term_signal = SIGKILL;
        cap->exit_status = -1;
    } else if (WIFSIGNALED(status)) {
        cap->term_signal = WTERMSIG(status);
        cap->exit_status = -1;
    } else {
        cap->exit_status = WEXITSTATUS(status);
    }
    return 0;
}

int bench_spawn(char *const argv[], bench_capture *cap, heat2d_error *err)
{
    return spawn(argv, environ, 0.0, cap, err);
}

int bench_spawn_env(char *const argv[], char *const envp[], bench_capture *cap, heat2d_error *err)
{
    return spawn(argv, envp, 0.0, cap, err);
}

int bench_spawn_limited(char *const argv[], double timeout_s, bench_capture *cap, heat2d_error *err)
{
    return spawn(argv, environ, timeout_s, cap, err);
}

void bench_capture_free(bench_capture *cap)
{
    free(cap->out);
    free(cap->err);
    cap->out = cap->err = NULL;
}

bool bench_capture_ok(const bench_capture *cap)
{
    return !cap->timed_out && cap->term_signal == 0 && cap->exit_status == 0;
}

void bench_capture_why(const bench_capture *cap, char *buf, size_t size)
{
    if (cap->timed_out) {
        snprintf(buf, size, "timed out after %g s", cap->timeout_s);
        return;
    }
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
