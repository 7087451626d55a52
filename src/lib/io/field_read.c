/* Reading a field file: read() in chunks (never mapped: a file cut short
 * under a mapping is a SIGBUS), the header then one value a line, checked as
 * the original's Python reader checks them. The header bounds everything
 * else: no line is longer than HEAT2D_FIELD_MAX_LINE, so a file of nx*ny
 * values has a most bytes it can be, and memory is the values alone plus one
 * chunk. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE, where there are */

#include "heat2d.h"
#include "file_replace.h"
#include "real_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes one read() asks for: large enough that the copy out of the page
 * cache costs little beside the parsing, small beside any field worth
 * reading fast. */
#define CHUNK_BYTES ((size_t)1 << 20)

/* A header token as Python's int() reads it (sign, digits): its value
 * when it fits, and its canonical decimal text for messages either way. */
typedef struct header_int {
    bool negative;
    bool overflow;
    uint64_t magnitude;
    char text[32]; /* canonical, or the digits cut short with "..." */
} header_int;

static bool parse_header_int(const char *p, const char *end, header_int *h)
{
    memset(h, 0, sizeof *h);
    if (p < end && (*p == '+' || *p == '-')) {
        h->negative = *p == '-';
        ++p;
    }
    if (p == end)
        return false;
    for (const char *c = p; c < end; ++c)
        if (!is_digit(*c))
            return false;
    while (p + 1 < end && *p == '0')
        ++p; /* leading zeros: int("007") is 7 */
    for (const char *c = p; c < end; ++c) {
        unsigned d = (unsigned)(*c - '0');
        if (h->magnitude > (UINT64_MAX - d) / 10u)
            h->overflow = true;
        else
            h->magnitude = h->magnitude * 10u + d;
    }
    if (h->magnitude == 0 && !h->overflow)
        h->negative = false; /* int("-0") is 0 */
    size_t n = (size_t)(end - p);
    if (n > 24)
        snprintf(h->text, sizeof h->text, "%s%.20s...", h->negative ? "-" : "", p);
    else
        snprintf(h->text, sizeof h->text, "%s%.*s", h->negative ? "-" : "", (int)n, p);
    return true;
}

static bool is_line_end(char c)
{
    return c == '\n' || c == '\r';
}

/* Past one line terminator: \n, \r\n or a lone \r, as Python's universal
 * newlines reads them. */
static const char *skip_line_end(const char *p, const char *end)
{
    if (p < end && *p == '\r') {
        ++p;
        if (p < end && *p == '\n')
            ++p;
    } else if (p < end && *p == '\n') {
        ++p;
    }
    return p;
}

/* What is known of a field while it is read. */
typedef struct field_scan {
    const char *name;
    size_t nx, ny, n;
    double *values;
    size_t capacity;  /* values allocated */
    bool grow;        /* a stream: values grow as they come, up to n */
    bool stop_past_n; /* a stream: the first value past n ends the read */
    size_t count;     /* values seen, stored or not */
    uintmax_t line;   /* the next line's number, 1-based */
    /* This process's memory limit, read at the first reserve (reading it
     * walks /proc and /sys; a stream's values grow in many steps). */
    bool limit_known;
    uint64_t limit;
    const char *limit_source;
} field_scan;

/* Room for `cells` values, refused when more than this process may hold
 * (the field needs them all in the end, so this is refused as early as it
 * is known). */
static int reserve(field_scan *fs, size_t cells, heat2d_error *err)
{
    if (!fs->limit_known) {
        fs->limit = heat2d_memory_limit(&fs->limit_source);
        fs->limit_known = true;
    }
    if (fs->limit != 0 && (uint64_t)cells * sizeof(double) > fs->limit) {
        char text[128];
        return heat2d_fail(
            err, "%s: %zux%zu values need %.3g GB, more than %s", fs->name, fs->nx, fs->ny,
            (double)fs->n * sizeof(double) / 1e9,
            heat2d_memory_limit_text(text, sizeof text, fs->limit, fs->limit_source));
    }
    double *bigger = realloc(fs->values, cells * sizeof(double));
    if (bigger == NULL)
        return heat2d_fail(err, "%s: cannot allocate %zux%zu values", fs->name, fs->nx, fs->ny);
    if (fs->values == NULL)
        heat2d_advise_huge_pages(bigger, cells * sizeof(double));
    fs->values = bigger;
    fs->capacity = cells;
    return 0;
}

