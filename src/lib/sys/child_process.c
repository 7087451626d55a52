/* Child processes: started with fork (posix_spawn cannot ask the kernel to
 * kill the child when its parent dies), their stdout and stderr read at
 * once so that neither pipe can stall them, their group ended on a stop, a
 * time limit or a flood. */
#define _GNU_SOURCE
#include "child_process.h"
#include "heat2d_args.h"
#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

/* How long a child past its time limit (or flooding) is read after SIGKILL
 * before its pipes are given up (a process outside the group may hold
 * them). */
#define STOP_GRACE_S 2.0
/* A stop: the caller ends within a second, so its child has this long
 * after SIGTERM before SIGKILL, and this long after that before the wait
 * for it is given up (a process whose exit the kernel or a driver holds
 * up, a GPU context being torn down); the kernel reaps it later. */
#define STOP_TERM_S 0.5
#define STOP_KILL_S 0.25
/* Once the child has exited and its group is ended: how long what is left
 * in its pipes is read (a process outside the group, one that called
 * setsid, may hold them open for ever). */
#define EXIT_DRAIN_S 0.5
/* How often the group's processes are counted against max_processes. */
#define COUNT_EVERY_S 0.25
/* poll's wait between looks at the stop flag and the deadlines, in ms: a
 * stop that lands just before poll is seen this late at most; a child
 * being ended, or one whose exit no pidfd reports, is looked at more
 * often. */
#define POLL_MS      250
#define POLL_EXIT_MS 50

volatile sig_atomic_t heat2d_child_group;

/* The running child's group, for a stop signal's handler and for the
 * library's fatal-signal handler, which kills it before this process dies
 * of any other signal (USR1, ALRM, XCPU, ...). */
static void set_child_group(pid_t group)
{
    heat2d_child_group = group;
    heat2d_cleanup_process_group(group);
}

/* A growing NUL-terminated buffer for one of the child's streams, bounded
 * by HEAT2D_CHILD_KEEP: a child that floods its output cannot take this
 * process's memory. */
typedef struct stream_buf {
    char *data;
    size_t len;
    size_t cap;
    bool keep_tail;
    bool cut; /* bytes were dropped */
} stream_buf;

