/* heat2d bench: the original's benchmark, for every method this build and
 * machine can run. Warm-ups are not recorded; the order of methods rotates
 * each trial so that no method always runs on a machine warmed (or heated)
 * by the same neighbour; every trial is a fresh `heat2d run` process whose
 * wall time is PROCESS_S, and every trial is in trials.csv as soon as it ends.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "commands.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Every child runs this very binary, whatever PATH or the working directory
 * say, so that a benchmark never mixes builds. */
#define SELF_EXE "/proc/self/exe"

#define FULL_LADDER "128x128:50,512x512:200,1024x1024:300,2048x2048:500"
#define GPU_LADDER  FULL_LADDER ",8192x8192:500"
/* Without a GPU every method runs on the CPU: on a 2-core machine 2048x2048
 * at 500 steps alone takes about 90 s over 4 methods x 6 runs. 200 steps keep
 * the out-of-cache size in the picture and the whole ladder near a minute
 * (measured: 52 s for cpu, omp, acc-each, acc-resident). */
#define CPU_LADDER   "128x128:50,512x512:200,1024x1024:300,2048x2048:200"
#define CPU_CUT_TEXT "2048x2048 runs 200 steps, not the article's 500"

#define FIELD_SIDE  256
#define FIELD_STEPS 400

static void usage(FILE *stream)
{
    fputs("usage: heat2d bench [--methods LIST] [--sizes NXxNY:STEPS,...] [--warmups K]\n"
          "                    [--repeats K] [--out DIR] [--pinned-too] [--ranks LIST]\n"
          "                    [--weak NXxNY:STEPS] [--precision LIST]\n"
          "\n"
          "  --methods LIST  comma-separated; default: every method this build and machine\n"
          "                  can run, with a -pinned twin of each method that has one\n"
          "  --pinned-too    with --methods: add the -pinned twin of each listed method\n"
          "  --sizes LIST    default with a GPU: " GPU_LADDER "\n"
          "                  without one: " CPU_LADDER "\n"
          "  --warmups K     unrecorded runs per method and size (default 1)\n"
          "  --repeats K     recorded trials per method and size (default 5)\n"
          "  --ranks LIST    comma-separated rank counts, e.g. 1,2,4: each distributed method\n"
          "                  in --methods runs under mpirun -np P for each P (strong scaling)\n"
          "  --weak SIZE     with --ranks: weak scaling too, SIZE per rank: at P ranks the\n"
          "                  grid is (NX*P)xNY, STEPS steps\n"
          "  --precision LIST  comma-separated from f64, f32 (default f64): each method runs\n"
          "                  in each; f32 rows are labelled METHOD-f32\n"
          "  --out DIR       default results/HOST-YYYYMMDD-HHMMSS; an existing folder's\n"
          "                  trials.csv is appended to\n"
          "\n"
          "Writes trials.csv, environment.txt, summary.md and PNG plots into DIR and prints\n"
          "the summary. Exits 1 when any trial failed, 2 for a bad command line.\n",
          stream);
}

/* ---- the command line -------------------------------------------------------- */

typedef struct target_list {
    bench_target *items;
    size_t n;
} target_list;

/* Every method of the build, each followed by its -pinned twin. */
static int all_targets(target_list *all)
{
    size_t count = heat2d_method_count();
    all->items = calloc(2 * count + 1, sizeof *all->items);
    if (all->items == NULL)
        return -1;
    all->n = 0;
    for (size_t k = 0; k < count; ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        bench_target *t = &all->items[all->n++];
        t->method = m;
        snprintf(t->label, sizeof t->label, "%s", m->name);
        if (m->has_pinned_variant) {
            t = &all->items[all->n++];
            t->method = m;
            t->pinned = true;
            snprintf(t->label, sizeof t->label, "%s-pinned", m->name);
        }
    }
    return 0;
}

static const bench_target *find_target(const target_list *all, const char *label, size_t len)
{
    for (size_t k = 0; k < all->n; ++k)
        if (strlen(all->items[k].label) == len && strncmp(all->items[k].label, label, len) == 0)
            return &all->items[k];
    return NULL;
}

static bool has_target(const target_list *list, const bench_target *t)
{
    for (size_t k = 0; k < list->n; ++k)
        if (list->items[k].method == t->method && list->items[k].pinned == t->pinned)
            return true;
    return false;
}

static int parse_methods(const char *text, const target_list *all, bool pinned_too,
                         target_list *chosen)
{
    chosen->items = calloc(all->n, sizeof *chosen->items);
    chosen->n = 0;
    if (chosen->items == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        const bench_target *t = find_target(all, p, len);
        if (t == NULL) {
            char names[512] = "";
            size_t used = 0;
            for (size_t k = 0; k < all->n; ++k)
                used +=
                    (size_t)snprintf(names + used, used < sizeof names ? sizeof names - used : 0,
                                     "%s%s", k ? ", " : "", all->items[k].label);
            if (len == 0)
                return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                           "bench: --methods '%s' has an empty name (this build "
                                           "has: %s)",
                                           text, names);
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: unknown method '%.*s' in --methods (this build has: "
                                       "%s)",
                                       (int)len, p, names);
        }
        /* Listed twice runs once, as in the original. */
        if (!has_target(chosen, t))
            chosen->items[chosen->n++] = *t;
        if (pinned_too && t->method->has_pinned_variant && !t->pinned) {
            const bench_target *twin = t + 1; /* all_targets puts it right after */
            if (!has_target(chosen, twin))
                chosen->items[chosen->n++] = *twin;
        }
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return 0;
}

