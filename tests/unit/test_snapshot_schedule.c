/* The snapshot schedule (heat2d_schedule.h): which steps are snapshots,
 * how many a run takes, and the calls heat2d_run_segments makes, checked
 * against the rule every method followed step by step before it (advance
 * one step; after step `done`, a copy when done is a multiple of K and not
 * the last) and against the CUDA resident frame's chunked loop (advance K
 * steps while more than K are left, a copy after each, then the rest), so
 * that every method sees the same advances and copies at the same steps;
 * with a progress hook, the same copies, the steps in pieces, and a report
 * after each. */
#include "unit_check.h"

#include <stdint.h>
#include <string.h>

/* A run's calls: advance(count) as +count, copy(done) as -done. */
typedef struct calls {
    long long seq[256];
    size_t n;
    size_t stop_at_copy; /* copy at this step returns -1; 0: never */
    size_t stop_after;   /* advance returns 1 once this many steps are done; 0: never */
    size_t done;
} calls;

static void record(calls *c, long long v)
{
    if (c->n < sizeof c->seq / sizeof c->seq[0])
        c->seq[c->n] = v;
    c->n++;
}

static int rec_advance(void *method, size_t count, heat2d_error *err)
{
    (void)err;
    calls *c = method;
    record(c, (long long)count);
    c->done += count;
    return c->stop_after > 0 && c->done >= c->stop_after ? 1 : 0;
}

static int rec_copy(void *method, size_t done, heat2d_error *err)
{
    calls *c = method;
    record(c, -(long long)done);
    return c->stop_at_copy == done ? heat2d_fail(err, "stopped at %zu", done) : 0;
}

/* The per-step rule, its runs of single advances merged. */
static void per_step_rule(calls *c, size_t steps, size_t every)
{
    size_t pending = 0;
    for (size_t done = 1; done <= steps; ++done) {
        pending++;
        if (every > 0 && done % every == 0 && done < steps) {
            record(c, (long long)pending);
            record(c, -(long long)done);
            pending = 0;
        }
    }
    record(c, (long long)pending);
}

/* cuda_common.c's loop before the schedule moved to lib. */
static void chunked_rule(calls *c, size_t steps, size_t every_cfg)
{
    const size_t every = every_cfg > 0 ? every_cfg : steps;
    size_t done = 0;
    for (; done + every < steps; done += every) {
        record(c, (long long)every);
        record(c, -(long long)(done + every));
    }
    record(c, (long long)(steps - done));
}

static bool same(const calls *a, const calls *b)
{
    return a->n == b->n && memcmp(a->seq, b->seq, a->n * sizeof a->seq[0]) == 0;
}

static void test_values(void)
{
    check(heat2d_next_snapshot(0, 10, 4) == 4 && heat2d_next_snapshot(4, 10, 4) == 8 &&
              heat2d_next_snapshot(8, 10, 4) == 10 && heat2d_next_snapshot(5, 10, 4) == 8,
          "every 4 of 10: segments end at 4, 8, 10");
    check(heat2d_next_snapshot(0, 10, 0) == 10, "no snapshots: one segment");
    check(heat2d_next_snapshot(0, 10, 25) == 10, "K beyond the run: one segment");
    check(heat2d_next_snapshot(10, 10, 4) == 10, "at the end: the end");
    check(heat2d_next_snapshot(SIZE_MAX - 3, SIZE_MAX, SIZE_MAX - 1) == SIZE_MAX - 1,
          "no overflow near SIZE_MAX");
    check(heat2d_next_snapshot(SIZE_MAX - 1, SIZE_MAX, SIZE_MAX - 1) == SIZE_MAX,
          "no overflow past the last multiple");
    const size_t want[] = {4, 8, 10};
    size_t n = 0;
    bool ok = true;
    for (size_t done = 0; done <= 11; ++done)
        if (heat2d_is_snapshot_step(done, 10, 4))
            ok = ok && n < 3 && want[n++] == done;
    check(ok && n == 3, "every 4 of 10: snapshots after steps 4, 8 and 10");
    check(!heat2d_is_snapshot_step(5, 5, 0), "K 0: no snapshot, not even the last");
    check(heat2d_is_snapshot_step(5, 5, 9), "K beyond the run: the last alone");
    check(heat2d_snapshot_count(10, 4) == 3 && heat2d_snapshot_count(12, 4) == 3 &&
              heat2d_snapshot_count(5, 9) == 1 && heat2d_snapshot_count(5, 0) == 0 &&
              heat2d_snapshot_count(1, 1) == 1,
          "counts: 10/4 3, 12/4 3, 5/9 1, K 0 none, 1/1 1");
    check(heat2d_snapshot_count(SIZE_MAX, 2) == SIZE_MAX / 2 + 1, "count without overflow");
}

