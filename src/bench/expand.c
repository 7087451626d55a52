/* heat2d bench: a target list grown along an axis. --ranks, --halo-depth,
 * --precision and --output-every each turn every target that takes the
 * axis into one target per value, labelled by it; --ranks also finds
 * mpirun and prepares its children's environment. */
#define _GNU_SOURCE
#include "plan.h"
#include "run_state.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* mpirun's children's environment (bench_expand_ranks), kept for the run. */
static char **mpi_env;

void bench_plan_release(void)
{
    free(mpi_env);
    mpi_env = NULL;
}

/* A comma-separated list of positive integers (an option's value), each
 * once, in the order given. Returns 0, else the exit status. */
static int parse_counts(const char *text, const char *option, const char *example, const char *what,
                        size_t *counts, size_t max, size_t *n_counts)
{
    *n_counts = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[32];
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        if (*n_counts == max)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s lists more than %zu %s",
                                       option, max, what);
        if (len == 0 || len >= sizeof item ||
            heat2d_parse_size(item, option, &counts[*n_counts], NULL) != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: %s '%s': each item must be a positive integer, %s",
                                       option, text, example);
        bool dup = false;
        for (size_t k = 0; k < *n_counts; ++k)
            dup = dup || counts[k] == counts[*n_counts];
        *n_counts += !dup;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

/* --ranks: every distributed target of chosen becomes one target per rank
 * count, labelled METHOD-pP; the others stay as they are. Also finds mpirun
 * and prepares its environment. Returns 0, else the exit status. */
/* list takes items (n of them) in place of its own. */
static int adopt_items(target_list *list, bench_target *items, size_t n)
{
    free(list->items);
    list->items = items;
    list->n = n;
    return 0;
}

/* Which targets an option multiplies, and what it sets in each copy. */
typedef bool (*target_test)(const bench_target *t);
typedef void (*target_setter)(bench_target *t, size_t value);

static size_t count_targets(const target_list *list, target_test takes)
{
    size_t n = 0;
    for (size_t k = 0; k < list->n; ++k)
        n += takes(&list->items[k]);
    return n;
}

/* Every target of list that takes the option becomes one per value, set and
 * relabelled, in the order listed; the others stay as they are. */
