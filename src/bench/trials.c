/* heat2d bench: the trials. Each is a fresh `heat2d run` process (under
 * mpirun for a distributed target); warm-ups are not recorded; the order of
 * methods rotates each trial, so that no method always runs on a machine
 * warmed (or heated) by the same neighbour; a failing method is dropped at
 * that size and the others go on; every trial is in trials.csv as soon as
 * it ends. */
#define _GNU_SOURCE
#include "load.h"
#include "programs.h"
#include "run_state.h"
#include "trials_csv.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char launcher_mpirun[PATH_MAX];
static char launcher_self[PATH_MAX];
static char **launcher_env;

void bench_set_launcher(const char *mpirun, const char *self, char **env)
{
    snprintf(launcher_mpirun, sizeof launcher_mpirun, "%s", mpirun);
    snprintf(launcher_self, sizeof launcher_self, "%s", self);
    launcher_env = env;
}

/* Runs `heat2d run` for method target t at s. Returns 0 with res and the
 * process time, or -1 with why. */
static int method_trial(const bench_target *t, const bench_size *s, heat2d_trial_values *res,
                        double *process_s, char *why, size_t why_size)
{
    char nx[32], ny[32], steps[32], np[32];
    char *precision = (char *)heat2d_precision_name(t->value[HEAT2D_OPTION_PRECISION]);
    snprintf(nx, sizeof nx, "%zu", s->nx);
    snprintf(ny, sizeof ny, "%zu", s->ny);
    snprintf(steps, sizeof steps, "%zu", s->steps);
    snprintf(np, sizeof np, "%zu", t->value[HEAT2D_OPTION_RANKS]);
    /* Under mpirun (--oversubscribe: P may exceed the cores, a CI runner has
     * 2, which the efficiency then shows instead of mpirun refusing to
     * start), else this binary itself. */
    char *argv[16 + 2 * HEAT2D_N_OPTIONS];
    size_t n = 0;
    if (t->value[HEAT2D_OPTION_RANKS] > 0) {
        char *launcher[] = {launcher_mpirun, "-q", "--oversubscribe", "-np", np, launcher_self};
        memcpy(argv, launcher, sizeof launcher);
        n = sizeof launcher / sizeof launcher[0];
    } else {
        argv[n++] = BENCH_SELF_EXE;
    }
    char *run_args[] = {"run",     "--method", (char *)t->method->name, "--nx", nx, "--ny", ny,
                        "--steps", steps};
    memcpy(argv + n, run_args, sizeof run_args);
    n += sizeof run_args / sizeof run_args[0];
    /* Each option the target asks for, as run spells it. */
    char flags[HEAT2D_N_OPTIONS][40], texts[HEAT2D_N_OPTIONS][32];
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        if (o->pass != HEAT2D_PASS_ARGV || !heat2d_option_shown(t->value, (heat2d_option_id)k))
            continue;
        snprintf(flags[k], sizeof flags[k], "--%s", o->name);
        argv[n++] = flags[k];
        if (o->text != NULL) {
            o->text(o, t->value[k], texts[k], sizeof texts[k]);
            argv[n++] = texts[k];
        }
    }
    argv[n] = NULL;
    heat2d_child_result cap;
    heat2d_error err = {{0}};
    int spawned =
        bench_spawn(argv, t->value[HEAT2D_OPTION_RANKS] > 0 ? launcher_env : NULL, 0.0, &cap, &err);
    if (spawned != 0) {
        snprintf(why, why_size, "%s", err.message);
        return -1;
    }
    int rc = 0;
    if (!heat2d_child_ok(&cap)) {
        heat2d_child_why(&cap, why, why_size);
        rc = -1;
    } else if (heat2d_trial_read(cap.out, s->nx, s->ny, s->steps, HEAT2D_FROM_RUN, res, &err) !=
               0) {
        snprintf(why, why_size, "%s", err.message);
        rc = -1;
    } else if (strcmp(res->value[HEAT2D_FIELD_PRECISION], precision) != 0) {
        snprintf(why, why_size, "it reported PRECISION=%s, asked for %s",
                 res->value[HEAT2D_FIELD_PRECISION], precision);
        rc = -1;
    }
    *process_s = cap.wall_s;
    heat2d_child_result_free(&cap);
    return rc;
}

