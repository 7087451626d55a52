/* The paths a fatal signal removes, and the handler that removes them.
 * Everything the handler touches is a fixed array of plain bytes, set
 * before its slot is marked in use, and every call in it is
 * async-signal-safe (getdents64 through syscall is, on Linux). */
#define _GNU_SOURCE /* syscall, SYS_getdents64 */

#include "process_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

enum { SLOT_FREE, SLOT_FILE, SLOT_FOLDER };

#define N_SLOTS 16

static struct {
    volatile sig_atomic_t kind;
    char path[PATH_MAX];
} slots[N_SLOTS];

static volatile pid_t doomed_group;

/* What the handler says was kept, written with its line; "" for nothing. */
static char kept[PATH_MAX + 128];
static volatile sig_atomic_t quiet;

/* Every catchable signal whose default action ends the process. SIGPIPE
 * and SIGXFSZ are ignored instead (heat2d_process_start). */
static const int fatal_signals[] = {SIGHUP,  SIGINT,  SIGQUIT,   SIGTERM, SIGUSR1,
                                    SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU};

static int add(const char *path, int kind)
{
    size_t len = strlen(path);
    if (len >= PATH_MAX)
        return -1;
    for (int k = 0; k < N_SLOTS; ++k)
        if (slots[k].kind == SLOT_FREE) {
            memcpy(slots[k].path, path, len + 1);
            slots[k].kind = kind;
            return k;
        }
    return -1;
}

int heat2d_cleanup_file(const char *path)
{
    return add(path, SLOT_FILE);
}

int heat2d_cleanup_folder(const char *path)
{
    return add(path, SLOT_FOLDER);
}

void heat2d_cleanup_forget(int slot)
{
    if (slot >= 0 && slot < N_SLOTS)
        slots[slot].kind = SLOT_FREE;
}

/* The fatal signals blocked, so that none lands between the file's
 * creation and its name's registration (old receives the mask to restore). */
static void block_fatal(sigset_t *old)
{
    sigset_t fatal;
    sigemptyset(&fatal);
    for (size_t k = 0; k < sizeof fatal_signals / sizeof fatal_signals[0]; ++k)
        sigaddset(&fatal, fatal_signals[k]);
    sigprocmask(SIG_BLOCK, &fatal, old);
}

/* The mask heat2d_cleanup_hold found (heat2d makes its files from one
 * thread, one at a time). */
static sigset_t held;

void heat2d_cleanup_hold(void)
{
    block_fatal(&held);
}

void heat2d_cleanup_release(void)
{
    sigprocmask(SIG_SETMASK, &held, NULL);
}

int heat2d_cleanup_mkstemp(char *tmpl, int *slot)
{
    sigset_t old;
    block_fatal(&old);
    int fd = mkstemp(tmpl);
    int e = errno;
    *slot = fd >= 0 ? add(tmpl, SLOT_FILE) : -1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

char *heat2d_cleanup_mkdtemp(char *tmpl, int *slot)
{
    sigset_t old;
    block_fatal(&old);
    char *dir = mkdtemp(tmpl);
    int e = errno;
    *slot = dir != NULL ? add(tmpl, SLOT_FOLDER) : -1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return dir;
}

const char *heat2d_tmp_base(void)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0')
        return "/tmp";
    if (tmp[0] == '/')
        return tmp;
    /* Relative: made absolute once, against the folder heat2d started in,
     * so that every name under it (a program's FIELD_FILE) holds wherever
     * the process that gets it runs. Kept as given where no folder is. */
    static char absolute[PATH_MAX];
    char cwd[PATH_MAX];
    if (absolute[0] == '\0' && getcwd(cwd, sizeof cwd) != NULL &&
        (size_t)snprintf(absolute, sizeof absolute, "%s/%s", cwd, tmp) >= sizeof absolute)
        absolute[0] = '\0';
    return absolute[0] != '\0' ? absolute : tmp;
}

/* A scratch folder's lock (scratch_sweep.c) by its cleanup slot, as its
 * descriptor + 1 (0: none): held while the folder lives, released by the
 * kernel however the process ends. The handler never touches these. */
static int scratch_locks[N_SLOTS];

