/* heat2d bench: running a child process and reading what `heat2d run`
 * printed. */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *const bench_key_names[BK_COUNT] = {
    [BK_TOTAL_S] = "TOTAL_S",
    [BK_MASS] = "MASS",
    [BK_CENTRE] = "CENTRE",
    [BK_ENTER_S] = "ENTER_S",
    [BK_GPU_LOOP_S] = "GPU_LOOP_S",
    [BK_READBACK_S] = "READBACK_S",
    [BK_EXIT_S] = "EXIT_S",
    [BK_STEP_REGIONS_S] = "STEP_REGIONS_S",
    [BK_CPU_LOOP_S] = "CPU_LOOP_S",
    [BK_DEVICE] = "DEVICE",
    [BK_H2D_COUNT] = "H2D_COUNT",
    [BK_H2D_BYTES] = "H2D_BYTES",
    [BK_D2H_COUNT] = "D2H_COUNT",
    [BK_D2H_BYTES] = "D2H_BYTES",
    [BK_H2D_S] = "H2D_S",
    [BK_D2H_S] = "D2H_S",
    [BK_CONTEXT_S] = "CONTEXT_S",
    [BK_DEVICE_LOOP_S] = "DEVICE_LOOP_S",
    [BK_GCELLS_PER_S] = "GCELLS_PER_S",
    [BK_TRANSFERS] = "TRANSFERS",
    [BK_RANKS] = "RANKS",
    [BK_DECOMP] = "DECOMP",
    [BK_HALO_BYTES_PER_STEP] = "HALO_BYTES_PER_STEP",
    [BK_PRECISION] = "PRECISION",
};

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

/* ---- parsing ------------------------------------------------------------- */

static bool is_text_key(bench_key k)
{
    return k == BK_DEVICE || k == BK_TRANSFERS || k == BK_DECOMP || k == BK_PRECISION;
}

static bool is_count_key(bench_key k)
{
    return k == BK_H2D_COUNT || k == BK_H2D_BYTES || k == BK_D2H_COUNT || k == BK_D2H_BYTES ||
           k == BK_RANKS || k == BK_HALO_BYTES_PER_STEP;
}

static void trim(const char **begin, const char **end)
{
    while (*begin < *end && (**begin == ' ' || **begin == '\t'))
        (*begin)++;
    while (*end > *begin && ((*end)[-1] == ' ' || (*end)[-1] == '\t' || (*end)[-1] == '\r'))
        (*end)--;
}

static int check_size(const char *key, const char *value, size_t want, heat2d_error *err)
{
    size_t got = 0;
    if (value[0] == '\0')
        return 0; /* older children may not print it; nothing to compare */
    if (heat2d_parse_size(value, key, &got, NULL) != 0 || got != want)
        return heat2d_fail(err, "it reported %s=%s, asked for %zu", key, value, want);
    return 0;
}

int bench_parse_run(const char *text, size_t nx, size_t ny, size_t steps, bench_result *res,
                    heat2d_error *err)
{
    memset(res, 0, sizeof *res);
    char check[32] = "", got_nx[32] = "", got_ny[32] = "", got_steps[32] = "";
    const char *line = text;
    while (*line != '\0') {
        const char *eol = strchr(line, '\n');
        if (eol == NULL)
            eol = line + strlen(line);
        const char *eq = memchr(line, '=', (size_t)(eol - line));
        if (eq != NULL) {
            const char *kb = line, *ke = eq, *vb = eq + 1, *ve = eol;
            trim(&kb, &ke);
            trim(&vb, &ve);
            size_t klen = (size_t)(ke - kb), vlen = (size_t)(ve - vb);
            char *slot = NULL;
            size_t slot_size = 0;
            for (size_t k = 0; k < BK_COUNT; ++k)
                if (strlen(bench_key_names[k]) == klen &&
                    memcmp(bench_key_names[k], kb, klen) == 0) {
                    slot = res->value[k];
                    slot_size = sizeof res->value[k];
                }
            if (klen == 5 && memcmp(kb, "CHECK", 5) == 0)
                slot = check, slot_size = sizeof check;
            else if (klen == 2 && memcmp(kb, "NX", 2) == 0)
                slot = got_nx, slot_size = sizeof got_nx;
            else if (klen == 2 && memcmp(kb, "NY", 2) == 0)
                slot = got_ny, slot_size = sizeof got_ny;
            else if (klen == 5 && memcmp(kb, "STEPS", 5) == 0)
                slot = got_steps, slot_size = sizeof got_steps;
            if (slot != NULL) {
                if (vlen >= slot_size)
                    vlen = slot_size - 1;
                memcpy(slot, vb, vlen);
                slot[vlen] = '\0';
            }
        }
        line = *eol == '\n' ? eol + 1 : eol;
    }

    if (strcmp(check, "PASS") != 0)
        return heat2d_fail(err, "no CHECK=PASS in its output");
    if (check_size("NX", got_nx, nx, err) != 0 || check_size("NY", got_ny, ny, err) != 0 ||
        check_size("STEPS", got_steps, steps, err) != 0)
        return -1;
    for (size_t k = 0; k < BK_COUNT; ++k) {
        const char *v = res->value[k];
        if (v[0] == '\0' || is_text_key((bench_key)k))
            continue;
        char *end = NULL;
        errno = 0;
        if (is_count_key((bench_key)k)) {
            if (v[0] == '-' || (strtoull(v, &end, 10), errno != 0) || *end != '\0')
                return heat2d_fail(err, "%s=%s is not a count", bench_key_names[k], v);
        } else {
            double x = strtod(v, &end);
            if (*end != '\0' || !isfinite(x))
                return heat2d_fail(err, "%s=%s is not a finite number", bench_key_names[k], v);
        }
    }
    if (res->value[BK_TOTAL_S][0] == '\0')
        return heat2d_fail(err, "no TOTAL_S in its output");
    res->total_s = strtod(res->value[BK_TOTAL_S], NULL);
    if (res->total_s < 0.0)
        return heat2d_fail(err, "negative TOTAL_S=%s", res->value[BK_TOTAL_S]);
    return 0;
}
