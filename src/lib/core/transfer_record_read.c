/* A program's record file read back (transfer_record.h): every process's
 * record checked and the copies summed, strictly, since a program may
 * write anything at that name. Line formats in transfer_record.c. */
#define _GNU_SOURCE
#include "transfer_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* line[0..len) as KEY followed by a process id (decimal, > 0). */
static bool keyed(const char *line, size_t len, const char *key, long *pid)
{
    const size_t k = strlen(key);
    if (len <= k || len - k > 10 || strncmp(line, key, k) != 0)
        return false;
    long v = 0;
    for (size_t i = k; i < len; ++i) {
        if (line[i] < '0' || line[i] > '9')
            return false;
        v = v * 10 + (line[i] - '0');
    }
    *pid = v;
    return v > 0;
}

/* b added into a, or false when a sum overflows or the array sizes differ. */
static bool add_tally(heat2d_copy_tally *a, const heat2d_copy_tally *b, bool first)
{
    if (first) {
        *a = *b;
        return true;
    }
    if (a->array_size != b->array_size)
        return false;
    uint64_t *const sums[] = {
        &a->up.copies,   &a->up.bytes,   &a->up.ns,   &a->up.array_copies,   &a->up.array_bytes,
        &a->down.copies, &a->down.bytes, &a->down.ns, &a->down.array_copies, &a->down.array_bytes};
    const uint64_t parts[] = {
        b->up.copies,   b->up.bytes,   b->up.ns,   b->up.array_copies,   b->up.array_bytes,
        b->down.copies, b->down.bytes, b->down.ns, b->down.array_copies, b->down.array_bytes};
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k) {
        if (*sums[k] > UINT64_MAX - parts[k])
            return false;
        *sums[k] += parts[k];
    }
    return true;
}

/* A COPIES record from p (after its first line) to its END line; the text
 * after it through next. NULL when it is fine, else what is wrong. */
static const char *copies_record(const char *p, long pid, heat2d_transfer_records *r,
                                 const char **next)
{
    char end_line[64];
    snprintf(end_line, sizeof end_line, "HEAT2D_TRANSFER_END=%ld\n", pid);
    const char *end = strstr(p, end_line);
    const char *other = strstr(p, "HEAT2D_TRANSFER_");
    if (end == NULL || other != end || end - p >= 1024)
        return "a count without its end";
    char text[1024], bad[128];
    memcpy(text, p, (size_t)(end - p));
    text[end - p] = '\0';
    heat2d_copy_tally tally;
    if (heat2d_copy_tally_parse(text, &tally, bad, sizeof bad) != 0)
        return "a count that is not one";
    if (!add_tally(&r->tally, &tally, r->ended[HEAT2D_TRANSFER_COPIES] == 0))
        return "counts of another array size, or too large to sum";
    r->ended[HEAT2D_TRANSFER_COPIES]++;
    *next = end + strlen(end_line);
    return NULL;
}

/* The records of text (NUL-terminated); NULL, or what is wrong at *line. */
static const char *parse(const char *text, heat2d_transfer_records *r, unsigned *line)
{
    static const char *const ends[3] = {
        "HEAT2D_TRANSFER_NO_CUDA=", "HEAT2D_TRANSFER_UNTRACED=", "HEAT2D_TRANSFER_COPIES="};
    for (const char *p = text; *p != '\0';) {
        ++*line;
        const char *nl = strchr(p, '\n');
        if (nl == NULL)
            return "a line cut short";
        const size_t len = (size_t)(nl - p);
        long pid = 0;
        if (keyed(p, len, "HEAT2D_TRANSFER_LOADED=", &pid)) {
            r->processes++;
            p = nl + 1;
            continue;
        }
        int k = 0;
        while (k < 3 && !keyed(p, len, ends[k], &pid))
            ++k;
        if (k == 3)
            return "not a transfer record";
        if (r->ended[0] + r->ended[1] + r->ended[2] >= r->processes)
            return "a record before its process's marker";
        p = nl + 1;
        if (k != HEAT2D_TRANSFER_COPIES) {
            r->ended[k]++;
            continue;
        }
        const char *bad = copies_record(p, pid, r, &p);
        if (bad != NULL)
            return bad;
        *line += 12; /* the tally's 11 lines and the end */
    }
    return NULL;
}

/* path's bytes into buf (NUL-terminated); 1 when absent, 0, or -1 with why. */
static int slurp(const char *path, char *buf, size_t cap, char *why, size_t size)
{
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return 1;
    struct stat st;
    const char *bad = fd < 0                                  ? strerror(errno)
                      : fstat(fd, &st) != 0                   ? strerror(errno)
                      : !S_ISREG(st.st_mode)                  ? "not a regular file"
                      : (uint64_t)st.st_size >= (uint64_t)cap ? "larger than a record file can be"
                                                              : NULL;
    size_t got = 0;
    if (bad == NULL) {
        flock(fd, LOCK_SH); /* a writer still appending: its record whole */
        ssize_t n;
        while (got < cap - 1 && (n = read(fd, buf + got, cap - 1 - got)) != 0)
            if (n > 0)
                got += (size_t)n;
            else if (errno != EINTR) {
                bad = strerror(errno);
                break;
            }
        if (bad == NULL && (got == cap - 1 || memchr(buf, '\0', got) != NULL))
            bad = got == cap - 1 ? "larger than a record file can be" : "it holds a NUL byte";
    }
    if (fd >= 0)
        close(fd);
    if (bad != NULL) {
        snprintf(why, size, "%s: %s", path, bad);
        return -1;
    }
    buf[got] = '\0';
    return 0;
}

int heat2d_transfer_records_read(const char *path, heat2d_transfer_records *r, char *why,
                                 size_t size)
{
    memset(r, 0, sizeof *r);
    char *buf = malloc(HEAT2D_TRANSFER_RECORD_MAX_BYTES + 1);
    if (buf == NULL) {
        snprintf(why, size, "%s: out of memory", path);
        return -1;
    }
    int rc = slurp(path, buf, HEAT2D_TRANSFER_RECORD_MAX_BYTES + 1, why, size);
    unsigned line = 0;
    const char *bad = rc == 0 ? parse(buf, r, &line) : NULL;
    free(buf);
    if (bad != NULL) {
        snprintf(why, size, "%s:%u: %s", path, line, bad);
        return -1;
    }
    if (rc == 0)
        r->unrecorded = r->processes - r->ended[0] - r->ended[1] - r->ended[2];
    return rc;
}
