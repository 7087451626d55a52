/* heat2d bench: a target list grown along an axis, one of the bench lists
 * of run_options.h: every target that takes the option becomes one target
 * per value, labelled by it. --ranks also needs mpirun, found here with its
 * children's environment. */
#define _GNU_SOURCE
#include "field_netcdf.h"
#include "plan.h"
#include "run_state.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* mpirun's children's environment (bench_find_mpirun), kept for the run. */
static char **mpi_env;

/* Values of a list the user gave that no target takes, each a note for
 * the summary once the run's record exists (bench_expand_notes). */
enum { kMaxUnused = 8 };
static char unused_values[kMaxUnused][400];
static size_t n_unused;

void bench_expand_notes(bench_run_info *info)
{
    for (size_t k = 0; k < n_unused; ++k)
        bench_add_note(info, "%s", unused_values[k]);
    n_unused = 0;
}

/* "--NAME VALUE: no method in the list takes it (--NAME applies to A, B);
 * it adds no rows" among the notes to come: a list asked for that yields
 * no row is said, never dropped in silence. */
static void note_unused(const heat2d_option_def *o, size_t value)
{
    if (n_unused == kMaxUnused)
        return;
    char text[32] = "", takers[256] = "";
    if (o->text != NULL)
        o->text(o, value, text, sizeof text);
    size_t used = 0;
    for (size_t k = 0; k < heat2d_method_count() && used < sizeof takers; ++k)
        if (o->takes(heat2d_method_at(k)))
            used += (size_t)snprintf(takers + used, sizeof takers - used, "%s%s", used ? ", " : "",
                                     heat2d_method_at(k)->name);
    snprintf(unused_values[n_unused++], sizeof unused_values[0],
             "--%s %s: no method in the list takes it (--%s applies to %s); it adds no rows.",
             o->name, text, o->name, used ? takers : "no method of this build");
}

void bench_plan_release(void)
{
    free(mpi_env);
    mpi_env = NULL;
}

/* A bench list's values, each once, in the order given, each parsed by its
 * option's parser. Returns 0, else the exit status. */
enum { kMaxValues = 64 };

static int parse_values(const heat2d_option_def *o, const char *text, size_t values[kMaxValues],
                        size_t *n_values)
{
    *n_values = 0;
    char what[48];
    snprintf(what, sizeof what, "--%s", o->name);
    for (const char *p = text;;) {
        size_t len = strcspn(p, ",");
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        if (*n_values == kMaxValues)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s lists more than %d values",
                                       what, kMaxValues);
        if (len == 0 || len >= sizeof item || o->parse(o, item, &values[*n_values], NULL) != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s '%s': each item must be %s",
                                       what, text, o->bench.items);
        bool dup = false;
        for (size_t k = 0; k < *n_values; ++k)
            dup = dup || values[k] == values[*n_values];
        *n_values += !dup;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

/* Whether option id multiplies t: what it needs is set, and its method
 * takes it (or, one labelled WITH another, t has that other: its plain
 * value is a choice of its own). */
static bool multiplies(const bench_target *t, heat2d_option_id id)
{
    const heat2d_option_def *o = &heat2d_run_options[id];
    if (o->needs != HEAT2D_OPTION_NONE && !heat2d_option_asked(t->value, o->needs))
        return false;
    return o->takes(t->method) || o->with != HEAT2D_OPTION_NONE;
}

/* bench_expand_option; asked: the values are the user's (not a default),
 * and one that no target takes is noted. */
static int expand(heat2d_option_id id, const char *text, bool asked, target_list *list)
{
    const heat2d_option_def *o = &heat2d_run_options[id];
    size_t values[kMaxValues], n_values = 0;
    int status = parse_values(o, text, values, &n_values);
    if (status != 0)
        return status;
    /* A writer this build lacks, refused before any trial as run refuses it. */
    heat2d_error err = {{0}};
    for (size_t v = 0; v < n_values; ++v)
        if (id == HEAT2D_OPTION_SNAPSHOT_WRITER && values[v] == HEAT2D_WRITER_NETCDF &&
            heat2d_netcdf_check_built("--snapshot-writer", "netcdf", &err) != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
    size_t takers = 0;
    for (size_t k = 0; k < list->n; ++k)
        takers += multiplies(&list->items[k], id);
    if (takers == 0 && o->bench.none_take != NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", o->bench.none_take);
    bench_target *items = calloc(list->n * (1 + n_values) + 1, sizeof *items);
    if (items == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    size_t n = 0;
    bool value_used[kMaxValues] = {false};
    for (size_t k = 0; k < list->n; ++k) {
        const bench_target *t = &list->items[k];
        const bool takes = multiplies(t, id);
        if (!takes || o->bench.keeps)
            items[n++] = *t;
        for (size_t v = 0; takes && v < n_values; ++v) {
            /* A value above plain only where the method takes it. */
            if (values[v] > o->plain && !o->takes(t->method))
                continue;
            items[n] = *t;
            items[n].value[id] = values[v];
            bench_target_label(&items[n]);
            n++;
            value_used[v] = true;
        }
    }
    for (size_t v = 0; asked && v < n_values; ++v)
        if (!value_used[v])
            note_unused(o, values[v]);
    free(list->items);
    list->items = items;
    list->n = n;
    return 0;
}

int bench_expand_option(heat2d_option_id id, const char *text, target_list *list)
{
    return expand(id, text, false, list);
}

/* mpirun on PATH for the targets under --ranks, and its children's
 * environment. Returns 0, else the exit status. */
int bench_find_mpirun(void)
{
    char mpirun_path[PATH_MAX], self_path[PATH_MAX];
    if (heat2d_find_program("mpirun", mpirun_path, sizeof mpirun_path) != 0)
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
    return 0;
}

/* The targets that the bench lists grow. */
typedef struct target_lists {
    target_list *all, *chosen, *runnable;
} target_lists;

/* Bench list id (after the one it needs: --halo-depth after --ranks) grows
 * every target along the values given; a list whose NEEDS was given takes
 * its default. Returns 0, else the exit status. */
static int expand_list(heat2d_option_id id, const bench_options *opt, target_lists *lists,
                       bool done[HEAT2D_N_OPTIONS])
{
    const heat2d_option_def *o = &heat2d_run_options[id];
    if (done[id] || !o->bench.is_list)
        return 0;
    done[id] = true;
    const heat2d_option_id needs = o->needs;
    const char *text = opt->list[id];
    if (needs != HEAT2D_OPTION_NONE) {
        int status = expand_list(needs, opt, lists, done);
        if (status != 0)
            return status;
        if (text != NULL && opt->list[needs] == NULL)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: --%s needs --%s%s", o->name,
                                       heat2d_run_options[needs].name, o->bench.needs_why);
        if (text == NULL && opt->list[needs] != NULL)
            text = o->bench.dflt;
    }
    if (text == NULL)
        return 0;
    target_list *targets = opt->methods != NULL || o->bench.named ? lists->chosen : lists->all;
    int status = expand(id, text, opt->list[id] != NULL, targets);
    if (status == 0 && o->pass == HEAT2D_PASS_MPIRUN)
        status = bench_find_mpirun();
    if (status == 0)
        status = bench_grow_runnable(lists->runnable, targets->n);
    return status;
}

int bench_expand_lists(const bench_options *opt, target_list *all, target_list *chosen,
                       target_list *runnable)
{
    target_lists lists = {all, chosen, runnable};
    bool done[HEAT2D_N_OPTIONS] = {false};
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        int status = expand_list((heat2d_option_id)k, opt, &lists, done);
        if (status != 0)
            return status;
    }
    return 0;
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