static void test_loop_against_rules(void)
{
    heat2d_error err;
    size_t mismatches = 0, cases = 0, counts_off = 0;
    for (size_t steps = 1; steps <= 40; ++steps) {
        for (size_t every = 0; every <= 45; ++every) {
            heat2d_config cfg = {.steps = steps, .output_every = every};
            calls got = {.n = 0}, step_rule = {.n = 0}, chunk_rule = {.n = 0};
            const int rc = heat2d_run_segments(&cfg, rec_advance, rec_copy, &got, &err);
            per_step_rule(&step_rule, steps, every);
            chunked_rule(&chunk_rule, steps, every);
            mismatches +=
                rc != 0 || !same(&got, &step_rule) || !same(&got, &chunk_rule) || got.done != steps;
            /* The copies in the loop and the method's own after it. */
            size_t copies = every > 0 ? 1 : 0;
            for (size_t k = 0; k < got.n; ++k)
                copies += got.seq[k] < 0;
            counts_off += copies != heat2d_snapshot_count(steps, every);
            cases++;
        }
    }
    check(mismatches == 0,
          "%zu of %zu runs (1..40 steps, K 0..45) differ from the per-step and chunked rules",
          mismatches, cases);
    check(counts_off == 0, "%zu of %zu runs take other than heat2d_snapshot_count snapshots",
          counts_off, cases);
}

static void test_stops(void)
{
    heat2d_error err = {{0}};
    heat2d_config cfg = {.steps = 10, .output_every = 3};
    calls c = {.stop_at_copy = 6};
    check(heat2d_run_segments(&cfg, rec_advance, rec_copy, &c, &err) == -1 && c.n == 4 &&
              c.done == 6 && strcmp(err.message, "stopped at 6") == 0,
          "a copy that fails stops the run there with its error");
    calls d = {.stop_after = 4};
    check(heat2d_run_segments(&cfg, rec_advance, rec_copy, &d, &err) == 1 && d.n == 3 &&
              d.done == 6,
          "an advance's own stop value is returned, nothing after it");
}

/* The progress hook: each value it was called with, in order. */
typedef struct reports {
    size_t done[256];
    size_t n;
} reports;

static void rec_progress(void *ctx, size_t done)
{
    reports *r = ctx;
    if (r->n < sizeof r->done / sizeof r->done[0])
        r->done[r->n] = done;
    r->n++;
}

/* got's advances merged between its copies: the calls without pieces. */
static calls merged(const calls *got)
{
    calls m = {.n = 0};
    long long pending = 0;
    for (size_t k = 0; k < got->n; ++k) {
        if (got->seq[k] > 0) {
            pending += got->seq[k];
            continue;
        }
        record(&m, pending);
        record(&m, got->seq[k]);
        pending = 0;
    }
    record(&m, pending);
    return m;
}

static void test_progress(void)
{
    heat2d_error err;
    /* Without pieces: a report after each copy, the advances unchanged. */
    reports r = {.n = 0};
    heat2d_config cfg = {
        .steps = 10, .output_every = 3, .progress = rec_progress, .progress_ctx = &r};
    calls got = {.n = 0}, rule = {.n = 0};
    check(heat2d_run_segments(&cfg, rec_advance, rec_copy, &got, &err) == 0, "progress: runs");
    per_step_rule(&rule, 10, 3);
    check(same(&got, &rule) && r.n == 3 && r.done[0] == 3 && r.done[1] == 6 && r.done[2] == 9,
          "without pieces: the same calls, a report after each copy (3, 6, 9)");

    /* In pieces: the same copies at the same steps, the first piece one
     * step, a report after each piece with the steps done so far. */
    size_t mismatches = 0, cases = 0;
    for (size_t steps = 1; steps <= 40; ++steps) {
        for (size_t every = 0; every <= 45; every += 3) {
            reports p = {.n = 0};
            heat2d_config pc = {.steps = steps,
                                .output_every = every,
                                .progress = rec_progress,
                                .progress_ctx = &p,
                                .progress_pieces = true};
            calls pieces = {.n = 0}, want = {.n = 0};
            const int rc = heat2d_run_segments(&pc, rec_advance, rec_copy, &pieces, &err);
            per_step_rule(&want, steps, every);
            const calls m = merged(&pieces);
            bool ok = rc == 0 && same(&m, &want) && pieces.done == steps && pieces.seq[0] == 1;
            size_t done = 0, k_report = 0;
            for (size_t k = 0; k < pieces.n && ok; ++k) {
                if (pieces.seq[k] < 0)
                    continue;
                done += (size_t)pieces.seq[k];
                ok = k_report < p.n && p.done[k_report++] == done;
            }
            mismatches += !ok || k_report != p.n;
            cases++;
        }
    }
    check(mismatches == 0,
          "%zu of %zu runs in pieces (1..40 steps, K 0..45) differ from the per-step rule, "
          "or report other than the steps done after each piece",
          mismatches, cases);
}

int main(void)
{
    test_values();
    test_loop_against_rules();
    test_stops();
    test_progress();
    printf("test_snapshot_schedule: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
