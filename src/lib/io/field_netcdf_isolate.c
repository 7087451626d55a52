/* heat2d's NetCDF reads, each in a child process that runs the reader
 * (netcdf_reader.h): a file that crashes or hangs the NetCDF library or
 * HDF5 ends that child, and heat2d says the file is not valid NetCDF. The
 * child answers with the field's shape first; the parent checks it against
 * the memory limit and the file's size before it allocates. Then the
 * values follow through the pipe, a slab at a time; or, where they lie in
 * the file as raw floats (heat2d's own uncompressed fields and records),
 * the child says where, and the parent reads them itself, held to the
 * file's size and to the reader's checks: one copy, as a read in process. */
#define _GNU_SOURCE
#include "netcdf_reader.h"
#include "netcdf_schema.h"
#include "write_lock.h"

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

/* Seconds a reader may go without answering, unless HEAT2D_NETCDF_TIMEOUT
 * says otherwise: a file on which the library loops is refused after
 * them. A slab takes milliseconds from a local disk. */
#define DEFAULT_STALL_S 30.0

enum answer_kind {
    ANSWER_SHAPE = 1,    /* nx, ny: the field's sides, before any value */
    ANSWER_VALUES = 2,   /* length doubles follow */
    ANSWER_PROGRESS = 3, /* a slab checked (heat2d plot's check keeps none) */
    ANSWER_EXTENT = 4,   /* the values are the raw run nx (offset), length (bytes a value) */
    ANSWER_DONE = 5,
    ANSWER_FAILED = 6, /* length bytes of message follow */
    ANSWER_STEP = 7,   /* a record of a series checked whole: its step is length */
    ANSWER_FACTS = 8,  /* a heat2d_netcdf_facts of length bytes follows, before the shape */
};

typedef struct answer {
    uint32_t kind, spare;
    uint64_t nx, ny, length;
    double fill; /* ANSWER_EXTENT: a cell never written holds it */
} answer;

/* ---- the child ---------------------------------------------------------------------------- */

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        const ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        p += put;
        n -= (size_t)put;
    }
    return 0;
}

static int send_answer(int fd, uint32_t kind, uint64_t nx, uint64_t ny, uint64_t length)
{
    answer a;
    memset(&a, 0, sizeof a); /* no byte of the child's memory but what it says */
    a.kind = kind;
    a.nx = nx;
    a.ny = ny;
    a.length = length;
    return write_all(fd, &a, sizeof a);
}

typedef struct child_sink {
    int fd;
    bool keep; /* send the values (a read), or only that a slab passed (a check) */
} child_sink;

static int child_shape(void *ctx, size_t nx, size_t ny, heat2d_error *err)
{
    const child_sink *c = ctx;
    return send_answer(c->fd, ANSWER_SHAPE, nx, ny, 0) == 0 ? 0 : heat2d_fail(err, "parent gone");
}

static int child_values(void *ctx, const double *values, size_t count, heat2d_error *err)
{
    const child_sink *c = ctx;
    const int rc = c->keep ? send_answer(c->fd, ANSWER_VALUES, 0, 0, count) == 0 &&
                                 write_all(c->fd, values, count * sizeof *values) == 0
                           : send_answer(c->fd, ANSWER_PROGRESS, 0, 0, 0) == 0;
    return rc ? 0 : heat2d_fail(err, "parent gone");
}

static int child_step(void *ctx, size_t step, heat2d_error *err)
{
    const child_sink *c = ctx;
    return send_answer(c->fd, ANSWER_STEP, 0, 0, step) == 0 ? 0 : heat2d_fail(err, "parent gone");
}

static int child_facts(void *ctx, const heat2d_netcdf_facts *facts, heat2d_error *err)
{
    const child_sink *c = ctx;
    return send_answer(c->fd, ANSWER_FACTS, 0, 0, sizeof *facts) == 0 &&
                   write_all(c->fd, facts, sizeof *facts) == 0
               ? 0
               : heat2d_fail(err, "parent gone");
}