/* A time the tables may divide by: at least the clock's resolution. A
 * TOTAL_S of 0 (a program's coarse clock at a small size) or 1e-300 would
 * make a speed-up infinite or absurd. 0, or -1 with why. */
static int measurable(const heat2d_trial_values *res, char *why, size_t why_size)
{
    struct timespec tick = {0, 1};
    clock_getres(CLOCK_MONOTONIC, &tick);
    const double resolution = (double)tick.tv_sec + 1e-9 * (double)tick.tv_nsec;
    if (res->total_s >= resolution)
        return 0;
    snprintf(why, why_size,
             "TOTAL_S=%s is below the clock's resolution (%g s): no speed-up can be computed "
             "from it; time more steps or a larger grid",
             res->value[HEAT2D_FIELD_TOTAL_S], resolution);
    return -1;
}

int bench_run_child(const bench_target *t, const bench_size *s, heat2d_trial_values *res,
                    double *process_s, char *why, size_t why_size)
{
    const int rc = t->kind == BENCH_PROGRAM
                       ? bench_program_trial(t, s, res, process_s, why, why_size)
                       : method_trial(t, s, res, process_s, why, why_size);
    return rc != 0 ? rc : measurable(res, why, why_size);
}

/* One warm-up (trial == 0) or one recorded trial. A failure drops the method
 * for the rest of this size (its later numbers would be no better) and the
 * benchmark goes on; -1 only when trials.csv cannot be written. */
static int bench_one(bench_state *st, size_t t, const bench_size *s, size_t trial, const char *what)
{
    const bench_target *target = &st->info->targets[t];
    bench_progress_show(st, t, s, what);
    heat2d_trial_values res;
    double process_s = 0.0;
    char why[HEAT2D_MESSAGE_ROOM];
    bench_watch_children(bench_progress_tick, st);
    int rc = bench_run_child(target, s, &res, &process_s, why, sizeof why);
    bench_watch_children(NULL, NULL);
    if (bench_interrupted)
        return 0; /* the child was ended on purpose: not a result, not a failure */
    target_at_size *at = &st->at[t];
    st->runs_done++;
    at->done++;
    at->spent += process_s;
    if (rc != 0) {
        char size_text[96];
        bench_size_text(s, '/', size_text, sizeof size_text);
        bench_say(st, "%s %s %s failed: %s; %s is dropped at this size", target->label, size_text,
                  what, why, target->label);
        bench_add_note(st->info, "FAILED: %s at %s, %s: %s. Dropped at this size.", target->label,
                       size_text, what, why);
        at->dropped = true;
        st->failures++;
        return 0;
    }
    bench_progress_record(st, t, s, &res, process_s);
    if (trial == 0)
        return 0;
    at->trials++;
    /* A row that cannot be written (a full disk) is cut back off, and the
     * bench stops: the caller says what trials.csv keeps. */
    if (bench_csv_append(st->csv, st->info, target, trial, s, &res, process_s, &st->ledger_err) !=
        0)
        return -1;
    st->rows++;
    return 0;
}

/* The time budget, before a warm-up of target t: skipped when the runs it
 * would have at this size cannot all fit (the one run that remains is where
 * a warm-up matters least and costs most). */
static bool warm_up_fits(bench_state *st, size_t t, const bench_size *s)
{
    const bench_run_info *info = st->info;
    const double p = bench_progress_predict(st, t, s, st->size_index);
    if (info->budget_s <= 0.0 || p < 0.0 ||
        p * (double)(info->warmups + info->repeats) <= info->budget_s)
        return true;
    st->at[t].no_warmup = true;
    return false;
}

