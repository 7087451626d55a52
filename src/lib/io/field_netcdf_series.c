/* A series of snapshots in one NetCDF file. It is made under a temporary
 * name beside its target (".NAME.heat2d-PID-XXXXXX", removed by a fatal
 * signal), its header synced, and renamed over the target only when the
 * first record comes, after every check of the run has passed: until then
 * the file that was there is untouched, and a run stopped at any moment
 * leaves either it or a series that opens. One run at a time writes it
 * (write_lock.c). A record is appended field first, synced, then its time
 * and step, synced: a record whose step is set has its field on disk, and
 * one whose step is unset is one cut short. */
#define _POSIX_C_SOURCE 200809L
#include "field_netcdf.h"
#include "file_replace.h"
#include "netcdf_append.h"
#include "netcdf_schema.h"
#include "process_guard.h"
#include "write_lock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netcdf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct heat2d_netcdf_series {
    netcdf_ids ids;
    heat2d_netcdf_meta meta;
    size_t records;
    bool failed;    /* an append failed: the file is aborted, not closed */
    bool placed;    /* renamed over its target (an appended series: from the start) */
    bool appending; /* a series a run continues, written in place */
    bool opened;    /* appending: its complete attribute set to "false" */
    int fd; /* the temporary file's (an appended series': its own), for its room, mode, fsync */
    int temp_slot;
    uint64_t record_bytes;
    heat2d_write_lock lock;
    char path[PATH_MAX];  /* as the user named it, for messages */
    char final[PATH_MAX]; /* where it goes: a link's target resolved */
    char temp[PATH_MAX + 64];
};

/* The temporary names of final's series begin ".NAME.heat2d-" (prefix gets
 * their length), or, where that would make too long a name, ".heat2d-";
 * then the pid and mkstemp's six characters. false when it does not fit. */
static bool temp_name(const char *final, char *temp, size_t size, size_t *prefix)
{
    const char *slash = strrchr(final, '/');
    const int dir_len = slash != NULL ? (int)(slash - final) + 1 : 0;
    const bool fits = strlen(final + dir_len) + 40 <= 255; /* NAME_MAX, with the pid's room */
    const int n = snprintf(temp, size, "%.*s.%s%sheat2d-", dir_len, final,
                           fits ? final + dir_len : "", fits ? "." : "");
    if (n < 0 || (size_t)n + 32 >= size)
        return false;
    *prefix = (size_t)n;
    snprintf(temp + n, size - (size_t)n, "%ld-XXXXXX", (long)getpid());
    return true;
}

/* Temporary files of final's series that a run killed by SIGKILL left
 * (their pid gone), removed under the lock. */
static void sweep_stale(const char *temp, size_t prefix)
{
    const char *slash = strrchr(temp, '/');
    char dir[PATH_MAX];
    if (slash == NULL)
        strcpy(dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == temp ? 1 : (int)(slash - temp), temp);
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    const char *head = slash != NULL ? slash + 1 : temp;
    const size_t head_len = prefix - (size_t)(head - temp);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, head, head_len) != 0)
            continue;
        char *end;
        const long pid = strtol(e->d_name + head_len, &end, 10);
        const bool gone = pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
        if (!gone || *end != '-' || strlen(end) != 7)
            continue;
        char stale[PATH_MAX + 256];
        snprintf(stale, sizeof stale, "%s/%s", dir, e->d_name);
        unlink(stale);
    }
    closedir(d);
}

/* The temporary file, made and registered, with the mode (and, where
 * allowed, the owner) of the file it will replace, or the umask's. */
