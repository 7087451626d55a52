/* Whether MPI starts here: the build's MPI method on a tiny grid in a
 * child process, whose output is read for the reason when it fails. The
 * process that asks never starts MPI itself, so a failure costs it
 * nothing. */
#define _GNU_SOURCE
#include "mpi_probe.h"
#include "process.h"
#include "process_guard.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
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

const heat2d_method *heat2d_mpi_probe_method(void)
{
    const heat2d_method *first = NULL;
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        if (!m->distributed)
            continue;
        if (!m->gpu_only)
            return m; /* a GPU method's own needs are not MPI's */
        first = first != NULL ? first : m;
    }
    return first;
}

/* The probe itself, in the child: the method on 8x8 for one step, MPI
 * started and ended as a run does. Its failure is its last line. */
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
 * that line), blanks trimmed. */
static bool last_reason(const char *text, char *reason, size_t size)
{
    const char *last = NULL, *before = NULL;
    size_t last_len = 0, before_len = 0;
    for (const char *line = text; *line != '\0';) {
        const char *nl = strchr(line, '\n');
        const char *next = nl ? nl + 1 : line + strlen(line);
        const char *end = nl ? nl : next;
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

/* The child's output into buf until it ends (PROBE_TIMEOUT_S at most,
 * then killed) and, when it failed, a grace period after; its wait status
 * in *status. */
static void watch_child(pid_t pid, int fd, char *buf, size_t *used, int *status, bool *timed_out)
{
    (void)fcntl(fd, F_SETFL, O_NONBLOCK);
    bool open_end = true, exited = false;
    *timed_out = false;
    const double deadline = heat2d_now() + PROBE_TIMEOUT_S;
    /* Until the child ends, not the output: a daemon it started may hold
     * the pipe open after it. */
    while (!exited) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (open_end && poll(&p, 1, 50) > 0)
            open_end = drain(fd, buf, used);
        else if (!open_end)
            usleep(50000);
        pid_t done = waitpid(pid, status, WNOHANG);
        exited = done == pid || (done < 0 && errno != EINTR);
        if (!exited && heat2d_now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, status, 0);
            exited = *timed_out = true;
        }
    }
    /* A failure's reason may come after the child ended: OpenMPI's
     * singleton hands its messages to the daemon it started, which prints
     * them as it goes. Read on until the end of the output or a grace
     * period; a success needs none of it. */
    const bool failed = *timed_out || !WIFEXITED(*status) || WEXITSTATUS(*status) != 0;
    const double grace = heat2d_now() + PROBE_GRACE_S;
    while (failed && open_end && heat2d_now() < grace) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 50) > 0)
            open_end = drain(fd, buf, used);
    }
    buf[*used] = '\0';
}

/* The child started, its output and end watched; false with p's reason
 * when it could not be started. */
static bool run_child(const heat2d_method *m, char *buf, size_t *used, int *status, bool *timed_out,
                      heat2d_mpi_probe *p)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(p->reason, sizeof p->reason, "it could not be tried: pipe: %s", strerror(errno));
        return false;
    }
    fflush(NULL); /* nothing buffered here is written twice by the child */
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(p->reason, sizeof p->reason, "it could not be tried: fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        setpgid(0, 0);
#ifdef __linux__
        /* The asker killed before it registered the group below: the
         * probe dies with it all the same. */
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
     * signal that ends this process ends too: no probe outlives it. */
    setpgid(pid, pid);
    heat2d_cleanup_process_group(pid);
    watch_child(pid, fds[0], buf, used, status, timed_out);
    heat2d_cleanup_process_group(0);
    close(fds[0]);
    return true;
}

/* What to do: OpenMPI starts a daemon even for a single process (a
 * singleton's orted), through its remote launcher, which needs ssh or rsh
 * on PATH unless told to start it in place (plm isolated); its report then
 * names the launcher's agent (plm_rsh_agent, plm_ssh_agent in PRRTE) or
 * the component that failed (plm/rsh, plm/ssh). Anything else: MPI's own
 * report, which a run prints whole. */
static void fix_for(const char *output, const heat2d_method *m, char *fix, size_t size)
{
    static const char *const remote_launcher[] = {"plm_rsh_agent", "plm_ssh_agent", "plm/rsh",
                                                  "plm/ssh"};
    for (size_t k = 0; k < sizeof remote_launcher / sizeof remote_launcher[0]; ++k)
        if (strstr(output, remote_launcher[k]) != NULL) {
            snprintf(fix, size, "with OpenMPI and no ssh/rsh, set OMPI_MCA_plm=isolated");
            return;
        }
    snprintf(fix, size,
             "`heat2d run --method %s --nx 8 --ny 8 --steps 1` prints MPI's whole report", m->name);
}

/* Why the child failed, from its output and how it ended, into p's
 * reason and fix. */
static void describe_failure(const heat2d_method *m, const char *text, int status, bool timed_out,
                             heat2d_mpi_probe *p)
{
    fix_for(text, m, p->fix, sizeof p->fix);
    if (timed_out)
        snprintf(p->reason, sizeof p->reason, "%s gave no answer in %d s", m->name,
                 PROBE_TIMEOUT_S);
    else if (!last_reason(text, p->reason, sizeof p->reason) && WIFSIGNALED(status))
        snprintf(p->reason, sizeof p->reason, "%s was killed by signal %d (%s)", m->name,
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (p->reason[0] == '\0')
        snprintf(p->reason, sizeof p->reason, "%s exited with status %d", m->name,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void probe_once(heat2d_mpi_probe *p)
{
    *p = (heat2d_mpi_probe){.starts = true};
    const heat2d_method *m = heat2d_mpi_probe_method();
    if (m == NULL)
        return; /* no MPI method: nothing to start */
    p->starts = false;
    char *buf = malloc(PROBE_KEEP);
    size_t used = 0;
    int status = 0;
    bool timed_out = false;
    if (buf == NULL) {
        snprintf(p->reason, sizeof p->reason, "it could not be tried: out of memory");
        fix_for("", m, p->fix, sizeof p->fix);
    } else if (!run_child(m, buf, &used, &status, &timed_out, p)) {
        fix_for("", m, p->fix, sizeof p->fix);
    } else {
        p->starts = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (!p->starts)
            describe_failure(m, buf, status, timed_out, p);
    }
    free(buf);
}

void heat2d_mpi_probe_run(heat2d_mpi_probe *p)
{
    static heat2d_mpi_probe answer;
    static bool asked = false;
    if (!asked) {
        probe_once(&answer);
        asked = true;
    }
    *p = answer;
}

void heat2d_mpi_skip_text(const heat2d_mpi_probe *p, const char *names, char *buf, size_t size)
{
    snprintf(buf, size, "MPI could not start (%s): the MPI methods (%s) are skipped; %s", p->reason,
             names, p->fix);
}