/* The time budget, before a trial of target t: after one recorded trial, no
 * more once the next would take its runs past the budget. */
static bool trial_fits(bench_state *st, size_t t, const bench_size *s)
{
    target_at_size *at = &st->at[t];
    const double p = bench_progress_predict(st, t, s, st->size_index);
    if (st->info->budget_s <= 0.0 || at->trials == 0 || p < 0.0 ||
        at->spent + p <= st->info->budget_s)
        return true;
    at->cut = true;
    return false;
}

void bench_budget_note(const bench_run_info *info, const target_at_size *at, const bench_size *s,
                       char *note, size_t size)
{
    char list[400] = "";
    size_t used = 0;
    bool any_cut = false;
    for (size_t t = 0; t < info->n_targets && used < sizeof list; ++t) {
        if (at[t].dropped || (!at[t].cut && !at[t].no_warmup))
            continue;
        /* A target whose trials all ran lost only its warm-up. */
        const char *sep = used ? ", " : "";
        if (at[t].cut)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s %zu of %zu%s", sep,
                                     info->targets[t].label, at[t].trials, info->repeats,
                                     at[t].no_warmup ? " (no warm-up)" : "");
        else
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s all %zu, no warm-up",
                                     sep, info->targets[t].label, at[t].trials);
        any_cut = any_cut || at[t].cut;
    }
    note[0] = '\0';
    if (used == 0)
        return;
    char size_text[96];
    bench_size_text(s, '/', size_text, sizeof size_text);
    snprintf(note, size,
             "%s at %s, where a method's runs would take more than the %g s budget a method and "
             "size: %s. Every trial: heat2d bench --full.",
             any_cut ? "Fewer trials" : "No warm-up", size_text, info->budget_s, list);
}

/* One note a size for the targets the budget cut, with their trials. */
static void note_budget(bench_state *st, const bench_size *s)
{
    char note[700];
    bench_budget_note(st->info, st->at, s, note, sizeof note);
    if (note[0] != '\0')
        bench_add_note(st->info, "%s", note);
}

/* Every run of every target at s (trials_size), with the load before and
 * after: a size that other work slowed is recorded as busy. */
static int trials_size(bench_state *st, const bench_size *s);

int bench_trials_size(bench_state *st, const bench_size *s)
{
    bench_load_sample before, after;
    bench_load_sample_now(&before);
    const int rc = trials_size(st, s);
    bench_load_sample_now(&after);
    if (!bench_interrupted)
        bench_load_judge(st->info, s, &before, &after);
    return rc;
}

size_t bench_host_stand_ins_at(const bench_run_info *info, size_t size_index, char *list,
                               size_t size)
{
    size_t n = 0, used = 0;
    if (size > 0)
        list[0] = '\0';
    if (size_index < info->gpu_sizes_from || size_index >= info->n_sizes)
        return 0;
    for (size_t t = 0; t < info->n_targets; ++t)
        if (info->targets[t].host_stand_in) {
            const int w =
                snprintf(list + (used < size ? used : size), used < size ? size - used : 0, "%s%s",
                         n++ ? ", " : "", info->targets[t].label);
            used += w > 0 ? (size_t)w : 0;
        }
    return n;
}

/* At a size the default ladder adds for the GPU, the GPU methods this build
 * runs on the host stand aside, with one note: a host run there takes
 * minutes and measures nothing the smaller sizes have not. */
