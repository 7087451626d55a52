/* Unit tests of heat2d_memory_limit: fake /proc/self/cgroup and
 * /sys/fs/cgroup trees under a temporary directory (cgroup v2, v1, both,
 * limits on a parent, a path the mount does not hold, files that are not
 * limits), RLIMIT_AS in a child process, and the refusal's wording.
 *
 * Needs no arguments: the trees go to a fresh directory under $TMPDIR (or
 * /tmp), removed at the end. */
#define _XOPEN_SOURCE 700 /* nftw */

#include "heat2d.h"
#include "unit_check.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char base[512];

#define MIB (UINT64_C(1) << 20)

/* base/NAME/REL with every directory on the way made, holding text. */
static void put(const char *tree, const char *rel, const char *text)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s/%s", base, tree, rel);
    for (char *s = path + strlen(base) + 1; (s = strchr(s, '/')) != NULL; ++s) {
        *s = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            fprintf(stderr, "test_memory_limit: mkdir %s: %s\n", path, strerror(errno));
            exit(2);
        }
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "test_memory_limit: cannot write %s\n", path);
        exit(2);
    }
}

static uint64_t limit_of(const char *tree, const char **source)
{
    char root[1024];
    snprintf(root, sizeof root, "%s/%s", base, tree);
    return heat2d_memory_limit_under(root, source);
}

/* The tree's limit is `want` bytes from `source`, or physical memory when
 * want is 0 (RLIMIT_AS is unlimited in the test's own process). */
static void expect_limit(const char *tree, uint64_t want, const char *want_source)
{
    const char *source = NULL;
    uint64_t got = limit_of(tree, &source);
    if (want == 0) {
        want = heat2d_physical_memory();
        want_source = HEAT2D_MEMORY_PHYSICAL;
    }
    check(got == want && source != NULL && strcmp(source, want_source) == 0,
          "%s: limit %llu from '%s', want %llu from '%s'", tree, (unsigned long long)got,
          source ? source : "(null)", (unsigned long long)want, want_source);
}

static void test_cgroup_trees(void)
{
    /* v2: the parent's limit binds the child, whose own is "max". */
    put("v2_parent", "proc/self/cgroup", "0::/user.slice/job\n");
    put("v2_parent", "sys/fs/cgroup/user.slice/job/memory.max", "max\n");
    put("v2_parent", "sys/fs/cgroup/user.slice/memory.max", "1073741824\n");
    expect_limit("v2_parent", 1024 * MIB, HEAT2D_MEMORY_CGROUP_V2);

    /* v2: the child's own, tighter than its parent's. */
    put("v2_child", "proc/self/cgroup", "0::/a/b\n");
    put("v2_child", "sys/fs/cgroup/a/b/memory.max", "536870912\n");
    put("v2_child", "sys/fs/cgroup/a/memory.max", "1073741824\n");
    expect_limit("v2_child", 512 * MIB, HEAT2D_MEMORY_CGROUP_V2);

    /* v2 in a container (its own cgroup namespace): "/" and the mount's
     * own memory.max. */
    put("v2_ns", "proc/self/cgroup", "0::/\n");
    put("v2_ns", "sys/fs/cgroup/memory.max", "2147483648\n");
    expect_limit("v2_ns", 2048 * MIB, HEAT2D_MEMORY_CGROUP_V2);

    /* v2 without any limit: physical memory. */
    put("v2_max", "proc/self/cgroup", "0::/a\n");
    put("v2_max", "sys/fs/cgroup/a/memory.max", "max\n");
    expect_limit("v2_max", 0, NULL);

    /* v1: the memory controller's line among others, joined with cpu. */
    put("v1", "proc/self/cgroup", "12:pids:/x\n4:cpu,memory:/x/y\n0::/\n");
    put("v1", "sys/fs/cgroup/memory/x/y/memory.limit_in_bytes", "268435456\n");
    put("v1", "sys/fs/cgroup/memory/x/memory.limit_in_bytes", "9223372036854771712\n");
    expect_limit("v1", 256 * MIB, HEAT2D_MEMORY_CGROUP_V1);

    /* v1 "unlimited" (a page-rounded 2^63) everywhere: physical memory. */
    put("v1_none", "proc/self/cgroup", "4:memory:/x\n");
    put("v1_none", "sys/fs/cgroup/memory/x/memory.limit_in_bytes", "9223372036854771712\n");
    put("v1_none", "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    expect_limit("v1_none", 0, NULL);

    /* v1 in a container: the host's path is not under the mount, which is
     * the container's own cgroup: walked up to the mount's limit. */
    put("v1_host_path", "proc/self/cgroup", "4:memory:/docker/0123abcd\n");
    put("v1_host_path", "sys/fs/cgroup/memory/memory.limit_in_bytes", "805306368\n");
    expect_limit("v1_host_path", 768 * MIB, HEAT2D_MEMORY_CGROUP_V1);

    /* Both hierarchies (a hybrid system): the tighter. */
    put("hybrid", "proc/self/cgroup", "4:memory:/m\n0::/u\n");
    put("hybrid", "sys/fs/cgroup/memory/m/memory.limit_in_bytes", "1073741824\n");
    put("hybrid", "sys/fs/cgroup/u/memory.max", "734003200\n");
    expect_limit("hybrid", 700 * MIB, HEAT2D_MEMORY_CGROUP_V2);

    /* Nothing that is a limit: no /proc at all, a "/.." path (not
     * followed out of the mount), garbled, empty and zero limits. */
    put("none", "README", "no proc here\n");
    expect_limit("none", 0, NULL);
    put("dotdot", "proc/self/cgroup", "0::/../escape\n");
    put("dotdot", "sys/fs/escape/memory.max", "1048576\n");
    expect_limit("dotdot", 0, NULL);
    put("garbled", "proc/self/cgroup", "0::/a\n0::/b\nnot a line\n4:memory\n");
    put("garbled", "sys/fs/cgroup/a/memory.max", "12k\n");
    put("garbled", "sys/fs/cgroup/b/memory.max", "");
    put("garbled", "sys/fs/cgroup/memory.max", "0\n");
    expect_limit("garbled", 0, NULL);
}

/* RLIMIT_AS, set in a child (the limit stays there) with the fake trees:
 * the tighter of it and the cgroup's. Not under AddressSanitizer, whose
 * shadow memory alone is far above any such limit. */
static void test_rlimit_as(void)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("test_memory_limit: RLIMIT_AS not tested under AddressSanitizer\n");
#else
    const uint64_t as = 900 * MIB;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl;
        getrlimit(RLIMIT_AS, &rl);
        rl.rlim_cur = (rlim_t)as;
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        const char *source = NULL;
        if (limit_of("none", &source) != as || strcmp(source, HEAT2D_MEMORY_RLIMIT_AS) != 0)
            _exit(4);
        if (limit_of("v2_child", &source) != 512 * MIB ||
            strcmp(source, HEAT2D_MEMORY_CGROUP_V2) != 0)
            _exit(5);
        if (heat2d_memory_limit(&source) > as)
            _exit(6);
        _exit(0);
    }
    int status = 0;
    check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0,
          "RLIMIT_AS 900 MiB in a child: status %d (3 setrlimit, 4 not chosen, 5 not beaten by "
          "a tighter cgroup, 6 the real limit above it)",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
