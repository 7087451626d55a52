/* Reading a field file: the whole file in memory (mapped, or read from a
 * pipe), then the header and one value a line, checked as the original's
 * Python reader checks them. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE, where there are */

#include "heat2d.h"
#include "real_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The whole file in memory: mapped when it is a regular file, read
 * otherwise (a pipe, a device). */
typedef struct file_bytes {
    const char *data;
    size_t size;
    void *map; /* munmap this, map_size bytes */
    size_t map_size;
    char *heap; /* or free this */
} file_bytes;

static int load_file(const char *path, file_bytes *fb, heat2d_error *err)
{
    memset(fb, 0, sizeof *fb);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return heat2d_fail(err, "cannot open field file '%s': %s", path, strerror(errno));
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
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uintmax_t)st.st_size > SIZE_MAX) {
            close(fd);
            return heat2d_fail(err, "cannot read field file '%s': too large for memory", path);
        }
        size_t size = (size_t)st.st_size;
        void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            close(fd);
#if defined(POSIX_MADV_SEQUENTIAL)
            (void)posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
#endif
            fb->data = map;
            fb->size = size;
            fb->map = map;
            fb->map_size = size;
            return 0;
        }
        /* Some file systems cannot map; read it instead. */
    }
    size_t cap = 1u << 16, size = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            close(fd);
            return heat2d_fail(err, "cannot read field file '%s': out of memory", path);
        }
        if (size == cap) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
            continue;
        }
        ssize_t got = read(fd, buf + size, cap - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(e));
        }
        if (got == 0)
            break;
        size += (size_t)got;
    }
    close(fd);
    fb->data = buf;
    fb->size = size;
    fb->heap = buf;
    return 0;
}

static void unload_file(file_bytes *fb)
{
    if (fb->map)
        munmap(fb->map, fb->map_size);
    free(fb->heap);
    memset(fb, 0, sizeof *fb);
}

/* One header token as Python's int() reads it (sign, digits): its value
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

/* Parses the value lines from p on, storing the first capacity values and
 * counting them all, as the original reads every line before it checks the
 * count. */
static int scan_values(const char *path, const char *p, const char *end, double *values,
                       size_t capacity, size_t *count, heat2d_error *err)
{
    size_t n = 0;
    uintmax_t line = 2;
    while (p < end) {
        while (p < end && is_blank(*p))
            ++p;
        if (p == end || is_line_end(*p))
            return heat2d_fail(err, "%s:%ju: empty numeric line", path, line);
        double v;
        const char *stop = scan_number(p, end, &v);
        if (stop) {
            p = stop;
            while (p < end && is_blank(*p))
                ++p;
        }
        if (!stop || (p < end && !is_line_end(*p)))
            return heat2d_fail(err, "%s:%ju: invalid number", path, line);
        if (!isfinite(v))
            return heat2d_fail(err, "%s:%ju: non-finite value", path, line);
        if (n < capacity)
            values[n] = v;
        ++n;
        p = skip_line_end(p, end);
        ++line;
    }
    *count = n;
    return 0;
}

/* Filling a fresh array of tens of megabytes costs a page fault per 4 KiB
 * page, a good part of reading a large field; huge pages cut that 500-fold
 * where the kernel grants them on request. Only advice: nothing depends on
 * it. */
static void advise_huge_pages(void *start, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)1 << 21;
    uintptr_t first = ((uintptr_t)start + huge - 1) & ~(huge - 1);
    uintptr_t last = ((uintptr_t)start + bytes) & ~(huge - 1);
    if (last > first)
        (void)madvise((void *)first, last - first, MADV_HUGEPAGE);
#else
    (void)start;
    (void)bytes;
#endif
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

    /* Two whitespace-separated tokens, as str.split() finds them. */
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
        return heat2d_fail(err, "%s: invalid nx/ny header", path);
    header_int hx, hy;
    if (!parse_header_int(tok[0][0], tok[0][1], &hx) ||
        !parse_header_int(tok[1][0], tok[1][1], &hy))
        return heat2d_fail(err, "%s: non-integer dimensions", path);
    if ((hx.negative || (!hx.overflow && hx.magnitude < HEAT2D_MIN_SIDE)) ||
        (hy.negative || (!hy.overflow && hy.magnitude < HEAT2D_MIN_SIDE)))
        return heat2d_fail(err, "%s: too small dimensions %sx%s", path, hx.text, hy.text);
    if (hx.overflow || hy.overflow || hx.magnitude > SIZE_MAX || hy.magnitude > SIZE_MAX ||
        hx.magnitude > (SIZE_MAX / sizeof(double)) / hy.magnitude)
        return heat2d_fail(err, "%s: dimensions %sx%s too large (nx*ny overflows)", path, hx.text,
                           hy.text);
    size_t nx = (size_t)hx.magnitude, ny = (size_t)hy.magnitude, n = nx * ny;

    const char *body = skip_line_end(header_end, end);
    /* Every value line but the last takes at least two bytes, so the file
     * bounds the count: a header asking for more is not trusted with an
     * allocation. The lines are still read, for the original's message. */
    size_t most = ((size_t)(end - body) + 1u) / 2u;
    double *values = NULL;
    if (n <= most) {
        values = malloc(n * sizeof *values);
        if (!values)
            return heat2d_fail(err, "%s: cannot allocate %zux%zu values", path, nx, ny);
        advise_huge_pages(values, n * sizeof *values);
    }
    size_t count = 0;
    if (scan_values(path, body, end, values, values ? n : 0, &count, err) != 0) {
        free(values);
        return -1;
    }
    if (count != n) {
        free(values);
        return heat2d_fail(err, "%s: expected %zu values, found %zu", path, n, count);
    }
    field->nx = nx;
    field->ny = ny;
    field->values = values;
    return 0;
}

int heat2d_field_read(const char *path, heat2d_field *field, heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    file_bytes fb;
    if (load_file(path, &fb, err) != 0)
        return -1;
    int rc = heat2d_field_parse(path, fb.data, fb.size, field, err);
    unload_file(&fb);
    return rc;
}

void heat2d_field_free(heat2d_field *field)
{
    if (!field)
        return;
    free(field->values);
    field->values = NULL;
    field->nx = field->ny = 0;
}