static void set_aside_host_stand_ins(bench_state *st, const bench_size *s)
{
    const bench_run_info *info = st->info;
    char list[400];
    if (bench_host_stand_ins_at(info, st->size_index, list, sizeof list) == 0)
        return;
    for (size_t t = 0; t < info->n_targets; ++t)
        st->at[t].dropped = st->at[t].dropped || info->targets[t].host_stand_in;
    char size_text[96], size_arg[96];
    bench_size_text(s, '/', size_text, sizeof size_text);
    bench_size_text(s, ':', size_arg, sizeof size_arg);
    bench_add_note(st->info,
                   "Not run at %s, the size the ladder adds for the GPU: %s (GPU methods this "
                   "build runs on the host). heat2d bench --sizes %s runs them there.",
                   size_text, list, size_arg);
}

static int trials_size(bench_state *st, const bench_size *s)
{
    const bench_run_info *info = st->info;
    size_t n = info->n_targets;
    for (size_t t = 0; t < n; ++t)
        st->at[t] = (target_at_size){0};
    set_aside_host_stand_ins(st, s);
    char size_text[96];
    bench_size_text(s, '/', size_text, sizeof size_text);
    bench_say(st, "%s: %zu method(s), %zu warm-up(s) + %zu trial(s) each", size_text, n,
              info->warmups, info->repeats);
    for (size_t t = 0; t < n; ++t)
        for (size_t w = 1; w <= info->warmups && !st->at[t].dropped; ++w) {
            char what[48];
            snprintf(what, sizeof what, "warm-up %zu/%zu", w, info->warmups);
            if (bench_interrupted)
                return 0;
            if (!warm_up_fits(st, t, s))
                break;
            if (bench_one(st, t, s, 0, what) != 0)
                return -1;
        }
    /* Until no target is left to run: a target dropped or cut stays so,
     * and a huge --repeats must not spin through its remaining rounds. */
    bool any_left = true;
    for (size_t trial = 1; trial <= info->repeats && any_left; ++trial) {
        if (bench_interrupted)
            return 0;
        any_left = false;
        /* Trial k starts at method (k-1) mod n, as the original's rotation. */
        for (size_t j = 0; j < n; ++j) {
            size_t t = (trial - 1 + j) % n;
            if (st->at[t].dropped || st->at[t].cut || !trial_fits(st, t, s))
                continue;
            if (bench_interrupted)
                return 0;
            any_left = true;
            char what[48];
            snprintf(what, sizeof what, "trial %zu/%zu", trial, info->repeats);
            if (bench_one(st, t, s, trial, what) != 0)
                return -1; /* trials.csv cannot be written: stop */
        }
    }
    /* The count of runs shown stays true: what was skipped will not run. */
    for (size_t t = 0; t < n; ++t)
        st->runs_total -= info->warmups + info->repeats - st->at[t].done;
    note_budget(st, s);
    return 0;
}

/* The grid of target t under --weak, false when it needs no run of its own:
 * not a run under mpirun, or a size that --sizes measured already. */
static bool weak_size(const bench_run_info *info, const bench_target *t, bench_size *s)
{
    if (info->weak == NULL || t->value[HEAT2D_OPTION_RANKS] == 0)
        return false;
    /* Only nx grows: simpler than following the method's own factorisation
     * (which depends on the grid), and cells per rank stay nx*ny either
     * way. */
    *s = *info->weak;
    s->nx *= t->value[HEAT2D_OPTION_RANKS];
    for (size_t k = 0; k < info->n_sizes; ++k)
        if (info->sizes[k].nx == s->nx && info->sizes[k].ny == s->ny &&
            info->sizes[k].steps == s->steps)
            return false;
    return true;
}

/* --weak: each rank count at its own grid, one target at a time, after the
 * sizes (whose warm-up and rotation rules it follows for its one target). */
int bench_trials_weak(bench_state *st)
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
        rc = bench_trials_size(st, &s);
        info->targets = targets;
        info->n_targets = n_targets;
    }
    return rc;
}

size_t bench_weak_runs(const bench_run_info *info)
{
    size_t n = 0;
    bench_size s;
    for (size_t t = 0; t < info->n_targets; ++t)
        n += weak_size(info, &info->targets[t], &s);
    return n;
}