#endif
}

/* This machine's: never above physical memory, always named. */
static void test_this_machine(void)
{
    const char *source = NULL;
    uint64_t limit = heat2d_memory_limit(&source);
    uint64_t physical = heat2d_physical_memory();
    check(limit != 0 && limit <= physical && source != NULL, "this machine: %llu (%s) of %llu",
          (unsigned long long)limit, source ? source : "(null)", (unsigned long long)physical);
    check(heat2d_memory_limit(NULL) == limit, "source may be NULL");
}

static void test_text(void)
{
    char buf[128];
    check(strcmp(heat2d_memory_limit_text(buf, sizeof buf, 16000000000u, HEAT2D_MEMORY_PHYSICAL),
                 "this machine's 16 GB of memory") == 0,
          "physical: '%s'", buf);
    check(strcmp(heat2d_memory_limit_text(buf, sizeof buf, 536870912u, HEAT2D_MEMORY_RLIMIT_AS),
                 "the 0.537 GB RLIMIT_AS (ulimit -v) allows") == 0,
          "RLIMIT_AS: '%s'", buf);
    check(strcmp(heat2d_memory_limit_text(buf, sizeof buf, 1073741824u, HEAT2D_MEMORY_CGROUP_V2),
                 "the 1.07 GB cgroup memory limit (memory.max) allows") == 0,
          "cgroup v2: '%s'", buf);
    check(strcmp(heat2d_memory_limit_text(buf, sizeof buf, 268435456u, HEAT2D_MEMORY_CGROUP_V1),
                 "the 0.268 GB cgroup v1 memory limit allows") == 0,
          "cgroup v1: '%s'", buf);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/test_memory_limit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(base) == NULL) {
        fprintf(stderr, "test_memory_limit: cannot make %s: %s\n", base, strerror(errno));
        return 2;
    }
    test_cgroup_trees();
    test_rlimit_as();
    test_this_machine();
    test_text();

    if (nftw(base, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "test_memory_limit: could not remove %s\n", base);
    return unit_finish("test_memory_limit");
}
