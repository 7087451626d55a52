/* heat2d run --save-every DIR: what may be written into DIR. A folder is
 * shared with the user and with other runs; two runs with different
 * settings into one folder would mix their step files without a word, and
 * a --save naming one of the step files would be overwritten by it (or
 * overwrite it). Every refusal comes before the run. */
#define _POSIX_C_SOURCE 200809L
#include "series_folder.h"
#include "file_replace.h"
#include "same_file.h"
#include "series_manifest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Digits of the step in a step file's name: those of the run's last step. */
static int step_width(const heat2d_config *cfg)
{
    int width = 0;
    for (size_t s = cfg->first_step + cfg->steps; s > 0; s /= 10)
        width++;
    return width;
}

bool heat2d_series_step_name(const char *name, const heat2d_config *cfg, size_t *step)
{
    static const char head[] = "step_", tail[] = ".dat";
    const size_t n = strlen(name);
    if (n != sizeof head - 1 + (size_t)step_width(cfg) + sizeof tail - 1 ||
        strncmp(name, head, sizeof head - 1) != 0 ||
        strcmp(name + n - (sizeof tail - 1), tail) != 0)
        return false;
    size_t value = 0;
    for (const char *p = name + sizeof head - 1; p < name + n - (sizeof tail - 1); ++p) {
        if (*p < '0' || *p > '9')
            return false;
        value = value * 10 + (size_t)(*p - '0');
    }
    *step = value;
    /* The run's own steps, counted from its first. */
    if (value <= cfg->first_step)
        return false;
    const size_t in_run = value - cfg->first_step;
    return in_run == cfg->steps || heat2d_is_snapshot_step(in_run, cfg->steps, cfg->output_every);
}

/* Any step_*.dat: another run's, when no manifest describes it. */
static bool looks_like_step_file(const char *name)
{
    const size_t n = strlen(name);
    return n > 9 && strncmp(name, "step_", 5) == 0 && strcmp(name + n - 4, ".dat") == 0;
}

/* mkdir -p, each part made with the umask's mode. */
static int make_dirs(const char *dir, heat2d_error *err)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return heat2d_fail(err, "--save-every: cannot create '%s': %s", dir,
                           strerror(ENAMETOOLONG));
    for (char *p = path + 1;; ++p) {
        if (*p != '/' && *p != '\0')
            continue;
        const char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return heat2d_fail(err, "--save-every: cannot create '%s': %s", path, strerror(errno));
        *p = saved;
        if (saved == '\0')
            return 0;
    }
}

/* --save naming a file that --save-every writes: the same file twice. */
static int save_collides(const char *dir, const char *save_path, const heat2d_config *cfg,
                         heat2d_error *err)
{
    char save_full[PATH_MAX], dir_full[PATH_MAX];
    if (save_path == NULL || !heat2d_path_resolved(save_path, save_full, sizeof save_full) ||
        !heat2d_path_resolved(dir, dir_full, sizeof dir_full))
        return 0;
    const char *slash = strrchr(save_full, '/');
    const size_t dir_len = (size_t)(slash - save_full);
    if (strlen(dir_full) != (dir_len == 0 ? 1 : dir_len) ||
        strncmp(save_full, dir_full, strlen(dir_full)) != 0)
        return 0;
    size_t step;
    if (strcmp(slash + 1, HEAT2D_SERIES_FILE) == 0) {
        heat2d_fail(err,
                    "--save %s is the manifest that --save-every %s writes; choose another name",
                    save_path, dir);
        return -2;
    }
    if (heat2d_series_step_name(slash + 1, cfg, &step)) {
        heat2d_fail(err,
                    "--save %s is the file that --save-every %s writes after step %zu; choose "
                    "another name",
                    save_path, dir, step);
        return -2;
    }
    return 0;
}

/* The manifest in dir, read whole (it is small) and parsed; 1 when there
 * is none, 0 with *was, -1 with err. */
