/* What heat2d check makes sure of before it starts anything: a TMPDIR it
 * (and MPI, for its session directory) can use, and whether MPI starts.
 * A TMPDIR that fails inside the check would bury its one line under the
 * MPI library's pages of output; an MPI that cannot start would kill the
 * check inside MPI_Init. MPI is optional: its methods are then left out,
 * with a note. */
#define _GNU_SOURCE
#include "check.h"
#include "mpi_probe.h"
#include "process_guard.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 0 when a folder can be made in dir, as the check's own mkdtemp and MPI's
 * session folder will be, else the errno. One is made and removed: the
 * permission bits alone do not say (root passes access() on a file system
 * that refuses every mkdir, as /sys does). */
static int usable_folder(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno;
    if (!S_ISDIR(st.st_mode))
        return ENOTDIR;
    char probe[PATH_MAX];
    if ((size_t)snprintf(probe, sizeof probe, "%s/heat2d-probe-XXXXXX", dir) >= sizeof probe)
        return ENAMETOOLONG;
    int slot;
    if (heat2d_cleanup_mkdtemp(probe, &slot) == NULL)
        return errno;
    rmdir(probe);
    heat2d_cleanup_forget(slot);
    return 0;
}

int check_tmpdir(const char **dir, heat2d_error *err)
{
    const char *tmpdir = getenv("TMPDIR");
    *dir = "/tmp";
    if (tmpdir == NULL || tmpdir[0] == '\0')
        return 0;
    const int rc = usable_folder(tmpdir);
    if (rc != 0)
        return heat2d_fail(err, "TMPDIR '%s' is not a usable directory: %s", tmpdir, strerror(rc));
    *dir = heat2d_tmp_base(); /* absolute, as every scratch name under it */
    return 0;
}

void check_skip_mpi_if_down(check_target *targets, size_t *n, char *note, size_t size)
{
    note[0] = '\0';
    bool any = false;
    for (size_t k = 0; k < *n && !any; ++k)
        any = targets[k].method->distributed;
    if (!any)
        return; /* no MPI method to check: nothing to start */
    heat2d_mpi_probe probe;
    heat2d_mpi_probe_run(&probe);
    if (probe.starts)
        return;
    char names[256] = "";
    size_t used = 0, kept = 0;
    for (size_t k = 0; k < *n; ++k) {
        if (!targets[k].method->distributed) {
            targets[kept++] = targets[k];
            continue;
        }
        if (used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                     targets[k].label);
    }
    *n = kept;
    heat2d_mpi_skip_text(&probe, names, note, size);
}
