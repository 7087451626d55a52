/* heat2d bench: the plan. Which targets a command line names (methods and
 * their -pinned twins; expand.c grows them along the other axes), which
 * sizes, and which of the targets can run on this machine, asked of each
 * method by a tiny run. */
#define _GNU_SOURCE
#include "plan.h"
#include "mpi_probe.h"
#include "run_state.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every method of the build, each followed by its -pinned twin. */
int bench_all_targets(target_list *all)
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
        bench_target_label(t);
        if (m->has_pinned_variant) {
            t = &all->items[all->n++];
            t->method = m;
            t->value[HEAT2D_OPTION_PINNED] = 1;
            bench_target_label(t);
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
        if (list->items[k].method == t->method &&
            list->items[k].value[HEAT2D_OPTION_PINNED] == t->value[HEAT2D_OPTION_PINNED])
            return true;
    return false;
}

int bench_parse_methods(const char *text, const target_list *all, bool pinned_too,
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
        if (pinned_too && t->method->has_pinned_variant && !t->value[HEAT2D_OPTION_PINNED]) {
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

int bench_parse_sizes(const char *text, bench_size **sizes, size_t *n)
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
        /* Each size once, in the order given, as every other list. */
        bool seen = false;
        for (size_t k = 0; k < *n && !seen; ++k)
            seen =
                (*sizes)[k].nx == s->nx && (*sizes)[k].ny == s->ny && (*sizes)[k].steps == s->steps;
        *n += !seen;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return 0;
}

/* The note bench_skip_mpi_if_down left for the summary, "" for none. */
static char mpi_note[sizeof((bench_run_info *)0)->notes[0]];

int bench_skip_mpi_if_down(target_list *candidates, bool asked)
{
    mpi_note[0] = '\0';
    bool any = false;
    for (size_t k = 0; k < candidates->n && !any; ++k)
        any = candidates->items[k].method->distributed;
    if (!any)
        return 0;
    heat2d_mpi_probe probe;
    heat2d_mpi_probe_run(&probe);
    if (probe.starts)
        return 0;
    /* The methods by name, once each (a method's targets differ in ranks,
     * depths, precisions), in the registry's order. */
    char names[256] = "";
    size_t used = 0;
    for (size_t k = 0; k < heat2d_method_count() && used < sizeof names; ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        bool listed = false;
        for (size_t j = 0; j < candidates->n && !listed; ++j)
            listed = candidates->items[j].method == m;
        if (m->distributed && listed)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                     m->name);
    }
    size_t kept = 0;
    for (size_t k = 0; k < candidates->n; ++k)
        if (!candidates->items[k].method->distributed)
            candidates->items[kept++] = candidates->items[k];
    candidates->n = kept;
    heat2d_mpi_skip_text(&probe, names, mpi_note, sizeof mpi_note);
    /* Asked for MPI methods alone: nothing is left to measure. */
    if (asked && kept == 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: nothing left to run: %s", mpi_note);
    return 0;
}

/* A tiny run: can this method run here, and where do its kernels run? */
static bool probe(const bench_target *t, char *device, size_t device_size, char *why,
                  size_t why_size)
{
    bench_size tiny = {8, 8, 1};
    heat2d_trial_values res;
    double process_s;
    if (bench_run_child(t, &tiny, &res, &process_s, why, why_size) != 0)
        return false;
    snprintf(device, device_size, "%s", res.value[HEAT2D_FIELD_DEVICE]);
    return true;
}

/* The GPU methods skipped for want of a GPU, grouped by how each asks for
 * the host (a directive model's own setting, through on_host_here; CUDA's
 * have none): a note for each group, quoting its first method's refusal,
 * which names that setting. */
#define MAX_SKIP_GROUPS 8
typedef struct skip_group {
    bool (*on_host_here)(void);
    char labels[256];
    char why[512];
} skip_group;
typedef struct skipped_gpu {
    skip_group group[MAX_SKIP_GROUPS];
    size_t n;
} skipped_gpu;

static void skipped_add(skipped_gpu *s, const bench_target *t, const char *why)
{
    size_t g = 0;
    while (g < s->n && s->group[g].on_host_here != t->method->on_host_here)
        ++g;
    if (g == s->n) {
        if (s->n == MAX_SKIP_GROUPS)
            g = 0; /* more groups than models: cannot happen; joins the first */
        else {
            s->group[s->n].on_host_here = t->method->on_host_here;
            snprintf(s->group[s->n].why, sizeof s->group[s->n].why, "%.60s: %.440s", t->label, why);
            s->group[s->n++].labels[0] = '\0';
        }
    }
    skip_group *group = &s->group[g];
    size_t used = strlen(group->labels);
    snprintf(group->labels + used, sizeof group->labels - used, "%s%s", used ? ", " : "", t->label);
}

static void skipped_notes(const skipped_gpu *s, bench_run_info *info)
{
    for (size_t g = 0; g < s->n; ++g)
        bench_add_note(info, "Skipped %.200s: no usable GPU here (%.350s).", s->group[g].labels,
                       s->group[g].why);
}

/* Which of the candidates can run here, and is there a GPU? A CUDA method
 * needs one; rather than guess from drivers and device files, a tiny run of
 * the method itself answers. Only the defaults drop a method that cannot
 * run: one that was asked for is benchmarked anyway, so that its failure is
 * reported and the exit status says so. */
void bench_choose_runnable(const target_list *candidates, bool asked, target_list *runnable,
                           bool *has_gpu, bench_run_info *info)
{
    char distributed[256] = "", no_f32[256] = "";
    skipped_gpu skipped = {.n = 0};
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
        if (t->value[HEAT2D_OPTION_PRECISION] == HEAT2D_F32 && !t->method->distributed &&
            t->method->solve_f32 == NULL && !asked) {
            size_t used = strlen(no_f32);
            snprintf(no_f32 + used, sizeof no_f32 - used, "%s%s", used ? ", " : "", t->label);
            continue;
        }
        /* Asked for under mpirun, it runs anyway; a probe per rank count
         * would only add mpirun starts. */
        if (t->value[HEAT2D_OPTION_RANKS] > 0) {
            runnable->items[runnable->n++] = *t;
            continue;
        }
        char device[128] = "", why[HEAT2D_MESSAGE_ROOM] = "";
        bool ok = probe(t, device, sizeof device, why, sizeof why);
        if (ok && device[0] != '\0' && strncmp(device, "host", 4) != 0)
            *has_gpu = true;
        const bool stand_in = ok && t->method->gpu_only && strncmp(device, "host", 4) == 0;
        if (!ok && t->method->gpu_only && !asked) {
            skipped_add(&skipped, t, why);
            continue;
        }
        runnable->items[runnable->n] = *t;
        runnable->items[runnable->n++].host_stand_in = stand_in;
    }
    if (mpi_note[0] != '\0')
        bench_add_note(info, "%s.", mpi_note);
    skipped_notes(&skipped, info);
    if (distributed[0] != '\0')
        bench_add_note(info,
                       "Not run by default: %.200s (distributed: measure them over P ranks with "
                       "--methods NAME --ranks 1,2,4; --methods NAME alone runs one here as "
                       "one rank).",
                       distributed);
    if (no_f32[0] != '\0')
        bench_add_note(info, "Not run: %.200s (no f32 path in this build).", no_f32);
}

