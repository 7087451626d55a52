/* heat2d bench: trials.csv opened as a ledger. One bench at a time appends
 * to it: an exclusive lock on the open file, held until the bench ends (the
 * kernel drops it should the bench die), refuses a second bench up front.
 * Under the lock its end is made sound: a last line that a crash cut short
 * is set aside into trials.torn.csv, so that no new row is glued onto it. */
#define _GNU_SOURCE
#include "file_replace.h"
#include "trials_csv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Bytes read at once: the first line (our header is under 1 kB), and the
 * file in steps to find where its last whole record ends. */
#define CHUNK 4096

static void header_text(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < HEAT2D_N_FIELDS; ++k)
        if (heat2d_trial_fields[k].column != NULL)
            used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s%s",
                                     used ? "," : "", heat2d_trial_fields[k].column);
}

/* Why a header that is not ours cannot take our rows. A proper prefix of
 * ours is an older heat2d's; two of those are named by the option that
 * brought their missing columns. */
static void refuse_header(const char *path, const char *first, const char *header,
                          heat2d_error *err)
{
    const size_t n = strlen(first);
    if (n == 0 || strncmp(header, first, n) != 0 || header[n] != ',') {
        heat2d_fail(err, "%s has other columns (another heat2d version?); choose another --out",
                    path);
        return;
    }
    size_t fields = 1;
    for (const char *p = first; *p != '\0'; ++p)
        fields += *p == ',';
    if (fields == 27)
        heat2d_fail(err,
                    "%s has the columns of a heat2d before --ranks (no ranks, decomp, "
                    "halo_bytes_per_step); choose another --out",
                    path);
    else if (fields == 30)
        heat2d_fail(err,
                    "%s has the columns of a heat2d before --precision (no precision); choose "
                    "another --out",
                    path);
    else
        heat2d_fail(err, "%s has the columns of an older heat2d (no %.300s); choose another --out",
                    path, header + n + 1);
}

/* The pid holding the flock on fd's file, from /proc/locks (Linux); 0 when
 * it cannot be told. Only for the message: nothing depends on it. */
static long lock_holder(int fd)
{
    struct stat st;
    FILE *locks = fstat(fd, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
    if (locks == NULL)
        return 0;
    long holder = 0;
    char line[256];
    while (holder == 0 && fgets(line, sizeof line, locks) != NULL) {
        char kind[16];
        long pid;
        unsigned maj, min;
        unsigned long long ino;
        /* "1: FLOCK  ADVISORY  WRITE 1234 00:2e:5678 0 EOF"; a waiter's
         * line has "->" where the kind is. */
        if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &pid, &maj, &min, &ino) == 5 &&
            strcmp(kind, "FLOCK") == 0 && ino == (unsigned long long)st.st_ino &&
            maj == major(st.st_dev) && min == minor(st.st_dev))
            holder = pid;
    }
    fclose(locks);
    return holder;
}

static int write_all(int fd, const char *data, size_t n)
{
    while (n > 0) {
        ssize_t done = write(fd, data, n);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return -1;
        data += done;
        n -= (size_t)done;
    }
    return 0;
}

static ssize_t read_at(int fd, char *buf, size_t n, off_t at)
{
    ssize_t got;
    while ((got = pread(fd, buf, n, at)) < 0 && errno == EINTR)
        continue;
    return got;
}

/* Where the last record of fd's first size bytes ends: its newline, the
 * last one outside quotes (a quoted field may hold line breaks, RFC 4180;
 * each quote flips the state), read from the start; -1 when none, -2 when
 * it cannot be read. */
static off_t last_record_end(int fd, off_t size)
{
    char buf[CHUNK];
    bool quoted = false;
    off_t last = -1;
    for (off_t begin = 0; begin < size;) {
        const off_t n = size - begin > CHUNK ? CHUNK : size - begin;
        if (read_at(fd, buf, (size_t)n, begin) != n)
            return -2;
        for (off_t k = 0; k < n; ++k) {
            if (buf[k] == '"')
                quoted = !quoted;
            else if (buf[k] == '\n' && !quoted)
                last = begin + k;
        }
        begin += n;
    }
    return last;
}

/* Bytes [from, size) of the ledger appended to DIR/trials.torn.csv as one
 * line, made durable there, then cut off the ledger: whatever happens, the
 * bytes are in one of the two files. */
static int set_aside(int fd, const char *dir, off_t from, off_t size, heat2d_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trials.torn.csv", dir);
    if (heat2d_file_check_regular(path, err) != 0)
        return -1;
    int torn = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0666);
    if (torn < 0)
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    char buf[CHUNK];
    int rc = 0;
    for (off_t at = from; at < size && rc == 0;) {
        const size_t n = size - at > CHUNK ? CHUNK : (size_t)(size - at);
        rc = read_at(fd, buf, n, at) == (ssize_t)n ? write_all(torn, buf, n) : -1;
        at += (off_t)n;
    }
    if (rc == 0)
        rc = write_all(torn, "\n", 1);
    if (rc == 0)
        rc = fsync(torn);
    if (close(torn) != 0)
        rc = -1;
    if (rc != 0)
        return heat2d_fail(err, "cannot set the torn end of %s/trials.csv aside in %s: %s", dir,
                           path, strerror(errno));
    if (ftruncate(fd, from) != 0)
        return heat2d_fail(err, "cannot cut the torn end off %s/trials.csv: %s", dir,
                           strerror(errno));
    return 0;
}