static int parse_sizes(const char *text, bench_size **sizes, size_t *n)
{
    size_t items = 1;
    for (const char *p = text; *p != '\0'; ++p)
        items += *p == ',';
    *sizes = calloc(items, sizeof **sizes);
    *n = 0;
    if (*sizes == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[128];
        if (len >= sizeof item)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --sizes item too long: '%.40s...'", p);
        memcpy(item, p, len);
        item[len] = '\0';
        if (len == 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: empty size in --sizes '%s'",
                                       text);
        char *x = strchr(item, 'x');
        char *colon = x != NULL ? strchr(x + 1, ':') : NULL;
        if (x == NULL || colon == NULL)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --sizes '%s': expected NXxNY:STEPS, e.g. "
                                       "1024x1024:300",
                                       item);
        *x = '\0';
        *colon = '\0';
        bench_size *s = &(*sizes)[*n];
        heat2d_error err = {{0}};
        if (heat2d_parse_size(item, "nx", &s->nx, &err) != 0 ||
            heat2d_parse_size(x + 1, "ny", &s->ny, &err) != 0 ||
            heat2d_parse_size(colon + 1, "steps", &s->steps, &err) != 0) {
            *x = 'x';
            *colon = ':';
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: --sizes '%s': %s", item,
                                       err.message);
        }
        if (s->nx < HEAT2D_MIN_SIDE || s->ny < HEAT2D_MIN_SIDE)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --sizes '%zux%zu:%zu': nx and ny must be >= %d",
                                       s->nx, s->ny, s->steps, HEAT2D_MIN_SIDE);
        (*n)++;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return 0;
}

/* ---- the result folder ------------------------------------------------------- */

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

/* ---- progress ------------------------------------------------------------------ */

/* What the runs so far say about each target, for the time-left estimate. */
typedef struct target_stats {
    size_t size_index; /* of the sums below */
    double size_sum;   /* process seconds at that size */
    size_t size_runs;
    double last_total; /* TOTAL_S of its latest run, and that run's work */
    double last_work;
    double overhead_sum; /* process start and exit: PROCESS_S - TOTAL_S */
    size_t runs;
} target_stats;

typedef struct bench_state {
    bench_run_info *info;
    FILE *csv;
    bool tty;
    bool progress_shown;
    bool *dropped;       /* per target, for the current size */
    size_t *done;        /* runs (warm-ups and trials) per target at the current size */
    target_stats *stats; /* per target */
    size_t size_index;
    size_t runs_done;
    size_t runs_total;
    size_t failures;
    size_t rows; /* trials written to trials.csv by this run */
    double started;
} bench_state;

static double work_of(const bench_size *s)
{
    return (double)s->nx * (double)s->ny * (double)s->steps;
}

/* Predicted process time of one run of target t at size s, or a negative
 * number when nothing is known yet. */
static double predict(const bench_state *st, size_t t, size_t s)
{
    const target_stats *ts = &st->stats[t];
    if (ts->runs == 0)
        return -1.0;
    if (ts->size_index == s && ts->size_runs > 0)
        return ts->size_sum / (double)ts->size_runs;
    /* Scaled from its last size by the work: optimistic across the cache
     * edge, corrected as soon as the first run of the new size ends. */
    return ts->overhead_sum / (double)ts->runs +
           ts->last_total * work_of(&st->info->sizes[s]) / ts->last_work;
}

static double seconds_left(const bench_state *st)
{
    const bench_run_info *info = st->info;
    size_t per_size = info->warmups + info->repeats;
    double left = 0.0;
    for (size_t s = st->size_index; s < info->n_sizes; ++s) {
        double known = 0.0, unknown_runs = 0.0, known_runs = 0.0;
        for (size_t t = 0; t < info->n_targets; ++t) {
            size_t pending = per_size;
            if (s == st->size_index)
                pending = st->dropped[t] ? 0 : per_size - st->done[t];
            double p = predict(st, t, s);
            if (p < 0.0) {
                unknown_runs += (double)pending;
            } else {
                known += p * (double)pending;
                known_runs += (double)pending;
            }
        }
        if (unknown_runs > 0.0 && known_runs == 0.0)
            return -1.0; /* nothing to go on */
        /* A method not run yet is taken to cost what the others do. */
        left += known + (known_runs > 0.0 ? known / known_runs * unknown_runs : 0.0);
    }
    return left;
}

static void duration_text(double s, char *buf, size_t size)
{
    long whole = (long)(s + 0.5);
    if (s < 1.0)
        snprintf(buf, size, "<1 s");
    else if (whole < 60)
        snprintf(buf, size, "%ld s", whole);
    else
        snprintf(buf, size, "%ld min %02ld s", whole / 60, whole % 60);
}

static void clear_progress(bench_state *st)
{
    if (st->progress_shown) {
        fputs("\r\033[K", stderr);
        st->progress_shown = false;
    }
}

static void show_progress(bench_state *st, const bench_target *t, const bench_size *s,
                          const char *what)
{
    if (!st->tty)
        return;
    char size_text[96], left[48] = "estimating time left";
    bench_size_text(s, '/', size_text, sizeof size_text);
    double secs = seconds_left(st);
    if (secs >= 0.0) {
        char d[32];
        duration_text(secs, d, sizeof d);
        snprintf(left, sizeof left, "about %s left", d);
    }
    fprintf(stderr, "\r\033[K[%zu/%zu] %s %s %s, %s", st->runs_done + 1, st->runs_total, size_text,
            t->label, what, left);
    fflush(stderr);
    st->progress_shown = true;
}

