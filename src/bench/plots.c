/* heat2d bench: the final field that field.png shows, and the plotting
 * script (matplotlib) run over the folder. Plots are an extra: without them
 * the numbers stand on their own, and a note says how to get the pictures. */
#define _GNU_SOURCE
#include "process_guard.h"
#include "run_state.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIELD_SIDE  256
#define FIELD_STEPS 400

/* Time limits of the plotting helpers, in seconds: the matplotlib probe (an
 * import, under a second when python is well) and the plotting script
 * (seconds for a folder, minutes for a very large one). Past its limit a
 * helper's process group is killed and the plots are skipped, not failed:
 * the numbers stand without them. HEAT2D_PLOT_TIMEOUT (seconds) replaces
 * both, for a slow machine or a test. */
#define PROBE_TIMEOUT_S 30.0
#define PLOT_TIMEOUT_S  300.0

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
static double plot_limit(double fallback)
{
    return plot_timeout_s > 0.0 ? plot_timeout_s : fallback;
}

typedef enum probe_result { PROBE_OK, PROBE_NO, PROBE_TIMED_OUT } probe_result;

static probe_result probe(char *const argv[], double *limit)
{
    bench_capture cap;
    *limit = plot_limit(PROBE_TIMEOUT_S);
    if (bench_spawn_limited(argv, *limit, &cap, NULL) != 0)
        return PROBE_NO;
    probe_result result = cap.timed_out            ? PROBE_TIMED_OUT
                          : bench_capture_ok(&cap) ? PROBE_OK
                                                   : PROBE_NO;
    bench_capture_free(&cap);
    return result;
}

/* HEAT2D_PYTHON, else each python3 on PATH in turn, then Debian's
 * /usr/bin/python3: the first with matplotlib. The first python3 on PATH
 * (pyenv, a venv, the system's) often lacks it where a later one has it.
 * One whose probe hangs ends the search (*hung, with the limit): a python
 * that cannot import in half a minute cannot be trusted to plot. */
static const char *find_python(char *tried, size_t tried_size, const char **hung, double *limit)
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
static bool find_plot_script(char *path, size_t size)
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

/* The final field that field.png shows: cpu, 256x256, 400 steps. */
/* The field file lives in a scratch folder of the bench's own (removed by
 * bench_drop_field, or by a fatal signal), never in the results folder,
 * where a file of that name may be the user's (or a link to one). */
static char field_dir[4096];
static int field_slot = -1;

int bench_save_field(bench_state *st, char *path, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0')
        tmp = "/tmp";
    int len = snprintf(field_dir, sizeof field_dir, "%s/heat2d-field-XXXXXX", tmp);
    if (len < 0 || (size_t)len >= sizeof field_dir ||
        heat2d_cleanup_mkdtemp(field_dir, &field_slot) == NULL) {
        const char *why =
            len < 0 || (size_t)len >= sizeof field_dir ? strerror(ENAMETOOLONG) : strerror(errno);
        field_dir[0] = '\0';
        bench_say(st, "the field for field.png failed: cannot create a folder in %s: %s", tmp, why);
        bench_add_note(st->info,
                       "FAILED: the cpu run for field.png: cannot create a folder in %s: %s", tmp,
                       why);
        st->failures++;
        return -1;
    }
    snprintf(path, size, "%s/field_%d.dat", field_dir, FIELD_SIDE);
    char nx[16], steps[16];
    snprintf(nx, sizeof nx, "%d", FIELD_SIDE);
    snprintf(steps, sizeof steps, "%d", FIELD_STEPS);
    char *argv[] = {BENCH_SELF_EXE, "run", "--method", "cpu", "--nx", nx, "--ny", nx,
                    "--steps",      steps, "--save",   path,  NULL};
    bench_capture cap;
    heat2d_error err = {{0}};
    char why[HEAT2D_MESSAGE_ROOM];
    if (bench_spawn(argv, &cap, &err) != 0) {
        snprintf(why, sizeof why, "%s", err.message);
    } else {
        bool ok = bench_capture_ok(&cap);
        if (!ok)
            bench_capture_why(&cap, why, sizeof why);
        bench_capture_free(&cap);
        if (ok)
            return 0;
    }
    if (bench_interrupted)
        return -1; /* ended with the bench on purpose: no failure */
    bench_say(st, "the field for field.png failed: %s", why);
    bench_add_note(st->info, "FAILED: the cpu run for field.png: %s", why);
    st->failures++;
    return -1;
}