static int buf_append(stream_buf *b, const char *chunk, size_t n)
{
    if (b->len + n > HEAT2D_CHILD_KEEP) {
        b->cut = true;
        if (!b->keep_tail) {
            n = HEAT2D_CHILD_KEEP - b->len;
        } else if (n >= HEAT2D_CHILD_KEEP) {
            chunk += n - HEAT2D_CHILD_KEEP;
            n = HEAT2D_CHILD_KEEP;
            b->len = 0;
        } else {
            size_t drop = b->len + n - HEAT2D_CHILD_KEEP;
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

/* One child being watched: its pipes and its exit (a pidfd, where the
 * kernel has them: readable once it exits), its deadlines, how it is
 * ending. It is reaped only after its group is ended, so that the group's
 * id (its pid) cannot have been reused while it is signalled. */
typedef struct watch {
    const heat2d_child_spec *spec;
    pid_t pid;
    struct pollfd fds[3]; /* stdout, stderr, the pidfd */
    stream_buf *bufs[2];
    size_t open_fds;
    double started, kill_at, give_up_at, exited_at, drain_until, counted_at;
    unsigned idle_ms; /* without a pidfd: the next wait for its exit */
    bool termed, killed, gave_up, exited, ended;
    int status; /* the wait status, once ended */
} watch;

/* SIGKILL to the group, once, with how long it is waited for after. */
static void kill_group(watch *w, double now)
{
    kill(-w->pid, SIGKILL);
    w->killed = true;
    w->give_up_at = now + (w->termed ? STOP_KILL_S : STOP_GRACE_S);
}

/* A stop ends the group (SIGTERM, SIGKILL after the grace), so do the time
 * limit, a flood and too many processes (SIGKILL: a child past them is
 * stuck or broken). All of them apply until the child exits. */
static void signal_group(watch *w, heat2d_child_result *res, double now)
{
    const heat2d_child_spec *spec = w->spec;
    if (w->exited)
        return;
    if (spec->stop != NULL && *spec->stop && !w->termed) {
        kill(-w->pid, SIGTERM);
        w->termed = true;
        w->kill_at = now + STOP_TERM_S;
    }
    if (w->killed)
        return;
    const bool late = spec->timeout_s > 0.0 && now - w->started >= spec->timeout_s;
    const bool flood = spec->flood_stops && w->bufs[0]->cut;
    if (late || flood || (w->termed && now >= w->kill_at)) {
        res->timed_out = late && !w->termed;
        res->flooded = flood && !late && !w->termed;
        kill_group(w, now);
    } else if (spec->max_processes > 0 && now >= w->counted_at + COUNT_EVERY_S) {
        w->counted_at = now;
        const size_t n = heat2d_group_count(w->pid);
        if (n > spec->max_processes) {
            res->too_many = n;
            kill_group(w, now);
        }
    }
}

/* Whether the child has exited: seen without reaping it (WNOWAIT), so that
 * its pid still names its group. */
static void look_for_exit(watch *w, double now)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (w->exited)
        return;
    const int seen = waitid(P_PID, (id_t)w->pid, &info, WEXITED | WNOHANG | WNOWAIT);
    /* ECHILD: reaped already, by the kernel (SIGCHLD ignored); the reap
     * says so. */
    if ((seen != 0 && errno != ECHILD) || (seen == 0 && info.si_pid != w->pid))
        return;
    w->exited = true;
    w->exited_at = now;
    if (w->fds[2].fd >= 0)
        close(w->fds[2].fd);
    w->fds[2].fd = -1;
    const bool failed = info.si_code != CLD_EXITED || info.si_status != 0;
    /* A stop or a kill wants no reason printed late. */
    if (failed && !w->termed && !w->killed)
        w->exited_at += w->spec->linger_s;
}

/* The child has exited (and lingered): its group is ended, what it left
 * running counted first where its processes are watched (a scan of
 * /proc: not for every child of a bench). */
static void end_group(watch *w, heat2d_child_result *res, double now)
{
    if (w->spec->max_processes > 0 && !w->termed && !w->killed)
        res->left_running = heat2d_group_count(w->pid);
    kill(-w->pid, SIGKILL);
    w->ended = true;
    w->drain_until = now + EXIT_DRAIN_S;
}

/* Reads what poll found ready; -1 when a buffer could not grow (reading
 * goes on, so that the child can finish). */
static int read_ready(watch *w)
{
    int rc = 0;
    for (size_t k = 0; k < 2; ++k) {
        if (w->fds[k].fd < 0 || w->fds[k].revents == 0)
            continue;
        char chunk[8192];
        ssize_t n = read(w->fds[k].fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0 && buf_append(w->bufs[k], chunk, (size_t)n) != 0)
            rc = -1;
        if (n <= 0) {
            w->fds[k].fd = -1; /* poll ignores negative descriptors */
            w->open_fds--;
        }
    }
    return rc;
}

/* poll's wait now, in ms: until the drain's end once the group is ended;
 * short while a stop is under way, or while no pidfd says when the child
 * exits (from 1 ms, doubling, once its pipes are closed: a child that has
 * closed them is about to exit). */
static int wait_ms(watch *w, double now)
{
    if (w->ended) {
        const double left = (w->drain_until - now) * 1e3;
        return left > 0.0 ? (int)left + 1 : 0;
    }
    if (w->exited || w->termed || w->killed)
        return POLL_EXIT_MS;
    int ms = POLL_EXIT_MS;
    if (w->fds[2].fd >= 0) {
        ms = POLL_MS;
    } else if (w->open_fds == 0) {
        ms = (int)w->idle_ms;
        w->idle_ms = w->idle_ms < POLL_EXIT_MS / 2 ? 2 * w->idle_ms : POLL_EXIT_MS;
    }
    /* No later than the time limit. */
    const double limit = w->spec->timeout_s;
    if (limit > 0.0 && (w->started + limit - now) * 1e3 < ms)
        ms = now < w->started + limit ? (int)((w->started + limit - now) * 1e3) + 1 : 0;
    return ms;
}

/* Reads the pipes until the child has exited and its group is ended (then
 * what is left in them, for EXIT_DRAIN_S at most), ending the group
 * earlier as signal_group says; gives up on a child killed that does not
 * exit. */
static int watch_child(watch *w, heat2d_child_result *res)
{
    int rc = 0;
    while (true) {
        const double now = heat2d_now();
        signal_group(w, res, now);
        look_for_exit(w, now);
        if (w->exited && !w->ended && (now >= w->exited_at || w->open_fds == 0 || w->termed))
            end_group(w, res, now);
        if (w->ended && (w->open_fds == 0 || now >= w->drain_until))
            break;
        if (w->killed && !w->exited && now >= w->give_up_at) {
            w->gave_up = true;
            break;
        }
        const int ready = poll(w->fds, 3, wait_ms(w, now));
        if (ready < 0 && errno != EINTR)
            return -1;
        if (ready > 0 && read_ready(w) != 0)
            rc = -1;
        if (w->spec->tick != NULL)
            w->spec->tick(w->spec->tick_ctx, heat2d_now() - w->started);
    }
    return rc;
}

int heat2d_find_program(const char *argv0, char *path, size_t size)
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

/* The descriptors a child gets: stdin, stdout, stderr, and the pipe that
 * carries exec's errno back. */
typedef struct child_fds {
    int null_fd, out_fd, err_fd, status_fd;
} child_fds;

/* The child, from fork to exec (or its body): async-signal-safe calls only
 * until then. Signals stay blocked (as the parent blocked them for fork)
 * until the handlers the parent installed are reset, so that none runs in
 * the child; a body then runs without the parent's clean-up handler, which
 * would remove the parent's scratch files. */
static void child_main(const heat2d_child_spec *spec, const char *path, pid_t parent,
                       const child_fds *fds, const sigset_t *mask)
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
    /* The parent died before the line above took effect: nobody to reap. */
    if (getppid() != parent)
        _exit(127);
    if (dup2(fds->null_fd, 0) < 0 || dup2(fds->out_fd, 1) < 0 || dup2(fds->err_fd, 2) < 0)
        goto failed;
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (spec->body != NULL) {
        close(fds->status_fd);
        _exit(spec->body(spec->ctx));
    }
    execve(path, spec->argv, spec->envp != NULL ? spec->envp : environ);
failed:;
    int e = errno;
    ssize_t ignored = write(fds->status_fd, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

/* fork and exec (or run the body) with the pipes as stdout and stderr; the
 * child's pid, or -1 with errno set to why it could not be started (exec's
 * errno comes back over a close-on-exec pipe, which exec closes when it
 * works). */
static pid_t start_child(const heat2d_child_spec *spec, const char *path, child_fds *fds)
{
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0)
        return -1;
    fds->status_fd = status_pipe[1];
    fflush(NULL); /* nothing buffered here is written twice by a body */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_main(spec, path, parent, fds, &old);
    int saved = errno;
    if (pid > 0) {
        /* Both sides set the group, so that it exists whichever runs
         * first; a stop from now on reaches the child. */
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

/* A descriptor that poll finds readable once the child pid exits (Linux
 * 5.3 and later), else -1: the wait for its exit then looks often. */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec */
#else
    (void)pid;
    return -1;
#endif
}

/* /dev/null and the pipes (one with merge_stderr): 0, or an errno. */
static int open_pipes(bool merge, int *null_fd, int out_pipe[2], int err_pipe[2])
{
    out_pipe[0] = out_pipe[1] = err_pipe[0] = err_pipe[1] = -1;
    *null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (*null_fd >= 0 && pipe2(out_pipe, O_CLOEXEC) == 0 &&
        (merge || pipe2(err_pipe, O_CLOEXEC) == 0))
        return 0;
    const int saved = errno;
    int *const all[] = {null_fd, &out_pipe[0], &out_pipe[1], &err_pipe[0], &err_pipe[1]};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        if (*all[k] >= 0)
            close(*all[k]);
    return saved;
}

/* The watched child's end: reaped (one given up on was sent SIGKILL and is
 * not waited for), how it ended into res. 0, or an errno. */
static int reap(watch *w, heat2d_child_result *res)
{
    pid_t reaped = 0;
    while ((reaped = waitpid(w->pid, &w->status, w->gave_up ? WNOHANG : 0)) < 0)
        if (errno != EINTR)
            return errno;
    if (reaped == 0) {
        res->term_signal = SIGKILL;
        res->exit_status = -1;
    } else if (WIFSIGNALED(w->status)) {
        res->term_signal = WTERMSIG(w->status);
        res->exit_status = -1;
    } else {
        res->exit_status = WEXITSTATUS(w->status);
    }
    return 0;
}

/* The streams' text into res; -1 when out of memory. */
static int keep_streams(stream_buf *out, stream_buf *errs, heat2d_child_result *res)
{
    if (buf_append(out, "", 0) != 0 || buf_append(errs, "", 0) != 0) {
        free(out->data);
        free(errs->data);
        return -1;
    }
    res->out = out->data;
    res->out_len = out->len;
    res->out_cut = out->cut;
    res->err = errs->data;
    res->err_len = errs->len;
    return 0;
}

int heat2d_child_run(const heat2d_child_spec *spec, heat2d_child_result *res, heat2d_error *err)
{
    memset(res, 0, sizeof *res);
    const char *name = spec->argv[0];
    char path[4096] = "";
    int rc = spec->body != NULL ? 0 : heat2d_find_program(name, path, sizeof path);
    if (rc != 0)
        return heat2d_fail(err, "cannot start %s: %s", name, strerror(rc));
    int null_fd, out_pipe[2], err_pipe[2];
    if ((rc = open_pipes(spec->merge_stderr, &null_fd, out_pipe, err_pipe)) != 0)
        return heat2d_fail(err, "cannot create a pipe: %s", strerror(rc));
    child_fds fds = {null_fd, out_pipe[1], spec->merge_stderr ? out_pipe[1] : err_pipe[1], -1};
    const double t0 = heat2d_now();
    const pid_t pid = start_child(spec, path, &fds);
    const int saved = errno;
    const int to_close[] = {null_fd, out_pipe[1], err_pipe[1]};
    for (size_t k = 0; k < 3; ++k)
        if (to_close[k] >= 0)
            close(to_close[k]);
    stream_buf out = {.keep_tail = spec->merge_stderr}, errs = {.keep_tail = true};
    watch w = {.spec = spec,
               .pid = pid,
               .fds = {{.fd = out_pipe[0], .events = POLLIN},
                       {.fd = err_pipe[0], .events = POLLIN},
                       {.fd = pid < 0 ? -1 : open_pidfd(pid), .events = POLLIN}},
               .bufs = {&out, &errs},
               .open_fds = spec->merge_stderr ? 1 : 2,
               .started = t0,
               .idle_ms = 1};
    const int drained = pid < 0 ? 0 : watch_child(&w, res);
    close(out_pipe[0]);
    if (err_pipe[0] >= 0)
        close(err_pipe[0]);
    if (w.fds[2].fd >= 0)
        close(w.fds[2].fd);
    /* Its group ended, it is reaped: from now on its pid may be reused. */
    set_child_group(0);
    if (pid < 0)
        return heat2d_fail(err, "cannot start %s: %s", name, strerror(saved));
    if ((rc = reap(&w, res)) != 0) {
        free(out.data);
        free(errs.data);
        return heat2d_fail(err, "cannot wait for %s: %s", name, strerror(rc));
    }
    res->wall_s = heat2d_now() - t0;
    res->timeout_s = spec->timeout_s;
    res->max_processes = spec->max_processes;
    if (drained != 0 || keep_streams(&out, &errs, res) != 0)
        return heat2d_fail(err, "out of memory reading the output of %s", name);
    return 0;
}

void heat2d_child_result_free(heat2d_child_result *res)
{
    free(res->out);
    free(res->err);
    res->out = res->err = NULL;
}

bool heat2d_child_ok(const heat2d_child_result *res)
{
    return !res->timed_out && !res->flooded && res->too_many == 0 && res->term_signal == 0 &&
           res->exit_status == 0;
}

/* The last non-blank line of text, [*begin, *end). */
static void last_line(const char *text, size_t *begin, size_t *end)
{
    size_t e = strlen(text);
    while (e > 0 && (text[e - 1] == '\n' || text[e - 1] == ' ' || text[e - 1] == '\r'))
        e--;
    size_t b = e;
    while (b > 0 && text[b - 1] != '\n')
        b--;
    *begin = b;
    *end = e;
}

void heat2d_child_why(const heat2d_child_result *res, char *buf, size_t size)
{
    if (res->timed_out) {
        snprintf(buf, size, "timed out after %g s", res->timeout_s);
        return;
    }
    if (res->flooded) {
        snprintf(buf, size, "flooded its output: more than %zu MiB on stdout, killed",
                 HEAT2D_CHILD_KEEP >> 20);
        return;
    }
    if (res->too_many > 0) {
        snprintf(buf, size,
                 "started too many processes: %zu at once, more than the %zu a run may have; "
                 "its process group was killed",
                 res->too_many, res->max_processes);
        return;
    }
    /* The last non-blank line of stderr is the one clear line that every
     * heat2d failure prints. */
    const char *text = res->err != NULL ? res->err : "";
    size_t begin, end;
    last_line(text, &begin, &end);
    /* Our own children say "heat2d: "; the caller's line already does. */
    static const char prefix[] = "heat2d: ";
    if (end - begin > sizeof prefix - 1 && strncmp(text + begin, prefix, sizeof prefix - 1) == 0)
        begin += sizeof prefix - 1;
    char how[96];
    if (res->term_signal != 0)
        snprintf(how, sizeof how, "killed by signal %d (%s)", res->term_signal,
                 strsignal(res->term_signal));
    else
        snprintf(how, sizeof how, "exit status %d", res->exit_status);
    if (end > begin)
        snprintf(buf, size, "%.*s (%s)", (int)(end - begin), text + begin, how);
    else
        snprintf(buf, size, "%s, nothing on stderr", how);
}