/* A failure in the line from `start`: reported as too long when it is (its
 * end may lie past what was parsed), else as `what`. */
static int line_fail(const field_scan *fs, const char *start, const char *end, const char *what,
                     heat2d_error *err)
{
    size_t room = (size_t)(end - start);
    size_t len = 0;
    while (len < room && len <= HEAT2D_FIELD_MAX_LINE && !is_line_end(start[len]))
        ++len;
    if (len > HEAT2D_FIELD_MAX_LINE)
        return heat2d_fail(err, "%s:%ju: line longer than %d bytes (not a field file)", fs->name,
                           fs->line, HEAT2D_FIELD_MAX_LINE);
    return heat2d_fail(err, "%s:%ju: %s", fs->name, fs->line, what);
}

/* Parses the value lines of [p, end), each complete (its terminator within,
 * or the end of the file), storing the first n values and counting them
 * all, as the original reads every line before it checks the count. */
static int scan_values(field_scan *fs, const char *p, const char *end, heat2d_error *err)
{
    while (p < end) {
        const char *start = p;
        while (p < end && is_blank(*p))
            ++p;
        if (p == end || is_line_end(*p))
            return line_fail(fs, start, end, "empty numeric line", err);
        double v;
        const char *stop = scan_number(p, end, &v);
        if (stop) {
            p = stop;
            while (p < end && is_blank(*p))
                ++p;
        }
        if (!stop || (p < end && !is_line_end(*p)))
            return line_fail(fs, start, end, "invalid number", err);
        if (!isfinite(v))
            return line_fail(fs, start, end, "non-finite value", err);
        if ((size_t)(p - start) > HEAT2D_FIELD_MAX_LINE)
            return line_fail(fs, start, end, "", err);
        if (fs->count < fs->capacity) {
            fs->values[fs->count] = v;
        } else if (fs->grow && fs->count < fs->n) {
            size_t more = fs->capacity == 0 ? 8192 : fs->capacity * 2;
            if (reserve(fs, more < fs->n ? more : fs->n, err) != 0)
                return -1;
            fs->values[fs->count] = v;
        } else if (fs->stop_past_n && fs->count >= fs->n) {
            /* A stream cannot be counted to its end, which may never come:
             * one value more cannot match the header. */
            return heat2d_fail(err, "%s:%ju: more values than its %zux%zu header gives (%zu)",
                               fs->name, fs->line, fs->nx, fs->ny, fs->n);
        }
        ++fs->count;
        p = skip_line_end(p, end);
        ++fs->line;
    }
    return 0;
}

/* The header line [data, header_end): two whitespace-separated tokens, as
 * str.split() finds them, each an integer >= HEAT2D_MIN_SIDE. */
static int parse_header(field_scan *fs, const char *data, const char *header_end, heat2d_error *err)
{
    if ((size_t)(header_end - data) > HEAT2D_FIELD_MAX_LINE)
        return heat2d_fail(err, "%s:1: line longer than %d bytes (not a field file)", fs->name,
                           HEAT2D_FIELD_MAX_LINE);
    const char *tok[3][2];
    int ntok = 0;
    for (const char *p = data; p < header_end;) {
        while (p < header_end && is_blank(*p))
            ++p;
        if (p == header_end)
            break;
        const char *start = p;
        while (p < header_end && !is_blank(*p))
            ++p;
        if (ntok == 3)
            break;
        tok[ntok][0] = start;
        tok[ntok][1] = p;
        ++ntok;
    }
    if (ntok != 2)
        return heat2d_fail(err, "%s: invalid nx/ny header", fs->name);
    header_int hx, hy;
    if (!parse_header_int(tok[0][0], tok[0][1], &hx) ||
        !parse_header_int(tok[1][0], tok[1][1], &hy))
        return heat2d_fail(err, "%s: non-integer dimensions", fs->name);
    if ((hx.negative || (!hx.overflow && hx.magnitude < HEAT2D_MIN_SIDE)) ||
        (hy.negative || (!hy.overflow && hy.magnitude < HEAT2D_MIN_SIDE)))
        return heat2d_fail(err, "%s: too small dimensions %sx%s", fs->name, hx.text, hy.text);
    if (hx.overflow || hy.overflow || hx.magnitude > SIZE_MAX || hy.magnitude > SIZE_MAX ||
        hx.magnitude > (SIZE_MAX / sizeof(double)) / hy.magnitude)
        return heat2d_fail(err, "%s: dimensions %sx%s too large (nx*ny overflows)", fs->name,
                           hx.text, hy.text);
    fs->nx = (size_t)hx.magnitude;
    fs->ny = (size_t)hy.magnitude;
    fs->n = fs->nx * fs->ny;
    fs->line = 2;
    return 0;
}

