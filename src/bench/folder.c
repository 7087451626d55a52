/* heat2d bench: its results folder, made and checked before anything runs:
 * a folder of the user's is refused, and so is a file there the bench could
 * not replace at the end. */
#define _GNU_SOURCE
#include "file_replace.h"
#include "folder.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_dirs(const char *dir, heat2d_error *err)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return heat2d_fail(err, "--out path is too long");
    for (char *p = path + 1;; ++p) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return heat2d_fail(err, "cannot create %s: %s", path, strerror(errno));
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            return heat2d_fail(err, "cannot create %s: %s", dir,
                               stat(path, &st) != 0 ? strerror(errno) : "Not a directory");
        *p = saved;
        if (saved == '\0')
            break;
    }
    if (access(dir, W_OK | X_OK) != 0)
        return heat2d_fail(err, "cannot write into %s: %s", dir, strerror(errno));
    return 0;
}

void bench_default_folder(const bench_run_info *info, char *path, size_t size)
{
    char host[256];
    snprintf(host, sizeof host, "%s", info->hostname);
    for (char *p = host; *p != '\0'; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.' || *p == '_'))
            *p = '-';
    snprintf(path, size, "results/%s-%s", host, info->run_id);
}

/* The files a bench writes into its folder. */
static const char *const bench_files[] = {
    "trials.csv",    "trials.torn.csv", "summary.md",    "environment.txt",
    "bandwidth.txt", "field.png",       "headline.png",  "time_per_step.png",
    "phases.png",    "scaling.png",     "snapshots.png",
};
#define N_BENCH_FILES (sizeof bench_files / sizeof bench_files[0])

/* A bench writes only into a folder of its own: a new one, an empty one,
 * or one with a trials.csv (whose header the ledger then holds to ours).
 * Any other folder is the user's: refused, naming a file the bench would
 * have replaced there (else the first thing in it). */
static int folder_is_ours(const char *dir, heat2d_error *err)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0; /* not there yet (or not a folder: make_dirs says so) */
    char first[256] = "";
    bool has_trials = false, any = false;
    const char *touched = NULL;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        any = true;
        has_trials = has_trials || strcmp(e->d_name, "trials.csv") == 0;
        if (first[0] == '\0' || strcmp(e->d_name, first) < 0)
            snprintf(first, sizeof first, "%s", e->d_name);
        for (size_t k = 0; k < N_BENCH_FILES && touched == NULL; ++k)
            if (strcmp(e->d_name, bench_files[k]) == 0)
                touched = bench_files[k];
    }
    closedir(d);
    if (!any || has_trials)
        return 0;
    return heat2d_fail(err,
                       "--out %s is not a heat2d bench folder: it holds %s%s and no trials.csv; "
                       "choose a new or empty folder",
                       dir, touched != NULL ? touched : first,
                       touched != NULL ? ", which the bench would replace," : "");
}

/* The files a bench writes into its folder, by the rules every heat2d
 * writer follows: one the user made read-only is refused before anything
 * runs, not at the end. Each must be a regular file: the bench reads its
 * own back, and a FIFO among them would hang it. */
static int outputs_writable(const char *dir, heat2d_error *err)
{
    char path[4200];
    for (size_t k = 0; k < N_BENCH_FILES; ++k) {
        snprintf(path, sizeof path, "%s/%s", dir, bench_files[k]);
        if (heat2d_file_check_regular(path, err) != 0 ||
            heat2d_file_check_replaceable(path, "bench file", err) != 0)
            return -1;
    }
    return 0;
}

int bench_folder_ready(const char *dir, heat2d_error *err)
{
    if (folder_is_ours(dir, err) != 0 || make_dirs(dir, err) != 0 ||
        outputs_writable(dir, err) != 0)
        return -1;
    return 0;
}