static int expand_targets(target_list *list, const size_t *values, size_t n_values,
                          target_test takes, target_setter set)
{
    bench_target *items = calloc(list->n + count_targets(list, takes) * n_values, sizeof *items);
    if (items == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    size_t n = 0;
    for (size_t k = 0; k < list->n; ++k) {
        const bench_target *t = &list->items[k];
        if (!takes(t)) {
            items[n++] = *t;
            continue;
        }
        for (size_t v = 0; v < n_values; ++v) {
            items[n] = *t;
            set(&items[n], values[v]);
            bench_target_label(&items[n]);
            n++;
        }
    }
    return adopt_items(list, items, n);
}

/* An option's list of counts (at most kMaxCounts of them), refused with
 * `none` when no target of list takes the option. Returns 0, else the exit
 * status. */
enum { kMaxCounts = 64 };

static int parse_option_counts(const char *text, const char *option, const char *what,
                               const target_list *list, target_test takes, const char *none,
                               size_t counts[kMaxCounts], size_t *n_counts)
{
    int status = parse_counts(text, option, "e.g. 1,2,4", what, counts, kMaxCounts, n_counts);
    if (status != 0)
        return status;
    if (count_targets(list, takes) == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", none);
    return 0;
}

static bool is_distributed(const bench_target *t)
{
    return t->method->distributed;
}

static void set_ranks(bench_target *t, size_t ranks)
{
    t->ranks = ranks;
}

int bench_expand_ranks(const char *text, target_list *chosen)
{
    size_t counts[kMaxCounts], n_counts = 0;
    int status = parse_option_counts(
        text, "--ranks", "rank counts", chosen, is_distributed,
        "--ranks needs a distributed method in --methods (e.g. --methods mpi-cpu)", counts,
        &n_counts);
    if (status != 0)
        return status;
    char mpirun_path[PATH_MAX], self_path[PATH_MAX];
    if (bench_find_program("mpirun", mpirun_path, sizeof mpirun_path) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: --ranks needs mpirun on PATH (tools/setup.sh installs "
                                   "openmpi-bin)");
    ssize_t len = readlink(BENCH_SELF_EXE, self_path, sizeof self_path - 1);
    if (len <= 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: cannot read %s: %s", BENCH_SELF_EXE,
                                   strerror(errno));
    self_path[len] = '\0';

    /* Open MPI refuses to start as root without these; CI runs as root.
     * Only mpirun's children get them. */
    size_t n_env = 0;
    while (environ[n_env] != NULL)
        n_env++;
    mpi_env = calloc(n_env + 3, sizeof *mpi_env);
    if (mpi_env == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    memcpy(mpi_env, environ, n_env * sizeof *mpi_env);
    if (geteuid() == 0) {
        mpi_env[n_env++] = "OMPI_ALLOW_RUN_AS_ROOT=1";
        mpi_env[n_env++] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    }
    bench_set_launcher(mpirun_path, self_path, mpi_env);
    return expand_targets(chosen, counts, n_counts, is_distributed, set_ranks);
}

static bool keeps_deep_halos(const bench_target *t)
{
    return t->ranks > 0 && t->method->deep_halos;
}

static void set_halo_depth(bench_target *t, size_t depth)
{
    t->halo_depth = depth > 1 ? depth : 0;
}

/* --halo-depth: every target of a method with deep halos that runs under
 * mpirun becomes one target per depth K, labelled METHOD-hK-pP (K = 1: the
 * one-cell halos, labelled as without the option); the others stay as they
 * are. Returns 0, else the exit status. */
int bench_expand_halo_depths(const char *text, target_list *chosen)
{
    size_t depths[kMaxCounts], n_depths = 0;
    int status = parse_option_counts(text, "--halo-depth", "depths", chosen, keeps_deep_halos,
                                     "--halo-depth needs a method that keeps deep halos in "
                                     "--methods (e.g. --methods mpi-cpu)",
                                     depths, &n_depths);
    if (status != 0)
        return status;
    return expand_targets(chosen, depths, n_depths, keeps_deep_halos, set_halo_depth);
}

/* --precision: every target becomes one target per precision, in the
 * order listed, an f32 one labelled LABEL-f32. Returns 0, else the exit
 * status. */
int bench_expand_precision(const char *text, target_list *targets)
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
            bench_target_label(&items[n]);
            n++;
        }
    return adopt_items(targets, items, n);
}

/* --output-every LIST, --snapshot-copy LIST: every target of a method that
 * takes snapshots is followed by one target per K and per copy the method
 * has (labelled LABEL-kK-COPY); the target itself stays, as the run without
 * snapshots that the others are set against. Returns 0, else the exit
 * status. */
int bench_expand_snapshots(const char *everies, const char *copies, target_list *targets)
{
    size_t ks[32], n_ks = 0;
    int status = parse_counts(everies, "--output-every", "e.g. 1,10,100", "step counts", ks,
                              sizeof ks / sizeof ks[0], &n_ks);
    if (status != 0)
        return status;
    bool copy_on[2] = {false, false};
    for (const char *p = copies;;) {
        size_t len = strcspn(p, ",");
        char item[16];
        heat2d_snapshot_copy c;
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        if (len == 0 || len >= sizeof item || heat2d_parse_snapshot_copy(item, &c, NULL) != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --snapshot-copy '%s': each item must be plain or "
                                       "overlap",
                                       copies);
        copy_on[c] = true;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    bench_target *items = calloc(targets->n * (1 + 2 * n_ks) + 1, sizeof *items);
    if (items == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    size_t n = 0;
    for (size_t k = 0; k < targets->n; ++k) {
        const bench_target *t = &targets->items[k];
        items[n++] = *t;
        if (!t->method->has_snapshots)
            continue;
        for (size_t e = 0; e < n_ks; ++e)
            for (int c = 0; c < 2; ++c) {
                if (!copy_on[c] ||
                    (c == HEAT2D_SNAPSHOT_OVERLAP && !t->method->overlapped_snapshots))
                    continue;
                items[n] = *t;
                items[n].output_every = ks[e];
                items[n].snapshot_copy = (heat2d_snapshot_copy)c;
                bench_target_label(&items[n]);
                n++;
            }
    }
    return adopt_items(targets, items, n);
}

/* Room for one runnable target per expanded one. Returns 0, else the exit
 * status. */
int bench_grow_runnable(target_list *runnable, size_t n)
{
    bench_target *grown = realloc(runnable->items, (n + 1) * sizeof *grown);
    if (grown == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    runnable->items = grown;
    return 0;
}