static int child_extent(void *ctx, const netcdf_extent *extent, heat2d_error *err)
{
    const child_sink *c = ctx;
    answer a;
    memset(&a, 0, sizeof a);
    a.kind = ANSWER_EXTENT;
    a.nx = extent->offset;
    a.length = extent->bytes;
    a.fill = extent->fill;
    return write_all(c->fd, &a, sizeof a) == 0 ? 0 : heat2d_fail(err, "parent gone");
}

/* The child as a process of its own: the parent's signal handlers (which
 * remove its temporary files) are not its own, and a crash in the library
 * ends it by its signal; it dies with the parent. SIGPIPE and SIGXFSZ stay
 * ignored: a parent gone is a failed write. */
static void child_prepare(pid_t parent)
{
    for (int sig = 1; sig < 32; ++sig)
        if (sig != SIGKILL && sig != SIGSTOP && sig != SIGPIPE && sig != SIGXFSZ)
            signal(sig, SIG_DFL);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)
        _exit(1);
}

static _Noreturn void child_main(int fd, const netcdf_request *req, pid_t parent)
{
    child_prepare(parent);
    child_sink c = {fd, !req->check_only};
    const netcdf_sink sink = {child_shape, child_values, req->check_only ? NULL : child_extent,
                              &c,          child_step,   child_facts};
    heat2d_error err = {{0}};
    if (heat2d_nc_read_checked(req, &sink, &err) == 0) {
        send_answer(fd, ANSWER_DONE, 0, 0, 0);
    } else {
        const size_t length = strlen(err.message);
        if (send_answer(fd, ANSWER_FAILED, 0, 0, length) == 0)
            write_all(fd, err.message, length);
    }
    _exit(0);
}

/* ---- the parent --------------------------------------------------------------------------- */

typedef struct reader {
    pid_t pid;
    int fd;
    double stall_s;
    bool ended; /* waited for: status holds how it ended */
    bool stalled;
    int status;
    const char *path;
    uint64_t bytes; /* the file's size */
    /* A series checked whole: each record's step, in order (NULL: none). */
    int (*step)(void *ctx, size_t step, heat2d_error *err);
    void *step_ctx;
    heat2d_netcdf_facts *facts; /* what the file says, or NULL */
} reader;

/* n bytes from the child into buf: 0, or -1 when it ended, or went
 * stall_s without a byte, before they came. */
static int receive(reader *r, void *buf, size_t n)
{
    char *p = buf;
    double last = heat2d_now();
    while (n > 0) {
        const ssize_t got = read(r->fd, p, n);
        if (got > 0) {
            p += got;
            n -= (size_t)got;
            last = heat2d_now();
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        /* End of file, or ended and drained: another reader's child may
         * hold this pipe's end a while, so its end is asked for too. */
        if (got == 0 || errno != EAGAIN || r->ended)
            return -1;
        struct pollfd p_in = {.fd = r->fd, .events = POLLIN};
        if (poll(&p_in, 1, 100) == 0) {
            if (waitpid(r->pid, &r->status, WNOHANG) == r->pid)
                r->ended = true;
            else if (heat2d_now() - last > r->stall_s)
                return r->stalled = true, -1;
        }
    }
    return 0;
}

/* The child killed, unless it ended, and waited for. */
static void stop_child(reader *r)
{
    if (r->ended)
        return;
    kill(r->pid, SIGKILL);
    while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR) {
    }
    r->ended = true;
}

/* The child ended (killed first, unless it did), and why the file is
 * refused, from how. */
