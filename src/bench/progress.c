/* heat2d bench: progress on a terminal ("[k/n] size method trial, about T
 * left", and once a trial has run a while "[k/n] size method trial, 5 s of
 * about 12 s, about T left", redrawn as it runs), the estimate behind it,
 * and the lines that stay. */
#include "run_state.h"

#include <stdarg.h>
#include <string.h>

static double work_of(const bench_size *s)
{
    return (double)s->nx * (double)s->ny * (double)s->steps;
}

double bench_progress_predict(const bench_state *st, size_t t, const bench_size *s,
                              size_t size_index)
{
    const target_stats *ts = &st->stats[t];
    if (ts->runs == 0)
        return -1.0;
    if (ts->size_index == size_index && ts->size_runs > 0)
        return ts->size_sum / (double)ts->size_runs;
    /* Scaled from its last size by the work: optimistic across the cache
     * edge, corrected as soon as the first run of the new size ends. */
    return ts->overhead_sum / (double)ts->runs + ts->last_total * work_of(s) / ts->last_work;
}

/* The runs still to come of target t at the size_index-th size, with the
 * time budget's cut where the prediction says it will bite. */
static double pending_runs(const bench_state *st, size_t t, size_t size_index, double predicted)
{
    const bench_run_info *info = st->info;
    const target_at_size *at = size_index == st->size_index ? &st->at[t] : NULL;
    if (at != NULL && (at->dropped || at->cut))
        return 0.0;
    double runs = (double)(info->warmups + info->repeats) - (at != NULL ? (double)at->done : 0.0);
    if (info->budget_s > 0.0 && predicted > 0.0) {
        const double spent = at != NULL ? at->spent : 0.0;
        double fit = (info->budget_s - spent) / predicted;
        if (fit < 1.0)
            fit = at != NULL && at->trials > 0 ? 0.0 : 1.0;
        if (runs > fit)
            runs = fit;
    }
    return runs > 0.0 ? runs : 0.0;
}

static double seconds_left(const bench_state *st)
{
    const bench_run_info *info = st->info;
    double left = 0.0;
    for (size_t s = st->size_index; s < info->n_sizes; ++s) {
        double known = 0.0, unknown_runs = 0.0, known_runs = 0.0;
        for (size_t t = 0; t < info->n_targets; ++t) {
            const double p = bench_progress_predict(st, t, &info->sizes[s], s);
            const double pending = pending_runs(st, t, s, p);
            if (p < 0.0) {
                unknown_runs += pending;
            } else {
                known += p * pending;
                known_runs += pending;
            }
        }
        if (unknown_runs > 0.0 && known_runs == 0.0)
            return -1.0; /* nothing to go on */
        /* A method not run yet is taken to cost what the others do. */
        left += known + (known_runs > 0.0 ? known / known_runs * unknown_runs : 0.0);
    }
    return left;
}

/* The line of the run shown; elapsed_s < 0 at its start. The time left
 * counts the run under way as its prediction less what it has run. */
static void draw(bench_state *st, double now, double elapsed_s)
{
    const bench_target *t = &st->info->targets[st->running_target];
    const double predicted = st->running_predicted;
    char size_text[96], running[96] = "", left[48] = "estimating time left", d[32], p[32];
    bench_size_text(st->running_size, '/', size_text, sizeof size_text);
    if (elapsed_s >= 0.0) {
        heat2d_progress_duration(elapsed_s, d, sizeof d);
        heat2d_progress_duration(predicted, p, sizeof p);
        snprintf(running, sizeof running, predicted > 0.0 ? ", %s of about %s" : ", %s", d, p);
    }
    double secs = seconds_left(st);
    if (secs >= 0.0) {
        if (elapsed_s > 0.0 && predicted > 0.0)
            secs -= elapsed_s < predicted ? elapsed_s : predicted;
        heat2d_progress_duration(secs, d, sizeof d);
        snprintf(left, sizeof left, "about %s left", d);
    }
    heat2d_progress_draw(&st->line, now, "[%zu/%zu] %s %s %s%s, %s", st->runs_done + 1,
                         st->runs_total, size_text, t->label, st->running_what, running, left);
}

void bench_progress_clear(bench_state *st)
{
    heat2d_progress_clear(&st->line);
}

void bench_progress_show(bench_state *st, size_t t, const bench_size *s, const char *what)
{
    st->running_target = t;
    st->running_size = s;
    st->running_what = what;
    st->running_predicted = bench_progress_predict(st, t, s, st->size_index);
    draw(st, heat2d_now(), -1.0);
}

void bench_progress_tick(void *ctx, double elapsed_s)
{
    bench_state *st = ctx;
    const double now = heat2d_now();
    /* A run's time is shown once it has run HEAT2D_PROGRESS_AFTER_S. */
    if (elapsed_s >= st->line.after_s && heat2d_progress_due(&st->line, now))
        draw(st, now, elapsed_s);
}

void bench_say(bench_state *st, const char *fmt, ...)
{
    bench_progress_clear(st);
    va_list args;
    va_start(args, fmt);
    fputs("heat2d: bench: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

void bench_progress_record(bench_state *st, size_t t, const bench_size *s,
                           const heat2d_trial_values *res, double process_s)
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
