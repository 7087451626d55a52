/* What heat2d check makes sure of before it starts anything: a TMPDIR it
 * (and MPI, for its session directory) can use, and an MPI that starts.
 * Either failing inside the check would bury its one line under the MPI
 * library's pages of output, or kill the check inside MPI_Init. */
#define _GNU_SOURCE
#include "check.h"
#include "process_guard.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* How long MPI may take to start on a tiny grid before the probe gives up
 * on it: a healthy singleton start takes well under a second. */
#define PROBE_TIMEOUT_S 60

/* How long the output of a failed probe is read after the child ended. */
#define PROBE_GRACE_S 5

/* What the probe keeps of the child's output: its last bytes, where the
 * reason is. */
#define PROBE_KEEP 65536

/* 0 when a folder can be made in dir, as the check's own mkdtemp and MPI's
 * session folder will be, else the errno. One is made and removed: the
 * permission bits alone do not say (root passes access() on a file system
 * that refuses every mkdir, as /sys does). */
static int usable_folder(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno;
    if (!S_ISDIR(st.st_mode))
        return ENOTDIR;
    char probe[PATH_MAX];
    if ((size_t)snprintf(probe, sizeof probe, "%s/heat2d-probe-XXXXXX", dir) >= sizeof probe)
        return ENAMETOOLONG;
    int slot;
    if (heat2d_cleanup_mkdtemp(probe, &slot) == NULL)
        return errno;
    rmdir(probe);
    heat2d_cleanup_forget(slot);
    return 0;
}

int check_tmpdir(const char **dir, heat2d_error *err)
{
    const char *tmpdir = getenv("TMPDIR");
    *dir = "/tmp";
    if (tmpdir == NULL || tmpdir[0] == '\0')
        return 0;
    const int rc = usable_folder(tmpdir);
    if (rc != 0)
        return heat2d_fail(err, "TMPDIR '%s' is not a usable directory: %s", tmpdir, strerror(rc));
    *dir = tmpdir;
    return 0;
}

/* The probe itself, in the child: mpi-cpu on 8x8 for one step, MPI started
 * and ended as the check's own runs do. Its failure is its last line. */
static void probe_child(const heat2d_method *m)
{
    heat2d_config cfg = {.nx = 8, .ny = 8, .steps = 1, .alpha = HEAT2D_ALPHA};
    heat2d_outcome out;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    heat2d_error err = {{0}};
    int rc = heat2d_run_method(m, &cfg, &out, storage, &field, &err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err.message);
    else
        heat2d_free_pair(storage[0], storage[1]);
    heat2d_process_finalize();
    fflush(NULL);
    _exit(rc == 0 ? 0 : 1);
}

/* A line that says something: not blank, not a rule of dashes, not
 * OpenMPI's "***" abort banner, not a "[host:pid] ..." log line (file and
 * line numbers of where the error passed, not what it was). */
static bool meaningful(const char *line, size_t len)
{
    bool word = false;
    for (size_t k = 0; k < len; ++k)
        word = word || isalnum((unsigned char)line[k]);
    return word && line[0] != '[' && strncmp(line, "***", len < 3 ? len : 3) != 0;
}

/* The reason in the child's output: its last meaningful line, joined to the
 * one before it when it is OpenMPI's "--> Returned ..." (which explains
 * that line). Trims blanks; text is modified. */
static bool last_reason(char *text, char *reason, size_t size)
{
    const char *last = NULL, *before = NULL;
    size_t last_len = 0, before_len = 0;
    for (char *line = text; *line != '\0';) {
        char *nl = strchr(line, '\n');
        char *next = nl ? nl + 1 : line + strlen(line);
        char *end = nl ? nl : next;
        while (line < end && isspace((unsigned char)*line))
            ++line;
        while (end > line && isspace((unsigned char)end[-1]))
            --end;
        if (meaningful(line, (size_t)(end - line))) {
            before = last;
            before_len = last_len;
            last = line;
            last_len = (size_t)(end - line);
        }
        line = next;
    }
    if (last == NULL)
        return false;
    if (strncmp(last, "-->", 3) == 0 && before != NULL) {
        last += 3;
        last_len -= 3;
        while (last_len > 0 && *last == ' ')
            ++last, --last_len;
        snprintf(reason, size, "%.*s: %.*s", (int)before_len, before, (int)last_len, last);
    } else {
        snprintf(reason, size, "%.*s", (int)last_len, last);
    }
    return true;
}