/* Under the lock: the header checked, written or completed; a torn last
 * line set aside. */
static int make_sound(int fd, const char *dir, const char *path, bench_csv_repair *repair,
                      heat2d_error *err)
{
    char header[2048];
    header_text(header, sizeof header);
    struct stat st;
    if (fstat(fd, &st) != 0)
        return heat2d_fail(err, "cannot read %s: %s", path, strerror(errno));
    const off_t size = st.st_size;
    char first[CHUNK + 1];
    const ssize_t got = size > 0 ? read_at(fd, first, CHUNK, 0) : 0;
    if (got < 0 || (size > 0 && got == 0))
        return heat2d_fail(err, "cannot read %s: %s", path, got < 0 ? strerror(errno) : "empty");
    first[got] = '\0';
    char *eol = memchr(first, '\n', (size_t)got);
    if (size == 0) {
        errno = 0;
        if (write_all(fd, header, strlen(header)) == 0 && write_all(fd, "\n", 1) == 0)
            return 0;
        const int why = errno != 0 ? errno : ENOSPC;
        if (ftruncate(fd, 0) != 0) {
            /* said below: the header's part stays, and the next bench completes it */
        }
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(why));
    }
    if (eol == NULL && size > CHUNK) {
        refuse_header(path, "", header, err); /* a first line longer than any header of ours */
        return -1;
    }
    if (eol == NULL) {
        /* The whole file is one line without its end: our header, whole or
         * cut short, or not ours at all (left as it is). */
        const size_t n = strlen(first);
        if (n == (size_t)got && strcmp(first, header) == 0) {
            repair->header_completed = true;
            return write_all(fd, "\n", 1) == 0
                       ? 0
                       : heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
        }
        if (n != (size_t)got || strncmp(header, first, n) != 0) {
            refuse_header(path, first, header, err);
            return -1;
        }
        if (set_aside(fd, dir, 0, size, err) != 0)
            return -1;
        repair->torn_bytes = (size_t)size;
        repair->torn_header = true;
        return write_all(fd, header, strlen(header)) == 0 && write_all(fd, "\n", 1) == 0
                   ? 0
                   : heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    }
    *eol = '\0';
    first[strcspn(first, "\r")] = '\0';
    if (strcmp(first, header) != 0) {
        refuse_header(path, first, header, err);
        return -1;
    }
    const off_t last = last_record_end(fd, size);
    if (last < 0)
        return heat2d_fail(err, "cannot read %s: %s", path, strerror(errno));
    if (last + 1 == size)
        return 0;
    if (set_aside(fd, dir, last + 1, size, err) != 0)
        return -1;
    repair->torn_bytes = (size_t)(size - last - 1);
    return 0;
}

FILE *bench_csv_open(const char *dir, bench_csv_repair *repair, heat2d_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trials.csv", dir);
    memset(repair, 0, sizeof *repair);
    /* A ledger is a regular file: a FIFO would hang the bench on its first
     * read, a device swallow the rows. Checked on the name first, then on
     * what was opened (without blocking: a FIFO's open may wait). */
    if (heat2d_file_check_regular(path, err) != 0)
        return NULL;
    /* Close-on-exec: a trial that outlived us must not hold the lock. */
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd < 0) {
        heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        heat2d_fail(err, "%s is not a regular file", path);
        close(fd);
        return NULL;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
            const long holder = lock_holder(fd);
            char who[48] = "";
            if (holder > 0)
                snprintf(who, sizeof who, " (pid %ld)", holder);
            heat2d_fail(err, "%s is in use by another bench%s; wait for it or choose another --out",
                        path, who);
        } else {
            heat2d_fail(err, "cannot lock %s: %s", path, strerror(errno));
        }
        close(fd);
        return NULL;
    }
    if (make_sound(fd, dir, path, repair, err) != 0) {
        close(fd);
        return NULL;
    }
    FILE *csv = fdopen(fd, "a");
    if (csv == NULL) {
        heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    return csv;
}

int bench_ledger_append(FILE *csv, const char *dir, const char *text, size_t len, heat2d_error *err)
{
    /* Past stdio: its buffer would keep part of a row that a full disk
     * refused, and write it at a later flush, or report EIO at close. */
    const int fd = fileno(csv);
    const off_t end = lseek(fd, 0, SEEK_END);
    if (end < 0)
        return heat2d_fail(err, "cannot write %s/trials.csv: %s", dir, strerror(errno));
    errno = 0;
    if (write_all(fd, text, len) == 0)
        return 0;
    /* A short write sets no errno: the next one says why (ENOSPC). */
    const int why = errno != 0 ? errno : ENOSPC;
    if (ftruncate(fd, end) != 0)
        return heat2d_fail(err,
                           "cannot write %s/trials.csv: %s, and cannot cut it back to its last "
                           "whole row: %s",
                           dir, strerror(why), strerror(errno));
    return heat2d_fail(err, "cannot write %s/trials.csv: %s", dir, strerror(why));
}