/* Storage for the values once the header is read. size: the whole input's
 * bytes when known (a regular file, a buffer), header_bytes of them the
 * header's; a size the header cannot account for is refused before any
 * value is read. Every value line but the last takes at least two bytes,
 * so the size also bounds the count: a header asking for more is not
 * trusted with an allocation, and the lines are still read for the
 * original's message. Unknown size (a pipe, a device): values grow as they
 * come, and the first one past n ends the read. */
static int prepare_values(field_scan *fs, bool size_known, uintmax_t size, uintmax_t header_bytes,
                          heat2d_error *err)
{
    if (!size_known) {
        fs->grow = fs->stop_past_n = true;
        return 0;
    }
    const uintmax_t per_line = HEAT2D_FIELD_MAX_LINE + 2; /* the longest, with \r\n */
    if (fs->n <= (UINTMAX_MAX - header_bytes) / per_line && size > header_bytes + fs->n * per_line)
        return heat2d_fail(err,
                           "%s: %ju bytes, more than a %zux%zu field file can hold (at most %ju)",
                           fs->name, size, fs->nx, fs->ny, header_bytes + fs->n * per_line);
    uintmax_t most = (size - header_bytes + 1u) / 2u;
    if (fs->n <= most)
        return reserve(fs, fs->n, err);
    return 0;
}

/* The end of [data, data+size)'s complete lines: just past the last line
 * terminator, where a \r that ends the data is not yet one (a \n may
 * follow in the next chunk); data itself when there is none. */
static size_t complete_lines(const char *data, size_t size)
{
    size_t k = size;
    if (k > 0 && data[k - 1] == '\r')
        --k;
    while (k > 0 && !is_line_end(data[k - 1]))
        --k;
    return k;
}

static int finish(field_scan *fs, heat2d_field *field, heat2d_error *err)
{
    if (fs->count != fs->n)
        return heat2d_fail(err, "%s: expected %zu values, found %zu", fs->name, fs->n, fs->count);
    field->nx = fs->nx;
    field->ny = fs->ny;
    field->values = fs->values;
    fs->values = NULL;
    return 0;
}

int heat2d_field_parse(const char *path, const char *data, size_t size, heat2d_field *field,
                       heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    if (data == NULL) {
        if (size != 0)
            return heat2d_fail(err, "%s: no data", path);
        data = ""; /* NULL + 0 is not a pointer sum C allows */
    }
    const char *end = data + size;
    const char *header_end = data;
    while (header_end < end && !is_line_end(*header_end))
        ++header_end;
    field_scan fs = {.name = path};
    const char *body = skip_line_end(header_end, end);
    int rc = parse_header(&fs, data, header_end, err);
    if (rc == 0)
        rc = prepare_values(&fs, true, size, (uintmax_t)(body - data), err);
    if (rc == 0)
        rc = scan_values(&fs, body, end, err);
    if (rc == 0)
        rc = finish(&fs, field, err);
    free(fs.values);
    return rc;
}

/* Whether two stats of one file say it is as it was: same size, same
 * modification time. */