/* Appends what can be read from fd now to buf (used bytes of PROBE_KEEP),
 * keeping the last bytes when there is more. False at end of file. */
static bool drain(int fd, char *buf, size_t *used)
{
    char chunk[4096];
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0)
        return errno == EINTR || errno == EAGAIN;
    if (got == 0)
        return false;
    size_t n = (size_t)got;
    if (*used + n > PROBE_KEEP - 1) {
        size_t drop = *used + n - (PROBE_KEEP - 1);
        drop = drop < *used ? drop : *used;
        memmove(buf, buf + drop, *used - drop);
        *used -= drop;
    }
    size_t take = n < PROBE_KEEP - 1 - *used ? n : PROBE_KEEP - 1 - *used;
    memcpy(buf + *used, chunk + n - take, take);
    *used += take;
    return true;
}

int check_mpi_starts(const check_target *targets, size_t n, heat2d_error *err)
{
    const heat2d_method *m = NULL;
    for (size_t k = 0; k < n && m == NULL; ++k)
        if (targets[k].method->distributed)
            m = targets[k].method;
    if (m == NULL)
        return 0; /* no MPI method to check: nothing to start */
    /* mpi-cpu when there is one: a GPU method's own needs are not MPI's. */
    const heat2d_method *cpu = heat2d_method_find("mpi-cpu");
    m = cpu != NULL ? cpu : m;

    int fds[2];
    if (pipe(fds) != 0)
        return heat2d_fail(err, "MPI could not be probed: pipe: %s", strerror(errno));
    fflush(NULL); /* nothing buffered here is written twice by the child */
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return heat2d_fail(err, "MPI could not be probed: fork: %s", strerror(e));
    }
    if (pid == 0) {
        setpgid(0, 0);
#ifdef __linux__
        /* check killed before it registered the group below: the probe
         * dies with it all the same. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
#endif
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        probe_child(m);
    }
    close(fds[1]);
    /* A group of its own (and the daemon MPI may start from it), which a
     * signal that ends check ends too: no probe outlives it. */
    setpgid(pid, pid);
    heat2d_cleanup_process_group(pid);
    (void)fcntl(fds[0], F_SETFL, O_NONBLOCK);
    char *buf = malloc(PROBE_KEEP);
    if (buf == NULL) {
        close(fds[0]);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        heat2d_cleanup_process_group(0);
        return heat2d_fail(err, "MPI could not be probed: out of memory");
    }
    size_t used = 0;
    int status = 0;
    bool open_end = true, exited = false, timed_out = false;
    const double deadline = heat2d_now() + PROBE_TIMEOUT_S;
    /* Until the child ends, not the output: a daemon it started may hold
     * the pipe open after it. */
    while (!exited) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (open_end && poll(&p, 1, 50) > 0)
            open_end = drain(fds[0], buf, &used);
        else if (!open_end)
            usleep(50000);
        pid_t done = waitpid(pid, &status, WNOHANG);
        exited = done == pid || (done < 0 && errno != EINTR);
        if (!exited && heat2d_now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            exited = timed_out = true;
        }
    }
    /* A failure's reason may come after the child ended: OpenMPI's
     * singleton hands its messages to the daemon it started, which prints
     * them as it goes. Read on until the end of the output or a grace
     * period; a success needs none of it. */
    const bool failed = timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    const double grace = heat2d_now() + PROBE_GRACE_S;
    while (failed && open_end && heat2d_now() < grace) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (poll(&p, 1, 50) > 0)
            open_end = drain(fds[0], buf, &used);
    }
    heat2d_cleanup_process_group(0);
    close(fds[0]);
    buf[used] = '\0';

    int rc = 0;
    char reason[400];
    if (timed_out)
        rc = heat2d_fail(err, "MPI could not start: %s gave no answer in %d s", m->name,
                         PROBE_TIMEOUT_S);
    else if (!failed)
        rc = 0;
    else if (last_reason(buf, reason, sizeof reason))
        rc = heat2d_fail(err, "MPI could not start: %s", reason);
    else if (WIFSIGNALED(status))
        rc = heat2d_fail(err, "MPI could not start: %s was killed by signal %d (%s)", m->name,
                         WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        rc = heat2d_fail(err, "MPI could not start: %s exited with status %d", m->name,
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    free(buf);
    return rc;
}
