/* heat2d's plotting helpers: which python has matplotlib, where the
 * plotting script is, and how long either may take. The bench's plots and
 * heat2d plot both run plot_bench.py through them. */
#define _GNU_SOURCE
#include "plot_helper.h"
#include "run_state.h"

#include <ctype.h>
#include <fcntl.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* HEAT2D_PLOT_TIMEOUT as bench_check_plot_env read it; 0 when unset. */
static double plot_timeout_s;

int bench_check_plot_env(heat2d_error *err)
{
    const char *text = getenv("HEAT2D_PLOT_TIMEOUT");
    double limit = 0.0;
    if (text != NULL &&
        (heat2d_parse_nonneg_real(text, "HEAT2D_PLOT_TIMEOUT", &limit, NULL) != 0 || limit <= 0.0))
        return heat2d_fail(
            err, "HEAT2D_PLOT_TIMEOUT must be a positive number of seconds, got '%s'", text);
    plot_timeout_s = limit;
    const char *script = getenv("HEAT2D_PLOT_SCRIPT");
    if (script != NULL && script[0] != '\0' && access(script, R_OK) != 0)
        return heat2d_fail(err, "HEAT2D_PLOT_SCRIPT=%s: %s", script, strerror(errno));
    return 0;
}

/* A helper's limit: HEAT2D_PLOT_TIMEOUT (read up front by
 * bench_check_plot_env), else the default. */
double bench_plot_limit(double fallback)
{
    return plot_timeout_s > 0.0 ? plot_timeout_s : fallback;
}

typedef enum probe_result { PROBE_OK, PROBE_NO, PROBE_TIMED_OUT } probe_result;

static probe_result probe(char *const argv[], double *limit)
{
    heat2d_child_result cap;
    *limit = bench_plot_limit(BENCH_PROBE_TIMEOUT_S);
    if (bench_spawn(argv, NULL, *limit, &cap, NULL) != 0)
        return PROBE_NO;
    probe_result result = cap.timed_out           ? PROBE_TIMED_OUT
                          : heat2d_child_ok(&cap) ? PROBE_OK
                                                  : PROBE_NO;
    heat2d_child_result_free(&cap);
    return result;
}

/* HEAT2D_PYTHON, else each python3 on PATH in turn, then Debian's
 * /usr/bin/python3: the first with matplotlib. The first python3 on PATH
 * (pyenv, a venv, the system's) often lacks it where a later one has it.
 * One whose probe hangs ends the search (*hung, with the limit): a python
 * that cannot import in half a minute cannot be trusted to plot. */
const char *bench_find_python(char *tried, size_t tried_size, const char **hung, double *limit)
{
    enum { MAX_CANDIDATES = 16 };
    static char candidates[MAX_CANDIDATES][PATH_MAX];
    size_t n = 0;
    const char *env = getenv("HEAT2D_PYTHON");
    if (env != NULL && env[0] != '\0') {
        snprintf(candidates[n++], sizeof candidates[0], "%s", env);
    } else {
        const char *dirs = getenv("PATH");
        for (const char *p = dirs != NULL ? dirs : ""; n + 1 < MAX_CANDIDATES;) {
            size_t len = strcspn(p, ":");
            if (len > 0 && len + sizeof "/python3" <= sizeof candidates[0]) {
                snprintf(candidates[n], sizeof candidates[0], "%.*s/python3", (int)len, p);
                bool seen = access(candidates[n], X_OK) != 0;
                for (size_t k = 0; k < n && !seen; ++k)
                    seen = strcmp(candidates[k], candidates[n]) == 0;
                n += !seen;
            }
            if (p[len] == '\0')
                break;
            p += len + 1;
        }
        bool seen = false;
        for (size_t k = 0; k < n; ++k)
            seen = seen || strcmp(candidates[k], "/usr/bin/python3") == 0;
        if (!seen)
            snprintf(candidates[n++], sizeof candidates[0], "/usr/bin/python3");
    }
    size_t used = 0;
    tried[0] = '\0';
    *hung = NULL;
    for (size_t k = 0; k < n; ++k) {
        char *argv[] = {candidates[k], "-c", "import matplotlib", NULL};
        probe_result result = probe(argv, limit);
        if (result == PROBE_OK)
            return candidates[k];
        if (result == PROBE_TIMED_OUT) {
            *hung = candidates[k];
            return NULL;
        }
        used += (size_t)snprintf(tried + used, used < tried_size ? tried_size - used : 0, "%s%s",
                                 k ? ", " : "", candidates[k]);
    }
    return NULL;
}

/* An existing, readable file, resolved so that the note telling how to
 * re-run the script reads well. */
static bool readable(const char *guess, char *path, size_t size)
{
    char resolved[PATH_MAX];
    if (realpath(guess, resolved) == NULL || access(resolved, R_OK) != 0)
        return false;
    snprintf(path, size, "%s", resolved);
    return true;
}