static int child_failed(reader *r, heat2d_error *err)
{
    stop_child(r);
    const char *what = "not a valid NetCDF file";
    if (r->stalled)
        return heat2d_fail(err,
                           "cannot read field file '%s': %s (the NetCDF library made no "
                           "progress on it in %g s)",
                           r->path, what, r->stall_s);
    if (WIFSIGNALED(r->status))
        return heat2d_fail(err,
                           "cannot read field file '%s': %s (the NetCDF library crashed "
                           "reading it: %s)",
                           r->path, what, strsignal(WTERMSIG(r->status)));
    if (WIFEXITED(r->status) && WEXITSTATUS(r->status) != 0)
        return heat2d_fail(err,
                           "cannot read field file '%s': %s (its reader exited with "
                           "status %d)",
                           r->path, what, WEXITSTATUS(r->status));
    return heat2d_fail(err, "cannot read field file '%s': %s (its reader answered out of turn)",
                       r->path, what);
}

/* The child's last answer given: it exits, with 0 (anything else, a
 * finding of a checker it runs under, is a failure). */
static int child_done(reader *r, heat2d_error *err)
{
    const double start = heat2d_now();
    while (!r->ended && heat2d_now() - start < r->stall_s) {
        if (waitpid(r->pid, &r->status, WNOHANG) == r->pid)
            r->ended = true;
        else
            usleep(1000);
    }
    if (r->ended && WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0)
        return 0;
    r->stalled = !r->ended;
    return child_failed(r, err);
}

/* The child's refusal, in its words (one line: heat2d_fail escapes). */
static int child_refused(reader *r, const answer *a, heat2d_error *err)
{
    char text[sizeof err->message];
    if (a->length >= sizeof text || receive(r, text, a->length) != 0)
        return child_failed(r, err);
    text[a->length] = '\0';
    heat2d_error said;
    heat2d_fail(&said, "%s", text);
    if (child_done(r, err) != 0)
        return -1;
    *err = said;
    return -1;
}

/* The shape the child claims, held to the reader's own limits before
 * anything is allocated for it: a child the file subverted says anything. */
static bool shape_fits(const reader *r, const answer *a)
{
    const char *source;
    const uint64_t limit = heat2d_memory_limit(&source);
    return a->nx >= HEAT2D_MIN_SIDE && a->ny >= HEAT2D_MIN_SIDE &&
           a->nx <= (SIZE_MAX / sizeof(double)) / a->ny &&
           (limit == 0 || a->nx * a->ny * sizeof(double) <= limit) &&
           a->nx * a->ny <= heat2d_nc_capacity(r->bytes, HEAT2D_NC_MAX_RATIO, 1);
}

/* The raw run the child pointed at, read into the field and held to the
 * reader's checks; its place is held to the file's size first (the file
 * opened anew: the parent never asks the library). */
static int read_extent(reader *r, const netcdf_request *req, const answer *a, heat2d_field *field,
                       heat2d_error *err)
{
    const size_t cells = field->nx * field->ny, bytes = (size_t)a->length;
    const int fd = open(r->path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (bytes != 4 && bytes != 8) ||
        a->nx > (uint64_t)st.st_size || cells > ((uint64_t)st.st_size - a->nx) / bytes) {
        if (fd >= 0)
            close(fd);
        return child_failed(r, err);
    }
    /* A float run goes to the upper half, and widens in place from the
     * front: each double lands on floats already read. */
    char *to = (char *)field->values + (bytes == 4 ? cells * 4 : 0);
    size_t done = 0;
    while (done < cells * bytes) {
        const ssize_t got = pread(fd, to + done, cells * bytes - done, (off_t)(a->nx + done));
        if (got <= 0 && !(got < 0 && errno == EINTR)) {
            const int e = got < 0 ? errno : EIO;
            close(fd);
            child_failed(r, err);
            return heat2d_fail(err, "cannot read field file '%s': %s", r->path, strerror(e));
        }
        done += got > 0 ? (size_t)got : 0;
    }
    close(fd);
    if (bytes == 4)
        for (size_t k = 0; k < cells; ++k) {
            float value;
            memcpy(&value, to + k * 4, sizeof value);
            field->values[k] = value;
        }
    return heat2d_nc_check_values(req, field->values, cells, field->nx, 0, a->fill, err);
}

