/* The memory this process may really use: the tightest of physical memory,
 * its cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes, every
 * ancestor's too, since a parent's limit binds its children) and its
 * address-space limit (ulimit -v). A container or a batch job usually sees
 * the machine's memory through sysconf but is killed at its cgroup's limit;
 * refusing up front against the right number turns that kill into a line. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE, where there are */

#include "heat2d_memory.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* A limit file's value: a decimal byte count; "max" (v2's none), an empty,
 * unreadable or garbled file, or 0 give 0, no limit known. v1's "none" is a
 * huge number, which the minimum below passes over. */
static uint64_t read_limit_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char text[64];
    bool got = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    if (!got || !isdigit((unsigned char)text[0]))
        return 0;
    errno = 0;
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || (*end != '\0' && *end != '\n'))
        return 0;
    return (uint64_t)value;
}

/* The least limit in file `name` of the cgroup directory mount/path and of
 * each of its ancestors up to the mount itself; 0 if none. A path that the
 * mount does not hold (a container seeing its host's path) is walked up
 * just the same, to the mount's own limit. */
static uint64_t cgroup_chain_limit(const char *mount, const char *path, const char *name)
{
    /* "/.." would climb out of the mount: such a path is not followed. */
    if (strstr(path, "/..") != NULL)
        return 0;
    char dir[4096];
    int len = snprintf(dir, sizeof dir, "%s%s", mount, strcmp(path, "/") == 0 ? "" : path);
    if (len < 0 || (size_t)len >= sizeof dir)
        return 0;
    size_t mount_len = strlen(mount);
    uint64_t least = 0;
    for (;;) {
        char file[4200];
        snprintf(file, sizeof file, "%s/%s", dir, name);
        uint64_t limit = read_limit_file(file);
        if (limit != 0 && (least == 0 || limit < least))
            least = limit;
        char *slash = strrchr(dir, '/');
        if (strlen(dir) <= mount_len || slash == NULL || (size_t)(slash - dir) < mount_len)
            break;
        *slash = '\0';
    }
    return least;
}

/* Whether a comma-separated controller list names "memory" (v1's
 * hierarchies may join several: "cpu,memory"). No strtok: two threads may
 * ask at once (compare reads two files in parallel). */
static bool lists_memory(const char *controllers)
{
    for (const char *c = controllers; *c != '\0';) {
        size_t len = strcspn(c, ",");
        if (len == 6 && strncmp(c, "memory", 6) == 0)
            return true;
        c += len + (c[len] == ',');
    }
    return false;
}

/* Takes limit as the new least when it is tighter. */
static void consider(uint64_t limit, const char *source, uint64_t *least, const char **which)
{
    if (limit != 0 && (*least == 0 || limit < *least)) {
        *least = limit;
        *which = source;
    }
}

uint64_t heat2d_memory_limit_under(const char *root, const char **source)
{
    uint64_t least = 0;
    const char *which = NULL;
    consider(heat2d_physical_memory(), HEAT2D_MEMORY_PHYSICAL, &least, &which);

    /* Each line of /proc/self/cgroup is "ID:CONTROLLERS:PATH": v2's has ID
     * 0 and no controllers, v1's memory hierarchy lists "memory". */
    char path[4200];
    snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
    FILE *f = fopen(path, "r");
    char line[4096];
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        char *nl = strchr(line, '\n');
        if (nl == NULL)
            continue; /* longer than any path this reads: not followed */
        *nl = '\0';
        char *first = strchr(line, ':');
        char *second = first ? strchr(first + 1, ':') : NULL;
        if (second == NULL || second[1] != '/')
            continue;
        *first = *second = '\0';
        const char *controllers = first + 1;
        const char *cgroup = second + 1;
        char mount[4200];
        if (strcmp(line, "0") == 0 && controllers[0] == '\0') {
            snprintf(mount, sizeof mount, "%s/sys/fs/cgroup", root);
            consider(cgroup_chain_limit(mount, cgroup, "memory.max"), HEAT2D_MEMORY_CGROUP_V2,
                     &least, &which);
            continue;
        }
        if (lists_memory(controllers)) {
            snprintf(mount, sizeof mount, "%s/sys/fs/cgroup/memory", root);
            consider(cgroup_chain_limit(mount, cgroup, "memory.limit_in_bytes"),
                     HEAT2D_MEMORY_CGROUP_V1, &least, &which);
        }
    }
    if (f != NULL)
        fclose(f);

    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        consider((uint64_t)rl.rlim_cur, HEAT2D_MEMORY_RLIMIT_AS, &least, &which);
    if (source != NULL)
        *source = which;
    return least;
}

uint64_t heat2d_memory_limit(const char **source)
{
    return heat2d_memory_limit_under("", source);
}

const char *heat2d_memory_limit_text(char *buf, size_t size, uint64_t limit, const char *source)
{
    if (source == NULL || strcmp(source, HEAT2D_MEMORY_PHYSICAL) == 0)
        snprintf(buf, size, "this machine's %.3g GB of memory", (double)limit / 1e9);
    else
        snprintf(buf, size, "the %.3g GB %s allows", (double)limit / 1e9, source);
    return buf;
}

uint64_t heat2d_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)page_size;
}

/* Filling a fresh array of tens of megabytes costs a page fault per 4 KiB
 * page, a good part of reading a large field; huge pages cut that 500-fold
 * where the kernel grants them on request. Only advice: nothing depends on
 * it. */
void heat2d_advise_huge_pages(void *start, size_t bytes)
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