static int read_manifest(const char *dir, heat2d_series *was, heat2d_error *err)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, HEAT2D_SERIES_FILE);
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return 1;
    heat2d_error why = {{0}};
    if (heat2d_file_check_regular(path, &why) != 0)
        return heat2d_fail(err, "--save-every: %s", why.message);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return heat2d_fail(err, "--save-every: cannot read %s: %s", path, strerror(errno));
    char text[HEAT2D_SERIES_MAX_BYTES + 1];
    size_t got = 0;
    ssize_t n;
    while (got < sizeof text && (n = read(fd, text + got, sizeof text - got)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            return heat2d_fail(err, "--save-every: cannot read %s: %s", path, strerror(e));
        }
        got += (size_t)n;
    }
    close(fd);
    if (heat2d_series_parse(path, text, got, was, &why) != 0)
        return heat2d_fail(err, "--save-every %s: its manifest is not heat2d's: %s", dir,
                           why.message);
    return 0;
}

/* Every file of dir the run would replace, by the rules of --save; with
 * no manifest, any step file there is another run's. */
static int check_entries(const char *dir, bool has_manifest, const heat2d_config *cfg,
                         heat2d_error *err)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return heat2d_fail(err, "--save-every: cannot use '%s': %s", dir, strerror(errno));
    int rc = 0;
    for (struct dirent *e = readdir(d); e != NULL && rc == 0; e = readdir(d)) {
        size_t step;
        if (!has_manifest && looks_like_step_file(e->d_name)) {
            rc = heat2d_fail(err,
                             "--save-every %s holds step files (%s) that no %s describes, another "
                             "run's; choose another folder or empty it",
                             dir, e->d_name, HEAT2D_SERIES_FILE);
        } else if (heat2d_series_step_name(e->d_name, cfg, &step)) {
            char path[PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            heat2d_error why = {{0}};
            if (heat2d_file_check_regular(path, &why) != 0 ||
                heat2d_file_check_replaceable(path, "field file", &why) != 0)
                rc = heat2d_fail(err, "--save-every: %s", why.message);
        }
    }
    closedir(d);
    return rc;
}

int heat2d_series_writes(const char *dir, const heat2d_config *cfg, const char *path, size_t *step)
{
    struct stat want, st;
    DIR *d = stat(path, &want) == 0 ? opendir(dir) : NULL;
    if (d == NULL)
        return 0;
    int found = 0;
    for (struct dirent *e = readdir(d); e != NULL && found == 0; e = readdir(d)) {
        char name[PATH_MAX + 300];
        snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
        const int kind = heat2d_series_step_name(e->d_name, cfg, step) ? 1
                         : strcmp(e->d_name, HEAT2D_SERIES_FILE) == 0  ? 2
                                                                       : 0;
        if (kind != 0 && stat(name, &st) == 0 && st.st_dev == want.st_dev &&
            st.st_ino == want.st_ino)
            found = kind;
    }
    closedir(d);
    return found;
}

uint64_t heat2d_series_bytes(const char *dir, const heat2d_config *cfg)
{
    uint64_t bytes = 0;
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        size_t step;
        char path[PATH_MAX + 300];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (heat2d_series_step_name(e->d_name, cfg, &step) && stat(path, &st) == 0 &&
            S_ISREG(st.st_mode))
            bytes += (uint64_t)st.st_size;
    }
    closedir(d);
    return bytes;
}

int heat2d_series_claim(const char *dir, const heat2d_config *cfg, const char *method,
                        const char *save_path, heat2d_error *err)
{
    int rc = save_collides(dir, save_path, cfg, err);
    if (rc != 0)
        return rc;
    if (make_dirs(dir, err) != 0)
        return -1;
    struct stat st;
    if (stat(dir, &st) != 0)
        return heat2d_fail(err, "--save-every: cannot use '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return heat2d_fail(err, "--save-every: '%s' is not a directory", dir);
    if (access(dir, W_OK | X_OK) != 0)
        return heat2d_fail(err, "--save-every: cannot write into '%s': %s", dir, strerror(errno));
    heat2d_series now = {
        .nx = cfg->nx, .ny = cfg->ny, .alpha = cfg->alpha, .precision = cfg->precision};
    snprintf(now.method, sizeof now.method, "%s", method);
    heat2d_series was;
    const int found = read_manifest(dir, &was, err);
    if (found < 0)
        return -1;
    char what[200];
    if (found == 0 && heat2d_series_differ(&was, &now, what, sizeof what))
        return heat2d_fail(err,
                           "--save-every %s holds the step files of another run (%s); choose "
                           "another folder or empty it",
                           dir, what);
    if (check_entries(dir, found == 0, cfg, err) != 0)
        return -1;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, HEAT2D_SERIES_FILE);
    return heat2d_file_replace(path, "series manifest", heat2d_series_write, &now, err);
}
