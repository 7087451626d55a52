/* The write rate of a folder's file system (write_rate.h), and its type:
 * a tmpfs takes a record at memory speed, a disk at the page cache's until
 * the kernel starts to hold writers back, a network file system at the
 * network's. */
#define _GNU_SOURCE /* realpath, getline */
#include "write_rate.h"
#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* A mount point as the mount table writes it (a space as \040) in place. */
static void unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r != '\0'; ++w) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
            *w = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 4;
        } else {
            *w = *r++;
        }
    }
    *w = '\0';
}

/* Whether path lies at or under the mount point. */
static bool under(const char *path, const char *point)
{
    const size_t n = strlen(point);
    return strcmp(point, "/") == 0 ||
           (strncmp(path, point, n) == 0 && (path[n] == '/' || path[n] == '\0'));
}

/* The type of the file system that holds dir, from /proc/self/mountinfo:
 * the last mount of dir's device (later mounts hide earlier ones), else the
 * longest mount point above dir (a btrfs subvolume's device is none the
 * table lists). false when the table says nothing. */
static bool mount_type(const char *dir, dev_t dev, char *type, size_t size)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (f == NULL)
        return false;
    char real[PATH_MAX];
    const bool have_real = realpath(dir, real) != NULL;
    char *line = NULL;
    size_t cap = 0, best = 0;
    bool by_dev = false, found = false;
    while (getline(&line, &cap, f) > 0) {
        unsigned major_id, minor_id;
        int point_at = -1, point_end = -1;
        char fstype[64];
        const char *dash = strstr(line, " - ");
        if (sscanf(line, "%*s %*s %u:%u %*s %n%*s%n", &major_id, &minor_id, &point_at,
                   &point_end) != 2 ||
            point_end < 0 || dash == NULL || sscanf(dash + 3, "%63s", fstype) != 1)
            continue;
        line[point_end] = '\0';
        char *point = line + point_at;
        unescape(point);
        if (makedev(major_id, minor_id) == dev) {
            snprintf(type, size, "%s", fstype);
            by_dev = found = true;
        } else if (!by_dev && have_real && under(real, point) && strlen(point) >= best) {
            best = strlen(point);
            snprintf(type, size, "%s", fstype);
            found = true;
        }
    }
    free(line);
    fclose(f);
    return found;
}

/* Whether a stop signal asked the probe to end. */
static bool stopped(const volatile sig_atomic_t *stop)
{
    return stop != NULL && *stop != 0;
}

/* The number-th file of up to bytes bytes into the probe's folder in dir
 * (which messages name), from buf (chunk bytes), written until the deadline at the latest (one
 * chunk at least) and kept so that the next files find it there, as a run's records find the
 * earlier ones; its seconds and size into *seconds, *held. A stop ends it at the next chunk (-1,
 * err "stopped"). */
static int time_one_file(const char *dir, const char *folder, size_t number, const char *buf,
                         size_t chunk, size_t bytes, double deadline,
                         const volatile sig_atomic_t *stop, double *seconds, size_t *held,
                         heat2d_error *err)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/record_%zu", folder, number);
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return heat2d_fail(err, "cannot write a file in %s: %s", dir, strerror(errno));
    const double t0 = heat2d_now();
    size_t done = 0;
    int failed = 0;
    while (done < bytes && (done == 0 || heat2d_now() < deadline) && !stopped(stop)) {
        const size_t want = bytes - done < chunk ? bytes - done : chunk;
        const ssize_t wrote = write(fd, buf, want);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0) {
            failed = wrote < 0 ? errno : ENOSPC;
            break;
        }
        done += (size_t)wrote;
    }
    if (close(fd) != 0 && failed == 0)
        failed = errno;
    *seconds = heat2d_now() - t0;
    *held = done;
    if (failed != 0)
        return heat2d_fail(err, "cannot write %zu bytes in %s: %s", bytes, dir, strerror(failed));
    if (stopped(stop))
        return heat2d_fail(err, "stopped by a signal");
    return 0;
}

int heat2d_write_rate_probe(const char *dir, size_t bytes, double max_s,
                            const volatile sig_atomic_t *stop, heat2d_write_rate *out,
                            heat2d_error *err)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    struct statfs sf;
    if (stat(dir, &st) != 0 || statfs(dir, &sf) != 0)
        return heat2d_fail(err, "cannot use %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return heat2d_fail(err, "%s is not a folder", dir);
    out->magic = (unsigned long long)sf.f_type;
    if (!mount_type(dir, st.st_dev, out->fs, sizeof out->fs))
        snprintf(out->fs, sizeof out->fs, "0x%llx", out->magic);
    if (bytes == 0)
        bytes = 1;
    /* Digits and newlines, as a text record holds: no run of zeros that a
     * compressing file system could store as nothing. */
    const size_t chunk = bytes < ((size_t)1 << 20) ? bytes : (size_t)1 << 20;
    char *buf = malloc(chunk);
    if (buf == NULL)
        return heat2d_fail(err, "cannot allocate %zu bytes to write", chunk);
    for (size_t k = 0; k < chunk; ++k)
        buf[k] = k % 25 == 24 ? '\n' : (char)('0' + (k * 7 + k / 25) % 10);
    char folder[PATH_MAX];
    int slot = -1;
    const int made = heat2d_scratch_make(dir, "heat2d-write-probe", folder, sizeof folder, &slot);
    if (made != 0) {
        free(buf);
        return heat2d_fail(err, "cannot make a folder in %s: %s", dir, strerror(made));
    }
    /* The files stay until the last is written: a run's records pile up
     * in its folder, and on a disk the kernel holds a writer back once
     * enough of them wait to be written out, which files removed at once
     * never show. The rate is the bytes of them all over their seconds. */
    enum { kFiles = 8 };
    const double deadline = heat2d_now() + max_s;
    double seconds = 0.0;
    size_t total = 0;
    int rc = 0;
    for (size_t made_files = 0;
         rc == 0 && made_files < kFiles && (made_files == 0 || heat2d_now() < deadline);
         ++made_files) {
        size_t held = 0;
        double took = 0.0;
        rc = time_one_file(dir, folder, made_files, buf, chunk, bytes, deadline, stop, &took, &held,
                           err);
        if (rc != 0)
            break;
        out->file_bytes = held > out->file_bytes ? held : out->file_bytes;
        out->files++;
        seconds += took;
        total += held;
    }
    heat2d_scratch_drop(folder, &slot);
    free(buf);
    if (rc != 0)
        return -1;
    out->bytes = total;
    out->gbs = seconds > 0.0 ? (double)total / seconds / 1e9 : 0.0;
    return 0;
}