static int make_temp(heat2d_netcdf_series *s, heat2d_error *err)
{
    size_t prefix;
    if (!temp_name(s->final, s->temp, sizeof s->temp, &prefix))
        return heat2d_fail(err, "cannot write series '%s': %s", s->path, strerror(ENAMETOOLONG));
    sweep_stale(s->temp, prefix);
    s->fd = heat2d_cleanup_mkstemp(s->temp, &s->temp_slot);
    if (s->fd < 0)
        return heat2d_fail(err, "cannot write series '%s': %s", s->path, strerror(errno));
    struct stat old;
    mode_t mode;
    if (stat(s->final, &old) == 0) {
        mode = old.st_mode & 07777;
        if (fchown(s->fd, old.st_uid, old.st_gid) != 0) {
            /* Not ours to give away: the file becomes the user's. */
        }
    } else {
        const mode_t mask = umask(0);
        umask(mask);
        mode = (mode_t)0666 & ~mask;
    }
    if (fchmod(s->fd, mode) != 0)
        return heat2d_fail(err, "cannot write series '%s': %s", s->path, strerror(errno));
    return 0;
}

/* The temporary file removed (not placed yet), the lock let go, s freed. */
static void discard(heat2d_netcdf_series *s)
{
    if (s->fd >= 0)
        close(s->fd);
    if (!s->placed && s->temp_slot >= 0)
        unlink(s->temp);
    heat2d_cleanup_forget(s->temp_slot);
    heat2d_write_lock_drop(&s->lock);
    free(s);
}

/* The state of a series at path, its lock taken (NULL with err). The
 * library writes in place and seeks: a FIFO or a device cannot hold a
 * series, and a read-only file is the user's. */