static bool same_file_state(const struct stat *a, const struct stat *b)
{
    return a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
           a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* The reader proper, on an open descriptor; buf holds chunk +
 * HEAT2D_FIELD_MAX_LINE + 2 bytes. A regular file of known size is held to
 * it: a file cut short, grown or rewritten while read is an error. */
static int read_fd(int fd, const char *path, const struct stat *st, char *buf, size_t chunk,
                   const heat2d_field_read_hook *hook, heat2d_field *field, heat2d_error *err)
{
    /* A regular file of size 0 may be a kernel's (/proc), whose size says
     * nothing: read as a stream. */
    const bool sized = S_ISREG(st->st_mode) && st->st_size > 0;
    const uintmax_t expected = sized ? (uintmax_t)st->st_size : 0;
    const size_t cap = chunk + HEAT2D_FIELD_MAX_LINE + 2;
    field_scan fs = {.name = path, .line = 1};
    bool header_done = false, eof = false;
    size_t have = 0;
    uintmax_t total = 0, header_bytes = 0;
    int rc = 0;
    while (rc == 0) {
        if (!eof) {
            size_t room = cap - have;
            ssize_t got = read(fd, buf + have, room < chunk ? room : chunk);
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                rc = heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(errno));
                break;
            }
            eof = got == 0;
            have += (size_t)got;
            total += (uintmax_t)got;
            if (hook != NULL && hook->after_read != NULL)
                hook->after_read(hook->ctx, (uint64_t)total);
            if (sized && total > expected) {
                rc = heat2d_fail(err, "%s: grew while being read (%ju bytes when opened)", path,
                                 expected);
                break;
            }
            if (sized && eof && total < expected) {
                rc = heat2d_fail(err,
                                 "%s: shrank while being read (%ju bytes when opened, %ju read)",
                                 path, expected, total);
                break;
            }
        }
        size_t done = eof ? have : complete_lines(buf, have);
        size_t from = 0;
        if (!header_done && (done > 0 || eof)) {
            const char *header_end = buf;
            while (header_end < buf + done && !is_line_end(*header_end))
                ++header_end;
            from = (size_t)(skip_line_end(header_end, buf + done) - buf);
            header_bytes = from;
            rc = parse_header(&fs, buf, header_end, err);
            if (rc == 0)
                rc = prepare_values(&fs, sized, expected, header_bytes, err);
            header_done = true;
        }
        if (rc == 0 && header_done)
            rc = scan_values(&fs, buf + from, buf + done, err);
        if (rc != 0 || eof)
            break;
        /* The line begun at the end of the chunk, moved to the front; one
         * longer than any field line ends the read here. */
        have -= done;
        memmove(buf, buf + done, have);
        size_t content = have - (have > 0 && buf[have - 1] == '\r');
        if (content > HEAT2D_FIELD_MAX_LINE)
            rc = heat2d_fail(err, "%s:%ju: line longer than %d bytes (not a field file)", path,
                             fs.line, HEAT2D_FIELD_MAX_LINE);
    }
    struct stat after;
    if (rc == 0 && sized && (fstat(fd, &after) != 0 || !same_file_state(st, &after)))
        rc = heat2d_fail(err, "%s: changed while being read", path);
    if (rc == 0)
        rc = finish(&fs, field, err);
    free(fs.values);
    return rc;
}

/* The reader on fd, open on path, closed here. */
static int read_open(int fd, const char *path, const heat2d_field_read_hook *hook,
                     heat2d_field *field, heat2d_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(EISDIR));
    }
#if defined(POSIX_FADV_SEQUENTIAL)
    if (S_ISREG(st.st_mode))
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    size_t chunk = hook != NULL && hook->chunk_bytes > 0 ? hook->chunk_bytes : CHUNK_BYTES;
    char *buf = malloc(chunk + HEAT2D_FIELD_MAX_LINE + 2);
    if (buf == NULL) {
        close(fd);
        return heat2d_fail(err, "cannot read field file '%s': out of memory", path);
    }
    int rc = read_fd(fd, path, &st, buf, chunk, hook, field, err);
    free(buf);
    close(fd);
    return rc;
}

int heat2d_field_read_hooked(const char *path, const heat2d_field_read_hook *hook,
                             heat2d_field *field, heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return heat2d_fail(err, "cannot open field file '%s': %s", path, strerror(errno));
    return read_open(fd, path, hook, field, err);
}

int heat2d_field_read(const char *path, heat2d_field *field, heat2d_error *err)
{
    return heat2d_field_read_hooked(path, NULL, field, err);
}

int heat2d_field_read_regular(const char *path, heat2d_field *field, heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    /* Neither a FIFO (whose open waits for a writer) nor a link is
     * followed into. */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ELOOP)
        return heat2d_fail(err, "'%s' is a symbolic link, not the field file itself", path);
    if (fd < 0)
        return heat2d_fail(err, "cannot open field file '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        close(fd);
        return heat2d_fail(err, "'%s' is not a regular file (%s)", path,
                           heat2d_file_kind(st.st_mode));
    }
    return read_open(fd, path, NULL, field, err);
}

void heat2d_field_free(heat2d_field *field)
{
    if (!field)
        return;
    free(field->values);
    field->values = NULL;
    field->nx = field->ny = 0;
}