void bench_drop_field(void)
{
    if (field_dir[0] == '\0')
        return;
    heat2d_remove_folder(field_dir); /* it holds only the field this bench wrote */
    heat2d_cleanup_forget(field_slot);
    field_dir[0] = '\0';
    field_slot = -1;
}

/* The PLOT=FILE lines of the plotter's output, the only ones the bench
 * passes on (the rest, however much, is the helper's chatter). */
static char *plot_lines(const char *out)
{
    size_t room = 1;
    for (const char *l = out; l != NULL && *l != '\0'; l = strchr(l, '\n'), l = l ? l + 1 : l)
        if (strncmp(l, "PLOT=", 5) == 0)
            room += strcspn(l, "\n") + 1;
    char *lines = malloc(room);
    if (lines == NULL)
        return NULL;
    size_t used = 0;
    for (const char *l = out; l != NULL && *l != '\0'; l = strchr(l, '\n'), l = l ? l + 1 : l)
        if (strncmp(l, "PLOT=", 5) == 0) {
            size_t len = strcspn(l, "\n");
            memcpy(lines + used, l, len);
            used += len;
            lines[used++] = '\n';
        }
    lines[used] = '\0';
    return lines;
}

/* Plots are an extra: without matplotlib the numbers stand on their own,
 * and the note says how to get the pictures. */
void bench_make_plots(bench_state *st, bool have_field, const char *field_path, char **plot_out)
{
    const char *dir = st->info->dir;
    char tried[256], script[PATH_MAX + 64];
    const char *hung = NULL;
    double limit = 0.0;
    if (!find_plot_script(script, sizeof script)) {
        bench_say(st, "plots skipped: plot_bench.py not found (set HEAT2D_PLOT_SCRIPT)");
        bench_add_note(st->info, "Plots skipped: plot_bench.py not found (neither installed "
                                 "beside heat2d nor in its source tree).");
        return;
    }
    /* The probes after the script is found: without it they were for
     * nothing. */
    const char *python = find_python(tried, sizeof tried, &hung, &limit);
    if (bench_interrupted)
        return; /* a probe was ended with the bench: its answer means nothing */
    if (hung != NULL) {
        bench_say(st, "plots skipped: %s -c 'import matplotlib' timed out after %g s", hung, limit);
        bench_add_note(st->info,
                       "Plots skipped: %s -c 'import matplotlib' timed out after %g s (its "
                       "process group was killed; HEAT2D_PLOT_TIMEOUT sets the limit). Then: "
                       "python3 %s %s",
                       hung, limit, script, dir);
        return;
    }
    if (python == NULL) {
        bench_add_note(st->info,
                       "Plots skipped (time_per_step.png, headline.png, field.png): no python "
                       "with matplotlib (tried %s). Install: apt-get install python3-matplotlib; "
                       "then: python3 %s %s",
                       tried, script, dir);
        bench_progress_clear(st);
        printf("NOTE: %s\n", st->info->notes[st->info->n_notes - 1]);
        return;
    }
    char *argv[] = {(char *)python, script, (char *)dir, have_field ? (char *)field_path : NULL,
                    NULL};
    bench_capture cap;
    heat2d_error err = {{0}};
    char why[HEAT2D_MESSAGE_ROOM];
    limit = plot_limit(PLOT_TIMEOUT_S);
    if (bench_spawn_limited(argv, limit, &cap, &err) != 0) {
        snprintf(why, sizeof why, "%s", err.message);
    } else if (cap.timed_out) {
        bench_capture_free(&cap);
        bench_say(st, "plots skipped: %s %s timed out after %g s", python, script, limit);
        bench_add_note(st->info,
                       "Plots skipped: %s %s timed out after %g s (its process group was killed; "
                       "HEAT2D_PLOT_TIMEOUT sets the limit). Then: %s %s %s",
                       python, script, limit, python, script, dir);
        return;
    } else if (bench_interrupted) {
        /* Ended with the bench on purpose: not a failure of the script. */
        bench_capture_free(&cap);
        bench_add_note(st->info, "Plots skipped: interrupted by signal %d. Then: %s %s %s",
                       (int)bench_interrupted, python, script, dir);
        return;
    } else if (!bench_capture_ok(&cap)) {
        bench_capture_why(&cap, why, sizeof why);
        bench_capture_free(&cap);
    } else {
        *plot_out = plot_lines(cap.out);
        bench_capture_free(&cap);
        return;
    }
    bench_say(st, "plots failed: %s", why);
    bench_add_note(st->info, "FAILED: %s %s: %s", python, script, why);
    st->failures++;
}