/* Every size before the first trial: a grid that overflows or cannot fit
 * in memory is refused now, not after the sizes before it have run. With
 * --weak, the largest weak grid: NX times the most ranks asked for. */
int bench_sizes_fit(const bench_size *sizes, size_t n, const bench_size *weak,
                    const target_list *targets, heat2d_error *err)
{
    for (size_t k = 0; k < n; ++k)
        if (heat2d_check_host_memory(sizes[k].nx, sizes[k].ny, err) != 0)
            return -1;
    if (weak == NULL || targets == NULL)
        return 0;
    size_t most = 1;
    for (size_t k = 0; k < targets->n; ++k)
        if (targets->items[k].value[HEAT2D_OPTION_RANKS] > most)
            most = targets->items[k].value[HEAT2D_OPTION_RANKS];
    if (weak->nx > SIZE_MAX / most)
        return heat2d_fail(err, "--weak %zux%zu at %zu ranks: the grid's side overflows", weak->nx,
                           weak->ny, most);
    return heat2d_check_host_memory(weak->nx * most, weak->ny, err);
}

/* Every distributed target's rank count against every size: one that
 * cannot split a grid is refused now, with the method's own message, not
 * after mpirun started P processes. (A --weak grid at P ranks, (NX*P)xNY,
 * always splits P x 1.) */
int bench_ranks_fit(const bench_size *sizes, size_t n, const target_list *targets,
                    heat2d_error *err)
{
    for (size_t t = 0; t < targets->n; ++t) {
        const size_t ranks = targets->items[t].value[HEAT2D_OPTION_RANKS];
        int dims[2];
        if (ranks == 0)
            continue;
        if (ranks > INT_MAX)
            return heat2d_fail(err, "--ranks %zu: more ranks than MPI can start", ranks);
        for (size_t k = 0; k < n; ++k)
            if (heat2d_decompose("--ranks", sizes[k].nx, sizes[k].ny, (int)ranks, dims, err) != 0)
                return -1;
    }
    return 0;
}