/* The facts the child read, held to what they can be (a child the file
 * subverted says anything): numbers finite and positive or 0, the text
 * ended. */
static int receive_facts(reader *r, const answer *a, heat2d_error *err)
{
    heat2d_netcdf_facts got;
    if (a->length != sizeof got || receive(r, &got, sizeof got) != 0)
        return child_failed(r, err);
    double *numbers[] = {&got.alpha, &got.dx, &got.dt, &got.diffusivity, &got.spacing};
    for (size_t k = 0; k < sizeof numbers / sizeof *numbers; ++k)
        if (!(*numbers[k] > 0.0) || !(*numbers[k] < 1e300))
            *numbers[k] = 0.0;
    got.heat2d = got.heat2d != 0;
    got.has_precision = got.has_precision != 0;
    got.precision = got.precision == HEAT2D_F32 ? HEAT2D_F32 : HEAT2D_F64;
    got.has_step = got.has_step != 0;
    got.flip_x = got.flip_x != 0;
    got.flip_y = got.flip_y != 0;
    got.time_units[sizeof got.time_units - 1] = '\0';
    if (r->facts != NULL)
        *r->facts = got;
    return 0;
}

/* The child's answers until its last: the values into field (NULL for a
 * check, which gets none). */
static int converse(reader *r, const netcdf_request *req, heat2d_field *field, heat2d_error *err)
{
    size_t cells = 0, filled = 0;
    for (;;) {
        answer a;
        if (receive(r, &a, sizeof a) != 0)
            return child_failed(r, err);
        if (a.kind == ANSWER_FAILED)
            return child_refused(r, &a, err);
        if (a.kind == ANSWER_DONE && cells == filled && (field == NULL || cells > 0))
            return child_done(r, err);
        if (a.kind == ANSWER_PROGRESS && field == NULL)
            continue;
        if (a.kind == ANSWER_FACTS && cells == 0) {
            if (receive_facts(r, &a, err) != 0)
                return -1;
            continue;
        }
        if (a.kind == ANSWER_STEP && field == NULL && cells == 0) {
            if (r->step != NULL && r->step(r->step_ctx, (size_t)a.length, err) != 0) {
                stop_child(r);
                return -1;
            }
            continue;
        }
        if (a.kind == ANSWER_SHAPE && cells == 0 && shape_fits(r, &a)) {
            cells = (size_t)(a.nx * a.ny);
            filled = field == NULL ? cells : 0;
            if (field == NULL)
                continue;
            field->values = malloc(cells * sizeof(double));
            if (field->values == NULL) {
                child_failed(r, err);
                return heat2d_fail(err, "%s: cannot allocate %llux%llu values", r->path,
                                   (unsigned long long)a.nx, (unsigned long long)a.ny);
            }
            heat2d_advise_huge_pages(field->values, cells * sizeof(double));
            field->nx = (size_t)a.nx;
            field->ny = (size_t)a.ny;
            continue;
        }
        if (a.kind == ANSWER_VALUES && field != NULL && cells > 0 && a.length <= cells - filled &&
            receive(r, field->values + filled, a.length * sizeof(double)) == 0) {
            filled += a.length;
            continue;
        }
        if (a.kind == ANSWER_EXTENT && field != NULL && cells > 0 && filled == 0) {
            if (read_extent(r, req, &a, field, err) != 0) {
                stop_child(r); /* its last answer is not waited for */
                return -1;
            }
            filled = cells;
            continue;
        }
        return child_failed(r, err);
    }
}

/* HEAT2D_NETCDF_TIMEOUT, else the default. */
static int stall_limit(double *seconds, heat2d_error *err)
{
    const char *text = getenv("HEAT2D_NETCDF_TIMEOUT");
    *seconds = DEFAULT_STALL_S;
    if (text != NULL &&
        (heat2d_parse_nonneg_real(text, "HEAT2D_NETCDF_TIMEOUT", seconds, NULL) != 0 ||
         *seconds <= 0.0))
        return heat2d_fail(
            err, "HEAT2D_NETCDF_TIMEOUT must be a positive number of seconds, got '%s'", text);
    return 0;
}

