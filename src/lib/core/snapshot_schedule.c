/* The snapshot schedule (heat2d_schedule.h): the one place that says which
 * steps are snapshots. */
#include "heat2d_schedule.h"
#include "heat2d_args.h"

#include <stdint.h>

size_t heat2d_next_snapshot(size_t done, size_t steps, size_t every)
{
    if (every == 0 || done >= steps)
        return steps;
    const size_t to_next = every - done % every; /* 1..every, no overflow */
    return to_next < steps - done ? done + to_next : steps;
}

bool heat2d_is_snapshot_step(size_t done, size_t steps, size_t every)
{
    return every > 0 && done > 0 && done <= steps &&
           heat2d_next_snapshot(done - 1, steps, every) == done;
}

size_t heat2d_snapshot_count(size_t steps, size_t every)
{
    /* The multiples of every up to steps, and the last step where it is
     * none of them. */
    return every == 0 ? 0 : steps / every + (steps % every != 0 ? 1 : 0);
}

/* A piece of a segment lasts about this long: the progress is called a
 * few times a second, and a piece is long enough that cutting the loop
 * costs nothing. */
#define PIECE_S 0.1

/* Steps done to end in pieces, cfg->progress called after each. A piece
 * starts at one step (a step of a large grid may take seconds) and doubles
 * or halves as the last one took too little or too long. */
static int advance_in_pieces(const heat2d_config *cfg, heat2d_advance_fn advance, void *method,
                             size_t done, size_t end, size_t *piece, heat2d_error *err)
{
    while (done < end) {
        const size_t count = *piece < end - done ? *piece : end - done;
        const double t0 = heat2d_now();
        const int rc = advance(method, count, err);
        if (rc != 0)
            return rc;
        const double took = heat2d_now() - t0;
        done += count;
        cfg->progress(cfg->progress_ctx, done);
        if (took < PIECE_S / 2 && *piece <= SIZE_MAX / 2)
            *piece *= 2;
        else if (took > PIECE_S * 2 && *piece > 1)
            *piece /= 2;
    }
    return 0;
}

int heat2d_run_segments(const heat2d_config *cfg, heat2d_advance_fn advance, heat2d_copy_fn copy,
                        void *method, heat2d_error *err)
{
    const bool pieces = cfg->progress != NULL && cfg->progress_pieces;
    size_t piece = 1;
    size_t done = 0;
    while (done < cfg->steps) {
        const size_t end = heat2d_next_snapshot(done, cfg->steps, cfg->output_every);
        int rc = pieces ? advance_in_pieces(cfg, advance, method, done, end, &piece, err)
                        : advance(method, end - done, err);
        if (rc != 0)
            return rc;
        done = end;
        if (done < cfg->steps && (rc = copy(method, done, err)) != 0)
            return rc;
        if (done < cfg->steps && cfg->progress != NULL && !pieces)
            cfg->progress(cfg->progress_ctx, done);
    }
    return 0;
}