/* A line that stays: a failure or the start of a size. */
static void say(bench_state *st, const char *fmt, ...) HEAT2D_PRINTF(2, 3);
static void say(bench_state *st, const char *fmt, ...)
{
    clear_progress(st);
    va_list args;
    va_start(args, fmt);
    fputs("heat2d: bench: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

/* ---- one run --------------------------------------------------------------------- */

/* Runs `heat2d run` for t at s. Returns 0 with res and the process time,
 * or -1 with why. */
/* Set by heat2d_cmd_bench when --ranks is given: mpirun's path, this
 * binary's real path (under mpirun, /proc/self/exe would name the launcher's
 * daemon, not heat2d) and the environment for mpirun's children. */
static char mpirun_path[PATH_MAX];
static char self_path[PATH_MAX];
static char **mpi_env;

static int run_child(const bench_target *t, const bench_size *s, bench_result *res,
                     double *process_s, char *why, size_t why_size)
{
    char nx[32], ny[32], steps[32], np[32];
    char *precision = (char *)heat2d_precision_name(t->precision);
    snprintf(nx, sizeof nx, "%zu", s->nx);
    snprintf(ny, sizeof ny, "%zu", s->ny);
    snprintf(steps, sizeof steps, "%zu", s->steps);
    snprintf(np, sizeof np, "%zu", t->ranks);
    /* Under mpirun (--oversubscribe: P may exceed the cores, a CI runner has
     * 2, which the efficiency then shows instead of mpirun refusing to
     * start), else this binary itself. */
    char *argv[24];
    size_t n = 0;
    if (t->ranks > 0) {
        char *launcher[] = {mpirun_path, "-q", "--oversubscribe", "-np", np, self_path};
        memcpy(argv, launcher, sizeof launcher);
        n = sizeof launcher / sizeof launcher[0];
    } else {
        argv[n++] = SELF_EXE;
    }
    char *run_args[] = {"run",     "--method", (char *)t->method->name, "--nx",   nx, "--ny", ny,
                        "--steps", steps,      "--precision",           precision};
    memcpy(argv + n, run_args, sizeof run_args);
    n += sizeof run_args / sizeof run_args[0];
    if (t->ranks == 0 && t->pinned)
        argv[n++] = "--pinned";
    argv[n] = NULL;
    bench_capture cap;
    heat2d_error err = {{0}};
    int spawned =
        t->ranks > 0 ? bench_spawn_env(argv, mpi_env, &cap, &err) : bench_spawn(argv, &cap, &err);
    if (spawned != 0) {
        snprintf(why, why_size, "%s", err.message);
        return -1;
    }
    int rc = 0;
    if (!bench_capture_ok(&cap)) {
        bench_capture_why(&cap, why, why_size);
        rc = -1;
    } else if (bench_parse_run(cap.out, s->nx, s->ny, s->steps, res, &err) != 0) {
        snprintf(why, why_size, "%s", err.message);
        rc = -1;
    } else if (strcmp(res->value[BK_PRECISION], precision) != 0) {
        snprintf(why, why_size, "it reported PRECISION=%s, asked for %s", res->value[BK_PRECISION],
                 precision);
        rc = -1;
    }
    *process_s = cap.wall_s;
    bench_capture_free(&cap);
    return rc;
}

static void record_stats(bench_state *st, size_t t, const bench_size *s, const bench_result *res,
                         double process_s)
{
    target_stats *ts = &st->stats[t];
    if (ts->size_index != st->size_index) {
        ts->size_index = st->size_index;
        ts->size_sum = 0.0;
        ts->size_runs = 0;
    }
    ts->size_sum += process_s;
    ts->size_runs++;
    ts->last_total = res->total_s;
    ts->last_work = work_of(s);
    ts->overhead_sum += process_s > res->total_s ? process_s - res->total_s : 0.0;
    ts->runs++;
}

/* One warm-up (trial == 0) or one recorded trial. A failure drops the method
 * for the rest of this size (its later numbers would be no better) and the
 * benchmark goes on; -1 only when trials.csv cannot be written. */
static int bench_one(bench_state *st, size_t t, const bench_size *s, size_t trial, const char *what)
{
    const bench_target *target = &st->info->targets[t];
    show_progress(st, target, s, what);
    bench_result res;
    double process_s = 0.0;
    char why[700];
    int rc = run_child(target, s, &res, &process_s, why, sizeof why);
    if (bench_interrupted)
        return 0; /* the child was ended on purpose: not a result, not a failure */
    st->runs_done++;
    st->done[t]++;
    if (rc != 0) {
        char size_text[96];
        bench_size_text(s, '/', size_text, sizeof size_text);
        say(st, "%s %s %s failed: %s; %s is dropped at this size", target->label, size_text, what,
            why, target->label);
        bench_add_note(st->info, "FAILED: %s at %s, %s: %s. Dropped at this size.", target->label,
                       size_text, what, why);
        st->dropped[t] = true;
        st->failures++;
        /* Its remaining runs at this size will not happen. */
        st->runs_total -= st->info->warmups + st->info->repeats - st->done[t];
        return 0;
    }
    record_stats(st, t, s, &res, process_s);
    if (trial == 0)
        return 0;
    heat2d_error err = {{0}};
    st->rows++;
    /* A run under mpirun keeps its method's name: the ranks column tells the
     * rank count apart; the precision column tells f32 apart, so the label's
     * -f32 stays out too. */
    char method[48];
    if (target->ranks > 0)
        snprintf(method, sizeof method, "%s", target->method->name);
    else
        snprintf(method, sizeof method, "%.*s",
                 (int)(strlen(target->label) - (target->precision == HEAT2D_F32 ? 4 : 0)),
                 target->label);
    if (bench_csv_append(st->csv, st->info, method, trial, s, &res, process_s, &err) != 0) {
        clear_progress(st);
        heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
        return -1;
    }
    return 0;
}

static int bench_size_all(bench_state *st, const bench_size *s)
{
    const bench_run_info *info = st->info;
    size_t n = info->n_targets;
    for (size_t t = 0; t < n; ++t) {
        st->dropped[t] = false;
        st->done[t] = 0;
    }
    char size_text[96];
    bench_size_text(s, '/', size_text, sizeof size_text);
    say(st, "%s: %zu method(s), %zu warm-up(s) + %zu trial(s) each", size_text, n, info->warmups,
        info->repeats);
    for (size_t t = 0; t < n; ++t)
        for (size_t w = 1; w <= info->warmups && !st->dropped[t]; ++w) {
            char what[48];
            snprintf(what, sizeof what, "warm-up %zu/%zu", w, info->warmups);
            if (bench_interrupted)
                return 0;
            if (bench_one(st, t, s, 0, what) != 0)
                return -1;
        }
    for (size_t trial = 1; trial <= info->repeats; ++trial) {
        /* Trial k starts at method (k-1) mod n, as the original's rotation. */
        for (size_t j = 0; j < n; ++j) {
            size_t t = (trial - 1 + j) % n;
            if (st->dropped[t])
                continue;
            if (bench_interrupted)
                return 0;
            char what[48];
            snprintf(what, sizeof what, "trial %zu/%zu", trial, info->repeats);
            if (bench_one(st, t, s, trial, what) != 0)
                return -1; /* trials.csv cannot be written: stop */
        }
    }
    return 0;
}

/* The grid of target t under --weak, false when it needs no run of its own:
 * not a run under mpirun, or a size that --sizes measured already. */
static bool weak_size(const bench_run_info *info, const bench_target *t, bench_size *s)
{
    if (info->weak == NULL || t->ranks == 0)
        return false;
    /* Only nx grows: simpler than following the method's own factorisation
     * (which depends on the grid), and cells per rank stay nx*ny either
     * way. */
    *s = *info->weak;
    s->nx *= t->ranks;
    for (size_t k = 0; k < info->n_sizes; ++k)
        if (info->sizes[k].nx == s->nx && info->sizes[k].ny == s->ny &&
            info->sizes[k].steps == s->steps)
            return false;
    return true;
}

/* --weak: each rank count at its own grid, one target at a time, after the
 * sizes (whose warm-up and rotation rules it follows for its one target). */
static int bench_weak_all(bench_state *st)
{
    bench_run_info *info = st->info;
    const bench_target *targets = info->targets;
    size_t n_targets = info->n_targets;
    int rc = 0;
    st->size_index = info->n_sizes; /* no strong size left for the estimate */
    for (size_t t = 0; t < n_targets && rc == 0 && !bench_interrupted; ++t) {
        bench_size s;
        if (!weak_size(info, &targets[t], &s))
            continue;
        /* bench_size_all runs every target of info: show it this one only,
         * with slot 0 of the per-target state. */
        info->targets = &targets[t];
        info->n_targets = 1;
        memset(&st->stats[0], 0, sizeof st->stats[0]);
        rc = bench_size_all(st, &s);
        info->targets = targets;
        info->n_targets = n_targets;
    }
    return rc;
}

/* ---- probes, field and plots ---------------------------------------------------- */

/* A tiny run: can this method run here, and where do its kernels run? */
static bool probe(const bench_target *t, char *device, size_t device_size, char *why,
                  size_t why_size)
{
    bench_size tiny = {8, 8, 1};
    bench_result res;
    double process_s;
    if (run_child(t, &tiny, &res, &process_s, why, why_size) != 0)
        return false;
    snprintf(device, device_size, "%s", res.value[BK_DEVICE]);
    return true;
}

static bool spawn_ok(char *const argv[])
{
    bench_capture cap;
    if (bench_spawn(argv, &cap, NULL) != 0)
        return false;
    bool ok = bench_capture_ok(&cap);
    bench_capture_free(&cap);
    return ok;
}

/* HEAT2D_PYTHON, else python3 on PATH, else Debian's /usr/bin/python3: the
 * first with matplotlib. A PATH python (pyenv, a venv) often lacks it. */
static const char *find_python(char *tried, size_t tried_size)
{
    static const char *const defaults[] = {"python3", "/usr/bin/python3"};
    const char *env = getenv("HEAT2D_PYTHON");
    const char *const *candidates = defaults;
    size_t n = 2;
    if (env != NULL && env[0] != '\0') {
        candidates = &env;
        n = 1;
    }
    size_t used = 0;
    tried[0] = '\0';
    for (size_t k = 0; k < n; ++k) {
        char *argv[] = {(char *)candidates[k], "-c", "import matplotlib", NULL};
        if (spawn_ok(argv))
            return candidates[k];
        used += (size_t)snprintf(tried + used, used < tried_size ? tried_size - used : 0, "%s%s",
                                 k ? ", " : "", candidates[k]);
    }
    return NULL;
}

/* tools/plot_bench.py next to this build (BUILD/bin/heat2d ->
 * ../../tools), else under the working directory; HEAT2D_PLOT_SCRIPT wins. */
static bool find_plot_script(char *path, size_t size)
{
    const char *env = getenv("HEAT2D_PLOT_SCRIPT");
    if (env != NULL && env[0] != '\0') {
        snprintf(path, size, "%s", env);
        return access(path, R_OK) == 0;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink(SELF_EXE, exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char guess[PATH_MAX + 32];
        snprintf(guess, sizeof guess, "%s/../../tools/plot_bench.py", dirname(exe));
        /* Resolved, so that the note telling how to re-run it reads well. */
        char resolved[PATH_MAX];
        if (realpath(guess, resolved) != NULL && access(resolved, R_OK) == 0) {
            snprintf(path, size, "%s", resolved);
            return true;
        }
    }
    snprintf(path, size, "tools/plot_bench.py");
    return access(path, R_OK) == 0;
}

/* The final field that field.png shows: cpu, 256x256, 400 steps. */
static int save_field(bench_state *st, char *path, size_t size)
{
    snprintf(path, size, "%s/field_%d.dat", st->info->dir, FIELD_SIDE);
    char nx[16], steps[16];
    snprintf(nx, sizeof nx, "%d", FIELD_SIDE);
    snprintf(steps, sizeof steps, "%d", FIELD_STEPS);
    char *argv[] = {SELF_EXE, "run",     "--method", "cpu",    "--nx", nx,  "--ny",
                    nx,       "--steps", steps,      "--save", path,   NULL};
    bench_capture cap;
    heat2d_error err = {{0}};
    char why[700];
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
    say(st, "the field for field.png failed: %s", why);
    bench_add_note(st->info, "FAILED: the cpu run for field.png: %s", why);
    st->failures++;
    return -1;
}

/* Plots are an extra: without matplotlib the numbers stand on their own,
 * and the note says how to get the pictures. */
static void make_plots(bench_state *st, bool have_field, const char *field_path, char **plot_out)
{
    const char *dir = st->info->dir;
    char tried[256], script[PATH_MAX + 64];
    const char *python = find_python(tried, sizeof tried);
    if (!find_plot_script(script, sizeof script)) {
        say(st, "plots skipped: tools/plot_bench.py not found (set HEAT2D_PLOT_SCRIPT)");
        bench_add_note(st->info, "Plots skipped: tools/plot_bench.py not found.");
        return;
    }
    if (python == NULL) {
        bench_add_note(st->info,
                       "Plots skipped (time_per_step.png, headline.png, field.png): no python "
                       "with matplotlib (tried %s). Install: apt-get install python3-matplotlib; "
                       "then: python3 %s %s",
                       tried, script, dir);
        clear_progress(st);
        printf("NOTE: %s\n", st->info->notes[st->info->n_notes - 1]);
        return;
    }
    char *argv[] = {(char *)python, script, (char *)dir, NULL};
    bench_capture cap;
    heat2d_error err = {{0}};
    char why[700];
    if (bench_spawn(argv, &cap, &err) != 0) {
        snprintf(why, sizeof why, "%s", err.message);
    } else if (!bench_capture_ok(&cap)) {
        bench_capture_why(&cap, why, sizeof why);
        bench_capture_free(&cap);
    } else {
        *plot_out = cap.out;
        free(cap.err);
        /* The plot holds what a reader needs; 1.6 MB of text need not stay. */
        if (have_field)
            remove(field_path);
        return;
    }
    say(st, "plots failed: %s", why);
    bench_add_note(st->info, "FAILED: %s %s: %s", python, script, why);
    st->failures++;
}

/* ---- the command ------------------------------------------------------------------- */

static void sanitize(char *text)
{
    for (char *p = text; *p != '\0'; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.' || *p == '_'))
            *p = '-';
}

typedef struct bench_options {
    const char *methods; /* NULL: every method that can run here */
    const char *sizes;   /* NULL: the ladder for this machine */
    const char *out;     /* NULL: results/HOST-RUN */
    size_t warmups;
    size_t repeats;
    bool pinned_too;
    const char *ranks;     /* NULL: distributed methods run as one plain process */
    const char *weak;      /* NULL: strong scaling only */
    const char *precision; /* NULL: f64 only */
} bench_options;

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, bench_options *o)
{
    static const struct option options[] = {
        {"methods", required_argument, NULL, 'm'},
        {"sizes", required_argument, NULL, 's'},
        {"warmups", required_argument, NULL, 'w'},
        {"repeats", required_argument, NULL, 'r'},
        {"out", required_argument, NULL, 'o'},
        {"pinned-too", no_argument, NULL, 'p'},
        {"ranks", required_argument, NULL, 'n'},
        {"weak", required_argument, NULL, 'k'},
        {"precision", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (bench_options){.warmups = 1, .repeats = 5};
    heat2d_error err = {{0}};
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'm':
            o->methods = optarg;
            break;
        case 's':
            o->sizes = optarg;
            break;
        case 'w':
            /* No warm-up at all is a valid choice; no trial is not. */
            if (strcmp(optarg, "0") == 0)
                o->warmups = 0;
            else if (heat2d_parse_size(optarg, "--warmups", &o->warmups, NULL) != 0)
                return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                           "bench: --warmups must be a non-negative integer, got "
                                           "'%s'",
                                           optarg);
            break;
        case 'r':
            if (heat2d_parse_size(optarg, "--repeats", &o->repeats, &err) != 0)
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
            break;
        case 'o':
            if (optarg[0] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: --out needs a folder name");
            o->out = optarg;
            break;
        case 'p':
            o->pinned_too = true;
            break;
        case 'n':
            o->ranks = optarg;
            break;
        case 'k':
            o->weak = optarg;
            break;
        case 'f':
            o->precision = optarg;
            break;
        case 'h':
            usage(stdout);
            return EXIT_SUCCESS;
        default:
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: unknown or incomplete option '%s' (heat2d bench "
                                       "--help)",
                                       argv[optind - 1]);
        }
    }
    if (optind < argc)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: unexpected argument '%s'",
                                   argv[optind]);
    return -1;
}

/* Which of the candidates can run here, and is there a GPU? A CUDA method
 * needs one; rather than guess from drivers and device files, a tiny run of
 * the method itself answers. Only the defaults drop a method that cannot
 * run: one that was asked for is benchmarked anyway, so that its failure is
 * reported and the exit status says so. */
static void choose_runnable(const target_list *candidates, bool asked, target_list *runnable,
                            bool *has_gpu, bench_run_info *info)
{
    char skipped[512] = "", skip_why[600] = "", distributed[256] = "", no_f32[256] = "";
    size_t n_skipped = 0;
    *has_gpu = false;
    runnable->n = 0;
    for (size_t k = 0; k < candidates->n; ++k) {
        const bench_target *t = &candidates->items[k];
        /* A distributed method is measured by its scaling over ranks, which
         * takes mpirun; each trial here is one `heat2d run` process, which
         * would give it one rank: a number that answers nothing. Asked for
         * by name, it runs so (its single-rank overhead over cpu). */
        if (t->method->distributed && !asked) {
            size_t used = strlen(distributed);
            snprintf(distributed + used, sizeof distributed - used, "%s%s", used ? ", " : "",
                     t->label);
            continue;
        }
        /* A method without a float path cannot run in f32; asked for by
         * name, it runs and its refusal is reported. */
        if (t->precision == HEAT2D_F32 && !t->method->distributed && t->method->solve_f32 == NULL &&
            !asked) {
            size_t used = strlen(no_f32);
            snprintf(no_f32 + used, sizeof no_f32 - used, "%s%s", used ? ", " : "", t->label);
            continue;
        }
        /* Asked for under mpirun, it runs anyway; a probe per rank count
         * would only add mpirun starts. */
        if (t->ranks > 0) {
            runnable->items[runnable->n++] = *t;
            continue;
        }
        char device[128] = "", why[600] = "";
        bool ok = probe(t, device, sizeof device, why, sizeof why);
        if (ok && device[0] != '\0' && strncmp(device, "host", 4) != 0)
            *has_gpu = true;
        if (!ok && t->method->gpu_only && !asked) {
            size_t used = strlen(skipped);
            snprintf(skipped + used, sizeof skipped - used, "%s%s", n_skipped ? ", " : "",
                     t->label);
            if (n_skipped++ == 0)
                snprintf(skip_why, sizeof skip_why, "%s: %.500s", t->label, why);
            continue;
        }
        runnable->items[runnable->n++] = *t;
    }
    if (n_skipped > 0)
        bench_add_note(info, "Skipped %.200s: no usable GPU here (%.350s).", skipped, skip_why);
    if (distributed[0] != '\0')
        bench_add_note(info,
                       "Not run by default: %.200s (distributed: measure them over P ranks with "
                       "--methods NAME --ranks 1,2,4; --methods NAME alone runs one here as "
                       "one rank).",
                       distributed);
    if (no_f32[0] != '\0')
        bench_add_note(info, "Not run: %.200s (no f32 path in this build).", no_f32);
}

/* mpirun on PATH, as a shell would find it. */
static bool find_on_path(const char *name, char *path, size_t size)
{
    const char *dirs = getenv("PATH");
    if (dirs == NULL)
        return false;
    while (*dirs != '\0') {
        size_t len = strcspn(dirs, ":");
        if (len > 0 && (size_t)snprintf(path, size, "%.*s/%s", (int)len, dirs, name) < size &&
            access(path, X_OK) == 0)
            return true;
        dirs += len + (dirs[len] == ':');
    }
    return false;
}

/* --ranks: every distributed target of chosen becomes one target per rank
 * count, labelled METHOD-pP; the others stay as they are. Also finds mpirun
 * and prepares its environment. Returns 0, else the exit status. */
static int expand_ranks(const char *text, target_list *chosen)
{
    size_t counts[64], n_counts = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[32];
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        heat2d_error err = {{0}};
        if (n_counts == sizeof counts / sizeof counts[0])
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --ranks lists more than %zu "
                                       "rank counts",
                                       sizeof counts / sizeof counts[0]);
        if (len == 0 || len >= sizeof item ||
            heat2d_parse_size(item, "--ranks", &counts[n_counts], &err) != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --ranks '%s': each item must be a positive "
                                       "integer, e.g. 1,2,4",
                                       text);
        bool dup = false;
        for (size_t k = 0; k < n_counts; ++k)
            dup = dup || counts[k] == counts[n_counts];
        n_counts += !dup;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    size_t distributed = 0;
    for (size_t k = 0; k < chosen->n; ++k)
        distributed += chosen->items[k].method->distributed;
    if (distributed == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "bench: --ranks needs a distributed method in --methods "
                                   "(e.g. --methods mpi-cpu)");
    if (!find_on_path("mpirun", mpirun_path, sizeof mpirun_path))
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: --ranks needs mpirun on PATH (tools/setup.sh installs "
                                   "openmpi-bin)");
    ssize_t len = readlink(SELF_EXE, self_path, sizeof self_path - 1);
    if (len <= 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: cannot read %s: %s", SELF_EXE,
                                   strerror(errno));
    self_path[len] = '\0';

    /* Open MPI refuses to start as root without these; CI runs as root.
     * Only mpirun's children get them. */
    size_t n_env = 0;
    while (environ[n_env] != NULL)
        n_env++;
    mpi_env = calloc(n_env + 3, sizeof *mpi_env);
    bench_target *items = calloc(chosen->n + distributed * n_counts, sizeof *items);
    if (mpi_env == NULL || items == NULL) {
        free(items);
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    }
    memcpy(mpi_env, environ, n_env * sizeof *mpi_env);
    if (geteuid() == 0) {
        mpi_env[n_env++] = "OMPI_ALLOW_RUN_AS_ROOT=1";
        mpi_env[n_env++] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    }
    size_t n = 0;
    for (size_t k = 0; k < chosen->n; ++k) {
        const bench_target *t = &chosen->items[k];
        if (!t->method->distributed) {
            items[n++] = *t;
            continue;
        }
        for (size_t c = 0; c < n_counts; ++c) {
            items[n] = *t;
            items[n].ranks = counts[c];
            snprintf(items[n].label, sizeof items[n].label, "%.30s-p%zu", t->method->name,
                     counts[c]);
            n++;
        }
    }
    free(chosen->items);
    chosen->items = items;
    chosen->n = n;
    return 0;
}

/* --precision: every target becomes one target per precision, in the
 * order listed, an f32 one labelled LABEL-f32. Returns 0, else the exit
 * status. */
static int expand_precision(const char *text, target_list *targets)
{
    heat2d_precision chosen[2];
    size_t n_chosen = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[8];
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        heat2d_precision prec;
        if (len == 0 || len >= sizeof item || heat2d_parse_precision(item, &prec, NULL) != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --precision '%s': each item must be f64 or f32, "
                                       "e.g. f64,f32",
                                       text);
        bool dup = false;
        for (size_t k = 0; k < n_chosen; ++k)
            dup = dup || chosen[k] == prec;
        if (!dup)
            chosen[n_chosen++] = prec;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    bench_target *items = calloc(targets->n * n_chosen + 1, sizeof *items);
    if (items == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    size_t n = 0;
    for (size_t k = 0; k < targets->n; ++k)
        for (size_t c = 0; c < n_chosen; ++c) {
            items[n] = targets->items[k];
            items[n].precision = chosen[c];
            if (chosen[c] == HEAT2D_F32)
                snprintf(items[n].label, sizeof items[n].label, "%.40s-f32",
                         targets->items[k].label);
            n++;
        }
    free(targets->items);
    targets->items = items;
    targets->n = n;
    return 0;
}

/* Room for one runnable target per expanded one. Returns 0, else the exit
 * status. */
static int grow_runnable(target_list *runnable, size_t n)
{
    bench_target *grown = realloc(runnable->items, (n + 1) * sizeof *grown);
    if (grown == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    runnable->items = grown;
    return 0;
}

static void on_stop_signal(int signo)
{
    bench_interrupted = signo;
}

/* SIGINT and SIGTERM stop the benchmark between trials (the running child
 * is ended and not recorded). No SA_RESTART: the wait for a child must
 * return so that it can be ended at once. */
static void catch_stop_signals(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

static size_t weak_runs(const bench_run_info *info)
{
    size_t n = 0;
    bench_size s;
    for (size_t t = 0; t < info->n_targets; ++t)
        n += weak_size(info, &info->targets[t], &s);
    return n;
}

/* All sizes, then the field, the plots and the summary. */
static int run_bench(bench_run_info *info, FILE *csv)
{
    bench_state st = {
        .info = info,
        .csv = csv,
        .tty = isatty(STDERR_FILENO) == 1,
        .dropped = calloc(info->n_targets + 1, sizeof(bool)),
        .done = calloc(info->n_targets + 1, sizeof(size_t)),
        .stats = calloc(info->n_targets + 1, sizeof(target_stats)),
        .runs_total =
            (info->n_targets * info->n_sizes + weak_runs(info)) * (info->warmups + info->repeats),
        .started = heat2d_now(),
    };
    int status = EXIT_SUCCESS;
    if (st.dropped == NULL || st.done == NULL || st.stats == NULL)
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    for (size_t s = 0; s < info->n_sizes && status == EXIT_SUCCESS && !bench_interrupted; ++s) {
        st.size_index = s;
        if (bench_size_all(&st, &info->sizes[s]) != 0)
            status = HEAT2D_EXIT_FAILURE; /* trials.csv cannot be written: said already */
    }
    if (status == EXIT_SUCCESS && !bench_interrupted && bench_weak_all(&st) != 0)
        status = HEAT2D_EXIT_FAILURE;
    free(st.dropped);
    free(st.done);
    free(st.stats);
    if (status != EXIT_SUCCESS)
        return status;
    if (bench_interrupted) {
        /* Keep what was measured: the summary of every finished trial, no
         * new plots (they would take seconds the user asked not to wait). */
        clear_progress(&st);
        heat2d_error err = {{0}};
        bench_add_note(info,
                       "Interrupted by signal %d after %zu trial(s); the tables hold "
                       "the trials that finished.",
                       (int)bench_interrupted, st.rows);
        if (bench_write_summary(info, NULL, &err) != 0)
            heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
        heat2d_report_error(HEAT2D_EXIT_FAILURE,
                            "bench: interrupted by signal %d: %s/trials.csv keeps the %zu "
                            "trial(s) that finished",
                            (int)bench_interrupted, info->dir, st.rows);
        return 128 + (int)bench_interrupted;
    }

    char field_path[4200];
    bool have_field = save_field(&st, field_path, sizeof field_path) == 0;
    char *plot_out = NULL;
    if (st.rows > 0)
        make_plots(&st, have_field, field_path, &plot_out);
    else
        bench_add_note(info, "Plots skipped: no trial finished.");
    clear_progress(&st);
    heat2d_error err = {{0}};
    if (bench_write_summary(info, stdout, &err) != 0) {
        free(plot_out);
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    }
    printf("RESULTS=%s\nCSV=%s/trials.csv\nSUMMARY=%s/summary.md\n", info->dir, info->dir,
           info->dir);
    if (plot_out != NULL)
        fputs(plot_out, stdout);
    free(plot_out);
    printf("BENCH_WALL_S=%.1f\n", heat2d_now() - st.started);
    fflush(stdout);
    if (st.failures > 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: %zu failure(s), listed at the top of %s/summary.md",
                                   st.failures, info->dir);
    return EXIT_SUCCESS;
}

int heat2d_cmd_bench(int argc, char **argv)
{
    bench_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;

    /* Everything a command line can get wrong is checked before anything is
     * created or run. */
    target_list all = {0}, chosen = {0}, runnable = {0};
    bench_size *sizes = NULL, *weak = NULL;
    size_t n_sizes = 0;
    FILE *csv = NULL;
    status = EXIT_SUCCESS;
    if (all_targets(&all) != 0 ||
        (runnable.items = calloc(all.n + 1, sizeof *runnable.items)) == NULL) {
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
        goto done;
    }
    if (opt.methods != NULL &&
        (status = parse_methods(opt.methods, &all, opt.pinned_too, &chosen)) != 0)
        goto done;
    if (opt.sizes != NULL && (status = parse_sizes(opt.sizes, &sizes, &n_sizes)) != 0)
        goto done;
    if (opt.weak != NULL) {
        if (opt.ranks == NULL) {
            status = heat2d_report_error(HEAT2D_EXIT_USAGE,
                                         "bench: --weak needs --ranks (the rank counts to scale "
                                         "over)");
            goto done;
        }
        if (strchr(opt.weak, ',') != NULL) {
            status = heat2d_report_error(
                HEAT2D_EXIT_USAGE, "bench: --weak takes one size per rank, got '%s'", opt.weak);
            goto done;
        }
        size_t n_weak = 0;
        if ((status = parse_sizes(opt.weak, &weak, &n_weak)) != 0)
            goto done;
    }
    if (opt.ranks != NULL) {
        if ((status = expand_ranks(opt.ranks, &chosen)) != 0)
            goto done;
        if ((status = grow_runnable(&runnable, chosen.n)) != 0)
            goto done;
    }
    if (opt.precision != NULL) {
        target_list *targets = opt.methods != NULL ? &chosen : &all;
        if ((status = expand_precision(opt.precision, targets)) != 0 ||
            (status = grow_runnable(&runnable, targets->n)) != 0)
            goto done;
    }

    static bench_run_info info;
    memset(&info, 0, sizeof info);
    time_t now = time(NULL);
    struct tm local;
    localtime_r(&now, &local);
    strftime(info.run_id, sizeof info.run_id, "%Y%m%d-%H%M%S", &local);
    strftime(info.date, sizeof info.date, "%Y-%m-%d %H:%M:%S %z", &local);
    if (gethostname(info.hostname, sizeof info.hostname - 1) != 0)
        snprintf(info.hostname, sizeof info.hostname, "unknown-host");
    info.warmups = opt.warmups;
    info.repeats = opt.repeats;
    info.weak = weak;

    /* The folder next: a benchmark that cannot keep its numbers should not
     * start. */
    static char default_dir[512];
    if (opt.out == NULL) {
        char host[256];
        snprintf(host, sizeof host, "%s", info.hostname);
        sanitize(host);
        snprintf(default_dir, sizeof default_dir, "results/%s-%s", host, info.run_id);
        opt.out = default_dir;
    }
    info.dir = opt.out;
    heat2d_error err = {{0}};
    if (make_dirs(opt.out, &err) != 0 || (csv = bench_csv_open(opt.out, &err)) == NULL) {
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
        goto done;
    }

    bool has_gpu;
    choose_runnable(opt.methods != NULL ? &chosen : &all, opt.methods != NULL, &runnable, &has_gpu,
                    &info);
    if (opt.sizes == NULL) {
        if ((status = parse_sizes(has_gpu ? GPU_LADDER : CPU_LADDER, &sizes, &n_sizes)) != 0)
            goto done;
        if (!has_gpu)
            bench_add_note(&info, "No GPU here: the ladder is cut to finish in about a minute "
                                  "(" CPU_CUT_TEXT "). Full ladder: "
                                  "heat2d bench --sizes " FULL_LADDER);
    }
    info.targets = runnable.items;
    info.n_targets = runnable.n;
    info.sizes = sizes;
    info.n_sizes = n_sizes;
    for (size_t k = 0; k < info.n_notes; ++k)
        printf("NOTE: %s\n", info.notes[k]);
    fflush(stdout);

    catch_stop_signals();
    if (bench_write_environment(&info, SELF_EXE, &err) != 0 ||
        bench_write_limits(&info, SELF_EXE, &err) != 0)
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    else
        status = run_bench(&info, csv);

done:
    if (csv != NULL)
        fclose(csv);
    free(sizes);
    free(weak);
    free(all.items);
    free(chosen.items);
    free(runnable.items);
    free(mpi_env);
    mpi_env = NULL;
    return status;
}