static heat2d_netcdf_series *new_locked(const char *path, const heat2d_netcdf_meta *meta,
                                        heat2d_error *err)
{
    if (heat2d_file_check_regular(path, err) != 0 ||
        heat2d_file_check_replaceable(path, "series", err) != 0)
        return NULL;
    heat2d_netcdf_series *s = calloc(1, sizeof *s);
    if (s == NULL) {
        heat2d_fail(err, "cannot write series '%s': out of memory", path);
        return NULL;
    }
    s->fd = -1;
    s->temp_slot = -1;
    s->lock.fd = -1;
    s->meta = *meta;
    s->record_bytes = (uint64_t)meta->nx * meta->ny * heat2d_precision_bytes(meta->precision);
    if (snprintf(s->path, sizeof s->path, "%s", path) >= (int)sizeof s->path ||
        !heat2d_file_final_name(path, s->final, sizeof s->final)) {
        free(s);
        heat2d_fail(err, "cannot write series '%s': %s", path, strerror(ENAMETOOLONG));
        return NULL;
    }
    if (heat2d_write_lock_take(&s->lock, s->final, path, "series", err) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

static int locked_series_open(heat2d_netcdf_series **series, const char *path,
                              const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    *series = NULL;
    heat2d_netcdf_series *s = new_locked(path, meta, err);
    if (s == NULL)
        return -1;
    /* The header and coordinates, before the library tries. */
    const int room = heat2d_nc_room(-1, s->final, (uint64_t)(meta->nx + meta->ny) * 8);
    if (room != 0) {
        discard(s);
        return heat2d_fail(err, "cannot write series '%s': %s", path, strerror(room));
    }
    if (make_temp(s, err) != 0) {
        discard(s);
        return -1;
    }
    errno = 0;
    int status = nc_create(s->temp, heat2d_nc_format() | NC_CLOBBER, &s->ids.ncid);
    if (status != NC_NOERR) {
        heat2d_nc_fail(err, "series", path, status, errno);
        discard(s);
        return -1;
    }
    if (heat2d_nc_define(&s->ids, meta, true, path, err) != 0 ||
        (status = nc_sync(s->ids.ncid)) != NC_NOERR) {
        if (status != NC_NOERR)
            heat2d_nc_fail(err, "series", path, status, errno);
        /* Aborted, not closed: HDF5 1.10 left with a file it cannot flush
         * (a full disk) crashes trying again at exit. */
        nc_abort(s->ids.ncid);
        discard(s);
        return -1;
    }
    *series = s;
    return 0;
}

/* The series s names, checked to be one this run may continue, opened for
 * writing in place: its next record follows its last. */
static int locked_open_append(heat2d_netcdf_series *s, size_t from, heat2d_error *err)
{
    s->fd = open(s->final, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0)
        return heat2d_fail(err, "cannot write series '%s': %s", s->path, strerror(errno));
    errno = 0;
    const int status = nc_open(s->final, NC_WRITE, &s->ids.ncid);
    if (status != NC_NOERR)
        return heat2d_nc_fail(err, "series", s->path, status, errno);
    if (heat2d_nc_append_check(s->ids.ncid, &s->meta, from, s->path, &s->ids, &s->records, err) !=
        0) {
        nc_close(s->ids.ncid);
        return -1;
    }
    s->placed = s->appending = true;
    return 0;
}

/* The temporary file, its header on disk, renamed over the target: from
 * here the run's series replaces what was there. */
static int place(heat2d_netcdf_series *s, heat2d_error *err)
{
    if (s->placed)
        return 0;
    if (fsync(s->fd) != 0)
        return heat2d_fail(err, "cannot write series '%s': %s", s->path, strerror(errno));
    if (rename(s->temp, s->final) != 0)
        return heat2d_fail(err, "cannot rename series to '%s': %s", s->path, strerror(errno));
    s->placed = true;
    heat2d_cleanup_forget(s->temp_slot);
    s->temp_slot = -1;
    return 0;
}

/* An appended series, before its first new record: marked incomplete on
 * disk, so that a run stopped from here on leaves a series that says so
 * (its records up to the stop whole, as a new series'). */
static int mark_open(heat2d_netcdf_series *s, heat2d_error *err)
{
    if (s->opened)
        return 0;
    errno = 0;
    int status = nc_redef(s->ids.ncid);
    if (status == NC_NOERR)
        status = nc_put_att_text(s->ids.ncid, NC_GLOBAL, "complete", 5, "false");
    if (status == NC_NOERR)
        status = nc_enddef(s->ids.ncid);
    if (status == NC_NOERR)
        status = nc_sync(s->ids.ncid);
    if (status != NC_NOERR) {
        s->failed = true;
        return heat2d_nc_fail(err, "series", s->path, status, errno);
    }
    s->opened = true;
    return 0;
}

/* A test hook: with HEAT2D_FAULT_SERIES_FULL_AT=K the disk is found full
 * when record K's time and step are written, after its field is on disk
 * (tests/test_series_safety.sh: such a record is left with its step
 * unset). */
static bool full_at(size_t record)
{
    const char *text = getenv("HEAT2D_FAULT_SERIES_FULL_AT");
    return text != NULL && text[0] != '\0' && strtoull(text, NULL, 10) == record;
}

static int locked_series_append(heat2d_netcdf_series *s, size_t step, const void *values,
                                heat2d_error *err)
{
    const int ncid = s->ids.ncid;
    const size_t start[3] = {s->records, 0, 0};
    const size_t count[3] = {1, s->meta.ny, s->meta.nx};
    if (step > HEAT2D_NC_MAX_STEP)
        return heat2d_fail(err, "cannot write series '%s': step %zu is past a series' last, %u",
                           s->path, step, HEAT2D_NC_MAX_STEP);
    const int room = heat2d_nc_room(s->fd, s->path, s->record_bytes);
    if (room != 0)
        return heat2d_fail(err, "cannot write series '%s': %s", s->path, strerror(room));
    if (place(s, err) != 0 || (s->appending && mark_open(s, err) != 0))
        return -1;
    errno = 0;
    int status = s->meta.precision == HEAT2D_F32
                     ? nc_put_vara_float(ncid, s->ids.field, start, count, values)
                     : nc_put_vara_double(ncid, s->ids.field, start, count, values);
    if (status == NC_NOERR)
        status = nc_sync(ncid);
    if (status == NC_NOERR && full_at(s->records + 1)) {
        status = NC_EHDFERR;
        errno = ENOSPC;
    }
    const double t = heat2d_nc_time_of(&s->meta, step);
    const int st = (int)step;
    if (status == NC_NOERR)
        status = nc_put_var1_double(ncid, s->ids.time, start, &t);
    if (status == NC_NOERR)
        status = nc_put_var1_int(ncid, s->ids.step, start, &st);
    if (status == NC_NOERR)
        status = nc_sync(ncid);
    if (status != NC_NOERR) {
        s->failed = true;
        return heat2d_nc_fail(err, "series", s->path, status, errno);
    }
    s->records++;
    return 0;
}

static int locked_series_close(heat2d_netcdf_series *s, bool complete, heat2d_error *err)
{
    if (s == NULL)
        return 0;
    const int ncid = s->ids.ncid;
    int status = NC_NOERR;
    errno = 0;
    /* A run that ends well with no record yet still leaves its series. */
    const int placed = complete ? place(s, err) : 0;
    if (complete && placed == 0) {
        /* NetCDF-4 has no define mode to leave; a classic file's header
         * has room for this (heat2d_nc_define reserved it). complete last:
         * an append whose history or header could not be written stays
         * "false". */
        status = nc_redef(ncid);
        if (status == NC_NOERR && s->appending)
            status = heat2d_nc_append_finish(ncid, &s->meta);
        if (status == NC_NOERR && s->appending && getenv("HEAT2D_FAULT_SERIES_FINISH") != NULL)
            status = NC_EHDFERR; /* a test hook: the header's last write fails */
        if (status == NC_NOERR)
            status = nc_put_att_text(ncid, NC_GLOBAL, "complete", 4, "true");
        if (status == NC_NOERR)
            status = nc_enddef(ncid);
    }
    const int saved = errno;
    const int closed = s->failed ? nc_abort(ncid) : nc_close(ncid);
    int rc = complete && placed != 0 ? -1 : 0;
    if (complete && placed == 0 && (status != NC_NOERR || closed != NC_NOERR))
        rc = heat2d_nc_fail(err, "series", s->path, status != NC_NOERR ? status : closed,
                            status != NC_NOERR ? saved : errno);
    discard(s);
    return rc;
}

int heat2d_netcdf_series_open(heat2d_netcdf_series **series, const char *path,
                              const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    *series = NULL;
    if (heat2d_netcdf_meta_check(meta, err) != 0)
        return -1;
    heat2d_nc_lock();
    const int rc = locked_series_open(series, path, meta, err);
    heat2d_nc_unlock();
    return rc;
}

int heat2d_netcdf_series_open_append(heat2d_netcdf_series **series, const char *path,
                                     const heat2d_netcdf_meta *meta, size_t from, heat2d_error *err)
{
    *series = NULL;
    if (heat2d_netcdf_meta_check(meta, err) != 0)
        return -1;
    heat2d_nc_lock();
    heat2d_netcdf_series *s = new_locked(path, meta, err);
    heat2d_nc_unlock();
    if (s == NULL)
        return -1;
    /* Under the lock, read whole as a file from elsewhere (in a child
     * process): every record written, its steps in order. */
    heat2d_error why;
    if (heat2d_netcdf_check(s->final, &why) != 0) {
        heat2d_fail(err, "--append %s: %s", path, why.message);
        discard(s);
        return -1;
    }
    heat2d_nc_lock();
    const int rc = locked_open_append(s, from, err);
    heat2d_nc_unlock();
    if (rc != 0) {
        discard(s);
        return -1;
    }
    *series = s;
    return 0;
}

int heat2d_netcdf_series_append(heat2d_netcdf_series *s, size_t step, const void *values,
                                heat2d_error *err)
{
    heat2d_nc_lock();
    const int rc = locked_series_append(s, step, values, err);
    heat2d_nc_unlock();
    return rc;
}

int heat2d_netcdf_series_close(heat2d_netcdf_series *s, bool complete, heat2d_error *err)
{
    heat2d_nc_lock();
    const int rc = locked_series_close(s, complete, err);
    heat2d_nc_unlock();
    return rc;
}