/* The child started, reading req into the pipe r->fd. */
static int start(reader *r, const netcdf_request *req, heat2d_error *err)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return heat2d_fail(err, "cannot read field file '%s': %s", r->path, strerror(errno));
#ifdef F_SETPIPE_SZ
    (void)fcntl(fds[0], F_SETPIPE_SZ, 1 << 20); /* fewer wake-ups for the values */
#endif
    const pid_t parent = getpid();
    /* No thread is inside the library (a writer's) while it is copied. */
    heat2d_nc_lock();
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child_main(fds[1], req, parent);
    }
    const int e = errno;
    heat2d_nc_unlock();
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return heat2d_fail(err, "cannot read field file '%s': %s", r->path, strerror(e));
    }
    (void)fcntl(fds[0], F_SETFL, O_NONBLOCK);
    r->pid = pid;
    r->fd = fds[0];
    return 0;
}

/* spec read (field) or checked (field NULL, each record's step of a
 * series checked whole to step()) in a child process. */
static int isolated(const char *spec, heat2d_field *field,
                    int (*step)(void *ctx, size_t step, heat2d_error *err), void *step_ctx,
                    heat2d_netcdf_facts *facts, heat2d_error *err)
{
    heat2d_netcdf_spec parsed;
    const int kind = heat2d_netcdf_spec_parse(spec, &parsed, err);
    if (kind < 0)
        return -1;
    if (kind == 0 &&
        snprintf(parsed.file, sizeof parsed.file, "%s", spec) >= (int)sizeof parsed.file)
        return heat2d_fail(err, "cannot open field file '%s': %s", spec, strerror(ENAMETOOLONG));
    const char *path = parsed.file;
    /* A missing or unreadable file in the system's words, as for a text
     * field. */
    struct stat st;
    if (stat(path, &st) != 0 || access(path, R_OK) != 0)
        return heat2d_fail(err, "cannot open field file '%s': %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(EISDIR));
    if (!S_ISREG(st.st_mode))
        return heat2d_fail(err, "cannot read field file '%s': not a regular file", path);
    /* A series another heat2d run is writing: HDF5's own lock would say only
     * "HDF error". */
    heat2d_error held = {{0}};
    if (heat2d_write_lock_check(path, &held) != 0)
        return heat2d_fail(err, "cannot read field file '%s': %s; wait for it", spec, held.message);
    reader r = {.fd = -1,
                .path = path,
                .bytes = (uint64_t)st.st_size,
                .step = step,
                .step_ctx = step_ctx,
                .facts = facts};
    if (stall_limit(&r.stall_s, err) != 0)
        return -1;
    const netcdf_request req = {.path = path,
                                .spec = spec,
                                .record = parsed.record,
                                .step = parsed.step,
                                .check_only = field == NULL,
                                .var = parsed.var};
    if (start(&r, &req, err) != 0)
        return -1;
    const int rc = converse(&r, &req, field, err);
    close(r.fd);
    return rc;
}

int heat2d_netcdf_read_facts(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                             heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    if (facts != NULL)
        memset(facts, 0, sizeof *facts);
    const int rc = isolated(spec, field, NULL, NULL, facts, err);
    if (rc != 0)
        heat2d_field_free(field);
    return rc;
}

int heat2d_netcdf_read(const char *spec, heat2d_field *field, heat2d_error *err)
{
    return heat2d_netcdf_read_facts(spec, field, NULL, err);
}

int heat2d_netcdf_check(const char *spec, heat2d_error *err)
{
    return isolated(spec, NULL, NULL, NULL, NULL, err);
}

int heat2d_netcdf_check_steps(const char *spec,
                              int (*step)(void *ctx, size_t step, heat2d_error *err), void *ctx,
                              heat2d_error *err)
{
    return isolated(spec, NULL, step, ctx, NULL, err);
}
