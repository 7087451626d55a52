/* The processes above this one, read from /proc/PID/stat: "pid (comm)
 * state ppid ...", where comm may hold blanks and parentheses, so the last
 * ')' ends it. */
#define _POSIX_C_SOURCE 200809L
#include "ancestry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* pid's command name into comm and its parent; false when unknown. */
static bool stat_of(pid_t pid, char *comm, size_t size, pid_t *parent)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return false;
    char line[1024];
    const size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    char *open = strchr(line, '(');
    char *close = strrchr(line, ')');
    long ppid = 0;
    if (open == NULL || close == NULL || close < open || sscanf(close + 1, " %*c %ld", &ppid) != 1)
        return false;
    const size_t len = (size_t)(close - open - 1);
    snprintf(comm, size, "%.*s", (int)(len < size ? len : size - 1), open + 1);
    *parent = (pid_t)ppid;
    return true;
}

pid_t heat2d_parent_of(pid_t pid)
{
    char comm[64];
    pid_t parent = 0;
    return stat_of(pid, comm, sizeof comm, &parent) ? parent : 0;
}

bool heat2d_has_ancestor(pid_t who)
{
    pid_t p = getppid();
    for (int depth = 0; depth < 64 && p > 1; ++depth, p = heat2d_parent_of(p))
        if (p == who)
            return true;
    return false;
}

bool heat2d_ancestor_named(const char *const names[], int depth)
{
    pid_t p = getppid();
    for (int d = 0; d < depth && p > 1; ++d) {
        char comm[64];
        pid_t parent = 0;
        if (!stat_of(p, comm, sizeof comm, &parent))
            return false;
        for (size_t k = 0; names[k] != NULL; ++k)
            if (strcmp(comm, names[k]) == 0)
                return true;
        p = parent;
    }
    return false;
}

bool heat2d_under_mpi_launcher(void)
{
    static int known = -1;
    if (known < 0) {
        static const char *const launchers[] = {
            "mpirun", "mpiexec", "orterun",    "orted",           "prterun",   "prted",
            "prte",   "srun",    "slurmstepd", "hydra_pmi_proxy", "pmi_proxy", NULL};
        known = heat2d_ancestor_named(launchers, 8);
    }
    return known != 0;
}

bool heat2d_launched_as_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK",
                                        NULL};
    bool named = false;
    for (size_t k = 0; names[k] != NULL && !named; ++k) {
        const char *value = getenv(names[k]);
        named = value != NULL && value[0] != '\0';
    }
    return named && heat2d_under_mpi_launcher();
}