/* The plotting script: HEAT2D_PLOT_SCRIPT; else where an installed heat2d
 * keeps it (PREFIX/bin/heat2d -> PREFIX/share/heat2d); else in the source
 * tree this build was made from; else under the working directory. */
bool bench_find_plot_script(char *path, size_t size)
{
    /* The label grammar the script reads (run_options.json): this build's,
     * unless the environment names one; an installed script finds its own
     * beside it. */
    if (access(HEAT2D_BINARY_DIR "/share/heat2d/run_options.json", R_OK) == 0)
        setenv("HEAT2D_RUN_OPTIONS", HEAT2D_BINARY_DIR "/share/heat2d/run_options.json", 0);
    const char *env = getenv("HEAT2D_PLOT_SCRIPT");
    if (env != NULL && env[0] != '\0') {
        snprintf(path, size, "%s", env);
        return access(path, R_OK) == 0;
    }
    char exe[PATH_MAX], guess[PATH_MAX + 64];
    ssize_t len = readlink(BENCH_SELF_EXE, exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        snprintf(guess, sizeof guess, "%s/" HEAT2D_INSTALL_DATADIR "/plot_bench.py", dirname(exe));
        if (readable(guess, path, size))
            return true;
    }
    if (readable(HEAT2D_SOURCE_DIR "/tools/plot_bench.py", path, size))
        return true;
    snprintf(path, size, "tools/plot_bench.py");
    return access(path, R_OK) == 0;
}

bool bench_is_image(const char *path)
{
    unsigned char head[8] = {0};
    /* Never opened to wait: a FIFO of that name would block the read. */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    ssize_t got = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        while ((got = read(fd, head, sizeof head)) < 0 && errno == EINTR)
            continue;
    close(fd);
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    return (got == 8 && memcmp(head, png, 8) == 0) || (got >= 6 && memcmp(head, "GIF89a", 6) == 0);
}

/* A picture the plotter reported as made: an image file, or a stream (a
 * FIFO, a device) it was written into, which keeps nothing to look at. */
static bool picture_made(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
        return true;
    return bench_is_image(path);
}

/* The name of a PLOT= line (len bytes at line, "PLOT=" first) into path:
 * plot_bench.py writes each byte that is not printable ASCII, and the
 * backslash, as \xHH (plot_line), so that a name is always one line. */
static void plot_line_path(const char *line, size_t len, char *path, size_t size)
{
    size_t used = 0;
    for (size_t k = 5; k < len && used + 1 < size; ++k) {
        if (line[k] == '\\' && k + 3 < len && line[k + 1] == 'x' &&
            isxdigit((unsigned char)line[k + 2]) && isxdigit((unsigned char)line[k + 3])) {
            const char digits[3] = {line[k + 2], line[k + 3], '\0'};
            path[used++] = (char)strtoul(digits, NULL, 16);
            k += 3;
        } else {
            path[used++] = line[k];
        }
    }
    path[used] = '\0';
}

/* The PLOT=FILE lines of the plotter's output whose FILE is an image, the
 * only ones the bench passes on (the rest, however much, is the helper's
 * chatter), each name escaped as heat2d prints names; the first FILE that
 * is not one into bad ("" for none). */
char *bench_plot_lines(const char *out, char *bad, size_t bad_size)
{
    char *lines = NULL;
    size_t lines_size = 0;
    FILE *text = open_memstream(&lines, &lines_size);
    if (text == NULL)
        return NULL;
    bad[0] = '\0';
    for (const char *l = out; l != NULL && *l != '\0'; l = strchr(l, '\n'), l = l ? l + 1 : l)
        if (strncmp(l, "PLOT=", 5) == 0) {
            char path[PATH_MAX];
            plot_line_path(l, strcspn(l, "\n"), path, sizeof path);
            if (!picture_made(path)) {
                if (bad[0] == '\0')
                    snprintf(bad, bad_size, "%s", path);
                continue;
            }
            heat2d_print_name(text, "PLOT", path);
        }
    if (fclose(text) != 0) {
        free(lines);
        return NULL;
    }
    return lines;
}

bool bench_plot_reported(const char *out, const char *path)
{
    struct stat want;
    if (stat(path, &want) != 0)
        return false;
    for (const char *l = out; l != NULL && *l != '\0'; l = strchr(l, '\n'), l = l ? l + 1 : l)
        if (strncmp(l, "PLOT=", 5) == 0) {
            char named[PATH_MAX];
            struct stat st;
            plot_line_path(l, strcspn(l, "\n"), named, sizeof named);
            if (stat(named, &st) == 0 && st.st_dev == want.st_dev && st.st_ino == want.st_ino)
                return picture_made(path);
        }
    return false;
}