int heat2d_scratch_make(const char *base, const char *name, char *path, size_t size, int *slot)
{
    *slot = -1;
    /* A bench's trials leave the sweep to the bench itself. */
    const char *bench = getenv("HEAT2D_BENCH_PID");
    if (bench == NULL || strtol(bench, NULL, 10) == (long)getpid())
        heat2d_scratch_sweep(base);
    const int len = snprintf(path, size, "%s/%s-%ld-XXXXXX", base, name, (long)getpid());
    int rc = 0;
    if (len < 0 || (size_t)len >= size)
        rc = ENAMETOOLONG;
    else if (heat2d_cleanup_mkdtemp(path, slot) == NULL)
        rc = errno;
    if (rc != 0 && size > 0)
        path[0] = '\0';
    if (rc == 0 && *slot >= 0)
        scratch_locks[*slot] = heat2d_scratch_claim(path) + 1;
    return rc;
}

void heat2d_scratch_drop(const char *path, int *slot)
{
    if (*slot < 0)
        return;
    heat2d_remove_folder(path);
    if (scratch_locks[*slot] > 0)
        close(scratch_locks[*slot] - 1);
    scratch_locks[*slot] = 0;
    heat2d_cleanup_forget(*slot);
    *slot = -1;
}

void heat2d_cleanup_quiet(bool on)
{
    quiet = on;
}

void heat2d_cleanup_kept(const char *text)
{
    sigset_t old;
    block_fatal(&old);
    snprintf(kept, sizeof kept, "%s", text);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void heat2d_cleanup_process_group(pid_t group)
{
    doomed_group = group;
}

/* The folder's entries, then the folder (async-signal-safe: the handler
 * calls it too). */
void heat2d_remove_folder(const char *path)
{
#ifdef __linux__
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        /* struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name */
        char buffer[4096] __attribute__((aligned(8)));
        long got;
        while ((got = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
            for (long at = 0; at < got;) {
                unsigned short reclen;
                memcpy(&reclen, buffer + at + 16, sizeof reclen);
                const char *name = buffer + at + 19;
                if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
                    unlinkat(fd, name, 0);
                at += reclen;
            }
        }
        close(fd);
    }
#endif
    rmdir(path);
}

/* "heat2d: interrupted by signal N[: KEPT]" on stderr, from the handler:
 * write() only, the number formatted by hand. */
static void say_interrupted(int sig)
{
    char line[sizeof kept + 64];
    static const char head[] = "heat2d: interrupted by signal ";
    size_t n = sizeof head - 1;
    memcpy(line, head, n);
    char digits[12];
    size_t d = 0;
    for (unsigned v = (unsigned)sig; d == 0 || v > 0; v /= 10)
        digits[d++] = (char)('0' + v % 10);
    while (d > 0)
        line[n++] = digits[--d];
    size_t k = strlen(kept);
    if (k > 0) {
        line[n++] = ':';
        line[n++] = ' ';
        memcpy(line + n, kept, k);
        n += k;
    }
    line[n++] = '\n';
    ssize_t ignored = write(STDERR_FILENO, line, n);
    (void)ignored;
}

static void clean_up_and_die(int sig)
{
    pid_t group = doomed_group;
    if (group > 0)
        kill(-group, SIGKILL);
    for (int k = 0; k < N_SLOTS; ++k) {
        if (slots[k].kind == SLOT_FILE)
            unlink(slots[k].path);
        else if (slots[k].kind == SLOT_FOLDER)
            heat2d_remove_folder(slots[k].path);
    }
    if (!quiet)
        say_interrupted(sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

void heat2d_cleanup_install(void)
{
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = clean_up_and_die;
    sigemptyset(&act.sa_mask);
    for (size_t k = 0; k < sizeof fatal_signals / sizeof fatal_signals[0]; ++k)
        sigaddset(&act.sa_mask, fatal_signals[k]);
    for (size_t k = 0; k < sizeof fatal_signals / sizeof fatal_signals[0]; ++k) {
        /* A signal the parent ignored (nohup's SIGHUP) stays ignored. */
        struct sigaction old;
        if (sigaction(fatal_signals[k], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(fatal_signals[k], &act, NULL);
    }
}
